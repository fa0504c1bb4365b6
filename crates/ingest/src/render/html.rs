//! HTML output as the preview host writes it: `rehype-format` (white space minified with
//! line endings kept, then two-space indentation around everything that is not phrasing)
//! and `hast-util-to-html` (hexadecimal character references, void elements unclosed).

use html5ever::LocalName;

use crate::dom::{HElement, HNode};
use crate::hast::{is_whitespace, minify_children};

const INDENT: &str = "  ";
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];
/// Boolean (and overloaded boolean) attributes of `property-information`: written without
/// a value when empty or equal to their name.
const BOOLEAN: &[&str] = &[
    "allowfullscreen",
    "allowpaymentrequest",
    "allowusermedia",
    "alpha",
    "async",
    "autofocus",
    "autoplay",
    "checked",
    "compact",
    "controls",
    "credentialless",
    "declare",
    "default",
    "defer",
    "disabled",
    "disablepictureinpicture",
    "disableremoteplayback",
    "download",
    "formnovalidate",
    "hidden",
    "inert",
    "ismap",
    "itemscope",
    "loop",
    "multiple",
    "muted",
    "nohref",
    "nomodule",
    "noresize",
    "noshade",
    "novalidate",
    "nowrap",
    "open",
    "playsinline",
    "readonly",
    "required",
    "reversed",
    "scoped",
    "seamless",
    "selected",
    "shadowrootclonable",
    "shadowrootcustomelementregistry",
    "shadowrootdelegatesfocus",
    "shadowrootserializable",
    "typemustmatch",
];
/// Space-separated attributes: their tokens are written joined by one space.
const SPACE_SEPARATED: &[&str] = &[
    "accept-charset",
    "accesskey",
    "archive",
    "autocomplete",
    "blocking",
    "class",
    "controlslist",
    "for",
    "headers",
    "http-equiv",
    "itemprop",
    "itemref",
    "itemtype",
    "part",
    "ping",
    "rel",
    "sandbox",
];
const RAW_TEXT: &[&str] = &["script", "style"];
const WHITESPACE_SENSITIVE: &[&str] = &["pre", "script", "style", "textarea"];

pub(crate) fn el(name: &str, attrs: Vec<(&str, String)>, children: Vec<HNode>) -> HNode {
    HNode::Element(HElement {
        name: LocalName::from(name),
        foreign: false,
        attrs: attrs
            .into_iter()
            .map(|(k, v)| (LocalName::from(k), v))
            .collect(),
        children,
    })
}

pub(crate) fn text(value: impl Into<String>) -> HNode {
    HNode::Text(value.into())
}

/// Formats `children` as the children of a root (level 0) and serialises them.
pub(crate) fn format_and_serialise(children: Vec<HNode>, doctype: bool) -> String {
    let mut root = HElement {
        name: LocalName::from("#root"),
        foreign: false,
        attrs: Vec::new(),
        children,
    };
    minify_children(&mut root, true);
    let mut in_head = false;
    format_node(&mut root, 0, true, &mut in_head);
    let mut out = String::new();
    if doctype {
        out.push_str("<!DOCTYPE html>");
    }
    for child in &root.children {
        serialise(child, &mut out);
    }
    out
}

fn embedded(e: &HElement) -> bool {
    matches!(
        &*e.name,
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
    )
}

fn phrasing(e: &HElement) -> bool {
    const BASIC: &[&str] = &[
        "a", "abbr", "area", "b", "bdi", "bdo", "br", "button", "cite", "code", "data", "datalist",
        "del", "dfn", "em", "i", "input", "ins", "kbd", "keygen", "label", "map", "mark", "meter",
        "noscript", "output", "progress", "q", "ruby", "s", "samp", "script", "select", "small",
        "span", "strong", "sub", "sup", "template", "textarea", "time", "u", "var", "wbr",
    ];
    BASIC.contains(&&*e.name)
        || embedded(e)
        || ((&*e.name == "link" || &*e.name == "meta") && e.attr("itemprop").is_some())
}

fn padding(node: &HNode, in_head: bool, is_root: bool) -> bool {
    if is_root {
        return true;
    }
    match node {
        HNode::Element(e) => in_head || &*e.name == "script" || embedded(e) || !phrasing(e),
        _ => false,
    }
}

fn node_whitespace(node: &HNode) -> bool {
    matches!(node, HNode::Text(t) if is_whitespace(t))
}

/// `hast-util-format`'s visitor, applied in document order.
fn format_node(e: &mut HElement, level: usize, is_root: bool, in_head: &mut bool) {
    if &*e.name == "head" {
        *in_head = true;
    }
    if *in_head && &*e.name == "body" {
        *in_head = false;
    }
    if !is_root && WHITESPACE_SENSITIVE.contains(&&*e.name) {
        return;
    }
    let this_padding = padding(
        &HNode::Element(HElement {
            name: e.name.clone(),
            foreign: e.foreign,
            attrs: Vec::new(),
            children: Vec::new(),
        }),
        *in_head,
        is_root,
    );
    if !e.children.is_empty() && this_padding {
        let indent = INDENT.repeat(level);
        let mut eol = false;
        for child in &mut e.children {
            if let HNode::Text(value) | HNode::Comment(value) = child {
                if value.contains('\n') {
                    eol = true;
                }
                *value = reindent(value, &indent);
            }
        }
        let mut result: Vec<HNode> = Vec::with_capacity(e.children.len() * 2);
        let mut previous_exists = false;
        for child in std::mem::take(&mut e.children) {
            if padding(&child, *in_head, false) || (eol && !previous_exists) {
                add_break(&mut result, level as i64);
                eol = true;
            }
            previous_exists = true;
            result.push(child);
        }
        if let Some(last) = result.last()
            && (eol || padding(last, *in_head, false))
        {
            if node_whitespace(last) {
                result.pop();
            }
            add_break(&mut result, level as i64 - 1);
        }
        e.children = result;
    }
    for child in &mut e.children {
        if let HNode::Element(c) = child {
            format_node(c, level + 1, false, in_head);
        }
    }
}

/// `value.replace(/ *\n/g, '$&' + indent)`.
fn reindent(value: &str, indent: &str) -> String {
    if !value.contains('\n') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len() + indent.len());
    for c in value.chars() {
        out.push(c);
        if c == '\n' {
            out.push_str(indent);
        }
    }
    out
}

fn add_break(list: &mut Vec<HNode>, level: i64) {
    let replace = format!("\n{}", INDENT.repeat(level.max(0) as usize));
    match list.last_mut() {
        Some(HNode::Text(tail)) => {
            if is_whitespace(tail) {
                *tail = replace;
            } else {
                tail.push_str(&replace);
            }
        }
        _ => list.push(HNode::Text(replace)),
    }
}

fn serialise(node: &HNode, out: &mut String) {
    match node {
        HNode::Text(t) => escape(t, false, out),
        HNode::Comment(c) => {
            out.push_str("<!--");
            out.push_str(&escape_comment(c));
            out.push_str("-->");
        }
        HNode::Element(e) => {
            out.push('<');
            out.push_str(&e.name);
            for (k, v) in &e.attrs {
                out.push(' ');
                out.push_str(k);
                if BOOLEAN.contains(&&**k) && (v.is_empty() || v.eq_ignore_ascii_case(k)) {
                    continue;
                }
                out.push_str("=\"");
                if SPACE_SEPARATED.contains(&&**k) {
                    let joined = v.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
                    escape(&joined, true, out);
                } else {
                    escape(v, true, out);
                }
                out.push('"');
            }
            out.push('>');
            if VOID.contains(&&*e.name) {
                return;
            }
            if RAW_TEXT.contains(&&*e.name) {
                for child in &e.children {
                    if let HNode::Text(t) = child {
                        out.push_str(t);
                    }
                }
            } else {
                for child in &e.children {
                    serialise(child, out);
                }
            }
            out.push_str("</");
            out.push_str(&e.name);
            out.push('>');
        }
    }
}

/// `hast-util-to-html`'s comment escaping: what would end or open a comment is written as
/// character references (`/^>|^->|<!--|-->|--!>|<!-$/g`).
fn escape_comment(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains(['<', '>']) {
        return value.into();
    }
    let mut out = value
        .replace("<!--", "&#x3C;!--")
        .replace("-->", "--&#x3E;")
        .replace("--!>", "--!&#x3E;");
    if let Some(rest) = out.strip_prefix("->") {
        out = format!("-&#x3E;{rest}");
    } else if let Some(rest) = out.strip_prefix('>') {
        out = format!("&#x3E;{rest}");
    }
    if let Some(rest) = out.strip_suffix("<!-") {
        out = format!("{rest}&#x3C;!-");
    }
    out.into()
}

/// `stringify-entities` with `hast-util-to-html`'s subsets: `<` and `&` in text; `"`, `&`,
/// `'`, `` ` `` and NUL in double-quoted attribute values.
fn escape(value: &str, attribute: bool, out: &mut String) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&#x26;"),
            '<' if !attribute => out.push_str("&#x3C;"),
            '"' if attribute => out.push_str("&#x22;"),
            '\'' if attribute => out.push_str("&#x27;"),
            '`' if attribute => out.push_str("&#x60;"),
            '\0' if attribute => out.push_str("&#x0;"),
            c => out.push(c),
        }
    }
}
