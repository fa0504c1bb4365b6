//! The image hook of the preview pipeline: which image URLs of a page are downloaded, and
//! the rewrite of each to what the downloader stored.
//!
//! The rule is the reference's (`mdast-process-images`): a URL without a scheme (or starting
//! with `/`) is resolved against the page URL, unless it starts with `./media_` (already
//! stored media); an absolute `http:`/`https:` URL is taken as it is; anything else
//! (`data:`, `about:`, `mailto:` …) is left alone. Body images (`img src`) and the head
//! images (`og:image`, `og:image:secure_url`, `twitter:image`, `image`) are both covered.

use std::collections::HashMap;

use url::Url;

use super::model::{Document, Kind, MetaValue, Node};

/// One image to download: where it is written in the page, and where to fetch it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// The URL as the page wrote it.
    pub source: String,
    /// The absolute URL to fetch.
    pub url: Url,
}

/// The absolute URL to fetch for `src`, or None when the reference leaves it alone (or it
/// does not parse).
fn fetch_url(src: &str, page_url: &Url) -> Option<Url> {
    let relative = !src.contains(':') || src.starts_with('/');
    if relative {
        if src.starts_with("./media_") {
            return None;
        }
        return page_url.join(src).ok();
    }
    let lower = src.get(..8).unwrap_or(src).to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Url::parse(src).ok();
    }
    None
}

impl Document {
    /// Every image to download, once per distinct absolute URL, in document order (body
    /// images, then head images). `len()` is the count the image limit applies to.
    pub fn image_urls(&self, page_url: &Url) -> Vec<ImageRef> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        self.for_each_image_src(|src| {
            if let Some(url) = fetch_url(src, page_url)
                && seen.insert(url.as_str().to_owned())
            {
                out.push(ImageRef {
                    source: src.to_owned(),
                    url,
                });
            }
        });
        out
    }

    /// Rewrites every downloadable image: `rewrite` gets the absolute URL (once per distinct
    /// URL) and returns what the page refers to instead (the stored `./media_<hash>.<ext>`,
    /// or `about:error` for an image that failed). Images the rule leaves alone are not
    /// passed and keep their URL. Call it before [`Document::to_markdown`] or rendering.
    pub fn map_images(&mut self, page_url: &Url, mut rewrite: impl FnMut(&Url) -> String) {
        let mut done: HashMap<String, String> = HashMap::new();
        let mut apply = |src: &mut String| {
            if let Some(url) = fetch_url(src, page_url) {
                let new = done
                    .entry(url.as_str().to_owned())
                    .or_insert_with(|| rewrite(&url))
                    .clone();
                *src = new;
            }
        };
        for section in &mut self.sections {
            for node in &mut section.children {
                node.walk_mut(&mut |n: &mut Node| {
                    if let Kind::Image { url, .. } = &mut n.kind {
                        apply(url);
                    }
                });
            }
        }
        for entry in &mut self.head_metadata {
            if let MetaValue::Image(url) = &mut entry.value {
                apply(url);
            }
        }
    }

    fn for_each_image_src(&self, mut f: impl FnMut(&str)) {
        for section in &self.sections {
            for node in &section.children {
                node.walk(&mut |n| {
                    if let Kind::Image { url, .. } = &n.kind {
                        f(url);
                    }
                });
            }
        }
        for entry in &self.head_metadata {
            if let MetaValue::Image(url) = &entry.value {
                f(url);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{IngestOptions, ingest};

    #[test]
    fn lists_and_rewrites_images() {
        let html = r#"<html><head><meta property="og:image" content="/og.png"></head><body><main><div>
            <p><img src="a.png"><img src="https://cdn.example/b.jpg"><img src="data:image/png;base64,x">
            <img src="./media_1.png"><img src="a.png"></p></div></main></body></html>"#;
        let page = Url::parse("https://source.example/docs/page.html").unwrap();
        let mut doc = ingest(html, &IngestOptions::default()).unwrap();
        let urls: Vec<String> = doc
            .image_urls(&page)
            .iter()
            .map(|i| i.url.to_string())
            .collect();
        assert_eq!(
            urls,
            vec![
                "https://source.example/docs/a.png",
                "https://cdn.example/b.jpg",
                "https://source.example/og.png"
            ]
        );
        let mut calls = 0;
        doc.map_images(&page, |url| {
            calls += 1;
            format!("./media_{}.png", url.path().len())
        });
        assert_eq!(calls, 3);
        let md = doc.to_markdown();
        assert!(md.contains("[image0]: ./media_11.png"), "{md}");
        assert!(md.contains("data:image/png;base64,x"), "{md}");
        assert!(md.contains("./media_1.png"), "{md}");
        assert!(md.contains("[image4]: ./media_7.png"), "{md}");
    }
}
