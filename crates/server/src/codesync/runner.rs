//! Runs code sync jobs: one at a time per org/site/branch, each in its own task. The job
//! record is saved at every step, so a reader (and a restart) sees its progress.
//!
//! A job is this instance's while it holds the job's [`lease`]: taken when the job is
//! made, renewed while it waits and runs, given up when it stops. [`CodeSync::adopt`],
//! at start and then every half lease, runs again the unfinished jobs whose lease ended:
//! those of an instance that died, this one's own before a restart included.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use url::Url;

use super::code_key;
use super::files::{self, Wanted};
use super::job::{self, FileError, Job, JobState, Progress, Trigger};
use super::lease::{self, Held};
use crate::code::hlxignore::{self, HlxIgnore};
use crate::preview::Transport;
use crate::preview::redirect;
use crate::sites::{self, SiteError};
use crate::store::{KeyedLocks, Store, StoreError, keys};
use crate::time::now_rfc3339;
use siteops_config::model::api::CodeConfig;

/// Stopped job records kept per branch (the newest); older ones are removed when a job
/// is enqueued, so replayed or frequent triggers cannot fill the store.
pub const KEPT_STOPPED: usize = 20;
/// Webhook deliveries remembered, to ignore one received again (a replay).
const REMEMBERED_DELIVERIES: usize = 4096;
/// How long a delivery is remembered.
const DELIVERY_MEMORY: Duration = Duration::from_secs(24 * 3600);
/// Largest code file fetched.
pub const FILE_LIMIT: usize = 5 * 1024 * 1024;
/// Longest one file's fetch may take, redirects included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// Redirects followed for one file.
const MAX_REDIRECTS: usize = 5;
/// How long a job's lease lasts unless renewed: `SITEOPS_JOB_LEASE_SECONDS`, 30 by default.
/// A dead instance's jobs are taken over this long after its last renewal.
fn lease_time() -> Duration {
    let seconds = std::env::var("SITEOPS_JOB_LEASE_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&s| s >= 1)
        .unwrap_or(30);
    Duration::from_secs(seconds)
}

pub struct CodeSync {
    store: Arc<dyn Store>,
    /// The server's one way out (the previews' too): guarded name resolution, no proxy,
    /// no redirects of its own; the mocks in `--offline`.
    transport: Arc<dyn Transport>,
    running: KeyedLocks,
    /// The job waiting for its turn, per `org/site/branch`: a trigger meanwhile joins it.
    /// Held while a trigger decides, so two cannot both make a job.
    waiting: tokio::sync::Mutex<HashMap<String, Job>>,
    sequence: AtomicU64,
    /// Digests of the signed bodies of recent webhook deliveries, oldest first.
    deliveries: Mutex<VecDeque<([u8; 32], Instant)>>,
    /// Turns to run, over every site ([`crate::quota::Quotas::concurrent_sync_jobs`]).
    slots: Arc<tokio::sync::Semaphore>,
    /// This instance, as a lease names its holder.
    instance: String,
    lease_time: Duration,
    /// The jobs this instance has taken (by store key): never adopted again meanwhile.
    taken: Mutex<std::collections::HashSet<String>>,
}

#[derive(Debug, thiserror::Error)]
pub enum EnqueueError {
    #[error(transparent)]
    Store(#[from] SiteError),
}

/// A trigger's job: a new one, or the branch's queued one, which has not started and so
/// will fetch what the trigger announced (triggers coalesce: at most one job waits).
#[derive(Debug, Clone)]
pub struct Enqueued {
    pub job: Job,
    pub coalesced: bool,
}

impl From<StoreError> for EnqueueError {
    fn from(error: StoreError) -> EnqueueError {
        EnqueueError::Store(error.into())
    }
}

/// What a job needs to fetch: the code block and the credentials for its raw host (a
/// public `github` repository needs none), which go only to the origin they were issued
/// for ([`sites::repos::SyncSecret::may_go_to`], checked before the job starts).
struct Source {
    code: CodeConfig,
    raw_url: String,
    secret: Option<String>,
}

impl CodeSync {
    /// Code sync over `store`, fetching through `transport`, at most `concurrent_jobs`
    /// jobs running at once.
    pub fn new(
        store: Arc<dyn Store>,
        transport: Arc<dyn Transport>,
        concurrent_jobs: usize,
    ) -> CodeSync {
        CodeSync {
            store,
            transport,
            running: KeyedLocks::default(),
            waiting: tokio::sync::Mutex::default(),
            sequence: AtomicU64::new(0),
            deliveries: Mutex::default(),
            slots: Arc::new(tokio::sync::Semaphore::new(concurrent_jobs.max(1))),
            instance: {
                let mut id = [0u8; 8];
                let _ = getrandom::fill(&mut id);
                format!("instance-{}", hex::encode(id))
            },
            lease_time: lease_time(),
            taken: Mutex::default(),
        }
    }

    /// How often [`CodeSync::adopt`] should look for jobs to take over.
    pub(crate) fn adopt_every(&self) -> Duration {
        self.lease_time / 2
    }

    /// Runs again the unfinished jobs whose lease ended (their instance died, or this one
    /// restarted), taking their leases; how many it took.
    pub(crate) async fn adopt(self: &Arc<Self>) -> Result<usize, SiteError> {
        let store = self.store.as_ref();
        let mut adopted = 0;
        // The orgs' folders of jobs (`jobs/<org>`).
        for org in store.list("jobs").await? {
            for site in store.list(&keys::jobs(&org)).await? {
                for branch in store.list(&keys::site_jobs(&org, &site)).await? {
                    for job in job::list(store, &org, &site, &branch).await? {
                        if job.state == JobState::Stopped || self.is_taken(&job) {
                            continue;
                        }
                        let Some(held) =
                            lease::claim(store, &job, &self.instance, self.lease_time).await?
                        else {
                            continue;
                        };
                        tracing::info!(job = %job.name, "taking over a code sync job whose instance stopped");
                        self.start(job, held);
                        adopted += 1;
                    }
                }
            }
        }
        Ok(adopted)
    }

    fn is_taken(&self, job: &Job) -> bool {
        self.taken
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&job.key())
    }

    /// Runs `job` in the background under `held`, renewing it until the job stops.
    fn start(self: &Arc<Self>, job: Job, held: Held) {
        self.taken
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(job.key());
        let runner = Arc::clone(self);
        tokio::spawn(async move {
            let renewing = runner.clone().renew(held.clone());
            let key = job.key();
            tokio::select! {
                () = runner.clone().run(job) => {}
                () = renewing => {}
            }
            if let Err(error) = lease::release(runner.store.as_ref(), &held).await {
                tracing::warn!(%error, "cannot give a job's lease up");
            }
            runner
                .taken
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&key);
        });
    }

    /// Renews the lease every third of its time; returns if it is lost (another instance
    /// took the job over: this one stops working on it).
    async fn renew(self: Arc<Self>, mut held: Held) {
        loop {
            tokio::time::sleep(self.lease_time / 3).await;
            match lease::renew(self.store.as_ref(), &held, &self.instance, self.lease_time).await {
                Ok(Some(renewed)) => held = renewed,
                Ok(None) => {
                    tracing::warn!("a code sync job's lease was taken over: stopping here");
                    return;
                }
                Err(error) => tracing::warn!(%error, "cannot renew a job's lease"),
            }
        }
    }

    /// Whether a verified webhook body is new: `false` when the same bytes were delivered
    /// in the last day (a replay, or a redelivery of the same push).
    pub(crate) fn first_delivery(&self, body: &[u8]) -> bool {
        use sha2::Digest;
        let digest: [u8; 32] = sha2::Sha256::digest(body).into();
        let now = Instant::now();
        let mut seen = self.deliveries.lock().unwrap_or_else(|p| p.into_inner());
        while seen.front().is_some_and(|(_, at)| {
            now.duration_since(*at) > DELIVERY_MEMORY || seen.len() > REMEMBERED_DELIVERIES
        }) {
            seen.pop_front();
        }
        if seen.iter().any(|(known, _)| *known == digest) {
            return false;
        }
        seen.push_back((digest, now));
        true
    }

    /// Records a new job and starts it in the background, unless one is already queued
    /// for the branch: that one is returned. Old stopped records are removed.
    pub(crate) async fn enqueue(
        self: &Arc<Self>,
        org: &str,
        site: &str,
        branch: &str,
        trigger: Trigger,
    ) -> Result<Enqueued, EnqueueError> {
        let job = {
            // Held across the store calls: one branch gets one new job.
            let mut waiting = self.waiting.lock().await;
            let branch_key = keys::code_jobs(org, site, branch);
            if let Some(queued) = waiting.get(&branch_key) {
                return Ok(Enqueued {
                    job: queued.clone(),
                    coalesced: true,
                });
            }
            let jobs = job::list(self.store.as_ref(), org, site, branch).await?;
            self.expire(jobs.iter().filter(|j| j.state == JobState::Stopped))
                .await;
            let millis = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis());
            let sequence = self.sequence.fetch_add(1, Ordering::Relaxed) % 10_000;
            let job = Job {
                topic: "code".into(),
                name: format!("job-{millis:013}-{sequence:04}"),
                state: JobState::Created,
                org: org.into(),
                site: site.into(),
                branch: branch.into(),
                trigger,
                create_time: now_rfc3339(),
                start_time: None,
                stop_time: None,
                progress: Progress::default(),
                errors: Vec::new(),
                error: None,
            };
            job::save(self.store.as_ref(), &job).await?;
            waiting.insert(branch_key, job.clone());
            job
        };
        // A new job's lease is free: nobody else knows the job yet.
        match lease::claim(self.store.as_ref(), &job, &self.instance, self.lease_time).await? {
            Some(held) => self.start(job.clone(), held),
            None => tracing::warn!(job = %job.name, "a new job's lease is taken"),
        }
        Ok(Enqueued {
            job,
            coalesced: false,
        })
    }

    /// Removes the stopped records past the newest [`KEPT_STOPPED`] - 1 (room for the job
    /// about to be made), newest first as `stopped` lists them.
    async fn expire<'j>(&self, stopped: impl Iterator<Item = &'j Job>) {
        for old in stopped.skip(KEPT_STOPPED - 1) {
            if let Err(error) = self.store.delete(&old.key()).await {
                tracing::warn!(%error, job = %old.name, "cannot remove an old job record");
            }
        }
    }

    async fn run(self: Arc<Self>, mut job: Job) {
        let branch_key = keys::code_jobs(&job.org, &job.site, &job.branch);
        let _turn = self.running.lock(&branch_key).await;
        // Until a slot frees, the job still waits: triggers meanwhile keep joining it.
        let _slot = self.slots.clone().acquire_owned().await;
        // From here on a trigger makes a new job: this one may already have read files.
        self.waiting.lock().await.remove(&branch_key);
        job.state = JobState::Running;
        job.start_time = Some(now_rfc3339());
        // A job taken over starts again from its first file.
        job.progress = Progress::default();
        job.errors.clear();
        job.error = None;
        self.save(&job).await;
        match self.source(&job).await {
            Ok(source) => self.sync(&mut job, &source).await,
            Err(reason) => job.error = Some(reason),
        }
        job.state = JobState::Stopped;
        job.stop_time = Some(now_rfc3339());
        self.save(&job).await;
        tracing::info!(job = %job.name, site = %format!("{}/{}", job.org, job.site), branch = %job.branch, failed = job.progress.failed, error = ?job.error, "code sync stopped");
    }

    async fn save(&self, job: &Job) {
        if let Err(error) = job::save(self.store.as_ref(), job).await {
            tracing::error!(%error, job = %job.name, "cannot save the job");
        }
    }

    /// The site's external code source and its sync secret (the onboarding site's).
    async fn source(&self, job: &Job) -> Result<Source, String> {
        let store = self.store.as_ref();
        let error = |e: SiteError| e.to_string();
        let site = sites::load(store, &job.org, &job.site)
            .await
            .map_err(error)?
            .ok_or("the site does not exist")?;
        let code = site
            .code()
            .cloned()
            .ok_or("the site has no code configuration")?;
        let raw_url = code
            .raw_base()
            .ok_or_else(|| match code.source.kind.as_str() {
                "byogit" => "the code source has no raw_url".to_string(),
                kind => format!("code source type `{kind}` is not synced by code jobs"),
            })?;
        // An external repository is read with its sync secret; a hosted one with the
        // secret its code block names, if any (a private repository), else anonymously.
        let secret = sites::repos::sync_secret(store, &job.org, &job.site, &code)
            .await
            .map_err(error)?;
        let secret = match secret {
            None if code.source.is_byogit() || code.source.secret_id.is_some() => {
                return Err("the repository's sync secret is not stored".into());
            }
            None => None,
            // A code block moved since the secret was written (or a site selecting the
            // repository points elsewhere): the secret is not sent.
            Some(secret) if !secret.may_go_to(&raw_url) => {
                return Err(format!(
                    "the sync secret was issued for {}, not for {raw_url}: write the secret again to send it there",
                    secret.origin.as_deref().unwrap_or("no code source")
                ));
            }
            Some(secret) => Some(secret.value),
        };
        Ok(Source {
            code,
            raw_url,
            secret,
        })
    }

    async fn sync(&self, job: &mut Job, source: &Source) {
        let manifest = match self.fetch(source, &job.branch, files::MANIFEST).await {
            Ok(Some(bytes)) => files::parse_manifest(&String::from_utf8_lossy(&bytes)),
            _ => Vec::new(),
        };
        let templates = match self.worker_templates(job).await {
            Ok(templates) => templates,
            Err(error) => {
                job.error = Some(error.to_string());
                return;
            }
        };
        // What the repository's .hlxignore names is left out of the code store, and taken
        // out of it, as the platform's code sync does.
        let ignore = match self.fetch(source, &job.branch, hlxignore::FILE).await {
            Ok(Some(bytes)) => HlxIgnore::parse(&String::from_utf8_lossy(&bytes)),
            _ => HlxIgnore::none(),
        };
        let (ignored, wanted): (Vec<Wanted>, Vec<Wanted>) = files::wanted(&manifest, &templates)
            .into_iter()
            .partition(|wanted| ignore.names(&wanted.path));
        for Wanted { path, .. } in ignored.iter().filter(|w| files::is_storable(&w.path)) {
            let key = code_key(
                &job.org,
                &source.code.owner,
                &source.code.repo,
                &job.branch,
                path,
            );
            if let Err(error) = self.store.delete(&key).await {
                tracing::warn!(%key, %error, "cannot remove a file .hlxignore names");
            }
        }
        job.progress.total = wanted.len();
        self.save(job).await;
        for Wanted { path, required } in wanted {
            let outcome = if files::is_storable(&path) {
                match self.fetch(source, &job.branch, &path).await {
                    Ok(Some(bytes)) => self
                        .store
                        .put(
                            &code_key(
                                &job.org,
                                &source.code.owner,
                                &source.code.repo,
                                &job.branch,
                                &path,
                            ),
                            &bytes,
                        )
                        .await
                        .map_err(|e| e.to_string()),
                    Ok(None) if required => Err("not found (404)".to_string()),
                    Ok(None) => Ok(()),
                    Err(error) => Err(error),
                }
            } else {
                Err("not a storable path".to_string())
            };
            job.progress.processed += 1;
            if let Err(error) = outcome {
                job.progress.failed += 1;
                job.errors.push(FileError { path, error });
            }
            self.save(job).await;
        }
    }

    /// GETs `<raw_url>/<branch>/<path>` with the sync secret if any; `None` on 404.
    /// Redirects are followed by hand, each hop checked; the secret goes only to the raw
    /// URL's own origin.
    async fn fetch(
        &self,
        source: &Source,
        branch: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, String> {
        let address = format!("{}/{branch}/{path}", source.raw_url.trim_end_matches('/'));
        let url = Url::parse(&address).map_err(|e| format!("invalid URL {address}: {e}"))?;
        let mut credentials = HeaderMap::new();
        if let Some(secret) = &source.secret {
            let value = HeaderValue::from_str(&format!("token {secret}"))
                .map_err(|_| "the sync secret is not a valid header value".to_string())?;
            credentials.insert(AUTHORIZATION, value);
        }
        let origin = url.origin();
        let permitted = move |hop: &Url| hop.origin() == origin;
        let mut hops = Vec::new();
        let followed = redirect::follow(
            self.transport.as_ref(),
            url,
            &credentials,
            &permitted,
            FILE_LIMIT,
            MAX_REDIRECTS,
            &mut hops,
        );
        let (_, response) = tokio::time::timeout(FETCH_TIMEOUT, followed)
            .await
            .map_err(|_| format!("cannot fetch: no answer in {} s", FETCH_TIMEOUT.as_secs()))?
            .map_err(|e| format!("cannot fetch: {e}"))?;
        match response.status {
            200 => Ok(Some(response.body)),
            404 => Ok(None),
            status => Err(format!("HTTP {status}")),
        }
    }

    /// Templates named by the branch's worker entries (or main's, which other branches use).
    async fn worker_templates(&self, job: &Job) -> Result<Vec<String>, SiteError> {
        for branch in [job.branch.as_str(), "main"] {
            let key = keys::worker_config(&job.org, &job.site, branch);
            if let Some(config) =
                crate::sites::read_sealed::<serde_json::Value>(self.store.as_ref(), &key).await?
            {
                return Ok(files::templates(&config));
            }
        }
        Ok(Vec::new())
    }
}
