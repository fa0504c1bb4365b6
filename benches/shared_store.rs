//! A shared service on object storage: configuration writes and preview requests per
//! second through one and through two instances on one S3 bucket (moto's server on
//! loopback, as in the tests), with 1 and 8 clients.
//!
//! - "config write" posts a site's `access` block: a read-modify-write of the one site
//!   document, so concurrent writers meet conditional-write conflicts and retry;
//! - "preview page" reads a stored preview from the preview host.
//!
//! With two instances the clients alternate between them. The instances, moto and the
//! clients share this machine's cores, and moto (Python) is the slowest part: the figures
//! compare one instance with two on the same store, not with a cloud store.
//!
//! `cargo xtask bench shared [-- SECONDS]` (that is `cargo bench --bench shared_store`);
//! SECONDS per cell, 2 by default. Needs `moto_server` (`.ci/run` installs it into
//! `target/tools`); without it, says so and exits 0.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::routing::get;
use serde_json::json;
use siteops_server::auth::Claims;
use siteops_server::server::{RunningServer, ServerConfig, start};
use siteops_server::store::StoreLocation;

const CLIENTS: [usize; 2] = [1, 8];
/// 32 bytes in base64: the bench's key for sealing secrets in the bucket.
const BENCH_SECRETS_KEY: &str = "YmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtMDE=";

fn moto() -> Option<PathBuf> {
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/tools/bin/moto_server");
    if local.is_file() {
        return Some(local);
    }
    Command::new("moto_server")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success())
        .then(|| PathBuf::from("moto_server"))
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2.0);
    let Some(moto) = moto() else {
        println!("shared_store: skipped, no moto_server (pip install 'moto[server]')");
        return;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let endpoint = format!("http://127.0.0.1:{port}");
    // SAFETY: set before any thread starts (the runtime is built below).
    unsafe {
        for (name, value) in [
            ("AWS_ENDPOINT_URL", endpoint.as_str()),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_ACCESS_KEY_ID", "bench"),
            ("AWS_SECRET_ACCESS_KEY", "bench"),
            ("AWS_REGION", "us-east-1"),
        ] {
            std::env::set_var(name, value);
        }
    }
    let _moto = Killed(
        Command::new(moto)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server starts"),
    );
    // A store beyond this machine needs the key that seals secrets; the bench's own, unless
    // one is given. Set before the runtime starts any thread.
    if std::env::var_os("SITEOPS_SECRETS_KEY").is_none() {
        // SAFETY: no other thread runs yet (moto is a child process, not a thread).
        unsafe { std::env::set_var("SITEOPS_SECRETS_KEY", BENCH_SECRETS_KEY) };
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let failed = runtime.block_on(run(&endpoint, Duration::from_secs_f64(seconds)));
    if failed > 0 {
        eprintln!("{failed} requests failed");
        std::process::exit(1);
    }
}

async fn run(endpoint: &str, per_cell: Duration) -> usize {
    siteops_plan::http::install_crypto_provider();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .expect("client");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !client
        .put(format!("{endpoint}/bench-bucket"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < deadline, "moto_server did not start");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let store = StoreLocation::parse("s3://bench-bucket/team").expect("a store URL");
    let a = instance(&store).await;
    let b = instance(&store).await;
    let source = page_source().await;
    let token = configure(&a, &client, source).await;
    let host = "main--web--acme.localhost";
    println!(
        "{} cores shared by the load, two instances and moto; {:.1} s per cell",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        per_cell.as_secs_f64()
    );
    println!(
        "{:<14} {:>9} {:>7} {:>9} {:>9} {:>8}",
        "path", "instances", "clients", "req/s", "p99", "failed"
    );
    let mut failures = 0;
    for (name, write) in [("config write", true), ("preview page", false)] {
        for instances in [1, 2] {
            let addrs: Vec<SocketAddr> = [a.addr, b.addr].into_iter().take(instances).collect();
            for clients in CLIENTS {
                let cell = load(&client, &addrs, &token, host, write, clients, per_cell).await;
                let mut latencies = cell.latencies;
                latencies.sort();
                let p99 = latencies
                    .get((latencies.len() * 99 / 100).min(latencies.len().saturating_sub(1)))
                    .map_or("-".to_string(), |d| {
                        format!("{:.1}ms", d.as_secs_f64() * 1e3)
                    });
                println!(
                    "{:<14} {:>9} {:>7} {:>9.0} {:>9} {:>8}",
                    name,
                    instances,
                    clients,
                    latencies.len() as f64 / cell.elapsed.as_secs_f64(),
                    p99,
                    cell.failed
                );
                failures += cell.failed;
            }
        }
    }
    failures
}

async fn instance(store: &StoreLocation) -> RunningServer {
    start(ServerConfig::on_loopback(
        store.clone(),
        vec!["root@acme.example".into()],
    ))
    .await
    .expect("server starts")
}

/// A markup page source: `/content/<page>`.
async fn page_source() -> SocketAddr {
    let page = "<html><head><title>Shared</title></head><body><main><div><h1>Shared</h1>\
                <p>A page previewed once, read from the bucket.</p></div></main></body></html>";
    let app = axum::Router::new().route(
        "/content/{page}",
        get(move || async move { axum::response::Html(page) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("source listens");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// Site acme/web with its index previewed; an administrator's token (good on both
/// instances: they share the signing key in the bucket).
async fn configure(server: &RunningServer, client: &reqwest::Client, source: SocketAddr) -> String {
    let now = siteops_server::time::now_seconds();
    let token = server.state.key.sign(&Claims {
        sub: "root@acme.example".into(),
        iat: now,
        exp: now + 3600,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    });
    let base = format!("http://{}", server.addr);
    let site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"type": "markup", "url": format!("http://{source}/content"), "suffix": ".html"}},
    });
    let created = client
        .put(format!("{base}/admin/config/acme/sites/web.json"))
        .header("x-auth-token", &token)
        .json(&site)
        .send()
        .await
        .expect("answered");
    assert!(created.status().is_success(), "{}", created.status());
    let previewed = client
        .post(format!("{base}/admin/preview/acme/web/main/index"))
        .header("x-auth-token", &token)
        .send()
        .await
        .expect("answered");
    assert!(previewed.status().is_success(), "{}", previewed.status());
    token
}

struct Cell {
    elapsed: Duration,
    latencies: Vec<Duration>,
    failed: usize,
}

/// `clients` loops for `time`, each sending to the instances in turn.
async fn load(
    client: &reqwest::Client,
    addrs: &[SocketAddr],
    token: &str,
    host: &str,
    write: bool,
    clients: usize,
    time: Duration,
) -> Cell {
    let stop = Arc::new(AtomicBool::new(false));
    let failed = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let (client, addrs) = (client.clone(), addrs.to_vec());
            let (token, host) = (token.to_string(), host.to_string());
            let (stop, failed) = (stop.clone(), failed.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut n = c;
                while !stop.load(Ordering::Relaxed) {
                    let addr = addrs[n % addrs.len()];
                    n += 1;
                    let request = if write {
                        let reader = format!("reader{}@acme.example", n % 50);
                        client
                            .post(format!("http://{addr}/admin/config/acme/sites/web/access.json"))
                            .header("x-auth-token", &token)
                            .json(&json!({"admin": {"role": {"admin": ["root@acme.example"], "config_admin": [reader]}}}))
                    } else {
                        client.get(format!("http://{addr}/index")).header("host", &host)
                    };
                    let sent = Instant::now();
                    match request.send().await {
                        Ok(response) if response.status() == 200 => {
                            let _ = response.bytes().await;
                        }
                        _ => {
                            failed.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    latencies.push(sent.elapsed());
                }
                latencies
            })
        })
        .collect();
    tokio::time::sleep(time).await;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.append(&mut task.await.expect("task"));
    }
    Cell {
        elapsed: started.elapsed(),
        latencies,
        failed: failed.load(Ordering::Relaxed),
    }
}
