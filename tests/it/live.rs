//! The live session of `siteops serve`: reloads apply the repository to the bundled
//! service; a change that does not validate keeps the last good state; fixing it applies.

use std::path::Path;

use reqwest::StatusCode;
use siteops::live::{Live, LiveEvent, Target, reload};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::support::example_copy;

async fn reload_once(live: &Live, server: &TestServer) {
    reload(live, &Target::of(&server.server)).await;
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

#[tokio::test]
async fn reloads_apply_and_a_bad_edit_keeps_the_last_good_state() {
    let repo = example_copy();
    let server = TestServer::start_serving().await;
    let root = server.token(ORG_ADMIN);
    let live = Live::new(repo.path().to_path_buf(), true);
    let mut events = live.subscribe();

    reload_once(&live, &server).await;
    let first = events.recv().await.expect("event");
    assert_eq!(
        first,
        LiveEvent::Reloaded { generation: 1 },
        "{}",
        live.snapshot.read().expect("snapshot").diagnostics
    );
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert_eq!(snapshot.error, None);
        assert_eq!(snapshot.changes.len(), 10, "{:?}", snapshot.changes);
        assert!(snapshot.diagnostics.is_empty(), "{}", snapshot.diagnostics);
        let website = siteops::model::SiteId {
            org: "acme".into(),
            site: "website".into(),
        };
        assert!(
            snapshot.pages[&website].contains(&"/products/1234".to_string()),
            "{:?}",
            snapshot.pages
        );
    }
    let site = server
        .get("/admin/config/acme/sites/blog.json", &root)
        .await;
    assert_eq!(site.status, StatusCode::OK);
    // The templates are in the code store of the shared repository; the mocks are loaded.
    let template = server
        .server
        .state
        .store
        .get(&siteops::codesync::code_key(
            "acme",
            "website",
            "main",
            "templates/product.html",
        ))
        .expect("store");
    assert!(template.is_some_and(|t| t.starts_with(b"<!DOCTYPE html>")));
    assert!(live.mocks().stubs().len() >= 8);

    // Nothing changed: nothing applied.
    reload_once(&live, &server).await;
    assert_eq!(
        events.recv().await.expect("event"),
        LiveEvent::Reloaded { generation: 2 }
    );
    assert!(live.snapshot.read().expect("snapshot").changes.is_empty());

    // A value that does not validate: diagnostics shown, the service keeps the last state.
    edit(
        repo.path(),
        "sites/acme/blog/site.toml",
        "\"https://cms.acme.example/delivery/blog\"",
        "\"cms.acme.example/blog\"",
    );
    reload_once(&live, &server).await;
    match events.recv().await.expect("event") {
        LiveEvent::Failed { generation, .. } => assert_eq!(generation, 3),
        other => panic!("expected a failure, got {other:?}"),
    }
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert!(snapshot.error.is_some());
        assert!(
            snapshot.diagnostics.contains("sites/acme/blog/site.toml"),
            "{}",
            snapshot.diagnostics
        );
    }
    let kept = server
        .get("/admin/config/acme/sites/blog.json", &root)
        .await;
    assert_eq!(
        kept.body["content"]["source"]["url"],
        "https://cms.acme.example/delivery/blog"
    );

    // Fixed, with a real change: exactly that change is applied.
    edit(
        repo.path(),
        "sites/acme/blog/site.toml",
        "\"cms.acme.example/blog\"",
        "\"https://cms.acme.example/delivery/journal\"",
    );
    reload_once(&live, &server).await;
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert_eq!(snapshot.error, None);
        assert_eq!(snapshot.changes.len(), 1, "{:?}", snapshot.changes);
    }
    let changed = server
        .get("/admin/config/acme/sites/blog.json", &root)
        .await;
    assert_eq!(
        changed.body["content"]["source"]["url"],
        "https://cms.acme.example/delivery/journal"
    );
}
