//! Validates and compiles generated fleets of 1,000, 10,000 and 20,000 sites, in memory,
//! on one thread. Goal: under 100 µs per site, and cost linear in the number of sites.
//!
//! `cargo bench --bench fleet` prints the best of several runs per size and the ratio of
//! per-site costs between sizes (close to 1 means linear).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::{Duration, Instant};

use siteops::compile::{Secrets, compile};
use siteops::repo::RepoFiles;
use siteops::validate::{Options, validate};

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

/// A fleet shaped like a real one: one base site per 50 with its own external repository,
/// secret, worker entries and templates; the others share its code through `base`, with
/// their own content, access and public configuration.
fn fleet(sites: usize) -> RepoFiles {
    let mut repo = RepoFiles::new();
    repo.insert(
        "siteops.toml",
        "transform_url = \"https://transform.example.com\"\n",
    );
    for n in 0..sites {
        let org = format!("org{}", n / 500);
        let base = n - n % 50;
        let dir = format!("sites/{org}/site{n}");
        if n == base {
            repo.insert(format!("{dir}/site.toml"), base_site(&org, n));
            repo.insert(
                format!("{dir}/secrets.toml"),
                format!("[sync]\nenv = \"SYNC_{n}\"\n"),
            );
            repo.insert(format!("{dir}/transform/main.toml"), WORKER.to_string());
            for template in ["product", "article", "team"] {
                repo.insert_path(format!("{dir}/templates/{template}.html"));
            }
        } else {
            repo.insert(
                format!("{dir}/site.toml"),
                format!(
                    "version = 1\nbase = \"site{base}\"\n\n[content.source]\nurl = \"https://cms.example.com/{org}/site{n}?tenant={org}\"\ntype = \"markup\"\nsuffix = \".html\"\n"
                ),
            );
        }
        repo.insert(format!("{dir}/access.toml"), ACCESS.to_string());
        repo.insert(
            format!("{dir}/public.toml"),
            format!("[paths]\nmappings = [\"/content/site{n}/:/\"]\nincludes = [\"/content/site{n}/\"]\n"),
        );
    }
    repo
}

fn base_site(org: &str, n: usize) -> String {
    format!(
        r#"version = 1

[code]
owner = "{org}"
repo = "site{n}"

[code.source]
type = "byogit"
url = "https://git.example.com/{org}/site{n}"
raw_url = "https://raw.git.example.com/{org}/site{n}"
owner = "p{n}"
repo = "site{n}"
secretId = "sync"

[content.source]
url = "https://cms.example.com/{org}/site{n}?tenant={org}"
type = "markup"
suffix = ".html"

[content.overlay]
url = "{{transform_url}}/{org}/site{n}/main"
type = "markup"
"#
    )
}

const ACCESS: &str = r#"[admin]
requireAuth = "auto"

[admin.role]
admin = ["web@example.com", "ops@example.com"]
config_admin = ["A1B2C3@techacct.example.com"]
"#;

const WORKER: &str = r#"[[entry]]
path = "/products/"
regex = '/\d+$/'
endpoint = "https://api.example.com/products/{{id}}.json?market={{headers['x-market']}}"
forwardHeaders = ["x-market"]
template = "/templates/product.html"
relativeURLPrefix = "https://media.example.com"
examples = ["/products/1234"]

[[entry]]
path = "/news/"
regex = '/\d{4}\/\d{2}\/\d{2}\/[a-z0-9-]+$/'
endpoint = "https://api.example.com/news/{{id}}.json"
template = "/templates/article.html"
examples = ["/news/2024/05/17/launch-day"]

[[entry]]
path = "/team/"
endpoint = "https://api.example.com/team.json"
arrayKey = "data"
pathKey = "path"
template = "/templates/team.html"
"#;
