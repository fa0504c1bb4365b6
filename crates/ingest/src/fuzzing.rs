//! The body of the `html_ingest` fuzz target (`fuzz/`), shared with the replay of its
//! corpus in the tests, so that the stable test suite checks every committed input.
//! Not an interface: hidden from the docs, may change with the fuzz targets.

use url::Url;

use crate::render::{PageOptions, page_and_plain};
use crate::{IngestOptions, ingest};

/// HTML in (any bytes, read as UTF-8 lossily): ingestion, markdown, the page and
/// `.plain.html` from that markdown, then both ingested again. Properties:
/// - nothing panics;
/// - our own page and `.plain.html` (wrapped in `main`) ingest again: the only refusal
///   allowed is nesting deeper than the limit, since the page adds a few levels;
/// - the page has its `main`;
/// - where the parser's fast path takes the page, it builds html5ever's tree.
///
/// Exact stability of the markdown after a second round holds on most seeds but not all
/// (sections holding only metadata drop out, emphasis runs the reference also rewrites),
/// so it is not asserted.
pub fn html_ingest(data: &[u8]) {
    let html = String::from_utf8_lossy(data);
    if let Err(difference) = crate::dom::fast_path_agrees(&html) {
        panic!("the fast path's tree differs from html5ever's: {difference}");
    }
    let Ok(doc) = ingest(&html, &IngestOptions::default()) else {
        return;
    };
    let markdown = doc.to_markdown();
    let options = PageOptions {
        url: Url::parse("https://main--site--org.localhost/path/page").expect("a valid URL"),
        head_html: None,
        delivery: Default::default(),
    };
    let rendered = page_and_plain(&markdown, &options);
    assert!(rendered.page.contains("<main>"), "{}", rendered.page);
    let wrapped = format!("<html><body><main>{}</main></body></html>", rendered.plain);
    for own in [&rendered.page, &wrapped] {
        match ingest(own, &IngestOptions::default()) {
            Ok(again) => {
                let _ = again.to_markdown();
            }
            Err(error) => panic!("our own output is refused: {error}\n{own}"),
        }
    }
}

/// Whether the parser's fast path takes `html` and builds html5ever's tree from it:
/// `Ok(true)` when it does, `Ok(false)` when it gives up, `Err` with both trees when they
/// differ (for the tests over real pages).
pub fn fast_path_agrees(html: &str) -> Result<bool, String> {
    crate::dom::fast_path_agrees(html)
}
