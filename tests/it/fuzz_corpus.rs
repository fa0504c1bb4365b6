//! The fuzz targets' corpora (`fuzz/corpus/<target>/`) and the inputs of crashes found
//! (`fuzz/regressions/<target>/`), replayed on stable through the same target bodies as
//! `cargo fuzz` runs them (each crate's hidden `fuzzing` module). CI's smoke run of the
//! fuzz targets: every regression, and up to [`BUDGET`] of each corpus's inputs, taken
//! evenly across the sorted names so that the set replayed is the same on every run.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::support::repo_root;

/// Inputs replayed per corpus; a debug build replays them all in a few seconds each.
const BUDGET: usize = 400;

type Target = fn(&[u8]);

const TARGETS: [(&str, Target); 7] = [
    ("html_ingest", siteops_ingest::fuzzing::html_ingest),
    ("site_files", siteops_config::fuzzing::site_files),
    (
        "endpoint_template",
        siteops_config::fuzzing::endpoint_template,
    ),
    ("mustache", siteops_template::fuzzing::mustache),
    ("json_reader", siteops_template::fuzzing::json_reader),
    ("jsregex", siteops_jsregex::fuzzing::jsregex),
    ("wiremock_stubs", siteops_mocks::fuzzing::wiremock_stubs),
];

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
}

/// Every `step`-th input, so that at most `budget` are taken.
fn spread(paths: Vec<PathBuf>, budget: usize) -> Vec<PathBuf> {
    let step = paths.len().div_ceil(budget).max(1);
    paths.into_iter().step_by(step).collect()
}

fn replay(target: &str, run: Target, paths: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for path in paths {
        let data = std::fs::read(path).expect("readable input");
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| run(&data))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{target}: {}: {message}", path.display()));
        }
    }
    failures
}

#[test]
fn fuzz_corpora_replay() {
    let root = repo_root().join("fuzz");
    let mut failures = Vec::new();
    for (target, run) in TARGETS {
        let started = Instant::now();
        let corpus = inputs(&root.join("corpus").join(target));
        assert!(!corpus.is_empty(), "fuzz/corpus/{target} has no inputs");
        let mut paths = spread(corpus, BUDGET);
        paths.extend(inputs(&root.join("regressions").join(target)));
        failures.extend(replay(target, run, &paths));
        println!(
            "{target}: {} inputs in {:.1} s",
            paths.len(),
            started.elapsed().as_secs_f64()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fuzz_target_is_replayed() {
    let manifest = std::fs::read_to_string(repo_root().join("fuzz/Cargo.toml")).unwrap();
    let declared: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("name = \""))
        .filter_map(|rest| rest.strip_suffix('"'))
        .filter(|name| *name != "siteops-fuzz")
        .collect();
    let mut declared = declared;
    declared.sort_unstable();
    let mut replayed: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    replayed.sort_unstable();
    assert_eq!(declared, replayed);
}
