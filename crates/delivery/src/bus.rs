//! The platform's two buses as the pipeline reads them: the content bus (each page's
//! markdown, each sheet's JSON, by resource path) and the code bus (the site's code).

/// The largest object the delivery reads from a bus, in bytes: beyond any page, sheet or
/// code file a site serves (the preview refuses pages over 1 MiB, sheets are capped near
/// that), small enough that one answer cannot hold much memory. An implementation of
/// [`Buses`] reads no more than one byte past it; the delivery answers 502 for a larger one.
pub const MAX_OBJECT_BYTES: usize = 16 << 20;

/// Which bus an object is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bus {
    /// Pages (`/blog/post.md`) and sheets (`/metadata.json`), of the request's partition.
    Content,
    /// The site's code on the request's branch (`/404.html`, `/static.html`).
    Code,
}

/// An object read from a bus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BusObject {
    pub body: Vec<u8>,
    /// A redirect stored for this path (the platform's `x-amz-meta-redirect-location`):
    /// the pipeline answers 301 to it.
    pub redirect_location: Option<String>,
    /// When the source last changed (`Last-Modified`), as an HTTP date.
    pub last_modified: Option<String>,
}

/// What a read gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    Found(BusObject),
    NotFound,
    /// The bus could not answer (the pipeline answers 502), with why.
    Failed(String),
}

/// Where the pipeline reads from. `path` is a resource path: `/`-rooted, the page's
/// `.md` (`/index.md` for a folder), a sheet's `.json`, a code file's own name.
#[allow(async_fn_in_trait)]
pub trait Buses {
    async fn get(&self, bus: Bus, path: &str) -> Fetched;
}
