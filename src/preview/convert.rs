//! The conversion step of the pipeline, in two calls around the image download:
//! [`parse`] the fetched HTML, download what [`Parsed::image_sources`] lists, then
//! [`Parsed::render`] with the stored media in place of the original URLs.
//!
//! PENDING: the ingestion (`src/ingest/`: HTML5 parse, content model, markdown, page and
//! plain HTML) is being built on another branch. Until it is wired here, a page is stored
//! as the HTML its source sent, no image is collected, and no markdown or plain HTML is
//! produced. Only this file changes when it lands.

use url::Url;

use super::PreviewError;
use super::images::ImageMap;

/// A converted page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    /// The markdown (`<path>.md`), when the ingestion produced it.
    pub markdown: Option<String>,
    /// The rendered page (`<path>`).
    pub html: String,
    /// The plain body (`<path>.plain.html`), when the ingestion produced it.
    pub plain_html: Option<String>,
    /// Problems the page has that did not stop the conversion (invalid block names, …).
    pub warnings: Vec<String>,
}

/// What rendering needs besides the page: where the preview host serves it, and the
/// site's `head.html` from its code.
#[derive(Debug, Clone)]
pub struct RenderContext {
    /// The page's address on the preview host (the canonical link, and the base of
    /// relative meta images).
    pub public_url: Url,
    pub head_html: Option<String>,
}

/// A fetched page, parsed.
#[derive(Debug, Clone)]
pub struct Parsed {
    html: String,
}

/// Parses the HTML of a page fetched from `url`.
pub fn parse(html: &str, _url: &Url) -> Result<Parsed, PreviewError> {
    Ok(Parsed {
        html: html.to_string(),
    })
}

impl Parsed {
    /// The image URLs of the page as written (`img src` and head images), in page order.
    pub fn image_sources(&self) -> Vec<String> {
        Vec::new()
    }

    /// The markdown, page and plain HTML, with each image replaced as `images` says.
    pub fn render(
        self,
        _images: &ImageMap,
        _context: &RenderContext,
    ) -> Result<Converted, PreviewError> {
        Ok(Converted {
            markdown: None,
            html: self.html,
            plain_html: None,
            warnings: Vec::new(),
        })
    }
}
