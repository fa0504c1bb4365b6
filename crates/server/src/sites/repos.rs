//! External (`byogit`) repositories: their registrations (`repos/<owner>/<repo>.json`,
//! written by the site that onboards the repository) and their status.
//!
//! The repository is `ready` once the onboarding site's secret exists, since the sync
//! secret is what onboarding issues.

use serde::{Deserialize, Serialize};

use super::SiteError;
use crate::store::Store;
use siteops_config::model::api::CodeConfig;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Repository {
    pub owner: String,
    pub repo: String,
    /// The site that onboarded the repository, `org/site`.
    pub site: String,
    #[serde(rename = "secretId")]
    pub secret_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Registered, but the sync secret is not stored yet.
    Pending,
    Ready,
}

pub fn key(owner: &str, repo: &str) -> Option<String> {
    let safe = |s: &str| siteops_config::rules::is_id(&s.to_ascii_lowercase());
    (safe(owner) && safe(repo)).then(|| {
        format!(
            "repos/{}/{}.json",
            owner.to_ascii_lowercase(),
            repo.to_ascii_lowercase()
        )
    })
}

/// The external repository a code block names: (owner, repo, secretId).
pub fn external(code: &CodeConfig) -> Option<(&str, &str, Option<&str>)> {
    let source = &code.source;
    if !source.is_byogit() {
        return None;
    }
    Some((
        source.owner.as_deref()?,
        source.repo.as_deref()?,
        source.secret_id.as_deref(),
    ))
}

pub fn load(store: &dyn Store, owner: &str, repo: &str) -> Result<Option<Repository>, SiteError> {
    let Some(key) = key(owner, repo) else {
        return Ok(None);
    };
    super::read(store, &key)
}

pub fn status(store: &dyn Store, repository: &Repository) -> Result<Status, SiteError> {
    let (org, site) = repository.site.split_once('/').unwrap_or_default();
    Ok(
        if super::secret_value(store, org, site, &repository.secret_id)?.is_some() {
            Status::Ready
        } else {
            Status::Pending
        },
    )
}

/// The sync secret of the repository a code block names: the site's own secret when it
/// onboarded the repository, else the onboarding site's. This secret also signs the
/// repository's push notifications.
pub fn sync_secret(
    store: &dyn Store,
    org: &str,
    site: &str,
    code: &CodeConfig,
) -> Result<Option<String>, SiteError> {
    if let Some(id) = &code.source.secret_id {
        return super::secret_value(store, org, site, id);
    }
    let Some((owner, repo, _)) = external(code) else {
        return Ok(None);
    };
    match load(store, owner, repo)? {
        Some(registered) => {
            let (org, site) = registered.site.split_once('/').unwrap_or_default();
            super::secret_value(store, org, site, &registered.secret_id)
        }
        None => Ok(None),
    }
}
