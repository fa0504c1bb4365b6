//! Where previews live in the [`Store`], and how they are written so that a reader never
//! sees half of one.
//!
//! Keys, under `preview/<org>/<site>/<branch>/`:
//! - `pages/<h>.json`: the record of the page whose web path hashes to `<h>` (32 hex
//!   digits of its SHA-256, so any path maps to a valid key on any file system);
//! - `pages/<h>/<revision>/<file>`: the files of one version of the page (`source.html`,
//!   `page.html`, `page.md`, `page.plain.html`, or `data.json` for a sheet); the revision
//!   is a hash of their content;
//! - `media/media_<hash>.<ext>`: the branch's images, shared by its pages.
//!
//! Media are collected: a save that replaces a page deletes the images its previous
//! version had and no stored page of the branch names any more, so re-previewing pages
//! whose images change does not add up (200 images of 2 MiB a preview once grew the store
//! by 400 MB each time). An image downloaded by a preview of another page that has not
//! saved its record yet can be collected in between; that page then shows it as missing
//! until it is previewed again.
//!
//! A save writes the revision's files first, then the record that names them (one atomic
//! put), then removes the previous revision. A reader reads the record, then its files; if
//! a file has just been removed by a newer save, it reads the record again. Saves of one
//! page are serialised by the caller (the service holds the page's lock).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::images::MediaSink;
use super::pipeline::{Preview, PreviewBody};
use super::trace::Trace;
use crate::store::{Store, StoreError};

pub const SOURCE: &str = "source.html";
pub const PAGE: &str = "page.html";
pub const MARKDOWN: &str = "page.md";
pub const PLAIN: &str = "page.plain.html";
pub const JSON: &str = "data.json";

/// What is known about a previewed page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRecord {
    pub web_path: String,
    pub resource_path: String,
    /// `page` or `json`.
    pub kind: String,
    pub revision: String,
    /// The files of the revision.
    pub files: Vec<String>,
    /// `overlay` or `primary`.
    pub source: String,
    pub source_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_last_modified: Option<String>,
    /// When the preview was made (RFC 3339).
    pub last_modified: String,
    pub content_bus_id: String,
    pub media: Vec<String>,
    pub trace: Trace,
    pub warnings: Vec<String>,
}

impl PreviewRecord {
    pub fn is_json(&self) -> bool {
        self.kind == "json"
    }
}

/// Whether [`BranchPreviews::save_when`] writes a preview the store already holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rewrite {
    /// A preview asked for: its record says when it was made.
    Always,
    /// A page previewed because it was viewed (in `serve`): a view of an unchanged page
    /// writes nothing, so views cannot add writes (2,000 views wrote 2,000 records).
    IfChanged,
}

/// The previews of one branch of a site.
#[derive(Clone)]
pub struct BranchPreviews<'a> {
    store: &'a dyn Store,
    prefix: String,
}

impl std::fmt::Debug for BranchPreviews<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BranchPreviews")
            .field("prefix", &self.prefix)
            .finish()
    }
}

impl<'a> BranchPreviews<'a> {
    pub fn new(store: &'a dyn Store, org: &str, site: &str, branch: &str) -> BranchPreviews<'a> {
        BranchPreviews {
            store,
            prefix: format!("preview/{org}/{site}/{branch}"),
        }
    }

    /// The lock name (for [`crate::store::KeyedLocks`]) and record key of a page.
    pub fn page_key(&self, web_path: &str) -> String {
        format!(
            "{}/pages/{}",
            self.prefix,
            hex::encode(&Sha256::digest(web_path.as_bytes())[..16])
        )
    }

    /// Saves a preview made at `now`; returns its record.
    pub fn save(
        &self,
        preview: &Preview,
        content_bus_id: &str,
        now: &str,
    ) -> Result<PreviewRecord, StoreError> {
        self.save_when(preview, content_bus_id, now, Rewrite::Always)
    }

    /// Saves a preview made at `now` as [`Self::save`] does, unless `when` is
    /// [`Rewrite::IfChanged`] and the stored record already holds the same revision from the
    /// same source with the same images: then nothing is written and the stored record is
    /// returned.
    pub fn save_when(
        &self,
        preview: &Preview,
        content_bus_id: &str,
        now: &str,
        when: Rewrite,
    ) -> Result<PreviewRecord, StoreError> {
        let files: Vec<(&str, &[u8])> = match &preview.body {
            PreviewBody::Json(json) => vec![(JSON, json)],
            PreviewBody::Page { source, converted } => {
                let mut files: Vec<(&str, &[u8])> =
                    vec![(SOURCE, source), (PAGE, converted.html.as_bytes())];
                if let Some(markdown) = &converted.markdown {
                    files.push((MARKDOWN, markdown.as_bytes()));
                }
                if let Some(plain) = &converted.plain_html {
                    files.push((PLAIN, plain.as_bytes()));
                }
                files
            }
        };
        let mut hasher = Sha256::new();
        for (name, bytes) in &files {
            hasher.update(name.as_bytes());
            hasher.update((bytes.len() as u64).to_be_bytes());
            hasher.update(bytes);
        }
        let revision = hex::encode(&hasher.finalize()[..16]);
        let page_key = self.page_key(&preview.web_path);
        let previous = self.load(&preview.web_path)?;
        if when == Rewrite::IfChanged
            && let Some(previous) = previous.as_ref().filter(|previous| {
                previous.revision == revision
                    && previous.source == preview.source.name()
                    && previous.source_url == preview.source_url.as_str()
                    && previous.content_bus_id == content_bus_id
                    && previous
                        .media
                        .iter()
                        .eq(preview.media.iter().map(|m| &m.name))
            })
        {
            return Ok(previous.clone());
        }
        for (name, bytes) in &files {
            self.store
                .put(&format!("{page_key}/{revision}/{name}"), bytes)?;
        }
        let record = PreviewRecord {
            web_path: preview.web_path.clone(),
            resource_path: preview.resource_path.clone(),
            kind: if matches!(preview.body, PreviewBody::Json(_)) {
                "json"
            } else {
                "page"
            }
            .into(),
            revision: revision.clone(),
            files: files.iter().map(|(name, _)| name.to_string()).collect(),
            source: preview.source.name().into(),
            source_url: preview.source_url.to_string(),
            source_last_modified: preview.source_last_modified.clone(),
            last_modified: now.to_string(),
            content_bus_id: content_bus_id.to_string(),
            media: preview.media.iter().map(|m| m.name.clone()).collect(),
            trace: preview.trace.clone(),
            warnings: preview.warnings.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&record).expect("records serialize");
        self.store.put(&format!("{page_key}.json"), &bytes)?;
        if let Some(previous) = previous {
            if previous.revision != revision {
                self.store
                    .delete_all(&format!("{page_key}/{}", previous.revision))?;
            }
            self.collect_media(&previous, &record)?;
        }
        Ok(record)
    }

    /// Deletes the images `previous` named that neither `current` (the page's new record)
    /// nor any other stored page of the branch names.
    fn collect_media(
        &self,
        previous: &PreviewRecord,
        current: &PreviewRecord,
    ) -> Result<(), StoreError> {
        let mut dropped: Vec<&String> = previous
            .media
            .iter()
            .filter(|name| !current.media.contains(name))
            .collect();
        if dropped.is_empty() {
            return Ok(());
        }
        let own = format!("{}.json", self.page_key(&current.web_path));
        let records = format!("{}/pages", self.prefix);
        for name in self.store.list(&records)? {
            let key = format!("{records}/{name}");
            if !name.ends_with(".json") || key == own {
                continue;
            }
            let Some(bytes) = self.store.get(&key)? else {
                continue;
            };
            // A record that does not read back names nothing we can know of: keep all.
            let Ok(other) = serde_json::from_slice::<PreviewRecord>(&bytes) else {
                return Ok(());
            };
            dropped.retain(|name| !other.media.contains(name));
            if dropped.is_empty() {
                return Ok(());
            }
        }
        for name in dropped {
            self.store
                .delete(&format!("{}/media/{name}", self.prefix))?;
        }
        Ok(())
    }

    /// The record of the page at `web_path`, if it has been previewed.
    pub fn load(&self, web_path: &str) -> Result<Option<PreviewRecord>, StoreError> {
        let key = format!("{}.json", self.page_key(web_path));
        let Some(bytes) = self.store.get(&key)? else {
            return Ok(None);
        };
        match serde_json::from_slice(&bytes) {
            Ok(record) => Ok(Some(record)),
            Err(error) => {
                tracing::error!(%key, %error, "a stored preview record does not parse");
                Ok(None)
            }
        }
    }

    /// The record and one of its files (`None`: not previewed, or no such file).
    pub fn file(
        &self,
        web_path: &str,
        file: &str,
    ) -> Result<Option<(PreviewRecord, Vec<u8>)>, StoreError> {
        // A second look covers a save that replaced the revision between the two reads.
        for _ in 0..2 {
            let Some(record) = self.load(web_path)? else {
                return Ok(None);
            };
            if !record.files.iter().any(|f| f == file) {
                return Ok(None);
            }
            let key = format!("{}/{}/{file}", self.page_key(web_path), record.revision);
            if let Some(bytes) = self.store.get(&key)? {
                return Ok(Some((record, bytes)));
            }
        }
        Ok(None)
    }

    /// A stored image of the branch.
    pub fn media(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.store.get(&format!("{}/media/{name}", self.prefix))
    }
}

impl MediaSink for BranchPreviews<'_> {
    fn store(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.store
            .put(&format!("{}/media/{name}", self.prefix), bytes)
    }
}
