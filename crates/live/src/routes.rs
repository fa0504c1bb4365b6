//! What `serve` adds when a live session runs, plugged into the server as its
//! [`Session`]: the dashboard at `/`, the trace pages of recent previews, the reload
//! events, and the preview hosts' preview-on-view.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use url::Url;

use futures_util::future::BoxFuture;
use maud::{DOCTYPE, html};

use crate::dashboard::{self, Addresses, JOBS_PATH, PreviewSummary};
use crate::events::{self, EVENTS_PATH, Invalid, PageScript, Stale};
use crate::{Live, jobs_page, trace_page};
use siteops_server::api::ApiError;
use siteops_server::api::caller::{OptionalCaller, caller};
use siteops_server::app::{AppState, RecentPreview, Session};
use siteops_server::auth::{Action, Claims, Decision, Grants, KeyStanding, authorize_in};
use siteops_server::code::CodeRepo;
use siteops_server::preview::PreviewHost;
use siteops_server::preview::service::SiteRef;
use siteops_server::preview::store::{BranchPreviews, PreviewRecord};
use siteops_server::preview::url::{Requested, Variant, requested};
use siteops_server::server;
use siteops_server::sites::{self, Site};

impl Session for Live {
    fn routes(self: Arc<Self>, state: Arc<AppState>) -> Router {
        let (dashboard, events, traces) = (self.clone(), self.clone(), self);
        let jobs = format!("{JOBS_PATH}/{{org}}/{{site}}/{{branch}}");
        Router::new()
            .route(
                "/",
                get(|State(state), _: Operator, request| dashboard_page(state, dashboard, request)),
            )
            .route(
                EVENTS_PATH,
                get(|_: Operator, request: Request| async move {
                    open_events(&events, peer_of(&request), events::Audience::Operator)
                }),
            )
            .route(
                "/.siteops/previews/{id}",
                get(|_: Operator, Path(id), request: Request| trace(traces, id, request)),
            )
            .route(
                &jobs,
                get(
                    |State(state): State<Arc<AppState>>,
                     _: Operator,
                     Path(site),
                     request: Request| async move {
                        jobs_of(&state, site, port_of(&request).unwrap_or(80)).await
                    },
                ),
            )
            .with_state(state)
    }

    fn preview_host<'a>(
        self: Arc<Self>,
        state: &'a AppState,
        host: &'a PreviewHost,
        request: Request,
    ) -> BoxFuture<'a, Response> {
        Box::pin(async move { preview_host(state, &self, host, request).await })
    }

    fn previewed(&self, preview: RecentPreview) {
        self.record_preview(preview);
    }

    fn is_ready(&self) -> bool {
        // Every reload, the first included, counts once it has finished.
        self.snapshot
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .generation
            > 0
    }

    fn closing(&self) {
        self.streams.close();
    }
}

/// Someone who may see the session's own pages (dashboard, traces, jobs, reload events):
/// anyone on a serve only this machine reaches; else an administrator of every org
/// (`--org-admin ADDRESS`), signed in. Refused with 401 or 403 otherwise.
struct Operator;

impl FromRequestParts<Arc<AppState>> for Operator {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Operator, ApiError> {
        let Ok(OptionalCaller(caller)) = OptionalCaller::from_request_parts(parts, state).await;
        check_operator(state, caller.as_ref()).map(|()| Operator)
    }
}

/// Whether `caller` may see the session's own pages ([`Operator`]).
fn check_operator(state: &AppState, caller: Option<&Claims>) -> Result<(), ApiError> {
    if !state.exposed {
        return Ok(());
    }
    match caller {
        None => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this service is reached beyond this machine: sign in (/admin/login) as an administrator of every org to see the dashboard",
        )),
        Some(claims) if state.org_admins.is_admin_of_every_org(&claims.sub) => Ok(()),
        Some(claims) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "{} is not an administrator of every org (--org-admin ADDRESS)",
                claims.sub
            ),
        )),
    }
}

async fn dashboard_page(state: Arc<AppState>, live: Arc<Live>, request: Request) -> Response {
    let port = port_of(&request).unwrap_or(80);
    // The snapshot is not held while the code store answers: a reload may finish
    // meanwhile, and the page shows the snapshot as it is then.
    let (previews, repos) = {
        let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
        let applied: std::collections::BTreeSet<&siteops_config::model::SiteId> = snapshot
            .compiled
            .iter()
            .flat_map(|compiled| &compiled.resources)
            .filter_map(|r| r.site())
            .collect();
        // The previews of sites that are gone go with them: their pages answer 404 now.
        let previews: Vec<PreviewSummary> = live
            .recent_previews()
            .into_iter()
            .filter(|p| applied.contains(&p.site))
            .map(PreviewSummary::of)
            .collect();
        let repos: Vec<(String, CodeRepo)> = snapshot
            .compiled
            .iter()
            .flat_map(|compiled| &compiled.resources)
            .filter(|r| r.kind == siteops_config::compile::ResourceKind::Site)
            .filter_map(|r| Some((r.owner.org().to_string(), CodeRepo::of_site(&r.body)?)))
            .collect();
        (previews, repos)
    };
    let code_of = &state.code;
    let code: dashboard::CodeSources = futures_util::future::join_all(
        repos
            .iter()
            .map(|(org, repo)| async move { (repo.clone(), code_of.source(org, repo).await) }),
    )
    .await
    .into_iter()
    .collect();
    let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
    let page = dashboard::page(
        &snapshot,
        &Addresses {
            port,
            site_ports: live.site_ports.get().cloned().unwrap_or_default(),
        },
        &code,
        &previews,
        &live.outgoing(),
    );
    // It shows each reload's outcome as it comes (it has no code, and no banner: it says
    // why itself).
    let script = PageScript {
        generation: snapshot.generation,
        code: "",
        invalid: None,
        stale: None,
        nonce: None,
    };
    Html(events::inject(&page, &script)).into_response()
}

/// The code sync jobs of a site's branch (`/.siteops/jobs/<org>/<site>/<branch>`).
async fn jobs_of(
    state: &AppState,
    (org, site, branch): (String, String, String),
    port: u16,
) -> Response {
    let store = state.store.as_ref();
    let jobs = async {
        siteops_server::api::check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
        sites::load(store, &org, &site)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("site {org}/{site} does not exist")))?;
        Ok::<_, ApiError>(siteops_server::codesync::job::list(store, &org, &site, &branch).await?)
    }
    .await;
    let jobs = match jobs {
        Ok(jobs) => jobs,
        Err(error) => return error.into_response(),
    };
    let site = siteops_config::model::SiteId { org, site };
    Html(jobs_page::page(
        &site,
        &branch,
        &jobs,
        &Addresses {
            port,
            ..Default::default()
        },
    ))
    .into_response()
}

async fn trace(live: Arc<Live>, id: u64, request: Request) -> Response {
    let port = port_of(&request).unwrap_or(80);
    match live.recent_previews().into_iter().find(|p| p.id == id) {
        Some(preview) => Html(trace_page::page(
            &preview,
            &Addresses {
                port,
                ..Default::default()
            },
        ))
        .into_response(),
        None => ApiError::not_found(format!("no recent preview {id}")).into_response(),
    }
}

/// A reload event stream for a client at `peer`, within the session's bounds: 429 past
/// the bound per client, 503 past the bound of all.
fn open_events(live: &Arc<Live>, peer: Option<IpAddr>, audience: events::Audience) -> Response {
    match live.streams.open(peer) {
        Ok(ticket) => events::stream(live.clone(), audience, ticket).into_response(),
        Err(refused) => {
            let status = match refused {
                events::Refused::Client(_) => StatusCode::TOO_MANY_REQUESTS,
                events::Refused::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            };
            ApiError::new(status, refused.to_string()).into_response()
        }
    }
}

/// The address of the client that sent `request`, as the listener saw it.
fn peer_of(request: &Request) -> Option<IpAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip())
}

fn port_of(request: &Request) -> Option<u16> {
    port_of_headers(request.headers())
}

fn port_of_headers(headers: &axum::http::HeaderMap) -> Option<u16> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    host.rsplit_once(':')?.1.parse().ok()
}

/// A preview host request in `serve`: events, or a page previewed now and served with
/// the reload script (and the banner while the repository does not apply), or the stored
/// files as without a session.
async fn preview_host(
    state: &AppState,
    live: &Arc<Live>,
    host: &PreviewHost,
    request: Request,
) -> Response {
    // Only the parts needed, so nothing borrowed from the request is held across an await.
    let peer = peer_of(&request);
    let uri = request.uri().clone();
    let headers = request.headers().clone();
    // The answer's nonce, chosen by the host: the reload script carries it.
    let nonce = request
        .extensions()
        .get::<server::Nonce>()
        .map(|nonce| nonce.0.clone())
        .unwrap_or_default();
    drop(request);
    let path = uri.path();
    let asked = server::Asked {
        uri: &uri,
        headers: &headers,
        nonce: &nonce,
    };
    // Who views, if a valid token says: the session's pages and a protected site's
    // previews ask.
    let viewer = caller(&headers, &state.key);
    let operator = check_operator(state, viewer.as_ref()).is_ok();
    // The events are the dashboard's: a stream holds a connection, so only whom the
    // dashboard answers opens one (anyone, on a serve only this machine reaches).
    if path == EVENTS_PATH {
        return match check_operator(state, viewer.as_ref()) {
            Ok(()) => open_events(live, peer, events::Audience::Operator),
            Err(error) => error.into_response(),
        };
    }
    let (generation, invalid) = {
        let snapshot = live.snapshot.read().unwrap_or_else(|p| p.into_inner());
        // For whom the dashboard is: a failure's message can name the server's own paths.
        // The session's message is the reason only; what it means here is serve's to say.
        let invalid = snapshot.error.as_ref().filter(|_| operator).map(|error| {
            (
                format!("{error}; the last good state stays applied"),
                snapshot.diagnostic_count,
            )
        });
        (snapshot.generation, invalid)
    };
    // Pages only: a browser's own requests (`/favicon.ico`) and files are not previewed;
    // `/config.json` previews the configuration page a path mapping publishes there. A
    // sheet is previewed by its page's path (`/metadata`, which answers with its JSON's
    // place): a markup source has it there, not at `<sheet>.json`.
    let wanted = match requested(path) {
        Ok(Requested::Page(page, variant)) if !has_extension(&page.web_path()) => {
            OnView::Page(page, variant)
        }
        _ if path == server::CONFIG_JSON => OnView::Config,
        _ => return respond(server::serve_stored(state, host, &asked).await),
    };
    let site = sites::load(state.store.as_ref(), &host.org, &host.site)
        .await
        .map_err(ApiError::from)
        .and_then(|site| {
            site.ok_or_else(|| {
                ApiError::not_found(format!("site {}/{} does not exist", host.org, host.site))
            })
        });
    // The page's code repository: a change to its files reloads the page.
    let code = site
        .as_ref()
        .map_or(None, Site::code_repo)
        .map(|repo| repo.to_string())
        .unwrap_or_default();
    let dashboard = Addresses {
        port: port_of_headers(&headers).unwrap_or(80),
        ..Default::default()
    }
    .dashboard();
    let mut script = PageScript {
        generation,
        code: &code,
        invalid: invalid.as_ref().map(|(message, count)| Invalid {
            message,
            count: *count,
            dashboard: &dashboard,
        }),
        stale: None,
        nonce: Some(&nonce).filter(|n| !n.is_empty()).map(String::as_str),
    };
    // Who may not read the page does not get it previewed either.
    let site = match site {
        Ok(site) => state
            .check_content_access(&headers, &site)
            .await
            .map(|()| site),
        Err(error) => Err(error),
    };
    // A view by someone who may not preview is a read: it serves what is stored, and
    // never writes to the store nor takes the org's preview turns.
    let previews_on_view = match &site {
        Ok(site) => may_preview(state, site, viewer.as_ref()).await,
        Err(_) => false,
    };
    // The page the source does not have, and no preview stored: the delivery answers
    // it (a redirect of the redirects sheet, a folder mapping, the code's 404.html).
    let previewed = match site {
        Ok(_) if !previews_on_view => Ok(None),
        Ok(site) => match wanted.page(state, &site, &host.branch).await {
            // A redirect of the redirects sheet wins over the source, as on the platform:
            // the delivery answers it.
            Ok(Some(page)) if redirected(state, host, &page).await => Ok(None),
            Ok(Some(page)) => {
                let previewed =
                    preview_on_view(state, &site, host, &headers, viewer.as_ref(), &page).await;
                match previewed {
                    Err(error) if error.status == StatusCode::NOT_FOUND => {
                        let stored = BranchPreviews::new(
                            state.store.as_ref(),
                            &host.org,
                            &host.site,
                            &host.branch,
                        )
                        .load(&page.web_path())
                        .await;
                        if matches!(stored, Ok(None)) {
                            // A folder mapping serves it: the mapped page is previewed on
                            // view too, so that the delivery maps to its current state.
                            if let Some(target) = mapped_page(&site, &page) {
                                let _ = preview_on_view(
                                    state,
                                    &site,
                                    host,
                                    &headers,
                                    viewer.as_ref(),
                                    &target,
                                )
                                .await;
                            }
                            Ok(None)
                        } else {
                            Err(error)
                        }
                    }
                    previewed => previewed.map(Some),
                }
            }
            Ok(None) => Ok(None),
            Err(error) => Err(error),
        },
        Err(error) => Err(error),
    };
    // A page that came out a sheet is served where the platform serves sheets: `<path>.json`.
    if let (OnView::Page(page, Variant::Html), Ok(Some(record))) = (&wanted, &previewed)
        && record.is_json()
        && record.web_path != page.web_path()
    {
        return Redirect::to(&record.web_path).into_response();
    }
    // The source failed, and a preview is stored: that preview is served, with a banner
    // saying so (a view of a page whose source is down is not an error page).
    let mut failed_source = None;
    let previewed = match previewed {
        Err(error) if is_source_failure(error.status) => {
            match stored_record(state, host, &wanted).await {
                Some(record) => {
                    failed_source = Some((error, record.last_modified));
                    Ok(None)
                }
                None => Err(error),
            }
        }
        previewed => previewed,
    };
    if let Some((error, previewed)) = &failed_source {
        script.stale = Some(Stale {
            status: error.status.as_u16(),
            message: &error.message,
            previewed,
        });
    }
    if let Err(error) = previewed {
        let message = error.message.clone();
        let body = events::inject(&error_page(path, error.status, &message), &script);
        let mut response = (error.status, Html(body)).into_response();
        if let Ok(value) = HeaderValue::from_str(&message.replace(['\r', '\n'], " ")) {
            response.headers_mut().insert("x-error", value);
        }
        return response;
    }
    let response = respond(server::serve_stored(state, host, &asked).await);
    let mut response = if previews_on_view {
        response
    } else {
        how_to_preview(response, host, path)
    };
    if let Some((error, _)) = &failed_source
        && let Ok(value) = HeaderValue::from_str(&format!(
            "the source failed ({}), the stored preview is served: {}",
            error.status.as_u16(),
            error.message.replace(['\r', '\n'], " ")
        ))
    {
        response.headers_mut().insert("x-siteops-stale", value);
    }
    if !matches!(wanted, OnView::Page(_, Variant::Html))
        || !is_html(&response)
        || response.status().is_redirection()
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let html = events::inject(&String::from_utf8_lossy(&bytes), &script);
    let mut response = Response::from_parts(parts, axum::body::Body::from(html));
    response.headers_mut().remove(header::CONTENT_LENGTH);
    response
}

/// Whether a view by `viewer` previews the page it asks for: on a serve only this
/// machine reaches, every view does (the local developer's browser sends no token); on
/// one reached beyond it, only a view whose token holds a role that previews the site
/// ([`Action::Operate`], as `POST /admin/preview` asks). Anyone else's view is a read.
async fn may_preview(state: &AppState, site: &Site, viewer: Option<&Claims>) -> bool {
    if !state.exposed {
        return true;
    }
    let Some(viewer) = viewer else {
        return false;
    };
    // A revoked API key (its record gone) is no viewer at all.
    let holds = siteops_server::auth::standing(state.store.as_ref(), site, viewer).await;
    if !matches!(holds, Ok(KeyStanding::Holds)) {
        return false;
    }
    authorize_in(
        Some(viewer),
        &site.org,
        &site.name,
        Grants::of_site(site),
        &state.org_admins,
        Action::Operate,
    ) == Decision::Allow
}

/// A stored answer of 404 to a view that did not preview: its `x-error` says how the page
/// gets previewed (the body stays the delivery's, e.g. the code's `404.html`).
fn how_to_preview(mut response: Response, host: &PreviewHost, path: &str) -> Response {
    if response.status() != StatusCode::NOT_FOUND {
        return response;
    }
    let message = format!(
        "{path} has no stored preview on this branch; views of a service reached beyond this machine do not preview: sign in (/admin/login) with a role that previews {org}/{site}, or POST /admin/preview/{org}/{site}/{branch}{path}",
        org = host.org,
        site = host.site,
        branch = host.branch,
    );
    if let Ok(value) = HeaderValue::from_str(&message.replace(['\r', '\n'], " ")) {
        response.headers_mut().insert("x-error", value);
    }
    response
}

/// The page a folder mapping of the site serves `page` from, when one does (a mapping to
/// a file name is the code's, not a page to preview).
fn mapped_page(
    site: &Site,
    page: &siteops_server::preview::PagePath,
) -> Option<siteops_server::preview::PagePath> {
    let folders: Vec<(String, String)> = site
        .effective
        .folders
        .as_ref()?
        .0
        .iter()
        .map(|(folder, target)| (folder.clone(), target.clone()))
        .collect();
    let target = siteops_delivery::html_pipe::map_path(&folders, &page.web_path())?;
    let is_file = target
        .rsplit('/')
        .next()
        .is_some_and(|name| name.contains('.'));
    (!is_file).then(|| siteops_server::preview::PagePath::parse(target).ok())?
}

/// Whether the branch's previewed redirects sheet moves `page` elsewhere.
async fn redirected(
    state: &AppState,
    host: &PreviewHost,
    page: &siteops_server::preview::PagePath,
) -> bool {
    let names = (host.org.as_str(), host.site.as_str(), host.branch.as_str());
    siteops_server::preview::delivery::stored_redirect(
        state.store.as_ref(),
        names,
        &page.web_path(),
    )
    .await
    .is_ok_and(|location| location.is_some())
}

/// What a preview host request previews before it is served.
enum OnView {
    /// A page, asked for as this variant.
    Page(siteops_server::preview::PagePath, Variant),
    /// `/config.json`: the configuration page a path mapping publishes there, if any.
    Config,
}

impl OnView {
    /// The page to preview now, if any.
    async fn page(
        &self,
        state: &AppState,
        site: &Site,
        branch: &str,
    ) -> Result<Option<siteops_server::preview::PagePath>, ApiError> {
        match self {
            OnView::Page(page, _) => Ok(Some(page.clone())),
            OnView::Config => {
                let public = sites::public(state.store.as_ref(), &site.org, &site.name).await?;
                let mappings =
                    siteops_server::effective::path_mappings(&state.code, site, branch, public)
                        .await
                        .map(|m| m.value)
                        .unwrap_or_default();
                Ok(server::config_page(&mappings)
                    .and_then(|source| siteops_server::preview::PagePath::parse(source).ok()))
            }
        }
    }
}

fn has_extension(web_path: &str) -> bool {
    web_path
        .rsplit('/')
        .next()
        .is_some_and(|name| name.contains('.'))
}

fn respond(result: Result<Response, ApiError>) -> Response {
    result.unwrap_or_else(IntoResponse::into_response)
}

fn is_html(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"))
}

async fn preview_on_view(
    state: &AppState,
    document: &Site,
    host: &PreviewHost,
    headers: &axum::http::HeaderMap,
    viewer: Option<&Claims>,
    page: &siteops_server::preview::PagePath,
) -> Result<PreviewRecord, ApiError> {
    let origin = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| Url::parse(&format!("http://{h}")).ok())
        .ok_or_else(|| ApiError::bad_request("the request's Host header is not usable"))?;
    let target = SiteRef {
        org: &host.org,
        site: &host.site,
        branch: &host.branch,
        document,
    };
    let authorization = headers.get("x-content-source-authorization");
    // The viewer's identity, when it has one, lends the preview its worker's token: a
    // session reached beyond this machine asks for one (its local browser is not asked).
    state
        .previews()
        .preview_now(
            &target,
            page,
            authorization,
            viewer,
            &origin,
            siteops_server::preview::store::Rewrite::IfChanged,
        )
        .await
}

/// Whether a preview's failure is its source's (it failed, timed out, or is down): a
/// stored preview still stands for the page.
fn is_source_failure(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::BAD_GATEWAY | StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT
    )
}

/// The stored preview of the page a view asks for, if any.
async fn stored_record(
    state: &AppState,
    host: &PreviewHost,
    wanted: &OnView,
) -> Option<PreviewRecord> {
    let OnView::Page(page, _) = wanted else {
        return None;
    };
    let previews = BranchPreviews::new(state.store.as_ref(), &host.org, &host.site, &host.branch);
    previews.load(&page.web_path()).await.ok().flatten()
}

fn error_page(path: &str, status: StatusCode, message: &str) -> String {
    let next = if is_source_failure(status) {
        "The source failed and no preview of this page is stored: reload the page to try again (each view previews it)."
    } else {
        "Fix the source, mock or configuration: this page reloads when the repository changes."
    };
    html! {
        (DOCTYPE)
        html {
            head { meta charset="utf-8"; title { "Preview failed" } }
            body style="font-family:system-ui;margin:40px" {
                h1 { "Preview failed" }
                p { code { (path) } " answered " (status.as_u16()) }
                pre #error style="white-space:pre-wrap" { (message) }
                p { (next) }
            }
        }
    }
    .into_string()
}
