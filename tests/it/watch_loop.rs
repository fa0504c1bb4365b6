//! The watch loop of the real `siteops serve`: an edit is applied, an edit that does not
//! validate keeps the last good state (and the dashboard says why), the fix applies; a
//! stylesheet saved through a temporary file is a change of that stylesheet only. And what
//! it logs of the requests it answers.

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
    let client = siteops_plan::http::client(Duration::from_secs(30));
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

/// Issue 28: saving through a temporary file renamed over the stylesheet (`sed -i`, vim)
/// announced the temporary file too, so the open pages reloaded instead of swapping the
/// sheet in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stylesheet_saved_through_a_temporary_file_is_that_stylesheet() {
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let client = siteops_plan::http::client(Duration::from_secs(30));
    let mut events = client
        .get(serve.url("127.0.0.1", "/.siteops/events"))
        .header(
            "host",
            format!("main--website--acme.localhost:{}", serve.port),
        )
        .send()
        .await
        .expect("event stream");
    let mut buffer = String::new();
    next_event(&mut events, &mut buffer, "hello").await;
    let cards = repo.path().join("code/acme-website/blocks/cards");
    let sheet = cards.join("cards.css");
    let text = std::fs::read_to_string(&sheet).expect("cards.css");
    let expected = r#"{"paths":["/blocks/cards/cards.css"],"repo":"acme/website"}"#;

    // sed -i: the new text in a temporary file, renamed over the sheet.
    let temporary = cards.join("sedX7kQ2p");
    std::fs::write(&temporary, format!("{text}\n.cards {{ --edit: 1; }}\n")).expect("write");
    std::fs::rename(&temporary, &sheet).expect("rename");
    let changed = next_event(&mut events, &mut buffer, "code").await;
    assert_eq!(changed, expected);

    // vim: a probe file made and removed, the sheet renamed to a backup, a new sheet
    // written, the backup removed.
    let (probe, backup) = (cards.join("4913"), cards.join("cards.css~"));
    std::fs::write(&probe, "").expect("probe");
    std::fs::remove_file(&probe).expect("remove probe");
    std::fs::rename(&sheet, &backup).expect("backup");
    std::fs::write(&sheet, format!("{text}\n.cards {{ --edit: 2; }}\n")).expect("write");
    std::fs::remove_file(&backup).expect("remove backup");
    let changed = next_event(&mut events, &mut buffer, "code").await;
    assert_eq!(changed, expected);
}

/// Issue 28: every request was logged at `INFO` (a page view is a dozen: the page, its
/// code, the preview's requests to the worker), without its `Host` and with `error=""`.
/// Now one line per request at `DEBUG`, with its host and only the fields it has; a
/// request the server fails is a warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_are_logged_at_debug_with_their_host() {
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start_logging(
        repo.path(),
        data.path(),
        "info,siteops_server::server=debug",
    );
    let client = siteops_plan::http::client(Duration::from_secs(30));
    let view = |host: &str, path: &str| {
        let request = client
            .get(serve.url("127.0.0.1", path))
            .header("host", format!("{host}:{}", serve.port));
        async move { request.send().await.expect("answered").status().as_u16() }
    };
    assert_eq!(
        view("main--website--acme.localhost", "/products/1234").await,
        200
    );
    // No mock answers this page: the preview fails with 502.
    assert_eq!(
        view("main--blog--acme.localhost", "/no-such-page").await,
        502
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = serve.log();
        if log.iter().any(|l| l.contains("uri=/no-such-page")) {
            break log;
        }
        assert!(std::time::Instant::now() < deadline, "{log:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let requests: Vec<&String> = log.iter().filter(|l| l.contains(" request ")).collect();
    let page = requests
        .iter()
        .find(|l| l.contains("uri=/products/1234 "))
        .unwrap_or_else(|| panic!("{requests:#?}"));
    assert!(page.contains(" DEBUG "), "{page}");
    let host = format!("host=main--website--acme.localhost:{}", serve.port);
    assert!(page.contains(&host), "{page}");
    // The preview's own request to the worker: the worker's host, at DEBUG too.
    assert!(
        requests.iter().any(|l| l.contains(" DEBUG ")
            && l.contains("uri=/transform/acme/website/main/products/1234")),
        "{requests:#?}"
    );
    let failed = requests
        .iter()
        .find(|l| l.contains("uri=/no-such-page"))
        .expect("logged");
    assert!(
        failed.contains(" WARN ") && failed.contains("status=502"),
        "{failed}"
    );
    assert!(
        failed.contains("error=\"unable to fetch /no-such-page"),
        "{failed}"
    );
    assert!(
        requests.iter().all(|l| !l.contains("error=\"\"")),
        "{requests:#?}"
    );
    assert!(
        requests.iter().all(|l| !l.contains(" INFO ")),
        "{requests:#?}"
    );
}
