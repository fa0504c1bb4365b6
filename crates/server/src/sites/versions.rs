//! Versions of the configuration documents (a site's, a profile's, the org's), as the
//! platform keeps them: every write of a document, whole or a part, and its deletion,
//! records a version — a number one above the last, the time, who wrote it and the name
//! the write gave (`?versionName=`) — so that a client can tell who changed a document
//! since it last wrote it, and bring an earlier one back (`?restoreVersion=`).
//!
//! Per document, in its folder ([`keys::site_versions`] and its siblings): an index (the
//! last [`KEPT`] versions' numbers, names, dates and authors) and one record per version
//! (the document as that version wrote it, as stored; `null` for a deletion). Older
//! versions are dropped from the index, and their records deleted, as new ones come.
//!
//! [`record`] runs inside the section ([`crate::store::transact`]) that writes the
//! document, before the document's write: the index first (a conditional write: two
//! instances cannot both take a number), then the record, then the document. A crash
//! therefore never leaves a document without its version; it may leave a version listed
//! that the document never reached (its record holds what was being written), and when
//! another instance's write of the document comes between, the section runs again under a
//! new number, leaving that one listed too.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{SiteError, read};
use crate::store::{Store, keys};

/// How many versions of a document are kept.
pub const KEPT: usize = 100;

/// The longest version name taken, in characters.
pub const NAME_LIMIT: usize = 200;

/// One version of a document, as the index keeps it and `versions.json` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    /// Its number: one above the version before.
    pub version: u64,
    /// The name its write gave (`?versionName=`; a restore's default is `restore of <n>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When it was written (RFC 3339).
    pub created: String,
    /// Who wrote it: the token's subject (an e-mail address, or an API key's holder and
    /// id). Never a token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    /// Whether this version deleted the document.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}

/// The versions of a document kept, oldest first, and the number of the newest.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct VersionIndex {
    pub current: u64,
    pub versions: Vec<VersionInfo>,
}

/// A version's record: the document as it wrote it (`None`: it deleted the document).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct VersionRecord {
    version: u64,
    document: Option<Value>,
}

/// Which document's versions.
#[derive(Debug, Clone, Copy)]
pub enum Versioned<'a> {
    Site { org: &'a str, site: &'a str },
    Profile { org: &'a str, name: &'a str },
    Org { org: &'a str },
}

impl Versioned<'_> {
    fn folder(&self) -> String {
        match *self {
            Versioned::Site { org, site } => keys::site_versions(org, site),
            Versioned::Profile { org, name } => keys::profile_versions(org, name),
            Versioned::Org { org } => keys::org_versions(org),
        }
    }
}

/// What a write says of the version it makes: its name and who makes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Revision {
    pub name: Option<String>,
    pub by: Option<String>,
}

/// A version name as sent (`?versionName=`): at most [`NAME_LIMIT`] characters, none of
/// them a control character; `None` when it is blank (as JSON schema's `\s` reads it,
/// U+FEFF too), which names nothing: the platform's `versionName` is an optional label of
/// any text, so an empty one is taken as none. The reason when it cannot be one.
pub fn read_name(name: &str) -> Result<Option<&str>, String> {
    if name.chars().count() > NAME_LIMIT {
        return Err(format!(
            "versionName is longer than {NAME_LIMIT} characters"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("versionName holds a control character".into());
    }
    if name.chars().all(|c| c.is_whitespace() || c == '\u{feff}') {
        return Ok(None);
    }
    Ok(Some(name))
}

/// The index of `document`'s versions (empty when it has none).
pub async fn index(store: &dyn Store, document: Versioned<'_>) -> Result<VersionIndex, SiteError> {
    let key = keys::version_index(&document.folder());
    Ok(read::<VersionIndex>(store, &key).await?.unwrap_or_default())
}

/// What a version kept in the index holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// The document as it wrote it.
    Document(Value),
    /// It deleted the document.
    Deleted,
    /// Listed without its record: the write that took its number stopped (a crash, a
    /// kill) between the index and the record, so the document never reached it. Not
    /// damage: the guide's crash window, read as a version with nothing to give.
    NeverReached,
}

/// Version `version` of `document`: what the index says of it, and what it holds; `None`
/// when the version is not kept. Damaged when its record is another version's.
pub async fn version(
    store: &dyn Store,
    document: Versioned<'_>,
    version: u64,
) -> Result<Option<(VersionInfo, Recorded)>, SiteError> {
    let folder = document.folder();
    let index = index(store, document).await?;
    let Some(info) = index.versions.into_iter().find(|v| v.version == version) else {
        return Ok(None);
    };
    let key = keys::version_record(&folder, version);
    match read::<VersionRecord>(store, &key).await? {
        Some(record) if record.version == version => {
            let held = record
                .document
                .map_or(Recorded::Deleted, Recorded::Document);
            Ok(Some((info, held)))
        }
        Some(_) => Err(SiteError::Damaged {
            key,
            reason: format!("it is not version {version}'s record"),
        }),
        None => Ok(Some((info, Recorded::NeverReached))),
    }
}

/// Records the next version of `document` (`written`: the document about to be stored,
/// `None` for a deletion), through `store` (the view of the section that then writes the
/// document); its number.
pub async fn record(
    store: &dyn Store,
    document: Versioned<'_>,
    written: Option<&Value>,
    revision: &Revision,
) -> Result<u64, SiteError> {
    let folder = document.folder();
    let mut index = index(store, document).await?;
    let version = index.current + 1;
    index.current = version;
    index.versions.push(VersionInfo {
        version,
        name: revision.name.clone(),
        created: crate::time::now_rfc3339(),
        created_by: revision.by.clone(),
        deleted: written.is_none(),
    });
    let dropped: Vec<u64> = if index.versions.len() > KEPT {
        let excess = index.versions.len() - KEPT;
        index.versions.drain(..excess).map(|v| v.version).collect()
    } else {
        Vec::new()
    };
    // The index first: its write is conditional on what was read, so the number is ours.
    let bytes = serde_json::to_vec_pretty(&index).expect("JSON serializes");
    store.put(&keys::version_index(&folder), &bytes).await?;
    let record = VersionRecord {
        version,
        document: written.cloned(),
    };
    let bytes = serde_json::to_vec_pretty(&record).expect("JSON serializes");
    store
        .put(&keys::version_record(&folder, version), &bytes)
        .await?;
    for old in dropped {
        store.delete(&keys::version_record(&folder, old)).await?;
    }
    Ok(version)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::store::{FsStore, transact};

    #[test]
    fn names_are_bounded_and_printable_and_blank_ones_name_nothing() {
        assert_eq!(read_name("siteops@0123abc"), Ok(Some("siteops@0123abc")));
        assert!(read_name("restore of 3 — ok").is_ok_and(|name| name.is_some()));
        assert_eq!(read_name(""), Ok(None));
        assert_eq!(read_name("  "), Ok(None));
        assert_eq!(read_name("\u{feff}"), Ok(None));
        assert!(read_name("a\nb").is_err());
        assert!(read_name("\t").is_err());
        assert!(read_name("a\u{85}").is_err());
        assert!(read_name(&"x".repeat(NAME_LIMIT)).is_ok());
        assert!(read_name(&"x".repeat(NAME_LIMIT + 1)).is_err());
        assert!(read_name(&" ".repeat(NAME_LIMIT + 1)).is_err());
    }

    #[tokio::test]
    async fn versions_count_up_keep_the_last_ones_and_read_back() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let doc = Versioned::Site {
            org: "acme",
            site: "web",
        };
        let revision = Revision {
            name: Some("first".into()),
            by: Some("a@acme.example".into()),
        };
        for n in 0..KEPT + 3 {
            let value = serde_json::json!({ "n": n });
            let written = transact(&store, |view| {
                let (value, revision) = (&value, &revision);
                Box::pin(async move { record(view.as_ref(), doc, Some(value), revision).await })
            })
            .await
            .expect("recorded");
            assert_eq!(written, n as u64 + 1);
        }
        let index = index(store.as_ref(), doc).await.expect("index");
        assert_eq!(index.current, KEPT as u64 + 3);
        assert_eq!(index.versions.len(), KEPT);
        assert_eq!(index.versions[0].version, 4);
        assert!(
            version(store.as_ref(), doc, 3)
                .await
                .expect("read")
                .is_none()
        );
        let folder = keys::site_versions("acme", "web");
        assert!(
            store
                .get(&keys::version_record(&folder, 3))
                .await
                .expect("get")
                .is_none()
        );
        let (info, document) = version(store.as_ref(), doc, 4)
            .await
            .expect("read")
            .expect("kept");
        assert_eq!(info.name.as_deref(), Some("first"));
        assert_eq!(info.created_by.as_deref(), Some("a@acme.example"));
        assert_eq!(document, Recorded::Document(serde_json::json!({ "n": 3 })));
        // A deletion is a version without a document.
        record(store.as_ref(), doc, None, &Revision::default())
            .await
            .expect("recorded");
        let (info, document) = version(store.as_ref(), doc, KEPT as u64 + 4)
            .await
            .expect("read")
            .expect("kept");
        assert!(info.deleted && document == Recorded::Deleted);
    }

    /// A crash between the index's write and the record's leaves a version listed without
    /// its record: it reads as one the document never reached, not as damage.
    #[tokio::test]
    async fn a_listed_version_without_its_record_was_never_reached() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let doc = Versioned::Org { org: "acme" };
        for n in 0..2 {
            let value = serde_json::json!({ "n": n });
            record(store.as_ref(), doc, Some(&value), &Revision::default())
                .await
                .expect("recorded");
        }
        let folder = keys::org_versions("acme");
        store
            .delete(&keys::version_record(&folder, 2))
            .await
            .expect("deleted");
        let (info, held) = version(store.as_ref(), doc, 2)
            .await
            .expect("not damage")
            .expect("listed");
        assert_eq!((info.version, held), (2, Recorded::NeverReached));
        let (_, held) = version(store.as_ref(), doc, 1)
            .await
            .expect("read")
            .expect("listed");
        assert_eq!(held, Recorded::Document(serde_json::json!({ "n": 0 })));
    }
}
