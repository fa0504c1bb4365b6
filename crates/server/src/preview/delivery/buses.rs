//! The platform's two buses over what siteops holds: the content bus is the branch's
//! previewed pages (each page's stored markdown by its `.md` resource path, each sheet's
//! JSON by its `.json` path), the code bus the site's code ([`SiteCode`]: a checkout, else
//! the code store).
//!
//! Redirects: the platform's admin, when `/redirects.json` is previewed, stores each of
//! its rows as a redirect on the content bus object of its source (which then answers
//! 301 wherever it is asked for, page or not). Here the previewed sheet is read at the
//! view instead, so a page asked for whose path is a `Source` of the sheet answers a
//! redirect to its `Destination`, before any stored page of that path, as on the platform.
//!
//! The records a view needs first (the page's, the metadata and redirects sheets') are
//! read with the site's document, in one round trip to the store ([`prefetch`]); a
//! revision's files are immutable and come from the store's cache on a repeated view.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use siteops_delivery::{Bus, BusObject, Buses, Fetched};

use super::cache::{Reads, RecordVersion};
use crate::code::{CodePath, CodeRepo, SiteCode};
use crate::preview::store::{self, BranchPreviews, PreviewRecord};
use crate::preview::url::PagePath;
use crate::store::{Store, StoreError};

/// Where the platform's admin reads redirects from.
pub const REDIRECTS: &str = "/redirects.json";

/// Records read ahead, by web path (`None`: read, and not previewed).
pub type Prefetched = BTreeMap<String, Option<PreviewRecord>>;

/// Reads the records of `web_paths` together.
pub async fn prefetch(
    store: &dyn Store,
    (org, site, branch): (&str, &str, &str),
    web_paths: &[String],
) -> Result<Prefetched, StoreError> {
    let previews = BranchPreviews::new(store, org, site, branch);
    let reads = web_paths.iter().map(|path| previews.load(path));
    let records = futures_util::future::join_all(reads).await;
    web_paths
        .iter()
        .cloned()
        .zip(records)
        .map(|(path, record)| Ok((path, record?)))
        .collect()
}

/// The destination the branch's previewed redirects sheet gives `web_path`, if any: what
/// the live session asks before previewing a page on view (a redirect wins over the
/// source, which has no page there).
pub async fn stored_redirect(
    store: &dyn Store,
    (org, site, branch): (&str, &str, &str),
    web_path: &str,
) -> Result<Option<String>, StoreError> {
    let previews = BranchPreviews::new(store, org, site, branch);
    let Some((record, sheet)) = previews.file(REDIRECTS, store::JSON).await? else {
        return Ok(None);
    };
    Ok(record
        .is_json()
        .then(|| redirect_in(&sheet, web_path))
        .flatten())
}

/// The buses of one site on one branch, for one request.
pub struct SiteBuses {
    store: Arc<dyn Store>,
    code: Arc<SiteCode>,
    org: String,
    site: String,
    branch: String,
    repo: Option<CodeRepo>,
    /// Records read so far in this request: the pipeline may ask for one twice (a page,
    /// then its redirect), and the store is asked once.
    records: Mutex<Prefetched>,
    /// What the render read, by version: what a kept render is checked against.
    reads: Mutex<Reads>,
}

impl SiteBuses {
    /// The org whose site these buses read: its renders share the org's turns.
    pub(crate) fn org(&self) -> &str {
        &self.org
    }

    pub fn new(
        store: Arc<dyn Store>,
        code: Arc<SiteCode>,
        (org, site, branch): (&str, &str, &str),
        repo: Option<CodeRepo>,
        prefetched: Prefetched,
    ) -> SiteBuses {
        SiteBuses {
            store,
            code,
            org: org.to_owned(),
            site: site.to_owned(),
            branch: branch.to_owned(),
            repo,
            records: Mutex::new(prefetched),
            reads: Mutex::default(),
        }
    }

    /// (org, site, branch) of these buses.
    pub(crate) fn site(&self) -> (&str, &str, &str) {
        (&self.org, &self.site, &self.branch)
    }

    /// What was read through these buses so far.
    pub(crate) fn reads(&self) -> Reads {
        self.reads.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether what `reads` logged reads the same now: every record at the same version,
    /// every code file with the same bytes (a failed read is a change).
    pub(crate) async fn read_alike(&self, reads: &Reads) -> bool {
        for (web_path, version) in &reads.records {
            match self.record(web_path).await {
                Ok(record) => {
                    if record.as_ref().map(version_of) != *version {
                        return false;
                    }
                }
                Err(_) => return false,
            }
        }
        for (path, digest) in &reads.code {
            let _ = self.code(path).await;
            let now = self.reads.lock().unwrap_or_else(|p| p.into_inner());
            if now.failed || now.code.get(path) != Some(digest) {
                return false;
            }
        }
        true
    }

    fn logged(&self, log: impl FnOnce(&mut Reads)) {
        log(&mut self.reads.lock().unwrap_or_else(|p| p.into_inner()));
    }

    fn previews(&self) -> BranchPreviews<'_> {
        BranchPreviews::new(self.store.as_ref(), &self.org, &self.site, &self.branch)
    }

    async fn record(&self, web_path: &str) -> Result<Option<PreviewRecord>, StoreError> {
        let record = self.read_record(web_path).await;
        self.logged(|reads| match &record {
            Ok(record) => {
                reads
                    .records
                    .insert(web_path.to_owned(), record.as_ref().map(version_of));
            }
            Err(_) => reads.failed = true,
        });
        record
    }

    async fn read_record(&self, web_path: &str) -> Result<Option<PreviewRecord>, StoreError> {
        let known = self
            .records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(web_path)
            .cloned();
        if let Some(record) = known {
            return Ok(record);
        }
        let record = self.previews().load(web_path).await?;
        self.records
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(web_path.to_owned(), record.clone());
        Ok(record)
    }

    /// A file of the previewed page or sheet at `web_path`, when it is of the kind asked.
    async fn stored(&self, web_path: &str, json: bool) -> Result<Option<BusObject>, StoreError> {
        let Some(record) = self.record(web_path).await? else {
            return Ok(None);
        };
        if record.is_json() != json {
            return Ok(None);
        }
        let file = if json { store::JSON } else { store::MARKDOWN };
        let last_modified = crate::time::http_date(&record.last_modified);
        Ok(self
            .previews()
            .file_of(web_path, record, file)
            .await?
            .map(|(_, body)| BusObject {
                body,
                redirect_location: None,
                last_modified,
            }))
    }

    /// The destination the previewed redirects sheet gives `web_path`, if any.
    async fn redirect(&self, web_path: &str) -> Result<Option<String>, StoreError> {
        if web_path == REDIRECTS {
            return Ok(None);
        }
        let Some(sheet) = self.stored(REDIRECTS, true).await? else {
            return Ok(None);
        };
        Ok(redirect_in(&sheet.body, web_path))
    }

    async fn content(&self, path: &str) -> Result<Option<BusObject>, StoreError> {
        let json = path.ends_with(".json");
        if !json && !path.ends_with(".md") {
            return Ok(None);
        }
        let Ok(page) = PagePath::parse(path) else {
            return Ok(None);
        };
        let web_path = page.web_path();
        if !json && let Some(location) = self.redirect(&web_path).await? {
            return Ok(Some(BusObject {
                redirect_location: Some(location),
                ..BusObject::default()
            }));
        }
        self.stored(&web_path, json).await
    }

    async fn code(&self, path: &str) -> Fetched {
        let (Some(repo), Ok(code_path)) = (&self.repo, CodePath::from_request(path)) else {
            self.logged(|reads| reads.code_read(path, None));
            return Fetched::NotFound;
        };
        let read = (self.code)
            .read(&self.org, repo, &self.branch, &code_path)
            .await;
        self.logged(|reads| match &read {
            Ok(file) => reads.code_read(path, file.as_ref().map(|f| f.bytes.as_slice())),
            Err(_) => reads.failed = true,
        });
        match read {
            Ok(Some(file)) => Fetched::Found(BusObject {
                body: file.bytes,
                ..BusObject::default()
            }),
            Ok(None) => Fetched::NotFound,
            Err(error) => Fetched::Failed(error.to_string()),
        }
    }
}

impl Buses for SiteBuses {
    async fn get(&self, bus: Bus, path: &str) -> Fetched {
        match bus {
            Bus::Code => self.code(path).await,
            Bus::Content => match self.content(path).await {
                Ok(Some(object)) => Fetched::Found(object),
                Ok(None) => Fetched::NotFound,
                Err(error) => Fetched::Failed(error.to_string()),
            },
        }
    }
}

/// The version of a record: what a kept render read.
fn version_of(record: &PreviewRecord) -> RecordVersion {
    RecordVersion {
        revision: record.revision.clone(),
        last_modified: record.last_modified.clone(),
    }
}

/// The `Destination` of the row of a redirects sheet (its JSON as stored: one sheet, or
/// the `default` sheet of several) whose `Source` is `web_path`. Column names are matched
/// without regard to case; a source is a page path as a page is previewed (`/a/index`
/// and `/a/` are one).
pub fn redirect_in(sheet: &[u8], web_path: &str) -> Option<String> {
    let json: Value = serde_json::from_slice(sheet).ok()?;
    let rows = json
        .get("default")
        .unwrap_or(&json)
        .get("data")?
        .as_array()?;
    let cell = |row: &Value, name: &str| -> Option<String> {
        row.as_object()?
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .and_then(|(_, value)| value.as_str())
            .map(str::trim)
            .filter(|value| !value.is_empty())
            .map(str::to_owned)
    };
    rows.iter().find_map(|row| {
        let source = cell(row, "source")?;
        let source = PagePath::parse(&source).ok()?.web_path();
        (source == web_path).then(|| cell(row, "destination"))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redirect_is_found_by_its_source_page() {
        let sheet = br#"{"total":3,"data":[
            {"Source":"/old","Destination":"/new"},
            {"source":"/docs/index","destination":"https://example.com/docs"},
            {"Source":"/empty","Destination":""}],":type":"sheet"}"#;
        assert_eq!(redirect_in(sheet, "/old").as_deref(), Some("/new"));
        assert_eq!(
            redirect_in(sheet, "/docs/").as_deref(),
            Some("https://example.com/docs")
        );
        assert_eq!(redirect_in(sheet, "/empty"), None);
        assert_eq!(redirect_in(sheet, "/new"), None);
        let several =
            br#"{"default":{"data":[{"Source":"/a","Destination":"/b"}]},":type":"multi-sheet"}"#;
        assert_eq!(redirect_in(several, "/a").as_deref(), Some("/b"));
        assert_eq!(redirect_in(b"not json", "/a"), None);
    }
}
