//! `hast-util-raw`: the raw HTML of the markdown parsed into the tree. The reference hands
//! the whole tree to parse5 as a fragment (in a `template` context), so raw HTML can open
//! and close elements around the markdown's own; here the tree is written out as HTML with
//! the raw strings in place and parsed again the same way. Comments, by far the most
//! common raw HTML of converted pages, become comment nodes directly.

use super::html::serialise_for_parsing;
use super::to_hast::RAW;
use crate::dom::{self, HNode};

pub(crate) fn resolve(nodes: Vec<HNode>) -> Vec<HNode> {
    let mut simple = true;
    if !scan(&nodes, &mut simple) {
        return nodes;
    }
    if simple {
        return nodes.into_iter().map(comments_only).collect();
    }
    let mut html = String::new();
    for node in &nodes {
        serialise_for_parsing(node, RAW, &mut html);
    }
    dom::parse_fragment(&html)
}

/// Whether there is raw HTML; `simple` stays true while all of it is lone comments.
fn scan(nodes: &[HNode], simple: &mut bool) -> bool {
    let mut any = false;
    for node in nodes {
        if let HNode::Element(e) = node {
            if &*e.name == RAW {
                any = true;
                if lone_comment(raw_value(&e.children)).is_none() {
                    *simple = false;
                }
            } else {
                any |= scan(&e.children, simple);
            }
        }
    }
    any
}

fn raw_value(children: &[HNode]) -> &str {
    match children.first() {
        Some(HNode::Text(t)) => t,
        _ => "",
    }
}

/// The data of a raw string that is exactly one well-formed comment.
fn lone_comment(value: &str) -> Option<&str> {
    let inner = value.strip_prefix("<!--")?.strip_suffix("-->")?;
    let well_formed = !inner.starts_with('>')
        && !inner.starts_with("->")
        && !inner.contains("-->")
        && !inner.contains("--!>")
        && !inner.ends_with("<!-");
    well_formed.then_some(inner)
}

fn comments_only(node: HNode) -> HNode {
    match node {
        HNode::Element(e) if &*e.name == RAW => HNode::Comment(
            lone_comment(raw_value(&e.children))
                .unwrap_or("")
                .to_owned(),
        ),
        HNode::Element(mut e) => {
            e.children = e.children.into_iter().map(comments_only).collect();
            HNode::Element(e)
        }
        other => other,
    }
}
