//! Ingestion throughput: the html2md conformance pages and generated pages of 16 KiB,
//! 128 KiB and 1 MiB, converted to markdown (and rendered as the preview page), against
//! html5ever parsing alone. Goals: at least 40x the reference converter's throughput on the
//! same pages, and at least half of the parse-only rate.
//!
//! `cargo bench --bench ingest` prints pages/s and MB/s per group and writes the inputs to
//! `target/ingest-bench/<group>/`, so that `benches/html2md-reference.mjs` can time the
//! reference converter on exactly the same pages (see README.md, "Benchmarks").
//!
//! `siteops ingest` itself, as a user runs it, on the real-world corpus and beside its
//! peers: `cargo xtask bench compare ingest`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use siteops_ingest::render::{PageOptions, page_html};
use siteops_ingest::{IngestOptions, ingest, parse_only};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/conformance/html2md");
/// Each measurement repeats the group until this much time has passed, best of RUNS.
const MIN_TIME: Duration = Duration::from_millis(400);
const RUNS: usize = 3;

fn main() {
    // The 248 KB JSON-LD page is its own group: it measures JSON re-indentation and one
    // huge table cell, not page structure.
    let (json_ld, pages): (Vec<String>, Vec<String>) = fixtures()
        .into_iter()
        .partition(|p| p.contains("application/ld+json") && p.len() > 100_000);
    let mut groups: Vec<(String, Vec<String>)> = vec![
        ("fixtures".into(), pages),
        ("json-ld-large".into(), json_ld),
    ];
    for size in [16 << 10, 128 << 10, 1 << 20] {
        groups.push((
            format!("generated-{}k", size >> 10),
            vec![generated_page(size)],
        ));
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ingest-bench");
    let options = IngestOptions {
        max_metadata_size: 256_000,
    };
    let page = PageOptions {
        url: url::Url::parse("https://main--site--org.aem.page/").unwrap(),
        head_html: None,
        delivery: Default::default(),
    };
    println!(
        "{:<16} {:>6} {:>9}  {:>22}  {:>22}  {:>22}",
        "group", "pages", "KiB", "parse only", "ingest + markdown", "ingest + page html"
    );
    for (name, pages) in &groups {
        write_inputs(&out.join(name), pages);
        let bytes: usize = pages.iter().map(String::len).sum();
        let parse = measure(pages, |html| {
            black_box(parse_only(html));
        });
        let markdown = measure(pages, |html| {
            let doc = ingest(html, &options).expect("bench pages ingest");
            black_box(doc.to_markdown());
        });
        let rendered = measure(pages, |html| {
            let doc = ingest(html, &options).expect("bench pages ingest");
            black_box(page_html(&doc.to_markdown(), &page));
        });
        println!(
            "{name:<16} {:>6} {:>9.1}  {}  {}  {}",
            pages.len(),
            bytes as f64 / 1024.0,
            rate(pages.len(), bytes, parse),
            rate(pages.len(), bytes, markdown),
            rate(pages.len(), bytes, rendered),
        );
    }
    println!(
        "\ninputs written to {}; time the reference with:\n  HTML2MD_MODULE=<path to @adobe/helix-html2md>/src/index.js node benches/html2md-reference.mjs {}",
        out.display(),
        out.display()
    );
}

/// Best time per pass over `pages`.
fn measure(pages: &[String], mut f: impl FnMut(&str)) -> Duration {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut passes = 0u32;
            while start.elapsed() < MIN_TIME || passes == 0 {
                for page in pages {
                    f(page);
                }
                passes += 1;
            }
            start.elapsed() / passes
        })
        .min()
        .expect("at least one run")
}

fn rate(pages: usize, bytes: usize, per_pass: Duration) -> String {
    let secs = per_pass.as_secs_f64();
    format!(
        "{:>8.0} p/s {:>7.1} MB/s",
        pages as f64 / secs,
        bytes as f64 / secs / 1e6
    )
}

fn fixtures() -> Vec<String> {
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in ["fixtures", "roundtrip"] {
        for entry in std::fs::read_dir(Path::new(FIXTURES).join(dir)).expect("conformance data") {
            let path = entry.expect("readable").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let skip = ["image-large", "images-large", "unspread", "json-ld-invalid"];
            if name.ends_with(".html")
                && !name.ends_with(".output.html")
                && !skip.iter().any(|s| name.starts_with(s))
            {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable fixture"))
        .collect()
}

fn write_inputs(dir: &Path, pages: &[String]) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("bench output directory");
    for (i, page) in pages.iter().enumerate() {
        std::fs::write(dir.join(format!("page-{i:03}.html")), page).expect("write bench input");
    }
}

/// A page of about `size` bytes with the usual content: headings, paragraphs with links
/// and formats, lists, images, and blocks of several rows and cells.
fn generated_page(size: usize) -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html lang=\"en\"><head><title>Generated page</title>\
         <meta name=\"description\" content=\"A generated page for the ingestion benchmark\">\
         <meta property=\"og:image\" content=\"/media/og.png\"></head><body><header></header><main>\n",
    );
    let mut n = 0usize;
    while html.len() < size {
        n += 1;
        html.push_str("<div>\n");
        html.push_str(&format!(
            "<h2 id=\"s{n}\">Section {n}: about the <em>things</em> we do</h2>\n"
        ));
        for p in 0..4 {
            html.push_str(&format!(
                "<p>Paragraph {p} of section {n} has <strong>strong</strong> and <em>emphasised</em> words, \
                 a <a href=\"https://www.example.com/docs/page-{n}-{p}.html\">link to page {p}</a>, some \
                 <code>inline_code()</code> and plain text that goes on for a while, 1 + 2 = 3 & so on.</p>\n"
            ));
        }
        html.push_str("<ul>\n");
        for i in 0..5 {
            html.push_str(&format!(
                "<li>Item {i} with <a href=\"/path/{n}/{i}\">a link</a></li>\n"
            ));
        }
        html.push_str("</ul>\n");
        html.push_str(&format!(
            "<p><picture><source srcset=\"./media_{n:x}.png?width=2000\"><img src=\"./media_{n:x}.png?width=750\" alt=\"Image {n}\"></picture></p>\n"
        ));
        html.push_str("<div class=\"columns two-up\">\n");
        for row in 0..3 {
            html.push_str("<div>");
            for cell in 0..3 {
                html.push_str(&format!(
                    "<div><p>Row {row}, cell {cell}: text in a block cell that wraps in the grid table.</p>\
                     <p><a href=\"https://cdn.example.com/{n}/{row}/{cell}\">More</a></p></div>"
                ));
            }
            html.push_str("</div>\n");
        }
        html.push_str("</div>\n</div>\n");
    }
    html.push_str("</main><footer></footer></body></html>\n");
    html
}
