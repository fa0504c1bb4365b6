//! The current boilerplate's content security policy under `siteops serve`, in a real
//! headless Chromium: a site whose `head.html` asks for `script-src 'nonce-aem'
//! 'strict-dynamic'` (moved to a header) runs its scripts, the blocks they import and
//! serve's own reload script, with no violation of any policy, from the page's start.
//!
//! Violations are recorded by a classic script of the site, loaded first with the nonce
//! (no inline script: it would need the nonce it is there to check), which listens for
//! `securitypolicyviolation` before any other script of the page is run or blocked.
//!
//! Needs Debian's `chromium` and `chromium-driver`, as `browser.rs`.

use std::time::{Duration, Instant};

use crate::serve_process::Serve;
use crate::support::example_copy;
use crate::webdriver::{Browser, binaries};

/// The boilerplate's `head.html`, with the violation recorder first.
const HEAD: &str = r#"<meta http-equiv="content-security-policy" content="script-src 'nonce-aem' 'strict-dynamic'; base-uri 'self'; object-src 'none';" move-to-http-header="true">
<script nonce="aem" src="/scripts/csp-watch.js"></script>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script nonce="aem" src="/scripts/aem.js" type="module"></script>
<script nonce="aem" src="/scripts/scripts.js" type="module"></script>
<link rel="stylesheet" href="/styles/styles.css"/>
"#;

const WATCH: &str = "window.siteopsViolations = [];\n\
    document.addEventListener('securitypolicyviolation', (e) => {\n\
      window.siteopsViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);\n\
    });\n";

/// Polls `script` (returning a boolean) until it holds, for at most 15 s.
pub(crate) async fn wait_for(browser: &Browser, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while browser.script(script).await != true {
        assert!(Instant::now() < deadline, "not seen within 15 s: {script}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The page ran the boilerplate's two scripts and the cards block they import, and no
/// policy was violated.
pub(crate) async fn ran_without_violations(browser: &Browser) {
    wait_for(
        browser,
        "return window.siteopsAem === true && window.siteopsScripts === true \
         && document.querySelector('main .cards ul > li .cards-card-body') !== null;",
    )
    .await;
    let violations = browser.script("return window.siteopsViolations;").await;
    assert_eq!(violations, serde_json::json!([]), "violations");
}

/// The site code in `code` with the boilerplate's `head.html`, the violation recorder
/// first, and scripts that say they ran (`window.siteopsAem`, `window.siteopsScripts`).
pub(crate) fn with_violation_recorder(code: &std::path::Path) {
    std::fs::write(code.join("head.html"), HEAD).expect("head.html");
    std::fs::write(code.join("scripts/csp-watch.js"), WATCH).expect("csp-watch.js");
    std::fs::write(code.join("scripts/aem.js"), "window.siteopsAem = true;\n").expect("aem.js");
    let scripts = code.join("scripts/scripts.js");
    let text = std::fs::read_to_string(&scripts).expect("scripts.js");
    std::fs::write(&scripts, format!("window.siteopsScripts = true;\n{text}")).expect("scripts.js");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boilerplates_nonce_policy_runs_the_sites_scripts_and_the_reload_script() {
    let Some((chromium, chromedriver)) = siteops_testkit::or_skip(
        binaries(),
        "chromium and chromedriver (Debian's chromium and chromium-driver; .ci/run installs them)",
    ) else {
        return;
    };
    let repo = example_copy();
    let code = repo.path().join("code/acme-website");
    with_violation_recorder(&code);
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    let browser = Browser::start(&chromium, &chromedriver).await;

    browser
        .goto(&serve.url("main--website--acme.localhost", "/"))
        .await;
    ran_without_violations(&browser).await;

    // The reload script ran too: a change of the page's code reloads it.
    browser.script("window.siteopsKept = true; return 1;").await;
    std::fs::write(
        code.join("scripts/aem.js"),
        "window.siteopsAem = true; // edited\n",
    )
    .expect("edit");
    wait_for(&browser, "return window.siteopsKept !== true;").await;
    ran_without_violations(&browser).await;
    browser.quit().await;
}
