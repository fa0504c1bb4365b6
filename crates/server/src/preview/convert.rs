//! The conversion step of the pipeline, in two calls around the image download:
//! [`parse`] the fetched HTML into the content model ([`siteops_ingest`]), download what
//! [`Parsed::image_sources`] lists, then [`Parsed::render`] with each image replaced by
//! its stored media (or `about:error`): the markdown, the page HTML and the plain HTML.
//!
//! An ingestion error (metadata over its size limit, invalid JSON-LD) answers 400 with the
//! reference's message.

use url::Url;

use super::images::ImageMap;
use super::{FailureKind, PreviewError};
use siteops_ingest::render::{PageOptions, page_and_plain};
use siteops_ingest::{Document, IngestOptions, ingest};

/// A converted page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    /// The markdown (`<path>.md`).
    pub markdown: Option<String>,
    /// The rendered page (`<path>`).
    pub html: String,
    /// The plain body (`<path>.plain.html`).
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
    document: Document,
    /// The fetch URL: relative image URLs resolve against it.
    url: Url,
}

/// Parses the HTML of a page fetched from `url`.
pub fn parse(html: &str, url: &Url) -> Result<Parsed, PreviewError> {
    let document = ingest(html, &IngestOptions::default())
        .map_err(|error| PreviewError::new(FailureKind::Unreadable, error.to_string()))?;
    Ok(Parsed {
        document,
        url: url.clone(),
    })
}

impl Parsed {
    /// The image URLs of the page to download (`img src` and head images), as written,
    /// once per distinct absolute URL, in page order. URLs the reference leaves alone
    /// (`data:`, `about:`, `./media_…`) are not listed.
    pub(crate) fn image_sources(&self) -> Vec<String> {
        self.document
            .image_urls(&self.url)
            .into_iter()
            .map(|image| image.source)
            .collect()
    }

    /// The markdown, page and plain HTML, with each image replaced as `images` says.
    pub fn render(
        mut self,
        images: &ImageMap,
        context: &RenderContext,
    ) -> Result<Converted, PreviewError> {
        // Every URL the document lists was downloaded; one that was not is never linked.
        self.document.map_images(&self.url, |url| {
            images
                .replacement_for(url)
                .unwrap_or("about:error")
                .to_string()
        });
        let options = PageOptions {
            url: context.public_url.clone(),
            head_html: context.head_html.clone(),
            delivery: Default::default(),
        };
        // The platform renders the stored markdown, not the fetched HTML. The document is
        // dropped before rendering: held beside the page's trees it added up to 10 MiB to
        // a preview's peak (benches/preview_memory.rs measures the two apart).
        let markdown = self.document.to_markdown();
        let warnings = self
            .document
            .warnings
            .iter()
            .map(ToString::to_string)
            .collect();
        drop(self.document);
        let rendered = page_and_plain(&markdown, &options);
        Ok(Converted {
            html: rendered.page,
            plain_html: Some(rendered.plain),
            markdown: Some(markdown),
            warnings,
        })
    }
}
