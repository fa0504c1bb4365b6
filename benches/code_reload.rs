//! Edit to page: how long after a file of a mapped code checkout is saved the open page
//! shows it. The real `siteops serve` on a copy of the example repository, the acme home
//! page open in headless Chromium, and alternating edits:
//! - a block's stylesheet (`blocks/cards/cards.css`): swapped in place, no reload; done
//!   when the page's computed style has the new value;
//! - a block's script (`blocks/cards/cards.js`): the page reloads; done when the new
//!   script has run in the new page.
//!
//! Times run from the write to the first poll (every 5 ms, through WebDriver) that sees
//! the change, so they include up to one poll interval and a WebDriver round trip. The
//! goal is under 300 ms. Without Chromium, the server side alone is measured: write to the
//! `code` event on the event stream.
//!
//! `cargo bench --bench code_reload [-- EDITS]`

// The integration tests' own helpers: the real binary, the WebDriver client, the example
// repository's scratch copy. Not every helper is used here.
#[allow(dead_code)]
#[path = "../tests/it/serve_process.rs"]
mod serve_process;
#[allow(dead_code)]
#[path = "../tests/it/support.rs"]
mod support;
#[allow(dead_code)]
#[path = "../tests/it/webdriver.rs"]
mod webdriver;

use std::path::Path;
use std::time::{Duration, Instant};

use serve_process::Serve;
use webdriver::{Browser, binaries};

const HOST: &str = "main--website--acme.localhost";
const STYLES: &str = "code/acme-website/blocks/cards/cards.css";
const SCRIPT: &str = "code/acme-website/blocks/cards/cards.js";

fn main() {
    let edits: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run(edits));
}

async fn run(edits: usize) {
    let repo = support::example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());

    let Some((chromium, chromedriver)) = binaries() else {
        println!("chromium or chromedriver not installed: measuring the event stream only");
        server_side(&serve, repo.path(), edits).await;
        return;
    };
    let browser = Browser::start(&chromium, &chromedriver).await;
    browser.goto(&serve.url(HOST, "/")).await;
    wait_for(
        &browser,
        "return document.querySelector('main .cards ul') !== null",
    )
    .await;

    let mut css = Vec::new();
    let mut js = Vec::new();
    for n in 1..=edits {
        // A stylesheet: the page keeps its state (the marker) and gets the new value.
        browser
            .script("window.siteopsBench = 'kept'; return 1;")
            .await;
        let text = std::fs::read_to_string(repo.path().join(STYLES)).expect("css");
        let edited = format!("{text}\nmain .cards {{ --siteops-bench: {n}; }}\n");
        let started = Instant::now();
        std::fs::write(repo.path().join(STYLES), edited).expect("edit css");
        wait_for(
            &browser,
            &format!(
                "const c = document.querySelector('main .cards'); \
                 return c !== null && getComputedStyle(c).getPropertyValue('--siteops-bench').trim() === '{n}';"
            ),
        )
        .await;
        css.push(started.elapsed());
        let kept = browser
            .script("return window.siteopsBench || 'reloaded';")
            .await;
        assert_eq!(kept, "kept", "a stylesheet edit reloaded the page");

        // A script: the page reloads and runs the new code.
        let text = std::fs::read_to_string(repo.path().join(SCRIPT)).expect("js");
        let edited = format!("{text}\ndocument.documentElement.dataset.siteopsBench = '{n}';\n");
        let started = Instant::now();
        std::fs::write(repo.path().join(SCRIPT), edited).expect("edit js");
        wait_for(
            &browser,
            &format!("return document.documentElement.dataset.siteopsBench === '{n}';"),
        )
        .await;
        js.push(started.elapsed());
    }
    browser.quit().await;
    report("stylesheet edit to restyled page", &mut css);
    report("script edit to reloaded page", &mut js);
}

/// Polls `script` (which returns a boolean) every 5 ms, for at most 10 s.
async fn wait_for(browser: &Browser, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while browser.script(script).await != serde_json::Value::Bool(true) {
        assert!(Instant::now() < deadline, "not seen within 10 s: {script}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Write to the `code` event on the preview host's event stream.
async fn server_side(serve: &Serve, repo: &Path, edits: usize) {
    // The library's client installs the TLS crypto provider that reqwest needs; the
    // event stream stays open for the whole run.
    let client = siteops_plan::http::client(Duration::from_secs(3600));
    let response = client
        .get(serve.url("127.0.0.1", "/.siteops/events"))
        .header("host", format!("{HOST}:{}", serve.port))
        .send()
        .await
        .expect("event stream");
    let mut response = response;
    let mut times = Vec::new();
    for n in 1..=edits {
        let text = std::fs::read_to_string(repo.join(STYLES)).expect("css");
        let started = Instant::now();
        std::fs::write(repo.join(STYLES), format!("{text}\n/* {n} */\n")).expect("edit");
        let mut seen = String::new();
        while !seen.contains("event: code") {
            let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
                .await
                .expect("an event within 10 s")
                .expect("chunk")
                .expect("stream open");
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
        times.push(started.elapsed());
    }
    report("stylesheet edit to code event", &mut times);
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what:<36} n={:<3} median {:>6.1} ms  p90 {:>6.1} ms  max {:>6.1} ms  (goal < 300 ms)",
        times.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(1.0)),
    );
}
