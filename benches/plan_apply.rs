//! Plan and apply of 1,000 generated sites against the bundled service on 127.0.0.1:0,
//! through the same library calls as `siteops plan` and `siteops apply` (the client with
//! its default concurrency of 8), and the `--rate` limit held against the same service.
//!
//! `cargo bench --bench plan_apply` (or `cargo xtask bench plan`) prints, per phase, the
//! time, resources per second and requests per second; then the request rate achieved
//! with `--rate 10` and without a limit.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod common;

use std::time::Instant;

use siteops_config::compile::{Compiled, ResourceKind, Secrets, compile};
use siteops_config::model::SiteId;
use siteops_config::validate::{Options, validate};
use siteops_plan::apply::{self, ApplyOptions, NoProgress};
use siteops_plan::plan::{Plan, PlanSettings, diff};
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Location, Token, live};
use siteops_server::auth::Claims;
use siteops_server::server::{ServerConfig, start};

const SITES: usize = 1_000;
const CONCURRENCY: usize = 8;
const ADMIN: &str = "bench@example.com";
/// Requests sent under the rate limit.
const RATE_REQUESTS: usize = 41;

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
        siteops_server::store::StoreLocation::Dir(data.path().to_path_buf()),
        vec![ADMIN.to_string()],
    ))
    .await
    .expect("the service starts");
    let now = siteops_server::time::now_seconds();
    let token = Token::new(server.state.key.sign(&Claims {
        sub: ADMIN.into(),
        iat: now,
        exp: now + 3600,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    }));
    let base = format!("http://{}", server.addr);
    let endpoints = Endpoints {
        admin: format!("{base}/admin"),
        worker: Some(format!("{base}/transform")),
    };
    let compiled = desired(&format!("{base}/transform"));
    let client = |rate: Option<f64>| {
        let options = ClientOptions {
            concurrency: CONCURRENCY,
            rate,
            ..ClientOptions::default()
        };
        Client::new(endpoints.clone(), &token, &options).expect("client")
    };
    let unlimited = client(None);

    println!(
        "{SITES} sites against the bundled service on 127.0.0.1 (store in {}), {CONCURRENCY} requests in flight",
        data.path().display()
    );
    println!(
        "{:<24} {:>9} {:>9} {:>10} {:>14} {:>14}",
        "phase", "resources", "changes", "time", "resources/s", "requests/s"
    );
    let empty = phase("plan (empty service)", &unlimited, || {
        plan(&unlimited, &compiled)
    })
    .await;
    assert_eq!(empty.summary.changes(), empty.resources.len());
    phase("apply", &unlimited, || async {
        let options = ApplyOptions {
            concurrency: CONCURRENCY,
            progress: &NoProgress,
            made: None,
            version_name: Some(siteops_plan::versions::applied_name("bench")),
        };
        let report = apply::run(&unlimited, &empty, &options)
            .await
            .expect("applied");
        assert!(
            report.succeeded(),
            "{}",
            siteops_plan::apply::report::table(&report)
        );
        empty.clone()
    })
    .await;
    let again = phase("plan (no changes)", &unlimited, || {
        plan(&unlimited, &compiled)
    })
    .await;
    assert!(!again.has_changes(), "a second plan finds nothing to do");
    let report = apply::run(&unlimited, &again, &ApplyOptions::default())
        .await
        .expect("applied");
    assert!(report.steps.is_empty(), "a second apply is a no-op");

    println!();
    let limited = rate("--rate 10", &client(Some(10.0))).await;
    let free = rate("no --rate", &unlimited).await;
    println!("--rate 10 holds {limited:.2} requests/s (without it: {free:.0} requests/s)");
}

fn desired(transform_url: &str) -> Compiled {
    let repo = common::fleet(SITES);
    let options = Options {
        transform_url: Some(transform_url.to_string()),
    };
    let validation = validate(&repo, &options);
    assert!(
        !validation.has_errors(),
        "{:?}",
        &validation.diagnostics[..1]
    );
    let lookup = |name: &str| Some(format!("value of {name}"));
    compile(&validation.fleet, &Secrets::Lookup(&lookup)).expect("compiles")
}

async fn plan(client: &Client, compiled: &Compiled) -> Plan {
    let live = live::read(client, compiled, None, CONCURRENCY)
        .await
        .expect("live state");
    diff(compiled, &live, &PlanSettings::default()).expect("plan")
}

/// Times one phase and prints its line; returns the plan it made (or carried out).
async fn phase<F, Fut>(name: &str, client: &Client, work: F) -> Plan
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Plan>,
{
    let sent = client.requests_sent();
    let started = Instant::now();
    let plan = work().await;
    let elapsed = started.elapsed();
    let requests = client.requests_sent() - sent;
    let per_second = |n: usize| n as f64 / elapsed.as_secs_f64();
    println!(
        "{name:<24} {:>9} {:>9} {:>8.0}ms {:>14.0} {:>14.0}",
        plan.resources.len(),
        plan.summary.changes(),
        elapsed.as_secs_f64() * 1e3,
        per_second(plan.resources.len()),
        per_second(requests as usize),
    );
    plan
}

/// Sends [`RATE_REQUESTS`] GETs, 8 at a time, and returns the rate of request starts:
/// intervals between the first and the last start.
async fn rate(name: &str, client: &Client) -> f64 {
    let locations: Vec<Location> = (0..RATE_REQUESTS)
        .map(|n| {
            let site = SiteId {
                org: "rate".into(),
                site: format!("absent{n}"),
            };
            Location::of_site(&site, &ResourceKind::Site)
        })
        .collect();
    let started = Instant::now();
    let sent = client.requests_sent();
    let gets = locations.iter().map(|location| async move {
        let asked = started.elapsed();
        client.get(location).await.expect("answered");
        asked
    });
    futures_util::future::join_all(gets).await;
    let elapsed = started.elapsed();
    let requests = client.requests_sent() - sent;
    assert_eq!(requests as usize, RATE_REQUESTS);
    // The first request starts at once: n requests span n - 1 intervals (plus the last
    // answer's latency, which is small on loopback).
    let achieved = (RATE_REQUESTS - 1) as f64 / elapsed.as_secs_f64();
    println!(
        "{name}: {RATE_REQUESTS} GETs, {CONCURRENCY} at a time, in {:.0} ms: {achieved:.2} requests/s",
        elapsed.as_secs_f64() * 1e3,
    );
    achieved
}
