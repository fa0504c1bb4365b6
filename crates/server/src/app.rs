//! The server's one shared state, [`AppState`], and the plug through which a live session
//! (`siteops serve` on a repository) joins the server without the server knowing it: the
//! [`Session`] trait. The admin routes, the worker, the preview hosts and code sync all
//! read the same state; the live session is another crate (`siteops-live`), which none of
//! them can name. Above the domain and `api`, below the route families: the state names no
//! route module's type, and the helpers here are the decisions every route family makes the
//! same way (content access, a preview made and reported to the session). Handlers and
//! extractors take sub-states ([`FromRef`]: the signing key, [`SiteAccess`], each route
//! family's own), not the whole state.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::future::BoxFuture;
use url::Url;

use crate::api::{ApiError, SiteAccess};
use crate::auth::roles::may_read_content;
use crate::auth::{Claims, Decision, Identity, OrgAdmins, SignInNonces, SigningKey};
use crate::code::SiteCode;
use crate::codesync::runner::CodeSync;
use crate::preview::service::{Ask, PreviewService, SiteRef};
use crate::preview::store::{PreviewRecord, Rewrite};
use crate::preview::usage::UsageLocks;
use crate::preview::{Limits, PagePath, PreviewHost, Transport};
use crate::quota::Throttles;
use crate::sites;
use crate::sites::preview_authentication;
use crate::store::{KeyedLocks, Store};
use siteops_config::model::SiteId;

/// Everything a request handler may need, shared by every route of the server.
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub locks: Arc<KeyedLocks>,
    /// This instance's turns at each site's preview usage document.
    pub usage_locks: Arc<UsageLocks>,
    pub key: SigningKey,
    pub org_admins: Arc<OrgAdmins>,
    pub code_sync: Arc<CodeSync>,
    /// Every site's code: local checkouts over the code store.
    pub code: Arc<SiteCode>,
    /// Pages rendered, kept per page version: a view of an unchanged page is a lookup.
    pub renders: Arc<crate::preview::delivery::RenderCache>,
    /// Where previews fetch pages and images: the network in `serve`, mock files in the
    /// golden harness.
    pub preview_transport: Arc<dyn Transport>,
    pub preview_limits: Arc<Limits>,
    /// The live session, when `serve` serves a repository.
    pub session: Option<Arc<dyn Session>>,
    /// Host names answered besides loopback, `localhost` and `*.localhost`.
    pub allowed_hosts: Vec<String>,
    /// The single-use nonces of the sign-in forms shown.
    pub sign_in: Arc<SignInNonces>,
    /// How people sign in: an identity provider, an e-mail address, or not at all.
    pub identity: Arc<Identity>,
    /// Whether others than this machine's users reach the service
    /// ([`crate::server::is_exposed`]): a live session's
    /// conveniences for the local developer (its dashboard, protected sites' pages without
    /// a token) are then for signed-in people only.
    pub exposed: bool,
    /// Quotas and rates of a shared server ([`crate::quota`]).
    pub throttles: Arc<Throttles>,
    /// The address the server listens on, once bound: previews of a site that requires
    /// authentication send a token to their own worker there, and nowhere else.
    pub own_addr: std::sync::OnceLock<std::net::SocketAddr>,
}

impl AppState {
    /// The verified caller of a request, if its token is valid.
    pub fn caller(&self, headers: &HeaderMap) -> Option<Claims> {
        crate::api::caller::caller(headers, &self.key)
    }

    /// What previewing takes ([`Previews`]): for a caller that holds the whole state (the
    /// live session's preview hosts); routes take it as a sub-state.
    pub fn previews(&self) -> Previews {
        Previews {
            store: self.store.clone(),
            transport: self.preview_transport.clone(),
            limits: self.preview_limits.clone(),
            locks: self.locks.clone(),
            usage_locks: self.usage_locks.clone(),
            code: self.code.clone(),
            throttles: self.throttles.clone(),
            key: self.key.clone(),
            own_addr: self.own_addr.get().copied(),
            session: self.session.clone(),
        }
    }

    /// Whether a request may read the content of `document`'s site: always, unless the site
    /// protects it (`requireAuth`, or site authentication: `access.preview`, else
    /// `access.site`); then a token of someone with a role on the site or on the `allow`
    /// list, or a site token (`authorization: token <value>`, the value of one of the
    /// secrets `secretId` lists) reads it; 401 without either, 403 with a token that
    /// grants neither. A live session serving only this machine (`serve` on loopback) does
    /// not ask the local developer; one reached beyond it asks as any service does. The
    /// preview hosts and the worker's pages ask the same question here.
    pub async fn check_content_access(
        &self,
        headers: &HeaderMap,
        document: &sites::Site,
    ) -> Result<(), ApiError> {
        let local_session = self.session.is_some() && !self.exposed;
        if !document.protects_content() || local_session {
            return Ok(());
        }
        let (org, site) = (document.org.as_str(), document.name.as_str());
        // An API key that does not hold on the site (its record gone, or a profile's key
        // on a site not extending the profile) is no caller at all.
        let caller = match self.caller(headers) {
            Some(caller) => {
                let standing = crate::auth::standing(self.store.as_ref(), document, &caller);
                (standing.await? == crate::auth::KeyStanding::Holds).then_some(caller)
            }
            None => None,
        };
        let decision = may_read_content(
            caller.as_ref(),
            (org, site),
            &document.effective,
            (document.org_groups(), Some(document.user_lists())),
            &self.org_admins,
        );
        if decision == Decision::Allow || self.has_site_token(headers, document)? {
            return Ok(());
        }
        Err(match decision {
            Decision::Forbidden(reason) => ApiError::new(
                StatusCode::FORBIDDEN,
                format!("{org}/{site} requires authentication: {reason}"),
            ),
            _ => ApiError::new(
                StatusCode::UNAUTHORIZED,
                format!("{org}/{site} requires authentication: send a token"),
            ),
        })
    }

    /// Whether the request carries a site token: `authorization: token <value>` where the
    /// value is one of the site's secrets that its preview authentication lists
    /// (`secretId`). Compared by digest, in constant time.
    fn has_site_token(
        &self,
        headers: &HeaderMap,
        document: &sites::Site,
    ) -> Result<bool, ApiError> {
        let Some(ids) =
            preview_authentication(&document.effective).and_then(|rule| rule.secret_id.as_deref())
        else {
            return Ok(false);
        };
        let presented: Vec<[u8; 32]> = crate::api::caller::tokens_of(headers)
            .into_iter()
            .map(digest)
            .collect();
        if presented.is_empty() {
            return Ok(false);
        }
        for id in ids {
            // The site's own secrets, which its document holds sealed, else the org's.
            if let Some(value) = document.secret(id)?.map(|secret| secret.value) {
                let stored = digest(&value);
                if presented
                    .iter()
                    .any(|token| crate::auth::constant_time_eq(token, &stored))
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// SHA-256 of a secret or a presented token: equal-length values to compare.
fn digest(value: &str) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(value.as_bytes()).into()
}

/// What previewing takes, as a sub-state: the preview service's parts and the live
/// session that hears of each preview made. The admin API's preview route takes it; the
/// live session's preview hosts get it from [`AppState::previews`].
#[derive(Clone)]
pub struct Previews {
    pub store: Arc<dyn Store>,
    transport: Arc<dyn Transport>,
    limits: Arc<Limits>,
    locks: Arc<KeyedLocks>,
    usage_locks: Arc<UsageLocks>,
    code: Arc<SiteCode>,
    throttles: Arc<Throttles>,
    key: SigningKey,
    /// Where this server listens, once bound (it is by the first request).
    own_addr: Option<SocketAddr>,
    session: Option<Arc<dyn Session>>,
}

impl FromRef<Arc<AppState>> for Previews {
    fn from_ref(state: &Arc<AppState>) -> Previews {
        state.previews()
    }
}

impl Previews {
    /// The preview service over these parts.
    pub fn service(&self) -> PreviewService<'_> {
        PreviewService {
            store: &self.store,
            transport: self.transport.as_ref(),
            limits: &self.limits,
            locks: &self.locks,
            usage_locks: &self.usage_locks,
            code: &self.code,
            throttles: &self.throttles,
            key: &self.key,
            own_addr: self.own_addr,
        }
    }

    /// Previews `page` now and stores it ([`PreviewService::preview`]); in `serve`, the
    /// outcome also goes to the live session's list of recent previews, trace included.
    /// The admin API's preview route and the live session's preview hosts both call it.
    pub async fn preview_now(
        &self,
        target: &SiteRef<'_>,
        page: &PagePath,
        authorization: Option<&HeaderValue>,
        caller: Option<&Claims>,
        preview_origin: &Url,
        rewrite: Rewrite,
    ) -> Result<PreviewRecord, ApiError> {
        let ask = Ask {
            authorization,
            caller,
            preview_origin,
            rewrite,
        };
        let previewed = self.service().preview(target, page, ask).await;
        let saved = previewed.result.map_err(ApiError::from);
        if let Some(session) = &self.session {
            let (status, error, warnings) = match &saved {
                Ok(record) => (200, None, record.warnings.clone()),
                Err(error) => (
                    error.status.as_u16(),
                    Some(error.message.clone()),
                    Vec::new(),
                ),
            };
            session.previewed(RecentPreview {
                id: 0,
                site: SiteId {
                    org: target.org.into(),
                    site: target.site.into(),
                },
                branch: target.branch.into(),
                path: page.web_path(),
                status,
                error,
                at: crate::time::now_seconds(),
                trace: previewed.trace,
                warnings,
            });
        }
        saved
    }
}

/// What a live session adds to the server. The server calls it; it never names the type
/// behind it, so the session can depend on the server and not the other way round.
pub trait Session: Send + Sync + 'static {
    /// Routes of the session (its dashboard, events, trace pages), merged at the root.
    fn routes(self: Arc<Self>, state: Arc<AppState>) -> Router;

    /// Answers a preview host's request: a session previews pages as they are viewed.
    fn preview_host<'a>(
        self: Arc<Self>,
        state: &'a AppState,
        host: &'a PreviewHost,
        request: Request,
    ) -> BoxFuture<'a, Response>;

    /// Called after each preview made through the administration API.
    fn previewed(&self, preview: RecentPreview);

    /// Whether the session has finished its first apply (well or not): until then the
    /// sites it applies are missing or stale, and `/readyz` answers 503.
    fn is_ready(&self) -> bool;

    /// The server stops: end the session's long-lived answers (its event streams) now,
    /// so the shutdown does not spend its grace period waiting for open browser tabs.
    fn closing(&self) {}
}

impl std::fmt::Debug for dyn Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Session")
    }
}

/// One preview made while serving, for the dashboard.
#[derive(Debug, Clone)]
pub struct RecentPreview {
    /// Assigned when recorded; addresses the preview's trace page.
    pub id: u64,
    pub site: SiteId,
    pub branch: String,
    pub path: String,
    pub status: u16,
    pub error: Option<String>,
    pub at: u64,
    /// The pipeline's trace: fetch attempts, images.
    pub trace: crate::preview::Trace,
    /// What the conversion found wrong with the page without stopping (a second metadata
    /// block, an invalid block name…).
    pub warnings: Vec<String>,
}

impl FromRef<Arc<AppState>> for SigningKey {
    fn from_ref(state: &Arc<AppState>) -> SigningKey {
        state.key.clone()
    }
}

impl FromRef<Arc<AppState>> for SiteAccess {
    fn from_ref(state: &Arc<AppState>) -> SiteAccess {
        SiteAccess {
            store: state.store.clone(),
            key: state.key.clone(),
            org_admins: state.org_admins.clone(),
        }
    }
}
