//! The worker's render route under concurrent load: the bundled server on 127.0.0.1, a
//! local JSON endpoint, and 64 connections sending page requests as fast as they are
//! answered. Prints throughput and latency percentiles.
//!
//! Two pages: the 50 KB product document of the render benchmark through its template, and
//! a small (1 KB) product, the size of a typical endpoint answer. Client, server and
//! endpoint share this machine's cores, so the figures are a floor for the server alone.
//!
//! `cargo bench --bench worker_load [-- CONNECTIONS REQUESTS]`

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// The render bench's data generator: the worker serves the same product page.
#[path = "../crates/template/benches/render/data.rs"]
mod data;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::routing::get;
use serde_json::json;
use siteops::auth::Claims;
use siteops::codesync::code_key;
use siteops::server::{RunningServer, ServerConfig, start};

const TEMPLATE: &str = include_str!("../crates/template/benches/render/product.html");

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let connections = args.first().copied().unwrap_or(64);
    let requests = args.get(1).copied().unwrap_or(20_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run(connections, requests));
}

async fn run(connections: usize, requests: usize) {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let server = start(ServerConfig {
        addr: "127.0.0.1:0".parse().expect("address"),
        data_dir: data_dir.path().to_path_buf(),
        org_admins: vec!["root@acme.example".into()],
        preview_limits: Default::default(),
        preview_transport: None,
        session: None,
        allowed_hosts: Vec::new(),
        connection_limits: Default::default(),
        quotas: Default::default(),
    })
    .await
    .expect("server starts");
    let endpoint = endpoint().await;
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(connections)
        .build()
        .expect("client");
    configure(&server, &client, endpoint).await;
    println!(
        "{connections} connections, {requests} requests per page, {} cores shared by client, server and endpoint",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "page", "req/s", "p50", "p90", "p99", "max", "body"
    );
    for page in ["/small/1", "/large/1"] {
        let url = format!("http://{}/transform/acme/web/main{page}", server.addr);
        // Warm up: connections, caches, allocator.
        load(&client, &url, connections, connections * 20).await;
        let (elapsed, mut latencies, body) = load(&client, &url, connections, requests).await;
        latencies.sort();
        let at = |q: f64| {
            let index = ((latencies.len() as f64 * q) as usize).min(latencies.len() - 1);
            format!("{:.2}ms", latencies[index].as_secs_f64() * 1e3)
        };
        println!(
            "{:<10} {:>9.0} {:>9} {:>9} {:>9} {:>9} {:>8}KB",
            page,
            requests as f64 / elapsed.as_secs_f64(),
            at(0.50),
            at(0.90),
            at(0.99),
            at(1.0),
            body / 1024
        );
    }
}

/// Sends `total` GET requests to `url` over `connections` concurrent tasks. Returns the
/// wall time, each request's latency, and the size of one answer.
async fn load(
    client: &reqwest::Client,
    url: &str,
    connections: usize,
    total: usize,
) -> (Duration, Vec<Duration>, usize) {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let (client, url, next) = (client.clone(), url.to_string(), next.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut size = 0;
                while next.fetch_add(1, Ordering::Relaxed) < total {
                    let sent = Instant::now();
                    let response = client.get(&url).send().await.expect("answered");
                    assert_eq!(response.status(), 200, "{url}");
                    size = response.bytes().await.expect("body").len();
                    latencies.push(sent.elapsed());
                }
                (latencies, size)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(total);
    let mut size = 0;
    for task in tasks {
        let (mut mine, body) = task.await.expect("task");
        latencies.append(&mut mine);
        size = size.max(body);
    }
    (start.elapsed(), latencies, size)
}

/// A local JSON endpoint: `/small/<id>` (about 1 KB) and `/large/<id>` (about 50 KB).
async fn endpoint() -> SocketAddr {
    let large = data::product();
    let small = json!({
        "name": "Acme Kettle Pro", "summary": "A 1.7 l steel kettle that boils in 3 minutes.",
        "price": {"formatted": "€49.90"}, "inStock": true, "tags": ["kitchen", "kettle"],
        "images": [{"src": "/media/products/1/front.jpg", "alt": "Front"}],
        "descriptionHtml": "<p>Brushed steel.</p>",
        "specs": [{"label": "Capacity", "value": "1.7 l"}, {"label": "Power", "value": "2200 W"}],
        "reviews": [{"title": "Quiet", "author": {"name": "Jo", "verified": true}, "rating": 5, "date": "2026-01-02", "body": "Really quiet."}],
    })
    .to_string();
    let app = axum::Router::new()
        .route("/small/{id}", get(move || async move { small.clone() }))
        .route("/large/{id}", get(move || async move { large.clone() }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("endpoint listens");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// Site acme/web with the product template in its code store and one worker entry per page.
async fn configure(server: &RunningServer, client: &reqwest::Client, endpoint: SocketAddr) {
    let now = siteops::time::now_seconds();
    let token = server.state.key.sign(&Claims {
        sub: "root@acme.example".into(),
        iat: now,
        exp: now + 3600,
        aud: "*".into(),
    });
    let base = format!("http://{}", server.addr);
    let site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"type": "markup", "url": "https://content.example.com/web"}},
    });
    let created = client
        .put(format!("{base}/admin/config/acme/sites/web.json"))
        .header("x-auth-token", &token)
        .json(&site)
        .send()
        .await
        .expect("answered");
    assert!(created.status().is_success(), "{}", created.status());
    server
        .state
        .store
        .put(
            &code_key("acme", "web", "main", "templates/product.html"),
            TEMPLATE.as_bytes(),
        )
        .expect("template stored");
    let entries = json!([
        {"path": "/small/", "regex": "/\\d+$/", "endpoint": format!("http://{endpoint}/small/{{{{id}}}}"), "template": "/templates/product.html"},
        {"path": "/large/", "regex": "/\\d+$/", "endpoint": format!("http://{endpoint}/large/{{{{id}}}}"), "template": "/templates/product.html"},
    ]);
    let configured = client
        .post(format!("{base}/transform/config/acme/web/main"))
        .header("authorization", format!("token {token}"))
        .json(&entries)
        .send()
        .await
        .expect("answered");
    assert!(configured.status().is_success(), "{}", configured.status());
}
