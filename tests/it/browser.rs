//! The demo in a real headless Chromium: `siteops serve` (the real binary) on a copy of
//! the example repository, the dashboard, a preview page, the trace of that preview, and
//! a template edit that the open page shows by reloading itself. Screenshots go to
//! `target/browser/` as test artefacts.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them the test fails under `CI=true` and is skipped (with a message) elsewhere.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::serve_process::Serve;
use crate::support::example_copy;
use crate::webdriver::{Browser, binaries};

fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    std::fs::create_dir_all(&dir).expect("artefact directory");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dashboard_preview_trace_and_live_reload_in_chromium() {
    let Some((chromium, chromedriver)) = binaries() else {
        assert!(
            std::env::var("CI").is_err(),
            "CI needs chromium and chromedriver (.ci/run installs them)"
        );
        eprintln!("browser test skipped: chromium or chromedriver is not installed");
        return;
    };
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let browser = Browser::start(&chromium, &chromedriver).await;

    // The dashboard: applied, with the example sites and their pages.
    browser.goto(&serve.url("localhost", "/")).await;
    assert_eq!(browser.text("#status").await, "applied");
    assert!(
        browser
            .text("#site-acme-website h2")
            .await
            .contains("acme/website")
    );
    assert!(
        browser
            .text("#site-globex-docs h2")
            .await
            .contains("globex/docs")
    );
    std::fs::write(
        artefacts().join("dashboard.png"),
        browser.screenshot().await,
    )
    .expect("png");

    // A preview page, through the dashboard's link: the worker renders it from the mocks.
    browser
        .click("#site-acme-website a.preview[href$=\"/products/1234\"]")
        .await;
    assert_eq!(browser.text("h1").await, "Acme Kettle Pro");
    assert!(
        browser
            .url()
            .await
            .starts_with("http://main--website--acme.localhost:")
    );
    std::fs::write(artefacts().join("preview.png"), browser.screenshot().await).expect("png");

    // Its trace: the overlay (the worker) was asked first and used.
    browser.goto(&serve.url("localhost", "/")).await;
    browser.click("#previews a.trace").await;
    let attempts = browser.text("#fetch").await;
    assert!(attempts.contains("overlay"), "{attempts}");
    assert!(attempts.contains("used"), "{attempts}");
    std::fs::write(artefacts().join("trace.png"), browser.screenshot().await).expect("png");

    // A template edit shows in the open page, which reloads itself.
    browser.click("#page").await;
    assert_eq!(browser.text("h1").await, "Acme Kettle Pro");
    let template = repo
        .path()
        .join("sites/acme/website/templates/product.html");
    let text = std::fs::read_to_string(&template).expect("template");
    let edited = text.replace("<h1>{{name}}</h1>", "<h1>{{name}}, now quieter</h1>");
    assert_ne!(text, edited);
    let edited_at = Instant::now();
    std::fs::write(&template, edited).expect("edit");
    let deadline = edited_at + Duration::from_secs(15);
    loop {
        let heading = browser
            .script("const h = document.querySelector('h1'); return h ? h.textContent : '';")
            .await;
        if heading.as_str() == Some("Acme Kettle Pro, now quieter") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the page did not reload: {heading}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!(
        "edit to reloaded page: {} ms",
        edited_at.elapsed().as_millis()
    );
    std::fs::write(artefacts().join("reloaded.png"), browser.screenshot().await).expect("png");
    browser.quit().await;
}
