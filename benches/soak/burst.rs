//! The preview burst: 16 previews at once (the default `--max-previews`), four orgs of
//! four (the default per-org share), each of a different 975 KB page of many small inline
//! trees, through the real server. Measures the server's resident memory before, its
//! highest while the burst runs (sampled every 10 ms), and what it keeps after it: what
//! one finding of the shared-service review saw at 4.6 GiB and 1.1 GiB kept.
//!
//! Goals: the peak above the memory before at most 16 previews of 30 times the page
//! (`benches/preview_memory.rs` holds one preview to 30 times its page), and the memory
//! kept 5 s after the burst within 64 MB of the memory before.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Api, Serve};

const ORGS: usize = 4;
const PER_ORG: usize = 4;
/// The page: paragraphs of a link around emphasis around strong text, to 975 KB.
fn page() -> String {
    let mut body = String::new();
    let mut n = 0;
    while body.len() < 975_000 {
        body.push_str(&format!(
            "<p><a href=\"/{n}\"><em><strong>x</strong></em></a></p>"
        ));
        n += 1;
    }
    format!(
        "<html><head><title>Burst</title></head><body><main><div>{body}</div></main></body></html>"
    )
}

/// The source of the burst's pages, on a free port of 127.0.0.1.
pub(crate) async fn source() -> SocketAddr {
    let page = page();
    let app = axum::Router::new().route(
        "/big/{page}",
        axum::routing::get(move || {
            let page = page.clone();
            async move { axum::response::Html(page) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// Runs the burst; whether its goals were met.
pub(crate) async fn run(api: &Api, serve: &Serve, source: SocketAddr) -> bool {
    for org in 0..ORGS {
        let site = json!({
            "code": {"owner": "burst", "repo": "web", "source": {"type": "github", "url": "https://github.com/burst/web"}},
            "content": {"source": {"type": "markup", "url": format!("http://{source}/big"), "suffix": ".html"}},
        });
        api.must(
            reqwest::Method::PUT,
            &format!("/admin/config/burst{org}/sites/big.json"),
            &site,
        )
        .await;
    }
    // Quiet first: what the server holds before the burst.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = serve.rss_kb();
    let started = Instant::now();
    let previews: Vec<_> = (0..ORGS * PER_ORG)
        .map(|n| {
            let (client, base, token) = (api.client.clone(), api.base.clone(), api.token.clone());
            tokio::spawn(async move {
                let path = format!("/admin/preview/burst{}/big/main/p{n}", n % ORGS);
                client
                    .post(format!("{base}{path}"))
                    .header("x-auth-token", token)
                    .send()
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap_or(0)
            })
        })
        .collect();
    let mut peak = before;
    while !previews.iter().all(|p| p.is_finished()) {
        peak = peak.max(serve.rss_kb());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let elapsed = started.elapsed();
    let mut ok = 0;
    for preview in previews {
        ok += usize::from(preview.await.expect("preview task") == 200);
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let after = serve.rss_kb();
    let page_kb = page().len() as u64 / 1024;
    let peak_goal = (ORGS * PER_ORG) as u64 * 30 * page_kb;
    let kept_goal = 64 * 1024;
    println!(
        "preview burst: {ok} of {} previews of a {page_kb} KB page in {:.1} s; server RSS {} MB before, {} MB at the peak (goal: at most {} MB above before), {} MB 5 s after (goal: within {} MB of before)",
        ORGS * PER_ORG,
        elapsed.as_secs_f64(),
        before / 1024,
        peak / 1024,
        peak_goal / 1024,
        after / 1024,
        kept_goal / 1024
    );
    ok == ORGS * PER_ORG
        && peak.saturating_sub(before) <= peak_goal
        && after.saturating_sub(before) <= kept_goal
}
