//! Flow handlers: headings, block quotes, lists and items, fenced code, and the grid tables
//! of blocks and HTML tables.

use std::borrow::Cow;

use super::grid::{CellSpec, Table};
use super::js_len;
use super::safe::{C, SafeConfig, safe};
use super::state::{Info, State, Tracker, char_ref};
use crate::model::{BlockInfo, Kind, Node, TablePart};

impl State<'_> {
    pub(super) fn heading(&mut self, node: &Node, depth: u8, info: &Info) -> String {
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
        tracker.move_by(&sequence);
        tracker.move_by(" ");
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

    pub(super) fn blockquote(&mut self, node: &Node, info: &Info) -> String {
        self.enter(C::Blockquote);
        let mut tracker = Tracker::new(info);
        tracker.move_by("> ");
        tracker.shift(2);
        let inner = self.container_flow(node, &tracker.info("", ""));
        self.exit();
        indent_lines(&inner, |out, line, _, blank| {
            out.push('>');
            if !blank {
                out.push(' ');
                out.push_str(line);
            }
        })
    }

    pub(super) fn list(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
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
                        .is_some_and(|c| matches!(c.kind, Kind::ThematicBreak))
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

    pub(super) fn list_item(&mut self, node: &Node, parent: Option<&Node>, info: &Info) -> String {
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
        tracker.move_by(&bullet);
        tracker.move_by(" ");
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
                .is_some_and(|c| matches!(c.kind, Kind::Paragraph)) =>
            {
                Some(if checked { "[x] " } else { "[ ] " })
            }
            _ => None,
        };
        let pad = " ".repeat(size);
        let value = indent_lines(&inner, |out, line, index, blank| {
            if index > 0 {
                if !blank {
                    out.push_str(&pad);
                    out.push_str(line);
                }
            } else {
                out.push_str(&bullet);
                if !blank {
                    out.push(' ');
                    out.push_str(line);
                }
            }
        });
        match checkbox {
            Some(check) => insert_checkbox(&value, check),
            None => value,
        }
    }

    pub(super) fn code(&mut self, lang: Option<&str>, raw: &str) -> String {
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
            // Code wraps at the line width clamped to 150..=256: the same at every width
            // that clamps to the same.
            let line_width = self.line_width.unwrap_or(0);
            let width = line_width.clamp(150, 256);
            self.only_at(match width {
                150 => i64::MIN..151,
                256 => 256..i64::MAX,
                _ => line_width..line_width + 1,
            });
            if js_len(&value) > width as usize {
                value = hard_wrap(&value, width as usize);
            }
        }
        value
    }

    pub(super) fn block(&mut self, node: &Node, info: &BlockInfo) -> String {
        let num_cols = node
            .children
            .iter()
            .map(|row| row.children.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut table = Table::default();
        table.add_body_row(vec![CellSpec {
            children: Cow::Owned(vec![Node::text(info.display_name())]),
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
                        Kind::BlockCell { align, valign } => (align.as_deref(), valign.as_deref()),
                        _ => (None, None),
                    };
                    CellSpec {
                        children: Cow::Borrowed(&cell.children),
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

    pub(super) fn table(&mut self, node: &Node) -> String {
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
                            children: Cow::Borrowed(&cell.children),
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
}

pub(super) fn setext(node: &Node, depth: u8) -> bool {
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

pub(super) fn indent_lines(
    value: &str,
    mut map: impl FnMut(&mut String, &str, usize, bool),
) -> String {
    // Each line grows by its prefix: a few bytes a line is a good first guess.
    let mut out = String::with_capacity(value.len() + value.len() / 16 + 16);
    let mut line = 0;
    let mut start = 0;
    let bytes = value.as_bytes();
    while let Some(offset) = memchr::memchr2(b'\r', b'\n', &bytes[start..]) {
        let i = start + offset;
        let eol = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        let text = &value[start..i];
        map(&mut out, text, line, text.is_empty());
        out.push_str(&value[i..i + eol]);
        start = i + eol;
        line += 1;
    }
    let text = &value[start..];
    map(&mut out, text, line, text.is_empty());
    out
}

/// `value.replace(/^(?:[*+-]|\d+\.)([\r\n]| {1,3})/, '$&' + check)`.
pub(super) fn insert_checkbox(value: &str, check: &str) -> String {
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

pub(super) fn longest_streak(value: &str, c: char) -> usize {
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

pub(super) fn escape_table_chars(value: &str) -> String {
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
pub(super) fn hard_wrap(value: &str, width: usize) -> String {
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
