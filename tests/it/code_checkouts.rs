//! The `[code]` checkouts of siteops.toml are looked at where they are used (issue 44): a
//! path with a typo, or one that names something other than a site's code, is an error of
//! `siteops validate` at its line and column, and a diagnostic of serve's live reload,
//! not a site served without its styles.

use std::path::Path;
use std::process::{Command, Output};

use siteops_live::{Live, Target, reload};

use crate::harness::TestServer;
use crate::support::example_copy;

const WEBSITE: &str = "\"acme/website\" = \"code/acme-website\"";

/// The example repository with acme/website's checkout written as `dir`.
fn with_checkout(dir: &str) -> tempfile::TempDir {
    let repo = example_copy();
    let path = repo.path().join("siteops.toml");
    let text = std::fs::read_to_string(&path).expect("siteops.toml");
    assert!(text.contains(WEBSITE), "the example maps acme/website");
    let edited = text.replace(WEBSITE, &format!("\"acme/website\" = \"{dir}\""));
    std::fs::write(&path, edited).expect("write");
    repo
}

/// `siteops validate` on `root`, on a developer's machine (`ci: false`) or a CI runner.
fn validate(root: &Path, ci: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_siteops"));
    command
        .args(["validate", "--root"])
        .arg(root)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("SITEOPS_TRANSFORM_URL")
        .env("NO_COLOR", "1");
    if ci {
        command.env("CI", "true");
    } else {
        command.env_remove("CI");
    }
    command.output().expect("siteops runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_typo_in_a_checkout_path_is_an_error_at_its_line_and_column() {
    let repo = with_checkout("code/acme-websit");
    let output = validate(repo.path(), false);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    insta::assert_snapshot!("code-checkout-typo", stdout(&output));
    // Inside the repository every clone has it: an error on CI too.
    assert_eq!(validate(repo.path(), true).status.code(), Some(1));
}

#[test]
fn a_checkout_beside_the_repository_is_an_error_here_and_a_warning_on_ci() {
    let repo = with_checkout("../boilerplat");
    let here = validate(repo.path(), false);
    assert_eq!(here.status.code(), Some(1), "{here:?}");
    assert!(
        stdout(&here).contains("error[missing-code-checkout]"),
        "{}",
        stdout(&here)
    );
    let ci = validate(repo.path(), true);
    assert_eq!(ci.status.code(), Some(0), "{ci:?}");
    assert!(
        stdout(&ci).contains("warning[missing-code-checkout]")
            && stdout(&ci).contains("not on a CI runner"),
        "{}",
        stdout(&ci)
    );
}

#[test]
fn a_directory_that_is_not_a_sites_code_is_an_error() {
    let repo = with_checkout("code/acme-website/blocks");
    let output = validate(repo.path(), false);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    assert!(
        text.contains("error[missing-code-checkout]")
            && text.contains("has neither `head.html` nor `scripts/`"),
        "{text}"
    );
    let repo_file = with_checkout("code/acme-website/head.html");
    let output = validate(repo_file.path(), false);
    assert!(
        stdout(&output).contains("is a file, not the directory"),
        "{}",
        stdout(&output)
    );
}

#[tokio::test]
async fn the_live_reload_reports_it_and_applies_once_it_is_fixed() {
    let repo = with_checkout("code/acme-websit");
    let server = TestServer::start_serving().await;
    let live = Live::new(repo.path().to_path_buf(), true);
    reload(&live, &Target::of(&server.server)).await;
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert_eq!(
            snapshot.error.as_deref(),
            Some("the repository does not validate"),
            "{}",
            snapshot.diagnostics
        );
        assert!(
            snapshot
                .diagnostics
                .contains("error[missing-code-checkout]")
                && snapshot.diagnostics.contains("siteops.toml:"),
            "{}",
            snapshot.diagnostics
        );
    }
    let path = repo.path().join("siteops.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(
        &path,
        text.replace("code/acme-websit\"", "code/acme-website\""),
    )
    .expect("write");
    reload(&live, &Target::of(&server.server)).await;
    let snapshot = live.snapshot.read().expect("snapshot");
    assert_eq!(snapshot.error, None, "{}", snapshot.diagnostics);
    assert!(
        !snapshot.diagnostics.contains("missing-code-checkout"),
        "{}",
        snapshot.diagnostics
    );
}
