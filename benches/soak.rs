//! Soak: the real `siteops serve` process under mixed load for a fixed time, with slow
//! clients beside it and faulty sources behind it, then `kill -9` in the middle of writes
//! and of a code sync job, a restart on the same data, and a check of what survived.
//!
//! - 64 clients for SECONDS (default 20): config reads and writes, preview host pages,
//!   worker pages, signed webhooks; three of them preview sources that stall, reset the
//!   connection or answer 503 (their failures are expected, not errors).
//! - 200 slow connections beside them: 100 send a request line a byte a second, 100 open
//!   and send nothing; the server must close them and stay responsive.
//! - kill -9 while 16 clients write, restart, read back: every acknowledged write must be
//!   there. kill -9 while a code sync job runs, restart: the job must be taken over (its
//!   lease, 2 s here, ends with the killed process) and run again to its end.
//!
//! - A burst of 16 large previews at once ([`burst`]): the memory at its peak and after.
//!
//! Prints requests per second, p50/p99 per kind, errors, RSS before and after, and the
//! acknowledged writes lost. Exits non-zero when there are errors or lost writes, or the
//! burst misses its memory goals.
//!
//! `cargo xtask soak [SECONDS]` (that is `cargo bench --bench soak -- SECONDS`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::routing::get;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

#[path = "soak/burst.rs"]
mod burst;

const ADMIN: &str = "soak@example.test";
const SECRET: &str = "soak-sync-secret";
const CLIENTS: usize = 64;
const WRITERS_AT_KILL: usize = 16;
const SLOW: usize = 200;
/// How long the responsiveness probe runs, before the load.
const PROBE: Duration = Duration::from_secs(5);

fn main() {
    let seconds: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let failed = runtime.block_on(soak(Duration::from_secs(seconds)));
    if failed {
        std::process::exit(1);
    }
}

/// The real server, on a free port of 127.0.0.1, with its data in `data`.
struct Serve {
    child: Child,
    base: String,
}

impl Serve {
    fn start(data: &Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_siteops"))
            .args([
                "serve",
                "--no-repo",
                "--port",
                "0",
                "--org-admin",
                ADMIN,
                // The load is the point here: 64 clients send thousands of signed
                // deliveries a minute to one site (the rate itself has its own tests).
                "--webhook-rate",
                "1000000",
                "--data",
            ])
            .arg(data)
            .env("SITEOPS_LOG", "error")
            // A killed process's jobs are taken over this soon after it died.
            .env("SITEOPS_JOB_LEASE_SECONDS", "2")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("siteops serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let port: u16 = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| {
                line.strip_prefix("siteops serve: listening on http://127.0.0.1:")
                    .and_then(|rest| rest.trim().parse().ok())
            })
            .expect("serve printed its port");
        std::thread::spawn(move || for _ in lines {});
        Serve {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    fn kill(mut self) {
        let _ = self.child.kill(); // SIGKILL
        let _ = self.child.wait();
    }
}

fn token(data: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["token", "--email", ADMIN, "--data"])
        .arg(data)
        .output()
        .expect("siteops token runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

/// The sources behind the server: pages, a worker endpoint, a raw code host (fast and
/// slow), a source that stalls, one that answers 503, and (second address) one that
/// resets every connection.
async fn sources() -> (SocketAddr, SocketAddr) {
    let page = "<html><head><title>Soak</title></head><body><main><div><h1>Soak</h1>\
                <p>A page under load.</p></div></main></body></html>";
    let app = axum::Router::new()
        .route(
            "/content/{page}",
            get(move || async move { axum::response::Html(page) }),
        )
        .route(
            "/api/{id}",
            get(|| async { axum::Json(json!({"name": "Kettle", "price": 49.9})) }),
        )
        .route(
            "/raw/acme/code/{branch}/{*file}",
            get(|| async { "body{}" }),
        )
        .route(
            "/slow-raw/acme/code/{branch}/{*file}",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(3)).await;
                "body{}"
            }),
        )
        .route(
            "/stall/{*page}",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(120)).await;
                "late"
            }),
        )
        .route(
            "/fail/{*page}",
            get(|| async { axum::http::StatusCode::SERVICE_UNAVAILABLE }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    let resetting = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let reset_addr = resetting.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((socket, _)) = resetting.accept().await {
            // Linger zero: the close is a reset, sent at once (so nothing blocks on drop).
            #[allow(deprecated)]
            let _ = socket.set_linger(Some(Duration::ZERO));
            drop(socket);
        }
    });
    (addr, reset_addr)
}

struct Api {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn send(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> u16 {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("x-auth-token", &self.token);
        if let Some(body) = body {
            request = request.json(body);
        }
        match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                let _ = response.bytes().await;
                status
            }
            Err(_) => 0,
        }
    }

    async fn must(&self, method: reqwest::Method, path: &str, body: &Value) {
        let status = self.send(method, path, Some(body)).await;
        assert!((200..300).contains(&status), "{path}: {status}");
    }
}

async fn configure(api: &Api, sources: SocketAddr, reset: SocketAddr) {
    let code = json!({"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}});
    let site = |url: String| json!({"code": code, "content": {"source": {"type": "markup", "url": url, "suffix": ".html"}}});
    let put = reqwest::Method::PUT;
    api.must(
        put.clone(),
        "/admin/config/acme/sites/web.json",
        &site(format!("http://{sources}/content")),
    )
    .await;
    api.must(
        put.clone(),
        "/admin/config/acme/sites/stall.json",
        &site(format!("http://{sources}/stall")),
    )
    .await;
    api.must(
        put.clone(),
        "/admin/config/acme/sites/fail.json",
        &site(format!("http://{sources}/fail")),
    )
    .await;
    api.must(
        put.clone(),
        "/admin/config/acme/sites/reset.json",
        &site(format!("http://{reset}/x")),
    )
    .await;
    for i in 0..CLIENTS.max(WRITERS_AT_KILL) {
        api.must(
            put.clone(),
            &format!("/admin/config/acme/sites/w{i}.json"),
            &site(format!("http://{sources}/content")),
        )
        .await;
    }
    for (name, raw) in [("sync", "raw"), ("slowsync", "slow-raw")] {
        let code = json!({"owner": "acme", "repo": name, "source": {"type": "byogit", "url": format!("https://git.example.test/acme/{name}"), "raw_url": format!("http://{sources}/{raw}/acme/code"), "owner": "acme", "repo": name, "secretId": "sync"}});
        api.must(
            put.clone(),
            &format!("/admin/config/acme/sites/{name}.json"),
            &json!({"code": code}),
        )
        .await;
        api.must(
            reqwest::Method::POST,
            &format!("/admin/config/acme/sites/{name}/secrets/sync.json"),
            &json!({"value": SECRET}),
        )
        .await;
    }
    let entries = json!([{"path": "/products/", "regex": "/\\d+$/", "endpoint": format!("http://{sources}/api/{{{{id}}}}")}]);
    api.must(
        reqwest::Method::POST,
        "/transform/config/acme/web/main",
        &entries,
    )
    .await;
    api.must(
        reqwest::Method::POST,
        "/admin/preview/acme/web/main/index",
        &json!({}),
    )
    .await;
}

#[derive(Default)]
struct Tally {
    latencies: BTreeMap<&'static str, Vec<Duration>>,
    errors: BTreeMap<&'static str, usize>,
    expected_failures: usize,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        for (kind, mut list) in other.latencies {
            self.latencies.entry(kind).or_default().append(&mut list);
        }
        for (kind, n) in other.errors {
            *self.errors.entry(kind).or_default() += n;
        }
        self.expected_failures += other.expected_failures;
    }
}

/// One client: a fixed mix of requests until `stop`. Client `index` writes site w<index>.
async fn client(api: Arc<Api>, index: usize, stop: Arc<AtomicBool>) -> Tally {
    let mut tally = Tally::default();
    let mut turn = 0usize;
    let faulty = ["stall", "reset", "fail"];
    while !stop.load(Ordering::Relaxed) {
        turn += 1;
        if index < faulty.len() {
            // A preview of a faulty source: must fail cleanly (504, 502, 503), never 5xx
            // of the server's own, and never hold the others.
            let status = api
                .send(
                    reqwest::Method::POST,
                    &format!("/admin/preview/acme/{}/main/p{turn}", faulty[index]),
                    None,
                )
                .await;
            if matches!(status, 502..=504) {
                tally.expected_failures += 1;
            } else {
                *tally.errors.entry("faulty source").or_default() += 1;
            }
            continue;
        }
        let sent = Instant::now();
        let (kind, ok) = match turn % 5 {
            0 => (
                "config read",
                api.send(
                    reqwest::Method::GET,
                    "/admin/config/acme/sites/web.json",
                    None,
                )
                .await
                    == 200,
            ),
            1 => {
                let body = json!({"paths": {"includes": [format!("/n{turn}")]}});
                let path = format!("/admin/config/acme/sites/w{index}/public.json");
                (
                    "config write",
                    (200..300).contains(&api.send(reqwest::Method::POST, &path, Some(&body)).await),
                )
            }
            2 => {
                let response = api
                    .client
                    .get(format!("{}/index", api.base))
                    .header("host", "main--web--acme.localhost")
                    .send()
                    .await;
                let ok = match response {
                    Ok(r) if r.status() == 200 => r.bytes().await.is_ok(),
                    _ => false,
                };
                ("preview host page", ok)
            }
            3 => (
                "worker page",
                api.send(
                    reqwest::Method::GET,
                    "/transform/acme/web/main/products/1",
                    None,
                )
                .await
                    == 200,
            ),
            _ => {
                let body = json!({"ref": "refs/heads/main", "after": format!("{index}-{turn}")})
                    .to_string();
                let signature =
                    siteops_server::codesync::signature::sign(SECRET.as_bytes(), body.as_bytes());
                let response = api
                    .client
                    .post(format!("{}/admin/webhook/code/acme/sync", api.base))
                    .header("x-hub-signature-256", signature)
                    .body(body)
                    .send()
                    .await;
                ("webhook", matches!(response, Ok(r) if r.status() == 202))
            }
        };
        tally
            .latencies
            .entry(kind)
            .or_default()
            .push(sent.elapsed());
        if !ok {
            *tally.errors.entry(kind).or_default() += 1;
        }
    }
    tally
}

/// A connection that sends a request line a byte a second (`trickle`) or nothing; returns
/// whether the server closed it before `deadline`.
async fn slow_client(addr: String, trickle: bool, deadline: Duration) -> bool {
    let Ok(mut stream) = tokio::net::TcpStream::connect(addr).await else {
        return false;
    };
    let line = b"GET /admin/config/acme/sites/web.json HTTP/1.1\r\nhost: localhost\r\nx-slow: ";
    let started = Instant::now();
    let mut sent = 0;
    while started.elapsed() < deadline {
        if trickle {
            let byte = line.get(sent).copied().unwrap_or(b'a');
            if stream.write_all(&[byte]).await.is_err() {
                return true;
            }
            sent += 1;
        }
        let mut buffer = [0u8; 256];
        match tokio::time::timeout(
            Duration::from_secs(1),
            tokio::io::AsyncReadExt::read(&mut stream, &mut buffer),
        )
        .await
        {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            _ => {}
        }
    }
    false
}

fn percentile(sorted: &[Duration], q: f64) -> String {
    if sorted.is_empty() {
        return "-".into();
    }
    let index = ((sorted.len() as f64 * q) as usize).min(sorted.len() - 1);
    format!("{:.1}ms", sorted[index].as_secs_f64() * 1e3)
}

async fn soak(duration: Duration) -> bool {
    siteops_plan::http::install_crypto_provider();
    let data = tempfile::tempdir().expect("temp dir");
    let (sources, reset) = sources().await;
    let serve = Serve::start(data.path());
    let api = Arc::new(Api {
        client: reqwest::Client::builder()
            .pool_max_idle_per_host(CLIENTS)
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client"),
        base: serve.base.clone(),
        token: token(data.path()),
    });
    configure(&api, sources, reset).await;
    let rss_before = serve.rss_kb();
    println!(
        "soak: {CLIENTS} clients for {} s, {SLOW} slow connections beside them, {} cores shared by clients, server and sources",
        duration.as_secs(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    let stop = Arc::new(AtomicBool::new(false));
    let addr = serve.base.trim_start_matches("http://").to_string();
    let slow: Vec<_> = (0..SLOW)
        .map(|i| tokio::spawn(slow_client(addr.clone(), i % 2 == 0, duration + PROBE)))
        .collect();
    // Responsiveness: one client reading a configuration while only the slow connections
    // are open (the load below shares the cores, so it measures throughput instead).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (mut probe, mut probe_errors) = (Vec::new(), 0);
    let probing = Instant::now();
    while probing.elapsed() < PROBE {
        let sent = Instant::now();
        let status = api
            .send(
                reqwest::Method::GET,
                "/admin/config/acme/sites/web.json",
                None,
            )
            .await;
        probe.push(sent.elapsed());
        if status != 200 {
            probe_errors += 1;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    probe.sort();
    println!(
        "with {SLOW} slow connections open: {} config reads one at a time, p50 {}, p99 {}, {} errors",
        probe.len(),
        percentile(&probe, 0.50),
        percentile(&probe, 0.99),
        probe_errors
    );
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| tokio::spawn(client(api.clone(), i, stop.clone())))
        .collect();
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut tally = Tally::default();
    for task in clients {
        tally.merge(task.await.expect("client"));
    }
    let elapsed = started.elapsed();
    let mut closed = 0;
    for task in slow {
        closed += usize::from(task.await.expect("slow client"));
    }
    let rss_after = serve.rss_kb();

    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "kind", "requests", "req/s", "p50", "p99", "errors"
    );
    let mut errors = 0;
    let mut total = 0;
    for (kind, list) in &mut tally.latencies {
        list.sort();
        let failed = tally.errors.get(kind).copied().unwrap_or(0);
        errors += failed;
        total += list.len();
        println!(
            "{:<18} {:>9} {:>9.0} {:>9} {:>9} {:>7}",
            kind,
            list.len(),
            list.len() as f64 / elapsed.as_secs_f64(),
            percentile(list, 0.50),
            percentile(list, 0.99),
            failed
        );
    }
    errors += tally.errors.get("faulty source").copied().unwrap_or(0);
    println!(
        "all: {total} requests, {:.0} req/s, {errors} errors; faulty sources: {} previews failed cleanly",
        total as f64 / elapsed.as_secs_f64(),
        tally.expected_failures
    );
    println!("slow connections closed by the server: {closed} of {SLOW}");
    println!(
        "server RSS: {} MB before, {} MB after",
        rss_before / 1024,
        rss_after / 1024
    );
    let burst_met = burst::run(&api, &serve, burst::source().await).await;

    // kill -9 in the middle of writes.
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..WRITERS_AT_KILL)
        .map(|i| {
            let (api, stop) = (api.clone(), stop.clone());
            tokio::spawn(async move {
                let (mut acked, mut attempted) = (0u64, 0u64);
                while !stop.load(Ordering::Relaxed) {
                    attempted += 1;
                    let body = json!({"paths": {"includes": [format!("/k{attempted}")]}});
                    let path = format!("/admin/config/acme/sites/w{i}/public.json");
                    let status = api.send(reqwest::Method::POST, &path, Some(&body)).await;
                    if (200..300).contains(&status) {
                        acked = attempted;
                    } else {
                        break;
                    }
                }
                (acked, attempted)
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    serve.kill();
    stop.store(true, Ordering::Relaxed);
    let mut outcomes = Vec::new();
    for task in writers {
        outcomes.push(task.await.expect("writer"));
    }
    let serve = Serve::start(data.path());
    let api = Api {
        client: reqwest::Client::new(),
        base: serve.base.clone(),
        token: api.token.clone(),
    };
    let mut lost = 0;
    let mut acknowledged = 0;
    for (i, (acked, attempted)) in outcomes.iter().enumerate() {
        acknowledged += acked;
        let response = api
            .client
            .get(format!(
                "{}/admin/config/acme/sites/w{i}/public.json",
                api.base
            ))
            .header("x-auth-token", &api.token)
            .send()
            .await
            .expect("answered");
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let stored = body["paths"]["includes"][0]
            .as_str()
            .and_then(|v| v.strip_prefix("/k"))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        // The last acknowledged write, or a later one the kill cut before its answer.
        if stored < *acked || stored > *attempted {
            lost += 1;
        }
    }
    println!(
        "kill -9 during writes: {acknowledged} writes acknowledged by {WRITERS_AT_KILL} writers, {lost} lost or torn after restart"
    );

    // kill -9 in the middle of a code sync job.
    let started = api
        .client
        .post(format!("{}/admin/code/acme/slowsync/main", api.base))
        .header("x-auth-token", &api.token)
        .send()
        .await
        .expect("answered");
    let job: Value = started.json().await.unwrap_or(Value::Null);
    let link = job["links"]["self"].as_str().unwrap_or("").to_string();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    serve.kill();
    let serve = Serve::start(data.path());
    // Taken over once the dead process's lease ends, and run again to its end.
    let deadline = Instant::now() + Duration::from_secs(120);
    let job = loop {
        let job: Value = api
            .client
            .get(format!("{}{link}", serve.base))
            .header("x-auth-token", &api.token)
            .send()
            .await
            .expect("answered")
            .json()
            .await
            .unwrap_or(Value::Null);
        if job["state"] == "stopped" || Instant::now() > deadline {
            break job;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let job_recovered = job["state"] == "stopped";
    println!(
        "kill -9 during a code sync job: after restart the job was taken over and is {} ({})",
        job["state"],
        job["error"].as_str().unwrap_or("no error")
    );
    serve.kill();
    let slow_p99 = probe[(probe.len() * 99 / 100).min(probe.len() - 1)];
    errors + probe_errors > 0
        || !burst_met
        || lost > 0
        || !job_recovered
        || closed < SLOW
        || slow_p99 > Duration::from_millis(50)
}
