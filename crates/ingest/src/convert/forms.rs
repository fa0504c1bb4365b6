//! Form controls and media elements as text, images and links (`hast-util-to-mdast`).

use super::flow::wrap_needed;
use super::{all, collapse_trim, non_empty, parse_int};
use crate::dom::{HElement, HNode};
use crate::hast::to_text;
use crate::model::{Kind, Node};

/// A text area: its lines, joined by breaks (a blank line as two).
pub(super) fn textarea(e: &HElement) -> Vec<Node> {
    let value = to_text(e);
    let mut results = Vec::new();
    let mut blank = false;
    let normalised = value.replace("\r\n", "\n").replace('\r', "\n");
    for line in normalised.split('\n') {
        let line = collapse_trim(Some(line));
        if line.is_empty() {
            blank = true;
            continue;
        }
        if !results.is_empty() {
            results.push(Node::new(Kind::Break));
            if blank {
                results.push(Node::new(Kind::Break));
            }
        }
        results.push(Node::text(line));
        blank = false;
    }
    results
}

/// The selected options of a `select` (or `datalist`): (value, label when it differs).
pub(super) fn selected_options(
    e: &HElement,
    multiple: bool,
    size: Option<&str>,
) -> Vec<(String, Option<String>)> {
    fn options<'a>(e: &'a HElement, out: &mut Vec<&'a HElement>) {
        for child in e.children.iter().filter_map(HNode::element) {
            options(child, out);
            if child.is("option") && child.attr("disabled").is_none() {
                out.push(child);
            }
        }
    }
    let mut all_options = Vec::new();
    options(e, &mut all_options);
    let mut list: Vec<&HElement> = all_options
        .iter()
        .copied()
        .filter(|o| o.attr("selected").is_some())
        .collect();
    if !multiple {
        list = list.split_off(list.len().saturating_sub(1));
        if list.is_empty() && size.and_then(parse_int).is_none_or(|s| s <= 1) {
            list = all_options.into_iter().take(1).collect();
        }
    }
    list.into_iter()
        .map(|option| {
            let content = collapse_trim(Some(&to_text(option)));
            let label = if content.is_empty() {
                collapse_trim(option.attr("label"))
            } else {
                content.clone()
            };
            let value = non_empty(collapse_trim(option.attr("value"))).unwrap_or(content);
            let label = (label != value).then_some(label);
            (value, label)
        })
        .collect()
}

/// Form inputs as text: check boxes as `[x]`/`[ ]`, values or placeholders, image buttons.
pub(super) fn input(e: &HElement) -> Vec<Node> {
    let kind = e.attr("type").unwrap_or("");
    if e.attr("disabled").is_some() || kind == "hidden" || kind == "file" {
        return Vec::new();
    }
    if kind == "checkbox" || kind == "radio" {
        return vec![Node::text(if e.attr("checked").is_some() {
            "[x]"
        } else {
            "[ ]"
        })];
    }
    let value = collapse_trim(
        e.attr("value")
            .filter(|v| !v.is_empty())
            .or(e.attr("placeholder")),
    );
    if kind == "image" {
        let alt = non_empty(collapse_trim(e.attr("alt"))).unwrap_or_else(|| value.clone());
        if alt.is_empty() {
            return Vec::new();
        }
        return vec![Node::new(Kind::Image {
            url: e.attr("src").unwrap_or("").to_owned(),
            title: non_empty(collapse_trim(e.attr("title"))),
            alt,
        })];
    }
    if value.is_empty() {
        return Vec::new();
    }
    match kind {
        "password" => vec![Node::text("•".repeat(value.encode_utf16().count()))],
        "email" | "url" => {
            let url = if kind == "email" {
                format!("mailto:{value}")
            } else {
                value.clone()
            };
            vec![Node::with(
                Kind::Link { url, title: None },
                vec![Node::text(value)],
            )]
        }
        _ => vec![Node::text(value)],
    }
}

pub(super) fn media(e: &HElement) -> Vec<Node> {
    let nodes = all(e);
    let mut has_link = false;
    for n in &nodes {
        n.walk(&mut |d| has_link |= matches!(d.kind, Kind::Link { .. }));
    }
    if has_link || wrap_needed(&nodes) {
        return nodes;
    }
    let mut source = e.attr("src").unwrap_or("").to_owned();
    for child in &e.children {
        if !source.is_empty() {
            break;
        }
        if let HNode::Element(s) = child
            && s.is("source")
        {
            source = s.attr("src").unwrap_or("").to_owned();
        }
    }
    let mut children = nodes;
    if e.is("video")
        && let Some(poster) = e.attr("poster").filter(|p| !p.is_empty())
    {
        let alt: String = children.iter().map(Node::to_plain_text).collect();
        children = vec![Node::new(Kind::Image {
            url: poster.to_owned(),
            title: None,
            alt,
        })];
    }
    vec![Node::with(
        Kind::Link {
            url: source,
            title: non_empty(collapse_trim(e.attr("title"))),
        },
        children,
    )]
}
