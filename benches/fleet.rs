//! Validates and compiles generated fleets of 1,000, 10,000 and 20,000 sites, in memory,
//! on every core (rayon). Goal: under 100 µs per site, and cost linear in the number of sites.
//!
//! `cargo bench --bench fleet` prints the best of several runs per size and the ratio of
//! per-site costs between sizes (close to 1 means linear).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

mod common;

use common::fleet;
use siteops_config::compile::{Secrets, compile};
use siteops_config::repo::RepoFiles;
use siteops_config::validate::{Options, validate};

const SIZES: [usize; 3] = [1_000, 10_000, 20_000];
const RUNS: usize = 5;

fn main() {
    let mut per_site = Vec::new();
    println!(
        "{:>8}  {:>12}  {:>12}  {:>10}",
        "sites", "validate", "+ compile", "µs/site"
    );
    for sites in SIZES {
        let repo = fleet(sites);
        let best = (0..RUNS)
            .map(|_| run(&repo, sites))
            .min_by_key(|(total, _)| *total)
            .expect("at least one run");
        let (total, validate_only) = best;
        let micros = total.as_secs_f64() * 1e6 / sites as f64;
        per_site.push(micros);
        println!(
            "{sites:>8}  {:>10.1}ms  {:>10.1}ms  {micros:>10.1}",
            validate_only.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3
        );
    }
    // Linear cost means a flat per-site cost: the ratios stay near 1 (memory caches make
    // the first step larger: a thousand sites fit in cache, ten thousand do not).
    for (pair, ratio) in SIZES.windows(2).zip(per_site.windows(2)) {
        println!(
            "per-site cost at {} sites / at {} sites: {:.2}",
            pair[1],
            pair[0],
            ratio[1] / ratio[0]
        );
    }
}

/// Returns (validate + compile, validate alone).
fn run(repo: &RepoFiles, sites: usize) -> (Duration, Duration) {
    let start = Instant::now();
    let validation = validate(black_box(repo), &Options::default());
    let validated = start.elapsed();
    assert!(
        !validation.has_errors(),
        "{:?}",
        &validation.diagnostics[..1]
    );
    assert_eq!(validation.fleet.sites.len(), sites);
    let compiled = compile(&validation.fleet, &Secrets::Redacted).expect("compiles");
    black_box(compiled);
    (start.elapsed(), validated)
}
