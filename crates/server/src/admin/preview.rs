//! `/preview/<org>/<site>/<branch>/<page path>`:
//! - `POST` previews the page: the pipeline ([`crate::preview`]) fetches it from the
//!   site's effective content source (overlay first), stores its images, converts it, and
//!   the result is stored durably; the answer is the preview's JSON with the trace;
//! - `GET` answers the same JSON for the stored preview, with `preview.status` 404 when
//!   the page has not been previewed;
//! - `DELETE` removes the stored preview (204; 404 when there is none), with the images no
//!   other page of the branch shows, which gives the site's usage back its bytes.
//!
//! A preview that would take the site's previews past their cap of stored bytes is refused
//! with 507 ([`crate::preview::usage`]); the page stays as it was.
//!
//! All need a token with the right to operate the site (`Action::Operate`: site and org
//! administrators; `config_admin` accounts may not preview): 401 without, 403 with the
//! wrong role. Errors have an empty body and the message in `x-error`.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::check_names;
use super::config::existing_site;
use super::error::ApiError;
use crate::app::AppState;
use crate::effective::content_source;
use url::Url;

use crate::auth::{Action, Claims};
use crate::code::SiteCode;
use crate::preview::fetch::WorkerCredential;
use crate::preview::store::{BranchPreviews, PreviewRecord, Rewrite};
use crate::preview::{PagePath, PreviewError, PreviewRequest};
use crate::sites::Site;

pub async fn handle(
    State(state): State<Arc<AppState>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    match route(&state, &method, &uri, &headers).await {
        Ok(response) => response,
        Err(error) => error.without_body(),
    }
}

/// The org, site, branch and raw page path of a `/preview/…` request path.
fn split(path: &str) -> Option<(&str, &str, &str, &str)> {
    let rest = &path[path.find("/preview/")? + "/preview/".len()..];
    let mut parts = rest.splitn(4, '/');
    Some((
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next().unwrap_or(""),
    ))
}

async fn route(
    state: &AppState,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let (org, site, branch, raw) =
        split(uri.path()).ok_or_else(|| ApiError::not_found("no such preview resource"))?;
    check_names(&[("org", org), ("site", site), ("branch", branch)])?;
    let page = PagePath::parse(raw).map_err(|e| ApiError::bad_request(e.to_string()))?;
    if !matches!(
        *method,
        Method::GET | Method::HEAD | Method::POST | Method::DELETE
    ) {
        return Err(ApiError::method_not_allowed("GET, HEAD, POST, DELETE"));
    }
    let document = existing_site(state, headers, org, site, Action::Operate).await?;
    let store = state.store.as_ref();
    let previews = BranchPreviews::new(store, org, site, branch);
    if *method == Method::DELETE {
        return delete(state, &previews, org, site, &page).await;
    }
    let links = Links::new(headers, org, site, branch);
    if matches!(*method, Method::GET | Method::HEAD) {
        let record = match previews.load(&page.web_path()).await? {
            Some(record) => Some(record),
            None => previews.load(&page.resource_path(true)).await?,
        };
        return Ok(Json(match record {
            Some(record) => answer(&record, &links),
            None => not_previewed(&page, &links),
        })
        .into_response());
    }
    let preview_origin = Url::parse(&links.preview_host)
        .map_err(|_| ApiError::bad_request("the request's Host header is not usable"))?;
    let site_ref = SiteRef {
        org,
        site,
        branch,
        document: &document,
    };
    let record = preview_now(
        state,
        &site_ref,
        &page,
        headers.get("x-content-source-authorization"),
        state.caller(headers).as_ref(),
        &preview_origin,
        Rewrite::Always,
    )
    .await?;
    Ok(Json(answer(&record, &links)).into_response())
}

/// Removes the stored preview of `page` (a sheet's too, as `GET` finds it), under the
/// page's lock: 204, or 404 when it has none.
async fn delete(
    state: &AppState,
    previews: &BranchPreviews<'_>,
    org: &str,
    site: &str,
    page: &PagePath,
) -> Result<Response, ApiError> {
    let mut web_path = page.web_path();
    if previews.load(&web_path).await?.is_none() {
        web_path = page.resource_path(true);
    }
    let _guard = state.locks.lock(previews.page(&web_path).lock_name()).await;
    let usage = state.preview_usage(org, site);
    let room = usage.room(HOLD_PAST_DEADLINE);
    if !previews.delete(&web_path, &room).await? {
        return Err(ApiError::not_found(format!(
            "{} has not been previewed",
            page.web_path()
        )));
    }
    room.finish().await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// A site, its stored document and the branch previewed.
pub struct SiteRef<'a> {
    pub org: &'a str,
    pub site: &'a str,
    pub branch: &'a str,
    pub document: &'a Site,
}

/// Previews `page` now and stores the result: the pipeline from the site's effective
/// content source, then the record saved under the page's lock. For a site that requires
/// authentication, `caller` lends the preview a token for the site's pages on this
/// server's own worker. `serve`'s preview hosts
/// call it too, to preview a page when it is viewed. In `serve` the outcome also goes to
/// the live session's list of recent previews, trace included.
pub async fn preview_now(
    state: &AppState,
    target: &SiteRef<'_>,
    page: &PagePath,
    authorization: Option<&axum::http::HeaderValue>,
    caller: Option<&Claims>,
    preview_origin: &Url,
    rewrite: Rewrite,
) -> Result<PreviewRecord, ApiError> {
    let SiteRef {
        org,
        site,
        branch,
        document,
    } = *target;
    let store = state.store.as_ref();
    let previews = BranchPreviews::new(store, org, site, branch);
    let content = content_source(&state.code, document, branch)
        .await
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{org}/{site} has no content source (neither configured nor in fstab.yaml)"
            ))
        })?;
    let worker = caller
        .filter(|_| document.requires_auth())
        .and_then(|caller| worker_credential(state, org, site, caller));
    let request = PreviewRequest {
        content: &content.value,
        page,
        authorization,
        worker: worker.as_ref(),
        preview_origin,
        head_html: head_html(&state.code, document, branch).await,
    };
    // A turn among the previews running at once; the wait counts against the deadline.
    let began = std::time::Instant::now();
    let deadline = state.preview_limits.preview_deadline;
    let Some(turn) = state.throttles.preview_slot(org, deadline).await else {
        let quotas = &state.throttles.quotas;
        return Err(ApiError::busy(format!(
            "no preview turn came within {} ms: {} previews run at once, at most {} of org {org}",
            deadline.as_millis(),
            quotas.concurrent_previews,
            quotas.previews_per_org,
        )));
    };
    // What the preview writes is counted in the site's usage, under its cap. The hold of
    // room outlasts the deadline, so that only a preview that stopped loses it.
    let usage = state.preview_usage(org, site);
    let room = usage.room(state.preview_limits.preview_deadline + HOLD_PAST_DEADLINE);
    let outcome = crate::preview::run(
        state.preview_transport.as_ref(),
        &state.preview_limits,
        &request,
        &previews.media_sink(&room),
        began,
    )
    .await;
    // The turn is for fetching and converting; recording the outcome needs none.
    drop(turn);
    let (preview, trace) = match outcome {
        Ok(preview) => {
            let trace = preview.trace.clone();
            (Ok(preview), trace)
        }
        Err(failure) => (Err(failure.error), failure.trace),
    };
    log_trace(org, site, branch, &page.web_path(), &trace);
    // The page's lock, held until what the save replaced is removed.
    let mut page_lock = None;
    let saved = match preview {
        Ok(preview) => {
            let content_bus_id = hex_id(&content.value.source.url);
            let now = crate::time::now_rfc3339();
            page_lock = Some(
                state
                    .locks
                    .lock(previews.page(&preview.web_path).lock_name())
                    .await,
            );
            previews
                .save_when(&preview, &content_bus_id, &now, rewrite, &room)
                .await
                .map_err(ApiError::from)
        }
        // The site's refusal of room, whatever the pipeline made of the image it stopped.
        Err(error) => Err(room
            .refusal()
            .map_or_else(|| api_error(error), ApiError::from)),
    };
    if saved.is_err() {
        // A failed preview keeps none of the images it wrote; the page stays as it was.
        if let Err(error) = previews.forget_created(&room).await {
            tracing::error!(%error, "the images of a failed preview were not looked at");
        }
    }
    if let Err(error) = room.finish().await {
        // The preview is what it is; the usage stays counted over until a recount.
        tracing::error!(%error, org, site, "the preview's usage was not settled");
    }
    drop(page_lock);
    if let Some(session) = &state.session {
        let (status, error) = match &saved {
            Ok(_) => (200, None),
            Err(error) => (error.status.as_u16(), Some(error.message.clone())),
        };
        session.previewed(crate::app::RecentPreview {
            id: 0,
            site: siteops_config::model::SiteId {
                org: org.into(),
                site: site.into(),
            },
            branch: branch.into(),
            path: page.web_path(),
            status,
            error,
            at: crate::time::now_seconds(),
            trace: trace.clone(),
        });
    }
    saved
}

/// How long a preview's hold of room lasts past its deadline: its save comes after it.
const HOLD_PAST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(600);

/// A token for `org/site`'s pages on this server's own worker, for the time of one
/// preview: the caller's identity (so the worker grants what the caller's role allows),
/// for that site only.
fn worker_credential(
    state: &AppState,
    org: &str,
    site: &str,
    caller: &Claims,
) -> Option<WorkerCredential> {
    let own = *state.own_addr.get()?;
    let now = crate::time::now_seconds();
    let token = state.key.sign(&Claims {
        sub: caller.sub.clone(),
        iat: now,
        exp: now + state.preview_limits.preview_deadline.as_secs() + 1,
        aud: format!("{org}/{site}"),
    });
    Some(WorkerCredential {
        own,
        path_prefix: format!("/transform/{org}/{site}/"),
        token: axum::http::HeaderValue::from_str(&token).ok()?,
    })
}

/// The site's `head.html` from its code (a checkout, else the branch's, else main's).
async fn head_html(code: &SiteCode, site: &Site, branch: &str) -> Option<String> {
    code.text(&site.org, &site.code_repo()?, branch, "head.html")
        .await
}

/// A content bus id: 40 hex digits of the SHA-256 of the primary source's URL, so sites
/// that share a source share it.
fn hex_id(source: &str) -> String {
    hex::encode(&Sha256::digest(source.as_bytes())[..20])
}

fn api_error(error: PreviewError) -> ApiError {
    ApiError::new(
        StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_GATEWAY),
        error.message,
    )
}

/// `serve` shows each fetch attempt and each image of a preview in its log.
fn log_trace(org: &str, site: &str, branch: &str, path: &str, trace: &crate::preview::Trace) {
    for attempt in &trace.fetch {
        tracing::info!(
            page = %format!("{org}/{site}/{branch}{path}"),
            source = %attempt.source,
            url = %attempt.url,
            status = attempt.status,
            ms = attempt.elapsed_ms,
            decision = %attempt.decision,
            "preview fetch"
        );
    }
    for image in &trace.images {
        tracing::info!(
            page = %format!("{org}/{site}/{branch}{path}"),
            src = %image.src,
            authorization = image.allowed,
            status = image.status,
            attempts = image.attempts,
            decision = %image.decision,
            stored = image.stored_as.as_deref().unwrap_or(""),
            "preview image"
        );
    }
}

/// Addresses the answer links to, on the host the request came in on.
struct Links {
    admin: String,
    preview_host: String,
    org: String,
    site: String,
    branch: String,
}

impl Links {
    fn new(headers: &HeaderMap, org: &str, site: &str, branch: &str) -> Links {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("127.0.0.1");
        let port = host
            .rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map(|(_, port)| format!(":{port}"))
            .unwrap_or_default();
        Links {
            admin: format!("http://{host}/admin"),
            preview_host: format!("http://{branch}--{site}--{org}.localhost{port}"),
            org: org.into(),
            site: site.into(),
            branch: branch.into(),
        }
    }

    fn json(&self, web_path: &str) -> Value {
        let Links {
            admin,
            org,
            site,
            branch,
            ..
        } = self;
        json!({
            "status": format!("{admin}/status/{org}/{site}/{branch}"),
            "preview": format!("{admin}/preview/{org}/{site}/{branch}{web_path}"),
        })
    }
}

fn answer(record: &PreviewRecord, links: &Links) -> Value {
    json!({
        "webPath": record.web_path,
        "resourcePath": record.resource_path,
        "preview": {
            "status": 200,
            "url": format!("{}{}", links.preview_host, record.web_path),
            "lastModified": record.last_modified,
            "contentBusId": record.content_bus_id,
            "sourceLocation": format!("markup:{}", record.source_url),
            "source": record.source,
            "sourceLastModified": record.source_last_modified,
            "contentType": if record.is_json() { "application/json" } else { "text/html" },
            "media": record.media,
        },
        "links": links.json(&record.web_path),
        "trace": record.trace,
        "warnings": record.warnings,
    })
}

fn not_previewed(page: &PagePath, links: &Links) -> Value {
    json!({
        "webPath": page.web_path(),
        "resourcePath": page.resource_path(false),
        "preview": {"status": 404},
        "links": links.json(&page.web_path()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preview_paths() {
        assert_eq!(
            split("/preview/acme/web/main/a/b"),
            Some(("acme", "web", "main", "a/b"))
        );
        assert_eq!(
            split("/preview/acme/web/main"),
            Some(("acme", "web", "main", ""))
        );
        assert_eq!(
            split("/preview/acme/web/main/"),
            Some(("acme", "web", "main", ""))
        );
        assert_eq!(split("/preview/acme/web"), None);
    }
}
