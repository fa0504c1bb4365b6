//! The serializer's state and its containers: the construct stack, position tracking,
//! the context before and after each value, and the flow and phrasing containers that
//! join handler outputs (`container-flow.js`, `container-phrasing.js`). A grid-table cell's
//! wrapping into a paragraph is its own function: a cell rendered again replays it on a
//! fresh copy of the cell (see `grid.rs`).

use super::ImageRefs;
use super::flow::setext;
use super::js_len;
use super::phrasing::autolink;
use super::safe::{self, C, SafeConfig};
use crate::model::{Kind, Node};
use crate::sanitize;

/// A short piece of surrounding text, kept inline: the escaping patterns look only a few
/// characters around a value, so a longer context keeps its last (or first) 32 bytes.
#[derive(Clone, Copy)]
pub(super) struct Around {
    buf: [u8; 32],
    len: u8,
}

impl Around {
    fn tail(s: &str) -> Self {
        let mut start = s.len().saturating_sub(32);
        while !s.is_char_boundary(start) {
            start += 1;
        }
        Self::copy(&s[start..])
    }

    fn copy(s: &str) -> Self {
        let mut buf = [0u8; 32];
        buf[..s.len()].copy_from_slice(s.as_bytes());
        Around {
            buf,
            len: s.len() as u8,
        }
    }
}

impl std::ops::Deref for Around {
    type Target = str;
    fn deref(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len as usize]).expect("built from whole characters")
    }
}

impl From<&str> for Around {
    fn from(s: &str) -> Self {
        Around::tail(s)
    }
}

impl From<String> for Around {
    fn from(s: String) -> Self {
        Around::tail(&s)
    }
}

impl From<&String> for Around {
    fn from(s: &String) -> Self {
        Around::tail(s)
    }
}

/// What a handler knows about where its output goes.
#[derive(Clone)]
pub(crate) struct Info {
    pub(super) before: Around,
    pub(super) after: Around,
    /// Whether the column is tracked: only text wrapped in a grid-table cell reads it.
    pub(super) tracked: bool,
    pub(super) column: usize,
    pub(super) line_shift: usize,
}

impl Info {
    /// The start of a document (`tracked`: inside a grid-table cell, where text wraps).
    pub(super) fn start(tracked: bool) -> Self {
        Info {
            before: "\n".into(),
            after: "\n".into(),
            tracked,
            column: 1,
            line_shift: 0,
        }
    }
}

/// Position tracking (`track.js`), of the column alone: nothing reads the line. Outside
/// grid-table cells nothing reads the column either, and moving is a no-op, so that a long
/// paragraph is not measured again at every level of nesting.
pub(super) struct Tracker {
    tracked: bool,
    column: usize,
    line_shift: usize,
}

impl Tracker {
    pub(super) fn new(info: &Info) -> Self {
        Tracker {
            tracked: info.tracked,
            column: info.column,
            line_shift: info.line_shift,
        }
    }

    pub(super) fn shift(&mut self, n: usize) {
        self.line_shift += n;
    }

    pub(super) fn move_by(&mut self, value: &str) {
        if !self.tracked {
            return;
        }
        match memchr::memrchr2(b'\r', b'\n', value.as_bytes()) {
            Some(last) => self.column = 1 + js_len(&value[last + 1..]) + self.line_shift,
            None => self.column += js_len(value),
        }
    }

    pub(super) fn info(&self, before: impl Into<Around>, after: impl Into<Around>) -> Info {
        Info {
            before: before.into(),
            after: after.into(),
            tracked: self.tracked,
            column: self.column,
            line_shift: self.line_shift,
        }
    }
}

pub(crate) struct State<'r> {
    pub(super) stack: Vec<C>,
    pub(super) index_stack: Vec<isize>,
    pub(super) bullet_current: Option<String>,
    pub(super) bullet_last_used: Option<String>,
    /// Set inside grid-table cells: texts wrap to it.
    pub(crate) line_width: Option<i64>,
    /// The line widths at which the cell being rendered comes out exactly as it did at
    /// `line_width`: every wrapping decision (`length > width`) narrows it. A cell's second
    /// rendering, at its column's final width, is skipped when that width is inside.
    pub(crate) same_widths: std::ops::Range<i64>,
    /// `attentionEncodeSurroundingInfo`: (before, after).
    pub(super) attention: Option<(bool, bool)>,
    pub(super) refs: &'r ImageRefs,
}

pub(super) fn first_char(s: &str) -> String {
    s.chars().next().map(String::from).unwrap_or_default()
}

pub(super) fn char_ref(c: char) -> String {
    format!("&#x{:X};", c as u32)
}

/// The reference encodes UTF-16 units: for a character outside the BMP only its first unit
/// is encoded, and the lone second one comes out as U+FFFD.
pub(super) fn encode_first_unit(c: char) -> String {
    let mut units = [0u16; 2];
    match c.encode_utf16(&mut units) {
        [_] => char_ref(c),
        [high, _] => format!("&#x{high:X};\u{FFFD}"),
        _ => unreachable!("one or two units"),
    }
}

/// The same for the last unit: a lone first unit (U+FFFD), then the encoded second.
pub(super) fn encode_last_unit(c: char) -> String {
    let mut units = [0u16; 2];
    match c.encode_utf16(&mut units) {
        [_] => char_ref(c),
        [_, low] => format!("\u{FFFD}&#x{low:X};"),
        _ => unreachable!("one or two units"),
    }
}

/// The first UTF-16 unit of a string (JavaScript's `charCodeAt(0)`).
pub(super) fn first_unit(s: &str) -> Option<u16> {
    s.encode_utf16().next()
}

impl State<'_> {
    /// Records a decision that holds only at line widths in `widths`.
    pub(super) fn only_at(&mut self, widths: std::ops::Range<i64>) {
        let same = &mut self.same_widths;
        same.start = same.start.max(widths.start);
        same.end = same.end.min(widths.end);
    }

    pub(super) fn enter(&mut self, c: C) {
        self.stack.push(c);
    }

    pub(super) fn exit(&mut self) {
        self.stack.pop();
    }

    pub(super) fn safe(&self, value: &str, before: &str, after: &str) -> String {
        safe::safe(
            &self.stack,
            value,
            &SafeConfig {
                before,
                after,
                encode: &[],
            },
        )
    }

    pub(super) fn handle(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
        match &node.kind {
            Kind::Paragraph => {
                self.enter(C::Paragraph);
                self.enter(C::Phrasing);
                let value = self.container_phrasing(node, info);
                self.exit();
                self.exit();
                value
            }
            Kind::Heading { depth } => self.heading(node, *depth, info),
            Kind::ThematicBreak => "---".into(),
            Kind::Blockquote => self.blockquote(node, info),
            Kind::List { .. } => self.list(node, parent, info),
            Kind::ListItem { .. } => self.list_item(node, parent, info),
            Kind::Code { lang, value } => self.code(lang.as_deref(), value),
            Kind::Html { value } => value.clone(),
            Kind::Block(info_) => self.block(node, info_),
            Kind::Table => self.table(node),
            Kind::BlockRow
            | Kind::BlockCell { .. }
            | Kind::TablePart { .. }
            | Kind::TableRow
            | Kind::TableCell { .. } => {
                // Only reachable through their table; serialise the content.
                self.container_flow(node, info)
            }
            Kind::Text { value } => self.text(value, info),
            Kind::Emphasis => self.attention(node, "*", C::Emphasis, info),
            Kind::Strong => self.attention(node, "**", C::Strong, info),
            Kind::Delete => {
                let mut tracker = Tracker::new(info);
                self.enter(C::Strikethrough);
                tracker.move_by("~~");
                let inner = self.container_phrasing(node, &tracker.info("~~", "~"));
                self.exit();
                format!("~~{inner}~~")
            }
            Kind::Subscript => self.format(node, "sub", info),
            Kind::Superscript => self.format(node, "sup", info),
            Kind::Underline => self.format(node, "u", info),
            Kind::InlineCode { value } => self.inline_code(value),
            Kind::Break => self.hard_break(info),
            Kind::Link { url, title } => self.link(node, url, title.as_deref(), info),
            Kind::Image { url, title, alt } => self.image_reference(url, title, alt, info),
        }
    }

    /// The first character a node will produce (the handlers' `peek`).
    pub(super) fn peek(&mut self, node: &Node, parent: &Node, info: &Info) -> String {
        match &node.kind {
            Kind::Link { url, title } => {
                if autolink(node, url, title.as_deref()) {
                    "<".into()
                } else {
                    "[".into()
                }
            }
            Kind::Image { .. } => "!".into(),
            Kind::InlineCode { .. } => "`".into(),
            Kind::Html { .. } => "<".into(),
            Kind::Emphasis | Kind::Strong => "*".into(),
            Kind::Delete => "~".into(),
            Kind::Text { value } if value.bytes().next().is_some_and(safe::starts_plain) => {
                first_char(value)
            }
            Kind::Text { value } => {
                // Only the start matters: every pattern looks at most one character ahead,
                // and the escaping rule one position further.
                let mut cut = value.char_indices().nth(4).map_or(value.len(), |(i, _)| i);
                let after = value[cut..]
                    .chars()
                    .next()
                    .map(String::from)
                    .unwrap_or_default();
                if cut == value.len() {
                    cut = value.len();
                }
                first_char(&self.safe(&value[..cut], "", &after))
            }
            _ => first_char(&self.handle(node, Some(parent), info)),
        }
    }

    pub(super) fn container_phrasing(&mut self, parent: &Node, info: &Info) -> String {
        let children = &parent.children;
        // The children's outputs, concatenated; `last_start` is where the latest begins.
        // Sized for a paragraph or so, so that a usual one is not copied as it grows.
        let mut out = String::with_capacity(256);
        let mut last_start: Option<usize> = None;
        let mut before: Around = info.before;
        let mut encode_after: Option<Around> = None;
        self.index_stack.push(-1);
        let mut tracker = Tracker::new(info);
        for (index, child) in children.iter().enumerate() {
            *self.index_stack.last_mut().expect("pushed") = index as isize;
            let after: Around = match children.get(index + 1) {
                Some(next) => {
                    let peek_info = tracker.info("", "");
                    Around::copy(&self.peek(next, parent, &peek_info))
                }
                None => info.after,
            };
            if last_start.is_some_and(|start| start < out.len())
                && (&*before == "\r" || &*before == "\n")
                && matches!(child.kind, Kind::Html { .. })
            {
                if out.ends_with("\r\n") {
                    out.truncate(out.len() - 2);
                    out.push(' ');
                } else if out.ends_with('\n') || out.ends_with('\r') {
                    out.pop();
                    out.push(' ');
                }
                before = " ".into();
                tracker = Tracker::new(info);
                tracker.move_by(&out);
            }
            let child_info = tracker.info(before, after);
            let mut value = self.handle(child, Some(parent), &child_info);
            if let Some(enc) = &encode_after
                && !enc.is_empty()
                && first_unit(enc) == first_unit(&value)
            {
                let c = value.chars().next().expect("non-empty");
                value = format!("{}{}", encode_first_unit(c), &value[c.len_utf8()..]);
            }
            let encoding = self.attention.take();
            encode_after = None;
            if let Some((enc_before, enc_after)) = encoding {
                if enc_before
                    && let Some(start) = last_start
                    && out[start..].ends_with(&*before)
                {
                    match before.chars().next() {
                        Some(c) => {
                            out.truncate(out.len() - c.len_utf8());
                            out.push_str(&encode_last_unit(c));
                        }
                        // An empty previous output: JavaScript encodes `charCodeAt(0)` of
                        // an empty string, NaN.
                        None if start == out.len() => out.push_str("&#xNAN;"),
                        None => {}
                    }
                }
                if enc_after {
                    encode_after = Some(after);
                }
            }
            tracker.move_by(&value);
            before = Around::copy(value.chars().next_back().map_or("", |c| {
                let end = value.len();
                &value[end - c.len_utf8()..]
            }));
            last_start = Some(out.len());
            out.push_str(&value);
        }
        self.index_stack.pop();
        out
    }

    /// The root: flow children joined by blank lines (it has no `spread`).
    pub(super) fn root_flow(&mut self, children: &[&Node]) -> String {
        // The root as the parent the handlers see (it has no `spread`).
        let root = Node::new(Kind::Blockquote);
        let info = Info::start(false);
        // The children's outputs joined once at the end: a page's markdown is not copied
        // again each time its buffer grows.
        let mut values = Vec::with_capacity(children.len());
        self.index_stack.push(-1);
        for (index, child) in children.iter().enumerate() {
            *self.index_stack.last_mut().expect("pushed") = index as isize;
            values.push(self.handle(child, Some(&root), &info));
            if !matches!(child.kind, Kind::List { .. }) {
                self.bullet_last_used = None;
            }
        }
        self.index_stack.pop();
        values.join("\n\n")
    }

    pub(super) fn container_flow(&mut self, parent: &Node, info: &Info) -> String {
        let children = &parent.children;
        let mut tracker = Tracker::new(info);
        let mut out = String::with_capacity(256);
        self.index_stack.push(-1);
        for (index, child) in children.iter().enumerate() {
            *self.index_stack.last_mut().expect("pushed") = index as isize;
            let value = self.handle(child, Some(parent), &tracker.info("\n", "\n"));
            tracker.move_by(&value);
            out.push_str(&value);
            if !matches!(child.kind, Kind::List { .. }) {
                self.bullet_last_used = None;
            }
            if let Some(next) = children.get(index + 1) {
                let between = between(child, next, parent);
                tracker.move_by(between);
                out.push_str(between);
            }
        }
        self.index_stack.pop();
        out
    }

    /// Renders one grid-table cell (`renderCell`): breaks cleaned up (unless `clean` is
    /// false: the caller did it), phrasing wrapped in a paragraph, then the content as flow.
    pub(super) fn render_cell_content(&mut self, tree: &mut Vec<Node>, clean: bool) -> String {
        self.enter(C::GtCell);
        self.enter(C::Phrasing);
        if clean {
            sanitize::sanitize_breaks(tree);
        }
        wrap_phrasing(tree);
        let root = Node::with(Kind::Blockquote, std::mem::take(tree));
        let value = self.container_flow(&root, &Info::start(true));
        *tree = root.children;
        self.bullet_last_used = None;
        self.exit();
        self.exit();
        value
    }
}

/// A cell's content that is all phrasing (or nothing) becomes one paragraph.
pub(super) fn wrap_phrasing(tree: &mut Vec<Node>) {
    if tree.iter().all(|n| n.is_phrasing()) {
        let children = std::mem::take(tree);
        tree.push(Node::with(Kind::Paragraph, children));
    }
}

/// `len > width`, narrowing `same` to the widths that decide it the same way.
pub(super) fn narrow_exceeds(same: &mut std::ops::Range<i64>, len: i64, width: i64) -> bool {
    let exceeds = len > width;
    if exceeds {
        same.end = same.end.min(len);
    } else {
        same.start = same.start.max(len);
    }
    exceeds
}

/// `joinDefaults`: blank lines between flow children.
pub(super) fn between(left: &Node, right: &Node, parent: &Node) -> &'static str {
    let spread = match parent.kind {
        Kind::List { spread, .. } | Kind::ListItem { spread, .. } => Some(spread),
        _ => None,
    };
    if let Some(spread) = spread {
        let joined_paragraphs = matches!(left.kind, Kind::Paragraph)
            && (matches!(right.kind, Kind::Paragraph)
                || matches!(right.kind, Kind::Heading { depth } if setext(right, depth)));
        if joined_paragraphs {
            return "\n\n";
        }
        return if spread { "\n\n" } else { "\n" };
    }
    "\n\n"
}
