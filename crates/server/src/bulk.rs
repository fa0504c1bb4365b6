//! Bulk preview jobs: `POST /preview/<org>/<site>/<branch>/*` with a list of paths previews
//! (or removes the previews of) many pages in one request, as the platform's bulk preview
//! does, in the background; the job's record says how far it got.
//!
//! Why a job and not one long request: a fleet change (a header or metadata rule) touches
//! hundreds of pages, and a client asking for each page is held to the hosted service's
//! rate (10 a second); one request and a few polls are not.
//!
//! - A path ending in `/*` is every page of the branch already previewed under that folder
//!   (`/*`: every page), read from the stored records: a markup source cannot be listed.
//!   Any other path is that page, previewed whether or not it was before.
//! - Bounded: at most [`MAX_RESOURCES`] paths per request and pages per job (400 over,
//!   or the job stops with an error when folders hold more), [`AT_ONCE`] pages at a time
//!   (each through the one preview pipeline, with its deadline and the org's turns), at
//!   most [`UNFINISHED_PER_BRANCH`] jobs unfinished per branch (409 beyond), the newest
//!   [`KEPT_STOPPED`] stopped records kept.
//! - Records live in the store ([`keys::preview_job`]), so any instance sharing it answers
//!   a job's status. A job runs only in the instance that took the request; it saves its
//!   record at least every [`SAVE_EVERY`], and a record unfinished and unsaved for
//!   [`STALE_AFTER`] (its instance stopped) reads as `stopped`, with what was done and why.
//!   It is not started again: ask for the paths again.
//!
//! The pages are previewed by the caller's function ([`run`]'s `act`), the route's, so this
//! module knows the store and the paths, not how a page is previewed.

use std::collections::BTreeSet;
use std::future::Future;
use std::time::Duration;

use futures_util::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::codesync::job::{JobState, Progress};
use crate::preview::PagePath;
use crate::preview::store::BranchPreviews;
use crate::sites::SiteError;
use crate::store::{Store, StoreError, keys};

/// Most paths in one request, and most pages one job previews (the platform caps its bulk
/// jobs too).
pub const MAX_RESOURCES: usize = 1000;
/// Longest path in a request.
pub const MAX_PATH_LEN: usize = 1024;
/// Pages a job previews at a time.
pub const AT_ONCE: usize = 4;
/// Jobs of one branch that may be unfinished at once.
pub const UNFINISHED_PER_BRANCH: usize = 2;
/// Stopped job records kept per branch (the newest).
pub const KEPT_STOPPED: usize = 20;
/// Longest a running job goes without saving its record.
pub const SAVE_EVERY: Duration = Duration::from_secs(5);
/// Seconds after its last save an unfinished job reads as stopped.
pub const STALE_AFTER: u64 = 60;

/// The body of a bulk preview.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct BulkRequest {
    /// Page paths (`/en/`, `/metadata.json`), or folders (`/blog/*`, `/*`): every page of
    /// the branch previewed under it.
    #[schemars(
        length(min = 1, max = 1000),
        inner(length(min = 1, max = 1024), regex(pattern = "^/"))
    )]
    pub paths: Vec<String>,
    /// Write a page's preview even when it did not change.
    #[serde(rename = "forceUpdate", default)]
    pub force_update: bool,
    /// Remove the previews instead.
    #[serde(default)]
    pub delete: bool,
}

/// One path of a request, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Page(PagePath),
    /// Every previewed page whose web path starts with this (`/blog/`, `/`).
    Folder(String),
}

/// Why a request cannot become a job: the route answers 400 (409 for [`BulkError::Busy`]).
#[derive(Debug, thiserror::Error)]
pub enum BulkError {
    #[error("no paths: send {{\"paths\": [\"/a\", \"/folder/*\"]}}")]
    Empty,
    #[error("{0} paths: at most {MAX_RESOURCES} in one bulk preview")]
    TooMany(usize),
    #[error(
        "path `{0}`: paths start with `/`, are at most {MAX_PATH_LEN} bytes, and have `*` only as a last segment"
    )]
    BadPath(String),
    #[error("{0} bulk preview jobs of this branch are unfinished: wait for one to stop")]
    Busy(usize),
    #[error(transparent)]
    Store(#[from] SiteError),
}

/// The paths of `request`, checked, in order, without repeats.
pub fn targets(request: &BulkRequest) -> Result<Vec<Target>, BulkError> {
    if request.paths.is_empty() {
        return Err(BulkError::Empty);
    }
    if request.paths.len() > MAX_RESOURCES {
        return Err(BulkError::TooMany(request.paths.len()));
    }
    let mut out: Vec<Target> = Vec::new();
    for path in &request.paths {
        let bad = || BulkError::BadPath(path.chars().take(100).collect());
        if !path.starts_with('/') || path.len() > MAX_PATH_LEN {
            return Err(bad());
        }
        let target = match path.strip_suffix('*') {
            Some(folder) if folder.ends_with('/') => {
                if folder.contains('*') {
                    return Err(bad());
                }
                let folder = PagePath::parse(folder).map_err(|_| bad())?;
                Target::Folder(folder.web_path())
            }
            _ if path.contains('*') => return Err(bad()),
            _ => Target::Page(PagePath::parse(path).map_err(|_| bad())?),
        };
        if !out.contains(&target) {
            out.push(target);
        }
    }
    Ok(out)
}

/// What a job was asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct JobData {
    /// The paths as asked.
    pub paths: Vec<String>,
    #[serde(rename = "forceUpdate")]
    pub force_update: bool,
    pub delete: bool,
    /// Each page's result (`…/details` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<PageResult>")]
    pub resources: Option<Vec<PageResult>>,
}

/// What became of one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PageResult {
    /// The page's web path.
    pub path: String,
    /// 200 (previewed), 204 (removed), or the status its preview failed with.
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub error: Option<String>,
}

/// A bulk preview job, as stored (`jobs/<org>/<site>/<branch>/preview/<name>.json`) and answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PreviewJob {
    /// Always `preview`.
    pub topic: String,
    pub name: String,
    pub state: JobState,
    pub org: String,
    pub site: String,
    pub branch: String,
    #[serde(rename = "createTime")]
    pub create_time: String,
    #[serde(rename = "startTime", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub start_time: Option<String>,
    #[serde(rename = "stopTime", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub stop_time: Option<String>,
    /// `total`: the pages, once folders are read; `failed` counts among `processed`.
    pub progress: Progress,
    pub data: JobData,
    /// Why the job stopped before its pages were done (too many pages, interrupted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub error: Option<String>,
    /// When the instance running it last saved it (seconds since the epoch).
    pub heartbeat: u64,
}

impl PreviewJob {
    /// A job, `created`, for `request` on a branch; its name sorts by creation and cannot
    /// be guessed (64 random bits).
    pub fn new(org: &str, site: &str, branch: &str, request: &BulkRequest) -> PreviewJob {
        let mut random = [0u8; 8];
        // Without randomness the clock still makes names unique enough; they are not secrets.
        let _ = getrandom::fill(&mut random);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        PreviewJob {
            topic: "preview".into(),
            name: format!("job-{:013}-{}", now.as_millis(), hex::encode(random)),
            state: JobState::Created,
            org: org.into(),
            site: site.into(),
            branch: branch.into(),
            create_time: crate::time::now_rfc3339(),
            start_time: None,
            stop_time: None,
            progress: Progress::default(),
            data: JobData {
                paths: request.paths.clone(),
                force_update: request.force_update,
                delete: request.delete,
                resources: None,
            },
            error: None,
            heartbeat: crate::time::now_seconds(),
        }
    }

    fn key(&self) -> String {
        keys::preview_job(&self.org, &self.site, &self.branch, &self.name)
    }

    fn details_key(&self) -> String {
        keys::preview_job_details(&self.org, &self.site, &self.branch, &self.name)
    }

    /// The job as a reader at `now` (seconds) sees it: one unfinished and unsaved for
    /// [`STALE_AFTER`] was interrupted (its instance stopped), and reads as stopped.
    pub fn as_seen(mut self, now: u64) -> PreviewJob {
        if self.state != JobState::Stopped && now.saturating_sub(self.heartbeat) > STALE_AFTER {
            self.state = JobState::Stopped;
            self.error = Some(format!(
                "interrupted: the instance running it stopped (no progress saved for {STALE_AFTER} s); {} of {} pages were done",
                self.progress.processed, self.progress.total
            ));
        }
        self
    }

    /// A job name as the routes take it; others name no job.
    pub fn is_name(name: &str) -> bool {
        name.len() <= crate::sites::MAX_NAME_LEN
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    }
}

/// Saves the job's record, and its pages' results when given.
async fn save(
    store: &dyn Store,
    job: &mut PreviewJob,
    results: Option<&[PageResult]>,
) -> Result<(), StoreError> {
    job.heartbeat = crate::time::now_seconds();
    if let Some(results) = results {
        let bytes = serde_json::to_vec(results).expect("results serialize");
        store.put(&job.details_key(), &bytes).await?;
    }
    let bytes = serde_json::to_vec_pretty(job).expect("jobs serialize");
    store.put(&job.key(), &bytes).await
}

/// A job's record as seen now ([`PreviewJob::as_seen`]).
pub async fn load(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
    name: &str,
) -> Result<Option<PreviewJob>, SiteError> {
    if !PreviewJob::is_name(name) {
        return Ok(None);
    }
    let job: Option<PreviewJob> =
        crate::sites::read(store, &keys::preview_job(org, site, branch, name)).await?;
    Ok(job.map(|job| job.as_seen(crate::time::now_seconds())))
}

/// A job's record with each page's result so far (`data.resources`).
pub async fn details(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
    name: &str,
) -> Result<Option<PreviewJob>, SiteError> {
    let Some(mut job) = load(store, org, site, branch, name).await? else {
        return Ok(None);
    };
    let results: Option<Vec<PageResult>> = crate::sites::read(store, &job.details_key()).await?;
    job.data.resources = Some(results.unwrap_or_default());
    Ok(Some(job))
}

/// The branch's jobs, newest first (names sort by creation).
pub async fn list(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
) -> Result<Vec<PreviewJob>, SiteError> {
    let mut jobs = Vec::new();
    let folder = keys::preview_jobs(org, site, branch);
    for name in crate::sites::names_newest_first(store, &folder).await? {
        if let Some(job) = load(store, org, site, branch, &name).await? {
            jobs.push(job);
        }
    }
    Ok(jobs)
}

/// Saves `job` as created, when the branch has room for one more unfinished job
/// ([`UNFINISHED_PER_BRANCH`]); removes stopped records past the newest [`KEPT_STOPPED`].
/// Two instances admitting at once may each let one more in: the bound is a fairness
/// bound, not a safety one (each job is bounded by itself).
pub async fn admit(store: &dyn Store, job: &mut PreviewJob) -> Result<(), BulkError> {
    let jobs = list(store, &job.org, &job.site, &job.branch).await?;
    let unfinished = jobs.iter().filter(|j| j.state != JobState::Stopped).count();
    if unfinished >= UNFINISHED_PER_BRANCH {
        return Err(BulkError::Busy(unfinished));
    }
    for old in jobs
        .iter()
        .filter(|j| j.state == JobState::Stopped)
        .skip(KEPT_STOPPED - 1)
    {
        let removed = async {
            store.delete(&old.key()).await?;
            let folder = keys::preview_job_folder(&old.org, &old.site, &old.branch, &old.name);
            store.delete_all(&folder).await
        };
        if let Err(error) = removed.await {
            tracing::warn!(%error, job = %old.name, "cannot remove an old bulk preview job");
        }
    }
    save(store, job, Some(&[]))
        .await
        .map_err(|e| BulkError::Store(e.into()))
}

/// Why one page was not previewed: the status the single preview would have answered.
#[derive(Debug, Clone)]
pub struct Failure {
    pub status: u16,
    pub message: String,
}

/// Runs `job` (admitted) to its end: reads the folders' pages, then does `act` to each
/// page, [`AT_ONCE`] at a time, saving the record as it goes. `act` gets a page and
/// answers the status it ended with (200 previewed, 204 removed) or why it failed.
pub async fn run<F, Fut>(store: &dyn Store, mut job: PreviewJob, targets: Vec<Target>, act: F)
where
    F: Fn(PagePath) -> Fut,
    Fut: Future<Output = Result<u16, Failure>>,
{
    job.state = JobState::Running;
    job.start_time = Some(crate::time::now_rfc3339());
    if let Err(error) = save(store, &mut job, None).await {
        tracing::error!(%error, job = %job.name, "cannot save a bulk preview job");
    }
    let mut results = Vec::new();
    match pages(store, &job, &targets).await {
        Ok(pages) => {
            job.progress.total = pages.len();
            let work = futures_util::stream::iter(pages.into_iter().map(|page| {
                let path = page.web_path();
                let done = act(page);
                async move { (path, done.await) }
            }))
            .buffered(AT_ONCE);
            futures_util::pin_mut!(work);
            let mut last_save = tokio::time::Instant::now();
            let mut tick = tokio::time::interval(SAVE_EVERY);
            loop {
                tokio::select! {
                    next = work.next() => {
                        let Some((path, done)) = next else { break };
                        job.progress.processed += 1;
                        results.push(match done {
                            Ok(status) => PageResult { path, status, error: None },
                            Err(failure) => {
                                job.progress.failed += 1;
                                PageResult { path, status: failure.status, error: Some(failure.message) }
                            }
                        });
                    }
                    _ = tick.tick() => {}
                }
                if last_save.elapsed() >= SAVE_EVERY / 5 {
                    last_save = tokio::time::Instant::now();
                    if let Err(error) = save(store, &mut job, Some(&results)).await {
                        tracing::warn!(%error, job = %job.name, "cannot save a bulk preview job's progress");
                    }
                }
            }
        }
        Err(error) => job.error = Some(error),
    }
    job.state = JobState::Stopped;
    job.stop_time = Some(crate::time::now_rfc3339());
    if let Err(error) = save(store, &mut job, Some(&results)).await {
        tracing::error!(%error, job = %job.name, "cannot save a stopped bulk preview job");
    }
}

/// The pages of `targets`: each page, and the previewed pages of each folder, in order,
/// without repeats; an error when they are more than [`MAX_RESOURCES`].
async fn pages(
    store: &dyn Store,
    job: &PreviewJob,
    targets: &[Target],
) -> Result<Vec<PagePath>, String> {
    let previews = BranchPreviews::new(store, &job.org, &job.site, &job.branch);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let too_many = || {
        format!(
            "the paths hold more than {MAX_RESOURCES} pages: ask for smaller folders, in several jobs"
        )
    };
    for target in targets {
        let found = match target {
            Target::Page(page) => vec![page.clone()],
            Target::Folder(folder) => previews
                .under(folder, MAX_RESOURCES)
                .await
                .map_err(|error| format!("cannot read the previewed pages: {error}"))?
                .iter()
                .filter_map(|path| PagePath::parse(path).ok())
                .collect(),
        };
        for page in found {
            if seen.insert(page.web_path()) {
                out.push(page);
                if out.len() > MAX_RESOURCES {
                    return Err(too_many());
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(paths: &[&str]) -> BulkRequest {
        BulkRequest {
            paths: paths.iter().map(|p| p.to_string()).collect(),
            force_update: false,
            delete: false,
        }
    }

    #[test]
    fn paths_are_pages_or_folders() {
        let got = targets(&request(&[
            "/en/",
            "/blog/*",
            "/*",
            "/metadata.json",
            "/en/",
        ]))
        .expect("valid");
        assert_eq!(
            got,
            vec![
                Target::Page(PagePath::parse("/en/").expect("page")),
                Target::Folder("/blog/".into()),
                Target::Folder("/".into()),
                Target::Page(PagePath::parse("/metadata.json").expect("page")),
            ]
        );
        for bad in ["en", "/a*", "/a/*/b", "/*/*", "/a/../b", "/a/%2F/b"] {
            assert!(
                matches!(targets(&request(&[bad])), Err(BulkError::BadPath(_))),
                "{bad}"
            );
        }
        assert!(matches!(targets(&request(&[])), Err(BulkError::Empty)));
        let many: Vec<String> = (0..=MAX_RESOURCES).map(|i| format!("/p{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(matches!(
            targets(&request(&many)),
            Err(BulkError::TooMany(1001))
        ));
    }

    #[test]
    fn an_unfinished_job_left_unsaved_reads_as_stopped() {
        let mut job = PreviewJob::new("acme", "web", "main", &request(&["/*"]));
        job.state = JobState::Running;
        job.progress.total = 10;
        job.progress.processed = 3;
        let seen = job.clone().as_seen(job.heartbeat + 5);
        assert_eq!(seen.state, JobState::Running);
        let seen = job.clone().as_seen(job.heartbeat + STALE_AFTER + 1);
        assert_eq!(seen.state, JobState::Stopped);
        assert!(seen.error.as_deref().is_some_and(|e| e.contains("3 of 10")));
        assert!(PreviewJob::is_name(&job.name));
        assert_ne!(
            job.name,
            PreviewJob::new("acme", "web", "main", &request(&["/*"])).name
        );
    }
}
