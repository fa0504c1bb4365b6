//! `cargo xtask api-check`: schemathesis against a live `siteops serve`, on the example
//! repository with its mocks (`--offline`), with the budget of `tests/api/schemathesis.toml`:
//! first with the service's own document (`/admin/openapi.json`), then, every check, with the
//! platform's own documents of both path families, restricted to their configuration
//! operations (`tests/api/schemathesis-platform.toml`, hooks in
//! `tests/api/platform_hooks.py`): the newer family's
//! (`../shared/reference/platform/openapi/api-aem-live-1.73.0.openapi.json`, at `/api`) and
//! the older family's (`…/admin-hlx-page-12.144.7.openapi.json`, at `/admin`). What siteops
//! answers otherwise than those documents say is written in `docs/src/fidelity.md`. Without
//! `../shared` the platform runs are skipped with the reason, except under CI, where that
//! fails the check. Failures of any run fail the check.
//!
//! schemathesis (PyPI) is installed, pinned, into a virtual environment under `target/`
//! on first use. The check fails on any schemathesis failure, and when the server panicked
//! or stopped during the run.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::{cargo, root, run};

/// The schemathesis release the check is pinned to.
const SCHEMATHESIS: &str = "schemathesis==4.32.5";
/// The variable the platform runs' configuration reads the token from.
const TOKEN_VARIABLE: &str = "SITEOPS_API_CHECK_TOKEN";
/// The variable the platform runs' configuration reads its hooks' path from.
const HOOKS_VARIABLE: &str = "SITEOPS_API_CHECK_HOOKS";
/// The org administrator the run signs in as.
const ADMIN: &str = "api-check@example.com";
/// The platform's documents (under `../shared/reference/platform/openapi/`), each with
/// the path the service serves that family under.
const PLATFORM_DOCUMENTS: [(&str, &str); 2] = [
    ("api-aem-live-1.73.0.openapi.json", "/api"),
    ("admin-hlx-page-12.144.7.openapi.json", "/admin"),
];

pub(crate) fn run_check(extra: &[String]) -> Result<(), String> {
    let root = root();
    cargo(&[
        "build",
        "--locked",
        "--package",
        "siteops",
        "--bin",
        "siteops",
    ])?;
    let siteops = root.join("target/debug/siteops");
    let st = install_schemathesis(&root.join("target/schemathesis"))?;

    let work = root.join("target/api-check");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;

    // Each run has a service of its own, started afresh on the example repository: what
    // one document's cases write (siteops's own document admits bodies the platform's do
    // not, and the other way round) is not read back against the other's schemas.
    let started = Instant::now();
    let mut own_server = Server::start(&siteops, &root, &work.join("own"))?;
    let own = Command::new(&st)
        .arg("--config-file")
        .arg(root.join("tests/api/schemathesis.toml"))
        .arg("run")
        .arg(format!(
            "http://127.0.0.1:{}/admin/openapi.json",
            own_server.port
        ))
        .args(["--header", &format!("x-auth-token: {}", own_server.token)])
        .args(["--no-color", "--report", "junit", "--report-dir"])
        .arg(work.join("report"))
        .args(extra)
        .current_dir(&work)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", st.display()))?;
    own_server.stop()?;
    eprintln!(
        "api-check: the service's own document: {own} ({} s)",
        started.elapsed().as_secs()
    );

    let mut failed = Vec::new();
    if !own.success() {
        failed.push(format!("the service's document ({own})"));
    }
    for (name, base) in PLATFORM_DOCUMENTS {
        let Some(document) = platform_document(&root, name)? else {
            continue;
        };
        let started = Instant::now();
        let status = platform_run(&st, &siteops, &root, &work, &document, base, extra)?;
        eprintln!(
            "api-check: {name} at {base}: {status} ({} s)",
            started.elapsed().as_secs()
        );
        if !status.success() {
            failed.push(format!("the platform's {name} ({status})"));
        }
    }
    match failed.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "schemathesis found failures with {}",
            failed.join(", ")
        )),
    }
}

/// One run with a platform document, at `base` of a service of its own.
fn platform_run(
    st: &Path,
    siteops: &Path,
    root: &Path,
    work: &Path,
    document: &Path,
    base: &str,
    extra: &[String],
) -> Result<ExitStatus, String> {
    let name = base.trim_start_matches('/');
    let mut server = Server::start(siteops, root, &work.join(format!("platform-{name}")))?;
    let status = Command::new(st)
        .arg("--config-file")
        .arg(root.join("tests/api/schemathesis-platform.toml"))
        .arg("run")
        .arg(document)
        .args(["--url", &format!("http://127.0.0.1:{}{base}", server.port)])
        // Every check: the configuration enables them all (`[checks]`), so that its
        // per-operation readings hold (options on the command line would override them).
        // The platform's documents secure their operations with the `auth_token` cookie
        // (`AuthCookie`): the token is given as that scheme's (`[auth.openapi.AuthCookie]`
        // of the configuration), so that schemathesis can leave it out of a case, and
        // expect 401 (a `--header` it cannot).
        .env(TOKEN_VARIABLE, &server.token)
        .env(HOOKS_VARIABLE, root.join("tests/api/platform_hooks.py"))
        .args(["--no-color", "--report", "junit", "--report-dir"])
        .arg(work.join(format!("report-platform-{name}")))
        .args(extra)
        .current_dir(work)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", st.display()))?;
    server.stop()?;
    Ok(status)
}

/// One of the platform's OpenAPI documents beside the repository; `None` (said why) when
/// `../shared` is absent, an error under CI, which always has it.
fn platform_document(root: &Path, name: &str) -> Result<Option<PathBuf>, String> {
    let relative = format!("../shared/reference/platform/openapi/{name}");
    let document = root.join(&relative);
    if document.exists() {
        return Ok(Some(document));
    }
    let missing =
        format!("{relative} is not beside the repository (the shared reference data; CI has it)");
    if std::env::var_os("CI").is_some_and(|value| !value.is_empty() && value != "false") {
        return Err(missing);
    }
    eprintln!("skipped: the run with the platform's {name}: {missing}");
    Ok(None)
}

/// A `siteops serve` of one run, on its own data directory under `dir` (its log beside
/// it), with a token of the org administrator; killed however the check ends. The
/// dist check (`dist_check.rs`) plans against one too.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    pub(crate) token: String,
    log: PathBuf,
}

impl Server {
    pub(crate) fn start(siteops: &Path, root: &Path, dir: &Path) -> Result<Server, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let data = dir.join("data");
        let port = free_port()?;
        let log_path = dir.join("serve.log");
        let log = fs::File::create(&log_path).map_err(|e| e.to_string())?;
        let child = Command::new(siteops)
            .args([
                "serve",
                "--offline",
                "--port",
                &port.to_string(),
                "--org-admin",
                ADMIN,
            ])
            .arg("--root")
            .arg(root)
            .arg("--data")
            .arg(&data)
            .stdout(log.try_clone().map_err(|e| e.to_string())?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", siteops.display()))?;
        let mut server = Server {
            child,
            port,
            token: String::new(),
            log: log_path,
        };
        wait_for(port, &mut server.child)?;
        let token = Command::new(siteops)
            .args(["token", "--email", ADMIN, "--ttl", "2h", "--data"])
            .arg(&data)
            .output()
            .map_err(|e| format!("cannot mint a token: {e}"))?;
        if !token.status.success() {
            return Err(format!(
                "siteops token failed: {}",
                String::from_utf8_lossy(&token.stderr)
            ));
        }
        server.token = String::from_utf8_lossy(&token.stdout).trim().to_string();
        Ok(server)
    }

    /// Stops the server; an error when it panicked or stopped during the run.
    pub(crate) fn stop(&mut self) -> Result<(), String> {
        let alive = matches!(self.child.try_wait(), Ok(None));
        let _ = self.child.kill();
        let _ = self.child.wait();
        let log = fs::read_to_string(&self.log).unwrap_or_default();
        // Rust's panic report (`thread '…' panicked at`, or `thread '…' (id) panicked at`
        // since Rust 1.89); a caught markdown-rs panic is a logged warning, not this.
        if log.contains("' panicked at") || log.contains(") panicked at") {
            return Err(format!("the server panicked: see {}", self.log.display()));
        }
        if !alive {
            return Err(format!(
                "the server stopped during the run: see {}",
                self.log.display()
            ));
        }
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `st` of a virtual environment at `venv`, created with the pinned release when
/// missing.
fn install_schemathesis(venv: &Path) -> Result<PathBuf, String> {
    let st = venv.join("bin/st");
    let pinned = venv.join("pinned");
    if st.exists() && fs::read_to_string(&pinned).ok().as_deref() == Some(SCHEMATHESIS) {
        return Ok(st);
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    run(Command::new(&python).args(["-m", "venv"]).arg(venv))?;
    run(Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            SCHEMATHESIS,
        ])
        .stdout(Stdio::null()))?;
    fs::write(&pinned, SCHEMATHESIS).map_err(|e| e.to_string())?;
    Ok(st)
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// Waits until the server accepts connections (60 s at most).
fn wait_for(port: u16, server: &mut Child) -> Result<(), String> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if let Ok(Some(status)) = server.try_wait() {
            return Err(format!("siteops serve exited ({status}) before listening"));
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        sleep(Duration::from_millis(100));
    }
    Err(format!(
        "siteops serve did not listen on port {port} within 60 s"
    ))
}
