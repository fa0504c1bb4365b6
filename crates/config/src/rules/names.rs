//! The names the platform keys its documents by (orgs, sites, profiles, branches), each
//! with the platform's rule for it. A name read from a service becomes a directory or file
//! name and a URL path segment, so it is checked against these rules before either: one
//! that is not a name (`..`, `a/b`, `%2e%2e`, empty, too long) never reaches a path.

use std::fmt;

use super::{is_id, is_profile_name, is_site_name};
use crate::model::api::MAX_NAME_LEN;

/// What a name names, and so which rule it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// `[a-z0-9][a-z0-9-]*`, as the service's store keys and paths take it.
    Org,
    /// The platform's `^[a-z0-9]+(?:-[a-z0-9]+)*$`: part of the `branch--site--org` host.
    Site,
    /// The platform's `^[0-9a-zA-Z-_]+$`.
    Profile,
    /// `[a-z0-9][a-z0-9-]*`, as the worker and `transform/<branch>.toml` take it.
    Branch,
}

impl NameKind {
    /// `org`, `site`, `profile` or `branch`.
    pub fn what(self) -> &'static str {
        match self {
            NameKind::Org => "org",
            NameKind::Site => "site",
            NameKind::Profile => "profile",
            NameKind::Branch => "branch",
        }
    }

    /// The rule, as a user reads it.
    fn rule(self) -> &'static str {
        match self {
            NameKind::Org | NameKind::Branch => {
                "lowercase letters, digits and dashes, starting with a letter or digit"
            }
            NameKind::Site => "words of lowercase letters and digits joined by single dashes",
            NameKind::Profile => "letters, digits, `-` and `_`",
        }
    }

    /// Whether `name` is a name of this kind.
    pub fn accepts(self, name: &str) -> bool {
        let shaped = match self {
            NameKind::Org | NameKind::Branch => is_id(name),
            NameKind::Site => is_site_name(name),
            NameKind::Profile => is_profile_name(name),
        };
        shaped && name.len() <= MAX_NAME_LEN as usize
    }

    /// `name`, when it is a name of this kind; else why not.
    pub fn check(self, name: &str) -> Result<&str, NameError> {
        if self.accepts(name) {
            Ok(name)
        } else {
            Err(NameError {
                kind: self,
                name: name.to_string(),
            })
        }
    }
}

/// A text that is not a name of its kind. Its display quotes the text with escapes (a
/// service's answer may hold control characters meant for a terminal) and shortens a long
/// one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NameError {
    pub kind: NameKind,
    pub name: String,
}

/// The most of a refused name a message shows.
const SHOWN_CHARS: usize = 40;

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = self.kind.what();
        let shown: String = self.name.chars().take(SHOWN_CHARS).collect();
        write!(f, "invalid {what} name {shown:?}")?;
        if shown.len() < self.name.len() {
            write!(f, " (shortened; {} bytes)", self.name.len())?;
        }
        write!(
            f,
            ": {what} names are {}, at most {MAX_NAME_LEN} bytes",
            self.kind.rule()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::NameKind;

    #[test]
    fn names_follow_their_kind_s_rule() {
        let long = "a".repeat(251);
        let hostile = [
            "",
            "..",
            ".",
            "../../../x",
            "a/b",
            "%2e%2e",
            "a b",
            "a\n",
            &long,
        ];
        for kind in [
            NameKind::Org,
            NameKind::Site,
            NameKind::Profile,
            NameKind::Branch,
        ] {
            for bad in hostile {
                assert!(!kind.accepts(bad), "{kind:?} {bad:?}");
            }
            assert!(kind.accepts("web-2"), "{kind:?}");
            assert!(kind.accepts(&"a".repeat(250)), "{kind:?}");
        }
        // Each kind's own shape: the platform's site names have no double or trailing
        // dash; profiles take upper case and `_`.
        assert!(NameKind::Branch.accepts("a--b") && !NameKind::Site.accepts("a--b"));
        assert!(!NameKind::Site.accepts("web-"));
        assert!(NameKind::Profile.accepts("Shared_2") && !NameKind::Site.accepts("Shared_2"));
        assert!(!NameKind::Org.accepts("Acme") && !NameKind::Branch.accepts("Main"));
    }

    #[test]
    fn a_refused_name_is_shown_escaped_and_short() {
        let error = NameKind::Site.check("../x\u{1b}[2J").unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid site name \"../x\\u{1b}[2J\": site names are words of lowercase letters and digits joined by single dashes, at most 250 bytes"
        );
        let long = NameKind::Branch.check(&"b".repeat(300)).unwrap_err();
        assert!(
            long.to_string().starts_with(&format!(
                "invalid branch name {:?} (shortened; 300 bytes): ",
                "b".repeat(40)
            )),
            "{long}"
        );
    }
}
