//! `hast-util-to-text`: the rendered text of an element, for code and form controls.

use super::{Ws, infer_ws};
use crate::dom::{HElement, HNode};

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
