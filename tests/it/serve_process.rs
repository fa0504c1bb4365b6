//! The real `siteops serve` binary, started on a free port for a test.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

/// The real `siteops serve` on a free port; killed when dropped.
pub(crate) struct Serve {
    child: Child,
    pub port: u16,
    /// What it logged (its standard error), line by line.
    log: Arc<Mutex<Vec<String>>>,
    /// What it printed up to its first apply (its standard output), line by line.
    pub printed: Vec<String>,
}

impl Serve {
    pub(crate) fn start(root: &Path, data: &Path) -> Serve {
        Serve::start_logging(root, data, "warn")
    }

    /// As [`Serve::start`], logging as `SITEOPS_LOG=filter` says ([`Serve::log`]).
    pub(crate) fn start_logging(root: &Path, data: &Path, filter: &str) -> Serve {
        Serve::spawn(root, Some(data), filter)
    }

    /// As a user starts it in a repository: no `--data`, so its data directory is the
    /// default one (`<root>/.siteops/data`).
    pub(crate) fn start_with_default_data(root: &Path) -> Serve {
        Serve::spawn(root, None, "warn")
    }

    /// As [`Serve::start`], with more flags (`--site-port acme/website=0`).
    pub(crate) fn start_with(root: &Path, data: &Path, flags: &[&str]) -> Serve {
        Serve::spawn_with(root, Some(data), "warn", flags)
    }

    fn spawn(root: &Path, data: Option<&Path>, filter: &str) -> Serve {
        Serve::spawn_with(root, data, filter, &[])
    }

    /// As [`Serve::start`], in serve's default mode: the mocks answer the hosts they name
    /// and the network the rest (the test keeps every host it uses on loopback).
    pub(crate) fn start_in_default_mode(root: &Path, data: &Path) -> Serve {
        Serve::spawn_in(root, Some(data), "warn", &[], false)
    }

    fn spawn_with(root: &Path, data: Option<&Path>, filter: &str, flags: &[&str]) -> Serve {
        Serve::spawn_in(root, data, filter, flags, true)
    }

    /// `offline`: with `--offline`, so that nothing leaves the machine whatever the
    /// repository's pages name (issue 44: mocks no longer make serve offline by default).
    fn spawn_in(
        root: &Path,
        data: Option<&Path>,
        filter: &str,
        flags: &[&str],
        offline: bool,
    ) -> Serve {
        let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
        command.args(["serve", "--port", "0", "--root"]).arg(root);
        if offline {
            command.arg("--offline");
        }
        command.args(flags);
        if let Some(data) = data {
            command.arg("--data").arg(data);
        }
        let mut child = command
            .env("SITEOPS_LOG", filter)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("siteops serve starts");
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let stderr = child.stderr.take().expect("stderr");
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                lines.lock().expect("log").push(line);
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let mut port = None;
        let mut printed = Vec::new();
        // The first lines give the port, then the first apply.
        for line in lines.by_ref() {
            let line = line.expect("a line");
            printed.push(line.clone());
            if let Some(rest) = line.strip_prefix("siteops serve: listening on http://127.0.0.1:") {
                port = rest.trim().parse().ok();
            }
            if line.trim_start().starts_with("applied") {
                break;
            }
            assert!(!line.contains("not applied"), "{line}");
        }
        // Keep reading so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Serve {
            child,
            port: port.expect("serve printed its port"),
            log,
            printed,
        }
    }

    /// The lines logged so far.
    pub(crate) fn log(&self) -> Vec<String> {
        self.log.lock().expect("log").clone()
    }

    pub(crate) fn url(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.port)
    }

    /// Sends SIGINT (Ctrl-C in a terminal) and waits for the process to exit.
    pub(crate) fn interrupt(mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -INT");
        self.child.wait().expect("serve exits")
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GET `path` on `host` of the server at `port` (a `Host` header, the request to
/// loopback): status and body.
pub(crate) async fn get_on(port: u16, host: &str, path: &str) -> (reqwest::StatusCode, String) {
    siteops_plan::http::install_crypto_provider();
    let response = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}{path}"))
        .header("host", format!("{host}:{port}"))
        .send()
        .await
        .expect("answered");
    (response.status(), response.text().await.expect("text"))
}
