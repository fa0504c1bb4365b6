//! The peers and the floor, each run as its own process by the comparison so that every
//! contender pays the same process, file and allocator costs as `siteops`.
//!
//! - `parse`: html5ever into its reference DOM (`markup5ever_rcdom`), nothing else: the
//!   floor any html5ever-based converter stands on.
//! - `htmd`: the `htmd` crate's converter (turndown's rules), one file after another, as
//!   its users call it.
//! - `ramhorns`: the listing through ramhorns with typed data (serde into structs that
//!   derive `Content`), ramhorns' fastest way.
//! - `mustache-crate`: the listing through the `mustache` crate (0.9), from the same
//!   typed data.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use html5ever::tendril::TendrilSink;

/// Reads a page as siteops reads it: bytes, then UTF-8 (invalid sequences replaced).
fn read_page(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Runs `work` over `files` on `threads` threads, each taking the next file.
fn each_file(
    files: &[PathBuf],
    threads: usize,
    work: impl Fn(&Path) -> Result<(), String> + Sync,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let first_error = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(e) = work(file) {
                        first_error
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(e);
                    }
                }
            });
        }
    });
    match first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `parse [--threads N] FILE...`: every file parsed into an RcDom and dropped.
pub(crate) fn parse(args: &[String]) -> Result<(), String> {
    let (threads, files) = threads_and_files(args)?;
    each_file(&files, threads, |file| {
        let html = read_page(file)?;
        let dom = html5ever::parse_document(
            markup5ever_rcdom::RcDom::default(),
            html5ever::ParseOpts::default(),
        )
        .one(html);
        std::hint::black_box(&dom);
        Ok(())
    })
}

/// `htmd --out DIR FILE...`: every file converted to DIR/NAME.md.
pub(crate) fn htmd(args: &[String]) -> Result<(), String> {
    let [flag, out, files @ ..] = args else {
        return Err("usage: htmd --out DIR FILE...".into());
    };
    if flag != "--out" {
        return Err("usage: htmd --out DIR FILE...".into());
    }
    let out = Path::new(out);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
    each_file(&files, 1, |file| {
        let html = read_page(file)?;
        let markdown = htmd::convert(&html).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        let target = out.join(format!("{name}.md"));
        std::fs::write(&target, markdown).map_err(|e| format!("{}: {e}", target.display()))
    })
}

fn threads_and_files(args: &[String]) -> Result<(usize, Vec<PathBuf>), String> {
    match args {
        [flag, n, files @ ..] if flag == "--threads" => {
            let n = n
                .parse()
                .map_err(|_| format!("--threads wants a number, not {n}"))?;
            Ok((n, files.iter().map(PathBuf::from).collect()))
        }
        files => Ok((1, files.iter().map(PathBuf::from).collect())),
    }
}

#[derive(serde::Deserialize, serde::Serialize, ramhorns::Content)]
struct Listing {
    title: String,
    description: String,
    total: u64,
    data: Vec<Item>,
}

#[derive(serde::Deserialize, serde::Serialize, ramhorns::Content)]
#[allow(non_snake_case)] // the JSON's names, as the template writes them
struct Item {
    path: String,
    title: String,
    summary: String,
    price: Price,
    inStock: bool,
    image: Image,
    tags: Vec<String>,
}

#[derive(serde::Deserialize, serde::Serialize, ramhorns::Content)]
struct Price {
    formatted: String,
}

#[derive(serde::Deserialize, serde::Serialize, ramhorns::Content)]
struct Image {
    src: String,
    alt: String,
}

/// The template and the typed listing of `TEMPLATE DATA.json`.
fn listing_args(args: &[String], command: &str) -> Result<(String, Listing), String> {
    let [template, data] = args else {
        return Err(format!("usage: {command} TEMPLATE DATA.json"));
    };
    let template = std::fs::read_to_string(template).map_err(|e| format!("{template}: {e}"))?;
    let data = std::fs::read(data).map_err(|e| format!("{data}: {e}"))?;
    let listing = serde_json::from_slice(&data).map_err(|e| e.to_string())?;
    Ok((template, listing))
}

fn print(bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_all(bytes)
        .map_err(|e| e.to_string())
}

/// `ramhorns TEMPLATE DATA.json`: the listing rendered to standard output.
pub(crate) fn ramhorns(args: &[String]) -> Result<(), String> {
    let (template, listing) = listing_args(args, "ramhorns")?;
    let template = ramhorns::Template::new(template).map_err(|e| e.to_string())?;
    print(template.render(&listing).as_bytes())
}

/// `mustache-crate TEMPLATE DATA.json`: the listing rendered to standard output.
pub(crate) fn mustache_crate(args: &[String]) -> Result<(), String> {
    let (template, listing) = listing_args(args, "mustache-crate")?;
    let template = mustache::compile_str(&template).map_err(|e| e.to_string())?;
    let mut html = Vec::new();
    template
        .render(&mut html, &listing)
        .map_err(|e| e.to_string())?;
    print(&html)
}

/// `pages FILE...`: per page, the time of html5ever alone (siteops' sink) and of the whole
/// ingestion with the markdown, best of five, the pages with the largest extra cost first:
/// where to look when the ingestion falls behind the parse.
pub(crate) fn pages(args: &[String]) -> Result<(), String> {
    let options = siteops_ingest::IngestOptions {
        max_metadata_size: 256_000,
    };
    let best = |f: &dyn Fn()| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let mut rows = Vec::new();
    for file in args {
        let html = read_page(Path::new(file))?;
        let parse = best(&|| {
            std::hint::black_box(siteops_ingest::parse_only(&html));
        });
        let ingest = best(&|| {
            if let Ok(doc) = siteops_ingest::ingest(&html, &options) {
                std::hint::black_box(doc.to_markdown());
            }
        });
        let markdown = siteops_ingest::ingest(&html, &options).map_or(0, |d| d.to_markdown().len());
        rows.push((
            ingest.saturating_sub(parse),
            parse,
            ingest,
            html.len(),
            markdown,
            file,
        ));
    }
    rows.sort_by_key(|row| std::cmp::Reverse(row.0));
    let (parse, ingest): (std::time::Duration, std::time::Duration) = rows
        .iter()
        .fold(Default::default(), |(p, i), r| (p + r.1, i + r.2));
    println!("all pages: parse {parse:?}, ingest + markdown {ingest:?}");
    println!(
        "{:>10} {:>10} {:>10} {:>9} {:>9}  page",
        "extra", "parse", "ingest", "html", "md"
    );
    for (extra, parse, ingest, html, md, file) in rows.iter().take(25) {
        println!("{extra:>10.2?} {parse:>10.2?} {ingest:>10.2?} {html:>9} {md:>9}  {file}");
    }
    Ok(())
}
