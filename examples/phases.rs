use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let html = std::fs::read_to_string(path).unwrap();
    let opts = siteops::ingest::IngestOptions { max_metadata_size: 256_000 };
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..10 { std::hint::black_box(siteops::ingest::parse_only(&html)); }
        let p = t.elapsed() / 10;
        let t = Instant::now();
        let mut doc = None;
        for _ in 0..10 { doc = Some(siteops::ingest::ingest(&html, &opts).unwrap()); }
        let i = t.elapsed() / 10;
        let doc = doc.unwrap();
        let t = Instant::now();
        for _ in 0..10 { std::hint::black_box(doc.to_markdown()); }
        let m = t.elapsed() / 10;
        println!("parse {p:?} ingest {i:?} markdown {m:?}");
    }
}
