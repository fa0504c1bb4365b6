//! The name `siteops apply` gives the versions it writes, and what `siteops restore --to`
//! means: both come from the repository's git history, read here (the plan crate never
//! runs git nor reads the environment).
//!
//! The name is `siteops@<commit>`: `git rev-parse HEAD` of the repository root when it is
//! in a git work tree, `<sha>-dirty` when `sites/` or `siteops.toml` has uncommitted
//! changes; else `GITHUB_SHA` when set (a CI checkout without git); else
//! `siteops@uncommitted`. `--version-name` replaces it.

use std::path::Path;
use std::process::Command;

use siteops_plan::versions::applied_name;

/// The version name of an apply from the repository at `root`; `flag`: `--version-name`.
pub(super) fn version_name(root: &Path, flag: Option<&str>) -> String {
    if let Some(name) = flag {
        return name.to_string();
    }
    let commit = head(root)
        .or_else(|| {
            std::env::var("GITHUB_SHA")
                .ok()
                .map(|sha| sha.trim().to_string())
                .filter(|sha| !sha.is_empty())
        })
        .unwrap_or_else(|| "uncommitted".to_string());
    applied_name(&commit)
}

/// `HEAD`'s commit of the git work tree at `root`, with `-dirty` when the repository's
/// files there (`sites/`, `siteops.toml`) have uncommitted changes; `None` without git or
/// a work tree.
fn head(root: &Path) -> Option<String> {
    let sha = git(root, &["rev-parse", "--verify", "--quiet", "HEAD"])?;
    let status = git(
        root,
        &["status", "--porcelain", "--", "sites", "siteops.toml"],
    )?;
    Some(if status.is_empty() {
        sha
    } else {
        format!("{sha}-dirty")
    })
}

/// The commit a reference names in the git work tree at `root` (`HEAD~1`, a tag, a
/// branch, a short sha); `None` when git cannot tell.
pub(super) fn resolve(root: &Path, reference: &str) -> Option<String> {
    if reference.starts_with('-') {
        return None;
    }
    git(
        root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{reference}^{{commit}}"),
        ],
    )
}

/// What `git -C root ARGS` prints, trimmed, when it succeeds.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_names_the_version_as_given() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(version_name(dir.path(), Some("release-7")), "release-7");
        assert_eq!(resolve(dir.path(), "--output=x"), None);
    }
}
