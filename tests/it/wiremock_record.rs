//! A recording made by WireMock's own recorder replays offline in siteops: the site's
//! services (one local server standing in for the markup source, the worker's JSON
//! endpoint and the image host) are reached through a real WireMock recording them, the
//! stubs it writes become the site's mocks unchanged, and `siteops serve` offline renders
//! the same pages from them with the services and WireMock gone.
//!
//! Each page is previewed twice while recording, so the recorder writes its scenarios for
//! repeated requests, and the replay previews twice too.

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use siteops_server::preview::{ReqwestTransport, Transport};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::mocks_record::{rendered, serve, site_repository};
use crate::wiremock_diff::{WIREMOCK_MISSING, WireMock, jar};

/// A 1×1 PNG.
const PNG: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x64, 0xf8, 0xcf, 0x50,
    0x0f, 0x00, 0x03, 0x86, 0x01, 0x80, 0x5a, 0x34, 0x7d, 0x6b, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The services, all on one local server (WireMock records from one target).
async fn services() -> MockServer {
    let server = MockServer::start().await;
    let about = "<html><head><title>About us</title></head><body><main><div><h1>About</h1>\
                 <p>We boil water.</p><p><img src=\"/assets/team.png\" alt=\"The team\"></p>\
                 </div></main></body></html>";
    Mock::given(method("GET"))
        .and(path("/delivery/web/about.html"))
        .and(query_param("tenant", "acme"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(about.as_bytes().to_vec(), "text/html; charset=utf-8")
                .insert_header("last-modified", "Tue, 01 Apr 2025 10:00:00 GMT"),
        )
        .mount(&server)
        .await;
    Mock::given(path("/products/7.json"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            br#"{"name": "Kettle 7", "price": "49.90", "image": "/media/p7.png"}"#.to_vec(),
            "application/json",
        ))
        .mount(&server)
        .await;
    for image in ["/assets/team.png", "/media/p7.png"] {
        Mock::given(path(image))
            .respond_with(ResponseTemplate::new(200).set_body_raw(PNG.to_vec(), "image/png"))
            .mount(&server)
            .await;
    }
    server
}

/// The real network, with the services' names resolved to this machine (loopback is never
/// mocked, so the names keep them external to siteops).
fn network() -> Arc<dyn Transport> {
    let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
    Arc::new(ReqwestTransport::with_hosts(&[
        ("cms.test", local),
        ("api.test", local),
        ("img.test", local),
    ]))
}

async fn admin(wiremock: &WireMock, action: &str, body: Value) -> Value {
    let response = reqwest::Client::new()
        .post(format!(
            "http://127.0.0.1:{}/__admin/recordings/{action}",
            wiremock.port
        ))
        .json(&body)
        .send()
        .await
        .expect("WireMock answers");
    assert!(response.status().is_success(), "{action}: {response:?}");
    response.json().await.expect("JSON")
}

fn copy_dir(from: &Path, to: &Path) -> usize {
    let mut copied = 0;
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from).expect("readable").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copied += copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copied");
            copied += 1;
        }
    }
    copied
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wiremock_recording_replays_offline_with_the_same_pages() {
    let Some(jar) = siteops_testkit::or_skip(jar(), WIREMOCK_MISSING) else {
        return;
    };
    siteops_plan::http::install_crypto_provider();
    let source = services().await;
    let recordings = tempfile::tempdir().expect("a root");
    for dir in ["mappings", "__files"] {
        std::fs::create_dir_all(recordings.path().join(dir)).expect("a directory");
    }
    let wiremock = WireMock::start_with(&jar, recordings.path(), &[]).await;
    let through = |name: &str| format!("http://{name}:{}", wiremock.port);
    let repo = site_repository(
        &through("cms.test"),
        &through("api.test"),
        &through("img.test"),
    );

    admin(
        &wiremock,
        "start",
        json!({"targetBaseUrl": format!("http://127.0.0.1:{}", source.address().port())}),
    )
    .await;
    let (online, online_data) = serve(repo.path(), Some(network())).await;
    let expected = rendered(&online, None).await;
    let again = rendered(&online, None).await;
    online.stop().await.expect("stops");
    drop(online_data);
    assert_eq!(again, expected);
    assert!(
        expected["/about.md"].contains("We boil water."),
        "{expected:?}"
    );
    assert!(
        expected["/products/7.md"].contains("Kettle 7"),
        "{expected:?}"
    );
    let stopped = admin(&wiremock, "stop", json!({})).await;
    drop(wiremock);
    drop(source);

    // The recorder's stubs, as it wrote them: scenarios for the repeated requests, its
    // insertion indexes, `hasExactly` query matchers.
    let stubs = stopped["mappings"].as_array().expect("the recorded stubs");
    assert!(stubs.len() >= 4, "{stopped:#}");
    assert!(
        stubs.iter().any(|s| s.get("scenarioName").is_some()),
        "{stopped:#}"
    );
    let written: Vec<Value> = std::fs::read_dir(recordings.path().join("mappings"))
        .expect("the recorder's mappings")
        .flatten()
        .map(|entry| {
            serde_json::from_slice(&std::fs::read(entry.path()).expect("readable")).expect("JSON")
        })
        .collect();
    assert_eq!(written.len(), stubs.len());
    assert!(written.iter().all(|s| s.get("insertionIndex").is_some()));
    assert!(stopped.to_string().contains("hasExactly"), "{stopped:#}");
    let mocks = repo.path().join("sites/acme/web/mocks");
    let files = copy_dir(recordings.path(), &mocks);
    assert!(
        files >= stubs.len(),
        "{files} files for {} stubs",
        stubs.len()
    );

    let (offline, _data) = serve(repo.path(), None).await;
    let replayed = rendered(&offline, None).await;
    assert_eq!(replayed, expected);
    let replayed_again = rendered(&offline, None).await;
    assert_eq!(replayed_again, expected);
    offline.stop().await.expect("stops");
}
