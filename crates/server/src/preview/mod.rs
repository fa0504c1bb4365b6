//! The preview pipeline, as a library: fetch a page from its markup sources (overlay
//! first), download and store its images, convert it, and hand back everything the
//! administration service stores and the preview host serves.
//!
//! The network is behind [`Transport`], passed to every run, so `serve`, the tests and an
//! offline harness answering from mock files run the same code. Pure parts: [`url`] (page
//! paths and fetch URLs), [`images::allow`] (the `x-html2md-img-src` allow list),
//! [`images::media`] and [`images::svg`] (naming, sizes, SVG validation), and the status
//! rules in [`fetch`].
//!
//! Two invariants hold for every request the pipeline makes:
//! - the preview's `Authorization` goes only to the page's own source (host and port) and
//!   to image hosts the allow list names; every redirect hop is judged again;
//! - no body is read past its limit (page 1 MiB, image 20 MiB).

pub mod convert;
pub mod delivery;
pub mod fetch;
mod host;
pub mod images;
pub mod pipeline;
pub(crate) mod redirect;
pub mod service;
pub mod store;
pub mod trace;
pub mod transport;
pub mod url;
pub mod usage;

use std::time::Duration;

pub use host::PreviewHost;
pub use pipeline::{Preview, PreviewBody, PreviewRequest, run};
pub use trace::Trace;
pub use transport::{
    AddressPolicy, Answerer, IncomingResponse, OutgoingRequest, ReqwestTransport, Transport,
    TransportError,
};
pub use url::PagePath;

/// The pipeline's limits; the defaults are the reference's.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Time for a page fetch, redirects and body included (504 beyond).
    pub page_timeout: Duration,
    /// Largest page body (409 beyond).
    pub page_size: usize,
    /// Time for one attempt at an image (the image becomes `about:error` beyond).
    pub image_timeout: Duration,
    /// Largest image (409 for the page beyond).
    pub image_size: usize,
    /// Most distinct images on a page (409 beyond).
    pub image_count: usize,
    /// Images downloaded at the same time.
    pub image_concurrency: usize,
    /// Retries of an image after a network error or a 5xx.
    pub image_retries: u32,
    /// Wait before the first retry; doubled for each further one.
    pub retry_delay: Duration,
    /// Redirects followed per request.
    pub redirects: usize,
    /// Time for the whole preview: the page, its images and their retries (504 beyond,
    /// nothing stored). Without it, 190 slow images held a request for two minutes.
    pub preview_deadline: Duration,
}

/// The largest page a preview fetches and ingests (1 MiB); `siteops ingest` takes the same
/// by default, so a page that converts locally converts in a preview too.
pub const PAGE_LIMIT: usize = 1024 * 1024;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            page_timeout: Duration::from_secs(10),
            page_size: PAGE_LIMIT,
            image_timeout: Duration::from_secs(5),
            image_size: 20 * 1024 * 1024,
            image_count: 200,
            image_concurrency: 8,
            image_retries: 3,
            retry_delay: Duration::from_millis(100),
            redirects: 5,
            preview_deadline: Duration::from_secs(30),
        }
    }
}

/// Why a preview failed, and the message for `x-error`. The status it is answered with
/// is the route's to choose (`crate::api`), from the [`FailureKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PreviewError {
    pub failure: FailureKind,
    pub message: String,
}

/// What kind of failure stopped a preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The page fetched cannot be read as a page.
    Unreadable,
    /// The site has no content source to preview from.
    NoSource,
    /// The source answered this status, not a success, and no other source had the page.
    SourceAnswered(u16),
    /// The source could not be reached, or answered what cannot be used.
    SourceFailed,
    /// Past one of the pipeline's limits (sizes, images), or a source it cannot preview.
    Refused,
    /// The page fetch or the whole preview took longer than allowed.
    TimedOut,
    /// The server failed: storing an image, converting.
    Internal,
}

impl PreviewError {
    pub fn new(failure: FailureKind, message: impl Into<String>) -> PreviewError {
        PreviewError {
            failure,
            message: message.into(),
        }
    }
}
