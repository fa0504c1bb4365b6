//! The reference's clean-up passes over the content tree (`@adobe/helix-markdown-support`):
//! line breaks in headings, and `sanitizeTextAndFormats` (formats merged, pruned, sorted,
//! white space moved out of formats, texts joined and trimmed).
//!
//! The passes are written against `unist-util-visit`, whose visitor can move the walk to any
//! index of the current list (including -1, which ends that list). [`visit`] keeps exactly
//! those semantics, since the output depends on them.

use super::model::{Kind, Node};

enum Step {
    /// Go on with the next sibling of the visited position.
    Continue,
    /// Go on at this index of the sibling list (may revisit; -1 ends the list).
    Goto(isize),
}

/// Calls `f(siblings, index, parent)` for every node, then walks the children of the node the
/// visitor left at the returned position (if any), as `unist-util-visit` does.
fn visit<F>(children: &mut Vec<Node>, parent: Option<&Kind>, f: &mut F)
where
    F: FnMut(&mut Vec<Node>, usize, Option<&Kind>) -> (Step, Option<usize>),
{
    let mut offset: isize = 0;
    while offset >= 0 && (offset as usize) < children.len() {
        let (step, descend) = f(children, offset as usize, parent);
        if let Some(at) = descend
            && let Some(node) = children.get_mut(at)
        {
            let Node {
                kind,
                children: grandchildren,
            } = node;
            visit(grandchildren, Some(kind), f);
        }
        offset = match step {
            Step::Continue => offset + 1,
            Step::Goto(i) => i,
        };
    }
}

fn is_format(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Strong
            | Kind::Emphasis
            | Kind::Delete
            | Kind::Superscript
            | Kind::Subscript
            | Kind::Underline
    )
}

fn text_of(node: &Node) -> Option<&String> {
    match &node.kind {
        Kind::Text { value } => Some(value),
        _ => None,
    }
}

fn text_mut(node: &mut Node) -> Option<&mut String> {
    match &mut node.kind {
        Kind::Text { value } => Some(value),
        _ => None,
    }
}

/// JavaScript's white space for `trim` (WhiteSpace and LineTerminator).
pub(crate) fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

pub(crate) fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(js_space)
}

pub(crate) fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(js_space)
}

/// Line breaks in headings: dropped at the edges, `<br>` inside; empty headings removed.
pub(crate) fn sanitize_heading(root: &mut Vec<Node>) {
    visit(root, None, &mut |siblings, index, _| {
        if !matches!(siblings[index].kind, Kind::Heading { .. }) {
            return (Step::Continue, Some(index));
        }
        let children = &mut siblings[index].children;
        let start = children
            .iter()
            .take_while(|c| matches!(c.kind, Kind::Break))
            .count();
        children.drain(..start);
        while children
            .last()
            .is_some_and(|c| matches!(c.kind, Kind::Break))
        {
            children.pop();
        }
        for child in children.iter_mut() {
            if matches!(child.kind, Kind::Break) {
                *child = Node::new(Kind::Html {
                    value: "<br>".into(),
                });
            }
        }
        if siblings[index].children.is_empty() {
            siblings.remove(index);
            return (Step::Goto(index as isize), None);
        }
        (Step::Continue, Some(index))
    });
}

/// `sanitizeTextAndFormats` of the reference.
pub(crate) fn sanitize_text_and_formats(root: &mut Vec<Node>) {
    collapse(root);
    prune_all(root);
    sort(root);
    collapse(root);
    whitespace(root);
    cleanup(root, true);
    prune_all(root);
    sort(root);
}

/// Counts what a pass changed.
#[derive(Default)]
struct Changes(bool);

/// The grid-table cell clean-up (`mdast-clean-breaks`): the texts and breaks of
/// [`sanitize_text_and_formats`]' clean-up, without joining texts, then empty formats pruned.
/// Returns whether anything changed.
pub(crate) fn sanitize_breaks(root: &mut Vec<Node>) -> bool {
    let changed = cleanup(root, false);
    let before = count(root);
    prune_all(root);
    changed || count(root) != before
}

fn count(nodes: &[Node]) -> usize {
    nodes.iter().map(|n| 1 + count(&n.children)).sum()
}

/// Whether two kinds are the same variant: for formats, which have no fields, the same
/// format (without comparing field by field).
fn same_variant(a: &Kind, b: &Kind) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

fn collapse(root: &mut Vec<Node>) {
    visit(root, None, &mut |siblings, index, _| {
        if is_format(&siblings[index].kind) {
            while siblings
                .get(index + 1)
                .is_some_and(|s| same_variant(&s.kind, &siblings[index].kind))
            {
                let next = siblings.remove(index + 1);
                siblings[index].children.extend(next.children);
            }
            if siblings[index].children.is_empty() {
                siblings.remove(index);
                return (Step::Goto(index as isize - 1), None);
            }
        }
        (Step::Continue, Some(index))
    });
}

fn prune_all(children: &mut Vec<Node>) {
    children.retain_mut(|child| !prune(child));
}

fn prune(node: &mut Node) -> bool {
    if let Kind::Text { value } = &node.kind {
        return value.is_empty();
    }
    prune_all(&mut node.children);
    (matches!(node.kind, Kind::Paragraph) || is_format(&node.kind)) && node.children.is_empty()
}

fn sort_key(kind: &Kind) -> Option<usize> {
    Some(match kind {
        Kind::Delete => 0,
        Kind::Emphasis => 1,
        Kind::Strong => 2,
        Kind::Link { .. } => 3,
        Kind::Underline => 4,
        Kind::Subscript => 5,
        Kind::Superscript => 6,
        _ => return None,
    })
}

/// Nested single-child formats are reordered into one canonical order.
fn sort(children: &mut [Node]) {
    for child in children.iter_mut() {
        if sort_key(&child.kind).is_none() {
            sort(&mut child.children);
            continue;
        }
        // The chain of single-child sortable nodes starting here.
        let mut length = 0;
        let mut cursor: &Node = child;
        while sort_key(&cursor.kind).is_some() {
            length += 1;
            match cursor.children.as_slice() {
                [only] if sort_key(&only.kind).is_some() => cursor = only,
                _ => break,
            }
        }
        let mut kinds = Vec::new();
        if length > 1 {
            let mut cursor: &Node = child;
            for _ in 0..length {
                kinds.push((
                    sort_key(&cursor.kind).expect("in the chain"),
                    cursor.kind.clone(),
                ));
                if let [only] = cursor.children.as_slice() {
                    cursor = only;
                }
            }
        }
        if kinds.len() > 1 {
            // Take the innermost children, rebuild the chain in order.
            let mut inner = &mut *child;
            for _ in 1..kinds.len() {
                inner = &mut inner.children[0];
            }
            let last_children = std::mem::take(&mut inner.children);
            kinds.sort_by_key(|(k, _)| *k);
            let mut rebuilt = Node::with(kinds.last().expect("chain").1.clone(), last_children);
            for (_, kind) in kinds.iter().rev().skip(1) {
                rebuilt = Node::with(kind.clone(), vec![rebuilt]);
            }
            *child = rebuilt;
        }
        let mut last = &mut *child;
        while last.children.len() == 1 && sort_key(&last.children[0].kind).is_some() {
            last = &mut last.children[0];
        }
        sort(&mut last.children);
    }
}

fn is_snug(kind: &Kind) -> bool {
    matches!(kind, Kind::Superscript | Kind::Subscript)
}

/// micromark's `markdownSpace || unicodePunctuation`, on a UTF-16 code unit.
fn space_or_punctuation(code: Option<u16>) -> bool {
    let Some(code) = code else { return false };
    if code == 9 || code == 32 {
        return true;
    }
    char::from_u32(u32::from(code)).is_some_and(super::markdown::unicode_punctuation)
}

fn whitespace(root: &mut Vec<Node>) {
    visit(root, None, &mut |siblings, index, parent| {
        if !is_format(&siblings[index].kind) {
            return (Step::Continue, Some(index));
        }
        let mut index = index;
        let snug = is_snug(&siblings[index].kind);
        // Trailing white space moves after the format.
        let trailing = siblings[index]
            .children
            .last()
            .and_then(text_of)
            .and_then(|value| {
                let trimmed = js_trim_end(value);
                (trimmed.len() != value.len())
                    .then(|| (trimmed.to_owned(), value[trimmed.len()..].to_owned()))
            });
        if let Some(last) = siblings[index].children.last()
            && text_of(last).is_some_and(|v| js_trim_end(v).is_empty())
        {
            siblings[index].children.pop();
        }
        if let Some((trimmed, rest)) = trailing {
            if siblings[index].children.is_empty() {
                siblings[index] = Node::text(rest);
                return (Step::Goto(index as isize), None);
            }
            if !trimmed.is_empty()
                && let Some(v) = siblings[index].children.last_mut().and_then(text_mut)
            {
                *v = trimmed;
            }
            siblings.insert(index + 1, Node::text(rest));
        }
        // Leading white space moves before it (unless the parent is a format too).
        let leading = siblings[index]
            .children
            .first()
            .and_then(text_of)
            .and_then(|value| {
                let trimmed = js_trim_start(value);
                (trimmed.len() != value.len()).then(|| {
                    (
                        trimmed.to_owned(),
                        value[..value.len() - trimmed.len()].to_owned(),
                    )
                })
            });
        if let Some((trimmed, lead)) = leading {
            let empty = trimmed.is_empty();
            if let Some(v) = siblings[index].children.first_mut().and_then(text_mut) {
                *v = trimmed;
            }
            if empty {
                siblings[index].children.remove(0);
            }
            if !parent.is_some_and(is_format) {
                siblings.insert(index, Node::text(lead));
                index += 1;
            }
        }
        // A format between two words needs spaces around it to parse as one.
        if !snug
            && index > 0
            && let (Some(prev), Some(next)) = (
                siblings.get(index - 1).and_then(text_of),
                siblings.get(index + 1).and_then(text_of),
            )
        {
            let prev_code = prev.encode_utf16().last();
            let next_code = next.encode_utf16().next();
            if !space_or_punctuation(prev_code) && !space_or_punctuation(next_code) {
                if let Some(p) = text_mut(&mut siblings[index - 1]) {
                    p.push(' ');
                }
                if let Some(n) = text_mut(&mut siblings[index + 1]) {
                    n.insert(0, ' ');
                }
            }
        }
        (Step::Continue, Some(index))
    });
}

fn cleanup(root: &mut Vec<Node>, join_texts: bool) -> bool {
    let mut changes = Changes::default();
    visit(
        root,
        None,
        &mut |siblings, index, parent| match siblings[index].kind {
            Kind::Text { .. } => {
                while join_texts && siblings.get(index + 1).and_then(text_of).is_some() {
                    changes.0 = true;
                    let next = siblings.remove(index + 1);
                    if let (Some(v), Some(n)) = (text_mut(&mut siblings[index]), text_of(&next)) {
                        v.push_str(n);
                    }
                }
                let last = index == siblings.len() - 1;
                let before_break = siblings
                    .get(index + 1)
                    .is_some_and(|n| matches!(n.kind, Kind::Break));
                let para = matches!(parent, Some(Kind::Paragraph));
                let v = text_mut(&mut siblings[index]).expect("a text");
                if last || before_break {
                    let len = js_trim_end(v).len();
                    changes.0 |= len != v.len();
                    v.truncate(len);
                }
                if index == 0 && para {
                    let trimmed = js_trim_start(v);
                    if trimmed.len() != v.len() {
                        changes.0 = true;
                        *v = trimmed.to_owned();
                    }
                }
                if v.is_empty() {
                    changes.0 = true;
                    siblings.remove(index);
                    return (Step::Goto(index as isize - 1), None);
                }
                (Step::Continue, None)
            }
            Kind::Break if index == siblings.len() - 1 => {
                changes.0 = true;
                siblings.remove(index);
                (Step::Goto(index as isize - 1), None)
            }
            _ => (Step::Continue, Some(index)),
        },
    );
    changes.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Node {
        Node::text(s)
    }

    #[test]
    fn moves_white_space_out_of_formats() {
        let mut root = vec![Node::with(
            Kind::Paragraph,
            vec![t("a"), Node::with(Kind::Strong, vec![t(" b ")]), t("c")],
        )];
        sanitize_text_and_formats(&mut root);
        let p = &root[0].children;
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(p[0], t("a "));
        assert_eq!(p[1], Node::with(Kind::Strong, vec![t("b")]));
        assert_eq!(p[2], t(" c"));
    }

    #[test]
    fn sorts_nested_formats() {
        let mut root = vec![Node::with(
            Kind::Paragraph,
            vec![Node::with(
                Kind::Strong,
                vec![Node::with(Kind::Emphasis, vec![t("x")])],
            )],
        )];
        sanitize_text_and_formats(&mut root);
        assert_eq!(
            root[0].children[0],
            Node::with(Kind::Emphasis, vec![Node::with(Kind::Strong, vec![t("x")])])
        );
    }
}
