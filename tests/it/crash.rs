//! Kill the real server (SIGKILL) during a stream of writes, restart it, and check that
//! every acknowledged write is there and every stored document parses.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ADMIN: &str = "root@acme.example";

/// Starts `siteops serve` on a free port; returns the child and its address.
fn spawn_server(data: &Path) -> (Child, String) {
    spawn_server_with(data, &["--org-admin", ADMIN])
}

/// [`spawn_server`] with more flags of `serve`.
pub(crate) fn spawn_server_with(data: &Path, flags: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_siteops"))
        // The store alone: without `--no-repo`, serve would apply (and prune) the
        // repository of the working directory while the test writes.
        .args(["serve", "--no-repo", "--port", "0"])
        .args(flags)
        .arg("--data")
        .arg(data)
        .env("SITEOPS_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("siteops serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("the address line");
    let address = first
        .trim()
        .rsplit("http://")
        .next()
        .expect("an address")
        .to_string();
    (child, address)
}

fn token(data: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["token", "--email", ADMIN, "--data"])
        .arg(data)
        .output()
        .expect("siteops token runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_every_acknowledged_write() {
    let temp = tempfile::tempdir().expect("temp dir");
    let data = temp.path();
    let token = token(data);
    let (mut child, address) = spawn_server(data);
    // The library's client: it installs the TLS crypto provider that reqwest needs.
    let client = siteops_plan::http::client(Duration::from_secs(60));
    let url = |path: &str| format!("http://{address}/admin/config/acme/sites{path}");
    let created = client
        .put(url("/web.json"))
        .header("x-auth-token", &token)
        .body("{}")
        .send()
        .await
        .expect("answered");
    assert_eq!(created.status(), 201);

    // Two writers: new secrets (new files) and one document rewritten again and again.
    let mut acknowledged_secrets = Vec::new();
    let mut acknowledged_counter = 0;
    // At least 400 ms and 20 acknowledged writes (a loaded machine is slow), then the kill.
    let kill_at = Instant::now() + Duration::from_millis(400);
    let give_up = Instant::now() + Duration::from_secs(30);
    let mut n = 0;
    while (Instant::now() < kill_at || acknowledged_secrets.len() < 20) && Instant::now() < give_up
    {
        n += 1;
        let secret = client
            .post(url(&format!("/web/secrets/s{n}.json")))
            .header("x-auth-token", &token)
            .body(json!({"value": format!("v{n}")}).to_string())
            .send();
        let public = client
            .post(url("/web/public.json"))
            .header("x-auth-token", &token)
            .body(json!({"paths": {"includes": [format!("/n{n}/")]}}).to_string())
            .send();
        let (secret, public) = tokio::join!(secret, public);
        if secret.is_ok_and(|r| r.status() == 200) {
            acknowledged_secrets.push(n);
        }
        if public.is_ok_and(|r| r.status() == 200) {
            acknowledged_counter = n;
        }
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    assert!(
        acknowledged_secrets.len() > 5,
        "the stream ran: {} writes",
        acknowledged_secrets.len()
    );

    let (mut restarted, address) = spawn_server(data);
    let url = |path: &str| format!("http://{address}/admin/config/acme/sites{path}");
    for n in &acknowledged_secrets {
        let response = client
            .get(url(&format!("/web/secrets/s{n}.json")))
            .header("x-auth-token", &token)
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status(), 200, "acknowledged secret s{n} is lost");
    }
    let public: Value = client
        .get(url("/web/public.json"))
        .header("x-auth-token", &token)
        .send()
        .await
        .expect("answered")
        .json()
        .await
        .expect("JSON");
    let includes = public["paths"]["includes"][0].as_str().expect("an include");
    let stored: u32 = includes
        .trim_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .expect("a number");
    assert!(
        stored >= acknowledged_counter,
        "public.json went back from {acknowledged_counter} to {stored}"
    );
    restarted.kill().expect("stop");
    restarted.wait().expect("reaped");
    assert_every_document_parses(data);
}

fn assert_every_document_parses(dir: &Path) {
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            assert_every_document_parses(&path);
        } else if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read(&path).expect("readable");
            assert!(
                serde_json::from_slice::<Value>(&text).is_ok(),
                "{} is torn",
                path.display()
            );
        }
    }
}
