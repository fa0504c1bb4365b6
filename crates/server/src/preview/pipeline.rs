//! One preview run: fetch (overlay, then primary), then for an HTML page parse, download
//! the images, rewrite them to the stored media and convert; a JSON page is kept as it
//! is. Storage of the result is the caller's ([`super::store`]); media go through the
//! [`MediaSink`] as they arrive.

use http::HeaderValue;
use url::Url;

use super::convert::{self, Converted, RenderContext};
use super::fetch::{Role, Source, WorkerCredential, fetch_page};
use super::images::allow::AllowList;
use super::images::download::{Downloader, StoredMedia};
use super::images::{MediaSink, download_images};
use super::trace::Trace;
use super::transport::Transport;
use super::url::PagePath;
use super::{FailureKind, Limits, PreviewError};
use siteops_config::model::api::ContentConfig;

/// What a preview produced.
#[derive(Debug, Clone)]
pub struct Preview {
    pub web_path: String,
    pub resource_path: String,
    pub source: Role,
    /// The URL of the source that served the page.
    pub source_url: Url,
    /// The source's `Last-Modified`, when it sent one.
    pub source_last_modified: Option<String>,
    pub body: PreviewBody,
    pub media: Vec<StoredMedia>,
    pub trace: Trace,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum PreviewBody {
    /// A sheet, as the source sent it.
    Json(Vec<u8>),
    /// A page: what the source sent, and the conversion.
    Page {
        source: Vec<u8>,
        converted: Converted,
    },
}

/// A failed run: the status and message, and the trace up to the failure.
#[derive(Debug, Clone)]
pub struct Failure {
    pub error: PreviewError,
    pub trace: Trace,
}

/// The sources of a content configuration, in the order they are asked.
pub fn sources(content: &ContentConfig) -> Result<Vec<Source>, PreviewError> {
    if content.source.kind != "markup" {
        // The request is fine; the site's configuration is what stands in the way.
        return Err(PreviewError::new(
            FailureKind::Refused,
            format!(
                "content source type `{}` cannot be previewed: only markup sources can",
                content.source.kind
            ),
        ));
    }
    let mut sources = Vec::new();
    if let Some(overlay) = &content.overlay {
        sources.push(Source {
            role: Role::Overlay,
            url: overlay.url.clone(),
            suffix: None,
        });
    }
    sources.push(Source {
        role: Role::Primary,
        url: content.source.url.clone(),
        suffix: content.source.suffix.clone(),
    });
    Ok(sources)
}

/// What one preview is about: the site's content configuration, the page, the
/// caller's `x-content-source-authorization`, and where the page will be served.
#[derive(Debug, Clone)]
pub struct PreviewRequest<'a> {
    pub content: &'a ContentConfig,
    pub page: &'a PagePath,
    pub authorization: Option<&'a HeaderValue>,
    /// The token for the server's own worker pages of the site, when it needs one.
    pub worker: Option<&'a WorkerCredential>,
    /// The preview host's origin (`http://main--site--org.localhost:3000`).
    pub preview_origin: &'a Url,
    /// The site's `head.html`, when its code has one.
    pub head_html: Option<String>,
}

/// Runs one preview with `transport`; images go to `sink` as they arrive. The deadline
/// counts from `began` (a wait for a turn to run counts too).
pub async fn run(
    transport: &dyn Transport,
    limits: &Limits,
    request: &PreviewRequest<'_>,
    sink: &dyn MediaSink,
    began: std::time::Instant,
) -> Result<Preview, Failure> {
    let mut trace = Trace::default();
    let traced = run_traced(transport, limits, request, sink, &mut trace);
    let left = limits.preview_deadline.saturating_sub(began.elapsed());
    let outcome = match tokio::time::timeout(left, traced).await {
        Ok(outcome) => outcome,
        Err(_) => Err(PreviewError::new(
            FailureKind::TimedOut,
            format!(
                "the preview of {} took longer than {} ms (its page and images)",
                request.page.web_path(),
                limits.preview_deadline.as_millis()
            ),
        )),
    };
    match outcome {
        Ok(mut preview) => {
            preview.trace = trace;
            Ok(preview)
        }
        Err(error) => Err(Failure { error, trace }),
    }
}

async fn run_traced(
    transport: &dyn Transport,
    limits: &Limits,
    request: &PreviewRequest<'_>,
    sink: &dyn MediaSink,
    trace: &mut Trace,
) -> Result<Preview, PreviewError> {
    let PreviewRequest {
        content,
        page,
        authorization,
        worker,
        ..
    } = *request;
    let sources = sources(content)?;
    let fetched = fetch_page(
        transport,
        &sources,
        page,
        authorization,
        worker,
        limits,
        trace,
    )
    .await?;
    let mut preview = Preview {
        web_path: page.web_path(),
        resource_path: page.resource_path(fetched.json),
        source: fetched.role,
        source_url: fetched.url.clone(),
        source_last_modified: fetched.last_modified.clone(),
        body: PreviewBody::Json(Vec::new()),
        media: Vec::new(),
        trace: Trace::default(),
        warnings: Vec::new(),
    };
    if fetched.json {
        preview.web_path = preview.resource_path.clone();
        preview.body = PreviewBody::Json(fetched.body);
        return Ok(preview);
    }
    let allow = AllowList::parse(fetched.img_src.as_deref(), &fetched.url);
    trace.ignored_img_src = allow.ignored.clone();
    let html = siteops_ingest::decode_page(&fetched.body).into_owned();
    let url = fetched.url.clone();
    let parsed = on_blocking_thread(move || convert::parse(&html, &url)).await??;
    let downloader = Downloader {
        transport,
        limits,
        allow: &allow,
        authorization,
        sink,
    };
    let images = download_images(
        &downloader,
        &parsed.image_sources(),
        &fetched.url,
        &mut trace.images,
    )
    .await?;
    let context = RenderContext {
        public_url: request
            .preview_origin
            .join(&preview.web_path)
            .unwrap_or_else(|_| request.preview_origin.clone()),
        head_html: request.head_html.clone(),
    };
    let (converted, images) = on_blocking_thread(move || {
        let converted = parsed.render(&images, &context);
        (converted, images)
    })
    .await?;
    let converted = converted?;
    preview.warnings = converted.warnings.clone();
    preview.media = images.stored;
    preview.body = PreviewBody::Page {
        source: fetched.body,
        converted,
    };
    Ok(preview)
}

/// Runs a conversion step (parsing, rendering: milliseconds of CPU for a large page) on
/// tokio's blocking threads, so that the runtime's workers keep answering other requests
/// while several pages are previewed at once (the live session re-previews every open
/// page after an edit).
async fn on_blocking_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, PreviewError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        PreviewError::new(
            FailureKind::Internal,
            format!("the conversion stopped: {e}"),
        )
    })
}
