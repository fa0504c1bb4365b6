//! What the platform's code sync leaves out of a site's code, so that a checkout serves
//! what the code bus would hold (helix-api-service `CodeJob`): the paths that
//! `.hlxignore` names, read as a `.gitignore` is (the platform's `IgnoreConfig` uses the
//! `ignore` package of npm, gitignore rules; here the `ignore` crate's), and the paths it
//! never syncs whatever the file says: `helix-config.json` (its own aggregate) and any
//! path with a character outside `A-Z a-z 0-9 . _ - /`. (Hidden names and
//! `node_modules`, also never synced, are refused before: [`super::CodePath`].) Pure.

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::CodePath;

/// The file, at the code's root.
pub const FILE: &str = ".hlxignore";

/// The platform's aggregate configuration, which code sync never overwrites.
const CONFIG_PATH: &str = "helix-config.json";

/// An `.hlxignore`, parsed.
#[derive(Debug)]
pub struct HlxIgnore(Gitignore);

impl HlxIgnore {
    /// The rules of `text`; a line that is no valid pattern is skipped (the platform's
    /// matcher skips what it cannot read too).
    pub fn parse(text: &str) -> HlxIgnore {
        let mut builder = GitignoreBuilder::new("");
        for line in text.lines() {
            // An invalid glob is left out; every other line stands.
            let _ = builder.add_line(None, line);
        }
        HlxIgnore(builder.build().unwrap_or_else(|_| Gitignore::empty()))
    }

    /// No rules: what a checkout without `.hlxignore` has.
    pub fn none() -> HlxIgnore {
        HlxIgnore(Gitignore::empty())
    }

    /// Whether code sync leaves `path` out: its rules, or the platform's own.
    pub fn ignores(&self, path: &CodePath) -> bool {
        let path = path.as_str();
        path == CONFIG_PATH
            || !path
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/'))
            || self.names(path)
    }

    /// Whether the file's rules name `path` (relative to the code's root, `/`-separated).
    pub fn names(&self, path: &str) -> bool {
        let path = path.trim_start_matches('/');
        !path.is_empty() && self.0.matched_path_or_any_parents(path, false).is_ignore()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignored(rules: &str, path: &str) -> bool {
        HlxIgnore::parse(rules).ignores(&CodePath::new(path).expect("path"))
    }

    /// The aem-boilerplate's `.hlxignore`, and paths as the platform's sync decides them.
    #[test]
    fn rules_match_as_gitignore_rules() {
        let boilerplate =
            ".*\n*.md\nkarma.config.js\nLICENSE\npackage.json\npackage-lock.json\ntest/*\n";
        for path in [
            "package.json",
            "README.md",
            "blocks/hero/README.md",
            "test/a.js",
            "LICENSE",
        ] {
            assert!(ignored(boilerplate, path), "{path}");
        }
        for path in [
            "scripts/scripts.js",
            "blocks/hero/hero.css",
            "head.html",
            "tests/a.js",
        ] {
            assert!(!ignored(boilerplate, path), "{path}");
        }
        assert!(ignored("docs/\n", "docs/a/b.html"));
        assert!(ignored("/tools\n", "tools/x.js"));
        assert!(!ignored("/tools\n", "blocks/tools/x.js"));
        assert!(!ignored("*.js\n!scripts/*.js\n", "scripts/aem.js"));
        assert!(ignored("*.js\n!scripts/*.js\n", "blocks/a.js"));
        assert!(!ignored("# a comment\n\n", "a.js"));
    }

    #[test]
    fn what_the_platform_never_syncs_is_left_out_without_rules() {
        let none = HlxIgnore::none();
        let ignores = |path: &str| none.ignores(&CodePath::new(path).expect("path"));
        assert!(ignores("helix-config.json"));
        assert!(ignores("fonts/My Font.woff2"));
        assert!(ignores("images/caf\u{e9}.png"));
        assert!(!ignores("fonts/roboto-bold.woff2"));
        assert!(!ignores("blocks/helix-config.json"));
    }
}
