//! `JSON.stringify(JSON.parse(text), null, 2)`: JSON-LD is validated and re-indented the way
//! the reference does it, keeping the key order of the source (serde_json's map here is
//! sorted, so this small parser keeps its own order) and printing numbers as JavaScript.
//!
//! [`for_script`] makes a printed value safe as the text of a `<script>` element.

use siteops_template::number::write_js_number;

/// Nesting deeper than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 512;

enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Parses `text` as JSON and prints it with two-space indentation.
pub(crate) fn pretty(text: &str) -> Result<String, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
    };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(format!("unexpected content at offset {}", parser.pos));
    }
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    write(&value, 0, &mut out);
    Ok(out)
}

/// `printed` (a value as [`pretty`] prints it) with every `<` and `>` written `\u003c` and
/// `\u003e`, so that as the text of a `<script>` element it can hold neither `</script` nor
/// `<!--`, which would end the element or change how the HTML parser reads its end.
///
/// JSON has these characters only inside strings, where the escapes mean the same
/// characters: the text stays JSON of the same value. (The reference prints them as they
/// are, so `\u003c/script\u003e` in a `json-ld` value would close the script.)
pub(crate) fn for_script(printed: &str) -> String {
    if !printed.contains(['<', '>']) {
        return printed.to_owned();
    }
    printed.replace('<', "\\u003c").replace('>', "\\u003e")
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at offset {}", self.pos))
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return self.error("nesting too deep");
        }
        match self.bytes.get(self.pos) {
            Some(b'{') => {
                self.pos += 1;
                let mut members: Vec<(String, Json)> = Vec::new();
                // Key positions, for the duplicate check of large objects.
                let mut index: std::collections::HashMap<String, usize> =
                    std::collections::HashMap::new();
                self.skip_ws();
                if self.bytes.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                loop {
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        return self.error("expected a key");
                    }
                    let key = self.string()?;
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b':') {
                        return self.error("expected ':'");
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let value = self.value(depth + 1)?;
                    // A repeated key keeps its first position and its last value.
                    let existing = if members.len() < 16 {
                        members.iter().position(|(k, _)| *k == key)
                    } else {
                        if index.len() < members.len() {
                            for (i, (k, _)) in members.iter().enumerate().skip(index.len()) {
                                index.entry(k.clone()).or_insert(i);
                            }
                        }
                        index.get(&key).copied()
                    };
                    match existing {
                        Some(i) => members[i].1 = value,
                        None => members.push((key, value)),
                    }
                    self.skip_ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(Json::Object(members));
                        }
                        _ => return self.error("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.bytes.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    self.skip_ws();
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return self.error("expected ',' or ']'"),
                    }
                }
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.error("unexpected character"),
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.error("unexpected character")
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.bytes.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos - s
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        if self.bytes.get(self.pos) == Some(&b'0') {
            self.pos += 1;
        } else if digits(self) == 0 {
            return self.error("invalid number");
        }
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if digits(self) == 0 {
                return self.error("invalid number");
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return self.error("invalid number");
            }
        }
        let value: f64 = self.text[start..self.pos]
            .parse()
            .map_err(|_| format!("invalid number at offset {start}"))?;
        Ok(Json::Number(value))
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.bytes[self.pos..]
                .iter()
                .position(|b| *b == b'"' || *b == b'\\' || *b < 0x20);
            let Some(len) = run else {
                return self.error("unterminated string");
            };
            out.push_str(&self.text[self.pos..self.pos + len]);
            self.pos += len;
            match self.bytes[self.pos] {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let Some(&escape) = self.bytes.get(self.pos) else {
                        return self.error("unterminated string");
                    };
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4()?;
                            if (0xD800..0xDC00).contains(&unit)
                                && self.bytes[self.pos..].starts_with(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let low = self.hex4()?;
                                if (0xDC00..0xE000).contains(&low) {
                                    let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                                    continue;
                                }
                                self.pos = save;
                            }
                            out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                        }
                        _ => return self.error("invalid escape"),
                    }
                }
                _ => return self.error("control character in string"),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let hex = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(hex) = hex else {
            return self.error("invalid unicode escape");
        };
        self.pos += 4;
        Ok(u32::from_str_radix(hex, 16).expect("checked hex digits"))
    }
}

fn write(value: &Json, indent: usize, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) if n.is_finite() => write_js_number(*n, out),
        Json::Number(_) => out.push_str("null"),
        Json::String(s) => write_string(s, out),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Object(members) if members.is_empty() => out.push_str("{}"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                push_indent(indent + 1, out);
                write(item, indent + 1, out);
            }
            out.push('\n');
            push_indent(indent, out);
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                push_indent(indent + 1, out);
                write_string(key, out);
                out.push_str(": ");
                write(item, indent + 1, out);
            }
            out.push('\n');
            push_indent(indent, out);
            out.push('}');
        }
    }
}

fn push_indent(level: usize, out: &mut String) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::{for_script, pretty};

    #[test]
    fn printed_for_a_script_ends_no_script_and_keeps_its_value() {
        let source = r#"{"a\u003c/SCRIPT>": "\u003c/script\u003e\u003cscript\u003ex()</sCrIpT >",
            "b": ["<!--", "\u003c!--", "-->", "<\/script"], "c": 1}"#;
        let printed = for_script(&pretty(source).expect("valid JSON"));
        let lower = printed.to_ascii_lowercase();
        assert!(!lower.contains("</script"), "{printed}");
        assert!(!lower.contains("<!--"), "{printed}");
        let value = |text: &str| serde_json::from_str::<serde_json::Value>(text).expect("JSON");
        assert_eq!(value(&printed), value(source));
        assert_eq!(
            printed.lines().nth(1),
            Some(
                r#"  "a\u003c/SCRIPT\u003e": "\u003c/script\u003e\u003cscript\u003ex()\u003c/sCrIpT \u003e","#
            )
        );
        // Without those characters, the reference's output as it is.
        assert_eq!(for_script("{\n  \"a\": 1\n}"), "{\n  \"a\": 1\n}");
    }

    #[test]
    fn prints_like_json_stringify() {
        assert_eq!(
            pretty(r#"{"b": [1.0, 2e2, {}], "a": "x\u00e9\n", "b": []}"#).unwrap(),
            "{\n  \"b\": [],\n  \"a\": \"xé\\n\"\n}"
        );
        assert_eq!(
            pretty("[1, {\"a\": null}]").unwrap(),
            "[\n  1,\n  {\n    \"a\": null\n  }\n]"
        );
        assert!(pretty("{\"a\": 1,}").is_err());
        assert!(pretty("{a: 1}").is_err());
        assert!(pretty(&"[".repeat(10_000)).is_err());
    }
}
