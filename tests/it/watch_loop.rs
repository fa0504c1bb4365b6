//! The watch loop of the real `siteops serve`: an edit is applied, an edit that does not
//! validate keeps the last good state (and the dashboard says why), the fix applies.

use std::time::Duration;

use crate::serve_process::Serve;
use crate::support::example_copy;

/// Reads the event stream until an event named `name` arrives; returns its data.
async fn next_event(response: &mut reqwest::Response, buffer: &mut String, name: &str) -> String {
    let read = async {
        loop {
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let field = |key: &str| {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(key))
                        .map(|v| v.trim().to_string())
                };
                if field("event:").as_deref() == Some(name) {
                    return field("data:").unwrap_or_default();
                }
            }
            let chunk = response.chunk().await.expect("stream").expect("open");
            buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(Duration::from_secs(15), read)
        .await
        .unwrap_or_else(|_| panic!("no `{name}` event"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_apply_and_a_bad_edit_keeps_the_last_good_state() {
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let client = siteops::http::client(Duration::from_secs(30));
    let mut events = client
        .get(serve.url("127.0.0.1", "/.siteops/events"))
        .send()
        .await
        .expect("event stream");
    let mut buffer = String::new();
    assert_eq!(
        next_event(&mut events, &mut buffer, "hello").await,
        r#"{"generation":1}"#
    );
    let site = repo.path().join("sites/globex/docs/site.toml");
    let good = std::fs::read_to_string(&site).expect("site.toml");

    // A bad edit: a URL that is not one. Nothing changes on the service.
    std::fs::write(
        &site,
        good.replace(
            "https://content.globex.example/docs",
            "content.globex.example",
        ),
    )
    .expect("edit");
    let failed = next_event(&mut events, &mut buffer, "failed").await;
    assert!(failed.contains("does not validate"), "{failed}");
    let dashboard = client
        .get(serve.url("127.0.0.1", "/"))
        .send()
        .await
        .expect("dashboard");
    let page = dashboard.text().await.expect("html");
    assert!(
        page.contains("sites/globex/docs/site.toml"),
        "the dashboard shows the diagnostic"
    );
    let config = client
        .get(serve.url("127.0.0.1", "/"))
        .header(
            "host",
            format!("main--docs--globex.localhost:{}", serve.port),
        )
        .send()
        .await
        .expect("preview");
    assert_eq!(config.status(), 200, "the last good state still serves");

    // The fix, with a real change: applied, the dashboard is clean again.
    std::fs::write(
        &site,
        good.replace("suffix = \".html\"", "suffix = \".htm\""),
    )
    .expect("fix");
    next_event(&mut events, &mut buffer, "reloaded").await;
    let page = client
        .get(serve.url("127.0.0.1", "/"))
        .send()
        .await
        .expect("dashboard")
        .text()
        .await
        .expect("html");
    assert!(page.contains("id=\"status\">applied"), "{page}");
    assert!(page.contains("update  globex/sites/docs.json"), "{page}");
}
