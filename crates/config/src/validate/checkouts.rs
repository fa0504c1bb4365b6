//! The local code checkouts of siteops.toml (`[code]`): their names while validating, and
//! whether their directories hold a site's code once the caller has looked.
//!
//! Validation is pure, so it cannot look at the directories: it records where each
//! checkout is written ([`CodeCheckout`]), and [`Validation::check_checkouts`] turns what the
//! caller found on disk ([`CheckoutState`]) into diagnostics at that place. `siteops
//! validate` and the live session of `serve` both do so (`siteops_live::checkouts`), so a
//! typo in a path is an error in both, not a site served without its styles.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path};

use super::Validation;
use super::fleet::CodeOrigin;
use super::load;
use crate::diagnostic::{self, Code, Diagnostic, Location, Severity};
use crate::document::push_token;
use crate::model::code_repo::CodeRepo;

/// A `[code]` entry of siteops.toml: the directory as written (relative to the repository
/// root, or absolute) and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeCheckout {
    pub dir: String,
    pub at: Location,
}

impl CodeCheckout {
    /// Whether the directory is inside the repository, so every clone has it (a path that
    /// climbs out with `..`, or an absolute one, names something beside the repository).
    pub fn inside_repository(&self) -> bool {
        let mut depth = 0usize;
        for component in Path::new(&self.dir).components() {
            match component {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => match depth.checked_sub(1) {
                    Some(up) => depth = up,
                    None => return false,
                },
                Component::RootDir | Component::Prefix(_) => return false,
            }
        }
        true
    }
}

/// What a checkout's directory was found to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutState {
    /// A directory with a site's code: `head.html` or `scripts/`.
    Code,
    /// Nothing there (or nothing this process may read).
    Missing,
    /// A file, not a directory.
    NotADirectory,
    /// A directory with neither `head.html` nor `scripts/`: not the root of a site's code
    /// (a parent or a child of it, most likely).
    NotSiteCode,
}

/// Where the checks run: on a continuous-integration runner, a checkout beside the
/// repository (`../boilerplate`) is not there by design, and only says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckoutContext {
    pub continuous_integration: bool,
}

impl Validation {
    /// Adds a diagnostic for each checkout whose directory `state` does not find to be a
    /// site's code. `state` looks at the disk (the caller's edge); the rule is here.
    pub fn check_checkouts(
        &mut self,
        context: CheckoutContext,
        mut state: impl FnMut(&CodeRepo, &CodeCheckout) -> CheckoutState,
    ) {
        let found: Vec<Diagnostic> = self
            .checkouts
            .iter()
            .filter_map(|(repo, checkout)| problem(repo, checkout, state(repo, checkout), context))
            .collect();
        self.diagnostics.extend(found);
        diagnostic::sort(&mut self.diagnostics);
    }
}

/// The diagnostic for one checkout in the state found, if any.
fn problem(
    repo: &CodeRepo,
    checkout: &CodeCheckout,
    state: CheckoutState,
    context: CheckoutContext,
) -> Option<Diagnostic> {
    let dir = &checkout.dir;
    let (message, help) = match state {
        CheckoutState::Code => return None,
        CheckoutState::Missing => (
            format!("`{dir}` does not exist, so the code of {repo} cannot be served from it"),
            "check the path: it is relative to the repository root (the directory of siteops.toml)",
        ),
        CheckoutState::NotADirectory => (
            format!("`{dir}` is a file, not the directory of a checkout of {repo}"),
            "name the directory of the code repository's checkout",
        ),
        CheckoutState::NotSiteCode => (
            format!("`{dir}` has neither `head.html` nor `scripts/`: it is not the code of a site"),
            "name the root of the code repository's checkout (where head.html is)",
        ),
    };
    let beside = state == CheckoutState::Missing && !checkout.inside_repository();
    let (severity, help) = if beside && context.continuous_integration {
        (
            Severity::Warning,
            "a checkout beside the repository is not on a CI runner; serve and test use the code store there",
        )
    } else {
        (Severity::Error, help)
    };
    Some(
        Diagnostic::new(severity, Code::MissingCodeCheckout, message)
            .with_help(help)
            .with_location(Some(checkout.at.clone())),
    )
}

/// The `[code]` checkouts of siteops.toml: each key must be `owner/repo`, and should be
/// the code of some site.
pub(super) fn checkouts(
    loaded: &load::Loaded,
    origins: &[CodeOrigin],
    out: &mut Vec<Diagnostic>,
) -> BTreeMap<CodeRepo, CodeCheckout> {
    let mut checkouts = BTreeMap::new();
    let Some(settings) = loaded.settings.as_ref() else {
        return checkouts;
    };
    let used: HashSet<CodeRepo> = origins
        .iter()
        .filter_map(|origin| origin.code().map(CodeRepo::of))
        .collect();
    // A site.toml that did not load may well name the checkout's repository: it is
    // reported for what is wrong in it, and no checkout is called unused meanwhile.
    let all_known = loaded
        .sites
        .iter()
        .all(|site| site.site.is_some() || !site.present.contains("site.toml"));
    for (name, dir) in &settings.value.code {
        let pointer = push_token("/code", name);
        let Some(repo) = CodeRepo::parse(name) else {
            out.push(
                settings.locate(
                    Diagnostic::error(
                        Code::InvalidName,
                        format!("`{name}` is not a code repository: write it as `owner/repo`"),
                    )
                    .at_pointer(&pointer),
                ),
            );
            continue;
        };
        if all_known && !used.contains(&repo) {
            out.push(
                settings.locate(
                    Diagnostic::warning(
                        Code::UnusedCodeCheckout,
                        format!("no site's code is `{repo}`, so this checkout is never served"),
                    )
                    .at_pointer(&pointer),
                ),
            );
        }
        if checkouts.contains_key(&repo) {
            out.push(
                settings.locate(
                    Diagnostic::error(
                        Code::DuplicateKey,
                        format!("`{repo}` is mapped twice (repositories compare without case)"),
                    )
                    .at_pointer(&pointer),
                ),
            );
            continue;
        }
        let at = settings.spans.location(&pointer, false);
        checkouts.insert(
            repo,
            CodeCheckout {
                dir: dir.clone(),
                at,
            },
        );
    }
    checkouts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkout(dir: &str) -> CodeCheckout {
        CodeCheckout {
            dir: dir.into(),
            at: Location {
                file: "siteops.toml".into(),
                span: None,
            },
        }
    }

    #[test]
    fn inside_the_repository_is_told_by_the_path_alone() {
        for (dir, inside) in [
            ("code/site", true),
            ("./code/../code/site", true),
            ("code/../../site", false),
            ("../boilerplate", false),
            ("/home/me/site", false),
        ] {
            assert_eq!(checkout(dir).inside_repository(), inside, "{dir}");
        }
    }

    #[test]
    fn each_state_has_its_severity_on_a_machine_and_on_ci() {
        let repo = CodeRepo::new("tealco", "eds-site");
        let local = CheckoutContext::default();
        let ci = CheckoutContext {
            continuous_integration: true,
        };
        let severity = |dir: &str, state, context| {
            problem(&repo, &checkout(dir), state, context).map(|d| d.severity)
        };
        use CheckoutState::{Missing, NotADirectory, NotSiteCode};
        assert_eq!(severity("../boilerplat", CheckoutState::Code, local), None);
        assert_eq!(
            severity("../boilerplat", Missing, local),
            Some(Severity::Error)
        );
        assert_eq!(
            severity("../boilerplat", Missing, ci),
            Some(Severity::Warning)
        );
        // Inside the repository every clone has it, CI or not.
        assert_eq!(severity("code/site", Missing, ci), Some(Severity::Error));
        // What is there but wrong is wrong everywhere.
        assert_eq!(
            severity("../boilerplate/blocks", NotSiteCode, ci),
            Some(Severity::Error)
        );
        assert_eq!(
            severity("../README.md", NotADirectory, ci),
            Some(Severity::Error)
        );
    }
}
