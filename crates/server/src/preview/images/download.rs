//! Downloading a page's images and storing them under their content hash.
//!
//! For each distinct `src` of the page:
//! - it is resolved against the page's fetch URL; `data:` and `about:` URLs are kept as
//!   they are; any other URL that is not http(s), or does not parse, becomes `about:error`
//!   without a request;
//! - more than [`Limits::image_count`] distinct http(s) URLs: 409 before any download;
//! - downloads run [`Limits::image_concurrency`] at a time, each attempt bounded by
//!   [`Limits::image_timeout`], retried up to [`Limits::image_retries`] times after a
//!   network error or a 5xx (a time-out is not retried: it would multiply the wait);
//! - `Authorization` goes with a request only when the allow list permits its host,
//!   judged again at every redirect hop;
//! - only `image/*` responses are accepted; an SVG must pass [`validate_svg`];
//! - an image over [`Limits::image_size`] or an invalid SVG: 409 for the whole page; a
//!   404, another 4xx, a time-out, a refused address or a wrong type: that image becomes
//!   `about:error` and the page still converts;
//! - an accepted image is written through the [`MediaSink`] as `media_<hash>.<ext>` as
//!   soon as it arrives, so at most `image_concurrency` bodies are in memory at once; a
//!   sink that refuses it stops the page (the service's sink refuses past the site's cap,
//!   and removes what a failed page wrote).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use http::{HeaderMap, HeaderValue};
use url::Url;

use super::allow::AllowList;
use super::media::{dimensions, essence, extension_of, media_name};
use super::svg::validate_svg;
use crate::preview::redirect::{ChainError, follow};
use crate::preview::trace::ImageTrace;
use crate::preview::transport::{Transport, TransportError};
use crate::preview::{FailureKind, Limits, PreviewError};
use crate::store::StoreError;

/// Where accepted images go: the branch's media folder in the service, memory in tests.
#[crate::store::async_trait]
pub trait MediaSink: Send + Sync {
    /// Stores `bytes` as `name`; the same name always has the same bytes.
    async fn store(&self, name: &str, bytes: &[u8]) -> Result<(), SinkError>;
}

/// Why a [`MediaSink`] did not store an image: the preview stops there.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The sink takes no more (the site's previews are at their cap); whoever gave the
    /// preview its sink knows the details and answers for them.
    #[error("{0}")]
    Refused(String),
}

/// A stored image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMedia {
    pub name: String,
    pub width: Option<u32>,
    pub height: Option<u32>,
}

impl StoredMedia {
    /// The page's new reference: `./media_<hash>.<ext>#width=W&height=H`.
    pub fn reference(&self) -> String {
        match (self.width, self.height) {
            (Some(w), Some(h)) => format!("./{}#width={w}&height={h}", self.name),
            _ => format!("./{}", self.name),
        }
    }
}

/// What each `src` of the page becomes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageMap {
    replacements: HashMap<String, String>,
    /// The same, by the absolute URL downloaded.
    by_url: HashMap<String, String>,
    /// The images stored, in the order of the page.
    pub stored: Vec<StoredMedia>,
}

impl ImageMap {
    /// The URL that replaces `src` (`about:error` for a failed image, `src` itself for a
    /// kept one); `None` for a `src` that was not given to the downloader.
    pub fn replacement(&self, src: &str) -> Option<&str> {
        self.replacements.get(src).map(String::as_str)
    }

    /// The URL that replaces the image downloaded from `url`; `None` when it was not one.
    pub fn replacement_for(&self, url: &Url) -> Option<&str> {
        self.by_url.get(url.as_str()).map(String::as_str)
    }
}

/// Who is asking, and how.
pub struct Downloader<'a> {
    pub transport: &'a dyn Transport,
    pub limits: &'a Limits,
    pub allow: &'a AllowList,
    pub authorization: Option<&'a HeaderValue>,
    pub sink: &'a dyn MediaSink,
}

enum Plan {
    Keep,
    Fail(String),
    Fetch(Url),
}

fn plan(src: &str, base: &Url) -> Plan {
    match base.join(src.trim()) {
        Err(_) => Plan::Fail("not a URL".into()),
        Ok(url) => match url.scheme() {
            "data" | "about" => Plan::Keep,
            "http" | "https" => Plan::Fetch(url),
            other => Plan::Fail(format!("{other}: URLs are never fetched")),
        },
    }
}

/// Downloads the images `sources` (the page's `src` values, in page order) of a page
/// fetched from `base`. Appends one trace entry per distinct `src`.
pub async fn download_images(
    downloader: &Downloader<'_>,
    sources: &[String],
    base: &Url,
    trace: &mut Vec<ImageTrace>,
) -> Result<ImageMap, PreviewError> {
    let mut distinct: Vec<&String> = Vec::new();
    let mut plans: HashMap<&String, Plan> = HashMap::new();
    for src in sources {
        if !plans.contains_key(src) {
            plans.insert(src, plan(src, base));
            distinct.push(src);
        }
    }
    let mut urls: Vec<Url> = Vec::new();
    for src in &distinct {
        if let Some(Plan::Fetch(url)) = plans.get(src)
            && !urls.contains(url)
        {
            urls.push(url.clone());
        }
    }
    if urls.len() > downloader.limits.image_count {
        return Err(PreviewError::new(
            FailureKind::Refused,
            format!(
                "the page has {} distinct images, more than {}",
                urls.len(),
                downloader.limits.image_count
            ),
        ));
    }
    let mut results: HashMap<Url, ImageTrace> = HashMap::new();
    let mut stored: HashMap<Url, StoredMedia> = HashMap::new();
    let mut downloads = stream::iter(urls.iter().cloned())
        .map(|url| download_one(downloader, url))
        .buffered(downloader.limits.image_concurrency.max(1));
    while let Some(done) = downloads.next().await {
        let (url, entry, media) = done?;
        if let Some(media) = media {
            stored.insert(url.clone(), media);
        }
        results.insert(url, entry);
    }
    let mut map = ImageMap::default();
    for src in distinct {
        let (replacement, entry) = match &plans[src] {
            Plan::Keep => (src.clone(), untried(src, None, "kept")),
            Plan::Fail(reason) => ("about:error".to_string(), untried(src, None, reason)),
            Plan::Fetch(url) => {
                let mut entry = results[url].clone();
                entry.src = src.clone();
                match stored.get(url) {
                    Some(media) => {
                        if !map.stored.contains(media) {
                            map.stored.push(media.clone());
                        }
                        (media.reference(), entry)
                    }
                    None => ("about:error".to_string(), entry),
                }
            }
        };
        if let Plan::Fetch(url) = &plans[src] {
            map.by_url.insert(url.to_string(), replacement.clone());
        }
        map.replacements.insert(src.clone(), replacement);
        trace.push(entry);
    }
    Ok(map)
}

fn untried(src: &str, url: Option<&Url>, decision: &str) -> ImageTrace {
    ImageTrace {
        src: src.to_string(),
        url: url.map(Url::to_string),
        allowed: false,
        hops: Vec::new(),
        status: None,
        attempts: 0,
        elapsed_ms: 0,
        decision: decision.to_string(),
        stored_as: None,
    }
}

/// One image, with its retries: its trace entry and, when accepted, the stored media.
async fn download_one(
    downloader: &Downloader<'_>,
    url: Url,
) -> Result<(Url, ImageTrace, Option<StoredMedia>), PreviewError> {
    let limits = downloader.limits;
    let mut credentials = HeaderMap::new();
    if let Some(value) = downloader.authorization {
        credentials.insert(http::header::AUTHORIZATION, value.clone());
    }
    let allow = downloader.allow;
    let permitted = |hop: &Url| allow.permits(hop);
    let mut entry = untried(url.as_str(), Some(&url), "");
    entry.allowed = allow.permits(&url);
    let started = Instant::now();
    let mut media = None;
    loop {
        entry.attempts += 1;
        let outcome = tokio::time::timeout(
            limits.image_timeout,
            follow(
                downloader.transport,
                url.clone(),
                &credentials,
                &permitted,
                limits.image_size,
                limits.redirects,
                &mut entry.hops,
            ),
        )
        .await;
        entry.status = entry.hops.last().and_then(|h| h.status);
        let retry = match outcome {
            Err(_) => {
                entry.decision = format!("timeout after {} ms", limits.image_timeout.as_millis());
                false
            }
            Ok(Err(ChainError::Transport(TransportError::TooLarge { limit }))) => {
                return Err(PreviewError::new(
                    FailureKind::Refused,
                    format!("the image {url} is larger than {limit} bytes"),
                ));
            }
            Ok(Err(ChainError::Transport(TransportError::Network(message)))) => {
                entry.decision = format!("network error: {message}");
                true
            }
            Ok(Err(error)) => {
                entry.decision = error.to_string();
                false
            }
            Ok(Ok((_, response))) if response.status >= 500 => {
                entry.decision = format!("status {}", response.status);
                true
            }
            Ok(Ok((_, response))) if !(200..300).contains(&response.status) => {
                entry.decision = format!("status {}", response.status);
                false
            }
            Ok(Ok((_, response))) => {
                let content_type = essence(response.header("content-type").unwrap_or(""));
                match extension_of(&content_type) {
                    None => entry.decision = format!("not an image: `{content_type}`"),
                    Some(extension) => {
                        if extension == "svg" {
                            validate_svg(&response.body).map_err(|error| {
                                PreviewError::new(
                                    FailureKind::Refused,
                                    format!("the image {url}: {error}"),
                                )
                            })?;
                        }
                        let name = media_name(&response.body, extension);
                        downloader
                            .sink
                            .store(&name, &response.body)
                            .await
                            .map_err(|error| match error {
                                SinkError::Store(error) => {
                                    tracing::error!(%error, "media store failure");
                                    PreviewError::new(FailureKind::Internal, "storage failure")
                                }
                                SinkError::Refused(reason) => PreviewError::new(
                                    FailureKind::Internal,
                                    format!("the image {url} was not stored: {reason}"),
                                ),
                            })?;
                        let size = dimensions(&response.body);
                        entry.decision = "stored".into();
                        entry.stored_as = Some(name.clone());
                        media = Some(StoredMedia {
                            name,
                            width: size.map(|s| s.0),
                            height: size.map(|s| s.1),
                        });
                    }
                }
                false
            }
        };
        if !retry || entry.attempts > limits.image_retries {
            break;
        }
        let backoff = limits.retry_delay * 2u32.saturating_pow(entry.attempts - 1);
        tokio::time::sleep(backoff.min(Duration::from_secs(5))).await;
    }
    entry.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok((url, entry, media))
}
