//! Renders the diagnostics of generated files with 10,000, 20,000 and 40,000 unknown keys
//! (one per line) in each format. Goal: cost linear in the number of problems: the human
//! format once took 3.6 s for 10,000 and 14.5 s for 20,000 (each diagnostic quoted the
//! whole file), when JSON took 0.09 s.
//!
//! `cargo bench -p siteops-config --bench diagnostics` prints the best of several runs per
//! size and the ratio of per-diagnostic costs between sizes, and fails when that ratio
//! shows quadratic growth.

use std::hint::black_box;
use std::time::{Duration, Instant};

use siteops_config::diagnostic::render;
use siteops_config::repo::RepoFiles;
use siteops_config::validate::{Options, Validation, validate};

const SIZES: [usize; 3] = [10_000, 20_000, 40_000];
const RUNS: usize = 3;
/// The per-key cost at twice the keys, over the cost at the smaller size: about 1 when
/// linear, 2 when quadratic. Room is left for caches and a busy machine.
const WORST_RATIO: f64 = 1.8;

fn main() {
    println!(
        "{:>8}  {:>10}  {:>10}  {:>10}  {:>12}",
        "keys", "human", "json", "github", "human µs/key"
    );
    let mut per_key = Vec::new();
    for keys in SIZES {
        let validation = validation(keys);
        assert_eq!(validation.diagnostics.len(), keys);
        let time = |format: fn(&Validation) -> String| {
            (0..RUNS)
                .map(|_| {
                    let start = Instant::now();
                    black_box(format(black_box(&validation)));
                    start.elapsed()
                })
                .min()
                .unwrap_or(Duration::ZERO)
        };
        let human = time(|v| render::human(&v.diagnostics, v, false));
        let json = time(|v| render::json::<()>(&v.diagnostics, None));
        let github = time(|v| render::github(&v.diagnostics));
        let micros = human.as_secs_f64() * 1e6 / keys as f64;
        per_key.push(micros);
        println!(
            "{keys:>8}  {:>8.1}ms  {:>8.1}ms  {:>8.1}ms  {micros:>12.2}",
            human.as_secs_f64() * 1e3,
            json.as_secs_f64() * 1e3,
            github.as_secs_f64() * 1e3,
        );
    }
    for (pair, ratio) in SIZES.windows(2).zip(per_key.windows(2)) {
        let ratio = ratio[1] / ratio[0];
        println!(
            "human per-key cost at {} keys / at {} keys: {ratio:.2}",
            pair[1], pair[0]
        );
        assert!(
            ratio < WORST_RATIO,
            "the human format grows faster than linearly: {ratio:.2}"
        );
    }
}

/// A site whose `site.toml` has `keys` unknown keys, one per line.
fn validation(keys: usize) -> Validation {
    let mut text = String::new();
    for i in 0..keys {
        text.push_str(&format!("k{i} = {i}\n"));
    }
    text.push_str(
        "[code]\nowner = \"acme\"\nrepo = \"web\"\n\n[code.source]\ntype = \"github\"\nurl = \"https://github.com/acme/web\"\n\n[content.source]\nurl = \"https://content.example.com/web\"\ntype = \"markup\"\n",
    );
    let mut repo = RepoFiles::new();
    repo.insert("sites/acme/web/site.toml", text);
    validate(&repo, &Options::default())
}
