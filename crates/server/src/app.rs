//! The server's one shared state, [`AppState`], and the plug through which a live session
//! (`siteops serve` on a repository) joins the server without the server knowing it: the
//! [`Session`] trait. The admin routes, the worker, the preview hosts and code sync all
//! read the same state; the live session is another crate (`siteops-live`), which none of
//! them can name. Above the domain and `api`, below the route families: the state names no
//! route module's type, and the helpers here are the decisions every route family makes the
//! same way (content access, a preview made and reported to the session). Handlers and
//! extractors take sub-states ([`FromRef`]: the signing key, [`SiteAccess`], each route
//! family's own), not the whole state.

use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::future::BoxFuture;
use url::Url;

use crate::api::{ApiError, SiteAccess};
use crate::auth::{
    Action, Claims, Decision, Identity, OrgAdmins, SignInNonces, SigningKey, authorize,
};
use crate::codesync::runner::CodeSync;
use crate::preview::service::{Ask, PreviewService, SiteRef};
use crate::preview::store::{PreviewRecord, Rewrite};
use crate::preview::{PagePath, PreviewHost};
use crate::sites;
use crate::store::{KeyedLocks, Store};
use siteops_config::model::SiteId;

/// Everything a request handler may need, shared by every route of the server.
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub locks: Arc<KeyedLocks>,
    /// This instance's turns at each site's preview usage document.
    pub usage_locks: crate::preview::usage::UsageLocks,
    pub key: SigningKey,
    pub org_admins: Arc<OrgAdmins>,
    pub code_sync: Arc<CodeSync>,
    /// Every site's code: local checkouts over the code store.
    pub code: Arc<crate::code::SiteCode>,
    /// Where previews fetch pages and images: the network in `serve`, mock files in the
    /// golden harness.
    pub preview_transport: Arc<dyn crate::preview::Transport>,
    pub preview_limits: crate::preview::Limits,
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
    pub throttles: Arc<crate::quota::Throttles>,
    /// The address the server listens on, once bound: previews of a site that requires
    /// authentication send a token to their own worker there, and nowhere else.
    pub own_addr: std::sync::OnceLock<std::net::SocketAddr>,
}

impl AppState {
    /// The verified caller of a request, if its token is valid.
    pub fn caller(&self, headers: &HeaderMap) -> Option<Claims> {
        crate::api::caller::caller(headers, &self.key)
    }

    /// The preview service over this server's store, transport, limits and quotas.
    pub fn previews(&self) -> PreviewService<'_> {
        PreviewService {
            store: &self.store,
            transport: self.preview_transport.as_ref(),
            limits: &self.preview_limits,
            locks: &self.locks,
            usage_locks: &self.usage_locks,
            code: &self.code,
            throttles: &self.throttles,
            key: &self.key,
            own_addr: self.own_addr.get().copied(),
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
        let previewed = self.previews().preview(target, page, ask).await;
        let saved = previewed.result.map_err(ApiError::from);
        if let Some(session) = &self.session {
            let (status, error) = match &saved {
                Ok(_) => (200, None),
                Err(error) => (error.status.as_u16(), Some(error.message.clone())),
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
            });
        }
        saved
    }

    /// Whether a request may read the content of `document`'s site: always, unless the site
    /// requires authentication; then 401 without a valid token, 403 with a token without a
    /// role on the site. A live session serving only this machine (`serve` on loopback) does
    /// not ask the local developer; one reached beyond it asks as any service does. The
    /// preview hosts and the worker's pages ask the same question here.
    pub fn check_content_access(
        &self,
        headers: &HeaderMap,
        document: &sites::Site,
    ) -> Result<(), ApiError> {
        let local_session = self.session.is_some() && !self.exposed;
        if !document.requires_auth() || local_session {
            return Ok(());
        }
        let (org, site) = (&document.org, &document.name);
        // An API key the site no longer records is no caller at all.
        let caller = self.caller(headers).filter(|caller| {
            caller
                .jti
                .as_deref()
                .is_none_or(|id| document.records_key(id))
        });
        match authorize(
            caller.as_ref(),
            org,
            site,
            document.access(),
            &self.org_admins,
            Action::ReadContent,
        ) {
            Decision::Allow => Ok(()),
            Decision::Unauthenticated => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                format!("{org}/{site} requires authentication: send a token"),
            )),
            Decision::Forbidden(reason) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("{org}/{site} requires authentication: {reason}"),
            )),
        }
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
