//! Where a problem of a mapping file is in its text. The parser works on a
//! `serde_json::Value`, which keeps no positions, so a problem is found again from its
//! JSON pointer by scanning the text, once the file is parsed and only when it has one.

use std::ops::Range;

use super::{MockError, MockErrorKind};

/// Gives `error` its span, line and column in `text`, the file it was found in.
pub(super) fn locate(error: &mut MockError, text: &str) {
    if error.kind != MockErrorKind::Syntax {
        // A key that should not be there is pointed at by its name; anything else by its value.
        let at_key = matches!(
            error.kind,
            MockErrorKind::UnknownKey | MockErrorKind::Unsupported
        );
        error.span = find(text, &error.pointer, at_key);
    }
    let start = floor_char_boundary(text, error.span.start.min(text.len()));
    let before = &text[..start];
    error.line = before.matches('\n').count() + 1;
    error.column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count()
        + 1;
}

/// The byte offset of serde_json's error position: its `line` and `column` (1-based, the
/// column in bytes) name the byte where parsing stopped. An unexpected end is placed at
/// the end; a trailing comma at the comma itself, before the bracket that revealed it.
pub(super) fn offset_of(content: &[u8], line: usize, column: usize, message: &str) -> usize {
    if message.starts_with("EOF") {
        return content.len();
    }
    let line_start = match line.checked_sub(2) {
        None => 0,
        Some(newlines) => content
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(newlines)
            .map_or(content.len(), |(i, _)| i + 1),
    };
    let at = (line_start + column.saturating_sub(1)).min(content.len());
    if message != "trailing comma" {
        return at;
    }
    content[..at]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .filter(|&comma| content[comma] == b',')
        .unwrap_or(at)
}

/// The span of the key (when `at_key` and the value has one) or the value that `pointer`
/// names. When the pointer leads nowhere (the file changed, or the value is implied), the
/// deepest value found on the way.
pub(crate) fn find(text: &str, pointer: &str, at_key: bool) -> Range<usize> {
    let mut scanner = Scanner { text, pos: 0 };
    scanner.skip_whitespace();
    let mut value_start = scanner.pos;
    let mut key = None;
    let tokens: Vec<String> = if pointer.is_empty() {
        Vec::new()
    } else {
        pointer
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect()
    };
    for token in &tokens {
        scanner.pos = value_start;
        match scanner.child(token) {
            Some((found_key, found_value)) => {
                key = found_key;
                value_start = found_value;
            }
            None => {
                key = None;
                break;
            }
        }
    }
    if at_key && let Some(key) = key {
        return key;
    }
    scanner.pos = value_start;
    let end = scanner.skip_value().unwrap_or(value_start);
    value_start..end
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A cursor over JSON text known to parse (serde_json read it first).
struct Scanner<'t> {
    text: &'t str,
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// From the start of a container, the member `token` names: its key's span (objects)
    /// and where its value starts. In an object the last member of that name counts, as
    /// serde_json keeps the last.
    fn child(&mut self, token: &str) -> Option<(Option<Range<usize>>, usize)> {
        match self.peek()? {
            b'{' => {
                self.pos += 1;
                let mut found = None;
                loop {
                    self.skip_whitespace();
                    if self.peek()? == b'}' {
                        return found;
                    }
                    let key_start = self.pos;
                    let key_end = self.skip_string()?;
                    let name: String = serde_json::from_str(&self.text[key_start..key_end]).ok()?;
                    self.skip_whitespace();
                    self.pos += 1; // `:`
                    self.skip_whitespace();
                    if name == token {
                        found = Some((Some(key_start..key_end), self.pos));
                    }
                    self.skip_value()?;
                    self.skip_whitespace();
                    if self.peek()? == b',' {
                        self.pos += 1;
                    }
                }
            }
            b'[' => {
                let index: usize = token.parse().ok()?;
                self.pos += 1;
                for _ in 0..index {
                    self.skip_whitespace();
                    self.skip_value()?;
                    self.skip_whitespace();
                    if self.peek()? != b',' {
                        return None;
                    }
                    self.pos += 1;
                }
                self.skip_whitespace();
                (self.peek()? != b']').then_some((None, self.pos))
            }
            _ => None,
        }
    }

    /// Past the string that starts here; returns where it ends.
    fn skip_string(&mut self) -> Option<usize> {
        if self.peek()? != b'"' {
            return None;
        }
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(self.pos);
                }
                _ => self.pos += 1,
            }
        }
    }

    /// Past the value that starts here (containers counted by depth, without recursion);
    /// returns where it ends.
    fn skip_value(&mut self) -> Option<usize> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.skip_string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                _ if depth > 0 => self.pos += 1,
                // A number or a literal: up to the next delimiter.
                _ => {
                    while self
                        .peek()
                        .is_some_and(|b| !b.is_ascii_whitespace() && !b",}]".contains(&b))
                    {
                        self.pos += 1;
                    }
                    return Some(self.pos);
                }
            }
            if depth == 0 {
                return Some(self.pos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, pointer: &str, at_key: bool) -> &'static str {
        let span = find(text, pointer, at_key);
        text[span].to_string().leak()
    }

    #[test]
    fn pointers_find_their_key_or_value() {
        let text = r#"{ "request": {"url": "/a", "headers": {"x/y": {"equalTo": "1"}}},
  "list": [1, [2, 3], {"k": true}], "response": {"status": 700} }"#;
        assert_eq!(at(text, "/request/url", false), r#""/a""#);
        assert_eq!(at(text, "/request/url", true), r#""url""#);
        assert_eq!(
            at(text, "/request/headers/x~1y", false),
            r#"{"equalTo": "1"}"#
        );
        assert_eq!(at(text, "/list/1/0", false), "2");
        assert_eq!(at(text, "/list/2/k", false), "true");
        assert_eq!(at(text, "/response/status", false), "700");
        // A pointer that leads nowhere stops at the deepest value found.
        assert_eq!(at(text, "/response/fault", false), r#"{"status": 700}"#);
        assert_eq!(at(text, "/list/9", false), r#"[1, [2, 3], {"k": true}]"#);
        assert!(at(text, "", false).starts_with('{'));
    }

    #[test]
    fn escaped_keys_and_braces_in_strings_do_not_mislead() {
        let text = r#"{"a\"}": "]}", "b": {"c": "x"}, "b": {"c": "last"}}"#;
        assert_eq!(at(text, "/b/c", false), r#""last""#);
        assert_eq!(at(text, "/a\"}", true), r#""a\"}""#);
    }

    #[test]
    fn syntax_errors_point_at_the_fault() {
        let text = b"{\n  \"a\": 1,\n}\n";
        let comma = offset_of(text, 3, 1, "trailing comma");
        assert_eq!(text[comma], b',');
        assert_eq!(offset_of(text, 3, 1, "expected value"), 12);
        assert_eq!(offset_of(b"{", 1, 1, "EOF while parsing an object"), 1);
    }
}
