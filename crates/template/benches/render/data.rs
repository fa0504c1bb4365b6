//! Deterministic benchmark documents, shared by the render and worker-load benchmarks.
// Each benchmark uses part of this module.
#![allow(dead_code)]

/// A small deterministic generator (xorshift), so every run and mustache.js see the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn words(&mut self, count: usize) -> String {
        const WORDS: [&str; 16] = [
            "acme", "steel", "light", "durable", "kettle", "blue", "<fast>", "quiet", "oak",
            "\"pro\"", "compact", "café", "R&D", "eco", "smart", "grip",
        ];
        let mut text = String::new();
        for i in 0..count {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(WORDS[self.below(WORDS.len() as u64) as usize]);
        }
        text
    }
}

pub(super) fn product() -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let images: Vec<_> = (0..20)
        .map(|i| {
            serde_json::json!({"src": format!("/media/products/1234/{i}.jpg"), "alt": rng.words(4)})
        })
        .collect();
    let specs: Vec<_> = (0..150)
        .map(|i| serde_json::json!({"label": format!("Spec {i}"), "value": rng.words(3)}))
        .collect();
    let reviews: Vec<_> = (0..100)
        .map(|i| {
            serde_json::json!({
                "title": rng.words(4),
                "author": {"name": format!("Reviewer {i}"), "verified": i % 3 == 0},
                "rating": rng.below(5) + 1,
                "date": format!("2026-{:02}-{:02}", rng.below(12) + 1, rng.below(28) + 1),
                "body": rng.words(40),
            })
        })
        .collect();
    serde_json::json!({
        "name": "Acme Kettle <Pro>",
        "summary": rng.words(30),
        "price": {"amount": 49.9, "currency": "EUR", "formatted": "€49.90"},
        "inStock": true,
        "tags": ["kitchen", "kettle", "steel", "gift"],
        "images": images,
        "descriptionHtml": format!("<p>{}</p>", rng.words(600)),
        "specs": specs,
        "manual": "/manuals/kettle.pdf",
        "reviews": reviews,
    })
    .to_string()
}

pub(super) fn listing(items: usize) -> String {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let data: Vec<_> = (0..items)
        .map(|i| {
            serde_json::json!({
                "path": format!("/products/item-{i}"),
                "title": rng.words(2),
                "summary": rng.words(2),
                "price": {"formatted": format!("€{}.{:02}", rng.below(100), rng.below(100))},
                "inStock": rng.below(4) != 0,
                "image": {"src": format!("/media/items/{i}.jpg"), "alt": rng.words(1)},
                "tags": [rng.words(1), rng.words(1)],
            })
        })
        .collect();
    serde_json::json!({
        "title": "All products",
        "description": "Everything Acme sells",
        "total": items,
        "data": data,
    })
    .to_string()
}
