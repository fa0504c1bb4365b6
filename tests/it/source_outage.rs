//! Issue 44: a source outage made every view of a live session's page a 502, although a
//! good preview was stored, and the error page said it "reloads when the repository
//! changes", which a source coming back never triggers. The stored preview is served,
//! with a banner saying the source failed and how the page refreshes.

use std::path::Path;

use reqwest::StatusCode;
use siteops_live::{Live, Target, reload};

use crate::harness::TestServer;
use crate::support::example_copy;

/// `mapping`'s response status set to `status` (the mock of a source going down).
fn answer_with(root: &Path, mapping: &str, status: u16) {
    let path = root.join("sites/acme/website/mocks/mappings").join(mapping);
    let text = std::fs::read_to_string(&path).expect("read");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("a mapping");
    json["response"]["status"] = status.into();
    std::fs::write(&path, serde_json::to_vec_pretty(&json).expect("json")).expect("write");
}

async fn reload_once(live: &Live, server: &TestServer) {
    reload(live, &Target::of(&server.server)).await;
}

/// A view of `path` on acme/website's preview host: status, `x-siteops-stale`, body.
async fn view(server: &TestServer, path: &str) -> (StatusCode, Option<String>, String) {
    let response = server
        .client
        .get(server.url(path))
        .header("host", "main--website--acme.localhost")
        .send()
        .await
        .expect("answered");
    let status = response.status();
    let stale = response
        .headers()
        .get("x-siteops-stale")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (status, stale, response.text().await.expect("text"))
}

#[tokio::test]
async fn a_source_outage_serves_the_stored_preview_with_a_banner() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let (status, stale, page) = view(&server, "/about").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(stale, None);
    assert!(!page.contains("siteops-stale"), "{page}");

    // The source goes down.
    answer_with(repo.path(), "page-about.json", 503);
    answer_with(repo.path(), "page-index.json", 503);
    reload_once(&live, &server).await;
    let (status, stale, during) = view(&server, "/about").await;
    assert_eq!(status, StatusCode::OK, "{during}");
    let stale = stale.expect("x-siteops-stale names the failure");
    assert!(stale.contains("the source failed (502)"), "{stale}");
    assert!(during.contains("id=\"siteops-stale\""), "{during}");
    assert!(
        during.contains("Reload the page to preview it again once the source answers."),
        "{during}"
    );
    // The page is the stored one: what it showed before, besides the banner and script.
    let main = |html: &str| {
        let start = html.find("<main>").expect("a main");
        let end = html.find("</main>").expect("its end");
        html[start..end].to_string()
    };
    assert_eq!(main(&during), main(&page));

    // A page never previewed has nothing to stand in: the error page says how it
    // refreshes (a view tries again), not that a repository change reloads it.
    let (status, _, error) = view(&server, "/").await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{error}");
    assert!(
        error.contains("reload the page to try again (each view previews it)"),
        "{error}"
    );
    assert!(
        !error.contains("reloads when the repository changes"),
        "{error}"
    );

    // The source is back: the next view previews, without the banner.
    answer_with(repo.path(), "page-about.json", 200);
    reload_once(&live, &server).await;
    let (status, stale, after) = view(&server, "/about").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(stale, None);
    assert!(!after.contains("siteops-stale"), "{after}");
}
