//! Fetching a page from its markup sources: the overlay first when there is one, then the
//! primary source when the overlay answers 404, 401 or 403 (interface, Errors 1 to 3).
//!
//! What goes to a source: `Authorization` (the preview request's
//! `x-content-source-authorization`, unchanged, when it has one) and
//! `x-content-source-location` (the page's web path), nothing else. A redirect is
//! followed, and the two headers go only to hops on the source's own host and port. A
//! source that is this server's own worker for the site previewed also gets the
//! [`WorkerCredential`] (`x-auth-token`), which a site that requires authentication asks of
//! its worker pages; no other source ever sees it.
//!
//! The primary source's answer (or a non-fallback answer of the overlay) that is not a
//! success becomes [`FailureKind::SourceAnswered`] (the route answers 404 for 404 and 403, 401,
//! 503 for 429, other 4xx as they are, 502 for the rest: `crate::api`'s
//! `preview_status`). A network error is [`FailureKind::SourceFailed`], a time-out
//! ([`Limits::page_timeout`], the whole chain) [`FailureKind::TimedOut`], a body over
//! [`Limits::page_size`] [`FailureKind::Refused`] (reading stops there).
//!
//! A response whose content type is JSON (`application/json`, `*/*+json`) is a sheet: it is
//! kept as JSON and must parse ([`FailureKind::SourceFailed`] otherwise). Anything else is HTML.

use std::time::Instant;

use http::{HeaderMap, HeaderValue};
use url::Url;

use super::images::allow::AllowList;
use super::redirect::{ChainError, follow};
use super::trace::{FetchAttempt, Trace};
use super::transport::{Transport, TransportError};
use super::url::{PagePath, fetch_url};
use super::{FailureKind, Limits, PreviewError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Overlay,
    Primary,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Overlay => "overlay",
            Role::Primary => "primary",
        }
    }
}

/// A markup source as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub role: Role,
    pub url: String,
    pub suffix: Option<String>,
}

#[derive(Debug, Clone)]
pub struct FetchedPage {
    pub role: Role,
    /// The fetch URL (relative image URLs resolve against it; `self` is its host).
    pub url: Url,
    pub json: bool,
    pub body: Vec<u8>,
    /// The source's `x-html2md-img-src`.
    pub img_src: Option<String>,
    pub last_modified: Option<String>,
}

/// A token for this server's own worker pages of one site: sent as `x-auth-token` to a
/// source on the server's own address (`own`) under `path_prefix`
/// (`/transform/<org>/<site>/`), and to no other.
#[derive(Debug, Clone)]
pub struct WorkerCredential {
    pub own: std::net::SocketAddr,
    pub path_prefix: String,
    pub token: HeaderValue,
}

impl WorkerCredential {
    pub(crate) fn applies_to(&self, url: &Url) -> bool {
        super::transport::is_own_origin(self.own, url) && url.path().starts_with(&self.path_prefix)
    }
}

fn is_fallback(status: u16) -> bool {
    matches!(status, 401 | 403 | 404)
}

/// Fetches `page` from `sources` in order (overlay, then primary).
pub(crate) async fn fetch_page(
    transport: &dyn Transport,
    sources: &[Source],
    page: &PagePath,
    authorization: Option<&HeaderValue>,
    worker: Option<&WorkerCredential>,
    limits: &Limits,
    trace: &mut Trace,
) -> Result<FetchedPage, PreviewError> {
    let web_path = page.web_path();
    let mut credentials = HeaderMap::new();
    if let Some(value) = authorization {
        credentials.insert(http::header::AUTHORIZATION, value.clone());
    }
    if let Ok(location) = HeaderValue::from_str(&web_path) {
        credentials.insert("x-content-source-location", location);
    }
    for (index, source) in sources.iter().enumerate() {
        let is_last = index + 1 == sources.len();
        let role = source.role.name();
        let url = fetch_url(&source.url, source.suffix.as_deref(), page).map_err(|error| {
            // The site's configuration, not the server, is at fault.
            PreviewError::new(
                FailureKind::Refused,
                format!("the {role} source is misconfigured: {error}"),
            )
        })?;
        let mut headers = credentials.clone();
        if let Some(worker) = worker.filter(|w| w.applies_to(&url)) {
            headers.insert("x-auth-token", worker.token.clone());
        }
        let own = AllowList::parse(None, &url);
        let permitted = |hop: &Url| own.permits(hop);
        let started = Instant::now();
        let mut hops = Vec::new();
        let outcome = tokio::time::timeout(
            limits.page_timeout,
            follow(
                transport,
                url.clone(),
                &headers,
                &permitted,
                limits.page_size,
                limits.redirects,
                &mut hops,
            ),
        )
        .await;
        let mut attempt = FetchAttempt {
            source: role.to_string(),
            url: url.to_string(),
            status: hops.last().and_then(|h| h.status),
            elapsed_ms: started.elapsed().as_millis() as u64,
            decision: String::new(),
            answered_by: hops.last().and_then(|h| h.answered_by.clone()),
            redirects: if hops.len() > 1 { hops } else { Vec::new() },
        };
        let failure = match outcome {
            Err(_) => PreviewError::new(
                FailureKind::TimedOut,
                format!(
                    "timeout fetching {web_path} from the {role} source after {} ms",
                    limits.page_timeout.as_millis()
                ),
            ),
            Ok(Err(ChainError::Transport(TransportError::TooLarge { limit }))) => {
                PreviewError::new(
                    FailureKind::Refused,
                    format!("{web_path} from the {role} source is larger than {limit} bytes"),
                )
            }
            Ok(Err(error)) => PreviewError::new(
                FailureKind::SourceFailed,
                format!("unable to fetch {web_path} from the {role} source: {error}"),
            ),
            Ok(Ok((_, response))) if (200..300).contains(&response.status) => {
                attempt.decision = "used".into();
                trace.fetch.push(attempt);
                return page_of(source.role, url, response, &web_path);
            }
            Ok(Ok((_, response))) if !is_last && is_fallback(response.status) => {
                attempt.decision = format!(
                    "fallback: the {role} source answered {}{}",
                    response.status,
                    reason(&response)
                );
                trace.fetch.push(attempt);
                continue;
            }
            Ok(Ok((_, response))) => PreviewError::new(
                FailureKind::SourceAnswered(response.status),
                format!(
                    "unable to fetch {web_path} from the {role} source: {}{}",
                    response.status,
                    reason(&response)
                ),
            ),
        };
        attempt.decision = failure.message.clone();
        trace.fetch.push(attempt);
        return Err(failure);
    }
    Err(PreviewError::new(
        FailureKind::NoSource,
        "no content source is configured",
    ))
}

/// The longest part of a source's `x-error` a message repeats.
const MAX_REASON: usize = 500;

/// ` (x-error: …)`: why the source says it failed (the bundled worker names the missing
/// header, the mock that nearly matched, the template's syntax error), or nothing when it
/// does not say. Cut at [`MAX_REASON`] characters, control characters dropped.
fn reason(response: &super::IncomingResponse) -> String {
    let Some(error) = response.header("x-error").map(str::trim) else {
        return String::new();
    };
    if error.is_empty() {
        return String::new();
    }
    let mut reason: String = error
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REASON)
        .collect();
    if error.chars().count() > MAX_REASON {
        reason.push_str("...");
    }
    format!(" (x-error: {reason})")
}

/// Whether a source's `Content-Type` makes its page a sheet: JSON, stored and served as
/// it came.
pub fn is_sheet_type(content_type: &str) -> bool {
    let essence = super::images::media::essence(content_type);
    essence == "application/json" || essence.ends_with("+json")
}

fn page_of(
    role: Role,
    url: Url,
    response: super::IncomingResponse,
    web_path: &str,
) -> Result<FetchedPage, PreviewError> {
    let json = is_sheet_type(response.header("content-type").unwrap_or(""));
    if json && serde_json::from_slice::<serde::de::IgnoredAny>(&response.body).is_err() {
        return Err(PreviewError::new(
            FailureKind::SourceFailed,
            format!(
                "{web_path} from the {} source is not valid JSON",
                role.name()
            ),
        ));
    }
    Ok(FetchedPage {
        role,
        url,
        json,
        img_src: response.header("x-html2md-img-src").map(str::to_string),
        last_modified: response.header("last-modified").map(str::to_string),
        body: response.body,
    })
}
