//! The record of a code sync job, stored at `jobs/<org>/<site>/<branch>/code/<name>.json`.
//! States: `created` (queued), `running`, `stopped` (finished, with or without errors).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sites::SiteError;
use crate::store::{Store, StoreError, keys};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Created,
    Running,
    Stopped,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Trigger {
    /// Started by a person or a script (the console's action).
    Manual,
    /// Started by a signed push notification.
    Webhook,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Progress {
    pub total: usize,
    pub processed: usize,
    pub failed: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileError {
    pub path: String,
    pub error: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Job {
    pub topic: String,
    pub name: String,
    pub state: JobState,
    pub org: String,
    pub site: String,
    pub branch: String,
    pub trigger: Trigger,
    #[serde(rename = "createTime")]
    pub create_time: String,
    #[serde(rename = "startTime", default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    #[serde(rename = "stopTime", default, skip_serializing_if = "Option::is_none")]
    pub stop_time: Option<String>,
    pub progress: Progress,
    /// Files that could not be synced.
    #[serde(default)]
    pub errors: Vec<FileError>,
    /// Why the whole job failed, when it did (no code configuration, no secret…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Job {
    pub fn key(&self) -> String {
        keys::code_job(&self.org, &self.site, &self.branch, &self.name)
    }

    /// The admin path of this job.
    pub fn link(&self) -> String {
        format!(
            "/admin/job/{}/{}/{}/code/{}",
            self.org, self.site, self.branch, self.name
        )
    }
}

pub async fn save(store: &dyn Store, job: &Job) -> Result<(), StoreError> {
    store
        .put(
            &job.key(),
            &serde_json::to_vec_pretty(job).expect("jobs serialize"),
        )
        .await
}

pub async fn load(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
    name: &str,
) -> Result<Option<Job>, SiteError> {
    crate::sites::read(store, &keys::code_job(org, site, branch, name)).await
}

/// The jobs of a branch, newest first (names sort by creation time).
pub async fn list(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
) -> Result<Vec<Job>, SiteError> {
    let mut jobs = Vec::new();
    let folder = keys::code_jobs(org, site, branch);
    for name in crate::sites::names_newest_first(store, &folder).await? {
        if let Some(job) = load(store, org, site, branch, &name).await? {
            jobs.push(job);
        }
    }
    Ok(jobs)
}
