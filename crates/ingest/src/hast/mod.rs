//! Whitespace rules over the HTML tree, as the reference converter applies them: the
//! minification of `hast-util-minify-whitespace` (run before conversion and, with line
//! endings kept, before formatting output) here, and the `innerText`-like text of
//! `hast-util-to-text` (for code) in `text.rs`.

mod text;

pub(crate) use text::to_text;

use super::dom::{HElement, HNode};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ws {
    Normal,
    Pre,
    Nowrap,
    PreWrap,
}

#[derive(Clone, Copy)]
struct State {
    before: bool,
    after: bool,
    ws: Ws,
    /// Runs of white space with a line ending collapse to that line ending.
    newlines: bool,
}

struct Outcome {
    ignore: bool,
    strip_at_start: bool,
    remove: bool,
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "br"
            | "caption"
            | "center"
            | "col"
            | "colgroup"
            | "dd"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "legend"
            | "li"
            | "listing"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "optgroup"
            | "option"
            | "p"
            | "plaintext"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
            | "wbr"
            | "xmp"
    )
}
fn is_content(name: &str) -> bool {
    matches!(
        name,
        "audio"
            | "canvas"
            | "embed"
            | "iframe"
            | "img"
            | "math"
            | "object"
            | "picture"
            | "svg"
            | "video"
            | "button"
            | "input"
            | "select"
            | "textarea"
    )
}
fn is_skippable(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "dialog"
            | "datalist"
            | "head"
            | "link"
            | "meta"
            | "noembed"
            | "noframes"
            | "param"
            | "rp"
            | "script"
            | "source"
            | "style"
            | "template"
            | "track"
            | "title"
    )
}

fn blocklike(e: &HElement) -> bool {
    is_block(&e.name)
}

fn content(node: &HNode) -> bool {
    node.element().is_some_and(|e| is_content(&e.name))
}

fn skippable(node: &HNode) -> bool {
    match node {
        HNode::Comment(_) => true,
        HNode::Element(e) => e.attr("hidden").is_some() || is_skippable(&e.name),
        HNode::Text(_) => false,
    }
}

/// HTML white space (`hast-util-whitespace`): only space, tab, line feed, form feed, CR.
pub(crate) fn is_whitespace(s: &str) -> bool {
    s.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r'))
}

pub(super) fn infer_ws(e: &HElement, current: Ws) -> Ws {
    match &*e.name {
        "listing" | "plaintext" | "script" | "style" | "xmp" => Ws::Pre,
        "nobr" => Ws::Nowrap,
        "pre" if e.attr("wrap").is_some() => Ws::PreWrap,
        "pre" => Ws::Pre,
        "td" | "th" if e.attr("nowrap").is_some() => Ws::Nowrap,
        "textarea" => Ws::PreWrap,
        _ => current,
    }
}

/// Collapses runs of `[\t\n\v\f\r ]` into one space.
pub(crate) fn collapse(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut in_run = false;
    for c in value.chars() {
        if matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ') {
            if !in_run {
                out.push(' ');
                in_run = true;
            }
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// Minifies the white space of `element` and its subtree in place (`newlines: false`).
pub(crate) fn minify_whitespace(element: &mut HElement) {
    minify_children(element, false);
}

/// The same with `newlines: true` (as `rehype-format` runs it), over `element`'s children.
pub(crate) fn minify_children(element: &mut HElement, newlines: bool) {
    let state = State {
        before: true,
        after: true,
        ws: infer_ws(element, Ws::Normal),
        newlines,
    };
    all(&mut element.children, state);
}

/// Collapses runs of white space to their first line ending, or a space.
fn collapse_newlines(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.is_empty() {
            return;
        }
        match run.find(['\r', '\n']) {
            Some(i) if run[i..].starts_with("\r\n") => out.push_str("\r\n"),
            Some(i) => out.push_str(&run[i..i + 1]),
            None => out.push(' '),
        }
        run.clear();
    };
    for c in value.chars() {
        if matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ') {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

fn minify(node: &mut HNode, state: State) -> Outcome {
    match node {
        HNode::Element(e) => {
            let mut settings = state;
            if blocklike(e) {
                settings.before = true;
                settings.after = true;
            }
            settings.ws = infer_ws(e, state.ws);
            all(&mut e.children, settings)
        }
        HNode::Text(value) => {
            if state.ws == Ws::Normal {
                return minify_text(value, state);
            }
            if state.ws == Ws::Nowrap {
                *value = if state.newlines {
                    collapse_newlines(value)
                } else {
                    collapse(value)
                };
            }
            Outcome {
                ignore: false,
                strip_at_start: false,
                remove: false,
            }
        }
        HNode::Comment(_) => Outcome {
            ignore: true,
            strip_at_start: false,
            remove: false,
        },
    }
}

/// Whether `collapse` would leave `value` as it is (no white space but single spaces).
fn already_collapsed(value: &str) -> bool {
    let bytes = value.as_bytes();
    !bytes
        .iter()
        .any(|b| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r'))
        && memchr::memmem::find(bytes, b"  ").is_none()
}

fn minify_text(value: &mut String, state: State) -> Outcome {
    let collapsed = if already_collapsed(value) {
        std::mem::take(value)
    } else if state.newlines {
        collapse_newlines(value)
    } else {
        collapse(value)
    };
    let mut outcome = Outcome {
        ignore: false,
        strip_at_start: false,
        remove: false,
    };
    let bytes = collapsed.as_bytes();
    let mut start = 0;
    let mut end = bytes.len();
    let removable = |b: u8| b == b' ' || b == b'\n';
    if state.before && bytes.first().is_some_and(|b| removable(*b)) {
        start += 1;
    }
    if start != end && removable(bytes[end - 1]) {
        if state.after {
            end -= 1;
        } else {
            outcome.strip_at_start = true;
        }
    }
    if start == end {
        outcome.remove = true;
    } else if start == 0 && end == collapsed.len() {
        *value = collapsed;
    } else {
        *value = collapsed[start..end].to_owned();
    }
    outcome
}

fn all(children: &mut Vec<HNode>, state: State) -> Outcome {
    let mut before = state.before;
    let after = state.after;
    // Children to remove are marked and dropped in one pass at the end: removing each at
    // once moved the rest of the list every time (quadratic in a section of 25,000
    // paragraphs). Only later siblings are looked at, so the marked ones change nothing.
    let mut removed: Vec<bool> = Vec::new();
    for index in 0..children.len() {
        let child_after = collapsable_after(children, index, after);
        let outcome = minify(
            &mut children[index],
            State {
                before,
                after: child_after,
                ws: state.ws,
                newlines: state.newlines,
            },
        );
        if outcome.remove {
            removed.resize(children.len(), false);
            removed[index] = true;
            continue;
        }
        if !outcome.ignore {
            before = outcome.strip_at_start;
        }
        if content(&children[index]) {
            before = false;
        }
    }
    if !removed.is_empty() {
        let mut removed = removed.into_iter();
        children.retain(|_| !removed.next().unwrap_or(false));
    }
    Outcome {
        ignore: false,
        strip_at_start: before || after,
        remove: false,
    }
}

fn collapsable_after(nodes: &[HNode], index: usize, after: bool) -> bool {
    collapsable_after_in(&nodes[index + 1..]).unwrap_or(after)
}

fn collapsable_after_in(nodes: &[HNode]) -> Option<bool> {
    for node in nodes {
        let mut result = infer_boundary(node);
        if result.is_none()
            && let HNode::Element(e) = node
            && !skippable(node)
        {
            result = collapsable_after_in(&e.children);
        }
        if result.is_some() {
            return result;
        }
    }
    None
}

fn infer_boundary(node: &HNode) -> Option<bool> {
    match node {
        HNode::Element(e) => {
            if content(node) {
                Some(false)
            } else if blocklike(e) {
                Some(true)
            } else {
                None
            }
        }
        HNode::Text(t) => (!is_whitespace(t)).then_some(false),
        HNode::Comment(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse;

    fn main_of(html: &str) -> HElement {
        let root = parse(html);
        let body = root
            .children
            .into_iter()
            .find(|n| n.is_element("body"))
            .unwrap();
        match body {
            HNode::Element(b) => match b
                .children
                .into_iter()
                .find(|n| n.is_element("main"))
                .unwrap()
            {
                HNode::Element(m) => m,
                _ => unreachable!(),
            },
            _ => unreachable!(),
        }
    }

    #[test]
    fn minifies_like_the_reference() {
        let mut main =
            main_of("<main>\n  <p>  a  <b> b </b>  c </p>\n  <p>x<img src=i> y</p></main>");
        minify_whitespace(&mut main);
        let p = main.children[0].element().unwrap();
        assert!(matches!(&p.children[0], HNode::Text(t) if t == "a "));
        let b = p.children[1].element().unwrap();
        assert!(matches!(&b.children[0], HNode::Text(t) if t == "b "));
        assert!(matches!(&p.children[2], HNode::Text(t) if t == "c"));
        let p2 = main.children[1].element().unwrap();
        assert!(matches!(&p2.children[2], HNode::Text(t) if t == " y"));
    }

    #[test]
    fn code_text_keeps_inner_spaces() {
        let main =
            main_of("<main><code>404 not  found </code><pre><code>a\n  b\n</code></pre></main>");
        assert_eq!(
            to_text(main.children[0].element().unwrap()),
            "404 not found "
        );
        assert_eq!(to_text(main.children[1].element().unwrap()), "a\n  b\n");
    }
}
