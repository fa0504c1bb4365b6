//! JSON value -> YAML text, for the bodies the platform keeps as YAML (a site's
//! `query.yaml` and `sitemap.yaml`). Block style, two spaces per level, keys in the value's
//! order (sorted: serde_json's map); a string is written plain when it reads back as the
//! same string, else quoted ([`string`]). Deterministic:
//! one value, one text; [`super::Document::parse_yaml`] reads it back to the same value.

use std::fmt::Write;

use serde_json::Value;

/// `value` as a YAML document, ending with a newline.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => mapping(map, 0, &mut out),
        Value::Array(items) if !items.is_empty() => sequence(items, 0, &mut out),
        scalar => {
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
    out
}

fn indent(level: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', level));
}

/// A scalar, or an empty collection, on one line.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => number.to_string(),
        Value::String(text) => string(text),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn is_block(value: &Value) -> bool {
    match value {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    }
}

fn mapping(map: &serde_json::Map<String, Value>, level: usize, out: &mut String) {
    for (key, value) in map {
        indent(level, out);
        entry(key, value, level, out);
    }
}

/// `key: value` from where the line's indentation ends.
fn entry(key: &str, value: &Value, level: usize, out: &mut String) {
    out.push_str(&string(key));
    out.push(':');
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            mapping(map, level + 2, out);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            sequence(items, level + 2, out);
        }
        scalar => {
            let _ = writeln!(out, " {}", inline(scalar));
        }
    }
}

fn sequence(items: &[Value], level: usize, out: &mut String) {
    for item in items {
        indent(level, out);
        out.push('-');
        match item {
            Value::Object(map) if !map.is_empty() => {
                // The first entry beside the dash, the others under it.
                out.push(' ');
                for (index, (key, value)) in map.iter().enumerate() {
                    if index > 0 {
                        indent(level + 2, out);
                    }
                    entry(key, value, level + 2, out);
                }
            }
            nested if is_block(nested) => {
                out.push('\n');
                if let Value::Array(items) = nested {
                    sequence(items, level + 2, out);
                }
            }
            scalar => {
                let _ = writeln!(out, " {}", inline(scalar));
            }
        }
    }
}

/// A string as a YAML scalar: plain when that reads back as this very string; else
/// single-quoted (no escapes but `''`: selectors and expressions stay readable); else, with
/// a control character, double-quoted with JSON's escapes.
fn string(text: &str) -> String {
    if is_plain(text) {
        text.to_string()
    } else if text
        .chars()
        .all(|c| !c.is_control() && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}'))
    {
        format!("'{}'", text.replace('\'', "''"))
    } else {
        serde_json::to_string(text).expect("strings serialize")
    }
}

/// Whether `text` can be written as a plain scalar, in a block mapping or sequence, and
/// read back as a string equal to it: a conservative set of characters, a safe first
/// character, nothing a parser reads as a comment, a mapping, or a boolean, null or
/// number (YAML 1.1's words too, which other readers of the file may follow).
fn is_plain(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let allowed =
        |c: char| c.is_ascii_alphanumeric() || " _./*{}()=+~^$%-,;@&!?<>[]:#|".contains(c);
    let safe_first = first.is_ascii_alphabetic() || first == '/' || first == '_';
    let words = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ];
    safe_first
        && text.chars().all(allowed)
        && !text.ends_with(' ')
        && !text.ends_with(':')
        && !text.contains(": ")
        && !text.contains(" #")
        && !words.iter().any(|word| text.eq_ignore_ascii_case(word))
        && !looks_numeric(text)
}

/// `.inf`, `0x1F`, `1_000` and the like: anything that starts like a number.
fn looks_numeric(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let rest = lower.trim_start_matches(['+', '-']);
    rest.starts_with(|c: char| c.is_ascii_digit())
        || rest.starts_with(".inf")
        || rest.starts_with(".nan")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::source::SourceFile;
    use serde_json::json;

    fn round_trip(value: &Value) -> Value {
        let text = to_yaml(value);
        match Document::parse_yaml(SourceFile::new("x.yaml", text.clone())) {
            Ok(document) => document.value,
            Err(problems) => panic!("{text}\n{problems:?}"),
        }
    }

    #[test]
    fn an_index_configuration_reads_as_the_platform_writes_it() {
        let value = json!({
            "version": 1,
            "indices": {"default": {
                "include": ["/**"],
                "exclude": ["/drafts/**"],
                "target": "/query-index.json",
                "properties": {
                    "title": {"select": "head > meta[property=\"og:title\"]", "value": "attribute(el, \"content\")"},
                    "lastModified": {"select": "none", "value": "parseTimestamp(headers[\"last-modified\"], \"ddd, DD MMM YYYY hh:mm:ss GMT\")"}
                }
            }}
        });
        let text = to_yaml(&value);
        assert_eq!(
            text,
            r#"indices:
  default:
    exclude:
      - /drafts/**
    include:
      - /**
    properties:
      lastModified:
        select: none
        value: 'parseTimestamp(headers["last-modified"], "ddd, DD MMM YYYY hh:mm:ss GMT")'
      title:
        select: 'head > meta[property="og:title"]'
        value: 'attribute(el, "content")'
    target: /query-index.json
version: 1
"#
        );
        assert_eq!(round_trip(&value), value);
    }

    #[test]
    fn every_string_reads_back_as_itself() {
        let strings = [
            "",
            " ",
            "a",
            "true",
            "True",
            "no",
            "null",
            "~",
            "1",
            "1.5",
            "-1",
            "+1",
            ".inf",
            "0x1F",
            "1_000",
            "2024-01-01",
            "YYYY-MM-DD",
            "a: b",
            "a:b",
            "a #b",
            "a#b",
            "#a",
            "- a",
            "-",
            "?",
            ":",
            "a:",
            "*a",
            "&a",
            "!a",
            "|",
            ">",
            "%a",
            "@a",
            "`a",
            "'a'",
            "\"a\"",
            "a\\b",
            "tab\there",
            "line\nbreak",
            "é",
            "/fr/{path}",
            "{a}",
            "[a]",
            "a, b",
            "x-default",
            "/**",
            ".html",
            "a ",
            " a",
            "h1, h2",
            "Yes",
            "ON",
            "it's",
            "''",
            "\u{2028}",
            "\u{feff}a",
            "\u{7f}",
            "a\r",
            "\0",
        ];
        for text in strings {
            let value = json!({ text: [text, {text: text}] });
            assert_eq!(round_trip(&value), value, "{text:?}\n{}", to_yaml(&value));
        }
    }

    #[test]
    fn other_values_and_empty_collections_round_trip() {
        let value = json!({
            "a": [1, 2.5, true, null, [], {}, [["x"], {"k": [1]}]],
            "b": {"c": {}, "d": []},
            "e": [{"f": 1, "g": {"h": 2}}]
        });
        assert_eq!(round_trip(&value), value);
    }
}
