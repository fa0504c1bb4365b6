//! A generated fleet of 1,000 sites on 10 profiles (100 sites each), against the bundled
//! service on 127.0.0.1:0, through the real binary: `siteops import` of the org into an
//! empty directory, `siteops plan` of what it wrote (no changes), and `siteops plan` after
//! one profile changes (the effective diff of its 100 sites). Goal: import and the
//! no-change plan each in under 5 s. The fleet is applied first with the library calls
//! `siteops apply` makes (setup, timed apart).
//!
//! `cargo bench --bench profile_fleet` (or `cargo xtask bench profiles`) prints each phase's
//! time, its sites per second, and whether it met its goal.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;
use siteops_config::compile::{Compiled, Secrets, compile};
use siteops_config::repo::RepoFiles;
use siteops_config::validate::{Options, validate};
use siteops_plan::apply::{self, ApplyOptions, NoProgress};
use siteops_plan::plan::{PlanSettings, diff};
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Token, live};
use siteops_server::auth::Claims;
use siteops_server::server::{ServerConfig, start};

const ORG: &str = "fleet";
const SITES: usize = 1_000;
const PROFILES: usize = 10;
const ADMIN: &str = "bench@example.com";
const GOAL: Duration = Duration::from_secs(5);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let data = tempfile::tempdir().expect("temp dir");
    let server = start(ServerConfig::on_loopback(
        siteops_server::store::StoreLocation::Dir(data.path().join("store")),
        vec![ADMIN.to_string()],
    ))
    .await
    .expect("the service starts");
    let now = siteops_server::time::now_seconds();
    let token = server.state.key.sign(&Claims {
        sub: ADMIN.into(),
        iat: now,
        exp: now + 3600,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    });
    let admin = format!("http://{}/admin", server.addr);
    println!(
        "{SITES} sites on {PROFILES} profiles against the bundled service on 127.0.0.1 (store in {})",
        data.path().display()
    );
    println!("{:<34} {:>9} {:>10}  goal", "phase", "time", "sites/s");

    let started = Instant::now();
    let applied = setup(&admin, &token).await;
    report(
        "setup: apply (library calls)",
        started.elapsed(),
        SITES,
        None,
    );
    println!("  ({applied} requests)");

    let imported = data.path().join("imported");
    std::fs::create_dir_all(&imported).expect("a directory");
    let root = imported.display().to_string();
    let args = ["import", "--org", ORG, "--root", &root];
    let (import, elapsed) = siteops(&admin, &token, &args).await;
    assert_eq!(import.status.code(), Some(0), "{}", text(&import.stderr));
    assert!(
        text(&import.stdout).contains(&format!(
            "Imported org {ORG}: {PROFILES} profiles, {SITES} sites"
        )),
        "{}",
        text(&import.stdout)
    );
    report("siteops import", elapsed, SITES, Some(GOAL));

    let plan_args = ["plan", "--root", &root, "--detailed-exitcode"];
    let (plan, elapsed) = siteops(&admin, &token, &plan_args).await;
    assert_eq!(
        plan.status.code(),
        Some(0),
        "no changes: {}{}",
        text(&plan.stdout),
        text(&plan.stderr)
    );
    assert!(text(&plan.stdout).ends_with("No changes.\n"));
    report("siteops plan (no changes)", elapsed, SITES, Some(GOAL));

    let profile = imported.join(format!("sites/{ORG}/p3.profile.toml"));
    let toml = std::fs::read_to_string(&profile).expect("the imported profile");
    assert!(toml.contains("Fleet profile 3\""), "{toml}");
    std::fs::write(
        &profile,
        toml.replace("Fleet profile 3\"", "Fleet profile three\""),
    )
    .expect("write");
    let json_args = [
        "plan",
        "--root",
        &root,
        "--detailed-exitcode",
        "--format",
        "json",
    ];
    let (plan, elapsed) = siteops(&admin, &token, &json_args).await;
    assert_eq!(plan.status.code(), Some(2), "{}", text(&plan.stderr));
    let plan: Value = serde_json::from_slice(&plan.stdout).expect("a JSON plan");
    assert_eq!(plan["summary"]["update"], 1, "one profile changes");
    assert_eq!(plan["summary"]["effective"], 100, "its 100 sites");
    let changed = (plan["resources"].as_array().expect("resources").iter())
        .find(|r| r["action"] == "update")
        .expect("the profile");
    assert_eq!(changed["address"], format!("{ORG}/profiles/p3.json"));
    assert_eq!(changed["effective"].as_array().map(Vec::len), Some(100));
    report("siteops plan (one profile changed)", elapsed, SITES, None);
}

/// Applies the generated fleet, as `siteops apply` does; returns the requests sent.
async fn setup(admin: &str, token: &str) -> u64 {
    let compiled = desired();
    let options = ClientOptions::default();
    let endpoints = Endpoints {
        admin: admin.to_string(),
        worker: None,
    };
    let client = Client::new(endpoints, &Token::new(token), &options).expect("client");
    let state = live::read(&client, &compiled, None, options.concurrency)
        .await
        .expect("live state");
    let plan = diff(&compiled, &state, &PlanSettings::default()).expect("plan");
    // Each site's document (access in it) and public configuration, and the profiles.
    assert_eq!(plan.summary.create, SITES * 2 + PROFILES);
    let options = ApplyOptions {
        concurrency: options.concurrency,
        progress: &NoProgress,
        made: None,
        version_name: Some(siteops_plan::versions::applied_name("bench")),
    };
    let report = apply::run(&client, &plan, &options).await.expect("applied");
    assert!(report.succeeded(), "{}", apply::report::table(&report));
    client.requests_sent()
}

fn desired() -> Compiled {
    let repo = fleet();
    let validation = validate(&repo, &Options::default());
    assert!(
        !validation.has_errors(),
        "{:?}",
        &validation.diagnostics[..1]
    );
    compile(&validation.fleet, &Secrets::Redacted).expect("compiles")
}

/// 1,000 sites of one org, site `n` on profile `p<n / 100>`, each profile with the
/// headers, sidekick project and robots.txt its sites share; every site with its own
/// content source, access and public configuration.
fn fleet() -> RepoFiles {
    let mut repo = RepoFiles::new();
    repo.insert("siteops.toml", "");
    for p in 0..PROFILES {
        repo.insert(
            format!("sites/{ORG}/p{p}.profile.toml"),
            format!(
                "[[headers.\"/**\"]]\nkey = \"x-frame-options\"\nvalue = \"SAMEORIGIN\"\n\n\
                 [sidekick]\nproject = \"Fleet profile {p}\"\n\n[robots]\ntxt = \"User-agent: *\\nAllow: /\\n\"\n"
            ),
        );
    }
    for n in 0..SITES {
        let dir = format!("sites/{ORG}/site{n}");
        repo.insert(
            format!("{dir}/site.toml"),
            format!(
                "version = 1\nextends = {{ profile = \"p{}\" }}\n\n[code]\nowner = \"{ORG}\"\nrepo = \"web\"\n\n\
                 [code.source]\ntype = \"github\"\nurl = \"https://github.com/{ORG}/web\"\n\n\
                 [content.source]\nurl = \"https://cms.example.com/{ORG}/site{n}\"\ntype = \"markup\"\nsuffix = \".html\"\n",
                n / (SITES / PROFILES)
            ),
        );
        repo.insert(
            format!("{dir}/access.toml"),
            "[admin]\nrequireAuth = \"auto\"\n\n[admin.role]\nadmin = [\"web@example.com\"]\n",
        );
        repo.insert(
            format!("{dir}/public.toml"),
            format!("[paths]\nincludes = [\"/content/site{n}/\"]\n"),
        );
    }
    repo
}

/// Runs `siteops <args> --admin <admin>` with the token, off the runtime's threads (the
/// service runs on them); returns its output and how long it took.
async fn siteops(admin: &str, token: &str, args: &[&str]) -> (Output, Duration) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command
        .args(args)
        .args(["--admin", admin])
        .env("SITEOPS_ADMIN_TOKEN", token)
        .env("NO_COLOR", "1")
        .env_remove("SITEOPS_ADMIN_URL")
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("GITHUB_ACTIONS");
    tokio::task::spawn_blocking(move || {
        let started = Instant::now();
        let output = command.output().expect("siteops runs");
        (output, started.elapsed())
    })
    .await
    .expect("the run finishes")
}

fn report(phase: &str, elapsed: Duration, sites: usize, goal: Option<Duration>) {
    let verdict = match goal {
        Some(goal) if elapsed <= goal => format!("under {} s: met", goal.as_secs()),
        Some(goal) => format!("under {} s: MISSED", goal.as_secs()),
        None => "-".to_string(),
    };
    println!(
        "{phase:<34} {:>7.0}ms {:>10.0}  {verdict}",
        elapsed.as_secs_f64() * 1e3,
        sites as f64 / elapsed.as_secs_f64(),
    );
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
