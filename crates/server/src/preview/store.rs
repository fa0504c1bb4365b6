//! Where previews live in the [`Store`], and how they are written so that a reader never
//! sees half of one.
//!
//! Keys, under `preview/<org>/<site>/<branch>/`:
//! - `pages/<h>.json`: the record of the page whose web path hashes to `<h>` (32 hex
//!   digits of its SHA-256, so any path maps to a valid key on any file system);
//! - `pages/<h>/<revision>/<file>`: the files of one version of the page (`source.html`,
//!   `page.html`, `page.md`, `page.plain.html`, or `data.json` for a sheet); the revision
//!   is a hash of their content;
//! - `media/media_<hash>.<ext>`: the branch's images, shared by its pages;
//!
//! and `preview/<org>/<site>/usage.json`, the bytes all this holds for the site
//! ([`super::usage`]): every write and removal goes through the preview's [`Room`], so the
//! site's previews stay under their cap.
//!
//! Media are collected: a save that replaces a page removes the images its previous
//! version had and no stored page of the branch names any more, so re-previewing pages
//! whose images change does not add up (200 images of 2 MiB a preview once grew the store
//! by 400 MB each time); so does a preview that failed, with the images it wrote. An image
//! downloaded by a preview of another page that has not saved its record yet can be
//! collected in between; that page then shows it as missing until it is previewed again.
//! An image already stored is not written again.
//!
//! A save writes the revision's files first, then the record that names them (one atomic
//! put, conditional on the record it replaces), then removes the previous revision. A
//! reader reads the record, then its files; if a file has just been removed by a newer
//! save, it reads the record again. Saves of one page are serialised by the caller (the
//! service holds the page's lock); the conditional put keeps saves through two instances
//! from both removing one revision.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::images::{MediaSink, SinkError};
use super::pipeline::{Preview, PreviewBody};
use super::trace::Trace;
use super::usage::{Room, UsageError};
use crate::store::keys::{self, PreviewPage};
use crate::store::{Precondition, Store, StoreError, async_trait};

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
    org: String,
    site: String,
    branch: String,
}

impl std::fmt::Debug for BranchPreviews<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BranchPreviews")
            .field(
                "branch",
                &keys::preview_branch(&self.org, &self.site, &self.branch),
            )
            .finish()
    }
}

/// Times a save reads the page's record again after another save replaced it first.
const SAVE_ATTEMPTS: usize = 8;

impl<'a> BranchPreviews<'a> {
    pub fn new(store: &'a dyn Store, org: &str, site: &str, branch: &str) -> BranchPreviews<'a> {
        BranchPreviews {
            store,
            org: org.to_string(),
            site: site.to_string(),
            branch: branch.to_string(),
        }
    }

    /// The key of the branch's image `name`.
    fn media_key(&self, name: &str) -> keys::ImmutableKey {
        keys::preview_media(&self.org, &self.site, &self.branch, name)
    }

    /// Where a preview's images go: this branch's media, each written once and counted in
    /// `room`.
    pub fn media_sink<'b>(&'b self, room: &'b Room<'b>) -> MediaWriter<'b> {
        MediaWriter {
            previews: self,
            room,
        }
    }

    /// The keys of a page, its lock name among them.
    pub fn page(&self, web_path: &str) -> PreviewPage {
        keys::preview_page(&self.org, &self.site, &self.branch, web_path)
    }

    /// Saves a preview made at `now`, its writes counted in `room`; returns its record.
    pub async fn save(
        &self,
        preview: &Preview,
        content_bus_id: &str,
        now: &str,
        room: &Room<'_>,
    ) -> Result<PreviewRecord, UsageError> {
        self.save_when(preview, content_bus_id, now, Rewrite::Always, room)
            .await
    }

    /// Saves a preview made at `now` as [`Self::save`] does, unless `when` is
    /// [`Rewrite::IfChanged`] and the stored record already holds the same revision from the
    /// same source with the same images: then nothing is written and the stored record is
    /// returned.
    ///
    /// The room for the page's files and record is taken before anything is written, so a
    /// preview refused for room leaves the page as it was. What the save replaces (the
    /// previous revision, images no stored page names any more) is left to `room` to remove
    /// when the preview ends ([`Room::finish`]).
    pub(crate) async fn save_when(
        &self,
        preview: &Preview,
        content_bus_id: &str,
        now: &str,
        when: Rewrite,
        room: &Room<'_>,
    ) -> Result<PreviewRecord, UsageError> {
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
        let page = self.page(&preview.web_path);
        let record_key = page.record();
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
        let files_size: u64 = files.iter().map(|(_, bytes)| bytes.len() as u64).sum();
        let record_size = bytes.len() as u64;
        // What of the files and the record this save holds room for.
        let (mut files_taken, mut record_taken) = (false, false);
        let give_back = |files_taken: bool, record_taken: bool| {
            room.give_back(
                u64::from(files_taken) * files_size + u64::from(record_taken) * record_size,
            );
        };
        for _ in 0..SAVE_ATTEMPTS {
            let read = self.store.get_versioned(&record_key).await?;
            let previous = read
                .as_ref()
                .and_then(|read| parse_record(&record_key, &read.bytes));
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
                give_back(files_taken, record_taken);
                return Ok(previous.clone());
            }
            let new_files = previous
                .as_ref()
                .is_none_or(|previous| previous.revision != revision);
            // The files and the record at once, before writing either.
            let take_files = new_files && !files_taken;
            if take_files || !record_taken {
                let files = if take_files { files_size } else { 0 };
                let record = if record_taken { 0 } else { record_size };
                room.take(files + record).await?;
                files_taken |= take_files;
                record_taken = true;
            }
            if new_files {
                for (name, bytes) in &files {
                    self.store
                        .put(page.file(&revision, name).as_str(), bytes)
                        .await?;
                }
            } else if files_taken {
                // Another save stored this revision meanwhile, and counted its files.
                room.give_back(files_size);
                files_taken = false;
            }
            match self
                .store
                .put_if(&record_key, &bytes, Precondition::unchanged(read.as_ref()))
                .await
            {
                Ok(()) => {}
                // Another save replaced the record since it was read: look again.
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => {
                    give_back(false, record_taken);
                    return Err(error.into());
                }
            }
            if let Some(read) = &read {
                room.replaced(read.bytes.len() as u64);
            }
            if let Some(previous) = previous {
                if previous.revision != revision {
                    room.remove_later(
                        previous
                            .files
                            .iter()
                            .map(|file| page.file(&previous.revision, file).to_string()),
                    );
                    room.clear_later(page.revision(&previous.revision));
                }
                let dropped = previous
                    .media
                    .iter()
                    .filter(|name| !record.media.contains(name));
                let unnamed = self.unnamed(dropped, Some(&record_key)).await?;
                room.remove_later(unnamed.iter().map(|name| self.media_key(name).to_string()));
            }
            return Ok(record);
        }
        give_back(false, record_taken);
        Err(StoreError::TooBusy {
            key: record_key,
            attempts: SAVE_ATTEMPTS,
        }
        .into())
    }

    /// Leaves the preview of the page at `web_path` to `room` to remove (its files, the
    /// images no other stored page names, then its record); false when it has none.
    pub async fn delete(&self, web_path: &str, room: &Room<'_>) -> Result<bool, StoreError> {
        let Some(record) = self.load(web_path).await? else {
            return Ok(false);
        };
        let page = self.page(web_path);
        let record_key = page.record();
        room.remove_later(
            record
                .files
                .iter()
                .map(|file| page.file(&record.revision, file).to_string()),
        );
        let unnamed = self.unnamed(record.media.iter(), Some(&record_key)).await?;
        room.remove_later(unnamed.iter().map(|name| self.media_key(name).to_string()));
        // Last: until it goes, a delete again finds the page and finishes the job.
        room.remove_later([record_key]);
        room.clear_later(page.folder().to_string());
        Ok(true)
    }

    /// Leaves to `room` to remove the images its preview created that no stored page
    /// names: a preview that failed keeps nothing it wrote.
    pub(crate) async fn forget_created(&self, room: &Room<'_>) -> Result<(), StoreError> {
        let created = room.created_images();
        let unnamed = self.unnamed(created.iter(), None).await?;
        room.remove_later(unnamed.iter().map(|name| self.media_key(name).to_string()));
        Ok(())
    }

    /// Of the images `names`, those no stored page of the branch names but the one whose
    /// record is `own` (the page being replaced or removed).
    async fn unnamed<'n>(
        &self,
        names: impl Iterator<Item = &'n String>,
        own: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let mut unnamed: Vec<&String> = names.collect();
        if unnamed.is_empty() {
            return Ok(Vec::new());
        }
        let records = keys::preview_pages(&self.org, &self.site, &self.branch);
        for name in self.store.list(&records).await? {
            let key = format!("{records}/{name}");
            if !name.ends_with(".json") || Some(key.as_str()) == own {
                continue;
            }
            let Some(bytes) = self.store.get(&key).await? else {
                continue;
            };
            // A record that does not read back names nothing we can know of: keep all.
            let Ok(other) = serde_json::from_slice::<PreviewRecord>(&bytes) else {
                return Ok(Vec::new());
            };
            unnamed.retain(|name| !other.media.contains(name));
            if unnamed.is_empty() {
                break;
            }
        }
        Ok(unnamed.into_iter().cloned().collect())
    }

    /// The record of the page at `web_path`, if it has been previewed.
    pub async fn load(&self, web_path: &str) -> Result<Option<PreviewRecord>, StoreError> {
        let key = self.page(web_path).record();
        Ok(self
            .store
            .get(&key)
            .await?
            .and_then(|bytes| parse_record(&key, &bytes)))
    }

    /// The web paths of the branch's previewed pages under `folder` (`/blog/`: every page
    /// whose path starts with it; `/`: every page), sorted; at most `limit` + 1, so that a
    /// caller can tell "more than `limit`" without reading every record. Records are named
    /// by a hash of their path, so each is read: a folder is as costly as the branch.
    pub async fn under(&self, folder: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let records = keys::preview_pages(&self.org, &self.site, &self.branch);
        let mut found = Vec::new();
        for name in self.store.list(&records).await? {
            if !name.ends_with(".json") {
                continue;
            }
            let key = format!("{records}/{name}");
            let Some(bytes) = self.store.get(&key).await? else {
                continue;
            };
            if let Some(record) = parse_record(&key, &bytes)
                && record.web_path.starts_with(folder)
            {
                found.push(record.web_path);
                if found.len() > limit {
                    break;
                }
            }
        }
        found.sort();
        Ok(found)
    }

    /// The record and one of its files (`None`: not previewed, or no such file).
    pub async fn file(
        &self,
        web_path: &str,
        file: &str,
    ) -> Result<Option<(PreviewRecord, Vec<u8>)>, StoreError> {
        match self.load(web_path).await? {
            Some(record) => self.file_of(web_path, record, file).await,
            None => Ok(None),
        }
    }

    /// One file of the page at `web_path` whose record was read as `record`, with the
    /// record it belongs to. A revision's files never change, so they may come from the
    /// store's cache; if a newer save removed them meanwhile, the record is read once more.
    pub(crate) async fn file_of(
        &self,
        web_path: &str,
        record: PreviewRecord,
        file: &str,
    ) -> Result<Option<(PreviewRecord, Vec<u8>)>, StoreError> {
        let page = self.page(web_path);
        let mut record = record;
        for look in 0..2 {
            if look > 0 {
                match self.load(web_path).await? {
                    Some(again) => record = again,
                    None => return Ok(None),
                }
            }
            if !record.files.iter().any(|f| f == file) {
                return Ok(None);
            }
            let key = page.file(&record.revision, file);
            if let Some(bytes) = self.store.get_immutable(&key).await? {
                return Ok(Some((record, bytes)));
            }
        }
        Ok(None)
    }

    /// A stored image of the branch.
    pub async fn media(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.store.get_immutable(&self.media_key(name)).await
    }
}

/// The record stored under `key`, or `None` (logged) when it does not parse.
fn parse_record(key: &str, bytes: &[u8]) -> Option<PreviewRecord> {
    match serde_json::from_slice(bytes) {
        Ok(record) => Some(record),
        Err(error) => {
            tracing::error!(%key, %error, "a stored preview record does not parse");
            None
        }
    }
}

/// A preview's images into the branch's media ([`BranchPreviews::media_sink`]).
pub struct MediaWriter<'a> {
    previews: &'a BranchPreviews<'a>,
    room: &'a Room<'a>,
}

#[async_trait]
impl MediaSink for MediaWriter<'_> {
    async fn store(&self, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        let store = self.previews.store;
        let key = self.previews.media_key(name);
        let key = key.as_str();
        // The same name has the same bytes: one stored (by a page before, or by this one
        // before) is neither written nor counted again.
        if store.size(key).await?.is_some() {
            return Ok(());
        }
        let size = bytes.len() as u64;
        self.room.take(size).await.map_err(|error| match error {
            UsageError::NoRoom(refused) => SinkError::Refused(refused.to_string()),
            UsageError::Store(error) => SinkError::Store(error),
        })?;
        // Counted as this preview's before the write: a preview stopped while the write is
        // in flight (its deadline, another image refused) may have written it, and a
        // failed preview removes what it may have created.
        self.room.created(name);
        match store.put_if(key, bytes, Precondition::Absent).await {
            Ok(()) => Ok(()),
            // Another preview stored it meanwhile, and counted it.
            Err(StoreError::Conflict { .. }) => {
                self.room.not_created(name);
                self.room.give_back(size);
                Ok(())
            }
            Err(error) => {
                self.room.not_created(name);
                self.room.give_back(size);
                Err(error.into())
            }
        }
    }
}
