//! Page metadata from `head`, as the reference converter collects it: `title`, `meta` name
//! and property tags, JSON-LD scripts (validated and pretty-printed), `html lang` and
//! `link hreflang` anywhere in the document.

use super::IngestError;
use super::dom::{HElement, HNode};
use super::json;
use super::model::{MetaEntry, MetaValue};

/// Meta names the platform sets itself and the converter leaves out.
const PLATFORM_META: &[&str] = &["viewport"];
const IMAGE_META: &[&str] = &["image", "twitter:image", "og:image", "og:image:secure_url"];

/// Collects the metadata of the document whose root element is `html`.
/// `hreflang`: whether the source mentions `hreflang` at all (otherwise no link has it).
/// `read_head`: false when the reference's parser finds `head` empty (see [`head_tags`]).
pub(crate) fn metadata(
    html: &HElement,
    limit: usize,
    hreflang: bool,
    read_head: bool,
) -> Result<Vec<MetaEntry>, IngestError> {
    let mut entries = Vec::new();
    let head = head_children(html).filter(|_| read_head);
    for child in head {
        if child.is("title") {
            let title = text_content(child);
            check_size("title", &title, limit)?;
            entries.push(entry("title", MetaValue::Text(title)));
        } else if child.is("meta") {
            let name = child.attr("name").filter(|s| !s.is_empty());
            let property = child.attr("property").filter(|s| !s.is_empty());
            let key = name.or(property).unwrap_or("");
            let key = if key.contains(':') && !key.starts_with("twitter:") {
                property
            } else {
                name
            };
            let Some(key) = key.filter(|k| !PLATFORM_META.contains(k)) else {
                continue;
            };
            let content = child.attr("content").unwrap_or("").to_owned();
            check_size(key, &content, limit)?;
            let value = if IMAGE_META.contains(&key) {
                MetaValue::Image(content)
            } else {
                MetaValue::Text(content)
            };
            entries.push(entry(key, value));
        } else if child.is("script") && child.attr("type") == Some("application/ld+json") {
            let raw = text_content(child);
            let raw = raw.trim();
            if !raw.is_empty() {
                check_size("json-ld", raw, limit)?;
                let pretty =
                    json::pretty(raw).map_err(|reason| IngestError::InvalidJsonLd { reason })?;
                entries.push(entry("json-ld", MetaValue::Text(pretty)));
            }
        }
    }
    if let Some(lang) = html.attr("lang").filter(|l| !l.is_empty()) {
        entries.push(entry("html-lang", MetaValue::Text(lang.to_owned())));
    }
    if hreflang {
        collect_hreflang(html, &mut entries, &mut false);
    }
    Ok(entries)
}

/// The elements directly under `head`.
fn head_children(html: &HElement) -> impl Iterator<Item = &HElement> {
    html.children
        .iter()
        .filter_map(HNode::element)
        .find(|e| e.is("head"))
        .into_iter()
        .flat_map(|h| h.children.iter().filter_map(HNode::element))
}

/// How many `title`, `meta` and JSON-LD elements `head` holds: what a page that starts
/// with a byte-order mark loses. The platform reads the fetched body as text with the mark
/// kept (`Buffer.toString()`), so the reference's parser (parse5) meets a character before
/// `<html>`: `head` ends there, empty, and those elements land in `body`, where the
/// converter does not look for them (`html lang` and `link hreflang` still count).
pub(crate) fn head_tags(html: &HElement) -> usize {
    head_children(html)
        .filter(|e| {
            e.is("title")
                || e.is("meta")
                || (e.is("script") && e.attr("type") == Some("application/ld+json"))
        })
        .count()
}

fn entry(name: &str, value: MetaValue) -> MetaEntry {
    MetaEntry {
        name: name.to_owned(),
        value,
    }
}

/// The limit counts UTF-16 code units, as JavaScript's `length` does.
fn check_size(field: &str, value: &str, limit: usize) -> Result<(), IngestError> {
    if value.len() <= limit {
        return Ok(());
    }
    let size: usize = value.chars().map(char::len_utf16).sum();
    if size > limit {
        return Err(IngestError::MetadataTooLarge {
            field: field.to_owned(),
            size,
            limit,
        });
    }
    Ok(())
}

fn text_content(e: &HElement) -> String {
    let mut out = String::new();
    fn push(e: &HElement, out: &mut String) {
        for c in &e.children {
            match c {
                HNode::Text(t) => out.push_str(t),
                HNode::Element(e) => push(e, out),
                HNode::Comment(_) => {}
            }
        }
    }
    push(e, &mut out);
    out
}

/// `link[hreflang]` anywhere in the document, in document order, as the reference finds
/// them: after its sections step has dropped the children of the first `main` that are not
/// non-empty `div`s.
fn collect_hreflang(e: &HElement, entries: &mut Vec<MetaEntry>, main_seen: &mut bool) {
    let is_main = e.is("main") && !*main_seen;
    if is_main {
        *main_seen = true;
    }
    for child in e.children.iter().filter_map(HNode::element) {
        let section = child.is("div") && !child.children.is_empty();
        if is_main && !section {
            continue;
        }
        if child.is("link")
            && let Some(lang) = child.attr("hreflang").filter(|l| !l.is_empty())
        {
            let href = child.attr("href").unwrap_or("").to_owned();
            entries.push(entry(&format!("hreflang-{lang}"), MetaValue::Text(href)));
        }
        collect_hreflang(child, entries, main_seen);
    }
}
