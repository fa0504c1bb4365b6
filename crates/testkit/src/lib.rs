//! What a test needs that a fresh clone may not have: the reference data in `../shared`
//! beside the repository, or a tool `.ci/run` installs (Chromium, moto, an OpenID
//! provider). Where it is missing, the test says it was skipped and why, and returns;
//! under `CI` (which has everything) it fails instead, so that CI never passes by skipping.
//!
//! A dev-dependency only: no shipped crate depends on it.

use std::fmt::Display;
use std::path::{Path, PathBuf};

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/testkit is two levels below the root")
        .to_path_buf()
}

/// Whether the tests run in CI, where nothing may be skipped.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty() && value != "false")
}

/// `found`, or, when it is `None`, says on standard error that the test is skipped because
/// `missing`; under CI, fails with that reason instead.
pub fn or_skip<T>(found: Option<T>, missing: impl Display) -> Option<T> {
    if found.is_none() {
        assert!(!in_ci(), "CI must have {missing}");
        eprintln!("skipped: {missing}");
    }
    found
}

/// `../shared/<relative>` beside the repository, where it exists; otherwise the test is
/// skipped (see [`or_skip`]).
pub fn shared(relative: &str) -> Option<PathBuf> {
    let path = workspace_root().join("../shared").join(relative);
    let found = path.exists().then(|| path.clone());
    or_skip(
        found,
        format_args!(
            "{} is not beside the repository (the shared reference data; CI has it)",
            Path::new("../shared").join(relative).display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml"))
            .expect("the root has a manifest");
        assert!(manifest.contains("[workspace]"), "{manifest}");
    }

    #[test]
    fn found_things_pass_through() {
        assert_eq!(or_skip(Some(3), "nothing"), Some(3));
    }

    #[test]
    fn missing_things_skip_outside_ci_and_fail_in_it() {
        let missing = std::panic::catch_unwind(|| or_skip(None::<()>, "a tool"));
        if in_ci() {
            let message = missing.expect_err("CI fails");
            let message = message
                .downcast_ref::<String>()
                .expect("a formatted message");
            assert_eq!(message, "CI must have a tool");
        } else {
            assert_eq!(missing.ok(), Some(None));
        }
    }
}
