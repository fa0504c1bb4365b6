//! The worker's render path: a template compiled once, rendered over JSON that is parsed on
//! every run (as the worker parses each endpoint response).
//!
//! Two documents, generated deterministically: a product page (about 50 KB of JSON) and a
//! 50,000-item listing (about 8 MB) rendered in full. `cargo bench -p siteops-template --bench render` prints
//! the median and best time of parse, render, and both, and writes the inputs and outputs
//! to `target/bench-render/` so that `crates/template/benches/render/mustache-js.mjs` can time mustache.js
//! on the same template and data and check that both outputs are identical
//! (`cargo xtask bench-render` runs both).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use siteops_template::json::Json;

#[path = "render/data.rs"]
mod data;
use data::{listing, product};
use siteops_template::{NoPartials, Template};

struct Case {
    name: &'static str,
    template: &'static str,
    data: fn() -> String,
    runs: usize,
}

fn main() {
    let out_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-render");
    std::fs::create_dir_all(&out_dir).expect("create target/bench-render");
    let cases = [
        Case {
            name: "product",
            template: include_str!("render/product.html"),
            data: product,
            runs: 400,
        },
        Case {
            name: "listing",
            template: include_str!("render/listing.html"),
            data: || listing(50_000),
            runs: 15,
        },
    ];
    println!(
        "{:<8} {:>9} {:>10}  {:>21}  {:>21}  {:>21}",
        "case", "json", "html", "parse med/best", "render med/best", "total med/best"
    );
    // `cargo bench --bench render -- product` runs only the cases whose name contains an argument.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for case in &cases {
        if !filters.is_empty() && !filters.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let data = (case.data)();
        let template = Template::compile(case.template).expect("bench template compiles");
        let mut parse = Vec::new();
        let mut render = Vec::new();
        let mut total = Vec::new();
        let mut html = String::new();
        for _ in 0..case.runs {
            // The worker parses each response body where it was received (read with room
            // for the parser's padding).
            let mut body = Vec::with_capacity(data.len() + 64);
            body.extend_from_slice(black_box(data.as_bytes()));
            let start = Instant::now();
            let document = Json::parse_in_place(&mut body).expect("bench data parses");
            let parsed = start.elapsed();
            html = template
                .render(document.root(), &NoPartials)
                .expect("bench render");
            let done = start.elapsed();
            drop(black_box(document));
            parse.push(parsed);
            render.push(done - parsed);
            total.push(done);
        }
        println!(
            "{:<8} {:>7}KB {:>8}KB  {}  {}  {}",
            case.name,
            data.len() / 1024,
            html.len() / 1024,
            summary(&mut parse),
            summary(&mut render),
            summary(&mut total),
        );
        let base = out_dir.join(case.name);
        std::fs::write(base.with_extension("json"), &data).expect("write data");
        std::fs::write(base.with_extension("mustache"), case.template).expect("write template");
        std::fs::write(base.with_extension("out.html"), &html).expect("write output");
    }
    println!("inputs and outputs written to {}", out_dir.display());
}

fn summary(times: &mut [Duration]) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "{:>9.3}ms/{:>8.3}ms",
        ms(times[times.len() / 2]),
        ms(times[0])
    )
}
