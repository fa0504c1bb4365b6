//! Which files a code sync fetches. A raw file host cannot list a repository, so the list
//! is known in advance:
//! - the platform's well-known files, each optional: `fstab.yaml` (mountpoints),
//!   `paths.yaml` (the legacy path mapping), `head.html`, and `siteops-files.txt`;
//! - every path listed in `siteops-files.txt` (one per line, `#` starts a comment);
//! - the templates named by the branch's worker entries;
//! - less what the repository's `.hlxignore` names ([`crate::code::hlxignore`]), as the
//!   platform's code sync leaves it out.
//!
//! A listed file or template that cannot be fetched is an error of the job; a missing
//! well-known file is not.

/// The manifest of extra files, at the repository root.
pub const MANIFEST: &str = "siteops-files.txt";

/// Files fetched when present.
pub const WELL_KNOWN: [&str; 4] = ["fstab.yaml", "paths.yaml", "head.html", MANIFEST];

/// A file to fetch, and whether its absence is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub path: String,
    pub required: bool,
}

/// The paths a manifest lists, normalised (no leading `/`), without comments or blanks.
pub(crate) fn parse_manifest(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty())
        .map(|line| line.trim_start_matches('/').to_string())
        .collect()
}

/// Whether `path` may be stored: relative segments of safe characters, none hidden and
/// none `..` (a repository path never leaves its branch's folder).
pub(crate) fn is_storable(path: &str) -> bool {
    crate::store::check_key(path).is_ok()
}

/// The template paths of a worker configuration (the JSON array of entries).
pub fn templates(worker_config: &serde_json::Value) -> Vec<String> {
    worker_config
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.get("template").and_then(|t| t.as_str()))
        .filter(|t| t.starts_with('/'))
        .map(|t| t.trim_start_matches('/').to_string())
        .collect()
}

/// The whole list: well-known files, then manifest entries and templates (deduplicated).
pub fn wanted(manifest: &[String], templates: &[String]) -> Vec<Wanted> {
    let mut wanted: Vec<Wanted> = WELL_KNOWN
        .iter()
        .map(|path| Wanted {
            path: path.to_string(),
            required: false,
        })
        .collect();
    for path in manifest.iter().chain(templates) {
        if !wanted.iter().any(|w| &w.path == path) {
            wanted.push(Wanted {
                path: path.clone(),
                required: true,
            });
        }
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn manifests_ignore_comments_and_blanks() {
        let manifest =
            parse_manifest("# extra files\n/templates/a.html\n\nstyles/site.css  # styles\n");
        assert_eq!(manifest, ["templates/a.html", "styles/site.css"]);
    }

    #[test]
    fn the_list_deduplicates_and_marks_what_is_required() {
        let templates = templates(
            &json!([{"template": "/templates/a.html"}, {"template": "https://x/t.html"}, {}]),
        );
        assert_eq!(templates, ["templates/a.html"]);
        let list = wanted(&["templates/a.html".into(), "head.html".into()], &templates);
        assert_eq!(list.len(), 5);
        assert!(
            list.iter()
                .filter(|w| w.required)
                .all(|w| w.path == "templates/a.html")
        );
    }

    #[test]
    fn unsafe_paths_are_not_stored() {
        assert!(is_storable("templates/a.html"));
        for bad in ["../x", "a/../../b", ".github/workflows/x.yml", "a//b", ""] {
            assert!(!is_storable(bad), "{bad}");
        }
    }
}
