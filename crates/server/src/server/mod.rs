//! `siteops serve`: one HTTP server for the administration service (`/admin`), and the
//! site preview hosts, chosen by `Host: <branch>--<site>--<org>.localhost`.

mod code_files;
mod health;
pub mod hosts;
pub mod listen;
pub mod page_policy;
mod preview_host;

use std::net::SocketAddr;
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
use crate::auth::OrgAdmins;
use crate::codesync::runner::CodeSync;
use crate::store::{KeyedLocks, StoreLocation};

pub use preview_host::{PreviewHost, check_content_access, serve as serve_stored};

#[derive(Debug, Clone)]
pub struct ServerConfig {
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
}

/// A server running in the background of the current tokio runtime.
pub struct RunningServer {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
    shutdown: Option<oneshot::Sender<()>>,
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
    // A key that is set but unusable stops the start: secrets must never be written clear
    // by mistake.
    crate::sites::sealed::key().map_err(anyhow::Error::msg)?;
    let store = config.store.open()?;
    let key = admin::signing_key(store.as_ref())?;
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
        store,
        locks: KeyedLocks::default(),
        key,
        org_admins: OrgAdmins::parse(&config.org_admins),
        preview_transport: transport,
        preview_limits: config.preview_limits.clone(),
        worker_cache: Default::default(),
        session: config.session.clone(),
        allowed_hosts: config.allowed_hosts.clone(),
        sign_in: Default::default(),
        throttles: crate::quota::Throttles::new(config.quotas.clone()),
        own_addr: Default::default(),
    });
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let addr = listener.local_addr()?;
    let _ = state.own_addr.set(addr);
    let app = app(state.clone());
    let (shutdown, stopped) = oneshot::channel::<()>();
    let connection_limits = config.connection_limits.clone();
    let task = tokio::spawn(async move {
        let stop = async move {
            tokio::select! {
                _ = stopped => {}
                _ = tokio::signal::ctrl_c() => tracing::info!("Ctrl-C: shutting down"),
                _ = terminated() => tracing::info!("SIGTERM: finishing the requests in flight"),
            }
        };
        tokio::select! {
            served = listen::serve(listener, app, connection_limits, stop) => served,
            () = adopt_jobs(code_sync) => Ok(()),
        }
    });
    Ok(RunningServer {
        addr,
        state,
        shutdown: Some(shutdown),
        task,
    })
}

/// The whole application: requests for a `Host` that is not served refused
/// ([`hosts`]), then preview hosts by `Host`, everything else by path.
/// Takes over the code sync jobs whose instance stopped (at start, then every half lease),
/// for as long as the server serves.
async fn adopt_jobs(code_sync: Arc<CodeSync>) {
    loop {
        match code_sync.adopt() {
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
        .nest("/transform", crate::worker::router(state.clone()))
        .layer(middleware::from_fn_with_state(state.clone(), dispatch_host))
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

async fn log_request(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    // An error's message (`x-error`) goes to the log too: why a request failed shows
    // where the operator looks.
    let error = response
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    tracing::info!(
        %method,
        %uri,
        status = response.status().as_u16(),
        ms = started.elapsed().as_millis() as u64,
        error,
        "request"
    );
    response
}
