//! Ingestion of markup pages: HTML in, the content model out, and the model written as the
//! reference converter's markdown or as the preview host's HTML. Pure: no network, no disk.
//!
//! ```text
//! html ──dom (fast path, else html5ever)──▶ tree ──head::metadata──▶ head metadata
//!                                             └──convert (icons, sections, blocks, whitespace,
//!                                                 element handlers) + sanitize──▶ Document
//! Document ──image_urls / map_images──▶ (the caller downloads and rewrites images)
//! Document ──markdown::to_markdown──▶ markdown      ──render──▶ page HTML, .plain.html
//! ```
//!
//! The conversion follows `@adobe/helix-html2md` (hast-util-to-mdast, helix-markdown-support,
//! mdast-util-to-markdown with GFM and grid tables); the conformance fixtures in
//! `shared/conformance/html2md` are checked by `tests/it/html2md_conformance.rs`.

mod convert;
mod dom;
#[doc(hidden)]
pub mod fuzzing;
mod hast;
mod head;
mod images;
mod json;
pub mod markdown;
mod model;
pub mod render;
mod sanitize;

pub use images::ImageRef;
pub use markdown::to_markdown;
pub use model::{
    Block, BlockInfo, Document, Kind, MetaEntry, MetaValue, Node, Section, TablePart, Warning,
    valid_block_class,
};

/// The reference's default limit for a title, meta value or JSON-LD script, in UTF-16 code
/// units (JavaScript string length).
pub const DEFAULT_MAX_METADATA_SIZE: usize = 128_000;

/// Options of [`ingest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IngestOptions {
    /// Largest title, meta value or JSON-LD script accepted.
    pub max_metadata_size: usize,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            max_metadata_size: DEFAULT_MAX_METADATA_SIZE,
        }
    }
}

/// Why a page cannot be ingested. The messages are the reference's (the preview answers
/// 400 with the message in `x-error`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IngestError {
    #[error("metadata size limit exceeded")]
    MetadataTooLarge {
        /// The metadata name (`title`, a meta name, `json-ld`).
        field: String,
        size: usize,
        limit: usize,
    },
    #[error("invalid json-ld")]
    InvalidJsonLd { reason: String },
}

pub use dom::MAX_DEPTH;

/// Parses `html` (any input: the HTML5 algorithm accepts everything) into the content
/// model. Only `main` is content; a page without `main` is empty (no metadata either).
pub fn ingest(html: &str, options: &IngestOptions) -> Result<Document, IngestError> {
    // `link hreflang` counts anywhere in the document, `main` included: only then is the
    // whole tree copied out of the parser's arena.
    let hreflang = mentions_hreflang(html);
    let mut page = dom::parse_page(html, hreflang);
    // Elements nested deeper than the limit are left out, and the warning says so.
    let nesting = page.cut.map(|cut| Warning::NestingTooDeep {
        limit: MAX_DEPTH,
        read_up_to: cut.read_up_to,
    });
    // A leading byte-order mark is text to the platform's parser: its `head` is empty (see
    // `head::head_tags`), whatever the page's `head` holds.
    let read_head = !html.starts_with('\u{feff}');
    let mark = (!read_head)
        .then(|| head::head_tags(&page.root))
        .filter(|&ignored| ignored > 0)
        .map(|ignored| Warning::ByteOrderMark { ignored });
    // Metadata first, while `main` is still in a whole tree (hreflang links in it count).
    let head_metadata = if page.has_main() {
        head::metadata(&page.root, options.max_metadata_size, hreflang, read_head)?
    } else {
        Vec::new()
    };
    let Some(main) = page.take_main() else {
        return Ok(Document {
            has_main: false,
            sections: Vec::new(),
            head_metadata,
            warnings: mark.into_iter().chain(nesting).collect(),
        });
    };
    let (mut sections, converted) = convert::convert_main(main);
    let mut warnings: Vec<Warning> = mark.into_iter().chain(nesting).chain(converted).collect();
    warnings.extend(metadata_blocks(&sections, !head_metadata.is_empty()));
    for section in &mut sections {
        sanitize::sanitize_heading(&mut section.children);
        sanitize::sanitize_text_and_formats(&mut section.children);
    }
    Ok(Document {
        has_main: true,
        sections,
        head_metadata,
        warnings,
    })
}

/// The warning for a page with more than one `metadata` block (the head's counts: the
/// markdown appends it as one).
fn metadata_blocks(sections: &[model::Section], from_head: bool) -> Option<Warning> {
    let in_body = sections
        .iter()
        .flat_map(|section| section.children.iter().filter_map(model::Block::of))
        .filter(|block| {
            block
                .info
                .classes
                .first()
                .is_some_and(|class| class.eq_ignore_ascii_case("metadata"))
        })
        .count();
    let blocks = in_body + usize::from(from_head);
    (blocks > 1 && in_body > 0).then_some(Warning::MoreThanOneMetadataBlock { blocks, from_head })
}

/// A page's bytes as text: UTF-8, with each invalid sequence replaced by U+FFFD (as a
/// browser decodes a UTF-8 page). Valid input, the usual case, is only checked, with the
/// standard library's fast validator rather than the slower one of `from_utf8_lossy`.
pub fn decode_page(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Whether `html` contains `hreflang`, in any case: only then can a `link hreflang` be
/// anywhere, and the whole tree is kept. Found from its `fl`, which markup has far fewer of
/// than of any one letter of the word (`href` is everywhere).
fn mentions_hreflang(html: &str) -> bool {
    const WORD: &[u8] = b"hreflang";
    let bytes = html.as_bytes();
    memchr::memchr2_iter(b'f', b'F', bytes).any(|i| {
        bytes
            .get(i + 1)
            .is_some_and(|b| b.eq_ignore_ascii_case(&b'l'))
            && i >= 3
            && bytes
                .get(i - 3..i + 5)
                .is_some_and(|w| w.eq_ignore_ascii_case(WORD))
    })
}

/// For the benchmark: parses `html` with the ingestion's parser and returns the number of
/// elements, so that parsing alone can be timed against the whole ingestion.
#[doc(hidden)]
pub fn parse_only(html: &str) -> usize {
    fn count(e: &dom::HElement) -> usize {
        1 + e
            .children
            .iter()
            .filter_map(dom::HNode::element)
            .map(count)
            .sum::<usize>()
    }
    count(&dom::parse(html))
}

impl Document {
    /// The markdown the reference converter produces for this page.
    pub fn to_markdown(&self) -> String {
        markdown::to_markdown(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{IngestOptions, Warning, ingest, mentions_hreflang};

    fn metadata_warning(html: &str) -> Option<Warning> {
        let document = ingest(html, &IngestOptions::default()).expect("ingests");
        document
            .warnings
            .into_iter()
            .find(|w| matches!(w, Warning::MoreThanOneMetadataBlock { .. }))
    }

    /// Issue 44: the second metadata block stays in the page, and the site's code asks for
    /// `blocks/metadata/metadata.js`; the trace says so.
    #[test]
    fn a_second_metadata_block_is_named() {
        let block =
            r#"<div class="metadata"><div><div>Template</div><div>article</div></div></div>"#;
        let with_head = format!(
            r#"<html><head><meta name="description" content="d"></head><body><main><div>{block}</div></main></body></html>"#
        );
        assert_eq!(
            metadata_warning(&with_head),
            Some(Warning::MoreThanOneMetadataBlock {
                blocks: 2,
                from_head: true
            })
        );
        let twice = format!("<html><body><main><div>{block}{block}</div></main></body></html>");
        assert!(matches!(
            metadata_warning(&twice),
            Some(Warning::MoreThanOneMetadataBlock { blocks, .. }) if blocks >= 2
        ));
        let once = format!("<html><body><main><div>{block}</div></main></body></html>");
        assert_eq!(metadata_warning(&once), None);
        let head_only = r#"<html><head><meta name="description" content="d"></head><body><main><div><p>x</p></div></main></body></html>"#;
        assert_eq!(metadata_warning(head_only), None);
    }

    #[test]
    fn hreflang_is_found_in_any_case_and_anywhere() {
        for html in [
            "hreflang",
            "<link HrefLang=de>",
            "x HREFLANG",
            "<a href=x>hreflang",
        ] {
            assert!(mentions_hreflang(html), "{html}");
        }
        for html in [
            "",
            "href lang",
            "hreflan",
            "reflang",
            "<a href=/fl>flang</a>",
            "fl",
        ] {
            assert!(!mentions_hreflang(html), "{html}");
        }
    }
}
