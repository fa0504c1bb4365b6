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
//! `POST …/<branch>/*` with a JSON list of paths is a bulk preview ([`super::bulk`]).
//!
//! All need a token with the right to operate the site (`Action::Operate`: site and org
//! administrators; `config_admin` accounts may not preview): 401 without, 403 with the
//! wrong role. Errors have an empty body and the message in `x-error`.

use axum::Json;
use axum::body::Body;
use axum::extract::{RawPathParams, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::api::answers::{PreviewAnswer, PreviewLinks, PreviewState, PreviewedPage};
use crate::api::site::Operate;
use crate::api::{ApiError, AuthorizedSite};
use crate::app::Previews;
use crate::preview::service::SiteRef;
use crate::preview::store::{BranchPreviews, PreviewRecord, Rewrite};
use crate::preview::{PagePath, PreviewHost};
use url::Url;

/// A preview made here is reported to the live session, which [`Previews`] holds.
pub async fn handle(
    State(previews): State<Previews>,
    authorized: Result<AuthorizedSite<Operate>, ApiError>,
    params: RawPathParams,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    match route(
        &previews, authorized, &params, &method, &uri, &headers, body,
    )
    .await
    {
        Ok(response) => response,
        Err(error) => error.without_body(),
    }
}

async fn route(
    service: &Previews,
    authorized: Result<AuthorizedSite<Operate>, ApiError>,
    params: &RawPathParams,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let raw = raw_page_path(uri);
    if raw == "*" || raw.eq_ignore_ascii_case("%2A") {
        // Not a page: the folder of every page, which only a bulk preview takes.
        if *method != Method::POST {
            return Err(ApiError::method_not_allowed("POST"));
        }
        return super::bulk::start(service, authorized?, branch_of(params), headers, body).await;
    }
    if !matches!(
        *method,
        Method::GET | Method::HEAD | Method::POST | Method::DELETE
    ) {
        return Err(ApiError::method_not_allowed("GET, HEAD, POST, DELETE"));
    }
    let authorized = authorized?;
    let page =
        PagePath::parse(raw_page_path(uri)).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let branch = branch_of(params);
    let (org, site) = (authorized.org.as_str(), authorized.site.as_str());
    let previews = BranchPreviews::new(service.store.as_ref(), org, site, branch);
    if *method == Method::DELETE {
        return delete(service, org, site, branch, &page).await;
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
        document: &authorized.document,
    };
    let record = service
        .preview_now(
            &site_ref,
            &page,
            headers.get("x-content-source-authorization"),
            Some(&authorized.caller),
            &preview_origin,
            Rewrite::Always,
        )
        .await?;
    Ok(Json(answer(&record, &links)).into_response())
}

/// The branch the route matched.
fn branch_of(params: &RawPathParams) -> &str {
    params
        .iter()
        .find_map(|(name, value)| (name == "branch").then_some(value))
        .unwrap_or_default()
}

/// The page path as the request wrote it: the router's parameters (org, site, branch) are
/// percent-decoded, and the page path must not be, for `PagePath` to refuse what decoding
/// would hide (`%2F`). The route matched `/preview/<org>/<site>/<branch>[/<path>]`.
fn raw_page_path(uri: &Uri) -> &str {
    let path = uri.path();
    let Some(at) = path.find("/preview/") else {
        return "";
    };
    path[at + "/preview/".len()..]
        .splitn(4, '/')
        .nth(3)
        .unwrap_or("")
}

/// Removes the stored preview of `page`: 204, or 404 when it has none.
async fn delete(
    service: &Previews,
    org: &str,
    site: &str,
    branch: &str,
    page: &PagePath,
) -> Result<Response, ApiError> {
    if !service.service().delete(org, site, branch, page).await? {
        return Err(ApiError::not_found(format!(
            "{} has not been previewed",
            page.web_path()
        )));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Addresses the answer links to, on the host the request came in on.
pub(super) struct Links {
    pub(super) admin: String,
    pub(super) preview_host: String,
    org: String,
    site: String,
    branch: String,
}

impl Links {
    pub(super) fn new(headers: &HeaderMap, org: &str, site: &str, branch: &str) -> Links {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("127.0.0.1");
        let port = host
            .rsplit_once(':')
            .and_then(|(_, port)| port.parse::<u16>().ok());
        let preview_host = PreviewHost {
            branch: branch.into(),
            site: site.into(),
            org: org.into(),
        };
        Links {
            admin: format!("http://{host}/admin"),
            preview_host: preview_host.origin(port),
            org: org.into(),
            site: site.into(),
            branch: branch.into(),
        }
    }

    fn of(&self, web_path: &str) -> PreviewLinks {
        let Links {
            admin,
            org,
            site,
            branch,
            ..
        } = self;
        PreviewLinks {
            status: format!("{admin}/status/{org}/{site}/{branch}"),
            preview: format!("{admin}/preview/{org}/{site}/{branch}{web_path}"),
        }
    }
}

fn answer(record: &PreviewRecord, links: &Links) -> PreviewAnswer {
    PreviewAnswer {
        web_path: record.web_path.clone(),
        resource_path: record.resource_path.clone(),
        preview: PreviewState::previewed(PreviewedPage {
            url: format!("{}{}", links.preview_host, record.web_path),
            last_modified: record.last_modified.clone(),
            content_bus_id: record.content_bus_id.clone(),
            source_location: format!("markup:{}", record.source_url),
            source: record.source.clone(),
            source_last_modified: record.source_last_modified.clone(),
            content_type: if record.is_json() {
                "application/json"
            } else {
                "text/html"
            }
            .into(),
            media: record.media.clone(),
        }),
        links: links.of(&record.web_path),
        trace: Some(record.trace.clone()),
        warnings: Some(record.warnings.clone()),
    }
}

fn not_previewed(page: &PagePath, links: &Links) -> PreviewAnswer {
    PreviewAnswer {
        web_path: page.web_path(),
        resource_path: page.resource_path(false),
        preview: PreviewState::NOT_PREVIEWED,
        links: links.of(&page.web_path()),
        trace: None,
        warnings: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_as_written() {
        let raw = |path: &str| raw_page_path(&path.parse().expect("uri")).to_string();
        assert_eq!(raw("/preview/acme/web/main/a%2Fb/c"), "a%2Fb/c");
        assert_eq!(raw("/preview/acme/web/main"), "");
        assert_eq!(raw("/preview/acme/web/main/"), "");
        assert_eq!(raw("/admin/preview/acme/web/main/x?y=1"), "x");
    }
}
