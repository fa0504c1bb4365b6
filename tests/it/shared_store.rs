//! Two `siteops serve` processes on one S3 bucket behave as one service: a real S3-protocol
//! server (moto's server mode, from PyPI) on loopback, both instances started with
//! `--store s3://…`, writes through both and reads through either.
//!
//! The concurrent part writes three fields of one site document at once, through both
//! instances, round after round: each write reads the document and writes it back whole,
//! so without conditional writes one instance's field would be lost to the other's write.
//!
//! The S3 server and the processes come from [`crate::object_store`].

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::object_store::{self, Process, bucket_contents, moto_or_skip, s3, s3_env};

const ADMIN: &str = "admin@acme.example";

/// Another key, which the bucket was not sealed with.
const OTHER_KEY: &str = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=";

/// Worker credentials that must never be in the bucket as they are.
const WORKER_KEY: &str = "api-key-never-in-the-bucket-41c9";
const TEMPLATE_KEY: &str = "template-key-never-in-the-bucket-d2a0";

/// `siteops serve` on the store with `key` as its secrets key (or none), which must refuse
/// to start: what it says on standard error.
fn refused_start(store: &str, endpoint: &str, key: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command
        .args(["serve", "--no-repo", "--port", "0", "--store", store])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    s3_env(&mut command, endpoint);
    match key {
        Some(key) => command.env("SITEOPS_SECRETS_KEY", key),
        None => command.env_remove("SITEOPS_SECRETS_KEY"),
    };
    let mut child = command.spawn().expect("siteops serve runs");
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("status").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve started on a store sealed with another key");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut error = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut error)
        .expect("stderr");
    assert!(!child.wait().expect("status").success(), "{error}");
    error
}

/// A secret value that must never be in the bucket as is.
const SECRET_VALUE: &str = "ghp-never-in-the-bucket-7f3e";

/// `siteops serve --no-repo` on the store, with the admin as org admin; its port.
fn serve(store: &str, endpoint: &str) -> (Process, u16) {
    serve_with(store, endpoint, &[])
}

/// [`serve`] with more environment.
fn serve_with(store: &str, endpoint: &str, env: &[(&str, &str)]) -> (Process, u16) {
    object_store::serve(store, endpoint, &[ADMIN], env)
}

fn token(store: &str, endpoint: &str) -> String {
    object_store::token(store, endpoint, ADMIN)
}

struct Admin {
    client: reqwest::Client,
    token: String,
}

impl Admin {
    async fn send(
        &self,
        port: u16,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, format!("http://127.0.0.1:{port}{path}"))
            .header("x-auth-token", &self.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }
}

fn content(round: usize) -> Value {
    json!({"source": {"url": format!("https://content.example/r{round}"), "type": "markup"}})
}

fn code(round: usize) -> Value {
    json!({"owner": "acme", "repo": format!("web{round}"), "source": {"type": "github", "url": format!("https://github.com/acme/web{round}")}})
}

fn access(round: usize) -> Value {
    json!({"admin": {"role": {"admin": [ADMIN], "config_admin": [format!("r{round}@acme.example")]}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_bucket_behave_as_one() {
    let Some(moto) = moto_or_skip() else {
        return;
    };
    let (s3_server, endpoint) = s3(&moto, "siteops").await;
    let store = "s3://siteops/team";
    let (_a, a) = serve(store, &endpoint);
    let (mut b_process, b) = serve(store, &endpoint);
    // One signing key for both, created once in the bucket.
    let admin = Admin {
        client: reqwest::Client::new(),
        token: token(store, &endpoint),
    };
    let site = json!({"version": 1, "content": content(0), "code": code(0), "access": access(0)});
    let (status, answer) = admin
        .send(
            a,
            reqwest::Method::PUT,
            "/admin/config/acme/sites/web.json",
            Some(site),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
    let (status, read) = admin
        .send(
            b,
            reqwest::Method::GET,
            "/admin/config/acme/sites/web.json",
            None,
        )
        .await;
    assert_eq!(status, 200, "{read}");
    // The content bus the service stamped at creation stays the site's through every
    // later write of its content.
    let bus = read["content"]["contentBusId"].clone();
    assert!(bus.is_string(), "a stamped content bus: {read}");
    let stamped = |mut content: Value| {
        content["contentBusId"] = bus.clone();
        content
    };
    assert_eq!(read["content"], stamped(content(0)));

    for round in 1..=12 {
        let field = |port: u16, name: &'static str, value: Value| {
            let admin = &admin;
            async move {
                admin
                    .send(
                        port,
                        reqwest::Method::POST,
                        &format!("/admin/config/acme/sites/web/{name}.json"),
                        Some(value),
                    )
                    .await
            }
        };
        let (x, y, z) = tokio::join!(
            field(a, "content", content(round)),
            field(b, "code", code(round)),
            field(if round % 2 == 0 { a } else { b }, "access", access(round)),
        );
        for (status, answer) in [x, y, z] {
            assert_eq!(status, 200, "round {round}: {answer}");
        }
        for port in [a, b] {
            let (status, read) = admin
                .send(
                    port,
                    reqwest::Method::GET,
                    "/admin/config/acme/sites/web.json",
                    None,
                )
                .await;
            assert_eq!(status, 200, "{read}");
            assert_eq!(
                (&read["content"], &read["code"], &read["access"]),
                (&stamped(content(round)), &code(round), &access(round)),
                "round {round}, read through {port}: an acknowledged write is lost"
            );
        }
    }

    // A secret written through one instance is sealed in the bucket: no object holds it.
    let (status, answer) = admin
        .send(
            b,
            reqwest::Method::POST,
            "/admin/config/acme/sites/web/secrets/git-token.json",
            Some(json!({"value": SECRET_VALUE})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let objects = bucket_contents(&moto, &endpoint, "siteops");
    // The secret is an entry of the site's one document, its value sealed (`v1:…`).
    let site = objects
        .iter()
        .find(|(key, _)| key == "team/config/acme/sites/web.json")
        .unwrap_or_else(|| {
            panic!(
                "the site's object: {:?}",
                objects.iter().map(|o| &o.0).collect::<Vec<_>>()
            )
        });
    let document: serde_json::Value = serde_json::from_slice(&site.1).expect("JSON");
    let stored = document["secrets"]["git-token"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(stored.starts_with("v1:"), "sealed: {document}");
    for (key, body) in &objects {
        assert!(
            !String::from_utf8_lossy(body).contains(SECRET_VALUE),
            "{key} holds the secret in the clear"
        );
    }
    let (status, read) = admin
        .send(
            a,
            reqwest::Method::GET,
            "/admin/config/acme/sites/web/secrets/git-token.json",
            None,
        )
        .await;
    assert_eq!(
        (status, read["id"].as_str()),
        (200, Some("git-token")),
        "{read}"
    );

    // Everything else secret is sealed in the bucket too: the worker's header values and
    // template keys, and the token signing key; both instances read them.
    let entries = json!([{"path": "/products/", "endpoint": "https://api.acme.example/p/{{id}}",
        "regex": "/[0-9]+$/", "headers": {"x-api-key": WORKER_KEY}, "templateApiKey": TEMPLATE_KEY}]);
    let (status, answer) = admin
        .send(
            a,
            reqwest::Method::POST,
            "/transform/config/acme/web/main",
            Some(entries.clone()),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, read) = admin
        .send(
            b,
            reqwest::Method::GET,
            "/transform/config/acme/web/main",
            None,
        )
        .await;
    assert_eq!((status, &read), (200, &entries));
    let objects = bucket_contents(&moto, &endpoint, "siteops");
    for (key, body) in &objects {
        let text = String::from_utf8_lossy(body);
        assert!(
            !text.contains(WORKER_KEY) && !text.contains(TEMPLATE_KEY),
            "{key} holds a worker credential in the clear"
        );
    }
    for sealed in [
        "team/keys/token-signing.key",
        "team/transform/acme/web/main.json",
        "team/keys/secrets-key-check.json",
    ] {
        let (_, body) = objects
            .iter()
            .find(|(key, _)| key == sealed)
            .unwrap_or_else(|| panic!("no {sealed}"));
        let document: Value = serde_json::from_slice(body).expect("a JSON document");
        assert!(
            document["sealed"]
                .as_str()
                .is_some_and(|s| s.starts_with("v1:")),
            "{sealed}: {document}"
        );
    }
    // A third instance with another key, or with none, does not start on this bucket.
    for (key, expected) in [
        (Some(OTHER_KEY), "is not the key this store was sealed with"),
        (None, "needs $SITEOPS_SECRETS_KEY"),
    ] {
        let error = refused_start(store, &endpoint, key);
        assert!(error.contains(expected), "{error}");
    }

    // Health and readiness answer a load balancer, which asks by the instance's address.
    let probe = |port: u16, path: &'static str| {
        let client = admin.client.clone();
        async move {
            client
                .get(format!("http://127.0.0.1:{port}{path}"))
                .header("host", "10.1.2.3:3000")
                .send()
                .await
                .expect("answered")
                .status()
                .as_u16()
        }
    };
    assert_eq!(
        (probe(a, "/healthz").await, probe(a, "/readyz").await),
        (200, 200)
    );
    // SIGTERM stops an instance cleanly.
    let id = b_process.0.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &id])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = b_process.0.try_wait().expect("a status") {
            break status;
        }
        assert!(Instant::now() < deadline, "serve did not stop on SIGTERM");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(status.success(), "{status:?}");
    b_process.0 = Command::new("true").spawn().expect("a placeholder");
    // Without its store an instance is up but not ready.
    drop(s3_server);
    assert_eq!(
        (probe(a, "/healthz").await, probe(a, "/readyz").await),
        (200, 503)
    );
}

/// A code sync job started on one instance, which is then killed (SIGKILL) mid-job, is
/// finished by the other once the dead one's lease has ended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_job_survives_the_death_of_its_instance() {
    use wiremock::matchers::{header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let Some(moto) = moto_or_skip() else {
        return;
    };
    // The repository's raw file host: six files, each slow, so the job takes seconds.
    let raw = MockServer::start().await;
    let files: Vec<String> = (1..=6).map(|i| format!("blocks/b{i}.js")).collect();
    Mock::given(method("GET"))
        .and(path("/acme/web/main/siteops-files.txt"))
        .and(header("authorization", "token SYNC-SECRET"))
        .respond_with(ResponseTemplate::new(200).set_body_string(files.join("\n")))
        .mount(&raw)
        .await;
    for file in &files {
        Mock::given(method("GET"))
            .and(path(format!("/acme/web/main/{file}")))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_string(format!("// {file}"))
                    .set_delay(Duration::from_millis(600)),
            )
            .mount(&raw)
            .await;
    }
    let (_s3, endpoint) = s3(&moto, "jobs-bucket").await;
    let store = "s3://jobs-bucket/team";
    let lease = [("SITEOPS_JOB_LEASE_SECONDS", "2")];
    let (mut a_process, a) = serve_with(store, &endpoint, &lease);
    let (_b, b) = serve_with(store, &endpoint, &lease);
    let admin = Admin {
        client: reqwest::Client::new(),
        token: token(store, &endpoint),
    };
    let code = json!({"owner": "acme", "repo": "web", "source": {"type": "byogit",
        "url": "https://git.acme.example/acme/web", "raw_url": format!("{}/acme/web", raw.uri()),
        "owner": "p1", "repo": "web", "secretId": "sync"}});
    let (status, answer) = admin
        .send(
            a,
            reqwest::Method::PUT,
            "/admin/config/acme/sites/web.json",
            Some(json!({"code": code})),
        )
        .await;
    assert_eq!(status, 201, "{answer}");
    let (status, answer) = admin
        .send(
            a,
            reqwest::Method::POST,
            "/admin/config/acme/sites/web/secrets/sync.json",
            Some(json!({"value": "SYNC-SECRET"})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");

    let (status, started) = admin
        .send(a, reqwest::Method::POST, "/admin/code/acme/web/main", None)
        .await;
    assert_eq!(status, 202, "{started}");
    let link = started["links"]["self"]
        .as_str()
        .expect("a link")
        .to_string();
    // Through the other instance: the job runs and has fetched a file.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, job) = admin.send(b, reqwest::Method::GET, &link, None).await;
        if job["state"] == "running" && job["progress"]["processed"].as_u64() >= Some(2) {
            break;
        }
        assert!(Instant::now() < deadline, "the job did not start: {job}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    a_process.0.kill().expect("SIGKILL");
    let _ = a_process.0.wait();

    let deadline = Instant::now() + Duration::from_secs(60);
    let job = loop {
        let (_, job) = admin.send(b, reqwest::Method::GET, &link, None).await;
        if job["state"] == "stopped" {
            break job;
        }
        assert!(Instant::now() < deadline, "the job was not finished: {job}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(job["error"], Value::Null, "{job}");
    assert_eq!(job["progress"]["failed"], 0, "{job}");
    assert_eq!(
        job["progress"]["processed"], job["progress"]["total"],
        "{job}"
    );
    assert_eq!(
        job["progress"]["total"], 10,
        "six listed files and four well-known: {job}"
    );
    // Taken over, the job started again from its first file: fetched by both instances.
    let asked = raw.received_requests().await.expect("recorded");
    let first = asked
        .iter()
        .filter(|r| r.url.path().ends_with("b1.js"))
        .count();
    assert_eq!(first, 2, "the first file was asked for {first} times");
}
