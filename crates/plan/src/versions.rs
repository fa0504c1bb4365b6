//! Versions of the configuration documents, as a service lists them (`versions.json`),
//! and what siteops reads in them: apply names each version it writes after the commit it
//! applies ([`applied_name`], `siteops@<commit>`), so a newest version with another name
//! was written by someone else since ([`drift`]), and `siteops restore` finds the version
//! a commit wrote ([`written_by`]). Pure.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::plan::{Change, SERVER_MANAGED, changes};
use siteops_config::compile::ResourceKind;

/// What apply's version names start with.
pub const APPLIED_PREFIX: &str = "siteops@";

/// The fewest hex digits of a commit `siteops restore --to` matches on.
pub const MIN_COMMIT_DIGITS: usize = 7;

/// One version of a document: its number, name, date and author, as the service lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentVersion {
    pub version: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
}

/// A document's versions (`versions.json`): the newest's number and the versions kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionList {
    #[serde(default)]
    pub current: u64,
    #[serde(default)]
    pub versions: Vec<DocumentVersion>,
}

impl VersionList {
    /// The newest version listed (the list's order is not relied on).
    pub fn newest(&self) -> Option<&DocumentVersion> {
        self.versions.iter().max_by_key(|v| v.version)
    }
}

/// The version name apply gives a write of `commit` (`siteops@<commit>`).
pub fn applied_name(commit: &str) -> String {
    format!("{APPLIED_PREFIX}{commit}")
}

/// Whether a version was written by apply (named `siteops@…`).
pub fn is_applied(version: &DocumentVersion) -> bool {
    version
        .name
        .as_deref()
        .is_some_and(|name| name.starts_with(APPLIED_PREFIX))
}

/// The newest version, when someone other than apply wrote it: the document changed on
/// the service since the last apply.
pub fn drift(list: &VersionList) -> Option<DocumentVersion> {
    list.newest().filter(|v| !is_applied(v)).cloned()
}

/// `version 3 at 2026-11-28T10:00:00Z by ops@acme.example ("hotfix")`: a version as a
/// plan says it.
pub fn describe(version: &DocumentVersion) -> String {
    let mut text = format!("version {}", version.version);
    if let Some(created) = &version.created {
        text.push_str(&format!(" at {created}"));
    }
    if let Some(by) = &version.created_by {
        text.push_str(&format!(" by {by}"));
    }
    if let Some(name) = &version.name {
        text.push_str(&format!(" ({})", serde_json::Value::String(name.clone())));
    }
    text
}

/// A commit as `--to` may give it: at least [`MIN_COMMIT_DIGITS`] hex digits, matched as
/// a prefix, lowercased; `None` otherwise.
pub fn commit_prefix(text: &str) -> Option<String> {
    let text = text.trim();
    (text.len() >= MIN_COMMIT_DIGITS && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| text.to_ascii_lowercase())
}

/// The newest version apply wrote from a commit starting with `prefix` (a version of a
/// tree with changes, `siteops@<sha>-dirty`, is one of that commit too).
pub fn written_by<'a>(list: &'a VersionList, prefix: &str) -> Option<&'a DocumentVersion> {
    list.versions
        .iter()
        .filter(|v| {
            v.name
                .as_deref()
                .and_then(|name| name.strip_prefix(APPLIED_PREFIX))
                .is_some_and(|sha| sha.to_ascii_lowercase().starts_with(prefix))
        })
        .max_by_key(|v| v.version)
}

/// The newest version named exactly `name`.
pub fn named<'a>(list: &'a VersionList, name: &str) -> Option<&'a DocumentVersion> {
    list.versions
        .iter()
        .filter(|v| v.name.as_deref() == Some(name))
        .max_by_key(|v| v.version)
}

/// What restoring a version changes of a document of `kind` (`current`: as it is now,
/// `None` when it is gone), field by field, masked: the version's configuration, without
/// the dates the service stamps and the secrets and API key records a restore keeps.
pub fn restore_changes(
    kind: &ResourceKind,
    current: Option<&Value>,
    version: &Value,
) -> Vec<Change> {
    let comparable = |document: &Value| {
        let mut document = document.clone();
        if let Value::Object(map) = &mut document {
            for field in SERVER_MANAGED.iter().chain(&["secrets", "apiKeys"]) {
                map.remove(*field);
            }
        }
        document
    };
    let current = current.map_or(Value::Object(Default::default()), comparable);
    changes(kind, &current, &comparable(version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(n: u64, name: Option<&str>) -> DocumentVersion {
        DocumentVersion {
            version: n,
            name: name.map(str::to_string),
            created: Some(format!("2026-11-28T10:0{n}:00.000Z")),
            created_by: Some("ops@acme.example".into()),
        }
    }

    fn list(versions: Vec<DocumentVersion>) -> VersionList {
        VersionList {
            current: versions.iter().map(|v| v.version).max().unwrap_or(0),
            versions,
        }
    }

    #[test]
    fn a_newest_version_not_written_by_apply_is_drift() {
        let applied = list(vec![version(2, Some("siteops@abc1234")), version(1, None)]);
        assert_eq!(drift(&applied), None);
        let changed = list(vec![
            version(2, Some("siteops@abc1234")),
            version(3, Some("hotfix")),
        ]);
        assert_eq!(drift(&changed), Some(version(3, Some("hotfix"))));
        assert_eq!(drift(&VersionList::default()), None);
        assert_eq!(
            describe(&version(3, Some("hotfix"))),
            "version 3 at 2026-11-28T10:03:00.000Z by ops@acme.example (\"hotfix\")"
        );
        let bare = DocumentVersion {
            version: 4,
            name: None,
            created: None,
            created_by: None,
        };
        assert_eq!(describe(&bare), "version 4");
    }

    #[test]
    fn a_restore_shows_the_configuration_it_brings_back_not_the_service_s_parts() {
        let current = serde_json::json!({
            "version": 1, "lastModified": "b", "content": {"source": {"url": "https://new"}},
            "secrets": {"k": {"hash": "x"}},
        });
        let old = serde_json::json!({
            "version": 1, "lastModified": "a", "content": {"source": {"url": "https://old"}},
            "secrets": {"k": {"hash": "y"}}, "apiKeys": {"k1": {}},
        });
        let changes = restore_changes(&ResourceKind::Site, Some(&current), &old);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "/content/source/url");
        assert!(restore_changes(&ResourceKind::Site, Some(&old), &old).is_empty());
    }

    #[test]
    fn a_commit_finds_the_newest_version_it_wrote() {
        let versions = list(vec![
            version(1, Some("siteops@abcdef0123")),
            version(2, Some("siteops@abcdef0123-dirty")),
            version(3, Some("siteops@1234567890")),
            version(4, Some("restore of 1")),
        ]);
        assert_eq!(commit_prefix("ABCDEF0"), Some("abcdef0".into()));
        assert_eq!(commit_prefix("abc"), None);
        assert_eq!(commit_prefix("main"), None);
        let found = written_by(&versions, "abcdef0").map(|v| v.version);
        assert_eq!(found, Some(2));
        assert_eq!(written_by(&versions, "1234567").map(|v| v.version), Some(3));
        assert_eq!(written_by(&versions, "fffffff"), None);
        assert_eq!(named(&versions, "restore of 1").map(|v| v.version), Some(4));
        assert_eq!(applied_name("abc"), "siteops@abc");
    }
}
