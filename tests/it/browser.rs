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

/// Chromium and chromedriver; `None` (the test is skipped, with a message) where they are
/// not installed, except in CI.
fn binaries_or_skip() -> Option<(String, String)> {
    siteops_testkit::or_skip(
        binaries(),
        "chromium and chromedriver (Debian's chromium and chromium-driver; .ci/run installs them)",
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dashboard_preview_trace_and_live_reload_in_chromium() {
    let Some((chromium, chromedriver)) = binaries_or_skip() else {
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
    // The site's code ran on it: styles and the columns block's script, nothing missing.
    site_code_loaded(&browser, "[data-block-name=\"columns\"].columns-2-cols").await;
    // Its picture is a real one, decoded at the size the page declares (issue 28: it was
    // a 1×1 PNG, stretched).
    picture_decoded(&browser, 800, 600).await;
    std::fs::write(artefacts().join("preview.png"), browser.screenshot().await).expect("png");
    // Trail Runner 2's, from a partner's host, too (it had no mock: a broken picture).
    browser
        .goto(&serve.url("main--website--acme.localhost", "/products/shoes/98765"))
        .await;
    picture_decoded(&browser, 800, 600).await;

    // The tour's other pages: the home page's cards, the blog (repoless: its base's code)
    // and the docs site's own design.
    browser
        .goto(&serve.url("main--website--acme.localhost", "/"))
        .await;
    site_code_loaded(&browser, "main .cards ul > li .cards-card-body").await;
    std::fs::write(artefacts().join("home.png"), browser.screenshot().await).expect("png");
    browser
        .goto(&serve.url("main--blog--acme.localhost", "/"))
        .await;
    site_code_loaded(&browser, "body.appear").await;
    browser
        .goto(&serve.url("main--docs--globex.localhost", "/"))
        .await;
    site_code_loaded(&browser, "body.appear").await;
    std::fs::write(artefacts().join("docs.png"), browser.screenshot().await).expect("png");

    // A block's stylesheet edited in the checkout restyles the open page in place.
    browser
        .goto(&serve.url("main--website--acme.localhost", "/"))
        .await;
    wait_for(
        &browser,
        "return document.querySelector('main .cards ul') !== null",
    )
    .await;
    browser.script("window.siteopsKept = true; return 1;").await;
    let styles = repo.path().join("code/acme-website/blocks/cards/cards.css");
    let text = std::fs::read_to_string(&styles).expect("cards.css");
    let edited_at = Instant::now();
    std::fs::write(
        &styles,
        format!("{text}\nmain .cards {{ --siteops-edit: 7; }}\n"),
    )
    .expect("edit");
    wait_for(
        &browser,
        "const c = document.querySelector('main .cards'); \
         return getComputedStyle(c).getPropertyValue('--siteops-edit').trim() === '7';",
    )
    .await;
    eprintln!(
        "stylesheet edit to restyled page: {} ms",
        edited_at.elapsed().as_millis()
    );
    assert_eq!(
        browser.script("return window.siteopsKept === true;").await,
        true,
        "the stylesheet edit reloaded the page instead of swapping the sheet"
    );
    // Saved as `sed -i` and vim save: a temporary file renamed over the sheet (issue 28:
    // that reloaded the page).
    let temporary = styles.with_file_name("sedQ81xZa");
    std::fs::write(
        &temporary,
        format!("{text}\nmain .cards {{ --siteops-edit: 8; }}\n"),
    )
    .expect("edit");
    std::fs::rename(&temporary, &styles).expect("rename");
    wait_for(
        &browser,
        "const c = document.querySelector('main .cards'); \
         return getComputedStyle(c).getPropertyValue('--siteops-edit').trim() === '8';",
    )
    .await;
    assert_eq!(
        browser.script("return window.siteopsKept === true;").await,
        true,
        "the stylesheet renamed into place reloaded the page instead of swapping the sheet"
    );

    // The product page's trace (viewing it again makes it the last preview): the overlay
    // (the worker) was asked first and used.
    browser
        .goto(&serve.url("main--website--acme.localhost", "/products/1234"))
        .await;
    assert_eq!(browser.text("h1").await, "Acme Kettle Pro");
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

/// Content that tries to run script runs nothing: a `json-ld` value whose escapes spell
/// `</script><script>…` stays JSON in its script (which carries the page's nonce), and an
/// SVG whose `foreignObject` holds an `iframe` with a script, opened on its own, runs none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_runs_no_script_in_chromium() {
    let Some((chromium, chromedriver)) = binaries_or_skip() else {
        return;
    };
    let repo = example_copy();
    let mocks = repo.path().join("sites/acme/blog/mocks");
    let injected = r#"\u003c/script\u003e\u003cscript\u003ewindow.siteopsPwned=1;document.title='pwned'\u003c/script\u003e"#;
    std::fs::write(
        mocks.join("__files/pages/hostile.html"),
        format!(
            "<html><head><title>Hostile</title></head><body><main><div><h1>Hostile</h1>\
             <div class=\"metadata\"><div><div>json-ld</div><div>{{\"name\":\"{injected}\"}}</div></div></div>\
             </div></main></body></html>"
        ),
    )
    .expect("page");
    std::fs::write(
        mocks.join("mappings/page-hostile.json"),
        r#"{"request": {"method": "GET", "host": {"equalTo": "cms.acme.example"}, "url": "/delivery/blog/hostile"},
            "response": {"status": 200, "headers": {"Content-Type": "text/html; charset=utf-8"}, "bodyFileName": "pages/hostile.html"}}"#,
    )
    .expect("mapping");
    // The site's code is not checked as downloaded images are: only the policy stops it.
    std::fs::write(
        repo.path().join("code/acme-website/icons/hostile.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="90" height="90"><rect width="9" height="9"/>
           <foreignObject width="90" height="90"><iframe xmlns="http://www.w3.org/1999/xhtml"
           srcdoc="&lt;script&gt;parent.siteopsPwned=1;parent.document.documentElement.setAttribute('data-pwned','1')&lt;/script&gt;"/></foreignObject></svg>"#,
    )
    .expect("svg");
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let browser = Browser::start(&chromium, &chromedriver).await;

    browser
        .goto(&serve.url("main--blog--acme.localhost", "/hostile"))
        .await;
    assert_eq!(browser.text("h1").await, "Hostile");
    assert_eq!(
        browser
            .script("return [typeof window.siteopsPwned, document.title];")
            .await,
        serde_json::json!(["undefined", "Hostile"])
    );
    let json_ld = browser
        .script(
            "return JSON.parse(document.querySelector('script[type=\"application/ld+json\"]').textContent).name;",
        )
        .await;
    assert_eq!(
        json_ld,
        "</script><script>window.siteopsPwned=1;document.title='pwned'</script>"
    );

    browser
        .goto(&serve.url("main--blog--acme.localhost", "/icons/hostile.svg"))
        .await;
    wait_for(
        &browser,
        "return document.documentElement.localName === 'svg' && document.querySelector('iframe') !== null;",
    )
    .await;
    // The frame's script would have run by now; give it a moment all the same.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        browser
            .script(
                "return [typeof window.siteopsPwned, document.documentElement.getAttribute('data-pwned')];"
            )
            .await,
        serde_json::json!(["undefined", null])
    );
    browser.quit().await;
}

/// Issue 28: the dashboard said "applied" until refreshed by hand, and an open page gave
/// no sign that the repository did not validate. Now the open dashboard shows the failed
/// reload by itself; a page shows a banner linking to it until the fix, which removes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dashboard_and_an_open_page_follow_a_bad_edit_in_chromium() {
    let Some((chromium, chromedriver)) = binaries_or_skip() else {
        return;
    };
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let browser = Browser::start(&chromium, &chromedriver).await;
    let site = repo.path().join("sites/globex/docs/site.toml");
    let good = std::fs::read_to_string(&site).expect("site.toml");
    let bad = good.replace(
        "https://content.globex.example/docs",
        "content.globex.example",
    );
    assert_ne!(good, bad);

    browser.goto(&serve.url("localhost", "/")).await;
    assert_eq!(browser.text("#status").await, "applied");
    std::fs::write(&site, &bad).expect("bad edit");
    wait_for(
        &browser,
        "const s = document.querySelector('#status'); \
         const d = document.querySelector('#diagnostics'); \
         return s !== null && s.textContent.includes('does not validate') && \
           d !== null && d.textContent.includes('sites/globex/docs/site.toml');",
    )
    .await;
    std::fs::write(
        artefacts().join("dashboard-invalid.png"),
        browser.screenshot().await,
    )
    .expect("png");

    // A page, from the last good state, with the banner.
    browser
        .goto(&serve.url("main--docs--globex.localhost", "/"))
        .await;
    let banner = browser.text("#siteops-invalid").await;
    assert!(banner.contains("does not validate"), "{banner}");
    assert!(banner.contains("problem"), "{banner}");
    let dashboard = browser
        .script("return document.querySelector('#siteops-invalid a').href;")
        .await;
    assert_eq!(dashboard, serve.url("localhost", "/"));
    std::fs::write(artefacts().join("invalid.png"), browser.screenshot().await).expect("png");

    // The fix: the page reloads itself, without the banner.
    std::fs::write(&site, &good).expect("fix");
    wait_for(
        &browser,
        "return document.readyState === 'complete' && \
           document.querySelector('#siteops-invalid') === null && \
           document.querySelector('main') !== null;",
    )
    .await;
    browser.quit().await;
}

/// The first picture of the page's `main` has loaded and decoded to `width`×`height`,
/// which is also the size the page declares.
async fn picture_decoded(browser: &Browser, width: u32, height: u32) {
    wait_for(
        browser,
        &format!(
            "const i = document.querySelector('main img'); \
             return i !== null && i.complete && i.naturalWidth === {width} && \
               i.naturalHeight === {height} && i.getAttribute('width') === '{width}' && \
               i.getAttribute('height') === '{height}';"
        ),
    )
    .await;
}

/// Polls `script` (returning a boolean) until it holds, for at most 15 s.
async fn wait_for(browser: &Browser, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while browser.script(script).await != true {
        assert!(Instant::now() < deadline, "not seen within 15 s: {script}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The open page ran its site's code: `decorated` (a selector only the block scripts
/// produce) matches, the site's stylesheet applies, and every request the page made
/// was answered without an error (no 404 in the network log).
async fn site_code_loaded(browser: &Browser, decorated: &str) {
    let selector = serde_json::to_string(decorated).expect("selector");
    wait_for(
        browser,
        &format!("return document.querySelector({selector}) !== null;"),
    )
    .await;
    let requests = browser
        .script(
            "return performance.getEntriesByType('resource').map(e => \
             [new URL(e.name).pathname, e.responseStatus]);",
        )
        .await;
    let requests = requests.as_array().expect("entries");
    let paths: Vec<&str> = requests.iter().filter_map(|r| r[0].as_str()).collect();
    assert!(paths.contains(&"/styles/styles.css"), "{paths:?}");
    assert!(paths.contains(&"/scripts/scripts.js"), "{paths:?}");
    let failed: Vec<&serde_json::Value> = requests
        .iter()
        .filter(|r| r[1].as_u64().is_none_or(|status| status >= 400))
        .collect();
    assert!(failed.is_empty(), "requests that failed: {failed:?}");
    let sheets = browser.script("return document.styleSheets.length;").await;
    assert!(sheets.as_u64().is_some_and(|n| n >= 1), "{sheets}");
}
