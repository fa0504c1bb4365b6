//! Issue 43, findings 4 and 5: on a live session reached beyond this machine
//! (`--allowed-host`), a view by someone who may not preview is a read (it writes nothing
//! and takes none of the org's preview turns), and the reload events are the dashboard's.

use std::path::Path;

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{ORG_ADMIN, TestServer};
use crate::support::example_copy;

const BLOG: &str = "main--blog--acme.localhost";

/// Files and bytes under `dir`, every depth.
fn footprint(dir: &Path) -> (usize, u64) {
    let mut files = 0;
    let mut bytes = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                files += 1;
                bytes += meta.len();
            }
        }
    }
    (files, bytes)
}

/// Every blog page the source has (a mock answering every path), as the probe
/// had: on main each anonymous view of a distinct path stored a preview.
fn answer_every_blog_page(root: &Path) {
    let mapping = json!({
        "name": "every-page",
        "priority": 20,
        "request": {
            "method": "GET",
            "host": { "equalTo": "cms.acme.example" },
            "urlPathPattern": "/delivery/blog/anon/.*"
        },
        "response": {
            "status": 200,
            "headers": { "Content-Type": "text/html; charset=utf-8" },
            "body": "<html><body><main><div><h1>A page</h1><p>Some text.</p></div></main></body></html>"
        }
    });
    std::fs::write(
        root.join("sites/acme/blog/mocks/mappings/every-page.json"),
        mapping.to_string(),
    )
    .expect("mapping");
}

/// 2,000 anonymous views of distinct paths add no byte to the store, start no preview
/// (so none holds the org's turns), and the org admin's preview still succeeds.
#[tokio::test]
async fn anonymous_views_of_an_exposed_session_are_reads() {
    let repo = example_copy();
    answer_every_blog_page(repo.path());
    let (server, live) =
        TestServer::start_live_allowing(repo.path().to_path_buf(), &["siteops.acme.example"]).await;
    let before = footprint(&server.data);
    let previews_before = live.recent_previews().len();
    for n in 0..2_000 {
        let page = server.preview(BLOG, &format!("/anon/page-{n}"), None).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "/anon/page-{n}");
        if n == 0 {
            let error = page.error.unwrap_or_default();
            assert!(
                error.contains("POST /admin/preview/acme/blog/main/anon/page-0"),
                "{error}"
            );
        }
    }
    assert_eq!(footprint(&server.data), before, "anonymous views wrote");
    assert_eq!(
        live.recent_previews().len(),
        previews_before,
        "anonymous views previewed"
    );
    let stored = siteops_server::preview::store::BranchPreviews::new(
        server.server.state.store.as_ref(),
        "acme",
        "blog",
        "main",
    )
    .load("/anon/page-0")
    .await
    .expect("store");
    assert!(stored.is_none());

    // The org admin previews: it is made, and then anyone reads it.
    let admin = server.token(ORG_ADMIN);
    let made = server
        .send(
            reqwest::Method::POST,
            "/admin/preview/acme/blog/main/anon/page-0",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(made.status, StatusCode::OK, "{:?}", made.error);
    let read = server.preview(BLOG, "/anon/page-0", None).await;
    assert_eq!(read.status, StatusCode::OK, "{:?}", read.error);
    // A view by someone who previews the site previews it.
    let viewed = server
        .preview(BLOG, "/anon/page-1", Some(admin.as_str()))
        .await;
    assert_eq!(viewed.status, StatusCode::OK, "{:?}", viewed.error);
}

/// The reload events on a preview host are the dashboard's: refused without a token
/// when the service is reached beyond this machine; bounded per client.
#[tokio::test]
async fn exposed_event_streams_need_an_operator_and_are_bounded() {
    let repo = example_copy();
    let (server, _live) =
        TestServer::start_live_allowing(repo.path().to_path_buf(), &["siteops.acme.example"]).await;
    let events = server.preview(BLOG, "/.siteops/events", None).await;
    assert_eq!(events.status, StatusCode::UNAUTHORIZED);
    let author = server.token("web-team@acme.example");
    let events = server
        .preview(BLOG, "/.siteops/events", Some(author.as_str()))
        .await;
    assert_eq!(events.status, StatusCode::FORBIDDEN);

    // An operator's streams, held open, up to the bound per client.
    let operator = server.token(ORG_ADMIN);
    let limit = siteops_live::events::StreamLimits::default().per_client;
    let mut open = Vec::new();
    for _ in 0..limit {
        let response = server
            .client
            .get(server.url("/.siteops/events"))
            .header("host", BLOG)
            .header("authorization", format!("token {operator}"))
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status(), StatusCode::OK);
        open.push(response);
    }
    let refused = server
        .preview(BLOG, "/.siteops/events", Some(operator.as_str()))
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        refused
            .error
            .unwrap_or_default()
            .contains("event streams open"),
        "the refusal says why"
    );
    drop(open);
}
