//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use siteops_config::diagnostic::Diagnostic;
use siteops_config::repo::RepoFiles;
use siteops_config::validate::{Options, Validation};

pub(crate) fn repo_root() -> PathBuf {
    siteops_testkit::workspace_root()
}

/// A repository in memory from `(path, content)` pairs.
pub(crate) fn repo(files: &[(&str, &[u8])]) -> RepoFiles {
    let mut repo = RepoFiles::new();
    for (path, content) in files {
        repo.insert(*path, content.to_vec());
    }
    repo
}

/// Validates as `siteops validate` does: the configuration and the mocks, through the
/// live session's own check (mock bodies as the snapshot holds them).
pub(crate) fn validate_repo(repo: &RepoFiles) -> Validation {
    let listed = |path: &str| {
        Ok::<_, std::convert::Infallible>(repo.content(path).unwrap_or_default().to_vec())
    };
    let (validation, _) = siteops_live::mocks::validate(repo, &Options::default(), listed)
        .unwrap_or_else(|never| match never {});
    validation
}

/// The compact form the case files expect: `file:line:col severity code`.
pub(crate) fn compact(diagnostic: &Diagnostic) -> String {
    let severity = match diagnostic.severity {
        siteops_config::diagnostic::Severity::Error => "error",
        siteops_config::diagnostic::Severity::Warning => "warning",
    };
    let place = match &diagnostic.location {
        Some(location) => match &location.span {
            Some(span) => format!(
                "{}:{}:{}",
                location.file, span.start.line, span.start.column
            ),
            None => location.file.clone(),
        },
        None => "-".to_string(),
    };
    format!("{place} {severity} {}", diagnostic.code)
}

/// Validates `files` and compares the diagnostics, in order, with `expected` (compact form).
/// Returns a readable account of the difference, or `None` when they match.
pub(crate) fn check(files: &[(&str, &[u8])], expected: &[String]) -> Option<String> {
    let validation = validate_repo(&repo(files));
    let actual: Vec<String> = validation.diagnostics.iter().map(compact).collect();
    if actual == expected {
        return None;
    }
    let messages: Vec<String> = validation
        .diagnostics
        .iter()
        .map(|d| format!("  {}: {}", compact(d), d.message))
        .collect();
    Some(format!(
        "expected:\n  {}\nactual:\n{}",
        expected.join("\n  "),
        messages.join("\n")
    ))
}

pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Copies the directory `from` to `to`, recursively.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A scratch copy of the example repository (`siteops.toml`, `sites/` and the sites'
/// code checkouts in `code/`).
pub(crate) fn example_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        repo_root().join("siteops.toml"),
        dir.path().join("siteops.toml"),
    )
    .expect("copy siteops.toml");
    copy_dir(&repo_root().join("sites"), &dir.path().join("sites"));
    copy_dir(&repo_root().join("code"), &dir.path().join("code"));
    dir
}

/// YAML with nested aliases (a "billion laughs") of `levels` levels, nine-fold each, after
/// `head`: 9^levels nodes once expanded.
pub(crate) fn alias_bomb(head: &str, levels: usize) -> String {
    let mut text = format!("{head}x0: &x0 [a, a, a, a, a, a, a, a, a]\n");
    for level in 1..levels {
        let refs = vec![format!("*x{}", level - 1); 9].join(", ");
        text.push_str(&format!("x{level}: &x{level} [{refs}]\n"));
    }
    text
}

/// The `node_modules` that holds the platform's configuration parser
/// (`@adobe/helix-shared-config`, with the `yaml` it parses with), and node to run it: the
/// anchors' packages (`.ci/run` installs them into `target/anchors`; `npm ci` in
/// `../shared/anchors` by hand), else the aem-cli test's, which hold it too. `None`
/// (skipped, with the reason) otherwise.
pub(crate) fn platform_config_modules() -> Option<PathBuf> {
    let root = repo_root();
    let found = [
        root.join("../shared/anchors/node_modules"),
        root.join("tests/aem-cli/node_modules"),
    ]
    .into_iter()
    .find(|modules| modules.join("@adobe/helix-shared-config").is_dir());
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    siteops_testkit::or_skip(
        found.filter(|_| node),
        "node and helix-shared-config (`npm ci` in ../shared/anchors or tests/aem-cli; \
         .ci/run installs them): the platform's configuration parser",
    )
}
