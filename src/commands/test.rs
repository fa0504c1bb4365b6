//! `siteops test [--update] [CASE…]`: renders the golden cases (`golden/<case>/`) through
//! the local pipeline, offline, compares every output with its stored snapshot and prints
//! a line diff of each difference. Differences fail (exit 1) unless `--update` writes the
//! rendered outputs as the new snapshots.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use siteops::golden::check::{self, CaseCheck, Verdict};
use siteops::golden::{Case, Harness, Output, load};
use siteops_config::repo::SITES_DIR;

use super::{Outcome, use_color};
use crate::cli::TestArgs;

pub(crate) fn run(args: &TestArgs) -> Result<Outcome> {
    if !args.root.join(SITES_DIR).is_dir() {
        bail!(
            "{} has no `{SITES_DIR}/` directory; pass --root with the repository that holds your sites",
            args.root.display()
        );
    }
    let mut cases = load::cases(&args.root, &args.cases)?;
    if let Some(shard) = args.shard {
        let all = cases.len();
        cases.retain(|case| shard.takes(&case.name));
        println!("shard {shard}: {} of {all} cases", cases.len());
    }
    let runtime = siteops_server::server::runtime()?;
    let rendered = runtime.block_on(render_all(&args.root, &cases, super::jobs(args.jobs)))?;
    let color = use_color(&std::io::stdout());
    let mut checks = Vec::new();
    for (case, outputs) in cases.iter().zip(rendered) {
        let stored = load::stored(case)?;
        let check = check::compare(
            &case.name,
            case.target(),
            case.spec.pages.len(),
            outputs,
            &stored,
        );
        if args.update {
            update(case, &check)?;
        }
        print(&check::report_case(&check, args.update), color);
        checks.push(check);
    }
    println!("\n{}", check::summary(&checks, args.update));
    let differences: usize = checks.iter().map(CaseCheck::differences).sum();
    Ok(if differences > 0 && !args.update {
        Outcome::Failure
    } else {
        Outcome::Success
    })
}

/// Renders every case, `jobs` at once: each worker has its own server (a harness swaps in
/// one case's mocks at a time) and takes every `jobs`-th case in turn. The outputs come
/// back in the cases' order, whatever the scheduling.
async fn render_all(root: &Path, cases: &[Case], jobs: usize) -> Result<Vec<Vec<Output>>> {
    let workers = jobs.clamp(1, cases.len().max(1));
    let harnesses =
        futures_util::future::try_join_all((0..workers).map(|_| Harness::start(root))).await?;
    let runs = harnesses
        .iter()
        .enumerate()
        .map(|(worker, harness)| async move {
            let mut outputs = Vec::new();
            for (index, case) in cases.iter().enumerate().skip(worker).step_by(workers) {
                let rendered = harness
                    .render(case)
                    .await
                    .with_context(|| format!("case {} cannot be rendered", case.name))?;
                outputs.push((index, rendered));
            }
            anyhow::Ok(outputs)
        });
    let results = futures_util::future::join_all(runs).await;
    for harness in harnesses {
        harness.stop().await;
    }
    let mut ordered: Vec<Option<Vec<Output>>> = cases.iter().map(|_| None).collect();
    for result in results {
        for (index, outputs) in result? {
            ordered[index] = Some(outputs);
        }
    }
    Ok(ordered.into_iter().map(Option::unwrap_or_default).collect())
}

/// Writes new and changed snapshots, removes stale ones.
fn update(case: &siteops::golden::Case, check: &CaseCheck) -> Result<()> {
    for checked in &check.outputs {
        if checked.verdict != Verdict::Matches {
            let output = &checked.output;
            load::write(case, &output.name, &output.expression, &output.text)?;
        }
    }
    for name in &check.stale {
        load::remove(case, name)?;
    }
    Ok(())
}

/// Prints report text, the diff lines coloured on a terminal.
fn print(text: &str, color: bool) {
    let mut out = std::io::stdout().lock();
    for line in text.lines() {
        let style = match line.as_bytes().first() {
            _ if !color => None,
            Some(b'@') => Some("36"),
            _ if line.starts_with("--- ") || line.starts_with("+++ ") => Some("1"),
            Some(b'-') => Some("31"),
            Some(b'+') => Some("32"),
            _ => None,
        };
        let _ = match style {
            Some(code) => writeln!(out, "\x1b[{code}m{line}\x1b[0m"),
            None => writeln!(out, "{line}"),
        };
    }
}
