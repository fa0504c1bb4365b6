//! Inputs made to hurt: huge numbers of problems, control characters, files that are not
//! files. Each test is the regression test of a hardening finding: it failed (or hung)
//! before the fix.

use std::path::Path;
use std::process::{Command, Output};

use siteops_config::diagnostic::render;

use crate::support::{repo, validate_repo};

fn siteops(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .output()
        .expect("siteops runs")
}

/// A scratch repository with `files` (`(path, content)`).
fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, content) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, content).expect("write");
    }
    dir
}

const SITE: &str = "[code]\nowner = \"acme\"\nrepo = \"web\"\n\n[code.source]\ntype = \"github\"\nurl = \"https://github.com/acme/web\"\n\n[content.source]\nurl = \"https://content.example.com/web\"\ntype = \"markup\"\n";

/// The human format used to quote the whole file for each diagnostic: 20,000 problems took
/// 14.5 s in a release build (minutes in a test build). The timing goal is checked by the
/// `diagnostics` bench; here, that every problem is reported, each with its own line.
#[test]
fn twenty_thousand_unknown_keys_render_in_human_format() {
    const KEYS: usize = 20_000;
    let mut text = String::new();
    for i in 0..KEYS {
        text.push_str(&format!("k{i} = {i}\n"));
    }
    text.push_str(SITE);
    let validation = validate_repo(&repo(&[("sites/acme/web/site.toml", text.as_bytes())]));
    assert_eq!(validation.diagnostics.len(), KEYS);
    let human = render::human(&validation.diagnostics, &validation, false);
    assert_eq!(human.matches("error[unknown-key]").count(), KEYS);
    assert!(
        human.contains("--> sites/acme/web/site.toml:20000:1\n"),
        "the last key is located on its own line"
    );
    assert!(human.contains("20000 | k19999 = 19999\n"));
}

/// A TOML key may hold any character; GitHub annotations must not pass control characters
/// through raw (an escape sequence restyles the log, a line break forges a command).
#[test]
fn github_annotations_carry_no_raw_control_characters() {
    let site = format!("\"x\\u001b[2J\\r\\n::error::forged\\u0007\" = 1\n{SITE}");
    let dir = scratch(&[("sites/acme/web/site.toml", &site)]);
    let output = siteops(&["validate", "--format", "github"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(
        stdout,
        "::error file=sites/acme/web/site.toml,line=1,col=1,endLine=1,endColumn=38,title=unknown-key::unknown key `x%1B[2J%0D%0A::error::forged%07` in the top level%0Ahelp: known keys here: `apiKeys`, `base`, `cdn`, `code`, `content`, `description`, `editor`, `environment`, `events`, `extends`, `features`, `folders`, `groups`, `headers`, `limits`, `metadata`, `robots`, `sidekick`, `title`, `version`\n"
    );
}

/// Runs `siteops args` in `dir`, killed after a minute: a read that blocks (a FIFO) fails
/// the test instead of hanging it.
#[cfg(unix)]
fn siteops_within_a_minute(args: &[&str], dir: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("siteops runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("siteops {args:?} did not finish within a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A FIFO made `validate` hang; a link was followed out of the repository (or to
/// `/dev/zero`). Now neither is read, and each is named in a warning.
#[cfg(unix)]
#[test]
fn validate_skips_fifos_and_links_and_names_them() {
    let dir = scratch(&[("sites/acme/web/site.toml", SITE)]);
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("access.toml"), "not = [toml").expect("write");
    let site = dir.path().join("sites/acme/web");
    mkfifo(&site.join("public.toml"));
    std::os::unix::fs::symlink(outside.path().join("access.toml"), site.join("access.toml"))
        .expect("symlink");
    std::fs::create_dir(site.join("templates")).expect("dir");
    std::os::unix::fs::symlink("/dev/zero", site.join("templates/zero.toml")).expect("symlink");
    let output = siteops_within_a_minute(&["validate", "--format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(0), "warnings only");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let found: Vec<(String, String, String)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["location"]["file"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let skipped = |path: &str, kind: &str| {
        (
            "skipped-file".to_string(),
            path.to_string(),
            format!("`{path}` is {kind}, not a regular file: siteops skips it"),
        )
    };
    assert_eq!(
        found,
        [
            skipped("sites/acme/web/access.toml", "a symbolic link"),
            skipped("sites/acme/web/public.toml", "a FIFO"),
            skipped("sites/acme/web/templates/zero.toml", "a symbolic link"),
        ]
    );
}

/// A configuration file is read whole to be parsed: past 10 MiB it is an error naming it,
/// and it is not read.
#[test]
fn an_oversized_configuration_file_is_an_error_naming_it() {
    let huge = "# padding\n".repeat(10 * 1024 * 1024 / 10 + 1);
    let dir = scratch(&[
        ("sites/acme/web/site.toml", SITE),
        ("sites/acme/web/public.toml", &huge),
    ]);
    let output = siteops(&["validate", "--format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["diagnostics"],
        serde_json::json!([{
            "severity": "error",
            "code": "file-too-large",
            "message": "`sites/acme/web/public.toml` is larger than 10 MiB, the most siteops reads",
            "help": "split the file, or keep large data out of the repository",
            "location": {"file": "sites/acme/web/public.toml"}
        }])
    );
}

/// `serve --header-timeout` reaches the accept loop: a connection that sends nothing is
/// closed after it (the default, 10 s, would outlast this test's 6 s wait).
#[test]
fn serve_closes_a_silent_connection_after_its_header_timeout() {
    use std::io::Read;
    let data = tempfile::tempdir().expect("temp dir");
    let (mut child, address) =
        crate::crash::spawn_server_with(data.path(), &["--header-timeout", "1s"]);
    let mut silent = std::net::TcpStream::connect(&address).expect("connect");
    silent
        .set_read_timeout(Some(std::time::Duration::from_secs(6)))
        .expect("timeout");
    let started = std::time::Instant::now();
    let mut buffer = [0u8; 16];
    let read = silent.read(&mut buffer);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        matches!(read, Ok(0)),
        "{read:?} after {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
