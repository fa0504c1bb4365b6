//! Phrasing handlers: text (with the grid-table line wrapping), emphasis and strong with
//! their edge encoding, the HTML formats, inline code, breaks, links, image references and
//! their definitions.

use super::flow::escape_table_chars;
use super::js_len;
use super::safe::{self, C};
use super::state::{
    Around, Info, State, Tracker, encode_first_unit, encode_last_unit, narrow_exceeds,
};
use super::{collapse_spaces, unicode_punctuation, unicode_whitespace};
use crate::model::{Kind, Node};

impl State<'_> {
    pub(super) fn inline_code(&mut self, raw: &str) -> String {
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

    pub(super) fn hard_break(&self, info: &Info) -> String {
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

    pub(super) fn text(&mut self, value: &str, info: &Info) -> String {
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
        let Some(width) = self.line_width else {
            return out;
        };
        if self.stack.contains(&C::HeadingAtx) {
            return out;
        }
        if width == 0 {
            self.only_at(0..1);
            return out;
        }
        self.only_at(1..i64::MAX);
        if narrow_exceeds(&mut self.same_widths, js_len(&out) as i64, width) {
            wrap_words(&out, width, info.column as i64 - 1, &mut self.same_widths)
        } else {
            out
        }
    }

    pub(super) fn attention(
        &mut self,
        node: &Node,
        marker: &str,
        construct: C,
        info: &Info,
    ) -> String {
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

    pub(super) fn format(&mut self, node: &Node, tag: &str, info: &Info) -> String {
        self.enter(C::Html);
        let open = format!("<{tag}>");
        let mut tracker = Tracker::new(info);
        tracker.move_by(&open);
        let inner = self.container_phrasing(node, &tracker.info(open.clone(), open.clone()));
        self.exit();
        format!("{open}{inner}</{tag}>")
    }

    pub(super) fn link(
        &mut self,
        node: &Node,
        url: &str,
        title: Option<&str>,
        info: &Info,
    ) -> String {
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

    pub(super) fn destination_and_title(
        &mut self,
        value: &mut String,
        url: &str,
        title: Option<&str>,
        end: &str,
    ) {
        if (url.is_empty() && title.is_some()) || url.chars().any(|c| c <= ' ' || c == '\u{7f}') {
            self.enter(C::DestinationLiteral);
            value.push('<');
            let before = Around::from(&*value);
            value.push_str(&self.safe(url, &before, ">"));
            value.push('>');
        } else {
            self.enter(C::DestinationRaw);
            let before = Around::from(&*value);
            let after = if title.is_some() { " " } else { end };
            value.push_str(&self.safe(url, &before, after));
        }
        self.exit();
        if let Some(title) = title {
            self.enter(C::TitleQuote);
            value.push_str(" \"");
            let before = Around::from(&*value);
            value.push_str(&self.safe(title, &before, "\""));
            value.push('"');
            self.exit();
        }
    }

    pub(super) fn image_reference(
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
    pub(super) fn definition(&mut self, index: usize, url: &str, title: Option<&str>) -> String {
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
            let before = Around::from(&*value);
            value.push_str(&self.safe(url, &before, ">"));
            value.push('>');
        } else {
            self.enter(C::DestinationRaw);
            let before = Around::from(&*value);
            value.push_str(&self.safe(url, &before, if title.is_some() { " " } else { "\n" }));
        }
        self.exit();
        if let Some(title) = title {
            self.enter(C::TitleQuote);
            value.push_str(" \"");
            let before = Around::from(&*value);
            value.push_str(&self.safe(title, &before, "\""));
            value.push('"');
            self.exit();
        }
        self.exit();
        value
    }
}

pub(super) fn autolink(node: &Node, url: &str, title: Option<&str>) -> bool {
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
pub(super) fn encode_info(outside: Option<char>, inside: Option<char>) -> (bool, bool) {
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

/// Whether `value` has a run of exactly `n` backticks.
pub(super) fn has_exact_run(value: &str, n: usize) -> bool {
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

/// The grid-table text wrapping (`lineWrapTextHandler`): words joined into lines of at
/// most `width` (counting from the current column), a line's first word escaped where it
/// would start a list or quote.
/// Each line break decided records in `same` the widths that decide it the same way.
pub(super) fn wrap_words(
    value: &str,
    width: i64,
    start_column: i64,
    same: &mut std::ops::Range<i64>,
) -> String {
    // The output is the value with some spaces turned into line breaks and some line
    // starts escaped: copied in runs up to each change, not word by word.
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(value.len() + value.len() / 16);
    let mut copied = 0;
    let mut len = start_column;
    let mut line_empty = true;
    let mut any_line = false;
    let mut start = 0;
    loop {
        let end = memchr::memchr(b' ', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let word = &value[start..end];
        let word_len = js_len(word) as i64;
        if !line_empty && narrow_exceeds(same, len + word_len, width) {
            // The space before the word becomes a line break.
            out.push_str(&value[copied..start - 1]);
            out.push('\n');
            copied = start;
            any_line = true;
            line_empty = true;
            len = 0;
        }
        if line_empty {
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let escape = if digits > 0 && word.as_bytes().get(digits) == Some(&b'.') {
                Some((start + digits, "\\."))
            } else if word == "-" {
                Some((start, "\\-"))
            } else if any_line && word.starts_with('>') {
                Some((start, "\\>"))
            } else {
                None
            };
            if let Some((at, escaped)) = escape {
                out.push_str(&value[copied..at]);
                out.push_str(escaped);
                copied = at + 1;
            }
            line_empty = false;
        }
        len += word_len + 1;
        if end == bytes.len() {
            break;
        }
        start = end + 1;
    }
    out.push_str(&value[copied..]);
    out
}
