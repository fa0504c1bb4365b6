//! The binary as users run it: output formats, exit codes, files written.

use std::process::{Command, Output};

use crate::support::repo_root;

fn siteops(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .current_dir(repo_root())
        .output()
        .expect("siteops runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const BROKEN: &str = "tests/fixtures/broken";

#[test]
fn validate_passes_on_the_example_sites() {
    let output = siteops(&["validate"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "no problems found (6 sites checked)\n");
}

#[test]
fn validate_explains_worker_examples() {
    let output = siteops(&["validate", "--explain"]);
    assert_eq!(output.status.code(), Some(0));
    insta::assert_snapshot!("validate-explain", stdout(&output));
}

/// `--explain --format json` carries what the human output explains: each worker example
/// and each site's effective configuration over its profile.
#[test]
fn validate_explains_in_json_too() {
    let output = siteops(&["validate", "--explain", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let sites: Vec<&str> = (document["effective"].as_array().expect("effective"))
        .iter()
        .filter_map(|e| e["site"].as_str())
        .collect();
    assert_eq!(sites, ["acme/blog", "acme/campaigns"]);
    assert!(!document["explain"].as_array().expect("explain").is_empty());
    insta::assert_json_snapshot!("validate-explain-json-effective", document["effective"]);
}

#[test]
fn validate_human_output_quotes_the_source() {
    let output = siteops(&["validate", "--root", BROKEN]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("validate-human", stdout(&output));
}

/// Issue 28: each mistake once, where it is, saying how to fix it: the mocks and the
/// templates as serve reads them, a typo of a required key, an entry's errors not repeated
/// by its examples, carets on the `{{idd}}` and the `(`, a URL without its scheme, an
/// endpoint quoted as written, a duplicate key with its first definition, an optional
/// value's type in TOML's words.
#[test]
fn validate_reports_each_mistake_once_where_it_is() {
    let output = siteops(&["validate", "--root", "tests/fixtures/findings"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("validate-findings", stdout(&output));
}

#[test]
fn validate_json_output_is_versioned() {
    let output = siteops(&["validate", "--root", BROKEN, "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(document["version"], 1);
    insta::assert_json_snapshot!("validate-json", document);
}

#[test]
fn validate_github_output_is_workflow_annotations() {
    let output = siteops(&["validate", "--root", BROKEN, "--format", "github"]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("validate-github", stdout(&output));
}

#[test]
fn warnings_fail_only_with_deny_warnings() {
    let root = "tests/fixtures/warnings";
    assert_eq!(
        siteops(&["validate", "--root", root]).status.code(),
        Some(0)
    );
    assert_eq!(
        siteops(&["validate", "--root", root, "--deny-warnings"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn compile_writes_one_file_per_body_and_replaces_its_own_output() {
    let temp = tempfile::tempdir().expect("temp dir");
    let out = temp.path().join("out");
    let out_arg = out.to_str().expect("utf-8 path");
    let output = siteops(&["compile", "--redact", "--out", out_arg]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let site: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("acme/sites/website.json")).expect("site body"),
    )
    .expect("JSON");
    assert_eq!(site["version"], 1);
    assert!(out.join("transform/acme/website/main.json").is_file());
    std::fs::write(out.join("stale.json"), "{}").expect("write");
    assert_eq!(
        siteops(&["compile", "--redact", "--out", out_arg])
            .status
            .code(),
        Some(0)
    );
    assert!(
        !out.join("stale.json").exists(),
        "a second run replaces the whole output"
    );
}

#[test]
fn compile_refuses_to_replace_a_directory_it_did_not_write() {
    let temp = tempfile::tempdir().expect("temp dir");
    std::fs::write(temp.path().join("precious.txt"), "keep").expect("write");
    let output = siteops(&[
        "compile",
        "--redact",
        "--out",
        temp.path().to_str().expect("utf-8"),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("refusing to replace"),
        "{}",
        stderr(&output)
    );
    assert!(temp.path().join("precious.txt").exists());
}

#[test]
fn compile_without_a_secret_variable_fails_and_names_it() {
    let output = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["compile"])
        .current_dir(repo_root())
        .env_remove("ACME_GIT_SYNC_SECRET")
        .env("ACME_TEMPLATE_API_KEY", "k")
        .env("NO_COLOR", "1")
        .output()
        .expect("siteops runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("environment variable `ACME_GIT_SYNC_SECRET` is not set"));
    assert!(
        output.stdout.is_empty(),
        "nothing is printed when compilation fails"
    );
}

#[test]
fn schema_check_passes_on_the_checked_in_schemas() {
    let output = siteops(&["schema", "--check"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

#[test]
fn a_missing_sites_directory_is_a_clear_error() {
    let output = siteops(&["validate", "--root", "tests"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error: tests has no `sites/` directory; pass --root with the repository that holds your sites\n"
    );
}

#[test]
fn usage_errors_exit_1_not_2() {
    assert_eq!(
        siteops(&["validate", "--format", "xml"]).status.code(),
        Some(1)
    );
    assert_eq!(siteops(&["--help"]).status.code(), Some(0));
}

#[test]
fn template_render_prints_exactly_the_render() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path();
    std::fs::create_dir(dir.join("partials")).expect("dir");
    std::fs::write(
        dir.join("page.html"),
        "<h1>{{title}}</h1>{{#items}}\n  {{> item}}\n{{/items}}{{> missing}}",
    )
    .expect("write");
    std::fs::write(dir.join("partials/item.mustache"), "<li>{{name}}</li>\n").expect("write");
    std::fs::write(
        dir.join("data.json"),
        r#"{"title": "A & B", "items": [{"name": "x/y"}, {"name": 2}]}"#,
    )
    .expect("write");
    let arg = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let output = siteops(&[
        "template",
        "render",
        &arg("page.html"),
        &arg("data.json"),
        "--partials",
        &arg("partials"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // As mustache.js 4.2 renders it: `{{#items}}` shares its line, so its newline stays;
    // the standalone partial line is indented and its own newline dropped.
    assert_eq!(
        stdout(&output),
        "<h1>A &amp; B</h1>\n  <li>x&#x2F;y</li>\n\n  <li>2</li>\n"
    );
}

#[test]
fn template_render_errors_name_the_file_line_and_column() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path();
    std::fs::write(dir.join("bad.html"), "ok\n  {{#list}}x{{/other}}").expect("write");
    std::fs::write(dir.join("data.json"), "{\n  \"a\": [1,\n}").expect("write");
    std::fs::write(dir.join("good.html"), "{{a}}").expect("write");
    let arg = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let bad_template = siteops(&["template", "render", &arg("bad.html"), &arg("data.json")]);
    assert_eq!(bad_template.status.code(), Some(1));
    assert!(
        stderr(&bad_template).contains("bad.html:2:13: Unclosed section \"list\""),
        "{}",
        stderr(&bad_template)
    );
    let bad_data = siteops(&["template", "render", &arg("good.html"), &arg("data.json")]);
    assert_eq!(bad_data.status.code(), Some(1));
    assert!(
        stderr(&bad_data).contains("data.json:3:1: invalid JSON"),
        "{}",
        stderr(&bad_data)
    );
}

/// Completion scripts come from the command line's declaration: every subcommand is in
/// them, and bash parses its script.
#[test]
fn completions_cover_every_command_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let output = siteops(&["completions", shell]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let script = stdout(&output);
        for command in [
            "validate", "plan", "apply", "serve", "ingest", "mocks", "test",
        ] {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        assert!(script.contains("transform-url"), "{shell}");
        // Only what --help shows: not the hidden `man`, nor the deprecated `--transform`.
        let words: Vec<&str> = script
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .collect();
        assert!(!words.contains(&"man"), "{shell}: offers the hidden `man`");
        assert!(
            !words.contains(&"--transform") && !script.contains("-l transform "),
            "{shell}: offers the deprecated `--transform`"
        );
    }
    let scratch = tempfile::tempdir().unwrap();
    let script = scratch.path().join("siteops.bash");
    std::fs::write(&script, stdout(&siteops(&["completions", "bash"]))).unwrap();
    if let Ok(bash) = Command::new("bash").arg("-n").arg(&script).output() {
        assert!(
            bash.status.success(),
            "{}",
            String::from_utf8_lossy(&bash.stderr)
        );
    }
    let unknown = siteops(&["completions", "powershell-9"]);
    assert_eq!(unknown.status.code(), Some(1));
}

/// `siteops man` (behind `cargo xtask man`) writes a page for the tool and each command.
#[test]
fn man_pages_for_the_tool_and_each_command() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().to_str().unwrap();
    let output = siteops(&["man", "--out", out]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let page = |name: &str| {
        std::fs::read_to_string(scratch.path().join(format!("{name}.1")))
            .unwrap_or_else(|_| panic!("no {name}.1"))
    };
    assert!(page("siteops").contains(".TH siteops 1"));
    let plan = page("siteops-plan");
    assert!(plan.contains(".TH siteops-plan 1"), "{plan}");
    assert!(plan.contains("transform\\-url"), "{plan}");
    for name in [
        "siteops-validate",
        "siteops-serve",
        "siteops-mocks-record",
        "siteops-template-render",
    ] {
        assert!(page(name).starts_with(".ie"), "{name}");
    }
}

/// Issue 27, finding 14: a second `serve` on the data directory of a running one refuses
/// to start, naming the directory and `--store`; the first one goes on serving.
#[test]
fn a_second_serve_on_one_data_directory_refuses_to_start() {
    let repo = crate::support::example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let first = crate::serve_process::Serve::start(repo.path(), data.path());
    let mut second = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["serve", "--no-repo", "--port", "0", "--data"])
        .arg(data.path())
        .env("SITEOPS_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("siteops serve starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = second.try_wait().expect("wait") {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = second.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let output = second.wait_with_output().expect("output");
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(1),
        "still serving: {error}"
    );
    assert!(
        error.contains(&data.path().display().to_string()) && error.contains("--store"),
        "{error}"
    );
    let healthy = std::net::TcpStream::connect(("127.0.0.1", first.port)).and_then(|mut s| {
        use std::io::{Read, Write};
        s.write_all(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n")?;
        let mut answer = String::new();
        s.read_to_string(&mut answer).map(|_| answer)
    });
    assert!(healthy.expect("answered").starts_with("HTTP/1.1 200"));
}

/// Issue 27, finding 13: `serve --listen` binds the address given (127.0.0.2 here, still
/// loopback), answers there, and the start-up summary says whether private sources are
/// fetched: refused by default with an `--allowed-host`, allowed on loopback alone.
#[test]
fn serve_listens_where_told_and_says_which_sources_it_fetches() {
    use std::io::{BufRead, BufReader, Read, Write};
    for (extra, expected) in [
        (&[][..], "fetched: loopback only"),
        (
            &["--allowed-host", "siteops.acme.example", "--no-sign-in"][..],
            "refused: reached beyond loopback",
        ),
    ] {
        let data = tempfile::tempdir().expect("data dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_siteops"))
            .args(["serve", "--no-repo", "--listen", "127.0.0.2:0", "--data"])
            .arg(data.path())
            .args(extra)
            .env("SITEOPS_LOG", "warn")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("siteops serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, received) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        // The summary, up to the line about private sources (10 s at most).
        let mut lines = Vec::new();
        while let Ok(line) = received.recv_timeout(std::time::Duration::from_secs(10)) {
            let last = line.trim_start().starts_with("private sources");
            lines.push(line);
            if last {
                break;
            }
        }
        let summary = lines.join("\n");
        let addr = lines
            .first()
            .and_then(|line| line.strip_prefix("siteops serve: listening on http://127.0.0.2:"))
            .and_then(|port| port.trim().parse::<u16>().ok())
            .map(|port| std::net::SocketAddr::from(([127, 0, 0, 2], port)));
        let answer = addr.map(|addr| {
            let mut stream = std::net::TcpStream::connect(addr).expect("connect");
            stream
                .write_all(b"GET /readyz HTTP/1.1\r\nhost: 127.0.0.2\r\nconnection: close\r\n\r\n")
                .expect("write");
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            answer
        });
        let _ = child.kill();
        let _ = child.wait();
        assert!(addr.is_some(), "{summary}");
        assert!(
            answer
                .as_deref()
                .is_some_and(|a| a.starts_with("HTTP/1.1 200")),
            "{answer:?}"
        );
        let sources = lines
            .iter()
            .find(|line| line.trim_start().starts_with("private sources"))
            .unwrap_or_else(|| panic!("{summary}"));
        assert!(sources.contains(expected), "{extra:?}: {sources}");
    }
}

/// `siteops token` where no server keeps its data (outside the repository root, say)
/// refuses, and says where it looked and why, instead of making a data directory and a key
/// of its own whose tokens no server takes.
#[test]
fn a_token_is_never_signed_by_a_key_no_server_uses() {
    let scratch = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(["token", "--email", "ops@acme.example"])
        .current_dir(scratch.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("siteops runs");
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert_eq!(stdout(&output), "");
    let message = stderr(&output);
    assert!(
        message.contains("no data directory at ./.siteops/data")
            && message.contains("run token where serve runs"),
        "{message}"
    );
    assert!(!scratch.path().join(".siteops").exists());
}
