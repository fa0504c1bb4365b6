//! External (`byogit`) repositories and their status.
//!
//! The first site of a repository onboards it: its code block carries `secretId`, and the
//! repository is registered under `repos/<owner>/<repo>.json` with that site. The
//! repository is `ready` once that site's secret exists, since the sync secret is what
//! onboarding issues. Only a ready repository can be selected by another site (409
//! otherwise), and a second site cannot register it again.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::secret_value;
use super::error::ApiError;
use crate::app::AppState;
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

fn key(owner: &str, repo: &str) -> Option<String> {
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
fn external(code: &CodeConfig) -> Option<(&str, &str, Option<&str>)> {
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

pub fn load(store: &dyn Store, owner: &str, repo: &str) -> Result<Option<Repository>, ApiError> {
    let Some(key) = key(owner, repo) else {
        return Ok(None);
    };
    Ok(crate::sites::read(store, &key)?)
}

pub fn status(store: &dyn Store, repository: &Repository) -> Result<Status, ApiError> {
    let (org, site) = repository.site.split_once('/').unwrap_or_default();
    Ok(
        if secret_value(store, org, site, &repository.secret_id)?.is_some() {
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
) -> Result<Option<String>, ApiError> {
    if let Some(id) = &code.source.secret_id {
        return secret_value(store, org, site, id);
    }
    let Some((owner, repo, _)) = external(code) else {
        return Ok(None);
    };
    match load(store, owner, repo)? {
        Some(registered) => {
            let (org, site) = registered.site.split_once('/').unwrap_or_default();
            secret_value(store, org, site, &registered.secret_id)
        }
        None => Ok(None),
    }
}

/// A code block of a request body, which validation has already checked (so an error
/// here is a bug of that validation, answered as a bad request rather than ignored).
fn parse_code(code: Option<&Value>) -> Result<Option<CodeConfig>, ApiError> {
    code.map(CodeConfig::deserialize)
        .transpose()
        .map_err(|error| ApiError::bad_request(format!("`code`: {error}")))
}

impl AppState {
    /// Whether `org/site` may use this code block: it onboards a new repository (with
    /// `secretId`), or selects a ready one (without).
    pub fn check_code_selectable(
        &self,
        org: &str,
        site: &str,
        code: Option<&Value>,
    ) -> Result<(), ApiError> {
        let Some(code) = parse_code(code)? else {
            return Ok(());
        };
        let Some((owner, repo, secret_id)) = external(&code) else {
            return Ok(());
        };
        let this_site = format!("{org}/{site}");
        let conflict = |message: String| Err(ApiError::new(StatusCode::CONFLICT, message));
        match (load(self.store.as_ref(), owner, repo)?, secret_id) {
            (None, Some(_)) => Ok(()),
            (None, None) => conflict(format!(
                "repository {owner}/{repo} is not onboarded: its first site's code names the secretId of its sync secret"
            )),
            (Some(registered), _) if registered.site == this_site => Ok(()),
            (Some(registered), Some(_)) => conflict(format!(
                "repository {owner}/{repo} was onboarded by {}; later sites have no secretId",
                registered.site
            )),
            (Some(registered), None) => match status(self.store.as_ref(), &registered)? {
                Status::Ready => Ok(()),
                Status::Pending => conflict(format!(
                    "repository {owner}/{repo} is not ready: {} has no secret `{}` yet",
                    registered.site, registered.secret_id
                )),
            },
        }
    }

    /// Registers the repository a stored code block onboards.
    pub fn register_repository(
        &self,
        org: &str,
        site: &str,
        code: Option<&Value>,
    ) -> Result<(), ApiError> {
        let Some(code) = parse_code(code)? else {
            return Ok(());
        };
        let Some((owner, repo, Some(secret_id))) = external(&code) else {
            return Ok(());
        };
        let Some(key) = key(owner, repo) else {
            return Ok(());
        };
        let record = Repository {
            owner: owner.to_string(),
            repo: repo.to_string(),
            site: format!("{org}/{site}"),
            secret_id: secret_id.to_string(),
        };
        let bytes = serde_json::to_vec_pretty(&record).expect("records serialize");
        Ok(self.store.put(&key, &bytes)?)
    }
}
