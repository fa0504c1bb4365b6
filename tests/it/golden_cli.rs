//! `siteops test`: the golden cases for users who do not write Rust. Its report when
//! everything matches, when a template change makes snapshots differ (exit 1, a line
//! diff), and `--update`, which writes the files exactly as insta does.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{copy_dir, example_copy, repo_root};

fn siteops_test(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .arg("test")
        .arg("--root")
        .arg(root)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("SITEOPS_LOG")
        // Secret values come from the environment; unset, serve's own token is used.
        .env_remove("ACME_TEMPLATE_API_KEY")
        .output()
        .expect("siteops runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch copy of the repository (sites, their code checkouts) with its golden cases.
fn repository_copy() -> tempfile::TempDir {
    let dir = example_copy();
    copy_dir(&repo_root().join("golden"), &dir.path().join("golden"));
    dir
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn the_committed_snapshots_all_match() {
    let output = siteops_test(&repo_root(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!("golden-test-pass", stdout(&output));
}

#[test]
fn a_template_change_fails_with_a_diff_and_update_accepts_it() {
    let copy = repository_copy();
    let root = copy.path();
    let snapshots = root.join("golden/acme-website-worker/snapshots");
    edit(
        root,
        "sites/acme/website/templates/recipe.html",
        "<h2>Method</h2>",
        "<h2>Steps</h2>",
    );
    // A snapshot missing, and one that no page renders any more.
    let committed = std::fs::read(snapshots.join("team-jane-doe.md.snap")).expect("snapshot");
    std::fs::remove_file(snapshots.join("team-jane-doe.md.snap")).expect("remove");
    std::fs::write(
        snapshots.join("old-page.html.snap"),
        "---\nsource: tests/it/golden.rs\nexpression: x\n---\nold\n",
    )
    .expect("write");

    let failed = siteops_test(root, &["acme-website-worker"]);
    assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
    insta::assert_snapshot!("golden-test-fail", stdout(&failed));

    let updated = siteops_test(root, &["--update", "acme-website-worker"]);
    assert_eq!(updated.status.code(), Some(0), "{}", stderr(&updated));
    insta::assert_snapshot!("golden-test-update", stdout(&updated));
    // Written as insta writes it: the same bytes as the committed file.
    assert_eq!(
        std::fs::read(snapshots.join("team-jane-doe.md.snap")).expect("rewritten"),
        committed
    );
    assert!(!snapshots.join("old-page.html.snap").exists());
    let recipe = std::fs::read_to_string(snapshots.join("recipes-lemon-tart.md.snap"))
        .expect("recipe snapshot");
    assert!(recipe.contains("## Steps"), "{recipe}");

    let again = siteops_test(root, &[]);
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(
        stdout(&again).ends_with(": all match\n"),
        "{}",
        stdout(&again)
    );
}

/// The cases are rendered by several workers, each on its own server; the report is the
/// same for any number of them, differences included, in the cases' order.
#[test]
fn the_report_does_not_depend_on_the_workers() {
    let dir = repository_copy();
    edit(
        dir.path(),
        "sites/acme/website/templates/recipe.html",
        "<h2>Method</h2>",
        "<h2>Steps</h2>",
    );
    let one = siteops_test(dir.path(), &["--jobs", "1"]);
    assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
    assert!(stdout(&one).contains("differ"), "{}", stdout(&one));
    for jobs in ["2", "7", "16"] {
        let many = siteops_test(dir.path(), &["--jobs", jobs]);
        assert_eq!(many.status.code(), Some(1), "--jobs {jobs}");
        assert_eq!(stdout(&many), stdout(&one), "--jobs {jobs}");
    }
}

#[test]
fn bad_cases_are_named() {
    let copy = repository_copy();
    let root = copy.path();
    let unknown = siteops_test(root, &["no-such-case"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(
        stderr(&unknown),
        "error: no case `no-such-case` (cases: acme-blog, acme-campaigns-overlay, acme-legacy, acme-website-fallbacks, acme-website-prod, acme-website-worker, globex-docs)\n"
    );

    std::fs::write(
        root.join("golden/acme-blog/case.toml"),
        "site = \"acme/website\"\npages = [\"/stores/3f2504e0-4f89-11d3-9a0c-0305e82c3301\"]\n\n[headers]\ntenant = \"acme-eu\"\n",
    )
    .expect("write");
    let headers = siteops_test(root, &["acme-blog"]);
    assert_eq!(headers.status.code(), Some(1));
    assert!(
        stderr(&headers).starts_with(
            "error: golden/acme-blog/case.toml: `headers` is not supported: a preview sends its sources only `Authorization`"
        ),
        "{}",
        stderr(&headers)
    );

    std::fs::write(
        root.join("golden/acme-blog/case.toml"),
        "site = \"acme/nowhere\"\npages = [\"/\"]\n",
    )
    .expect("write");
    let nowhere = siteops_test(root, &["acme-blog"]);
    assert_eq!(nowhere.status.code(), Some(1));
    assert_eq!(
        stderr(&nowhere),
        "error: case acme-blog cannot be rendered\n  caused by: case acme-blog: site acme/nowhere is not in the repository\n"
    );
}

/// Issue 28: a repository that does not validate (a mock with a trailing comma) stops
/// `siteops test` with the problem, located; keeping "the last good state" is serve's
/// business, not a test run's.
#[test]
fn a_repository_that_does_not_validate_says_where_and_why() {
    let copy = repository_copy();
    let root = copy.path();
    edit(
        root,
        "sites/acme/website/mocks/mappings/page-index.json",
        "\"bodyFileName\": \"pages/index.html\"\n",
        "\"bodyFileName\": \"pages/index.html\",\n",
    );
    let output = siteops_test(root, &["acme-blog"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = stderr(&output);
    assert!(
        stderr.starts_with(
            "error: the repository cannot be applied: the repository does not validate\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("error[json-syntax]: not valid JSON: trailing comma"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--> sites/acme/website/mocks/mappings/page-index.json:16:39"),
        "{stderr}"
    );
    assert!(!stderr.contains("last good state"), "{stderr}");
}

/// `--shard K/N`: the shards of a CI matrix together run every case once.
#[test]
fn shards_split_the_cases_between_them() {
    let case_lines = |output: &Output| -> Vec<String> {
        stdout(output)
            .lines()
            .filter(|line| line.contains("): "))
            .map(str::to_string)
            .collect()
    };
    let all = siteops_test(&repo_root(), &[]);
    let mut expected = case_lines(&all);
    expected.sort();
    let mut seen = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let output = siteops_test(&repo_root(), &["--shard", shard]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let lines = case_lines(&output);
        assert!(
            stdout(&output).starts_with(&format!("shard {shard}: {} of 7 cases\n", lines.len())),
            "{}",
            stdout(&output)
        );
        seen.extend(lines);
    }
    seen.sort();
    assert_eq!(seen, expected);
    let bad = siteops_test(&repo_root(), &["--shard", "4/3"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("`4/3` is not a shard: write K/N with 1 <= K <= N"),
        "{}",
        stderr(&bad)
    );
}
