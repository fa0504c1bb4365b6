//! Lists (`ul`, `ol`, `dir`), list items with their check boxes and spread, and definition
//! lists, as `hast-util-to-mdast` converts them.

use super::flow::to_flow;
use super::{all, all_of, parse_int};
use crate::dom::{HElement, HNode};
use crate::model::{Kind, Node};

pub(super) fn list(e: &HElement) -> Node {
    let ordered = e.is("ol");
    let children = to_list_items(all(e));
    let start = ordered.then(|| e.attr("start").and_then(parse_int).unwrap_or(1));
    let spread = items_spread(&children);
    Node::with(
        Kind::List {
            ordered,
            start,
            spread,
        },
        children,
    )
}

pub(super) fn items_spread(children: &[Node]) -> bool {
    children.len() > 1
        && children
            .iter()
            .any(|c| matches!(c.kind, Kind::ListItem { spread: true, .. }))
}

/// `toSpecificContent`: loose nodes join the next list item (or the last, or a new one).
pub(super) fn to_list_items(nodes: Vec<Node>) -> Vec<Node> {
    let mut results: Vec<Node> = Vec::new();
    let mut queue: Vec<Node> = Vec::new();
    for mut node in nodes {
        if matches!(node.kind, Kind::ListItem { .. }) {
            if !queue.is_empty() {
                queue.append(&mut node.children);
                node.children = std::mem::take(&mut queue);
            }
            results.push(node);
        } else {
            queue.push(node);
        }
    }
    if !queue.is_empty() {
        if results.is_empty() {
            results.push(Node::new(Kind::ListItem {
                spread: false,
                checked: None,
            }));
        }
        results
            .last_mut()
            .expect("one item")
            .children
            .append(&mut queue);
    }
    results
}

pub(super) fn li(e: &HElement) -> Node {
    let (checked, rest) = leading_checkbox(e);
    let spread = spreadout(&rest);
    Node::with(Kind::ListItem { spread, checked }, to_flow(all_of(&rest)))
}

pub(super) fn leading_checkbox(e: &HElement) -> (Option<bool>, Vec<HNode>) {
    if let Some(HNode::Element(head)) = e.children.first() {
        if head.is("input") && matches!(head.attr("type"), Some("checkbox" | "radio")) {
            return (
                Some(head.attr("checked").is_some()),
                e.children[1..].to_vec(),
            );
        }
        if head.is("p")
            && let (Some(checked), rest_head) = leading_checkbox(head)
        {
            let mut p = head.clone();
            p.children = rest_head;
            let mut rest = vec![HNode::Element(p)];
            rest.extend(e.children[1..].iter().cloned());
            return (Some(checked), rest);
        }
    }
    (None, e.children.clone())
}

pub(super) fn spreadout(children: &[HNode]) -> bool {
    let mut seen_flow = false;
    for child in children {
        if let HNode::Element(e) = child {
            if hast_phrasing(e) {
                continue;
            }
            if e.is("p") || seen_flow || spreadout(&e.children) {
                return true;
            }
            seen_flow = true;
        }
    }
    false
}

/// `hast-util-phrasing`.
pub(super) fn hast_phrasing(e: &HElement) -> bool {
    const BASIC: &[&str] = &[
        "a", "abbr", "area", "b", "bdi", "bdo", "br", "button", "cite", "code", "data", "datalist",
        "del", "dfn", "em", "i", "input", "ins", "kbd", "keygen", "label", "map", "mark", "meter",
        "noscript", "output", "progress", "q", "ruby", "s", "samp", "script", "select", "small",
        "span", "strong", "sub", "sup", "template", "textarea", "time", "u", "var", "wbr",
    ];
    const EMBEDDED: &[&str] = &[
        "audio", "canvas", "embed", "iframe", "img", "math", "object", "picture", "svg", "video",
    ];
    let name = &*e.name;
    BASIC.contains(&name)
        || EMBEDDED.contains(&name)
        || ((name == "link" || name == "meta") && e.attr("itemprop").is_some())
}

pub(super) fn dl(e: &HElement) -> Option<Node> {
    let mut clean: Vec<&HNode> = Vec::new();
    for child in &e.children {
        match child {
            HNode::Element(d) if d.is("div") => clean.extend(d.children.iter()),
            other => clean.push(other),
        }
    }
    let mut groups: Vec<(Vec<HNode>, Vec<HNode>)> = vec![(Vec::new(), Vec::new())];
    for (index, child) in clean.iter().enumerate() {
        if child.is_element("dt") {
            if index > 0 && clean[index - 1].is_element("dd") {
                groups.push((Vec::new(), Vec::new()));
            }
            groups.last_mut().expect("group").0.push((*child).clone());
        } else {
            groups.last_mut().expect("group").1.push((*child).clone());
        }
    }
    let mut content = Vec::new();
    for (titles, definitions) in groups {
        let mut result = dl_group(&titles);
        result.extend(dl_group(&definitions));
        if !result.is_empty() {
            content.push(Node::with(
                Kind::ListItem {
                    spread: result.len() > 1,
                    checked: None,
                },
                result,
            ));
        }
    }
    if content.is_empty() {
        return None;
    }
    let spread = items_spread(&content);
    Some(Node::with(
        Kind::List {
            ordered: false,
            start: None,
            spread,
        },
        content,
    ))
}

/// The terms or the definitions of one `dl` group: their items' content, or a list of them.
pub(super) fn dl_group(children: &[HNode]) -> Vec<Node> {
    let mut items = to_list_items(all_of(children));
    match items.len() {
        0 => Vec::new(),
        1 => items.pop().expect("one item").children,
        _ => {
            let spread = items_spread(&items);
            vec![Node::with(
                Kind::List {
                    ordered: false,
                    start: None,
                    spread,
                },
                items,
            )]
        }
    }
}
