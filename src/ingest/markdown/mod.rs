//! Markdown serialisation of a [`Document`], byte for byte as the reference converter writes
//! it: `mdast-util-to-markdown` (with `*` for emphasis and strong, `-` bullets, fenced code,
//! `---` rules) plus GFM, grid tables and the `sub`/`sup`/`u` formats, after images become
//! references (`![alt][imageN]` with the definitions at the end).
//!
//! The handlers below follow their JavaScript originals closely (positions are tracked in
//! UTF-16 code units, as JavaScript counts them), because the escaping and the table layout
//! depend on every detail.

mod grid;
pub(crate) mod safe;

use std::collections::HashMap;

use grid::{CellSpec, Table};
use safe::{C, SafeConfig, safe};

use super::model::{BlockInfo, Document, Kind, MetaValue, Node, TablePart};
use super::sanitize;

/// Length in UTF-16 code units (JavaScript's `length`).
pub(crate) fn js_len(s: &str) -> usize {
    // One unit per character (every byte that is not a continuation byte), two for the
    // four-byte sequences; branch-free so that it vectorises.
    s.bytes()
        .map(|b| usize::from((b & 0xC0) != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// micromark's `unicodePunctuation`: Unicode punctuation or symbol (`\p{P}|\p{S}`).
pub(crate) fn unicode_punctuation(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    static PUNCTUATION: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{P}\p{S}]$").expect("valid regex"));
    let mut buf = [0u8; 4];
    PUNCTUATION.is_match(c.encode_utf8(&mut buf))
}

/// JavaScript's `/\s/`.
fn unicode_whitespace(c: char) -> bool {
    sanitize::js_space(c)
}

/// Serialises `doc` to markdown. A page without `main` gives the empty string.
pub fn to_markdown(doc: &Document) -> String {
    if !doc.has_main {
        return String::new();
    }
    let metadata = metadata_block(doc);
    let rule = Node::new(Kind::ThematicBreak);
    let mut root: Vec<&Node> = Vec::new();
    for (i, section) in doc.sections.iter().enumerate() {
        if i > 0 {
            root.push(&rule);
        }
        root.extend(section.children.iter());
    }
    root.extend(metadata.iter());
    let refs = ImageRefs::collect(&root);
    let mut state = State {
        stack: Vec::new(),
        index_stack: Vec::new(),
        bullet_current: None,
        bullet_last_used: None,
        line_width: None,
        wrapped: false,
        attention: None,
        refs: &refs,
    };
    let mut out = state.root_flow(&root);
    for (index, (url, title)) in refs.order.iter().enumerate() {
        out.push_str("\n\n");
        out.push_str(&state.definition(index, url, title.as_deref()));
    }
    if !out.is_empty() && !out.ends_with('\n') && !out.ends_with('\r') {
        out.push('\n');
    }
    out
}

/// The children of the markdown root: the sections separated by thematic breaks, then the
/// head metadata as a `Metadata` block.
pub(crate) fn document_root(doc: &Document) -> Vec<Node> {
    let mut root: Vec<Node> = Vec::new();
    if !doc.has_main {
        return root;
    }
    for (i, section) in doc.sections.iter().enumerate() {
        if i > 0 {
            root.push(Node::new(Kind::ThematicBreak));
        }
        root.extend(section.children.iter().cloned());
    }
    if let Some(table) = metadata_block(doc) {
        root.push(table);
    }
    root
}

/// The head metadata as the `Metadata` block the reference appends.
pub(crate) fn metadata_block(doc: &Document) -> Option<Node> {
    if doc.head_metadata.is_empty() {
        return None;
    }
    let rows = doc
        .head_metadata
        .iter()
        .map(|entry| {
            let value = match &entry.value {
                MetaValue::Text(text) => Node::text(text.clone()),
                // A head image has no title at all (not an empty one): see `ImageRefs`.
                MetaValue::Image(url) => Node::new(Kind::Image {
                    url: url.clone(),
                    title: Some(String::new()),
                    alt: String::new(),
                }),
            };
            let cell = |child| {
                Node::with(
                    Kind::BlockCell {
                        align: None,
                        valign: None,
                    },
                    vec![child],
                )
            };
            Node::with(
                Kind::BlockRow,
                vec![cell(Node::text(entry.name.clone())), cell(value)],
            )
        })
        .collect();
    let mut block = vec![Node::with(
        Kind::Block(BlockInfo {
            classes: vec!["metadata".into()],
        }),
        rows,
    )];
    sanitize::sanitize_text_and_formats(&mut block);
    block.pop()
}

/// Images become references: one identifier per distinct URL and title, in document order.
struct ImageRefs {
    ids: HashMap<(String, String), usize>,
    order: Vec<(String, Option<String>)>,
}

impl ImageRefs {
    fn collect(root: &[&Node]) -> Self {
        let mut refs = ImageRefs {
            ids: HashMap::new(),
            order: Vec::new(),
        };
        for node in root {
            node.walk(&mut |n| {
                if let Kind::Image { url, title, .. } = &n.kind {
                    let key = (url.clone(), title_key(title));
                    if !refs.ids.contains_key(&key) {
                        refs.ids.insert(key, refs.order.len());
                        refs.order.push((url.clone(), title.clone()));
                    }
                }
            });
        }
        refs
    }

    fn id(&self, url: &str, title: &Option<String>) -> usize {
        self.ids
            .get(&(url.to_owned(), title_key(title)))
            .copied()
            .unwrap_or(0)
    }
}

/// The reference keys images by `${url}\n${title}`, where a missing body title is `null`.
fn title_key(title: &Option<String>) -> String {
    title.clone().unwrap_or_else(|| "null".into())
}

/// `s.replace(/[\r\n ]+/gm, ' ')`.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = false;
    for c in s.chars() {
        if matches!(c, '\r' | '\n' | ' ') {
            if !run {
                out.push(' ');
            }
            run = true;
        } else {
            out.push(c);
            run = false;
        }
    }
    out
}

/// A short piece of surrounding text, kept inline: the escaping patterns look only a few
/// characters around a value, so a longer context keeps its last (or first) 32 bytes.
#[derive(Clone, Copy)]
struct Around {
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
    before: Around,
    after: Around,
    line: usize,
    column: usize,
    line_shift: usize,
}

impl Info {
    fn start() -> Self {
        Info {
            before: "\n".into(),
            after: "\n".into(),
            line: 1,
            column: 1,
            line_shift: 0,
        }
    }
}

/// Position tracking (`track.js`).
struct Tracker {
    line: usize,
    column: usize,
    line_shift: usize,
}

impl Tracker {
    fn new(info: &Info) -> Self {
        Tracker {
            line: info.line,
            column: info.column,
            line_shift: info.line_shift,
        }
    }

    fn shift(&mut self, n: usize) {
        self.line_shift += n;
    }

    fn move_by(&mut self, value: &str) {
        let bytes = value.as_bytes();
        let Some(last) = memchr::memrchr2(b'\r', b'\n', bytes) else {
            self.column += js_len(value);
            return;
        };
        // Line endings: `\r\n`, `\r` or `\n`, each counted once.
        let lines = memchr::memchr2_iter(b'\r', b'\n', bytes)
            .filter(|&i| !(bytes[i] == b'\n' && i > 0 && bytes[i - 1] == b'\r'))
            .count();
        self.line += lines;
        self.column = 1 + js_len(&value[last + 1..]) + self.line_shift;
    }

    fn info(&self, before: impl Into<Around>, after: impl Into<Around>) -> Info {
        Info {
            before: before.into(),
            after: after.into(),
            line: self.line,
            column: self.column,
            line_shift: self.line_shift,
        }
    }
}

pub(crate) struct State<'r> {
    stack: Vec<C>,
    index_stack: Vec<isize>,
    bullet_current: Option<String>,
    bullet_last_used: Option<String>,
    /// Set inside grid-table cells: texts wrap to it.
    pub(crate) line_width: Option<i64>,
    /// Set when a text or code block was long enough to wrap at `line_width`: a cell
    /// rendered without it renders the same at any width at least as wide as its lines.
    pub(crate) wrapped: bool,
    /// `attentionEncodeSurroundingInfo`: (before, after).
    attention: Option<(bool, bool)>,
    refs: &'r ImageRefs,
}

fn first_char(s: &str) -> String {
    s.chars().next().map(String::from).unwrap_or_default()
}

fn char_ref(c: char) -> String {
    format!("&#x{:X};", c as u32)
}

/// The reference encodes UTF-16 units: for a character outside the BMP only its first unit
/// is encoded, and the lone second one comes out as U+FFFD.
fn encode_first_unit(c: char) -> String {
    let mut units = [0u16; 2];
    match c.encode_utf16(&mut units) {
        [_] => char_ref(c),
        [high, _] => format!("&#x{high:X};\u{FFFD}"),
        _ => unreachable!("one or two units"),
    }
}

/// The same for the last unit: a lone first unit (U+FFFD), then the encoded second.
fn encode_last_unit(c: char) -> String {
    let mut units = [0u16; 2];
    match c.encode_utf16(&mut units) {
        [_] => char_ref(c),
        [_, low] => format!("\u{FFFD}&#x{low:X};"),
        _ => unreachable!("one or two units"),
    }
}

/// The first UTF-16 unit of a string (JavaScript's `charCodeAt(0)`).
fn first_unit(s: &str) -> Option<u16> {
    s.encode_utf16().next()
}

impl State<'_> {
    fn enter(&mut self, c: C) {
        self.stack.push(c);
    }

    fn exit(&mut self) {
        self.stack.pop();
    }

    fn safe(&self, value: &str, before: &str, after: &str) -> String {
        safe(
            &self.stack,
            value,
            &SafeConfig {
                before,
                after,
                encode: &[],
            },
        )
    }

    fn handle(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
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
    fn peek(&mut self, node: &Node, parent: &Node, info: &Info) -> String {
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

    fn container_phrasing(&mut self, parent: &Node, info: &Info) -> String {
        let children = &parent.children;
        // The children's outputs, concatenated; `last_start` is where the latest begins.
        let mut out = String::new();
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
    fn root_flow(&mut self, children: &[&Node]) -> String {
        // The root as the parent the handlers see (it has no `spread`).
        let root = Node::new(Kind::Blockquote);
        let mut tracker = Tracker::new(&Info::start());
        let mut out = String::new();
        self.index_stack.push(-1);
        for (index, child) in children.iter().enumerate() {
            *self.index_stack.last_mut().expect("pushed") = index as isize;
            let value = self.handle(child, Some(&root), &tracker.info("\n", "\n"));
            tracker.move_by(&value);
            out.push_str(&value);
            if !matches!(child.kind, Kind::List { .. }) {
                self.bullet_last_used = None;
            }
            if index + 1 < children.len() {
                tracker.move_by("\n\n");
                out.push_str("\n\n");
            }
        }
        self.index_stack.pop();
        out
    }

    fn container_flow(&mut self, parent: &Node, info: &Info) -> String {
        let children = &parent.children;
        let mut tracker = Tracker::new(info);
        let mut out = String::new();
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

    fn heading(&mut self, node: &Node, depth: u8, info: &Info) -> String {
        let rank = depth.clamp(1, 6) as usize;
        let mut tracker = Tracker::new(info);
        if setext(node, depth) {
            self.enter(C::HeadingSetext);
            self.enter(C::Phrasing);
            let value = self.container_phrasing(node, &tracker.info("\n", "\n"));
            self.exit();
            self.exit();
            let tail = value.rfind(['\r', '\n']).map_or(0, |i| i + 1);
            let underline = if rank == 1 { "=" } else { "-" }.repeat(js_len(&value[tail..]));
            return format!("{value}\n{underline}");
        }
        let sequence = "#".repeat(rank);
        self.enter(C::HeadingAtx);
        self.enter(C::Phrasing);
        tracker.move_by(&format!("{sequence} "));
        let mut value = self.container_phrasing(node, &tracker.info("# ", "\n"));
        if let Some(first) = value.chars().next()
            && (first == '\t' || first == ' ')
        {
            value = format!("{}{}", char_ref(first), &value[1..]);
        }
        self.exit();
        self.exit();
        if value.is_empty() {
            sequence
        } else {
            format!("{sequence} {value}")
        }
    }

    fn blockquote(&mut self, node: &Node, info: &Info) -> String {
        self.enter(C::Blockquote);
        let mut tracker = Tracker::new(info);
        tracker.move_by("> ");
        tracker.shift(2);
        let inner = self.container_flow(node, &tracker.info("", ""));
        self.exit();
        indent_lines(&inner, |line, _, blank| {
            if blank {
                ">".into()
            } else {
                format!("> {line}")
            }
        })
    }

    fn list(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
        let Kind::List { ordered, .. } = node.kind else {
            unreachable!()
        };
        self.enter(C::List);
        let saved = self.bullet_current.take();
        let mut bullet = if ordered { "." } else { "-" };
        let other = if ordered { ")" } else { "*" };
        let mut different = parent.is_some()
            && self
                .bullet_last_used
                .as_deref()
                .is_some_and(|b| b == bullet);
        if !ordered {
            let first_empty = node
                .children
                .first()
                .is_some_and(|item| item.children.is_empty());
            let n = self.stack.len();
            let m = self.index_stack.len();
            if first_empty
                && n >= 4
                && self.stack[n - 1] == C::List
                && self.stack[n - 2] == C::ListItem
                && self.stack[n - 3] == C::List
                && self.stack[n - 4] == C::ListItem
                && m >= 3
                && self.index_stack[m - 1] == 0
                && self.index_stack[m - 2] == 0
                && self.index_stack[m - 3] == 0
            {
                different = true;
            }
            if !node.children.is_empty()
                && node.children.iter().any(|item| {
                    item.children
                        .first()
                        .is_some_and(|c| c.kind == Kind::ThematicBreak)
                })
            {
                different = true;
            }
        }
        if different {
            bullet = other;
        }
        self.bullet_current = Some(bullet.into());
        let value = self.container_flow(node, info);
        self.bullet_last_used = Some(bullet.into());
        self.bullet_current = saved;
        self.exit();
        value
    }

    fn list_item(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
        let mut bullet = self.bullet_current.clone().unwrap_or_else(|| "-".into());
        if let Some(Node {
            kind:
                Kind::List {
                    ordered: true,
                    start,
                    ..
                },
            children,
        }) = parent
        {
            let start = start.filter(|s| *s > -1).unwrap_or(1);
            let index = children
                .iter()
                .position(|c| std::ptr::eq(c, node))
                .unwrap_or(0) as i64;
            bullet = format!("{}{bullet}", start + index);
        }
        let size = js_len(&bullet) + 1;
        let mut tracker = Tracker::new(info);
        tracker.move_by(&format!("{bullet}{}", " ".repeat(size - js_len(&bullet))));
        tracker.shift(size);
        self.enter(C::ListItem);
        let inner = self.container_flow(node, &tracker.info("", ""));
        self.exit();
        // GFM task list items: the check box follows the bullet.
        let checkbox = match node.kind {
            Kind::ListItem {
                checked: Some(checked),
                ..
            } if node
                .children
                .first()
                .is_some_and(|c| c.kind == Kind::Paragraph) =>
            {
                Some(if checked { "[x] " } else { "[ ] " })
            }
            _ => None,
        };
        let pad = " ".repeat(size);
        let value = indent_lines(&inner, |line, index, blank| {
            if index > 0 {
                if blank {
                    String::new()
                } else {
                    format!("{pad}{line}")
                }
            } else if blank {
                bullet.clone()
            } else {
                format!("{bullet} {line}")
            }
        });
        match checkbox {
            Some(check) => insert_checkbox(&value, check),
            None => value,
        }
    }

    fn code(&mut self, lang: Option<&str>, raw: &str) -> String {
        let streak = longest_streak(raw, '`');
        let sequence = "`".repeat((streak + 1).max(3));
        self.enter(C::CodeFenced);
        let mut value = sequence.clone();
        if let Some(lang) = lang {
            self.enter(C::CodeFencedLangGraveAccent);
            let before = value.clone();
            value.push_str(&safe(
                &self.stack,
                lang,
                &SafeConfig {
                    before: &before,
                    after: " ",
                    encode: b"`",
                },
            ));
            self.exit();
        }
        value.push('\n');
        if !raw.is_empty() {
            value.push_str(raw);
            value.push('\n');
        }
        value.push_str(&sequence);
        self.exit();
        if self.stack.contains(&C::GtCell) {
            value = escape_table_chars(&value);
            let width = self.line_width.unwrap_or(0).clamp(150, 256) as usize;
            if js_len(&value) > width {
                self.wrapped = true;
                value = hard_wrap(&value, width);
            }
        }
        value
    }

    fn inline_code(&mut self, raw: &str) -> String {
        let mut sequence = String::from("`");
        while has_exact_run(raw, sequence.len()) {
            sequence.push('`');
        }
        let mut value = raw.to_owned();
        let edge = |c: Option<char>| matches!(c, Some(' ' | '\r' | '\n'));
        if value.chars().any(|c| !matches!(c, ' ' | '\r' | '\n'))
            && ((edge(value.chars().next()) && edge(value.chars().next_back()))
                || value.starts_with('`')
                || value.ends_with('`'))
        {
            value = format!(" {value} ");
        }
        // A line ending that would start a construct becomes a space.
        safe::inline_code_line_endings(&mut value);
        let mut out = format!("{sequence}{value}{sequence}");
        if self.stack.contains(&C::GtCell) {
            out = escape_table_chars(&out);
        }
        out
    }

    fn hard_break(&self, info: &Info) -> String {
        let line_ending_unsafe = self.stack.iter().any(|c| {
            matches!(
                c,
                C::CodeFencedLangGraveAccent | C::DestinationLiteral | C::HeadingAtx
            )
        });
        if line_ending_unsafe {
            if info.before.contains([' ', '\t']) {
                String::new()
            } else {
                " ".into()
            }
        } else {
            "\\\n".into()
        }
    }

    fn text(&mut self, value: &str, info: &Info) -> String {
        let spacing = |b: &u8| matches!(b, b'\t' | b'\x0b' | b'\r' | b'\n');
        let out = if value.as_bytes().iter().any(spacing) {
            // ASCII for ASCII: the bytes stay valid UTF-8.
            let mut bytes = value.as_bytes().to_vec();
            for b in bytes.iter_mut().filter(|b| spacing(b)) {
                *b = b' ';
            }
            let spaced = String::from_utf8(bytes).expect("ASCII replaced by ASCII");
            self.safe(&spaced, &info.before, &info.after)
        } else {
            self.safe(value, &info.before, &info.after)
        };
        match self.line_width {
            Some(width)
                if width != 0
                    && js_len(&out) as i64 > width
                    && !self.stack.contains(&C::HeadingAtx) =>
            {
                self.wrapped = true;
                wrap_words(&out, width, info.column as i64 - 1)
            }
            _ => out,
        }
    }

    fn attention(&mut self, node: &Node, marker: &str, construct: C, info: &Info) -> String {
        self.enter(construct);
        let mut tracker = Tracker::new(info);
        tracker.move_by(marker);
        let mut between = self.container_phrasing(node, &tracker.info(marker, "*"));
        let head = between.chars().next();
        let open = encode_info(info.before.chars().next_back(), head);
        if open.0
            && let Some(h) = head
        {
            between = format!("{}{}", encode_first_unit(h), &between[h.len_utf8()..]);
        }
        let tail = between.chars().next_back();
        let close = encode_info(info.after.chars().next(), tail);
        if close.0
            && let Some(t) = tail
        {
            between.truncate(between.len() - t.len_utf8());
            between.push_str(&encode_last_unit(t));
        }
        self.exit();
        self.attention = Some((open.1, close.1));
        format!("{marker}{between}{marker}")
    }

    fn format(&mut self, node: &Node, tag: &str, info: &Info) -> String {
        self.enter(C::Html);
        let open = format!("<{tag}>");
        let mut tracker = Tracker::new(info);
        tracker.move_by(&open);
        let inner = self.container_phrasing(node, &tracker.info(open.clone(), open.clone()));
        self.exit();
        format!("{open}{inner}</{tag}>")
    }

    fn link(&mut self, node: &Node, url: &str, title: Option<&str>, info: &Info) -> String {
        let mut tracker = Tracker::new(info);
        if autolink(node, url, title) {
            let stack = std::mem::take(&mut self.stack);
            self.enter(C::Autolink);
            tracker.move_by("<");
            let inner = self.container_phrasing(node, &tracker.info("<", ">"));
            self.stack = stack;
            return format!("<{inner}>");
        }
        self.enter(C::Link);
        self.enter(C::Label);
        tracker.move_by("[");
        let mut value = String::from("[");
        let label = self.container_phrasing(node, &tracker.info("[", "]("));
        tracker.move_by(&label);
        value.push_str(&label);
        value.push_str("](");
        tracker.move_by("](");
        self.exit();
        self.destination_and_title(&mut value, url, title, ")");
        value.push(')');
        self.exit();
        value
    }

    fn destination_and_title(
        &mut self,
        value: &mut String,
        url: &str,
        title: Option<&str>,
        end: &str,
    ) {
        if (url.is_empty() && title.is_some()) || url.chars().any(|c| c <= ' ' || c == '\u{7f}') {
            self.enter(C::DestinationLiteral);
            value.push('<');
            let before = value.clone();
            value.push_str(&self.safe(url, &before, ">"));
            value.push('>');
        } else {
            self.enter(C::DestinationRaw);
            let before = value.clone();
            let after = if title.is_some() { " " } else { end };
            value.push_str(&self.safe(url, &before, after));
        }
        self.exit();
        if let Some(title) = title {
            self.enter(C::TitleQuote);
            value.push_str(" \"");
            let before = value.clone();
            value.push_str(&self.safe(title, &before, "\""));
            value.push('"');
            self.exit();
        }
    }

    fn image_reference(
        &mut self,
        url: &str,
        title: &Option<String>,
        alt: &str,
        _info: &Info,
    ) -> String {
        let alt = collapse_spaces(alt).trim().to_owned();
        self.enter(C::ImageReference);
        self.enter(C::Label);
        let alt = self.safe(&alt, "![", "]");
        self.exit();
        let stack = std::mem::take(&mut self.stack);
        self.enter(C::Reference);
        let id = format!("image{}", self.refs.id(url, title));
        let before = format!("![{alt}][");
        let reference = self.safe(&id, &before, "]");
        self.stack = stack;
        self.exit();
        format!("![{alt}][{reference}]")
    }

    /// `[imageN]: url "title"`, the definitions after the content.
    fn definition(&mut self, index: usize, url: &str, title: Option<&str>) -> String {
        let title = title
            .filter(|t| !t.is_empty())
            .map(|t| collapse_spaces(t).trim().to_owned());
        let title = title.as_deref();
        self.enter(C::Definition);
        self.enter(C::Label);
        let label = self.safe(&format!("image{index}"), "[", "]");
        let mut value = format!("[{label}]: ");
        self.exit();
        if url.is_empty() || url.chars().any(|c| c <= ' ' || c == '\u{7f}') {
            self.enter(C::DestinationLiteral);
            value.push('<');
            let before = value.clone();
            value.push_str(&self.safe(url, &before, ">"));
            value.push('>');
        } else {
            self.enter(C::DestinationRaw);
            let before = value.clone();
            value.push_str(&self.safe(url, &before, if title.is_some() { " " } else { "\n" }));
        }
        self.exit();
        if let Some(title) = title {
            self.enter(C::TitleQuote);
            value.push_str(" \"");
            let before = value.clone();
            value.push_str(&self.safe(title, &before, "\""));
            value.push('"');
            self.exit();
        }
        self.exit();
        value
    }

    fn block(&mut self, node: &Node, info: &BlockInfo) -> String {
        let num_cols = node
            .children
            .iter()
            .map(|row| row.children.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut table = Table::default();
        table.add_body_row(vec![CellSpec {
            children: vec![Node::text(info.display_name())],
            col_span: num_cols,
            row_span: 1,
            align: None,
            valign: None,
        }]);
        for row in &node.children {
            let count = row.children.len();
            let cells = row
                .children
                .iter()
                .enumerate()
                .map(|(idx, cell)| {
                    let (align, valign) = match &cell.kind {
                        Kind::BlockCell { align, valign } => (align.clone(), valign.clone()),
                        _ => (None, None),
                    };
                    CellSpec {
                        children: cell.children.clone(),
                        col_span: if idx == count - 1 && count < num_cols {
                            num_cols - idx
                        } else {
                            1
                        },
                        row_span: 1,
                        align,
                        valign,
                    }
                })
                .collect();
            table.add_body_row(cells);
        }
        table.into_markdown(self)
    }

    fn table(&mut self, node: &Node) -> String {
        let mut table = Table::default();
        for part in &node.children {
            let Kind::TablePart { part: which } = part.kind else {
                continue;
            };
            for row in &part.children {
                let cells = row
                    .children
                    .iter()
                    .map(|cell| {
                        let (col_span, row_span) = match cell.kind {
                            Kind::TableCell { col_span, row_span } => {
                                (col_span as usize, row_span as usize)
                            }
                            _ => (1, 1),
                        };
                        CellSpec {
                            children: cell.children.clone(),
                            col_span: col_span.max(1),
                            row_span: row_span.max(1),
                            align: None,
                            valign: None,
                        }
                    })
                    .collect();
                match which {
                    TablePart::Head => table.add_header_row(cells),
                    TablePart::Body => table.add_body_row(cells),
                    TablePart::Foot => table.add_footer_row(cells),
                }
            }
        }
        table.into_markdown(self)
    }

    /// Renders one grid-table cell (`renderCell`): breaks cleaned up (unless `clean` is
    /// false: the caller did it), phrasing wrapped in a paragraph, then the content as flow.
    pub(crate) fn render_cell_content(&mut self, tree: &mut Vec<Node>, clean: bool) -> String {
        self.enter(C::GtCell);
        self.enter(C::Phrasing);
        if clean {
            sanitize::sanitize_breaks(tree);
        }
        if tree.iter().all(|n| n.is_phrasing()) {
            let children = std::mem::take(tree);
            tree.push(Node::with(Kind::Paragraph, children));
        }
        let root = Node::with(Kind::Blockquote, std::mem::take(tree));
        let value = self.container_flow(&root, &Info::start());
        *tree = root.children;
        self.bullet_last_used = None;
        self.exit();
        self.exit();
        value
    }
}

/// `joinDefaults`: blank lines between flow children.
fn between(left: &Node, right: &Node, parent: &Node) -> &'static str {
    let spread = match parent.kind {
        Kind::List { spread, .. } | Kind::ListItem { spread, .. } => Some(spread),
        _ => None,
    };
    if let Some(spread) = spread {
        let joined_paragraphs = left.kind == Kind::Paragraph
            && (right.kind == Kind::Paragraph
                || matches!(right.kind, Kind::Heading { depth } if setext(right, depth)));
        if joined_paragraphs {
            return "\n\n";
        }
        return if spread { "\n\n" } else { "\n" };
    }
    "\n\n"
}

fn setext(node: &Node, depth: u8) -> bool {
    let mut literal_with_break = false;
    node.walk(&mut |n| match &n.kind {
        Kind::Break => literal_with_break = true,
        Kind::Text { value } | Kind::InlineCode { value } | Kind::Html { value }
            if value.contains(['\r', '\n']) =>
        {
            literal_with_break = true
        }
        _ => {}
    });
    depth < 3 && !node.to_plain_text().is_empty() && literal_with_break
}

fn autolink(node: &Node, url: &str, title: Option<&str>) -> bool {
    if url.is_empty() || title.is_some() || node.children.len() != 1 {
        return false;
    }
    let Kind::Text { value: raw } = &node.children[0].kind else {
        return false;
    };
    let scheme_ok = {
        let bytes = url.as_bytes();
        bytes.first().is_some_and(u8::is_ascii_alphabetic)
            && match url.find(':') {
                Some(colon) => {
                    colon >= 2
                        && bytes[1..colon]
                            .iter()
                            .all(|b| b.is_ascii_alphabetic() || matches!(b, b'+' | b'.' | b'-'))
                }
                None => false,
            }
    };
    (raw == url || url.strip_prefix("mailto:") == Some(raw.as_str()))
        && scheme_ok
        && !url
            .chars()
            .any(|c| c <= ' ' || c == '<' || c == '>' || c == '\u{7f}')
}

/// micromark's `classifyCharacter` then `encodeInfo` for `*`: (inside, outside).
fn encode_info(outside: Option<char>, inside: Option<char>) -> (bool, bool) {
    let kind = |c: Option<char>| match c {
        // Outside the BMP JavaScript sees a surrogate: neither space nor punctuation.
        None => 0,
        Some(c) if c as u32 > 0xFFFF => 0,
        Some(c) if unicode_whitespace(c) => 1,
        Some(c) if unicode_punctuation(c) => 2,
        Some(_) => 0,
    };
    let (o, i) = (kind(outside), kind(inside));
    match (o, i) {
        (0, 0) => (false, false),
        (0, 1) => (true, true),
        (0, _) => (false, true),
        (1, 1) => (true, true),
        (1, _) => (false, false),
        (_, 1) => (true, false),
        _ => (false, false),
    }
}

fn indent_lines(value: &str, map: impl Fn(&str, usize, bool) -> String) -> String {
    let mut out = String::with_capacity(value.len() + 16);
    let mut line = 0;
    let mut start = 0;
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let eol = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
            b'\r' | b'\n' => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        let text = &value[start..i];
        out.push_str(&map(text, line, text.is_empty()));
        out.push_str(&value[i..i + eol]);
        i += eol;
        start = i;
        line += 1;
    }
    let text = &value[start..];
    out.push_str(&map(text, line, text.is_empty()));
    out
}

/// `value.replace(/^(?:[*+-]|\d+\.)([\r\n]| {1,3})/, '$&' + check)`.
fn insert_checkbox(value: &str, check: &str) -> String {
    let bytes = value.as_bytes();
    let marker_end = match bytes.first() {
        Some(b'*' | b'+' | b'-') => 1,
        Some(b) if b.is_ascii_digit() => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if bytes.get(digits) != Some(&b'.') {
                return value.to_owned();
            }
            digits + 1
        }
        _ => return value.to_owned(),
    };
    let rest = &bytes[marker_end..];
    let gap = match rest.first() {
        Some(b'\r' | b'\n') => 1,
        Some(b' ') => rest.iter().take(3).take_while(|b| **b == b' ').count(),
        _ => return value.to_owned(),
    };
    let at = marker_end + gap;
    format!("{}{check}{}", &value[..at], &value[at..])
}

fn longest_streak(value: &str, c: char) -> usize {
    let mut best = 0;
    let mut run = 0;
    for ch in value.chars() {
        if ch == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Whether `value` has a run of exactly `n` backticks.
fn has_exact_run(value: &str, n: usize) -> bool {
    let mut run = 0;
    for ch in value.chars().chain(std::iter::once('\0')) {
        if ch == '`' {
            run += 1;
        } else {
            if run == n {
                return true;
            }
            run = 0;
        }
    }
    false
}

fn escape_table_chars(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        if c == '|' || c == '+' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Long code lines in cells are cut with U+0083 markers.
fn hard_wrap(value: &str, width: usize) -> String {
    let mut lines = Vec::new();
    for line in value.split('\n') {
        let mut line: Vec<char> = line.chars().collect();
        while line.len() > width {
            let mut len = width;
            if line[len - 1] == '\\' {
                len -= 1;
            }
            let mut head: String = line[..len].iter().collect();
            head.push('\u{83}');
            lines.push(head);
            line = line[len..].to_vec();
        }
        lines.push(line.into_iter().collect::<String>());
    }
    lines.join("\n")
}

/// The grid-table text wrapping (`lineWrapTextHandler`): words joined into lines of at
/// most `width` (counting from the current column), a line's first word escaped where it
/// would start a list or quote.
fn wrap_words(value: &str, width: i64, start_column: i64) -> String {
    let mut out = String::with_capacity(value.len() + value.len() / 16);
    let mut len = start_column;
    let mut line_empty = true;
    let mut any_line = false;
    for word in value.split(' ') {
        let word_len = js_len(word) as i64;
        if len + word_len > width && !line_empty {
            out.push('\n');
            any_line = true;
            line_empty = true;
            len = 0;
        }
        if line_empty {
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && word.as_bytes().get(digits) == Some(&b'.') {
                out.push_str(&word[..digits]);
                out.push_str("\\.");
                out.push_str(&word[digits + 1..]);
            } else if word == "-" {
                out.push_str("\\-");
            } else if any_line && word.starts_with('>') {
                out.push_str("\\>");
                out.push_str(&word[1..]);
            } else {
                out.push_str(word);
            }
            line_empty = false;
        } else {
            out.push(' ');
            out.push_str(word);
        }
        len += word_len + 1;
    }
    out
}
