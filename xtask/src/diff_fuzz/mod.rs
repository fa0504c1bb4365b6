//! `cargo xtask diff-fuzz`: a differential test generator. Random and mutated pages go
//! through siteops and through the reference implementations (`shared/anchors`), batch by
//! batch, for a fixed time; each page on which they differ is shrunk (delta debugging over
//! its tags and text runs, keeping the same kind of difference) and written, with the
//! reference's outputs (`NAME/input.html`, `NAME/reference.md` or `.error`,
//! `reference.plain.html`, `reference.html`), as a fixture that `tests/it/differential.rs` checks from then on.
//! Deterministic for a seed, up to the time budget.

mod compare;
mod generate;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use compare::{Kind, Outputs, Tools};
use generate::Rng;

const USAGE: &str = "usage: cargo xtask diff-fuzz [--budget SECS] [--seed N] [--out DIR] [--max N]
  --budget SECS  how long to generate and compare (default 60)
  --seed N       the random seed (default 1)
  --out DIR      where minimal cases go (default tests/fixtures/differential)
  --max N        stop after N new cases (default 10)
needs node and `npm ci` in ../shared/anchors; skipped otherwise";

struct Options {
    budget: Duration,
    seed: u64,
    out: PathBuf,
    max: usize,
}

fn options(args: &[String], root: &Path) -> Result<Options, String> {
    let mut o = Options {
        budget: Duration::from_secs(60),
        seed: 1,
        out: root.join("tests/fixtures/differential"),
        max: 10,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        let number = |v: &String| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag.as_str() {
            "--budget" => o.budget = Duration::from_secs(number(value()?)?),
            "--seed" => o.seed = number(value()?)?,
            "--out" => o.out = PathBuf::from(value()?),
            "--max" => o.max = number(value()?)? as usize,
            _ => return Err(USAGE.to_owned()),
        }
    }
    Ok(o)
}

pub(crate) fn run(
    args: &[String],
    root: &Path,
    build: impl Fn() -> Result<(), String>,
) -> Result<(), String> {
    let options = options(args, root)?;
    let anchors = root.join("../shared/anchors");
    let node_ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok
        || !anchors
            .join("node_modules/@adobe/helix-html-pipeline")
            .exists()
    {
        println!(
            "diff-fuzz: skipped: needs node and `npm ci` in {}",
            anchors.display()
        );
        return Ok(());
    }
    build()?;
    let tools = Tools {
        siteops: root.join("target/release/siteops"),
        anchors,
        runner: root.join("xtask/src/diff_fuzz/reference.mjs"),
    };
    let work = root.join("target/diff-fuzz");
    let seeds = Seeds::load(root, &work)?;
    std::fs::create_dir_all(&options.out).map_err(|e| format!("{}: {e}", options.out.display()))?;

    let deadline = Instant::now() + options.budget;
    let mut rng = Rng::new(options.seed);
    let mut seen = HashSet::new();
    let (mut tried, mut found) = (0, Vec::new());
    let mut round = 0;
    while Instant::now() < deadline && found.len() < options.max {
        let pages: Vec<String> = (0..24).map(|_| seeds.input(&mut rng)).collect();
        let names: Vec<String> = (0..pages.len()).map(|i| format!("r{round}-{i}")).collect();
        let (ours, theirs) = run_batch(&tools, &work.join("batch"), &names, &pages)?;
        tried += pages.len();
        round += 1;
        for (i, page) in pages.iter().enumerate() {
            let Some(kind) = compare::difference(&ours[i], &theirs[i]) else {
                continue;
            };
            if Instant::now() >= deadline || found.len() >= options.max {
                break;
            }
            let minimal = minimize(&tools, &work.join("shrink"), page, kind, deadline)?;
            let name = format!("{}-{:016x}", kind.name(), fnv(&minimal));
            if !seen.insert(name.clone()) || options.out.join(&name).exists() {
                continue;
            }
            if let Some(report) = save(
                &tools,
                &work.join("save"),
                &options.out,
                &name,
                &minimal,
                kind,
            )? {
                println!("{report}");
                found.push(kind);
            }
        }
    }
    let count = |k: Kind| found.iter().filter(|&&f| f == k).count();
    println!(
        "diff-fuzz: {tried} pages compared, {} new differences (md {}, plain {}, html {}), seed {}",
        found.len(),
        count(Kind::Md),
        count(Kind::Plain),
        count(Kind::Html),
        options.seed
    );
    Ok(())
}

/// Where inputs come from: the converter's fixtures and the real-world pages.
struct Seeds {
    fixtures: Vec<String>,
    corpus: Vec<String>,
}

impl Seeds {
    fn load(root: &Path, work: &Path) -> Result<Seeds, String> {
        let read_dir = |dir: &Path, ext: &str| -> Vec<String> {
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            files.retain(|p| p.extension().is_some_and(|e| e == ext));
            files.sort();
            files
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        };
        let fixtures = read_dir(&root.join("../shared/conformance/html2md/fixtures"), "html");
        let corpus_dir = work.join("corpus");
        let archive = root.join("../shared/conformance/realworld/pages.tar.gz");
        if !corpus_dir.join("pages").exists() && archive.exists() {
            std::fs::create_dir_all(&corpus_dir).map_err(|e| e.to_string())?;
            super::run(
                Command::new("tar")
                    .arg("-xzf")
                    .arg(&archive)
                    .arg("-C")
                    .arg(&corpus_dir),
            )?;
        }
        let corpus = read_dir(&corpus_dir.join("pages"), "html");
        Ok(Seeds { fixtures, corpus })
    }

    fn input(&self, rng: &mut Rng) -> String {
        match rng.below(10) {
            0..=3 => generate::page(rng),
            4..=6 if !self.fixtures.is_empty() => {
                let fixture = rng_pick(rng, &self.fixtures).clone();
                generate::mutate(rng, &fixture)
            }
            _ if !self.corpus.is_empty() => {
                let page = rng_pick(rng, &self.corpus).clone();
                let slice = generate::slice(rng, &page, 3000);
                if rng.chance(50) {
                    generate::mutate(rng, &slice)
                } else {
                    slice
                }
            }
            _ => generate::page(rng),
        }
    }
}

fn rng_pick<'a>(rng: &mut Rng, items: &'a [String]) -> &'a String {
    rng.pick(items)
}

fn run_batch(
    tools: &Tools,
    dir: &Path,
    names: &[String],
    pages: &[String],
) -> Result<(Vec<Outputs>, Vec<Outputs>), String> {
    let _ = std::fs::remove_dir_all(dir);
    let input = dir.join("in");
    std::fs::create_dir_all(&input).map_err(|e| e.to_string())?;
    for (name, page) in names.iter().zip(pages) {
        std::fs::write(input.join(format!("{name}.html")), page).map_err(|e| e.to_string())?;
    }
    Ok((
        compare::ours(tools, dir, names)?,
        compare::theirs(tools, dir, names)?,
    ))
}

/// Delta debugging: drop chunks of tokens while the same kind of difference remains.
fn minimize(
    tools: &Tools,
    dir: &Path,
    page: &str,
    kind: Kind,
    deadline: Instant,
) -> Result<String, String> {
    let mut tokens = generate::tokens(page);
    let mut n = 2usize;
    while tokens.len() >= 2 && Instant::now() < deadline {
        let chunk = tokens.len().div_ceil(n);
        let candidates: Vec<Vec<String>> = (0..n)
            .map(|i| {
                let mut t = tokens.clone();
                let start = (i * chunk).min(t.len());
                t.drain(start..((i + 1) * chunk).min(t.len()));
                t
            })
            .filter(|t| !t.is_empty() && t.len() < tokens.len())
            .take(48)
            .collect();
        let pages: Vec<String> = candidates.iter().map(|t| t.concat()).collect();
        let names: Vec<String> = (0..pages.len()).map(|i| format!("m{i}")).collect();
        let (ours, theirs) = run_batch(tools, dir, &names, &pages)?;
        let keep =
            (0..pages.len()).find(|&i| compare::difference(&ours[i], &theirs[i]) == Some(kind));
        match keep {
            Some(i) => {
                tokens = candidates[i].clone();
                n = (n - 1).max(2);
            }
            None if n >= tokens.len() => break,
            None => n = (n * 2).min(tokens.len()),
        }
    }
    Ok(tokens.concat())
}

/// Writes the case and the reference's outputs under its final name (the page path is in
/// the page), and the report to print; `None` when it no longer differs under that name.
fn save(
    tools: &Tools,
    dir: &Path,
    out: &Path,
    name: &str,
    page: &str,
    kind: Kind,
) -> Result<Option<String>, String> {
    let names = [name.to_owned()];
    let (ours, theirs) = run_batch(tools, dir, &names, &[page.to_owned()])?;
    if compare::difference(&ours[0], &theirs[0]) != Some(kind) {
        return Ok(None);
    }
    let case = out.join(name);
    std::fs::create_dir_all(&case).map_err(|e| format!("{}: {e}", case.display()))?;
    let write = |file: &str, text: &str| {
        std::fs::write(case.join(file), text).map_err(|e| format!("{}: {e}", case.display()))
    };
    write("input.html", page)?;
    match &theirs[0].md {
        Some(md) => write("reference.md", md)?,
        None => write("reference.error", "rejected by the reference\n")?,
    }
    if let Some(plain) = &theirs[0].plain {
        write("reference.plain.html", plain)?;
    }
    if let Some(html) = &theirs[0].html {
        write("reference.html", html)?;
    }
    let (want, got) = match kind {
        Kind::Md => (theirs[0].md.clone(), ours[0].md.clone()),
        Kind::Plain => (theirs[0].plain.clone(), ours[0].plain.clone()),
        Kind::Html => (theirs[0].html.clone(), ours[0].html.clone()),
    };
    Ok(Some(format!(
        "new difference ({}): {}\n  input:     {page:?}\n  reference: {:?}\n  siteops:   {:?}",
        kind.name(),
        case.display(),
        want.as_deref()
            .map(compare::normalise)
            .unwrap_or_else(|| "(rejected)".into()),
        got.as_deref()
            .map(compare::normalise)
            .unwrap_or_else(|| "(rejected)".into()),
    )))
}

/// FNV-1a, for stable case names.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
