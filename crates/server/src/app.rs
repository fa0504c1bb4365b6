//! The server's one shared state, [`AppState`], and the plug through which a live session
//! (`siteops serve` on a repository) joins the server without the server knowing it: the
//! [`Session`] trait. The admin routes, the worker, the preview hosts and code sync all
//! read the same state; the live session is another crate (`siteops-live`), which none of
//! them can name.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::future::BoxFuture;

use crate::auth::{Claims, OrgAdmins, SigningKey};
use crate::codesync::runner::CodeSync;
use crate::server::PreviewHost;
use crate::store::{KeyedLocks, Store};
use siteops_config::model::SiteId;

/// Everything a request handler may need, shared by every route of the server.
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub locks: KeyedLocks,
    /// This instance's turns at each site's preview usage document.
    pub usage_locks: crate::preview::usage::UsageLocks,
    pub key: SigningKey,
    pub org_admins: OrgAdmins,
    pub code_sync: Arc<CodeSync>,
    /// Every site's code: local checkouts over the code store.
    pub code: Arc<crate::code::SiteCode>,
    /// Where previews fetch pages and images: the network in `serve`, mock files in the
    /// golden harness.
    pub preview_transport: Arc<dyn crate::preview::Transport>,
    pub preview_limits: crate::preview::Limits,
    /// The worker's compiled templates and regexes.
    pub worker_cache: crate::worker::cache::WorkerCache,
    /// The live session, when `serve` serves a repository.
    pub session: Option<Arc<dyn Session>>,
    /// Host names answered besides loopback, `localhost` and `*.localhost`.
    pub allowed_hosts: Vec<String>,
    /// The single-use nonces of the sign-in forms shown.
    pub sign_in: crate::admin::SignInNonces,
    /// How people sign in: an identity provider, an e-mail address, or not at all.
    pub identity: crate::admin::Identity,
    /// Whether others than this machine's users reach the service
    /// ([`crate::server::is_exposed`]): a live session's
    /// conveniences for the local developer (its dashboard, protected sites' pages without
    /// a token) are then for signed-in people only.
    pub exposed: bool,
    /// Quotas and rates of a shared server ([`crate::quota`]).
    pub throttles: crate::quota::Throttles,
    /// The address the server listens on, once bound: previews of a site that requires
    /// authentication send a token to their own worker there, and nowhere else.
    pub own_addr: std::sync::OnceLock<std::net::SocketAddr>,
}

impl AppState {
    /// The verified caller of a request, if its token is valid.
    pub fn caller(&self, headers: &HeaderMap) -> Option<Claims> {
        crate::admin::caller(headers, &self.key)
    }

    /// What `org/site`'s previews hold in the store, under the site's cap.
    pub fn preview_usage(&self, org: &str, site: &str) -> crate::preview::usage::SiteUsage {
        crate::preview::usage::SiteUsage::new(
            self.store.clone(),
            &self.usage_locks,
            org,
            site,
            self.throttles.quotas.preview_bytes_per_site,
        )
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
