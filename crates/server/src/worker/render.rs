//! `GET /transform/<org>/<site>/<branch>/<page path>`: a page rendered from JSON.
//!
//! 0. A site that requires authentication answers only a request with a token its preview
//!    hosts would accept (401 without, 403 for someone else's), before anything else.
//! 1. A page path longer than [`MAX_PAGE_PATH`] bytes: 414, before any regex runs on it.
//!    The first entry whose `path` prefixes the page path handles it (none, or no
//!    configuration for the branch nor `main`: 404).
//! 2. `{{id}}` is the whole match of its `regex`; the endpoint's header placeholders take
//!    the request's headers listed in `forwardHeaders` (a listed header that is absent: 400).
//! 3. The endpoint's JSON is fetched with the entry's `headers` and the forwarded ones
//!    (failure, time-out, oversize or non-JSON: 502 `Failed to fetch endpoint data: …`).
//! 4. A listing entry picks the record whose `pathKey` equals the page path (none: 404).
//! 5. The template comes from the site's code store. A site that requires authentication
//!    gives it only to an entry whose `templateApiKey` is a valid token for the site.
//!    Without a template, the generic page is produced.
//! 6. The render is post-processed: media URL prefix, `article:tag` metadata, mappings.
//!    The page, rendered or generic, is held to [`OUTPUT_LIMIT`] while it is built and
//!    after post-processing (409 beyond).
//!
//! Steps 3 to 6 hold one of a bounded number of permits ([`super::bound`]): past the
//! bound a page waits, then answers 503.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::bound::ParseBound;
use super::cache::WorkerCache;
use super::config::load_effective;
use super::html;
use crate::api::{ApiError, check_names};
use crate::app::AppState;
use crate::effective::path_mappings;
use crate::preview::redirect::follow;
use crate::preview::transport::Answerer;
use crate::sites::{self, Site};
use siteops_config::endpoint::{EndpointTemplate, ExpandError};
use siteops_config::model::api::WorkerEntry;
use siteops_config::routing::{self, IdError};
use siteops_template::json::{Json, JsonRef};
use siteops_template::{NoPartials, RenderError};

/// Largest endpoint document accepted.
pub const DATA_LIMIT: usize = 16 * 1024 * 1024;
/// Time allowed for an endpoint fetch.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest page the worker answers, before and after post-processing: the preview
/// pipeline's own page limit, since a worker page is a preview's page source. A render
/// stops as soon as its output would pass it (409), so one request holds at most this
/// much output whatever the endpoint sends.
pub const OUTPUT_LIMIT: usize = crate::preview::PAGE_LIMIT;
/// Longest page path the worker takes, in bytes (414 beyond, before any entry is looked
/// at). An entry's regex with look-around backtracks, in time quadratic in the path: at
/// this bound the guide's `/(?<=event-)[a-z0-9-]+$/` takes a quarter of a millisecond
/// where a 60 KB path took 0.7 s (`cargo bench -p siteops-jsregex --bench lookaround`).
pub const MAX_PAGE_PATH: usize = 1024;
/// Redirects followed for an endpoint.
const MAX_REDIRECTS: usize = 5;

pub async fn handle(
    State(state): State<Arc<AppState>>,
    State(cache): State<Arc<WorkerCache>>,
    State(parses): State<Arc<ParseBound>>,
    Path((org, site, branch, path)): Path<(String, String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    let page_path = format!("/{path}");
    if page_path.len() > MAX_PAGE_PATH {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the page path is {} bytes long; the worker takes at most {MAX_PAGE_PATH}",
                page_path.len()
            ),
        ));
    }
    let store = state.store.as_ref();
    // A site that requires authentication shows its pages here only to whom its preview
    // hosts would, before its configuration or endpoint is looked at.
    // The site and the worker's configuration are independent reads: one round trip.
    let (site_document, effective) = tokio::join!(
        sites::load(store, &org, &site),
        load_effective(store, &org, &site, &branch)
    );
    let site_document = site_document?;
    if let Some(document) = &site_document {
        state.check_content_access(&headers, document).await?;
    }
    let Some((entries, _)) = effective? else {
        // Nothing configured to render: the page is not found (no server fault).
        return Err(ApiError::not_found(format!(
            "no worker configuration for {org}/{site} branch {branch} (nor main)"
        )));
    };
    let Some((index, entry)) = routing::select(&entries, &page_path) else {
        return Err(ApiError::not_found(format!(
            "no worker entry handles {page_path}"
        )));
    };
    let id = match page_id(&cache, entry, &page_path).await {
        Ok(id) => id,
        Err(IdError::NoMatch(literal)) => {
            return Err(ApiError::not_found(format!(
                "{page_path} does not match {literal}"
            )));
        }
        Err(error @ IdError::Invalid(_)) => {
            return Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                error.to_string(),
            ));
        }
    };
    let endpoint = endpoint_url(entry, id.as_deref(), &headers)?;
    // What the code and the configuration add, read before the endpoint's document is
    // parsed (the parsed document stays on this thread).
    let template = template_source(&state, entry, site_document.as_ref(), &branch).await;
    let mappings = match &site_document {
        Some(document) if entry.use_aem_mapping == Some(true) => {
            let public = sites::public(store, &org, &site).await?;
            path_mappings(&state.code, document, &branch, public).await
        }
        _ => None,
    };
    // The endpoint's document is held (fetched, parsed, rendered) under a permit: a
    // bounded number at once, whoever asks.
    let _permit = parses
        .enter()
        .await
        .map_err(|busy| ApiError::busy(busy.to_string()))?;
    let (mut body, answerer) = fetch_json(&state, entry, &endpoint, &headers).await?;
    let document = Json::parse_in_place(&mut body).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            format!(
                "Failed to fetch endpoint data: the response is not JSON{}",
                answered_by(&answerer)
            ),
        )
    })?;
    let data = view(entry, document.root(), &page_path).ok_or_else(|| {
        ApiError::not_found(format!(
            "no record of {endpoint} has {} = {page_path}",
            entry.path_key.as_deref().unwrap_or_default()
        ))
    })?;
    let too_large = || {
        ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the page of entry {index} (path {}) would be larger than the worker's output limit of {OUTPUT_LIMIT} bytes",
                entry.path
            ),
        )
    };
    let mut page = match template {
        Some(source) => {
            let template = cache.template(&source).map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("template error: {e}"),
                )
            })?;
            template
                .render_limited(data, &NoPartials, OUTPUT_LIMIT)
                .map_err(|error| match error {
                    RenderError::TooLarge { .. } => too_large(),
                    RenderError::Template(e) => ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        format!("template error: {e}"),
                    ),
                })?
        }
        None => html::generic_html(data, OUTPUT_LIMIT).map_err(|_| too_large())?,
    };
    if let Some(prefix) = &entry.relative_url_prefix {
        page = html::prefix_media_urls(&page, prefix);
    }
    page = html::expand_tags(&page);
    if let Some(mappings) = &mappings {
        page = html::apply_mappings(&page, &mappings.value);
    }
    // Post-processing may lengthen links (a media prefix on each): the answer obeys the
    // limit too.
    if page.len() > OUTPUT_LIMIT {
        return Err(too_large());
    }
    let mut response = page.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    Ok(response)
}

/// The data an entry's template renders for `page_path`, from the endpoint's document:
/// the document itself, or for a listing entry (`arrayKey` and `pathKey`) the record whose
/// `pathKey` equals the page path (`None`: no such record, the page is not found). Pure,
/// so that `siteops validate` renders an example's mock exactly as this route does.
pub fn view<'d>(
    entry: &WorkerEntry,
    document: JsonRef<'d>,
    page_path: &str,
) -> Option<JsonRef<'d>> {
    match (&entry.array_key, &entry.path_key) {
        (Some(array_key), Some(path_key)) => {
            select_record(document, array_key, path_key, page_path)
        }
        _ => Some(document),
    }
}

/// Who answered the endpoint, for a message about its answer: a mock names its file, so
/// that the page's error says which file to fix (nothing for the network).
fn answered_by(answerer: &Answerer) -> String {
    match answerer {
        Answerer::Network => String::new(),
        Answerer::Mock { name, file } => format!(" (answered by the mock `{name}`, {file})"),
    }
}

/// `routing::id`, with the entry's regex compiled once. A regex that backtracks runs on
/// a blocking thread: even on a bounded path it may take milliseconds, which the async
/// threads serving other requests must not wait for. A linear one runs here, at once.
async fn page_id(
    cache: &WorkerCache,
    entry: &WorkerEntry,
    page_path: &str,
) -> Result<Option<String>, IdError> {
    let Some(literal) = &entry.regex else {
        return Ok(None);
    };
    let regex = cache.regex(literal).map_err(IdError::Invalid)?;
    if regex.is_linear() {
        return routing::find_id(&regex, literal, page_path).map(Some);
    }
    let (literal, page_path) = (literal.clone(), page_path.to_string());
    tokio::task::spawn_blocking(move || routing::find_id(&regex, &literal, &page_path))
        .await
        .unwrap_or_else(|error| {
            Err(IdError::Invalid(
                siteops_jsregex::JsRegexError::MatchFailed {
                    message: error.to_string(),
                },
            ))
        })
        .map(Some)
}

/// The endpoint with `{{id}}` and the forwarded headers filled in.
fn endpoint_url(
    entry: &WorkerEntry,
    id: Option<&str>,
    headers: &HeaderMap,
) -> Result<String, ApiError> {
    let template = EndpointTemplate::parse(&entry.endpoint).map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the entry's endpoint has invalid placeholders",
        )
    })?;
    let forwarded = forwarded_names(entry);
    template
        .expand(id, |name| {
            forwarded
                .iter()
                .any(|f| f == name)
                .then(|| {
                    headers
                        .get(name)
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_string)
                })
                .flatten()
        })
        .map_err(|error| match error {
            ExpandError::MissingHeader(name) => {
                ApiError::bad_request(format!("missing header {name}"))
            }
            // Stored before validation refused it: the configuration, not the request, is
            // at fault, and nothing is sent.
            error @ ExpandError::PlaceholderInOrigin => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
            }
            other => ApiError::bad_request(other.to_string()),
        })
}

fn forwarded_names(entry: &WorkerEntry) -> Vec<String> {
    entry
        .forward_headers
        .iter()
        .flatten()
        .map(|h| h.to_ascii_lowercase())
        .collect()
}

/// The endpoint's response body and who answered it; parsing it is left to the caller.
async fn fetch_json(
    state: &AppState,
    entry: &WorkerEntry,
    url: &str,
    incoming: &HeaderMap,
) -> Result<(Vec<u8>, Answerer), ApiError> {
    let failed = |what: String| {
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            format!("Failed to fetch endpoint data: {what}"),
        )
    };
    let url = url::Url::parse(url).map_err(|_| failed("the endpoint is not a URL".into()))?;
    let mut headers = HeaderMap::new();
    for (name, value) in entry.headers.iter().flatten() {
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.append(name, value);
        }
    }
    for name in forwarded_names(entry) {
        if let (Ok(header_name), Some(value)) = (
            header::HeaderName::from_bytes(name.as_bytes()),
            incoming.get(&name),
        ) {
            headers.append(header_name, value.clone());
        }
    }
    // Through the service's transport (offline mocks in `serve`), redirects followed by
    // hand: the entry's headers, which may hold API keys, go to the endpoint's origin only.
    let origin = url.origin();
    let same_origin = move |hop: &url::Url| hop.origin() == origin;
    let mut hops = Vec::new();
    let fetched = tokio::time::timeout(
        FETCH_TIMEOUT,
        follow(
            state.preview_transport.as_ref(),
            url,
            &headers,
            &same_origin,
            DATA_LIMIT,
            MAX_REDIRECTS,
            &mut hops,
        ),
    )
    .await;
    let response = match fetched {
        Err(_) => return Err(failed("timeout".into())),
        Ok(Err(error)) => return Err(failed(error.to_string())),
        Ok(Ok((_, response))) => response,
    };
    if !(200..300).contains(&response.status) {
        return Err(failed(format!(
            "{}{}",
            response.status,
            answered_by(&response.answerer)
        )));
    }
    Ok((response.body, response.answerer))
}

/// The record of a listing whose `path_key` field equals the page path. `array_key` is a
/// dotted path to the array; empty means the document is the array.
pub(crate) fn select_record<'d>(
    data: JsonRef<'d>,
    array_key: &str,
    path_key: &str,
    page_path: &str,
) -> Option<JsonRef<'d>> {
    let array = array_key
        .split('.')
        .filter(|segment| !segment.is_empty())
        .try_fold(data, |value, segment| match value.as_array() {
            Some(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            None => value.get(segment),
        })?;
    array
        .as_array()?
        .elements()
        .find(|record| record.get(path_key).and_then(JsonRef::as_str) == Some(page_path))
}

/// The template text from the site's code (a checkout, else the branch's, else main's). A
/// site that requires authentication serves it only to an entry whose `templateApiKey` is
/// a valid token for it; `None` (the generic page) otherwise.
async fn template_source(
    state: &AppState,
    entry: &WorkerEntry,
    site: Option<&Site>,
    branch: &str,
) -> Option<String> {
    let path = entry.template.as_deref()?.strip_prefix('/')?;
    let site = site?;
    if site.protects_content() {
        let claims = entry
            .template_api_key
            .as_deref()
            .and_then(|key| state.key.verify(key, crate::time::now_seconds()).ok())
            .filter(|claims| claims.covers(&site.org, &site.name))?;
        // An API key holds only while its record is kept, and on the sites it is for.
        let standing = crate::auth::standing(state.store.as_ref(), site, &claims).await;
        if !matches!(standing, Ok(crate::auth::KeyStanding::Holds)) {
            return None;
        }
    }
    state
        .code
        .text(&site.org, &site.code_repo()?, branch, path)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn select(data: Value, array_key: &str, path_key: &str, page: &str) -> Option<Value> {
        let text = data.to_string();
        let mut buffer = Vec::new();
        let document = Json::parse(text.as_bytes(), &mut buffer).ok()?;
        select_record(document.root(), array_key, path_key, page).map(JsonRef::to_value)
    }

    #[test]
    fn listing_records_are_found_by_path() {
        let data = json!({"data": {"people": [{"path": "/team/a", "name": "A"}, {"path": "/team/b", "name": "B"}]}});
        assert_eq!(
            select(data.clone(), "data.people", "path", "/team/b"),
            Some(json!({"path": "/team/b", "name": "B"}))
        );
        assert_eq!(select(data.clone(), "data.people", "path", "/team/c"), None);
        let root = json!([{"p": "/x"}]);
        assert_eq!(select(root, "", "p", "/x"), Some(json!({"p": "/x"})));
        assert_eq!(select(data.clone(), "missing", "path", "/team/a"), None);
        let nested = json!({"pages": [[], [{"path": "/n"}]]});
        assert_eq!(
            select(nested, "pages.1", "path", "/n"),
            Some(json!({"path": "/n"}))
        );
    }
}
