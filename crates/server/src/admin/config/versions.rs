//! The versions of a configuration document over HTTP, in both path families: the list
//! (older `…/sites/<site>/versions.json`, `…/profiles/<profile>/versions.json`,
//! `/config/<org>/versions.json`; newer `/<org>/sites/<site>/versions.json`, …), one
//! version's document (`…/versions/<n>.json`, answered as the document is: secret values
//! out), and what a write says of the version it makes ([`Versioning`]: `?versionName=`,
//! and `?restoreVersion=<n>` on a POST of the document, which writes version `n`'s
//! document again as a new version). Reading them takes what reading the document takes.
//! The store's side is [`crate::sites::versions`].

use std::collections::HashMap;

use axum::Json;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::documents::{Doc, Gate};
use super::parts::take_service_parts;
use crate::api::answers::VersionList;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, Caller, Family, SiteAccess};
use crate::auth::{Claims, OrgAction};
use crate::sites::versions::{self, Recorded, Revision, Versioned};
use crate::sites::{answer_of, without_managed};

/// What a request's query says of the version a write makes: `versionName` (checked by
/// [`Versioning::name`]) and `restoreVersion` ([`Versioning::restore`]). Taken as sent, so
/// that a handler reads a request's body before it refuses it, as every write does.
#[derive(Debug, Clone, Default)]
pub(crate) struct Versioning {
    name: Option<String>,
    restore: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for Versioning {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let mut versioning = Versioning::default();
        let query = parts.uri.query().unwrap_or_default();
        for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
            match key.as_ref() {
                "versionName" => versioning.name = Some(value.into_owned()),
                "restoreVersion" => versioning.restore = Some(value.into_owned()),
                _ => {}
            }
        }
        Ok(versioning)
    }
}

impl Versioning {
    /// The version name sent; 400 when it cannot be one, `None` when it is blank
    /// ([`versions::read_name`]).
    pub(super) fn name(&self) -> Result<Option<String>, ApiError> {
        match &self.name {
            None => Ok(None),
            Some(name) => versions::read_name(name)
                .map(|name| name.map(str::to_string))
                .map_err(ApiError::bad_request),
        }
    }

    /// The version to restore, when asked; 400 when it is not a version number.
    pub(super) fn restore(&self) -> Result<Option<u64>, ApiError> {
        let Some(text) = &self.restore else {
            return Ok(None);
        };
        match text.parse::<u64>() {
            Ok(version) if version > 0 && text.bytes().all(|b| b.is_ascii_digit()) => {
                Ok(Some(version))
            }
            _ => Err(ApiError::bad_request(format!(
                "restoreVersion `{text}` is not a version number (1, 2, …)"
            ))),
        }
    }

    /// The name of the version a write makes: as sent, or for a restore of `restored`,
    /// `restore of <n>` unless named.
    pub(super) fn name_for(&self, restored: Option<u64>) -> Result<Option<String>, ApiError> {
        Ok(self
            .name()?
            .or_else(|| restored.map(|n| format!("restore of {n}"))))
    }
}

/// A write by `caller` named `name`.
pub(super) fn revision(caller: &Claims, name: Option<String>) -> Revision {
    Revision {
        name,
        by: Some(author(caller)),
    }
}

/// Who a caller is, as a version records it: a person's subject (their e-mail address);
/// for an API key, what it is for and its id (`acme/web (API key k1)`). Never the token.
pub(super) fn author(caller: &Claims) -> String {
    match &caller.jti {
        Some(id) => format!("{} (API key {id})", caller.sub),
        None => caller.sub.clone(),
    }
}

/// The version number of a `<n>.json` path parameter; 404 for anything else (no such
/// version).
fn number(params: &HashMap<String, String>) -> Result<u64, ApiError> {
    let file = params
        .get("version")
        .map(String::as_str)
        .unwrap_or_default();
    file.strip_suffix(".json")
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| ApiError::missing(format!("no such version `{file}`")))
}

/// The answer of a versions list: the newest first.
fn list(index: versions::VersionIndex) -> Response {
    let mut listed = index.versions;
    listed.reverse();
    Json(VersionList {
        current: index.current,
        versions: listed,
    })
    .into_response()
}

/// Version `n`'s document as stored; 404 when the version is not kept, deleted the
/// document, or was listed by a write the document never reached.
async fn stored(
    store: &dyn crate::store::Store,
    document: Versioned<'_>,
    n: u64,
    what: &str,
) -> Result<Value, ApiError> {
    match versions::version(store, document, n).await? {
        Some((_, Recorded::Document(json))) => Ok(json),
        Some((_, Recorded::Deleted)) => Err(ApiError::missing(format!(
            "version {n} of {what} deleted it: it has no document"
        ))),
        Some((_, Recorded::NeverReached)) => Err(ApiError::missing(format!(
            "version {n} of {what} was never reached: the write that took its number \
             stopped before it recorded the document, and it has no document"
        ))),
        None => Err(ApiError::missing(format!("{what} has no version {n}"))),
    }
}

/// Version `n`'s document of `document` as a body to write again: without the fields the
/// service stamps, and without secrets and API key records, which stay as they are now
/// (a restore never brings back a revoked key or an old secret).
pub(super) async fn restorable(
    store: &dyn crate::store::Store,
    document: Versioned<'_>,
    n: u64,
    what: &str,
) -> Result<Value, ApiError> {
    let mut json = without_managed(stored(store, document, n, what).await?);
    take_service_parts(&mut json);
    Ok(json)
}

/// `GET …/sites/<site>/versions.json`.
pub(super) async fn site_list(
    State(access): State<SiteAccess>,
    authorized: AuthorizedSite<Configure>,
) -> Result<Response, ApiError> {
    let AuthorizedSite { org, site, .. } = &authorized;
    let document = Versioned::Site { org, site };
    Ok(list(
        versions::index(access.store.as_ref(), document).await?,
    ))
}

/// `GET …/sites/<site>/versions/<n>.json`.
pub(super) async fn site_version(
    State(access): State<SiteAccess>,
    family: Family,
    authorized: AuthorizedSite<Configure>,
    Path(params): Path<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let n = number(&params)?;
    let AuthorizedSite { org, site, .. } = &authorized;
    let what = format!("site {org}/{site}");
    let json = stored(
        access.store.as_ref(),
        Versioned::Site { org, site },
        n,
        &what,
    )
    .await?;
    Ok(Json(family.shape(answer_of(&json))).into_response())
}

/// `GET` of the org's (`IS_PROFILE` false) or a profile's versions.
pub(super) async fn document_list<const IS_PROFILE: bool>(
    State(access): State<SiteAccess>,
    Caller(caller): Caller,
    Path(params): Path<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let doc = Doc::of(&params, true, IS_PROFILE)?;
    Gate::open(&access, caller, doc.org(), OrgAction::Read).await?;
    Ok(list(
        versions::index(access.store.as_ref(), doc.versioned()).await?,
    ))
}

/// `GET` of one version of the org's or a profile's document.
pub(super) async fn document_version<const IS_PROFILE: bool>(
    State(access): State<SiteAccess>,
    family: Family,
    Caller(caller): Caller,
    Path(params): Path<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let doc = Doc::of(&params, true, IS_PROFILE)?;
    let n = number(&params)?;
    Gate::open(&access, caller, doc.org(), OrgAction::Read).await?;
    let json = stored(access.store.as_ref(), doc.versioned(), n, &doc.what()).await?;
    Ok(Json(doc.shape(family, answer_of(&json))).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versioning(name: Option<&str>, restore: Option<&str>) -> Versioning {
        Versioning {
            name: name.map(str::to_string),
            restore: restore.map(str::to_string),
        }
    }

    fn claims(sub: &str) -> Claims {
        Claims {
            sub: sub.into(),
            iat: 0,
            exp: 1,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        }
    }

    #[test]
    fn a_restore_names_its_version_unless_told() {
        let caller = claims("ops@acme.example");
        let plain = versioning(None, Some("3"));
        assert_eq!(plain.restore().expect("a number"), Some(3));
        let revision = revision(&caller, plain.name_for(Some(3)).expect("named"));
        assert_eq!(revision.name.as_deref(), Some("restore of 3"));
        assert_eq!(revision.by.as_deref(), Some("ops@acme.example"));
        let named = versioning(Some("siteops@abc1234"), Some("3"));
        let revision = super::revision(&caller, named.name_for(Some(3)).expect("named"));
        assert_eq!(revision.name.as_deref(), Some("siteops@abc1234"));
        for bad in ["0", "-1", "x", "", "+2", "99999999999999999999999"] {
            assert!(versioning(None, Some(bad)).restore().is_err(), "{bad}");
        }
        assert!(versioning(Some("a\u{7}"), None).name().is_err());
    }

    #[test]
    fn an_api_key_is_named_by_its_holder_and_id_never_its_token() {
        let mut claims = claims("ops@acme.example");
        assert_eq!(author(&claims), "ops@acme.example");
        claims.sub = "acme/web".into();
        claims.jti = Some("k1".into());
        assert_eq!(author(&claims), "acme/web (API key k1)");
    }

    #[test]
    fn a_version_path_is_a_number_dot_json() {
        let params = |v: &str| HashMap::from([("version".to_string(), v.to_string())]);
        assert_eq!(number(&params("12.json")).expect("a number"), 12);
        for bad in ["12", "x.json", ".json", "-1.json", "1.5.json"] {
            assert!(number(&params(bad)).is_err(), "{bad}");
        }
    }
}
