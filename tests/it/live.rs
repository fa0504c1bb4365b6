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

/// A FIFO under `sites/` stopped the whole server (a blocking read on its runtime) and a
/// mock body linked out of the repository was served. Now the reload finishes, the link
/// is not a body file, and both are named.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifos_and_links_out_under_sites_are_skipped_and_named() {
    let repo = example_copy();
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("secret.html"), "secret").expect("write");
    let mocks = repo.path().join("sites/acme/website/mocks");
    let made = std::process::Command::new("mkfifo")
        .arg(mocks.join("__files/fifo.html"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::os::unix::fs::symlink(
        outside.path().join("secret.html"),
        mocks.join("__files/leak.html"),
    )
    .expect("symlink");
    std::fs::write(
        mocks.join("mappings/leak.json"),
        r#"{"request": {"urlPath": "/leak"}, "response": {"bodyFileName": "leak.html"}}"#,
    )
    .expect("write");
    let server = TestServer::start_serving().await;
    let live = std::sync::Arc::new(Live::new(repo.path().to_path_buf(), true));
    let mut events = live.subscribe();
    let reload_in_time = |live: std::sync::Arc<Live>, server: std::sync::Arc<TestServer>| async move {
        // Spawned: a read that blocks its thread cannot also block this timeout.
        let task = tokio::spawn(async move { reload_once(&live, &server).await });
        tokio::time::timeout(std::time::Duration::from_secs(30), task)
            .await
            .expect("the reload finishes")
            .expect("the reload does not panic");
    };
    let server = std::sync::Arc::new(server);
    reload_in_time(live.clone(), server.clone()).await;
    assert!(matches!(events.recv().await, Ok(LiveEvent::Failed { .. })));
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert!(
            snapshot
                .diagnostics
                .contains("no file __files/leak.html next to mappings/"),
            "{}",
            snapshot.diagnostics
        );
    }
    std::fs::remove_file(mocks.join("mappings/leak.json")).expect("remove");
    reload_in_time(live.clone(), server.clone()).await;
    assert_eq!(
        events.recv().await.expect("event"),
        LiveEvent::Reloaded { generation: 2 },
        "{}",
        live.snapshot.read().expect("snapshot").diagnostics
    );
    let snapshot = live.snapshot.read().expect("snapshot");
    for expected in [
        "`sites/acme/website/mocks/__files/fifo.html` is a FIFO",
        "`sites/acme/website/mocks/__files/leak.html` is a symbolic link",
    ] {
        assert!(
            snapshot.diagnostics.contains(expected),
            "{}",
            snapshot.diagnostics
        );
    }
}
