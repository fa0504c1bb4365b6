//! The live session of `siteops serve`: reloads apply the repository to the bundled
//! service; a change that does not validate keeps the last good state; fixing it applies.

use std::path::Path;

use reqwest::StatusCode;
use siteops_live::{Live, LiveEvent, Target, reload};

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
        assert_eq!(snapshot.changes.len(), 14, "{:?}", snapshot.changes);
        // Only notes: the example's secrets are not set here, so they have stand-ins.
        assert!(
            snapshot
                .diagnostics
                .lines()
                .all(|l| l.starts_with("note: ")),
            "{}",
            snapshot.diagnostics
        );
        let website = siteops_config::model::SiteId {
            org: "acme".into(),
            site: "website".into(),
        };
        assert!(
            snapshot.pages[&website]
                .iter()
                .any(|page| page.path == "/products/1234"),
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
        .get(&siteops_server::codesync::code_key(
            "acme",
            "acme",
            "website",
            "main",
            "templates/product.html",
        ))
        .await
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

/// Issue 14, finding 1: a secret whose variable is not set used to get the session's own
/// token (org admin of every org), which a site's `config_admin` could read back from the
/// worker configuration. Its stand-in now reads one site's templates and nothing else.
#[tokio::test]
async fn unset_secrets_get_stand_ins_that_grant_nothing_else() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let diagnostics = live.snapshot.read().expect("snapshot").diagnostics.clone();
    assert!(
        diagnostics.contains("note: a templateApiKey of acme/website has no value"),
        "{diagnostics}"
    );

    let config_admin = server.token("3A9F00C21E4B5D6A7B8C9D0E@techacct.acme.example");
    let config = server
        .get("/transform/config/acme/website/main", &config_admin)
        .await;
    assert_eq!(config.status, StatusCode::OK, "{config:?}");
    let key = config.body[0]["templateApiKey"]
        .as_str()
        .expect("a templateApiKey")
        .to_string();
    let now = siteops_server::time::now_seconds();
    let claims = server.server.state.key.verify(&key, now).expect("a token");
    assert_eq!(claims.aud, "acme/website");
    assert_eq!(claims.sub, siteops_live::TEMPLATE_READER_SUBJECT);

    // It creates nothing, configures nothing, reads nothing of the administration API.
    let body =
        serde_json::json!({"content": {"source": {"url": "https://x.example/", "type": "markup"}}});
    let created = server
        .post("/admin/config/globex/sites/stolen.json", &key, &body)
        .await;
    assert_eq!(created.status, StatusCode::FORBIDDEN, "{created:?}");
    let read = server
        .get("/admin/config/acme/sites/website.json", &key)
        .await;
    assert_eq!(read.status, StatusCode::FORBIDDEN, "{read:?}");

    // The sync secret's stand-in is no token at all.
    let stored = siteops_server::sites::secret_value(
        server.server.state.store.as_ref(),
        "acme",
        "website",
        "git-sync",
    )
    .await
    .expect("store")
    .expect("the secret is stored");
    assert!(stored.contains("unset-acme-website-git-sync-"), "{stored}");
    assert!(!stored.contains("eyJ"), "{stored}");

    // And the worker still renders the product template of the site that requires
    // authentication (the generic page has no `class="specs"`).
    let admin = server.token("web-team@acme.example");
    let page = server
        .client
        .get(server.url("/products/1234"))
        .header("host", "main--website--acme.localhost")
        .header("authorization", format!("token {admin}"))
        .send()
        .await
        .expect("answered");
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.expect("text");
    assert!(
        html.contains("Acme Kettle Pro") && html.contains("class=\"specs\""),
        "{html}"
    );
}

/// Issue 28: a mock serve cannot load fails the reload as the repository not validating,
/// with what `siteops validate` says of it: where (file, line, column) and why, which is
/// what serve prints and the dashboard shows. Fixed, it applies.
#[tokio::test]
async fn an_invalid_mock_fails_the_reload_with_where_and_why() {
    let repo = example_copy();
    let server = TestServer::start_serving().await;
    let live = Live::new(repo.path().to_path_buf(), true);
    let mut events = live.subscribe();
    let mapping = "sites/acme/website/mocks/mappings/page-index.json";
    edit(
        repo.path(),
        mapping,
        "\"url\": \"/delivery",
        "\"urll\": \"/delivery",
    );
    reload_once(&live, &server).await;
    match events.recv().await.expect("event") {
        LiveEvent::Failed { message, .. } => {
            assert_eq!(message, "the repository does not validate");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        let diagnostics = &snapshot.diagnostics;
        for expected in [
            "error[unknown-key]: unknown key `urll`",
            "--> sites/acme/website/mocks/mappings/page-index.json:8:5",
            "help: did you mean `url`?",
            "1 error, 0 warnings",
        ] {
            assert!(diagnostics.contains(expected), "{expected}: {diagnostics}");
        }
    }
    edit(
        repo.path(),
        mapping,
        "\"urll\": \"/delivery",
        "\"url\": \"/delivery",
    );
    reload_once(&live, &server).await;
    assert_eq!(
        events.recv().await.expect("event"),
        LiveEvent::Reloaded { generation: 2 },
        "{}",
        live.snapshot.read().expect("snapshot").diagnostics
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
            snapshot.diagnostics.contains(
                "error[missing-body-file]: there is no file sites/acme/website/mocks/__files/leak.html"
            ),
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

/// Behind `--allowed-host` others reach the service: the session's dashboard, traces and
/// events, and its protected sites' pages, are then for signed-in people only (on a serve
/// only this machine reaches, the local developer sees them without a token).
#[tokio::test]
async fn reached_beyond_this_machine_the_dashboard_and_protected_pages_need_a_token() {
    let repo = example_copy();
    let (server, _live) =
        TestServer::start_live_allowing(repo.path().to_path_buf(), &["siteops.acme.example"]).await;
    let get = |host: &'static str, path: &'static str, token: Option<String>| {
        let server = &server;
        async move {
            let mut request = server.client.get(server.url(path)).header("host", host);
            if let Some(token) = token {
                request = request.header("authorization", format!("token {token}"));
            }
            request.send().await.expect("answered").status()
        }
    };
    for path in ["/", "/.siteops/previews/1", "/.siteops/events"] {
        assert_eq!(
            get("siteops.acme.example", path, None).await,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        assert_eq!(
            get(
                "siteops.acme.example",
                path,
                Some(server.token("web-team@acme.example"))
            )
            .await,
            StatusCode::FORBIDDEN,
            "{path}: a site's admin is no operator"
        );
    }
    assert_eq!(
        get("siteops.acme.example", "/", Some(server.token(ORG_ADMIN))).await,
        StatusCode::OK
    );
    // acme/website requires authentication: no page, and no preview made, without a token.
    let page = get("main--website--acme.localhost", "/products/1234", None).await;
    assert_eq!(page, StatusCode::UNAUTHORIZED);
    let with_role = get(
        "main--website--acme.localhost",
        "/products/1234",
        Some(server.token("web-team@acme.example")),
    )
    .await;
    assert_eq!(with_role, StatusCode::OK);
}

/// Issue 27: `/readyz` answers 503 until the live session's first apply has finished (a
/// load balancer sent traffic to a server whose sites were not there yet), then 200.
#[tokio::test]
async fn readyz_waits_for_the_first_apply() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live_unapplied(repo.path().to_path_buf(), &[]).await;
    let ready = || server.text("/readyz");
    assert_eq!(
        ready().await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "the repository is not applied yet\n".to_string()
        )
    );
    reload(&live, &Target::of(&server.server)).await;
    assert_eq!(ready().await, (StatusCode::OK, "ready\n".to_string()));
}

/// Issue 27, finding 11: every view of a page on a preview host in `serve` wrote its
/// preview record again (2,000 views, 2,000 writes). A view of an unchanged page now
/// writes nothing: the record stays the one the first view wrote.
#[tokio::test]
async fn views_of_an_unchanged_page_write_no_record() {
    let repo = example_copy();
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let store = server.server.state.store.as_ref();
    let previews =
        siteops_server::preview::store::BranchPreviews::new(store, "acme", "website", "main");
    let view = || async {
        let page = server
            .client
            .get(server.url("/"))
            .header("host", "main--website--acme.localhost")
            .send()
            .await
            .expect("answered");
        assert_eq!(page.status(), StatusCode::OK, "{page:?}");
    };
    view().await;
    // The stored record, marked so that a rewrite shows.
    let key = previews.page("/").record();
    let mut record = previews
        .load("/")
        .await
        .expect("store")
        .expect("the view previewed /");
    record.last_modified = "2000-01-01T00:00:00Z".into();
    let marked = serde_json::to_vec_pretty(&record).expect("json");
    store.put(&key, &marked).await.expect("put");
    for _ in 0..200 {
        view().await;
    }
    let after = previews.load("/").await.expect("store").expect("a record");
    assert_eq!(
        after.last_modified, "2000-01-01T00:00:00Z",
        "the record was rewritten"
    );

    // A changed page is written again.
    let mut changed = record.clone();
    changed.revision = "0".repeat(32);
    store
        .put(&key, &serde_json::to_vec_pretty(&changed).expect("json"))
        .await
        .expect("put");
    view().await;
    let after = previews.load("/").await.expect("store").expect("a record");
    assert_eq!(after.revision, record.revision);
    assert_ne!(after.last_modified, "2000-01-01T00:00:00Z");
}
