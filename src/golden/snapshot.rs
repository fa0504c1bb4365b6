//! Snapshot files in insta's `.snap` format, so that `cargo test` (insta) and `siteops test`
//! read and write the same files byte for byte:
//!
//! ```text
//! ---
//! source: tests/it/golden.rs
//! expression: preview host GET /products/1234
//! ---
//! <contents, without trailing white space>
//! ```
//!
//! The header is insta's YAML metadata (only `source` and `expression` are written; other
//! keys are read and ignored). Contents compare as insta compares them: trailing white
//! space trimmed and CRLF read as LF. Pure.

use super::GoldenError;

/// The `source` insta writes for the Rust golden test (the test file, from the workspace
/// root); `siteops test` writes the same, so neither tool rewrites the other's files.
pub const SOURCE: &str = "tests/it/golden.rs";

/// A stored snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub source: Option<String>,
    pub expression: Option<String>,
    pub contents: String,
}

/// The file name of a snapshot: `<name>.snap`.
pub fn file_name(name: &str) -> String {
    format!("{name}.snap")
}

/// The text of a snapshot file, exactly as insta writes it.
pub fn render(expression: &str, contents: &str) -> String {
    let mut out = String::from("---\n");
    out.push_str("source: ");
    push_scalar(&mut out, SOURCE);
    out.push_str("\nexpression: ");
    push_scalar(&mut out, expression);
    out.push_str("\n---\n");
    out.push_str(&normalize(contents));
    out.push('\n');
    out
}

/// Reads a snapshot file's text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Snapshot, GoldenError> {
    let error = |message: &str| GoldenError::Snapshot {
        file: file.to_string(),
        message: message.to_string(),
    };
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(error(
            "not a snapshot file: the first line must be `---` (insta's format)",
        ));
    }
    let mut snapshot = Snapshot {
        source: None,
        expression: None,
        contents: String::new(),
    };
    let mut closed = false;
    for line in lines.by_ref() {
        let line = line.trim_end();
        if line == "---" {
            closed = true;
            break;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = unquote(value.trim());
        match key {
            "source" => snapshot.source = Some(value),
            "expression" => snapshot.expression = Some(value),
            _ => {}
        }
    }
    if !closed {
        return Err(error("the metadata header is not closed by a `---` line"));
    }
    let rest: String = lines.collect();
    snapshot.contents = rest.lines().collect::<Vec<_>>().join("\n");
    Ok(snapshot)
}

/// Contents as insta compares them: trailing white space trimmed, CRLF as LF.
pub fn normalize(contents: &str) -> String {
    contents.trim_end().replace("\r\n", "\n")
}

/// Whether stored and rendered contents are the same snapshot.
pub fn matches(stored: &str, rendered: &str) -> bool {
    normalize(stored) == normalize(rendered)
}

/// A YAML scalar as insta's emitter writes it: plain when that reads back the same, else
/// double-quoted with escapes.
fn push_scalar(out: &mut String, value: &str) {
    if !needs_quotes(value) {
        out.push_str(value);
        return;
    }
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\x7f' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// insta's (yaml-rust's) rule for quoting a string.
fn needs_quotes(value: &str) -> bool {
    value.is_empty()
        || value.starts_with(' ')
        || value.ends_with(' ')
        || value.starts_with(['&', '*', '?', '|', '-', '<', '>', '=', '!', '%', '@'])
        || value.contains(|c: char| {
            matches!(
                c,
                ':' | '{'
                    | '}'
                    | '['
                    | ']'
                    | ','
                    | '#'
                    | '`'
                    | '"'
                    | '\''
                    | '\\'
                    | '\0'..='\x06'
                    | '\t'
                    | '\n'
                    | '\r'
                    | '\x0e'..='\x1a'
                    | '\x1c'..='\x1f'
            )
        })
        || [
            "yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "true", "False", "FALSE",
            "false", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
        ]
        .contains(&value)
        || value.starts_with('.')
        || value.starts_with("0x")
        || value.parse::<i64>().is_ok()
        || value.parse::<f64>().is_ok()
}

/// A plain, single- or double-quoted YAML scalar's value (the escapes [`push_scalar`]
/// writes, and `''` in single quotes).
fn unquote(value: &str) -> String {
    if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
        return value.to_string();
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('u') => {
                let code: String = chars.by_ref().take(4).collect();
                if let Some(c) = u32::from_str_radix(&code, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_and_parse_round_trip() {
        let text = render("preview host GET /products/1234", "<p>a</p>\n\n");
        assert_eq!(
            text,
            "---\nsource: tests/it/golden.rs\nexpression: preview host GET /products/1234\n---\n<p>a</p>\n"
        );
        let parsed = parse("x.snap", &text).expect("parses");
        assert_eq!(parsed.source.as_deref(), Some(SOURCE));
        assert_eq!(
            parsed.expression.as_deref(),
            Some("preview host GET /products/1234")
        );
        assert_eq!(parsed.contents, "<p>a</p>");
        assert!(matches(&parsed.contents, "<p>a</p>\r\n"));
        assert!(!matches(&parsed.contents, "<p>b</p>"));
    }

    #[test]
    fn odd_expressions_are_quoted_as_insta_quotes_them() {
        for (expression, written) in [
            ("GET /a:b", "\"GET /a:b\""),
            ("-x", "\"-x\""),
            ("1234", "\"1234\""),
            ("say \"hi\"\\", "\"say \\\"hi\\\"\\\\\""),
            ("plain /a/b", "plain /a/b"),
        ] {
            let text = render(expression, "x");
            assert!(
                text.contains(&format!("\nexpression: {written}\n")),
                "{text}"
            );
            let parsed = parse("x.snap", &text).expect("parses");
            assert_eq!(parsed.expression.as_deref(), Some(expression));
        }
    }

    #[test]
    fn metadata_insta_may_add_is_ignored_and_contents_keep_inner_dashes() {
        let text = "---\nsource: tests/it/golden.rs\nassertion_line: 12\nexpression: x\nsnapshot_kind: text\n---\na\n---\nb\r\n";
        let parsed = parse("x.snap", text).expect("parses");
        assert_eq!(parsed.contents, "a\n---\nb");
    }

    #[test]
    fn not_a_snapshot() {
        for text in ["hello", "---\nsource: x\n"] {
            assert!(parse("golden/c/snapshots/x.snap", text).is_err(), "{text}");
        }
    }
}
