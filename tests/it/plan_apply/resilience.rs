//! The client and the apply engine against wiremock: 429 with `retry-after`, 5xx and
//! network retries, the token's headers, and a failure part-way through an apply.

use std::time::{Duration, Instant};

use serde_json::json;
use siteops_config::compile::ResourceKind;
use siteops_config::model::SiteId;
use siteops_plan::apply::{self, ApplyOptions, Outcome, report};
use siteops_plan::plan::{PlanSettings, diff};
use siteops_plan::remote::live;
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Location, RetryPolicy, Token};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{SYNC_SECRET, compiled};
use crate::support::repo_root;

const TOKEN: &str = "test-token-5d1e";

/// Quick retries, so that tests do not wait for the real backoff.
fn client(mock: &MockServer, attempts: u32) -> Client {
    let options = ClientOptions {
        concurrency: 4,
        retry: RetryPolicy {
            attempts,
            base: Duration::from_millis(10),
            cap: Duration::from_millis(40),
            max_retry_after: Duration::from_secs(5),
        },
        ..ClientOptions::default()
    };
    let endpoints = Endpoints {
        admin: format!("{}/admin", mock.uri()),
        worker: Some(format!("{}/transform", mock.uri())),
    };
    Client::new(endpoints, &Token::new(TOKEN), &options).expect("client")
}

fn web() -> Location {
    let site = SiteId {
        org: "acme".into(),
        site: "web".into(),
    };
    Location::of_site(&site, &ResourceKind::Site)
}

async fn requests(mock: &MockServer) -> usize {
    mock.received_requests().await.expect("recorded").len()
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says() {
    let mock = MockServer::start().await;
    Mock::given(path("/admin/config/acme/sites/web.json"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .mount(&mock)
        .await;
    Mock::given(path("/admin/config/acme/sites/web.json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"version": 1})))
        .mount(&mock)
        .await;
    let client = client(&mock, 3);
    let started = Instant::now();
    let document = client.get(&web()).await.expect("answered");
    assert_eq!(document, Some(json!({"version": 1})));
    assert_eq!(requests(&mock).await, 2);
    // The backoff alone would have retried after 10 ms.
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn server_errors_are_retried_until_the_attempts_run_out() {
    let mock = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(2)
        .mount(&mock)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&mock)
        .await;
    let client = client(&mock, 3);
    client
        .post(&web(), &json!({}))
        .await
        .expect("third time lucky");
    assert_eq!(requests(&mock).await, 3);

    mock.reset().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).insert_header("x-error", "disk on fire"))
        .mount(&mock)
        .await;
    let error = client.post(&web(), &json!({})).await.unwrap_err();
    assert_eq!(requests(&mock).await, 3);
    let message = error.to_string();
    assert!(
        message.ends_with(
            "/admin/config/acme/sites/web.json: 500 Internal Server Error: disk on fire (after 3 attempts)"
        ),
        "{message}"
    );
    // A client error is final at once.
    mock.reset().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(409))
        .mount(&mock)
        .await;
    client.post(&web(), &json!({})).await.unwrap_err();
    assert_eq!(requests(&mock).await, 1);
}

#[tokio::test]
async fn network_errors_are_retried() {
    let mock = MockServer::start().await;
    let mut client_options = ClientOptions::default();
    client_options.retry.base = Duration::from_millis(5);
    client_options.retry.attempts = 3;
    // Nothing listens on the discard port.
    let endpoints = Endpoints {
        admin: "http://127.0.0.1:9/admin".into(),
        worker: None,
    };
    let client = Client::new(endpoints, &Token::new(TOKEN), &client_options).expect("client");
    let error = client.get(&web()).await.unwrap_err();
    assert!(error.to_string().contains("(after 3 attempts)"), "{error}");
    assert_eq!(client.requests_sent(), 3);
    drop(mock);
}

#[tokio::test]
async fn the_token_goes_in_each_service_header_and_nowhere_else() {
    let mock = MockServer::start().await;
    Mock::given(path("/admin/config/acme/sites/web.json"))
        .and(header("x-auth-token", TOKEN))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&mock)
        .await;
    Mock::given(path("/transform/config/acme/web/main"))
        .and(header("authorization", format!("token {TOKEN}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&mock)
        .await;
    let client = client(&mock, 1);
    assert_eq!(client.get(&web()).await.expect("admin"), Some(json!({})));
    let site = SiteId {
        org: "acme".into(),
        site: "web".into(),
    };
    let worker = Location::of_site(&site, &ResourceKind::Worker("main".into()));
    assert_eq!(client.get(&worker).await.expect("worker"), Some(json!([])));
    let missing = Location::of_site(&site, &ResourceKind::Public);
    let error = client.post(&missing, &json!({})).await.unwrap_err();
    assert!(!error.to_string().contains(TOKEN));
    assert!(!format!("{client:?}").contains(TOKEN));
}

#[tokio::test]
async fn a_failure_part_way_skips_what_depends_on_it_and_a_rerun_completes() {
    let mock = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(
            "/admin/config/acme/sites/website/secrets/git-sync.json",
        ))
        .respond_with(ResponseTemplate::new(502))
        .mount(&mock)
        .await;
    mount_base(&mock).await;
    let client = client(&mock, 2);
    let desired = compiled(&repo_root(), &format!("{}/transform", mock.uri()));
    let live = live::read(&client, &desired, None, 4)
        .await
        .expect("live state");
    let plan = diff(&desired, &live, &PlanSettings::default()).expect("plan");
    assert_eq!(plan.summary.create, 14);

    let report = apply::run(&client, &plan, &ApplyOptions::default())
        .await
        .expect("applied");
    assert!(!report.succeeded());
    let table = report::table(&report).replace(&mock.uri(), "http://[mock]");
    insta::assert_snapshot!("apply-failure-table", table);
    let counts = report.counts();
    assert_eq!((counts.failed, counts.skipped), (1, 5));
    assert!(!table.contains(SYNC_SECRET));
    let skipped: Vec<&str> = report
        .steps
        .iter()
        .filter(|s| matches!(s.outcome, Outcome::Skipped(_)))
        .map(|s| s.address.as_str())
        .collect();
    assert_eq!(
        skipped,
        [
            "acme/sites/blog.json",
            "acme/sites/campaigns.json",
            "acme/sites/legacy.json",
            "acme/sites/website-prod.json",
            "acme/sites/website-prod/public.json",
        ]
    );

    mock.reset().await;
    mount_base(&mock).await;
    let rerun = apply::run(&client, &plan, &ApplyOptions::default())
        .await
        .expect("applied");
    assert!(rerun.succeeded(), "{}", report::table(&rerun));
    assert_eq!(
        report::summary(&rerun),
        "Apply complete: 14 created, 0 updated, 0 deleted."
    );
}

/// An empty service that accepts every write.
async fn mount_base(mock: &MockServer) {
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404))
        .mount(mock)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(mock)
        .await;
}
