//! External (`byogit`) repositories: their registrations (`repos/<org>/<owner>/<repo>.json`,
//! written by the site that onboards the repository) and their status, and the sync secret
//! a code block is read with.
//!
//! Tenants stay apart by construction: a registration lives in its org's own namespace, so
//! a site can select only a repository its own org onboarded, and a sync secret goes only to
//! the origin it was issued for ([`SyncSecret::origin`], recorded when its value is
//! written), never to wherever a code block points later.
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

/// `org`'s registration of `owner/repo`.
pub async fn load(
    store: &dyn Store,
    org: &str,
    owner: &str,
    repo: &str,
) -> Result<Option<Repository>, SiteError> {
    let Some(key) = crate::store::keys::repository(org, owner, repo) else {
        return Ok(None);
    };
    super::read(store, &key).await
}

/// The sync secret of a registered repository: its onboarding site's secret. The
/// repository is `ready` once it exists, since the sync secret is what onboarding issues.
pub(crate) async fn onboarding_secret(
    store: &dyn Store,
    repository: &Repository,
) -> Result<Option<SyncSecret>, SiteError> {
    let (org, site) = repository.site.split_once('/').unwrap_or_default();
    super::secret(store, org, site, &repository.secret_id).await
}

/// A sync secret with the origin it was issued for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncSecret {
    pub value: String,
    /// The origin (`https://host[:port]`) of the code source's `raw_url` when the value was
    /// written; `None` when the site had no such code source then. The value is sent to
    /// this origin and nowhere else.
    pub origin: Option<String>,
}

impl SyncSecret {
    /// Whether the value may be sent to `raw_url`: only to the origin it was issued for.
    pub(crate) fn may_go_to(&self, raw_url: &str) -> bool {
        self.origin.is_some() && self.origin == origin_of(raw_url)
    }
}

/// The origin of a URL as the secrets record it (`scheme://host[:port]`), `None` when the
/// text is no URL with a host.
pub(crate) fn origin_of(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    let origin = url.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// The sync secret of the repository a code block of `org/site` names: the site's own
/// secret when it onboarded the repository, else the one of the org's onboarding site.
/// This secret also signs the repository's push notifications.
pub(crate) async fn sync_secret(
    store: &dyn Store,
    org: &str,
    site: &str,
    code: &CodeConfig,
) -> Result<Option<SyncSecret>, SiteError> {
    if let Some(id) = &code.source.secret_id {
        return super::secret(store, org, site, id).await;
    }
    let Some((owner, repo, _)) = external(code) else {
        return Ok(None);
    };
    match load(store, org, owner, repo).await? {
        Some(registered) => onboarding_secret(store, &registered).await,
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_goes_only_to_the_origin_it_was_issued_for() {
        let secret = SyncSecret {
            value: "s".into(),
            origin: origin_of("https://raw.acme.example/acme/web"),
        };
        assert_eq!(secret.origin.as_deref(), Some("https://raw.acme.example"));
        assert!(secret.may_go_to("https://raw.acme.example/other/path"));
        assert!(secret.may_go_to("https://RAW.acme.example:443/x"));
        for elsewhere in [
            "https://raw.evil.example/acme/web",
            "http://raw.acme.example/acme/web",
            "https://raw.acme.example:8443/acme/web",
            "https://raw.acme.example.evil.example/",
            "not a url",
        ] {
            assert!(!secret.may_go_to(elsewhere), "{elsewhere}");
        }
        let unbound = SyncSecret {
            value: "s".into(),
            origin: None,
        };
        assert!(!unbound.may_go_to("https://raw.acme.example/acme/web"));
    }
}
