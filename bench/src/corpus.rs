//! The inputs of the comparisons, written under `target/bench-compare/` so that every
//! contender reads the same files: the shared real-world pages, platform-style pages
//! generated here, and the Mustache listing.

use std::path::{Path, PathBuf};

// The render benchmark's data generator: the listing mustache.js and siteops already
// agree on byte for byte.
#[path = "../../crates/template/benches/render/data.rs"]
mod data;

pub(crate) const LISTING_TEMPLATE: &str =
    include_str!("../../crates/template/benches/render/listing.html");

/// The 181 real-world pages of `shared/conformance/realworld`, unpacked once.
pub(crate) fn realworld(shared: &Path, out: &Path) -> Result<Vec<PathBuf>, String> {
    let archive = shared.join("conformance/realworld/pages.tar.gz");
    let dir = out.join("realworld");
    if !dir.join("pages").is_dir() {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let status = std::process::Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&dir)
            .status()
            .map_err(|e| format!("tar: {e}"))?;
        if !status.success() {
            return Err(format!("cannot unpack {}", archive.display()));
        }
    }
    super::compare::files_in(&dir.join("pages"), ".html")
}

/// Twenty platform-style pages of about 64 KiB: what a markup source serves (sections of
/// default content and blocks, a metadata block, head metadata), generated deterministically.
pub(crate) fn platform_pages(out: &Path) -> Result<Vec<PathBuf>, String> {
    let dir = out.join("platform");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    (0..20u64)
        .map(|i| {
            let path = dir.join(format!("page-{i:02}.html"));
            let html = platform_page(0x9E37_79B9_7F4A_7C15 ^ (i + 1), 64 << 10);
            std::fs::write(&path, html).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(path)
        })
        .collect()
}

/// The 50,000-item listing of the render benchmark: (template, data).
pub(crate) fn listing(out: &Path) -> Result<(PathBuf, PathBuf), String> {
    let dir = out.join("listing");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let template = dir.join("listing.html");
    let json = dir.join("listing.json");
    std::fs::write(&template, LISTING_TEMPLATE).map_err(|e| e.to_string())?;
    if !json.exists() {
        std::fs::write(&json, data::listing(50_000)).map_err(|e| e.to_string())?;
    }
    Ok((template, json))
}

/// xorshift: the same pages on every machine.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn words(&mut self, n: usize) -> String {
        const WORDS: [&str; 24] = [
            "content",
            "delivery",
            "fast",
            "pages",
            "site",
            "author",
            "document",
            "team",
            "publish",
            "preview",
            "blocks",
            "sections",
            "images",
            "links",
            "launch",
            "product",
            "customers",
            "support",
            "pricing",
            "solution",
            "éclair",
            "R&amp;D",
            "&lt;b&gt;",
            "naïve",
        ];
        (0..n)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn platform_page(seed: u64, size: usize) -> String {
    let mut rng = Rng(seed);
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><title>{}</title>\
         <meta name=\"description\" content=\"{}\"><meta property=\"og:title\" content=\"{}\">\
         <meta property=\"og:image\" content=\"/media/og.png\">\
         <meta name=\"viewport\" content=\"width=device-width\"></head>\
         <body><header></header><main>\n",
        rng.words(4),
        rng.words(16),
        rng.words(4)
    );
    let mut n = 0;
    while html.len() < size {
        n += 1;
        html.push_str("<div>\n");
        html.push_str(&format!("<h2 id=\"s{n}\">{}</h2>\n", rng.words(5)));
        for _ in 0..1 + rng.below(3) {
            html.push_str(&format!(
                "<p>{} <a href=\"https://www.example.com/{}\">{}</a> {} <strong>{}</strong> {} <em>{}</em>.</p>\n",
                rng.words(12),
                rng.below(1000),
                rng.words(3),
                rng.words(8),
                rng.words(2),
                rng.words(10),
                rng.words(2)
            ));
        }
        match rng.below(4) {
            0 => {
                html.push_str("<ul>");
                for _ in 0..3 + rng.below(4) {
                    html.push_str(&format!(
                        "<li>{} <a href=\"/docs/{}\">{}</a></li>",
                        rng.words(6),
                        rng.below(100),
                        rng.words(2)
                    ));
                }
                html.push_str("</ul>\n");
            }
            1 => html.push_str(&format!(
                "<p><picture><source type=\"image/webp\" srcset=\"./media_{n:x}.png?width=2000&format=webply\">\
                 <img loading=\"lazy\" alt=\"{}\" src=\"./media_{n:x}.png?width=750&format=png\" width=\"1600\" height=\"900\"></picture></p>\n",
                rng.words(3)
            )),
            _ => {}
        }
        let block = ["columns", "cards", "hero", "columns two-up", "accordion"][rng.below(5)];
        html.push_str(&format!("<div class=\"{block}\">"));
        let (rows, cols) = (1 + rng.below(4), 1 + rng.below(3));
        for _ in 0..rows {
            html.push_str("<div>");
            for _ in 0..cols {
                html.push_str(&format!(
                    "<div><p>{}</p><p><a href=\"https://cdn.example.com/{}\">{}</a></p></div>",
                    rng.words(10),
                    rng.below(10_000),
                    rng.words(2)
                ));
            }
            html.push_str("</div>");
        }
        html.push_str("</div>\n");
        if rng.below(3) == 0 {
            html.push_str(&format!(
                "<div class=\"section-metadata\"><div><div>style</div><div>{}</div></div></div>\n",
                ["highlight", "dark", "wide"][rng.below(3)]
            ));
        }
        html.push_str("</div>\n");
    }
    html.push_str(
        "<div><div class=\"metadata\"><div><div>template</div><div>article</div></div>\
         <div><div>tags</div><div>speed, pages</div></div></div></div>\n",
    );
    html.push_str("</main><footer></footer></body></html>\n");
    html
}
