//! `hast-util-raw`: the raw HTML of the markdown parsed into the tree. The reference hands
//! the whole tree to parse5 as a fragment (in a `template` context), so raw HTML can open
//! and close elements around the markdown's own; here the tree is written out as HTML with
//! the raw strings in place and parsed again the same way. Comments, by far the most
//! common raw HTML of converted pages, become comment nodes directly.
//!
//! The reference does not write the tree out: it runs parse5's tokenizer over each raw
//! string only, and hands the tree builder the markdown's own nodes as ready tokens. Where
//! raw HTML leaves an element of raw text open (`a <script>b *c* d`: `<script>`, `<style>`,
//! `<title>`, `<textarea>`, …), that differs from parsing a whole document: the markdown's
//! text goes into the element as it is, its start tags are ignored, its next end tag (any)
//! closes the element, and the tokenizer stays in the element's raw-text state until that
//! end tag is the name of the last start tag, so that later raw strings can be read as text
//! (`<!-- x -->` included). [`Writer`] follows both states and writes the HTML that the
//! parser reads as the reference's tokens.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::{Cell, RefCell};

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
    let mut writer = Writer::default();
    for node in &nodes {
        writer.node(node);
    }
    let mut parsed = dom::parse_fragment(&writer.out);
    if writer.marked {
        unmark(&mut parsed);
    }
    parsed
}

/// Put between `<` and `/` or `!` in the text of a raw-text element that raw HTML left
/// open, so that the text cannot end the element or change how its end is read, where the
/// reference's tree takes the text as it is; taken out of the parsed tree's text.
const MARK: char = '\u{fdd0}';

fn unmark(nodes: &mut [HNode]) {
    for node in nodes {
        match node {
            HNode::Text(t) if t.contains(MARK) => *t = t.replace("<\u{fdd0}", "<"),
            HNode::Element(e) => unmark(&mut e.children),
            _ => {}
        }
    }
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

/// `html-void-elements`: elements whose end tag `hast-util-raw` does not send.
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "command", "embed", "frame", "hr", "image",
    "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose text the tree carries as it is, written so.
const VERBATIM: &[&str] = &["script", "style"];

/// A tokenizer state that reads text only: the element's raw text (RCDATA, RAWTEXT, script
/// data: up to its end tag) or `plaintext` (to the end).
#[derive(Debug, Clone, PartialEq)]
struct RawText {
    kind: Kind,
    name: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// `title`, `textarea`: character references are read.
    Rcdata,
    /// `style`, `xmp`, `iframe`, `noembed`, `noframes`, and `script`.
    Rawtext,
    Plaintext,
}

/// Start tags that end SVG or MathML content (`in foreign content`; `font` left out).
#[rustfmt::skip]
const BREAKOUT: &[&str] = &[
    "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
    "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
    "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strike", "strong",
    "sub", "sup", "table", "tt", "u", "ul", "var",
];

/// How many `svg` and `math` elements are open after a start (or end) tag `name`: in them
/// (short of a tag that ends them), `title` or `style` is an element like another, with no
/// raw text. (Their HTML integration points, `foreignObject` and the like, are not followed:
/// a raw-text element opened in one is left to the parser, as before.)
fn foreign_after(depth: usize, name: &str, end: bool, self_closing: bool) -> usize {
    match name {
        "svg" | "math" if end => depth.saturating_sub(1),
        "svg" | "math" if !self_closing => depth + 1,
        _ if !end && BREAKOUT.contains(&name) => 0,
        _ => depth,
    }
}

/// The state the tree builder sets for a start tag `name` (in HTML content; scripting
/// off, so `noscript` holds markup).
fn raw_text_of(name: &str) -> Option<Kind> {
    match name {
        "title" | "textarea" => Some(Kind::Rcdata),
        "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(Kind::Rawtext),
        "plaintext" => Some(Kind::Plaintext),
        _ => None,
    }
}

/// The tree written as HTML, as `hast-util-raw` feeds parse5.
#[derive(Default)]
struct Writer {
    out: String,
    /// The reference's tokenizer, when in a raw-text state.
    raw: Option<RawText>,
    /// Whether the tree builder is in the `text` insertion mode, in the element of `raw`:
    /// the reference's tree builder took the raw string's start tag. Not so once a node's
    /// end tag has closed the element while the tokenizer stays in its state; the HTML
    /// written here, read by a parser of its own, left the state then.
    in_element: bool,
    /// The tokenizer's last start tag, set by the markdown's elements as by raw strings:
    /// only its end tag takes the tokenizer out of a raw-text state.
    last_start: String,
    /// Open `svg` and `math` elements (see [`foreign_after`]).
    foreign: usize,
    /// Whether [`MARK`] was written.
    marked: bool,
}

impl Writer {
    fn node(&mut self, node: &HNode) {
        match node {
            HNode::Text(t) => self.text(t),
            HNode::Comment(c) => {
                // The `text` insertion mode ignores comments; parse5 meets them as tokens.
                if self.raw.is_none() || !self.in_element && !self.plaintext() {
                    self.out.push_str("<!--");
                    self.out.push_str(c);
                    self.out.push_str("-->");
                }
            }
            HNode::Element(e) if &*e.name == RAW => {
                for child in &e.children {
                    if let HNode::Text(t) = child {
                        self.raw_string(t);
                    }
                }
            }
            HNode::Element(e) => {
                self.start_tag(e);
                if VOID.contains(&&*e.name) && !e.foreign {
                    return;
                }
                for child in &e.children {
                    match child {
                        HNode::Text(t) if VERBATIM.contains(&&*e.name) && self.raw.is_none() => {
                            self.out.push_str(t)
                        }
                        child => self.node(child),
                    }
                }
                self.end_tag(&e.name);
            }
        }
    }

    fn plaintext(&self) -> bool {
        self.raw.as_ref().is_some_and(|r| r.kind == Kind::Plaintext)
    }

    fn start_tag(&mut self, e: &dom::HElement) {
        if self.plaintext() {
            return;
        }
        self.last_start = e.name.to_string();
        // In the `text` insertion mode a start tag is ignored.
        if self.in_element {
            return;
        }
        self.foreign = foreign_after(self.foreign, &e.name, false, false);
        self.out.push('<');
        self.out.push_str(&e.name);
        for (k, v) in &e.attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            self.out
                .push_str(&v.replace('&', "&amp;").replace('"', "&quot;"));
            self.out.push('"');
        }
        self.out.push('>');
    }

    fn end_tag(&mut self, name: &str) {
        if self.plaintext() {
            return;
        }
        match &self.raw {
            // The `text` insertion mode closes its element at any end tag.
            Some(raw) if self.in_element => {
                self.out.push_str("</");
                self.out.push_str(&raw.name);
                self.out.push('>');
                self.in_element = false;
            }
            _ => {
                self.out.push_str("</");
                self.out.push_str(name);
                self.out.push('>');
                self.foreign = foreign_after(self.foreign, name, true, false);
            }
        }
        // `hast-util-raw` puts the tokenizer back in the data state after the end tag of
        // the last start tag only.
        if self.raw.is_some() && name == self.last_start {
            self.raw = None;
        }
    }

    fn text(&mut self, text: &str) {
        match &self.raw {
            Some(raw) if raw.kind == Kind::Plaintext => self.out.push_str(text),
            Some(raw) if self.in_element => match raw.kind {
                Kind::Rcdata => escape(text, true, &mut self.out),
                // Raw text has no escapes: `</` and `<!` are kept apart by a mark.
                _ if memchr::memchr(b'<', text.as_bytes()).is_some() => {
                    let marked = text.replace("</", "<\u{fdd0}/").replace("<!", "<\u{fdd0}!");
                    self.marked |= marked.len() != text.len();
                    self.out.push_str(&marked);
                }
                _ => self.out.push_str(text),
            },
            _ => escape(text, true, &mut self.out),
        }
    }

    /// A raw string, read by the reference's tokenizer from the state it is in.
    fn raw_string(&mut self, value: &str) {
        let mut rest = value;
        if let Some(raw) = &self.raw {
            if raw.kind == Kind::Plaintext {
                self.out.push_str(rest);
                return;
            }
            let end = end_tag_at(rest, &raw.name);
            let text = &rest[..end.unwrap_or(rest.len())];
            match (self.in_element, raw.kind) {
                (true, _) => self.out.push_str(text),
                // Character references are read in RCDATA as in the data state.
                (false, Kind::Rcdata) => escape(text, false, &mut self.out),
                (false, _) => escape(text, true, &mut self.out),
            }
            let Some(end) = end else {
                return;
            };
            // The end tag: the element's, or, out of it, an end tag in the body.
            self.raw = None;
            self.in_element = false;
            rest = &rest[end..];
        }
        self.out.push_str(rest);
        if let Some(after) = state_after(rest, self.foreign) {
            self.in_element = after.raw.is_some();
            self.raw = after.raw;
            self.foreign = after.foreign;
            if let Some(name) = after.last_start {
                self.last_start = name;
            }
        }
    }
}

/// `text` as data (`&`, `<`, `>` and no-break spaces as references) or, with `ampersand`
/// false, as RCDATA (`&` as it is: its references are read the same way).
fn escape(text: &str, ampersand: bool, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' if ampersand => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\u{a0}' if ampersand => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
}

/// Where the end tag of `name` (`</name` and white space, `/` or `>`) starts in `text`.
fn end_tag_at(text: &str, name: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, b"</").find(|&at| {
        let after = at + 2 + name.len();
        bytes
            .get(at + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && matches!(
                bytes.get(after),
                Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')
            )
    })
}

/// What a raw string read from the data state leaves: the tokenizer's state, its last start
/// tag (`None`: the string has none), the open `svg` and `math` elements.
#[derive(Debug, PartialEq)]
struct After {
    raw: Option<RawText>,
    last_start: Option<String>,
    foreign: usize,
}

/// The state after `text`, read from the data state with `foreign` elements open; `None`
/// when `text` has no start tag that could change it.
fn state_after(text: &str, foreign: usize) -> Option<After> {
    const NAMES: &[&[u8]] = &[
        b"script",
        b"style",
        b"title",
        b"textarea",
        b"xmp",
        b"iframe",
        b"noembed",
        b"noframes",
        b"plaintext",
        b"svg",
        b"math",
    ];
    let bytes = text.as_bytes();
    let mentioned = memchr::memchr_iter(b'<', bytes).any(|at| {
        let name = &bytes[at + 1..];
        let name = name.strip_prefix(b"/").unwrap_or(name);
        NAMES.iter().any(|n| {
            name.get(..n.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(n))
        })
    });
    if !mentioned {
        return None;
    }
    let opts = TokenizerOpts {
        discard_bom: false,
        ..TokenizerOpts::default()
    };
    let sink = StateSink {
        foreign: Cell::new(foreign),
        ..StateSink::default()
    };
    let tokenizer = Tokenizer::new(sink, opts);
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(text));
    // Not ended: a tag the string leaves open is dropped, as `hast-util-raw` drops it.
    let _ = tokenizer.feed(&queue);
    let sink = tokenizer.sink;
    Some(After {
        raw: sink.raw.into_inner(),
        last_start: sink.last_start.into_inner(),
        foreign: sink.foreign.get(),
    })
}

/// Follows the raw-text states a tokenizer enters and leaves, as the tree builder sets them.
#[derive(Default)]
struct StateSink {
    raw: RefCell<Option<RawText>>,
    last_start: RefCell<Option<String>>,
    foreign: Cell<usize>,
}

impl TokenSink for StateSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let Token::TagToken(tag) = token else {
            return TokenSinkResult::Continue;
        };
        let end = tag.kind == TagKind::EndTag;
        let outside = self.foreign.get() == 0;
        self.foreign.set(foreign_after(
            self.foreign.get(),
            &tag.name,
            end,
            tag.self_closing,
        ));
        if end {
            // Only an end tag that ends the raw text comes out of a raw-text state.
            *self.raw.borrow_mut() = None;
            return TokenSinkResult::Continue;
        }
        *self.last_start.borrow_mut() = Some(tag.name.to_string());
        let kind = raw_text_of(&tag.name).filter(|_| outside || self.foreign.get() == 0);
        let Some(kind) = kind else {
            return TokenSinkResult::Continue;
        };
        *self.raw.borrow_mut() = Some(RawText {
            kind,
            name: tag.name.to_string(),
        });
        match (kind, &*tag.name) {
            (Kind::Plaintext, _) => TokenSinkResult::Plaintext,
            (Kind::Rcdata, _) => TokenSinkResult::RawData(RawKind::Rcdata),
            (_, "script") => TokenSinkResult::RawData(RawKind::ScriptData),
            _ => TokenSinkResult::RawData(RawKind::Rawtext),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(nodes: &[HNode]) -> String {
        let mut writer = Writer::default();
        for node in nodes {
            writer.node(node);
        }
        writer.out
    }

    fn raw(value: &str) -> HNode {
        super::super::html::el(RAW, Vec::new(), vec![HNode::Text(value.into())])
    }

    fn el(name: &str, children: Vec<HNode>) -> HNode {
        super::super::html::el(name, Vec::new(), children)
    }

    fn text(value: &str) -> HNode {
        HNode::Text(value.into())
    }

    #[test]
    fn an_unclosed_raw_text_element_takes_the_text_and_the_next_end_tag() {
        // `a <script>b *c* d`
        let p = el(
            "p",
            vec![
                text("a "),
                raw("<script>"),
                text("b "),
                el("em", vec![text("c")]),
                text(" d <"),
            ],
        );
        assert_eq!(written(&[p]), "<p>a <script>b c</script> d &lt;</p>");
    }

    #[test]
    fn the_tokenizer_stays_in_raw_text_until_the_last_start_tag_ends() {
        // `*a <script>b* c <!-- k --> d`: the comment is text.
        let p = el(
            "p",
            vec![
                el("em", vec![text("a "), raw("<script>"), text("b")]),
                text(" c "),
                raw("<!-- k -->"),
                text(" d"),
            ],
        );
        let next = el("p", vec![raw("<!-- z -->"), raw("</script><b>")]);
        assert_eq!(
            written(&[p, next]),
            "<p><em>a <script>b</script> c &lt;!-- k --&gt; d</p><p>&lt;!-- z --&gt;</script><b></p>"
        );
    }

    #[test]
    fn rcdata_keeps_its_references_and_closed_elements_change_nothing() {
        let p = el(
            "p",
            vec![
                raw("<title>"),
                text("x & <y>"),
                raw("&amp;</title>"),
                text("<z>"),
            ],
        );
        assert_eq!(
            written(&[p]),
            "<p><title>x &amp; &lt;y&gt;&amp;</title>&lt;z&gt;</p>"
        );
        // Out of the element, the tokenizer still reads raw strings as RCDATA.
        let p = el(
            "p",
            vec![
                el("em", vec![raw("<textarea>"), text("x")]),
                raw("&amp; <b></textarea>"),
            ],
        );
        assert_eq!(
            written(&[p]),
            "<p><em><textarea>x</textarea>&amp; &lt;b&gt;</textarea></p>"
        );
        let after = |raw: Option<(Kind, &str)>, last: Option<&str>, foreign| After {
            raw: raw.map(|(kind, name)| RawText {
                kind,
                name: name.into(),
            }),
            last_start: last.map(str::to_owned),
            foreign,
        };
        assert_eq!(
            state_after("<script>x</script><a title='<style>'>", 0),
            Some(after(None, Some("a"), 0))
        );
        assert_eq!(
            state_after("<!-- <script> -->", 0),
            Some(after(None, None, 0))
        );
        assert_eq!(state_after("<b>", 0), None);
        // In SVG, `title` and `style` are elements like others; a breakout tag ends SVG.
        assert_eq!(
            state_after("<svg><title>", 0),
            Some(after(None, Some("title"), 1))
        );
        assert_eq!(
            state_after("<style>", 1),
            Some(after(None, Some("style"), 1))
        );
        assert_eq!(
            state_after("<b><style>", 1),
            Some(after(Some((Kind::Rawtext, "style")), Some("style"), 0))
        );
        assert_eq!(
            state_after("<svg/><textarea>", 0),
            Some(after(Some((Kind::Rcdata, "textarea")), Some("textarea"), 0))
        );
    }

    #[test]
    fn text_cannot_end_the_raw_text_element_it_is_put_in() {
        // `a <script>b &lt;/script> *c* d`: the reference's script holds `b </script> c`.
        let p = el(
            "p",
            vec![
                text("a "),
                raw("<script>"),
                text("b </script> <!--"),
                el("em", vec![text("c")]),
                text(" d"),
            ],
        );
        let HNode::Element(p) = resolve(vec![p]).remove(0) else {
            panic!("an element")
        };
        let HNode::Element(script) = &p.children[1] else {
            panic!("the script: {:?}", p.children)
        };
        assert_eq!(script.children, vec![text("b </script> <!--c")]);
        assert_eq!(p.children[2], text(" d"));
    }
}
