//! What the `[code]` checkouts of siteops.toml are on this machine: the look at the disk
//! behind [`Validation::check_checkouts`], for `siteops validate` and the live session
//! alike, so a typo in a checkout's path is the same error in both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use siteops_config::validate::{CheckoutContext, CheckoutState, CodeCheckout, Validation};
use siteops_server::code::CodeRepo;

/// Adds the problems of siteops.toml's checkouts under `root` to `validation`. A repository
/// in `overridden` (`serve --code`) is served from elsewhere, so its entry is not looked at.
pub fn check(
    validation: &mut Validation,
    root: &Path,
    overridden: &BTreeMap<CodeRepo, PathBuf>,
    context: CheckoutContext,
) {
    validation.check_checkouts(context, |repo, checkout| {
        if overridden.contains_key(repo) {
            CheckoutState::Code
        } else {
            state(root, checkout)
        }
    });
}

/// Whether the environment says this runs on a continuous-integration runner (`CI`, set
/// by GitHub Actions, GitLab CI and the others, to anything but `false`).
pub fn context_from_env() -> CheckoutContext {
    let continuous_integration = std::env::var_os("CI")
        .is_some_and(|value| !value.is_empty() && value != "false" && value != "0");
    CheckoutContext {
        continuous_integration,
    }
}

/// What the checkout's directory is: a site's code has `head.html` or `scripts/` at its
/// root (links followed, as serving them follows them).
fn state(root: &Path, checkout: &CodeCheckout) -> CheckoutState {
    let dir = root.join(&checkout.dir);
    match std::fs::metadata(&dir) {
        Err(_) => CheckoutState::Missing,
        Ok(meta) if !meta.is_dir() => CheckoutState::NotADirectory,
        Ok(_) if dir.join("head.html").is_file() || dir.join("scripts").is_dir() => {
            CheckoutState::Code
        }
        Ok(_) => CheckoutState::NotSiteCode,
    }
}
