//! A real S3-protocol store for the tests that run siteops on shared object storage: moto's
//! server mode (from PyPI) on loopback, `siteops serve --store s3://…` processes pointed at
//! it, and the bucket's contents as the S3 API gives them.
//!
//! `.ci/run` installs moto into `target/tools`; elsewhere [`moto_or_skip`] says the test is
//! skipped and why.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::repo_root;

/// Every instance seals secrets with this key.
pub(crate) const SECRETS_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

fn moto() -> Option<PathBuf> {
    // The venv's own, whose python has boto3 beside it.
    let local = repo_root().join("target/tools/bin/moto_server");
    if local.is_file() {
        return Some(local);
    }
    let found = Command::new("moto_server").arg("--help").output();
    found
        .is_ok_and(|o| o.status.success())
        .then(|| PathBuf::from("moto_server"))
}

/// moto's server, ready to start; `None` (the test is skipped, with a message) where it is
/// not installed, except in CI.
pub(crate) fn moto_or_skip() -> Option<PathBuf> {
    siteops_plan::http::install_crypto_provider();
    siteops_testkit::or_skip(
        moto(),
        "moto_server, an S3 server (pip install 'moto[server]'; .ci/run installs it into target/tools)",
    )
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A process killed when dropped.
pub(crate) struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The S3 server, with one bucket; its endpoint.
pub(crate) async fn s3(moto: &Path, bucket: &str) -> (Process, String) {
    let port = free_port();
    let child = Command::new(moto)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("moto_server starts");
    let process = Process(child);
    let endpoint = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // moto takes unsigned requests: the bucket is made without credentials.
        let made = client.put(format!("{endpoint}/{bucket}")).send().await;
        if made.is_ok_and(|r| r.status().is_success()) {
            return (process, endpoint);
        }
        assert!(Instant::now() < deadline, "moto_server did not start");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The environment that points siteops at the S3 server.
pub(crate) fn s3_env(command: &mut Command, endpoint: &str) {
    command
        .env("AWS_ENDPOINT_URL", endpoint)
        .env("AWS_ALLOW_HTTP", "true")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1")
        .env("SITEOPS_SECRETS_KEY", SECRETS_KEY)
        .env("SITEOPS_LOG", "warn");
}

/// Every object of the bucket, as the S3 API gives them (boto3, from moto's own venv).
pub(crate) fn bucket_contents(moto: &Path, endpoint: &str, bucket: &str) -> Vec<(String, Vec<u8>)> {
    let python = moto.with_file_name("python");
    let script = r#"
import boto3, sys, base64
s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1',
                  aws_access_key_id='test', aws_secret_access_key='test')
for page in s3.get_paginator('list_objects_v2').paginate(Bucket=sys.argv[2]):
    for o in page.get('Contents', []):
        body = s3.get_object(Bucket=sys.argv[2], Key=o['Key'])['Body'].read()
        print(o['Key'], base64.b64encode(body).decode())
"#;
    let output = Command::new(python)
        .args(["-c", script, endpoint, bucket])
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    use base64::Engine as _;
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|line| line.split_once(' '))
        .map(|(key, body)| {
            let body = base64::engine::general_purpose::STANDARD
                .decode(body)
                .expect("base64");
            (key.to_string(), body)
        })
        .collect()
}

/// `siteops serve --no-repo` on the store, with these `--org-admin` values and more
/// environment; the process and its port.
pub(crate) fn serve(
    store: &str,
    endpoint: &str,
    org_admins: &[&str],
    env: &[(&str, &str)],
) -> (Process, u16) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command
        .args(["serve", "--no-repo", "--port", "0", "--store", store])
        .args(org_admins.iter().flat_map(|admin| ["--org-admin", admin]))
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    s3_env(&mut command, endpoint);
    let mut child = command.spawn().expect("siteops serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let process = Process(child);
    let mut lines = BufReader::new(stdout).lines();
    let mut port = None;
    for line in lines.by_ref() {
        let line = line.expect("a line");
        if let Some(rest) = line.strip_prefix("siteops serve: listening on http://127.0.0.1:") {
            port = rest.trim().parse().ok();
            break;
        }
    }
    std::thread::spawn(move || for _ in lines {});
    (process, port.expect("serve printed its port"))
}

/// A token for `email` from `siteops token`, signed with the store's key.
pub(crate) fn token(store: &str, endpoint: &str, email: &str) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command.args(["token", "--email", email, "--store", store]);
    s3_env(&mut command, endpoint);
    let output = command.output().expect("siteops token runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .trim()
        .to_string()
}
