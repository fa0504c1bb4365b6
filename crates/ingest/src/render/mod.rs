//! The page as the preview host serves it, rendered as the platform renders it: from the
//! **stored markdown**, through the steps of `@adobe/helix-html-pipeline`'s `html-pipe`:
//!
//! ```text
//! markdown ──parse (markdown-rs + grid tables + dereference)──▶ mdast
//!   ──sections (split-sections, get-metadata, unwrap-sole-images)──▶ sections + ContentInfo
//!   ──to_hast (mdast-util-to-hast + the pipeline's handlers)──▶ hast ──raw (hast-util-raw)
//!   ──steps (rewrite-urls, fix-sections, create-page-blocks, create-pictures)
//!   ──section_metadata (extract-section-metadata, when the delivery asks)
//!   ──head::build_head (extract-metadata with the sheets' values; the metadata block
//!     leaves the body; head.html with the CSP nonce)
//!   ──steps (rewrite-icons, add-heading-ids) ──html (rehype-format, hast-util-to-html)──▶ HTML
//! ```
//!
//! [`plain`] is the `.plain.html` form (the body alone), [`page`] the whole page and the
//! response headers its render sets; what the delivery knows about the page beyond its
//! markdown comes in [`PageDelivery`] (`site` turns it into URLs). Each tree is dropped
//! once the next is made from it, so that a page holds two at most.

mod csp;
mod gridtable;
mod head;
mod html;
mod mdast;
mod media;
mod parse;

pub use parse::panicked_in_markdown_rs;
mod raw;
mod section_metadata;
mod sections;
mod site;
mod slug;
mod slug_removed;
mod steps;
#[cfg(test)]
mod tests;
mod to_hast;

use url::Url;

use crate::dom::HNode;
use html::{el, format_and_serialise};

/// Options of [`page_html`].
#[derive(Debug, Clone)]
pub struct PageOptions {
    /// The page's public URL: the canonical link, and the base of relative meta images.
    pub url: Url,
    /// The site's `head.html` (from its code), appended to `head` when present.
    pub head_html: Option<String>,
    /// What the delivery around the markdown gives the render (the site's configuration
    /// and sheets); the default is a site with none of them.
    pub delivery: PageDelivery,
}

/// What the platform's pipeline knows about a page beyond its markdown and `head.html`,
/// resolved for the page by the delivery (`siteops-delivery`), which reads the site's
/// configuration and sheets: the render itself reads nothing.
#[derive(Debug, Clone, Default)]
pub struct PageDelivery {
    /// The path the page was rendered for (`state.info.path`: after a folder mapping, the
    /// mapped page's), when it is not the URL's. Relative URLs (meta images, section
    /// metadata) resolve on it; the canonical URL stays the request's.
    pub path: Option<String>,
    /// `cdn.prod.host`: the origin of the canonical URL, `og:url` and absolute image URLs
    /// (`http` for a loopback host); when `None`, the URL's own origin. Links to it are
    /// left as they are (the reference rewrites only the next two).
    pub prod_host: Option<String>,
    /// `cdn.preview.host`, `cdn.live.host` (with the port, if any): links to these hosts
    /// are made relative, as those to the platform's `*--*.aem.page` hosts.
    pub preview_host: Option<String>,
    pub live_host: Option<String>,
    /// The metadata sheets' values for the page (`state.metadata.getModifiers(path)`, for
    /// the request's path before any folder mapping): meta names (`toMetaName`) and values
    /// in the order `getModifiers` yields them. The page's own values win; an empty value
    /// is dropped, `""` gives the name no value (no tag, no fallback).
    pub metadata: Vec<(String, String)>,
    /// The mapped folder's `metadata.json` values for the page (`state.mappedMetadata`),
    /// over those of `metadata`.
    pub mapped_metadata: Vec<(String, String)>,
    /// Rendering version 2: `section-metadata` blocks become the section's classes,
    /// `data-*` attributes and id (`extract-section-metadata`).
    pub section_metadata: bool,
    /// The CSP nonce step (`csp.js` on the site's `head.html`), when the answer has one
    /// to do; `None` leaves `head.html` as it is and sets no header.
    pub csp: Option<CspInput>,
}

/// What the CSP nonce step needs: the nonce of this answer and the answer's policy
/// headers as the custom headers set them.
#[derive(Debug, Clone, Default)]
pub struct CspInput {
    /// This answer's nonce (the platform's: 18 random bytes, base64).
    pub nonce: String,
    /// `content-security-policy`, as the custom headers set it.
    pub header: Option<String>,
    /// `content-security-policy-report-only`, as the custom headers set it.
    pub header_report_only: Option<String>,
}

/// The body of a page: `main`'s children, the head derived from the markdown.
struct Body {
    main: Vec<HNode>,
    head: head::Head,
    /// Whether a link was made the page's own fragment (see [`steps::rewrite_urls`]).
    links_to_own_path: bool,
}

fn render(markdown: &str, options: &PageOptions) -> Body {
    let delivery = &options.delivery;
    let site = site::Site::new(&options.url, delivery);
    let mut tree = sections::split_sections(parse::parse(markdown));
    let content = sections::metadata_and_unwrap(&mut tree);
    let mut slugger = slug::Slugger::default();
    let hast = to_hast::to_hast(&tree, &mut slugger);
    // The mdast is not read again: it goes before the hast is resolved into another tree.
    drop(tree);
    let mut hast = raw::resolve(hast);
    let links_to_own_path = steps::rewrite_urls(&mut hast, &site);
    let mut main = steps::fix_sections(hast);
    steps::create_page_blocks(&mut main, false);
    steps::create_pictures(&mut main);
    if delivery.section_metadata {
        section_metadata::extract_section_metadata(&mut main, &site);
    }
    let inputs = head::HeadInputs {
        site: &site,
        request_path: options.url.path(),
        delivery,
        head_html: options.head_html.as_deref(),
    };
    let head = head::build_head(&mut main, &content, &inputs);
    steps::rewrite_icons(&mut main);
    steps::add_heading_ids(&mut main, &mut slugger);
    Body {
        main,
        head,
        links_to_own_path,
    }
}

/// The main content as `.plain.html` serves it: one `div` per section, blocks as `div`s
/// with their classes, rows and cells; the metadata block left out. [`plain`] for a site
/// with none of the delivery's inputs, at `https://localhost/` (and the path `/`).
pub fn plain_html(markdown: &str) -> String {
    let options = PageOptions {
        url: Url::parse("https://localhost/").expect("a valid URL"),
        head_html: None,
        delivery: PageDelivery {
            path: Some("/".into()),
            ..PageDelivery::default()
        },
    };
    plain(markdown, &options)
}

/// The `.plain.html` form for the delivery's site: URLs made as the page's, section
/// metadata applied when the delivery asks for it. `options.url` is the `.plain.html`
/// request's or the page's; the path the pipeline renders it for is `delivery.path` when
/// given, else the request's (`/a.plain.html`, `/f/index.plain.html` for the page's `/a`,
/// `/f/`).
pub fn plain(markdown: &str, options: &PageOptions) -> String {
    let path = match &options.delivery.path {
        Some(path) => path.clone(),
        None => plain_path(options.url.path()),
    };
    let options = PageOptions {
        url: options.url.clone(),
        // The head is not part of this form: neither `head.html` nor the CSP step.
        head_html: None,
        delivery: PageDelivery {
            path: Some(path),
            csp: None,
            ..options.delivery.clone()
        },
    };
    serialise_plain(render(markdown, &options).main)
}

/// `state.info.path` of the `.plain.html` request for a page's path.
fn plain_path(path: &str) -> String {
    if path.ends_with(".plain.html") {
        path.to_owned()
    } else if path.ends_with('/') {
        format!("{path}index.plain.html")
    } else {
        format!("{path}.plain.html")
    }
}

/// The full page: `head` with the title, canonical link, meta tags and the site's
/// `head.html`; `body` with an empty `header`, `main` with the sections, an empty `footer`.
pub fn page_html(markdown: &str, options: &PageOptions) -> String {
    page(markdown, options).html
}

/// Both forms of a page from one parse of its markdown, as a preview stores them.
pub struct Rendered {
    pub page: String,
    pub plain: String,
    /// Response headers the render sets on the page's answer (the CSP step's policy
    /// headers, with the nonce), to replace those of the same name.
    pub headers: Vec<(String, String)>,
}

/// The page and the response headers its render sets (see [`Rendered::headers`]).
pub struct Page {
    pub html: String,
    pub headers: Vec<(String, String)>,
}

/// The full page ([`page_html`]) with the response headers the render sets.
pub fn page(markdown: &str, options: &PageOptions) -> Page {
    let mut body = render(markdown, options);
    let headers = std::mem::take(&mut body.head.headers);
    Page {
        html: serialise_page(body),
        headers,
    }
}

/// [`page`] and [`plain`] from one render of the markdown: the plain form is the page's
/// `main`, which the head's steps leave as `.plain.html` has it, unless a link was made
/// the page's own fragment, which `.plain.html`'s own path does not do: that rare page is
/// rendered again.
pub fn page_and_plain(markdown: &str, options: &PageOptions) -> Rendered {
    let mut body = render(markdown, options);
    let plain = if body.links_to_own_path && options.delivery.path.is_none() {
        plain(markdown, options)
    } else {
        serialise_plain(body.main.clone())
    };
    let headers = std::mem::take(&mut body.head.headers);
    Rendered {
        page: serialise_page(body),
        plain,
        headers,
    }
}

fn serialise_plain(main: Vec<HNode>) -> String {
    format_and_serialise(main, false).trim_start().to_owned()
}

fn serialise_page(body: Body) -> String {
    let html_attrs = body
        .head
        .lang
        .map(|l| vec![("lang", l)])
        .unwrap_or_default();
    let page = el(
        "html",
        html_attrs,
        vec![
            el("head", Vec::new(), body.head.children),
            el(
                "body",
                Vec::new(),
                vec![
                    el("header", Vec::new(), Vec::new()),
                    el("main", Vec::new(), body.main),
                    el("footer", Vec::new(), Vec::new()),
                ],
            ),
        ],
    );
    format_and_serialise(vec![page], true)
}
