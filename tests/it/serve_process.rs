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
}

impl Serve {
    pub(crate) fn start(root: &Path, data: &Path) -> Serve {
        Serve::start_logging(root, data, "warn")
    }

    /// As [`Serve::start`], logging as `SITEOPS_LOG=filter` says ([`Serve::log`]).
    pub(crate) fn start_logging(root: &Path, data: &Path, filter: &str) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_siteops"))
            .args(["serve", "--port", "0", "--root"])
            .arg(root)
            .arg("--data")
            .arg(data)
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
        // The first lines give the port, then the first apply.
        for line in lines.by_ref() {
            let line = line.expect("a line");
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
        }
    }

    /// The lines logged so far.
    pub(crate) fn log(&self) -> Vec<String> {
        self.log.lock().expect("log").clone()
    }

    pub(crate) fn url(&self, host: &str, path: &str) -> String {
        format!("http://{host}:{}{path}", self.port)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
