//! Paragraph wrapping (`toFlow`: runs of phrasing become paragraphs; links and deletions
//! holding flow content are split) and the final text pass of `hast-util-to-mdast`. The
//! runs that become a paragraph's children are sized to their nodes: the document keeps
//! them, and a page of nested divs and formats is mostly such paragraphs.

use super::drop_surrounding_breaks;
use crate::hast::is_whitespace;
use crate::model::{Kind, Node};

/// Whether a node counts as phrasing for paragraph wrapping.
pub(super) fn phrasing(node: &Node) -> bool {
    node.is_phrasing()
}

pub(super) fn is_parent(kind: &Kind) -> bool {
    !matches!(
        kind,
        Kind::Text { .. }
            | Kind::InlineCode { .. }
            | Kind::Break
            | Kind::Image { .. }
            | Kind::Code { .. }
            | Kind::Html { .. }
            | Kind::ThematicBreak
    )
}

pub(super) fn wrap_needed(nodes: &[Node]) -> bool {
    nodes
        .iter()
        .any(|n| !phrasing(n) || (is_parent(&n.kind) && wrap_needed(&n.children)))
}

/// `toFlow` (hast-util-to-mdast's `wrap`): runs of phrasing become paragraphs, unless they
/// are only white space.
pub(crate) fn to_flow(nodes: Vec<Node>) -> Vec<Node> {
    runs(
        nodes,
        |queue| {
            if queue
                .iter()
                .all(|n| matches!(&n.kind, Kind::Text { value } if is_whitespace(value)))
            {
                Vec::new()
            } else {
                vec![Node::with(Kind::Paragraph, drop_surrounding_breaks(queue))]
            }
        },
        |n| n,
    )
}

pub(super) fn runs(
    nodes: Vec<Node>,
    mut on_phrasing: impl FnMut(Vec<Node>) -> Vec<Node>,
    mut on_other: impl FnMut(Node) -> Node,
) -> Vec<Node> {
    let mut result = Vec::new();
    let mut queue = Vec::new();
    // Links and deletions holding flow content are split first, at every level (a split
    // runs on the split node's children in turn).
    // A run becomes the children of a paragraph (or a split link) that the document
    // keeps: sized to its nodes, as a run of one grown from empty took room for four
    // (most of the content tree of a page of nested divs and formats).
    let sized = |mut queue: Vec<Node>| {
        queue.shrink_to_fit();
        queue
    };
    for node in flatten(nodes) {
        if phrasing(&node) {
            queue.push(node);
        } else {
            if !queue.is_empty() {
                result.extend(on_phrasing(sized(std::mem::take(&mut queue))));
            }
            result.push(on_other(node));
        }
    }
    if !queue.is_empty() {
        result.extend(on_phrasing(sized(queue)));
    }
    result.shrink_to_fit();
    result
}

pub(super) fn flatten(nodes: Vec<Node>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        if matches!(node.kind, Kind::Delete | Kind::Link { .. }) && wrap_needed(&node.children) {
            out.extend(split(node));
        } else {
            out.push(node);
        }
    }
    out
}

/// Splits a link or deletion that holds flow content: the flow moves out, with the link
/// repeated inside it.
pub(super) fn split(node: Node) -> Vec<Node> {
    let kind = node.kind.clone();
    runs(
        node.children,
        |queue| vec![Node::with(kind.clone(), queue)],
        |child| {
            if is_parent(&child.kind) {
                let inner = Node::with(kind.clone(), child.children);
                Node::with(child.kind, vec![inner])
            } else {
                child
            }
        },
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parent {
    Root,
    Paragraph,
    Heading,
    Other,
}

pub(super) fn parent_of(kind: &Kind) -> Parent {
    match kind {
        Kind::Paragraph => Parent::Paragraph,
        Kind::Heading { .. } => Parent::Heading,
        _ => Parent::Other,
    }
}

/// The final pass of `hast-util-to-mdast`: adjacent texts merged, white space around line
/// endings removed (the first one of each visit), texts trimmed at the edges of headings,
/// paragraphs and the root, empty texts dropped.
pub(crate) fn tidy_text(children: &mut Vec<Node>, parent: Parent) {
    let mut index: isize = 0;
    while index >= 0 && (index as usize) < children.len() {
        let i = index as usize;
        let mut next = index + 1;
        if let Kind::Text { .. } = children[i].kind {
            if i > 0 && matches!(children[i - 1].kind, Kind::Text { .. }) {
                let Kind::Text { value } = children.remove(i).kind else {
                    unreachable!()
                };
                if let Kind::Text { value: previous } = &mut children[i - 1].kind {
                    previous.push_str(&value);
                }
                index -= 1;
                continue;
            }
            let last = i == children.len() - 1;
            let Kind::Text { value } = &mut children[i].kind else {
                unreachable!()
            };
            trim_first_line_ending(value);
            if matches!(parent, Parent::Root | Parent::Paragraph | Parent::Heading) {
                if i == 0 {
                    let trimmed = value.trim_start_matches(['\t', ' ']);
                    if trimmed.len() != value.len() {
                        *value = trimmed.to_owned();
                    }
                }
                if last {
                    let len = value.trim_end_matches(['\t', ' ']).len();
                    value.truncate(len);
                }
            }
            if value.is_empty() {
                children.remove(i);
                next = index;
            }
        } else {
            let kind = parent_of(&children[i].kind);
            tidy_text(&mut children[i].children, kind);
        }
        index = next;
    }
}

/// `value.replace(/[\t ]*(\r?\n|\r)[\t ]*/, '$1')`.
pub(super) fn trim_first_line_ending(value: &mut String) {
    let bytes = value.as_bytes();
    let Some(pos) = bytes.iter().position(|b| *b == b'\n' || *b == b'\r') else {
        return;
    };
    let mut start = pos;
    while start > 0 && matches!(bytes[start - 1], b'\t' | b' ') {
        start -= 1;
    }
    let eol_len = if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
        2
    } else {
        1
    };
    let mut end = pos + eol_len;
    while end < bytes.len() && matches!(bytes[end], b'\t' | b' ') {
        end += 1;
    }
    if start == pos && end == pos + eol_len {
        return;
    }
    let eol = value[pos..pos + eol_len].to_owned();
    value.replace_range(start..end, &eol);
}
