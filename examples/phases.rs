#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let mode = std::env::args().nth(2).unwrap_or_default();
    let html = std::fs::read_to_string(path).unwrap();
    let opts = siteops::ingest::IngestOptions { max_metadata_size: 256_000 };
    let doc = siteops::ingest::ingest(&html, &opts).unwrap();
    if mode == "md" { for _ in 0..60 { std::hint::black_box(doc.to_markdown()); } return; }
    if mode == "ingest" { for _ in 0..60 { std::hint::black_box(siteops::ingest::ingest(&html, &opts).unwrap()); } return; }
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..10 { std::hint::black_box(siteops::ingest::parse_only(&html)); }
        let p = t.elapsed() / 10;
        let t = Instant::now();
        for _ in 0..10 { std::hint::black_box(siteops::ingest::ingest(&html, &opts).unwrap()); }
        let i = t.elapsed() / 10;
        let t = Instant::now();
        for _ in 0..10 { std::hint::black_box(doc.to_markdown()); }
        let m = t.elapsed() / 10;
        println!("parse {p:?} ingest {i:?} markdown {m:?}");
    }
}
