//! A preview host's pages as the platform delivers them: at the view, from the stored
//! markdown and sheets, through `siteops-delivery`'s pipes (`html-pipe`, `json-pipe`,
//! `robots-pipe`, the sitemap pipes), with the site's configuration of now
//! ([`pipeline_config`]) and its buses over the store and the site's code ([`SiteBuses`]).
//! So a previewed metadata sheet, a header rule, a folder mapping or an edit of
//! `head.html` applies on the next view, as on the platform, without previewing again.
//!
//! Rendering is CPU work: a pipe runs on a blocking thread ([`deliver`]). The answer's
//! CSP nonce is chosen here ([`new_nonce`], the platform's: 18 random bytes, base64) and
//! given to the pipe, which puts it where the page's code asks (`nonce="aem"`,
//! `'nonce-aem'`); the preview host's own policy uses the same one.

mod buses;
mod config;

pub use buses::{Prefetched, REDIRECTS, SiteBuses, prefetch, redirect_in};
pub use config::{DEFAULT_METADATA, from_documents, pipeline_config};

use base64::Engine;
use siteops_delivery::{
    DeliveryRequest, PipelineConfig, Response, html_pipe, json_pipe, robots_pipe, sitemap_pipe,
};

/// Which of the platform's pipes answers a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pipe {
    /// A page (a path without extension, `.plain.html`) or a code `.html`.
    Html,
    /// A sheet (`.json`).
    Json,
    /// `/robots.txt`.
    Robots,
    /// `/sitemap.xml`, `/sitemap-index.xml`.
    Sitemap,
}

impl Pipe {
    /// The pipe of a request path, or `None` for what the delivery leaves to the host
    /// (stored markdown, the branch's images, other code files, `/config.json`).
    pub fn of(path: &str) -> Option<Pipe> {
        let name = path.rsplit('/').next().unwrap_or("");
        if crate::preview::images::media::is_media_name(name) {
            return None;
        }
        match path {
            "/robots.txt" => return Some(Pipe::Robots),
            "/sitemap.xml" | "/sitemap-index.xml" => return Some(Pipe::Sitemap),
            _ => {}
        }
        match name.rsplit_once('.') {
            None => Some(Pipe::Html),
            Some((_, "html")) => Some(Pipe::Html),
            Some((stem, "json")) if !stem.is_empty() => Some(Pipe::Json),
            // A dot file (`/.hlxignore`) is no code file a host serves, nor a page.
            Some(("", _)) => Some(Pipe::Html),
            Some(_) => None,
        }
    }

    /// The web paths whose records a view through this pipe reads first: the page's,
    /// and the sheets every page reads (redirects, metadata).
    pub fn first_records(self, path: &str, config_sources: &[String]) -> Vec<String> {
        let mut paths = Vec::new();
        if let Some(page) = page_of(path) {
            paths.push(page);
        }
        if self == Pipe::Html {
            paths.push(REDIRECTS.to_owned());
            paths.extend(config_sources.iter().cloned());
        }
        paths.sort();
        paths.dedup();
        paths
    }
}

/// The web path of the page or sheet a request path asks for.
fn page_of(path: &str) -> Option<String> {
    let stem = path
        .strip_suffix(".plain.html")
        .or_else(|| path.strip_suffix(".html"))
        .unwrap_or(path);
    crate::preview::url::PagePath::parse(stem)
        .ok()
        .map(|page| page.web_path())
}

/// A new CSP nonce: 18 random bytes, base64-encoded (24 characters), as the platform's.
pub fn new_nonce() -> String {
    let mut bytes = [0u8; 18];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: a nonce nobody can know in advance is still better than none.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes[..16].copy_from_slice(&now.to_le_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The answer of `pipe` to `request`, run on a blocking thread: the pipe renders, and
/// reads its buses from there (the runtime drives the reads).
pub async fn deliver(
    pipe: Pipe,
    request: DeliveryRequest,
    config: PipelineConfig,
    buses: SiteBuses,
) -> Response {
    let runtime = tokio::runtime::Handle::current();
    let work = move || {
        runtime.block_on(async {
            match pipe {
                Pipe::Html => html_pipe(&request, &config, &buses).await,
                Pipe::Json => json_pipe(&request, &config, &buses).await,
                Pipe::Robots => robots_pipe(&request, &config, &buses).await,
                Pipe::Sitemap => sitemap_pipe(&request, &config, &buses).await,
            }
        })
    };
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|stopped| {
            tracing::error!(error = %stopped, "a delivery stopped");
            let mut response = Response::new(500);
            response.set_header("x-error", "the delivery stopped");
            response
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_go_to_their_pipes() {
        for (path, pipe) in [
            ("/", Some(Pipe::Html)),
            ("/blog/post", Some(Pipe::Html)),
            ("/blog/post.plain.html", Some(Pipe::Html)),
            ("/static.html", Some(Pipe::Html)),
            ("/404.html", Some(Pipe::Html)),
            ("/index", Some(Pipe::Html)),
            ("/query-index.json", Some(Pipe::Json)),
            ("/robots.txt", Some(Pipe::Robots)),
            ("/sitemap.xml", Some(Pipe::Sitemap)),
            ("/sitemap-index.xml", Some(Pipe::Sitemap)),
            ("/blog/post.md", None),
            ("/styles/styles.css", None),
            ("/media_0123456789abcdef0123456789abcdef01234567.png", None),
            ("/docs/robots.txt", None),
        ] {
            assert_eq!(Pipe::of(path), pipe, "{path}");
        }
    }

    #[test]
    fn a_view_reads_the_page_and_the_sheets_every_page_reads_first() {
        let sources = [DEFAULT_METADATA.to_owned()];
        assert_eq!(
            Pipe::Html.first_records("/blog/post.plain.html", &sources),
            ["/blog/post", DEFAULT_METADATA, REDIRECTS]
        );
        assert_eq!(
            Pipe::Json.first_records("/query-index.json", &sources),
            ["/query-index.json"]
        );
    }

    #[test]
    fn nonces_are_the_platforms_shape_and_differ() {
        let (a, b) = (new_nonce(), new_nonce());
        assert_eq!(a.len(), 24);
        assert_ne!(a, b);
    }
}
