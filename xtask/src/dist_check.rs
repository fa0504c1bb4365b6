//! `cargo xtask dist-check`: the release as a user gets it, end to end, on this machine.
//!
//! 1. `dist generate --check`: release.yml is what dist-workspace.toml generates.
//! 2. `dist build` for the host target in `target/dist` (its own target directory, so the
//!    dist profile does not fight the debug builds): the archive and its `.sha256`.
//! 3. The action's install step (`action/install.sh release`) against a loopback server
//!    that serves that archive as release `v<version>`: downloaded, verified, installed.
//! 4. With the clock running since step 3: the installed siteops `validate`s the example
//!    repository and `plan`s it against a `siteops serve --offline` started on it. Over
//!    [`BUDGET`] fails the check: what the action costs a pull request once the release
//!    exists (a build from source took about 9 minutes).
//! 5. `cargo package` of the workspace's crates (the binary and the crates it depends on),
//!    verified unless `--no-verify` is given.
//!
//! dist comes from PATH, or `DIST`; .ci/run installs the pinned release into target/tools.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::api_check::Server;
use crate::{root, run};

/// The variables the example repository's secrets.toml files and templateApiKeys name.
const EXAMPLE_SECRETS: [&str; 3] = [
    "ACME_GIT_SYNC_SECRET",
    "ACME_PARTNER_PREVIEW_SECRET",
    "ACME_TEMPLATE_API_KEY",
];

/// The most that install + validate + plan may take.
const BUDGET: Duration = Duration::from_secs(60);

pub(crate) fn run_check(args: &[String]) -> Result<(), String> {
    let verify = !args.iter().any(|a| a == "--no-verify");
    let root = root();
    let dist = std::env::var("DIST").unwrap_or_else(|_| "dist".to_string());
    let target = host_target()?;
    let version = package_version(&root)?;

    let found = Command::new(&dist)
        .arg("--version")
        .stdout(Stdio::null())
        .status();
    if !found.is_ok_and(|status| status.success()) {
        return Err(format!(
            "cannot run `{dist}` (set DIST, or `pip install astral-dev-toolchain-cargo-dist==0.33.0`, as .ci/run does)"
        ));
    }
    let started = Instant::now();
    run(Command::new(&dist)
        .args(["generate", "--check"])
        .current_dir(&root))
    .map_err(|e| {
        format!("{e}: release.yml is not what dist-workspace.toml generates; run `dist generate`")
    })?;
    let target_dir = root.join("target/dist");
    run(Command::new(&dist)
        // Host mode: the archive of this machine's target, which need not be one of the
        // release's (this machine's is glibc Linux; the release's Linux builds are musl).
        .arg("build")
        .arg("--artifacts=host")
        .env("CARGO_TARGET_DIR", &target_dir)
        .current_dir(&root))?;
    eprintln!("dist-check: dist build took {:.0?}", started.elapsed());

    let archive = format!("siteops-{target}.tar.gz");
    // dist writes the artifacts under the workspace's target/, whatever CARGO_TARGET_DIR says.
    let distrib = root.join("target/distrib");
    for file in [archive.clone(), format!("{archive}.sha256")] {
        if !distrib.join(&file).is_file() {
            return Err(format!(
                "dist build made no {}",
                distrib.join(&file).display()
            ));
        }
    }
    let tag = format!("v{version}");
    let base = serve_release(&distrib, &tag)?;

    let work = root.join("target/dist-check");
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let clock = Instant::now();
    let github_output = work.join("github-output");
    run(Command::new("bash")
        .arg(root.join("action/install.sh"))
        .arg("release")
        .env("SITEOPS_ACTION_REPOSITORY", "siteops/siteops")
        .env("SITEOPS_ACTION_REF", &tag)
        .env("SITEOPS_ACTION_PATH", &root)
        .env("SITEOPS_INSTALL_ROOT", work.join("install"))
        .env("SITEOPS_RELEASE_BASE_URL", &base)
        .env("SITEOPS_TARGET", &target)
        .env("GITHUB_OUTPUT", &github_output)
        .env_remove("GITHUB_PATH"))?;
    let said = fs::read_to_string(&github_output).unwrap_or_default();
    if said.trim() != "build=false" {
        return Err(format!(
            "the install step did not install the release (its output: {said:?})"
        ));
    }
    let siteops = work.join("install/bin/siteops");
    run(Command::new(&siteops).arg("--version"))?;
    run(Command::new(&siteops)
        .args(["validate", "--root"])
        .arg(&root)
        .stdout(Stdio::null()))?;
    let mut server = Server::start(&siteops, &root, &work.join("serve"))?;
    let plan = Command::new(&siteops)
        .args(["plan", "--root"])
        .arg(&root)
        .args([
            "--admin",
            &format!("http://127.0.0.1:{}/admin", server.port),
            "--transform-url",
            &format!("http://127.0.0.1:{}/transform", server.port),
        ])
        .env("SITEOPS_ADMIN_TOKEN", &server.token)
        // The values of the example sites' secrets (siteops.yml's workflow sets them from
        // the repository's secrets); a new one fails the plan, naming the variable.
        .envs(EXAMPLE_SECRETS.map(|name| (name, "dist-check")))
        .status()
        .map_err(|e| format!("cannot run {}: {e}", siteops.display()))?;
    let elapsed = clock.elapsed();
    server.stop()?;
    if !plan.success() {
        return Err(format!("siteops plan failed ({plan})"));
    }
    eprintln!("dist-check: install + validate + plan took {elapsed:.1?} (budget {BUDGET:?})");
    if elapsed > BUDGET {
        return Err(format!(
            "install + validate + plan took {elapsed:.1?}, over the budget of {BUDGET:?}"
        ));
    }

    let started = Instant::now();
    package(&root, verify)?;
    eprintln!(
        "dist-check: cargo package{} took {:.0?}",
        if verify { "" } else { " --no-verify" },
        started.elapsed()
    );
    Ok(())
}

/// `cargo package` of the binary crate and the workspace crates it depends on (cargo
/// packages path dependencies of one workspace together); xtask, the benches and the test
/// kit are not published.
fn package(root: &Path, verify: bool) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut command = Command::new(cargo);
    command
        .args(["package", "--workspace", "--locked", "--allow-dirty"])
        .args(["--exclude", "xtask", "--exclude", "siteops-bench"])
        .args(["--exclude", "siteops-testkit"])
        .current_dir(root);
    if !verify {
        command.arg("--no-verify");
    }
    run(&mut command)
}

/// This machine's target triple, from `rustc -vV`.
fn host_target() -> Result<String, String> {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV names no host".to_string())
}

/// The siteops package's version, from the root manifest's `[package]`.
fn package_version(root: &Path) -> Result<String, String> {
    let path = root.join("Cargo.toml");
    let manifest =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let package = manifest
        .split("\n[package]\n")
        .nth(1)
        .ok_or_else(|| format!("{} has no [package]", path.display()))?;
    package
        .lines()
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.strip_prefix("version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .map(str::to_string)
        .ok_or_else(|| format!("{}: [package] has no version", path.display()))
}

/// Serves the files of `dir` as `/<tag>/<file>` on loopback, from a thread that ends with
/// the process; anything else is a 404. Returns the base address.
fn serve_release(dir: &Path, tag: &str) -> Result<String, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind: {e}"))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let dir = dir.to_path_buf();
    let prefix = format!("/{tag}/");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(stream, &dir, &prefix);
        }
    });
    Ok(format!("http://{address}"))
}

fn answer(mut stream: TcpStream, dir: &Path, prefix: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // The headers, up to the blank line.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let file: Option<PathBuf> = path
        .strip_prefix(prefix)
        .filter(|name| !name.contains('/') && !name.starts_with('.'))
        .map(|name| dir.join(name))
        .filter(|file| file.is_file());
    match file.and_then(|file| fs::read(file).ok()) {
        Some(body) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            )?;
            stream.write_all(&body)
        }
        None => write!(
            stream,
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
    }
}
