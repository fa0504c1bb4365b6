//! Onboarding external (`byogit`) repositories when a site's code block is written.
//!
//! The first site of a repository onboards it: its code block carries `secretId`, and the
//! repository is registered under `repos/<org>/<owner>/<repo>.json` with that site. The
//! repository is `ready` once that site's secret exists, since the sync secret is what
//! onboarding issues. Only a ready repository of the site's own org can be selected by
//! another site, with a `raw_url` at the origin its sync secret was issued for, and a
//! second site cannot register it again. The refusals are [`OnboardingError`]s; the
//! routes answer them 409 (a name too long for a store key, 400).

use siteops_config::model::api::CodeConfig;

use super::repos::{Repository, external, load, onboarding_secret};
use super::{MAX_NAME_LEN, SiteError};
use crate::store::{Store, StoreError};

/// Why a site may not use a code block.
#[derive(Debug, thiserror::Error)]
pub enum OnboardingError {
    /// A name of the code block cannot become a store key.
    #[error("invalid code `{field}`: {length} characters, longer than the {MAX_NAME_LEN} allowed")]
    NameTooLong { field: &'static str, length: usize },
    #[error(
        "repository {owner}/{repo} is not onboarded: its first site's code names the secretId of its sync secret"
    )]
    NotOnboarded { owner: String, repo: String },
    #[error("repository {owner}/{repo} was onboarded by {site}; later sites have no secretId")]
    OnboardedBy {
        owner: String,
        repo: String,
        site: String,
    },
    #[error("repository {owner}/{repo} is not ready: {site} has no secret `{secret_id}` yet")]
    NotReady {
        owner: String,
        repo: String,
        site: String,
        secret_id: String,
    },
    #[error(
        "repository {owner}/{repo}'s sync secret was not issued for `code.source.raw_url` {raw_url}: a site that selects it reads it where its onboarding site ({site}) does"
    )]
    OtherOrigin {
        owner: String,
        repo: String,
        raw_url: String,
        site: String,
    },
    #[error(transparent)]
    Site(#[from] SiteError),
}

impl From<StoreError> for OnboardingError {
    fn from(error: StoreError) -> OnboardingError {
        OnboardingError::Site(SiteError::Store(error))
    }
}

/// Whether `org/site` may use this code block: it onboards a new repository (with
/// `secretId`), or selects a ready one (without).
pub(crate) async fn check_selectable(
    store: &dyn Store,
    org: &str,
    site: &str,
    code: Option<&CodeConfig>,
) -> Result<(), OnboardingError> {
    let Some(code) = code else {
        return Ok(());
    };
    // Names that become store keys: too long for a file name is the caller's mistake.
    let (owner, repo) = external(code).map_or((None, None), |(o, r, _)| (Some(o), Some(r)));
    for (field, name) in [
        ("source.secretId", code.source.secret_id.as_deref()),
        ("source.owner", owner),
        ("source.repo", repo),
    ] {
        if let Some(name) = name.filter(|n| n.len() > MAX_NAME_LEN) {
            return Err(OnboardingError::NameTooLong {
                field,
                length: name.len(),
            });
        }
    }
    let Some((owner, repo, secret_id)) = external(code) else {
        return Ok(());
    };
    let this_site = format!("{org}/{site}");
    let (owner, repo) = (owner.to_string(), repo.to_string());
    match (load(store, org, &owner, &repo).await?, secret_id) {
        (None, Some(_)) => Ok(()),
        (None, None) => Err(OnboardingError::NotOnboarded { owner, repo }),
        (Some(registered), _) if registered.site == this_site => Ok(()),
        (Some(registered), Some(_)) => Err(OnboardingError::OnboardedBy {
            owner,
            repo,
            site: registered.site,
        }),
        (Some(registered), None) => {
            let raw_url = code.raw_base().unwrap_or_default();
            match onboarding_secret(store, &registered).await? {
                None => Err(OnboardingError::NotReady {
                    owner,
                    repo,
                    site: registered.site,
                    secret_id: registered.secret_id,
                }),
                Some(secret) if secret.may_go_to(&raw_url) => Ok(()),
                Some(_) => Err(OnboardingError::OtherOrigin {
                    owner,
                    repo,
                    raw_url,
                    site: registered.site,
                }),
            }
        }
    }
}

/// Registers the repository a stored code block onboards.
pub(crate) async fn register(
    store: &dyn Store,
    org: &str,
    site: &str,
    code: Option<&CodeConfig>,
) -> Result<(), StoreError> {
    let Some((owner, repo, Some(secret_id))) = code.and_then(external) else {
        return Ok(());
    };
    let Some(key) = crate::store::keys::repository(org, owner, repo) else {
        return Ok(());
    };
    let record = Repository {
        owner: owner.to_string(),
        repo: repo.to_string(),
        site: format!("{org}/{site}"),
        secret_id: secret_id.to_string(),
    };
    let bytes = serde_json::to_vec_pretty(&record).expect("records serialize");
    store.put(&key, &bytes).await
}
