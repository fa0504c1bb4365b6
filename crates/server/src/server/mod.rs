//! `siteops serve`: one HTTP server for the administration service (`/admin`), the worker
//! (`/transform`) and the site preview hosts, chosen by `Host:
//! <branch>--<site>--<org>.localhost` ([`PreviewHost`]). The top of the crate: it starts
//! the server and mounts every route family; of the crate's modules, only the live session
//! (which starts servers) names it.

mod code_files;
pub mod cross_site;
mod health;
pub mod hosts;
pub mod listen;
pub mod page_policy;
mod preview_host;
pub mod site_port;
#[cfg(test)]
mod view_rounds;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::admin;
use crate::app::{AppState, Session};
use crate::auth::{Identity, OrgAdmins, SignIn, signing_key};
use crate::codesync::runner::CodeSync;
use crate::preview::PreviewHost;
use crate::store::StoreLocation;

pub use preview_host::{Asked, CONFIG_JSON, Nonce, config_page, serve as serve_stored};

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where to listen: loopback by default (`--port`), any address with `--listen`.
    pub addr: SocketAddr,
    /// Where the state is kept (`--data DIR` or `--store URL`).
    pub store: StoreLocation,
    /// `--org-admin` values: `ADDRESS` or `org:ADDRESS`.
    pub org_admins: Vec<String>,
    /// Time-outs and size limits of the preview pipeline.
    pub preview_limits: crate::preview::Limits,
    /// Where previews fetch from; `None`: the network ([`crate::preview::ReqwestTransport`]).
    pub preview_transport: Option<Arc<dyn crate::preview::Transport>>,
    /// `serve`'s live session: the dashboard, reload events, previews made on view.
    pub session: Option<Arc<dyn Session>>,
    /// `--allowed-host` names answered besides loopback, `localhost` and `*.localhost`
    /// ([`hosts`]).
    pub allowed_hosts: Vec<String>,
    /// Header time-out, header size and connection caps of the accept loop.
    pub connection_limits: listen::ConnectionLimits,
    /// Sites per org, previews and sync jobs at once, sign-in and webhook rates.
    pub quotas: crate::quota::Quotas,
    /// How people sign in (`--oidc-issuer`, `--no-sign-in`; by e-mail address otherwise).
    pub sign_in: SignIn,
}

impl ServerConfig {
    /// A server on a free loopback port, on `store`, with every other setting at its
    /// default: what tests, benches and the golden harness start.
    pub fn on_loopback(store: StoreLocation, org_admins: Vec<String>) -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            store,
            org_admins,
            preview_limits: Default::default(),
            preview_transport: None,
            session: None,
            allowed_hosts: Vec::new(),
            connection_limits: Default::default(),
            quotas: Default::default(),
            sign_in: Default::default(),
        }
    }

    /// Whether this server is reached beyond loopback ([`is_exposed`]).
    pub fn is_exposed(&self) -> bool {
        is_exposed(self.addr, &self.allowed_hosts)
    }

    /// Checks that the settings go together, before anything starts.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.sign_in.trusts_any_address() && self.is_exposed() {
            anyhow::bail!(
                "the e-mail sign-in (an address is all it asks for) is only for a serve that only this machine reaches, and this one {}: sign people in through an identity provider (--oidc-issuer, with SITEOPS_OIDC_CLIENT_ID and SITEOPS_OIDC_CLIENT_SECRET), or turn sign-in off (--no-sign-in) and mint tokens with `siteops token`",
                if self.allowed_hosts.is_empty() {
                    format!("listens on {}", self.addr)
                } else {
                    format!("answers {}", self.allowed_hosts.join(", "))
                }
            );
        }
        Ok(())
    }
}

/// The runtime a server runs on: tokio's, with its blocking pool bounded. Every store
/// read and write, code file read and page conversion runs on that pool; left at tokio's
/// 512 threads, 64 clients viewing pages grew it to hundreds of threads, each keeping
/// the heap it touched (`cargo xtask bench load`: 275 MB at the peak; 137 MB with 32).
/// Past the bound, blocking work waits its turn.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()
}

/// The blocking pool's bound (see [`runtime`]).
pub const MAX_BLOCKING_THREADS: usize = 32;

/// Whether a server listening on `listen` and answering the `allowed_hosts` names
/// (`--allowed-host`) is reached beyond loopback: it listens on an address that is not
/// loopback (the unspecified `0.0.0.0` and `[::]` included), or it answers a name of its
/// own, which only a machine other than this one has reason to send. What trusts whoever
/// reaches the server (private sources, an e-mail sign-in) is for one that is not.
pub fn is_exposed(listen: SocketAddr, allowed_hosts: &[String]) -> bool {
    !listen.ip().to_canonical().is_loopback() || !allowed_hosts.is_empty()
}

/// The address this machine reaches a server listening on `listen` at: loopback of the
/// same family for the unspecified address, else `listen` itself.
fn reachable(listen: SocketAddr) -> SocketAddr {
    match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => (Ipv4Addr::LOCALHOST, listen.port()).into(),
        IpAddr::V6(ip) if ip.is_unspecified() => (Ipv6Addr::LOCALHOST, listen.port()).into(),
        _ => listen,
    }
}

/// A server running in the background of the current tokio runtime.
pub struct RunningServer {
    /// Where this machine reaches it (loopback for a server listening on every address).
    pub addr: SocketAddr,
    /// The address it listens on, its port chosen.
    pub listening: SocketAddr,
    pub state: Arc<AppState>,
    shutdown: Option<oneshot::Sender<()>>,
    /// Changes (its sender dropped) when the server's task ends: the site ports stop.
    closed: tokio::sync::watch::Receiver<()>,
    /// The accept loop's limits, which the site ports share.
    limits: listen::ConnectionLimits,
    task: JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// Stops accepting, lets requests in flight finish, and waits.
    pub async fn stop(mut self) -> std::io::Result<()> {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        self.task.await.unwrap_or(Ok(()))
    }

    /// Waits until the server stops (on its own, or after Ctrl-C).
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.unwrap_or(Ok(()))
    }
}

/// Opens the store, binds the address and starts serving.
pub async fn start(config: ServerConfig) -> anyhow::Result<RunningServer> {
    config.check()?;
    // A key that is set but unusable stops the start: secrets must never be written clear
    // by mistake.
    let sealing = crate::sites::sealed::key().map_err(anyhow::Error::msg)?;
    // A store beyond this machine (a bucket, shared by instances and read by its cloud's
    // operators) holds tokens' signing key and every secret: never in the clear.
    if sealing.is_none() && matches!(config.store, StoreLocation::Url(_)) {
        anyhow::bail!(
            "--store {} needs ${}: everything secret is sealed in a store beyond this machine (make one with `openssl rand -base64 32`)",
            config.store,
            crate::sites::sealed::KEY_VARIABLE
        );
    }
    let store = config.store.open()?;
    start_on(config, store).await
}

/// Starts serving on `store`, already open (what [`start`] opened from `config.store`, or
/// a store a caller made: a test's).
pub async fn start_on(
    config: ServerConfig,
    store: Arc<dyn crate::store::Store>,
) -> anyhow::Result<RunningServer> {
    crate::sites::sealed::check_key(store.as_ref()).await?;
    let key = signing_key(store.as_ref()).await?;
    let locks: Arc<crate::store::KeyedLocks> = Default::default();
    // A store written by siteops from before one document per site: its sites' old
    // public configurations and secrets go into their documents, once.
    let folded = crate::sites::legacy::fold_all(&store, &locks).await?;
    if folded > 0 {
        tracing::info!(
            folded,
            "sites' old public configurations and secrets folded"
        );
    }
    let transport: Arc<dyn crate::preview::Transport> = config
        .preview_transport
        .clone()
        .unwrap_or_else(|| Arc::new(crate::preview::ReqwestTransport::new()));
    let code_sync = CodeSync::new(
        store.clone(),
        transport.clone(),
        config.quotas.concurrent_sync_jobs,
    );
    let code_sync = Arc::new(code_sync);
    let state = Arc::new(AppState {
        code_sync: code_sync.clone(),
        code: Arc::new(crate::code::SiteCode::new(store.clone())),
        renders: Default::default(),
        store,
        locks,
        usage_locks: Default::default(),
        key,
        org_admins: Arc::new(OrgAdmins::parse(&config.org_admins)),
        preview_transport: transport,
        preview_limits: Arc::new(config.preview_limits.clone()),
        session: config.session.clone(),
        allowed_hosts: config.allowed_hosts.clone(),
        sign_in: Default::default(),
        identity: Arc::new(Identity::new(&config.sign_in)),
        exposed: config.is_exposed(),
        throttles: Arc::new(crate::quota::Throttles::new(config.quotas.clone())),
        own_addr: Default::default(),
    });
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let listening = listener.local_addr()?;
    let addr = reachable(listening);
    let _ = state.own_addr.set(addr);
    let app = app(state.clone());
    let (shutdown, stopped) = oneshot::channel::<()>();
    let connection_limits = config.connection_limits.clone();
    let session = state.session.clone();
    let (closing, closed) = tokio::sync::watch::channel(());
    let limits = connection_limits.clone();
    let task = tokio::spawn(async move {
        let _closing = closing;
        let stop = async move {
            tokio::select! {
                _ = stopped => {}
                _ = tokio::signal::ctrl_c() => tracing::info!("Ctrl-C: shutting down"),
                _ = terminated() => tracing::info!("SIGTERM: finishing the requests in flight"),
            }
            if let Some(session) = session {
                session.closing();
            }
        };
        tokio::select! {
            served = listen::serve(listener, app, connection_limits, stop) => served,
            () = adopt_jobs(code_sync) => Ok(()),
        }
    });
    Ok(RunningServer {
        addr,
        listening,
        state,
        shutdown: Some(shutdown),
        closed,
        limits,
        task,
    })
}

/// Takes over the code sync jobs whose instance stopped (at start, then every half lease),
/// for as long as the server serves.
async fn adopt_jobs(code_sync: Arc<CodeSync>) {
    loop {
        match code_sync.adopt().await {
            Ok(0) => {}
            Ok(adopted) => tracing::info!(adopted, "code sync jobs taken over"),
            Err(error) => tracing::warn!(%error, "cannot read the code sync jobs"),
        }
        tokio::time::sleep(code_sync.adopt_every()).await;
    }
}

/// SIGTERM, which a process manager or an orchestrator sends to stop an instance (never,
/// where there is no such signal).
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    std::future::pending::<()>().await;
}

/// The whole application: requests for a `Host` that is not served refused
/// ([`hosts`]), then preview hosts by `Host`, everything else by path. The one place that
/// mounts every route family (the administration API, the worker, the live session's).
pub fn app(state: Arc<AppState>) -> Router {
    let router = match &state.session {
        Some(session) => session.clone().routes(state.clone()),
        None => Router::new(),
    };
    router
        .route("/healthz", axum::routing::get(health::healthz))
        .route(
            "/readyz",
            axum::routing::get(health::readyz).with_state(state.clone()),
        )
        .nest("/admin", admin::router(state.clone()))
        .nest("/api", admin::api_router(state.clone()))
        .nest("/transform", crate::worker::router(state.clone()))
        .layer(middleware::from_fn_with_state(state.clone(), dispatch_host))
        .layer(middleware::from_fn(cross_site::check))
        .layer(middleware::from_fn_with_state(state.clone(), hosts::check))
        .layer(middleware::from_fn(log_request))
}

async fn dispatch_host(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    match PreviewHost::of(request.headers()) {
        Some(host) => preview_host::handle(&state, &host, request).await,
        None => next.run(request).await,
    }
}

/// A request slower than this is logged at `INFO` (everything else that went well, at
/// `DEBUG`): what makes a page slow shows without the log of every request.
const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_secs(1);

/// One line per request: at `DEBUG`, or `INFO` when it was slow, `WARN` when the server
/// failed it (5xx). A page view is a dozen requests (the page, its code, the preview's
/// own requests to the worker): logged at `INFO`, they drowned what matters.
async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let host = request
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    // An error's message (`x-error`) goes to the log too: why a request failed shows
    // where the operator looks. An absent field is left out (an `Option` records nothing).
    let error = response
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok());
    let ms = elapsed.as_millis() as u64;
    macro_rules! log_at {
        ($level:expr) => {
            tracing::event!(
                $level,
                %method,
                host = host.as_deref().map(tracing::field::display),
                %uri,
                status,
                ms,
                error,
                "request"
            )
        };
    }
    match request_level(status, elapsed, uri.path()) {
        tracing::Level::WARN => log_at!(tracing::Level::WARN),
        tracing::Level::INFO => log_at!(tracing::Level::INFO),
        _ => log_at!(tracing::Level::DEBUG),
    }
    response
}

/// The level a request is logged at ([`log_request`]). A health probe's 503 is its answer
/// ("not yet": a load balancer or a test asks `/readyz` until the first apply), not a
/// failure of the server; why it is not ready is logged where that is found.
fn request_level(status: u16, elapsed: std::time::Duration, path: &str) -> tracing::Level {
    if status == 503 && health::PATHS.contains(&path) {
        tracing::Level::DEBUG
    } else if status >= 500 {
        tracing::Level::WARN
    } else if elapsed >= SLOW_REQUEST {
        tracing::Level::INFO
    } else {
        tracing::Level::DEBUG
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27, finding 13: reached beyond loopback means a listen address that is not
    /// loopback, or any `--allowed-host`.
    #[test]
    fn exposed_beyond_loopback() {
        let none: &[String] = &[];
        let named = ["siteops.acme.example".to_string()];
        for (listen, allowed, exposed) in [
            ("127.0.0.1:3000", none, false),
            ("127.0.0.2:0", none, false),
            ("[::1]:3000", none, false),
            ("[::ffff:127.0.0.1]:3000", none, false),
            ("127.0.0.1:3000", &named[..], true),
            ("0.0.0.0:3000", none, true),
            ("[::]:3000", none, true),
            ("10.0.0.5:3000", none, true),
            ("192.168.1.10:3000", none, true),
            ("[2001:db8::1]:3000", none, true),
        ] {
            let listen: SocketAddr = listen.parse().expect(listen);
            assert_eq!(is_exposed(listen, allowed), exposed, "{listen} {allowed:?}");
        }
    }

    /// Issue 28: every request was logged at `INFO`.
    #[test]
    fn requests_are_logged_at_debug_unless_failed_or_slow() {
        use std::time::Duration;
        use tracing::Level;
        let quick = Duration::from_millis(3);
        assert_eq!(request_level(200, quick, "/"), Level::DEBUG);
        assert_eq!(request_level(404, quick, "/"), Level::DEBUG);
        assert_eq!(request_level(200, SLOW_REQUEST, "/"), Level::INFO);
        assert_eq!(request_level(502, quick, "/"), Level::WARN);
        assert_eq!(request_level(500, SLOW_REQUEST, "/"), Level::WARN);
        // Issue 44: a WARN line per `/readyz` asked while the repository was applied.
        assert_eq!(request_level(503, quick, "/readyz"), Level::DEBUG);
        assert_eq!(request_level(500, quick, "/readyz"), Level::WARN);
        assert_eq!(request_level(503, quick, "/admin"), Level::WARN);
    }

    #[test]
    fn every_address_is_reached_on_loopback() {
        for (listen, reached) in [
            ("0.0.0.0:3000", "127.0.0.1:3000"),
            ("[::]:3000", "[::1]:3000"),
            ("127.0.0.2:80", "127.0.0.2:80"),
            ("10.0.0.5:3000", "10.0.0.5:3000"),
        ] {
            let listen: SocketAddr = listen.parse().expect(listen);
            assert_eq!(reachable(listen).to_string(), reached);
        }
    }
}
