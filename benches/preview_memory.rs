//! Preview memory: the peak heap of converting one page as a preview does (parse into the
//! content model, write the markdown, render the page and the plain HTML), as a multiple of
//! the page's size, and the time, for pages of several shapes near the 1 MiB page limit.
//! Goals: a peak of at most 30x the page's size whatever its shape, and the page of many
//! small inline trees converted in well under a second.
//!
//! `cargo xtask bench preview_memory` (or `cargo bench --bench preview_memory`). The peak is
//! counted by a global allocator that wraps mimalloc and adds up live bytes, so it is the
//! heap the conversion asks for, not what the allocator keeps around it.

use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use siteops_ingest::render::{PageOptions, page_and_plain};
use siteops_ingest::{IngestOptions, ingest};

/// Live bytes and the highest they reached since the last [`reset_peak`].
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call forwards to mimalloc unchanged; the counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grew(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Starts a measurement: the peak from now on, above what is live now.
fn reset_peak() -> usize {
    let live = LIVE.load(Ordering::Relaxed);
    PEAK.store(live, Ordering::Relaxed);
    live
}

/// The goal for the peak, as a multiple of the page's size.
const PEAK_GOAL: f64 = 30.0;
/// The goal for the time of the page of many small inline trees.
const TIME_GOAL: Duration = Duration::from_millis(500);

const REALWORLD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/conformance/realworld"
);

fn main() {
    let mut shapes: Vec<(String, String)> = vec![
        ("small inline trees".into(), small_inline_trees()),
        ("nested spans".into(), nested_spans()),
        ("deep nesting".into(), deep_nesting()),
        ("big table".into(), big_table()),
    ];
    match largest_realworld_page() {
        Some(page) => shapes.push(("real-world (largest)".into(), page)),
        None => println!("(no real-world page: {REALWORLD} is absent)"),
    }
    let options = PageOptions {
        url: url::Url::parse("http://main--site--org.localhost:3000/page").unwrap(),
        head_html: None,
        delivery: Default::default(),
    };
    println!(
        "{:<22} {:>9} {:>10} {:>8} {:>9}   peak MiB of: {:>7} {:>9} {:>7}",
        "shape", "page KiB", "peak MiB", "peak/x", "time ms", "ingest", "markdown", "render"
    );
    let mut met = true;
    for (name, html) in &shapes {
        let base = reset_peak();
        let start = Instant::now();
        let document = ingest(html, &IngestOptions::default()).expect("bench pages ingest");
        let ingested = PEAK.load(Ordering::Relaxed) - base;
        let markdown = document.to_markdown();
        drop(document);
        let written = PEAK.load(Ordering::Relaxed) - base;
        reset_peak();
        black_box(page_and_plain(&markdown, &options));
        let rendered = PEAK.load(Ordering::Relaxed) - base;
        let time = start.elapsed();
        let peak = ingested.max(written).max(rendered);
        let ratio = peak as f64 / html.len() as f64;
        met &= ratio <= PEAK_GOAL;
        if name == "small inline trees" {
            met &= time < TIME_GOAL;
        }
        let mib = |bytes: usize| bytes as f64 / (1 << 20) as f64;
        println!(
            "{name:<22} {:>9.1} {:>10.1} {:>8.1} {:>9.1}                {:>7.1} {:>9.1} {:>7.1}",
            html.len() as f64 / 1024.0,
            mib(peak),
            ratio,
            time.as_secs_f64() * 1e3,
            mib(ingested),
            mib(written),
            mib(rendered),
        );
    }
    println!(
        "goal: a peak of at most {PEAK_GOAL}x the page, the page of small inline trees in under {} ms",
        TIME_GOAL.as_millis()
    );
    println!("goals {}", if met { "met" } else { "NOT met" });
}

fn page(body: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>Shape</title></head><body><main><div>{body}</div></main></body></html>"
    )
}

/// Fills `body` with `piece(n)` until the page is near 975 KB.
fn fill(mut piece: impl FnMut(usize) -> String) -> String {
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 975_000 {
        body.push_str(&piece(n));
        n += 1;
    }
    page(&body)
}

/// Paragraphs of one link, each around emphasis around strong text: many small trees.
fn small_inline_trees() -> String {
    fill(|n| format!("<p><a href=\"/{n}\"><em><strong>x</strong></em></a></p>"))
}

/// One long paragraph of spans and links nested a few levels.
fn nested_spans() -> String {
    fill(|n| format!("<span><a href=\"/{n}\"><span><em>w{n}</em> </span></a></span>"))
}

/// Divs and formats nested near the parser's depth limit, repeated.
fn deep_nesting() -> String {
    let depth = siteops_ingest::MAX_DEPTH / 2;
    fill(|n| {
        let mut s = String::new();
        for i in 0..depth {
            s.push_str(if i % 2 == 0 { "<div>" } else { "<em>" });
        }
        s.push_str(&format!("t{n}"));
        for i in (0..depth).rev() {
            s.push_str(if i % 2 == 0 { "</div>" } else { "</em>" });
        }
        s
    })
}

/// A block of many rows of three cells (a grid table in the markdown).
fn big_table() -> String {
    let mut rows = String::new();
    let mut n = 0;
    while rows.len() < 970_000 {
        rows.push_str(&format!(
            "<div><div><p>Row {n}</p></div><div><p><a href=\"/r/{n}\">link {n}</a></p></div><div><p><strong>{n}</strong> cell</p></div></div>"
        ));
        n += 1;
    }
    page(&format!("<div class=\"columns\">{rows}</div>"))
}

/// The largest source page of the real-world corpus, unpacked into a scratch directory.
fn largest_realworld_page() -> Option<String> {
    let archive = Path::new(REALWORLD).join("pages.tar.gz");
    if !archive.exists() {
        return None;
    }
    let scratch =
        std::env::temp_dir().join(format!("siteops-preview-memory-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let status = std::process::Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&scratch)
        .status()
        .expect("tar runs");
    assert!(status.success(), "cannot unpack {}", archive.display());
    let largest = std::fs::read_dir(scratch.join("pages"))
        .expect("unpacked pages")
        .flatten()
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .max_by_key(String::len);
    let _ = std::fs::remove_dir_all(&scratch);
    largest
}
