//! Rendering of the content model as the preview host serves it: the full page
//! ([`page_html`]) and the main content alone ([`plain_html`], the `.plain.html` form).
//!
//! The reference service renders pages from the stored markdown; this module renders the
//! model with the meaning that markdown has (see `content.rs`), so that a page previewed
//! here looks as it would there. The `roundtrip` fixtures of the conformance data check it.
//! Section metadata, the site's metadata sheets and URL rewriting of the hosted service are
//! not applied.

mod content;
mod html;
mod media;
mod meta;
mod tables;

use url::Url;

use super::dom::HNode;
use super::model::Document;
use content::render_sections;
use html::{el, format_and_serialise};
use meta::{PageMeta, read_block_config, take_metadata_block};

/// Options of [`page_html`].
#[derive(Debug, Clone)]
pub struct PageOptions {
    /// The page's public URL: the canonical link, and the base of relative meta images.
    pub url: Url,
    /// The site's `head.html` (from its code), appended to `head` when present.
    pub head_html: Option<String>,
}

/// The main content as `.plain.html` serves it: one `div` per section, blocks as `div`s
/// with their classes, rows and cells. The first `metadata` block is not shown (it becomes
/// `head` tags in the full page).
pub fn plain_html(doc: &Document) -> String {
    let (sections, _) = body(doc);
    format_and_serialise(sections, false)
        .trim_start()
        .to_owned()
}

/// The full page: `head` with the title, canonical link and meta tags, `body` with an
/// empty `header`, `main` with the sections, an empty `footer`.
pub fn page_html(doc: &Document, options: &PageOptions) -> String {
    let (sections, config) = body(doc);
    let meta = PageMeta::build(doc, &sections, config, &options.url);
    let mut head = Vec::new();
    head.push(el(
        "title",
        Vec::new(),
        vec![html::text(meta.title.clone())],
    ));
    head.push(el(
        "link",
        vec![
            ("rel", "canonical".into()),
            ("href", meta.canonical.clone()),
        ],
        Vec::new(),
    ));
    let mut lang = None;
    let mut json_ld = None;
    for (name, value) in &meta.tags {
        let lower = name.to_lowercase();
        if lower == "json-ld" {
            json_ld = Some(value.clone());
            continue;
        }
        if lower == "html-lang" {
            if !value.is_empty() {
                lang = Some(value.clone());
            }
            continue;
        }
        if let Some(code) = name.strip_prefix("hreflang:") {
            if !code.is_empty() {
                head.push(el(
                    "link",
                    vec![
                        ("rel", "alternate".into()),
                        ("hreflang", code.to_owned()),
                        ("href", value.clone()),
                    ],
                    Vec::new(),
                ));
            }
            continue;
        }
        let attr = if name.contains(':') && !name.starts_with("twitter:") {
            "property"
        } else {
            "name"
        };
        head.push(el(
            "meta",
            vec![(attr, name.clone()), ("content", value.clone())],
            Vec::new(),
        ));
    }
    if let Some(feed) = &meta.feed {
        head.push(el(
            "link",
            vec![
                ("rel", "alternate".into()),
                ("type", "application/xml+atom".into()),
                ("href", feed.clone()),
                ("title", format!("{} feed", meta.title)),
            ],
            Vec::new(),
        ));
    }
    if let Some(json) = json_ld {
        let sanitised = json.replace('<', "&#x3c;").replace('>', "&#x3e;");
        let script = match super::json::pretty(sanitised.trim()) {
            Ok(pretty) => el(
                "script",
                vec![("type", "application/ld+json".into())],
                vec![html::text(pretty)],
            ),
            Err(e) => el(
                "script",
                vec![
                    ("type", "application/ld+json".into()),
                    ("data-error", format!("error in json-ld: {e}")),
                ],
                Vec::new(),
            ),
        };
        head.push(script);
    }
    if let Some(extra) = &options.head_html {
        head.extend(parse_head_fragment(extra));
    }
    let html_attrs = lang.map(|l| vec![("lang", l)]).unwrap_or_default();
    let page = el(
        "html",
        html_attrs,
        vec![
            el("head", Vec::new(), head),
            el(
                "body",
                Vec::new(),
                vec![
                    el("header", Vec::new(), Vec::new()),
                    el("main", Vec::new(), sections),
                    el("footer", Vec::new(), Vec::new()),
                ],
            ),
        ],
    );
    format_and_serialise(vec![page], true)
}

/// The rendered sections, with the first `metadata` block taken out and read.
fn body(doc: &Document) -> (Vec<HNode>, Vec<(String, String)>) {
    let root = super::markdown::document_root(doc);
    let mut sections = render_sections(&root);
    let config = take_metadata_block(&mut sections)
        .map(|b| read_block_config(&b))
        .unwrap_or_default();
    (sections, config)
}

/// The site's `head.html` as nodes (it is HTML meant for `head`).
fn parse_head_fragment(html: &str) -> Vec<HNode> {
    let root = super::dom::parse(&format!("<html><head>{html}</head></html>"));
    root.children
        .into_iter()
        .filter_map(|n| match n {
            HNode::Element(e) if e.is("head") => Some(e.children),
            _ => None,
        })
        .flatten()
        .collect()
}
