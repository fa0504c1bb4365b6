//! `siteops-bench`: siteops side by side with the converters and renderers users could pick
//! instead, each run as its own process on the same files (`cargo xtask bench compare`).
//!
//! ```text
//! siteops-bench compare [ingest|render] [--rounds N] [--instructions]
//!                                                     the comparisons, with ratios and goals
//!                                                     (and callgrind's instruction counts)
//! siteops-bench parse [--threads N] FILE...            the parse-only floor
//! siteops-bench htmd --out DIR FILE...                 the htmd crate's converter
//! siteops-bench ramhorns TEMPLATE DATA.json            ramhorns on typed data
//! siteops-bench mustache-crate TEMPLATE DATA.json      the mustache crate on typed data
//! siteops-bench pages FILE...                           per page: parse vs whole ingestion
//! ```
//!
//! siteops itself is the release binary next to this one (`target/release/siteops`); the
//! references (helix-html2md, mustache.js) run from `shared/anchors` when its packages are
//! installed (`npm ci` there), and are reported as skipped otherwise.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod compare;
mod corpus;
mod peers;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use compare::{Contender, goal, print_table, ratio};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("compare") => compare_command(&args[1..]),
        Some("parse") => peers::parse(&args[1..]),
        Some("htmd") => peers::htmd(&args[1..]),
        Some("ramhorns") => peers::ramhorns(&args[1..]),
        Some("mustache-crate") => peers::mustache_crate(&args[1..]),
        Some("pages") => peers::pages(&args[1..]),
        _ => Err("usage: siteops-bench compare [ingest|render] [--rounds N] [--instructions] | parse | htmd | ramhorns (see the crate's documentation)".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("siteops-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Where everything is.
struct Paths {
    siteops: PathBuf,
    me: PathBuf,
    shared: PathBuf,
    out: PathBuf,
}

impl Paths {
    fn find() -> Result<Paths, String> {
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let siteops = me.with_file_name("siteops");
        if !siteops.exists() {
            return Err(format!(
                "{} not found: build it first (cargo build --release)",
                siteops.display()
            ));
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        Ok(Paths {
            siteops,
            me,
            shared: root.join("../shared"),
            out: root.join("target/bench-compare"),
        })
    }

    fn anchors(&self) -> PathBuf {
        self.shared.join("anchors")
    }

    /// Whether the reference runners can run here.
    fn node_ready(&self) -> Result<(), String> {
        if !self.anchors().join("node_modules").is_dir() {
            return Err(format!("run `npm ci` in {}", self.anchors().display()));
        }
        match std::process::Command::new("node").arg("--version").output() {
            Ok(o) if o.status.success() => Ok(()),
            _ => Err("node not found".into()),
        }
    }
}

fn compare_command(args: &[String]) -> Result<(), String> {
    // The machine this runs on is noisy (shared cores): medians of many runs hold still.
    let mut rounds = 15;
    let mut instructions = false;
    let mut suites = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n| *n > 0)
                    .ok_or("--rounds wants a positive number")?;
            }
            "--instructions" => instructions = true,
            "ingest" | "render" => suites.push(arg.as_str()),
            other => {
                return Err(format!(
                    "unknown suite or flag {other}: ingest, render, --rounds N, --instructions"
                ));
            }
        }
    }
    if suites.is_empty() {
        suites = vec!["ingest", "render"];
    }
    let paths = Paths::find()?;
    std::fs::create_dir_all(&paths.out).map_err(|e| e.to_string())?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "siteops-bench: {cores} cores, whole processes, medians of {rounds} rounds (each round runs every contender once; the references at most 3 or 5 times)"
    );
    for suite in suites {
        match suite {
            "ingest" => {
                let realworld = corpus::realworld(&paths.shared, &paths.out)?;
                compare_ingest(&paths, "real-world pages", &realworld, rounds, instructions)?;
                let platform = corpus::platform_pages(&paths.out)?;
                compare_ingest(
                    &paths,
                    "platform-style pages",
                    &platform,
                    rounds,
                    instructions,
                )?;
            }
            _ => compare_render(&paths, rounds)?,
        }
    }
    Ok(())
}

fn compare_ingest(
    paths: &Paths,
    corpus: &str,
    files: &[PathBuf],
    rounds: usize,
    instructions: bool,
) -> Result<(), String> {
    let out = paths.out.join("out");
    let bytes = compare::total_size(files);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let siteops = |jobs: usize, dir: &str| {
        Contender::new(format!("siteops ingest --jobs {jobs}"), &paths.siteops)
            .args([
                "ingest",
                "--max-input-size",
                "16777216",
                "--jobs",
                &jobs.to_string(),
                "--out",
            ])
            .args([out.join(dir)])
            .args(files)
            .writes(&out.join(dir))
    };
    // In this order: the goals below name them by these positions.
    const ALL_CORES: usize = 0;
    const ONE_THREAD: usize = 1;
    const HTMD: usize = 2;
    const HELIX: usize = 3;
    const FLOOR: usize = 4;
    let mut contenders = vec![
        siteops(cores, "siteops"),
        siteops(1, "siteops-1"),
        Contender::new("htmd 0.5 (one thread)", &paths.me)
            .args([
                "htmd".as_ref(),
                "--out".as_ref(),
                out.join("htmd").as_os_str(),
            ])
            .args(files)
            .writes(&out.join("htmd")),
        Contender::new("helix-html2md 2.2.4 (node)", "node")
            .args([
                paths.anchors().join("html2md.mjs").as_os_str(),
                "--out".as_ref(),
                out.join("helix").as_os_str(),
            ])
            .args(files)
            .writes(&out.join("helix"))
            .needs(paths.node_ready())
            .at_most(3),
        Contender::new("parse only: html5ever to RcDom, one thread", &paths.me)
            .args(["parse", "--threads", "1"])
            .args(files),
        Contender::new(
            format!("parse only: html5ever to RcDom, {cores} threads"),
            &paths.me,
        )
        .args(["parse", "--threads", &cores.to_string()])
        .args(files),
    ];
    let timings = compare::run(&mut contenders, rounds)?;
    print_table(
        &format!(
            "HTML to markdown: {} {corpus} ({:.1} MB); time ratio = contender / siteops",
            files.len(),
            bytes as f64 / 1e6
        ),
        &contenders,
        &timings,
        bytes,
    );
    goal(
        "siteops ingest / htmd, wall time",
        ratio(&timings, ALL_CORES, HTMD),
        |r| r < 1.0,
        "goal < 1",
    );
    goal(
        "siteops ingest --jobs 1 / htmd, wall time",
        ratio(&timings, ONE_THREAD, HTMD),
        |r| r < 1.0,
        "goal < 1",
    );
    goal(
        "siteops ingest --jobs 1 / parse only on one thread",
        ratio(&timings, ONE_THREAD, FLOOR),
        |r| r <= 1.3,
        "goal <= 1.3",
    );
    goal(
        "siteops ingest CPU / wall on a batch",
        timings[ALL_CORES].map(|t| t.cpu.as_secs_f64() / t.wall.as_secs_f64()),
        |r| r > 1.7,
        "goal > 1.7",
    );
    goal(
        "helix-html2md / siteops ingest",
        ratio(&timings, HELIX, ALL_CORES),
        |r| r > 1.0,
        "goal > 1",
    );
    if instructions {
        print_instructions(&mut contenders, &[ONE_THREAD, HTMD, FLOOR], FLOOR)?;
    }
    Ok(())
}

/// Callgrind's instruction counts of the one-thread contenders, against the floor's: the
/// figure a noisy machine does not move (it leaves out what the instructions wait for:
/// cache misses, page faults, the file system).
fn print_instructions(
    contenders: &mut [Contender],
    which: &[usize],
    floor: usize,
) -> Result<(), String> {
    println!("  instructions executed (callgrind, one run each):");
    let mut counts = Vec::new();
    for &i in which {
        counts.push((i, compare::instructions(&mut contenders[i])?));
    }
    let floor_count = counts
        .iter()
        .find(|(i, _)| *i == floor)
        .and_then(|(_, c)| *c);
    for (i, count) in counts {
        match (count, floor_count) {
            (Some(c), Some(f)) => println!(
                "    {:<44} {:>6.2} G  {:>5.2}x the parse-only floor",
                contenders[i].name,
                c as f64 / 1e9,
                c as f64 / f as f64
            ),
            _ => println!("    {:<44} n/a (valgrind not found)", contenders[i].name),
        }
    }
    Ok(())
}

fn compare_render(paths: &Paths, rounds: usize) -> Result<(), String> {
    let (template, data) = corpus::listing(&paths.out)?;
    let bytes = std::fs::metadata(&data).map_err(|e| e.to_string())?.len();
    // In this order: the goals below name them by these positions.
    const SITEOPS: usize = 0;
    const RAMHORNS: usize = 1;
    const MUSTACHE_CRATE: usize = 2;
    const MUSTACHE_JS: usize = 3;
    let mut contenders = vec![
        Contender::new("siteops template render", &paths.siteops).args([
            "template".as_ref(),
            "render".as_ref(),
            template.as_os_str(),
            data.as_os_str(),
        ]),
        Contender::new("ramhorns 1.0 (typed data, serde)", &paths.me).args([
            "ramhorns".as_ref(),
            template.as_os_str(),
            data.as_os_str(),
        ]),
        Contender::new("mustache 0.9 crate (typed data, serde)", &paths.me).args([
            "mustache-crate".as_ref(),
            template.as_os_str(),
            data.as_os_str(),
        ]),
        Contender::new("mustache.js 4.2.0 (node)", "node")
            .args([
                paths.anchors().join("mustache.mjs").as_os_str(),
                template.as_os_str(),
                data.as_os_str(),
            ])
            .needs(paths.node_ready()),
    ];
    let same = identical_to_mustache_js(paths, &template, &data);
    let timings = compare::run(&mut contenders, rounds)?;
    print_table(
        &format!(
            "Mustache: the 50,000-item listing ({:.1} MB of JSON, parsed and rendered); time ratio = contender / siteops",
            bytes as f64 / 1e6
        ),
        &contenders,
        &timings,
        bytes,
    );
    goal(
        "ramhorns / siteops, wall time",
        ratio(&timings, RAMHORNS, SITEOPS),
        |r| r > 1.0,
        "goal > 1",
    );
    goal(
        "mustache crate / siteops, wall time",
        ratio(&timings, MUSTACHE_CRATE, SITEOPS),
        |r| r > 1.0,
        "goal > 1",
    );
    goal(
        "mustache.js / siteops, wall time",
        ratio(&timings, MUSTACHE_JS, SITEOPS),
        |r| r > 1.0,
        "goal > 1",
    );
    match same {
        Ok(true) => println!("  output byte-identical to mustache.js: yes"),
        Ok(false) => return Err("siteops' listing differs from mustache.js'".into()),
        Err(why) => println!("  output compared with mustache.js: skipped ({why})"),
    }
    Ok(())
}

/// Whether siteops renders the listing exactly as mustache.js does.
fn identical_to_mustache_js(paths: &Paths, template: &Path, data: &Path) -> Result<bool, String> {
    paths.node_ready()?;
    let ours = std::process::Command::new(&paths.siteops)
        .args([
            "template".as_ref(),
            "render".as_ref(),
            template.as_os_str(),
            data.as_os_str(),
        ])
        .output()
        .map_err(|e| e.to_string())?;
    let theirs = std::process::Command::new("node")
        .arg(paths.anchors().join("mustache.mjs"))
        .args([template, data])
        .output()
        .map_err(|e| e.to_string())?;
    if !ours.status.success() || !theirs.status.success() {
        return Err("a renderer failed".into());
    }
    Ok(ours.stdout == theirs.stdout)
}
