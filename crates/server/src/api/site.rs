//! The site a request is about, authorised for what its route does: [`AuthorizedSite`], an
//! extractor that reads the org and site from the matched path, checks the path's names
//! (400), the caller (401, saying why), that the site exists (404, only once the caller is
//! known, so that its existence is not revealed to callers without a token) and that the
//! caller may do the route's action there (403). The action is a type ([`SiteAction`]),
//! so what a route asks for is in its handler's signature.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts, Path};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::caller::{caller, why_unauthenticated};
use super::{ApiError, check_existing_names, check_names, strip_json};
use crate::auth::{
    Action, Claims, Decision, Grants, KeyStanding, OrgAdmins, SigningKey, authorize_in,
};
use crate::sites::{self, Site};
use crate::store::Store;

/// What authorising a site takes: the store its document is read from, the key tokens are
/// verified with, the org administrators. A sub-state of the server's state.
#[derive(Clone)]
pub struct SiteAccess {
    pub store: Arc<dyn Store>,
    pub key: SigningKey,
    pub org_admins: Arc<OrgAdmins>,
}

impl SiteAccess {
    /// Whether `caller` may do `action` on `org/site` with `grants` (the site's roles and
    /// groups, [`Grants::of_site`]; none for a site that does not exist yet): 403 with the
    /// reason if not.
    pub(crate) fn permit(
        &self,
        caller: &Claims,
        (org, site): (&str, &str),
        grants: Grants<'_>,
        action: Action,
    ) -> Result<(), ApiError> {
        match authorize_in(Some(caller), org, site, grants, &self.org_admins, action) {
            Decision::Allow => Ok(()),
            Decision::Forbidden(reason) => Err(ApiError::new(StatusCode::FORBIDDEN, reason)),
            // Only a missing caller is unauthenticated, and there is one.
            Decision::Unauthenticated => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "authentication required: send a token",
            )),
        }
    }

    /// `org/site`'s document, read through `store`, with `caller` allowed `action` on it:
    /// 404 when the site does not exist, 403 when the caller may not.
    pub async fn existing(
        &self,
        store: &dyn Store,
        caller: &Claims,
        (org, site): (&str, &str),
        action: Action,
    ) -> Result<Site, ApiError> {
        let document = sites::load(store, org, site)
            .await?
            .ok_or_else(|| ApiError::missing(format!("site {org}/{site} does not exist")))?;
        // An API key holds only while the document it was minted for records it (a key
        // of another site or org is refused as any token for another site is: 403, below).
        check_key(store, &document, caller).await?;
        match authorize_in(
            Some(caller),
            org,
            site,
            Grants::of_site(&document),
            &self.org_admins,
            action,
        ) {
            Decision::Allow => Ok(document),
            Decision::Forbidden(reason) => Err(ApiError::new(StatusCode::FORBIDDEN, reason)),
            Decision::Unauthenticated => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "authentication required: send a token",
            )),
        }
    }
}

/// `caller`'s API key, if it is one, holds on `document`'s site: 401 when its record is
/// gone (revoked), 403 for a profile's key on a site that does not extend the profile.
pub(crate) async fn check_key(
    store: &dyn Store,
    document: &Site,
    caller: &Claims,
) -> Result<(), ApiError> {
    match crate::auth::standing(store, document, caller).await? {
        KeyStanding::Holds => Ok(()),
        KeyStanding::Revoked(reason) => Err(ApiError::new(StatusCode::UNAUTHORIZED, reason)),
        KeyStanding::NotHere(reason) => Err(ApiError::new(StatusCode::FORBIDDEN, reason)),
    }
}

/// An action a route does on a site, as a type: `AuthorizedSite<Configure>`.
pub trait SiteAction: Send + Sync + 'static {
    const ACTION: Action;
}

/// Read or change a site's configuration ([`Action::Configure`]).
pub struct Configure;
/// Preview, sync code, read jobs and status ([`Action::Operate`]).
pub struct Operate;
/// Delete the site ([`Action::DeleteSite`]).
pub struct DeleteSite;

impl SiteAction for Configure {
    const ACTION: Action = Action::Configure;
}
impl SiteAction for Operate {
    const ACTION: Action = Action::Operate;
}
impl SiteAction for DeleteSite {
    const ACTION: Action = Action::DeleteSite;
}

/// An existing site whose caller may do `A` there. The site comes from the path's `site`
/// parameter, or `site_json` (`<site>.json`, 404 otherwise); a `branch` parameter's name is
/// checked too.
pub struct AuthorizedSite<A> {
    pub org: String,
    pub site: String,
    pub caller: Claims,
    /// The site's document as it was when the request was authorised.
    pub document: Site,
    access: SiteAccess,
    action: PhantomData<fn() -> A>,
}

impl<A: SiteAction> AuthorizedSite<A> {
    /// The site's document read again through `store` (a transaction's view, whose writes
    /// then depend on it) and the caller authorised again: it may have changed, or gone
    /// (404), since the request was authorised.
    pub(crate) async fn reread(&self, store: &dyn Store) -> Result<Site, ApiError> {
        self.access
            .existing(store, &self.caller, self.names(), A::ACTION)
            .await
    }

    /// Whether the caller may also do `action` on the site as it was authorised (403 if
    /// not): the one rule, with the site's groups and its org's.
    pub(crate) fn permit(&self, action: Action) -> Result<(), ApiError> {
        let grants = Grants::of_site(&self.document);
        self.access
            .permit(&self.caller, self.names(), grants, action)
    }

    /// What authorising the site takes (the store, the key, the org administrators).
    pub(crate) fn access(&self) -> &SiteAccess {
        &self.access
    }

    fn names(&self) -> (&str, &str) {
        (&self.org, &self.site)
    }
}

/// The site of a matched path: its `site` parameter (the newer family's
/// `/<org>/sites/<site>/…`), or `site_json` (the older's `<site>.json`, 404 otherwise).
pub(crate) fn site_param(params: &HashMap<String, String>) -> Result<&str, ApiError> {
    Ok(match (params.get("site"), params.get("site_json")) {
        (Some(site), _) => site,
        (None, Some(file)) => strip_json(file, "site")?,
        (None, None) => "",
    })
}

impl<S, A> FromRequestParts<S> for AuthorizedSite<A>
where
    S: Send + Sync,
    SiteAccess: FromRef<S>,
    A: SiteAction,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|rejection| ApiError::bad_request(rejection.body_text()))?;
        let param = |name: &str| params.get(name).map(String::as_str);
        let org = param("org").unwrap_or_default();
        let site = site_param(&params)?;
        // The site must exist: a name that cannot be one is 404, whatever the method; a
        // branch's is 400 (a branch is named by the request, not looked up).
        check_existing_names(&[("org", org), ("site", site)])?;
        if let Some(branch) = param("branch") {
            check_names(&[("branch", branch)])?;
        }
        let access = SiteAccess::from_ref(state);
        let caller = caller(&parts.headers, &access.key).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                why_unauthenticated(&parts.headers, &access.key),
            )
        })?;
        let document = access
            .existing(access.store.as_ref(), &caller, (org, site), A::ACTION)
            .await?;
        Ok(AuthorizedSite {
            org: org.to_string(),
            site: site.to_string(),
            caller,
            document,
            access,
            action: PhantomData,
        })
    }
}
