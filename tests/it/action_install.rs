//! The GitHub Action's install step (action/install.sh) against a release on loopback: it
//! installs the release binary of its ref after checking its sha256, refuses a tampered
//! one, and builds from source (a stub `cargo` here) only when no release matches.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;

/// The archive dist names for the target the tests ask for (`SITEOPS_TARGET`).
const TARGET: &str = "x86_64-unknown-linux-musl";
const ARCHIVE: &str = "siteops-x86_64-unknown-linux-musl.tar.gz";

/// The tools the script runs, or `None` (after saying which is missing).
fn tools() -> Option<()> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<&str> = ["bash", "tar", "gzip", "sha256sum", "curl"]
        .into_iter()
        .filter(|tool| !std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
        .collect();
    let found = missing.is_empty().then_some(());
    siteops_testkit::or_skip(
        found,
        format!(
            "{} (the action's install script runs them)",
            missing.join(", ")
        ),
    )
}

/// Files served by path, and the paths asked for.
#[derive(Clone, Default)]
struct Release {
    files: Arc<HashMap<String, Vec<u8>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

async fn answer(State(release): State<Release>, request: Request) -> (StatusCode, Vec<u8>) {
    let path = request.uri().path().to_string();
    release.asked.lock().expect("asked").push(path.clone());
    match release.files.get(&path) {
        Some(body) => (StatusCode::OK, body.clone()),
        None => (StatusCode::NOT_FOUND, b"Not Found".to_vec()),
    }
}

/// Serves `files` on loopback from a thread of its own; returns the base address.
fn serve(files: HashMap<String, Vec<u8>>) -> (String, Arc<Mutex<Vec<String>>>) {
    let release = Release {
        files: Arc::new(files),
        asked: Arc::default(),
    };
    let asked = release.asked.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let app = Router::new().fallback(answer).with_state(release);
            axum::serve(listener, app).await
        })
    });
    (address, asked)
}

/// A gzipped tarball in dist's layout (`siteops-<target>/siteops`, README.md beside it)
/// holding `binary` as siteops, and its `.sha256` as dist writes it.
fn archive(scratch: &Path, binary: &Path) -> (Vec<u8>, String) {
    let name = ARCHIVE.trim_end_matches(".tar.gz");
    let folder = scratch.join("archive").join(name);
    std::fs::create_dir_all(&folder).expect("archive folder");
    std::fs::copy(binary, folder.join("siteops")).expect("binary");
    std::fs::write(folder.join("README.md"), "siteops\n").expect("readme");
    let tarball = scratch.join(ARCHIVE);
    // gzip's fastest level: the debug build is hundreds of megabytes.
    let status = Command::new("bash")
        .arg("-c")
        .arg(r#"set -o pipefail; tar -cf - -C "$1" "$2" | gzip -1 > "$3""#)
        .arg("archive")
        .arg(scratch.join("archive"))
        .arg(name)
        .arg(&tarball)
        .status()
        .expect("tar");
    assert!(status.success(), "tar failed");
    let sum = Command::new("sha256sum")
        .arg(&tarball)
        .output()
        .expect("sha256sum");
    let hash = String::from_utf8(sum.stdout).expect("utf-8");
    let hash = hash.split_whitespace().next().expect("hash").to_string();
    (
        std::fs::read(&tarball).expect("tarball"),
        format!("{hash} *{ARCHIVE}\n"),
    )
}

/// The test build of siteops, which the install must run.
fn test_build() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_siteops"))
}

/// A small stand-in for siteops, where the test never runs it (a checksum that fails, a
/// release the ref does not name).
fn stand_in(scratch: &Path) -> PathBuf {
    let path = scratch.join("stand-in");
    std::fs::write(&path, "#!/bin/sh\necho 'siteops 0.1.0'\n").expect("stand-in");
    path
}

/// A `cargo` that records its arguments in `cargo-args` and "installs" a siteops that
/// says it was built, so a fallback is seen without building.
fn stub_cargo(scratch: &Path) -> PathBuf {
    let bin = scratch.join("stub-bin");
    std::fs::create_dir_all(&bin).expect("stub dir");
    let log = scratch.join("cargo-args");
    let script = format!(
        r#"#!/usr/bin/env bash
printf '%s\n' "$@" > '{log}'
root=""
while [ $# -gt 0 ]; do
  if [ "$1" = --root ]; then root="$2"; fi
  shift
done
mkdir -p "$root/bin"
printf '#!/bin/sh\necho "siteops 0.0.0 (stub build)"\n' > "$root/bin/siteops"
chmod +x "$root/bin/siteops"
"#,
        log = log.display()
    );
    let cargo = bin.join("cargo");
    std::fs::write(&cargo, script).expect("stub cargo");
    let status = Command::new("chmod")
        .arg("+x")
        .arg(&cargo)
        .status()
        .expect("chmod");
    assert!(status.success());
    bin
}

/// Runs `action/install.sh mode` as the action does, for ref `reference`, against the
/// release at `base`, with the stub cargo first on PATH.
fn install(scratch: &Path, base: &str, reference: &str, mode: &str) -> Output {
    let stub = stub_cargo(scratch);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(stub).chain(std::env::split_paths(&path)))
        .expect("PATH");
    Command::new("bash")
        .arg(crate::support::repo_root().join("action/install.sh"))
        .arg(mode)
        .env("PATH", path)
        .env("SITEOPS_ACTION_REPOSITORY", "siteops/siteops")
        .env("SITEOPS_ACTION_REF", reference)
        .env("SITEOPS_ACTION_PATH", scratch.join("action-source"))
        .env("SITEOPS_INSTALL_ROOT", scratch.join("root"))
        .env("SITEOPS_RELEASE_BASE_URL", base)
        .env("SITEOPS_TARGET", TARGET)
        .env("GITHUB_OUTPUT", scratch.join("github-output"))
        .env("GITHUB_PATH", scratch.join("github-path"))
        .env_remove("GITHUB_ACTIONS")
        .env_remove("RUNNER_TEMP")
        .output()
        .expect("bash")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn release_files(tarball: Vec<u8>, checksum: String) -> HashMap<String, Vec<u8>> {
    HashMap::from([
        (format!("/v0.1.0/{ARCHIVE}"), tarball),
        (format!("/v0.1.0/{ARCHIVE}.sha256"), checksum.into_bytes()),
    ])
}

#[test]
fn installs_the_verified_release_binary_of_its_ref() {
    let Some(()) = tools() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let (tarball, checksum) = archive(scratch.path(), test_build());
    let (base, asked) = serve(release_files(tarball, checksum));

    let output = install(scratch.path(), &base, "v0.1.0", "auto");
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");

    let installed = scratch.path().join("root/bin/siteops");
    let version = Command::new(&installed)
        .arg("--version")
        .output()
        .expect("run the installed siteops");
    assert!(version.status.success());
    let expected = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .arg("--version")
        .output()
        .expect("siteops --version");
    assert_eq!(text(&version.stdout), text(&expected.stdout));
    assert!(
        stdout.contains(&format!(
            "installed {} (release v0.1.0 of siteops/siteops, {ARCHIVE}, sha256 verified)",
            text(&expected.stdout).trim()
        )),
        "{stdout}"
    );
    assert!(!scratch.path().join("cargo-args").exists(), "cargo ran");
    let github_path = std::fs::read_to_string(scratch.path().join("github-path")).expect("PATH");
    assert_eq!(
        github_path.trim(),
        scratch.path().join("root/bin").display().to_string()
    );
    let github_output =
        std::fs::read_to_string(scratch.path().join("github-output")).expect("GITHUB_OUTPUT");
    assert_eq!(github_output, "build=false\n");
    assert_eq!(
        *asked.lock().expect("asked"),
        [
            format!("/v0.1.0/{ARCHIVE}"),
            format!("/v0.1.0/{ARCHIVE}.sha256")
        ]
    );
}

#[test]
fn a_tampered_checksum_fails_naming_the_archive_and_never_builds() {
    let Some(()) = tools() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let (tarball, checksum) = archive(scratch.path(), &stand_in(scratch.path()));
    let tampered = format!("{}{}", "0".repeat(64), &checksum[64..]);
    let (base, _) = serve(release_files(tarball, tampered));

    let output = install(scratch.path(), &base, "v0.1.0", "auto");
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "installed a tampered release");
    assert!(
        stderr.contains(&format!("error: checksum mismatch for {ARCHIVE}")),
        "{stderr}"
    );
    assert!(stderr.contains(&"0".repeat(64)), "{stderr}");
    assert!(!scratch.path().join("root/bin/siteops").exists());
    assert!(
        !scratch.path().join("cargo-args").exists(),
        "fell back to a build"
    );
}

#[test]
fn a_release_without_its_checksum_fails() {
    let Some(()) = tools() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let (tarball, _) = archive(scratch.path(), &stand_in(scratch.path()));
    let files = HashMap::from([(format!("/v0.1.0/{ARCHIVE}"), tarball)]);
    let (base, _) = serve(files);

    let output = install(scratch.path(), &base, "v0.1.0", "auto");
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "installed an unverified release");
    assert!(
        stderr.contains(&format!("{ARCHIVE}.sha256 answered HTTP 404")),
        "{stderr}"
    );
    assert!(
        !scratch.path().join("cargo-args").exists(),
        "fell back to a build"
    );
}

#[test]
fn a_ref_without_a_release_builds_from_source() {
    let Some(()) = tools() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let (tarball, checksum) = archive(scratch.path(), &stand_in(scratch.path()));
    // A release of v0.1.0 exists; the workflow names the branch main.
    let (base, asked) = serve(release_files(tarball, checksum));

    let output = install(scratch.path(), &base, "main", "auto");
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!(
            "no release main of siteops/siteops has {ARCHIVE} (404 from {base}/main/{ARCHIVE}): building from source"
        )),
        "{stdout}"
    );
    let args = std::fs::read_to_string(scratch.path().join("cargo-args")).expect("cargo ran");
    let root = scratch.path().join("root");
    let source = scratch.path().join("action-source");
    assert_eq!(
        args.lines().collect::<Vec<_>>(),
        [
            "install",
            "--locked",
            "--quiet",
            "--path",
            &source.display().to_string(),
            "--root",
            &root.display().to_string()
        ]
    );
    assert!(
        stdout.contains("installed siteops 0.0.0 (stub build) (built from source)"),
        "{stdout}"
    );
    assert_eq!(*asked.lock().expect("asked"), [format!("/main/{ARCHIVE}")]);
}

#[test]
fn the_release_step_asks_the_action_for_a_build_when_there_is_no_release() {
    let Some(()) = tools() else { return };
    let scratch = tempfile::tempdir().expect("tempdir");
    let (base, _) = serve(HashMap::new());

    let output = install(scratch.path(), &base, "v9.9.9", "release");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let github_output =
        std::fs::read_to_string(scratch.path().join("github-output")).expect("GITHUB_OUTPUT");
    assert_eq!(github_output, "build=true\n");
    assert!(
        !scratch.path().join("cargo-args").exists(),
        "built in the release step"
    );
    assert!(!scratch.path().join("root/bin/siteops").exists());
}

#[test]
fn the_action_runs_the_script_with_its_own_repository_and_ref() {
    let action = crate::support::read(&crate::support::repo_root().join("action.yml"));
    for line in [
        "SITEOPS_ACTION_REPOSITORY: ${{ github.action_repository }}",
        "SITEOPS_ACTION_REF: ${{ github.action_ref }}",
        r#"run: bash "$GITHUB_ACTION_PATH/action/install.sh" release"#,
        "if: steps.install.outputs.build == 'true'",
        r#"run: bash "$GITHUB_ACTION_PATH/action/install.sh" build"#,
    ] {
        assert!(action.contains(line), "action.yml lacks {line:?}");
    }
    assert!(
        !action.contains("cargo install"),
        "action.yml builds outside the script"
    );
}
