//! Whitespace rules over the HTML tree, as the reference converter applies them: the
//! minification of `hast-util-minify-whitespace` (run before conversion) and the
//! `innerText`-like text of `hast-util-to-text` (for code).

use super::dom::{HElement, HNode};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ws {
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

fn infer_ws(e: &HElement, current: Ws) -> Ws {
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
    let mut index = 0;
    while index < children.len() {
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
            children.remove(index);
            continue;
        }
        if !outcome.ignore {
            before = outcome.strip_at_start;
        }
        if content(&children[index]) {
            before = false;
        }
        index += 1;
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

// ---- hast-util-to-text ----------------------------------------------------------------

const NOT_RENDERED: &[&str] = &[
    "datalist", "head", "noembed", "noframes", "noscript", "rp", "script", "style", "template",
    "title",
];
const BLOCK_OR_CAPTION: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "center",
    "dd",
    "dialog",
    "dir",
    "dl",
    "dt",
    "div",
    "figure",
    "figcaption",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "plaintext",
    "pre",
    "section",
    "ul",
    "xmp",
];

enum Piece {
    Text(String),
    Break(usize),
}

/// The rendered text of an element (`hast-util-to-text` with `whitespace: normal`).
pub(crate) fn to_text(element: &HElement) -> String {
    let block = BLOCK_OR_CAPTION.contains(&&*element.name);
    let ws = infer_ws(element, Ws::Normal);
    let mut pieces = Vec::new();
    let n = element.children.len();
    for (index, child) in element.children.iter().enumerate() {
        let break_after = match element.children.get(index + 1) {
            Some(next) => next.is_element("br"),
            None => block,
        };
        let break_before = if index == 0 { block } else { false };
        collect(child, ws, break_before, break_after, &mut pieces);
        let _ = n;
    }
    join_pieces(pieces)
}

fn join_pieces(pieces: Vec<Piece>) -> String {
    let mut result = String::new();
    let mut count: Option<i64> = None;
    for piece in pieces {
        match piece {
            Piece::Break(value) => {
                if let Some(c) = count
                    && value as i64 > c
                {
                    count = Some(value as i64);
                }
            }
            Piece::Text(value) if !value.is_empty() => {
                if let Some(c) = count
                    && c > -1
                {
                    if c == 0 {
                        result.push(' ');
                    } else {
                        result.push_str(&"\n".repeat(c as usize));
                    }
                }
                count = Some(-1);
                result.push_str(&value);
            }
            Piece::Text(_) => {}
        }
    }
    result
}

fn collect(node: &HNode, ws: Ws, break_before: bool, break_after: bool, out: &mut Vec<Piece>) {
    match node {
        HNode::Comment(_) => {}
        HNode::Text(value) => {
            if ws == Ws::Normal {
                collect_text(value, break_before, break_after, out);
            } else {
                out.push(Piece::Text(value.clone()));
            }
        }
        HNode::Element(e) => {
            if NOT_RENDERED.contains(&&*e.name) || e.attr("hidden").is_some() {
                return;
            }
            let ws = infer_ws(e, ws);
            let (prefix, suffix) = if e.is("br") {
                (None, Some(1))
            } else if e.is("p") {
                (Some(2), Some(2))
            } else if BLOCK_OR_CAPTION.contains(&&*e.name) {
                (Some(1), Some(1))
            } else {
                (None, None)
            };
            if let Some(p) = prefix {
                out.push(Piece::Break(p));
            }
            for (index, child) in e.children.iter().enumerate() {
                let after = match e.children.get(index + 1) {
                    Some(next) => next.is_element("br"),
                    None => suffix.is_some(),
                };
                let before = index == 0 && prefix.is_some();
                collect(child, ws, before, after, out);
            }
            if let Some(s) = suffix {
                if e.is("br") {
                    out.push(Piece::Text("\n".into()));
                } else {
                    out.push(Piece::Break(s));
                }
            }
        }
    }
}

fn collect_text(value: &str, break_before: bool, break_after: bool, out: &mut Vec<Piece>) {
    let lines: Vec<&str> = value.split('\n').collect();
    let last = lines.len() - 1;
    let mut join: Option<usize> = None;
    for (index, line) in lines.iter().enumerate() {
        let cleaned: String = line
            .chars()
            .filter(|c| !matches!(c, '\u{61C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
            .collect();
        let line = trim_and_collapse(
            &cleaned,
            if index == 0 { break_before } else { true },
            if index == last { break_after } else { true },
        );
        let ends_zwsp = line.ends_with('\u{200B}');
        if ends_zwsp {
            out.push(Piece::Text(line));
            join = None;
        } else if !line.is_empty() {
            if let Some(j) = join {
                out.push(Piece::Break(j));
            }
            out.push(Piece::Text(line));
            join = Some(0);
        } else if index == 0 || index == last {
            out.push(Piece::Break(0));
        }
    }
}

fn trim_and_collapse(value: &str, break_before: bool, break_after: bool) -> String {
    let mut result: Vec<&str> = Vec::new();
    let bytes = value.as_bytes();
    let mut start = 0;
    let mut end = 0;
    while start < bytes.len() {
        let run = bytes[start..]
            .iter()
            .position(|b| *b == b' ' || *b == b'\t');
        end = run.map_or(bytes.len(), |p| start + p);
        if start == 0 && end == 0 && run.is_some() && !break_before {
            result.push("");
        }
        if start != end {
            result.push(&value[start..end]);
        }
        start = match run {
            Some(_) => {
                let len = bytes[end..]
                    .iter()
                    .take_while(|b| **b == b' ' || **b == b'\t')
                    .count();
                end + len
            }
            None => end,
        };
    }
    if start != end && !break_after {
        result.push("");
    }
    result.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::dom::parse;

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
