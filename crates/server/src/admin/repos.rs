//! Onboarding external (`byogit`) repositories when a site's code block is written.
//!
//! The first site of a repository onboards it: its code block carries `secretId`, and the
//! repository is registered under `repos/<org>/<owner>/<repo>.json` with that site. The
//! repository is `ready` once that site's secret exists, since the sync secret is what
//! onboarding issues. Only a ready repository of the site's own org can be selected by
//! another site (409 otherwise), with a `raw_url` at the origin its sync secret was issued
//! for, and a second site cannot register it again.

use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use crate::app::AppState;
use crate::sites::repos::{Repository, external, load, onboarding_secret};
use crate::store::keys;
use siteops_config::model::api::CodeConfig;

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
    pub async fn check_code_selectable(
        &self,
        org: &str,
        site: &str,
        code: Option<&Value>,
    ) -> Result<(), ApiError> {
        let Some(code) = parse_code(code)? else {
            return Ok(());
        };
        // Names that become store keys: too long for a file name is a 400, not a 500.
        let (owner, repo) = external(&code).map_or((None, None), |(o, r, _)| (Some(o), Some(r)));
        for (field, name) in [
            ("source.secretId", code.source.secret_id.as_deref()),
            ("source.owner", owner),
            ("source.repo", repo),
        ] {
            if let Some(name) = name.filter(|n| n.len() > super::MAX_NAME_LEN) {
                return Err(ApiError::bad_request(format!(
                    "invalid code `{field}`: {} characters, longer than the {} allowed",
                    name.len(),
                    super::MAX_NAME_LEN
                )));
            }
        }
        let Some((owner, repo, secret_id)) = external(&code) else {
            return Ok(());
        };
        let this_site = format!("{org}/{site}");
        let conflict = |message: String| Err(ApiError::new(StatusCode::CONFLICT, message));
        match (
            load(self.store.as_ref(), org, owner, repo).await?,
            secret_id,
        ) {
            (None, Some(_)) => Ok(()),
            (None, None) => conflict(format!(
                "repository {owner}/{repo} is not onboarded: its first site's code names the secretId of its sync secret"
            )),
            (Some(registered), _) if registered.site == this_site => Ok(()),
            (Some(registered), Some(_)) => conflict(format!(
                "repository {owner}/{repo} was onboarded by {}; later sites have no secretId",
                registered.site
            )),
            (Some(registered), None) => {
                let raw_url = code.raw_base().unwrap_or_default();
                match onboarding_secret(self.store.as_ref(), &registered).await? {
                    None => conflict(format!(
                        "repository {owner}/{repo} is not ready: {} has no secret `{}` yet",
                        registered.site, registered.secret_id
                    )),
                    Some(secret) if secret.may_go_to(&raw_url) => Ok(()),
                    Some(_) => conflict(format!(
                        "repository {owner}/{repo}'s sync secret was not issued for `code.source.raw_url` {raw_url}: a site that selects it reads it where its onboarding site ({}) does",
                        registered.site
                    )),
                }
            }
        }
    }

    /// Registers the repository a stored code block onboards.
    pub async fn register_repository(
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
        let Some(key) = keys::repository(org, owner, repo) else {
            return Ok(());
        };
        let record = Repository {
            owner: owner.to_string(),
            repo: repo.to_string(),
            site: format!("{org}/{site}"),
            secret_id: secret_id.to_string(),
        };
        let bytes = serde_json::to_vec_pretty(&record).expect("records serialize");
        Ok(self.store.put(&key, &bytes).await?)
    }
}
