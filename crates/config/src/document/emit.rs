//! JSON value -> YAML text, for the bodies the platform keeps as YAML (a site's
//! `query.yaml` and `sitemap.yaml`), written by saphyr's [`YamlEmitter`]: block style, two
//! spaces per level, keys in the value's order (sorted: serde_json's map), a string plain
//! unless it would read back as something else, else double-quoted with JSON's escapes.
//! Numbers keep serde_json's text. Deterministic: one value, one text;
//! [`super::Document::parse_yaml`] reads it back to the same value.

use saphyr::{Mapping, Scalar, ScalarStyle, Yaml, YamlEmitter};
use serde_json::Value;

/// `value` as a YAML document, ending with a newline. No `---` marker, as in the
/// platform's own files.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    YamlEmitter::new(&mut out)
        .dump(&yaml(value))
        .expect("writing to a String does not fail");
    let mut text = out.strip_prefix("---\n").map(str::to_string).unwrap_or(out);
    text.push('\n');
    text
}

fn yaml(value: &Value) -> Yaml<'_> {
    match value {
        Value::Null => Yaml::Value(Scalar::Null),
        Value::Bool(flag) => Yaml::Value(Scalar::Boolean(*flag)),
        // serde_json's shortest text, which also holds integers beyond `i64`.
        Value::Number(number) => {
            Yaml::Representation(number.to_string().into(), ScalarStyle::Plain, None)
        }
        Value::String(text) => string(text),
        Value::Array(items) => Yaml::Sequence(items.iter().map(yaml).collect()),
        Value::Object(map) => Yaml::Mapping(
            map.iter()
                .map(|(key, value)| (string(key), yaml(value)))
                .collect::<Mapping<'_>>(),
        ),
    }
}

/// A string, as saphyr writes it, except one that starts like a number: saphyr writes
/// `2024-01-01`, `1_000` or `0b1` plain, which YAML 1.2 reads as a string but a YAML 1.1
/// reader (js-yaml's default schema, say) as a date or a number; those are double-quoted.
fn string(text: &str) -> Yaml<'_> {
    let numeric = text
        .strip_prefix('+')
        .unwrap_or(text)
        .starts_with(|c: char| c.is_ascii_digit());
    // With a control character saphyr quotes and escapes it itself.
    let printable = !text.contains(|c: char| c.is_ascii_control() || c == '\u{feff}');
    if numeric && printable {
        let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
        Yaml::Representation(escaped.into(), ScalarStyle::DoubleQuoted, None)
    } else {
        Yaml::Value(Scalar::String(text.into()))
    }
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
        value: "parseTimestamp(headers[\"last-modified\"], \"ddd, DD MMM YYYY hh:mm:ss GMT\")"
      title:
        select: "head > meta[property=\"og:title\"]"
        value: "attribute(el, \"content\")"
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
            // Spaces, comments, quotes.
            "  two  ",
            "\ta",
            "a:  b",
            "a: b: c",
            "key: value # comment",
            "# comment",
            "a \"b\" 'c'",
            "\"",
            "'",
            "\\",
            "\\\"",
            // Words and numbers a reader could take for something else.
            "YES",
            "off",
            "y",
            "n",
            "Null",
            "NULL",
            "FALSE",
            "0",
            "007",
            "1.0",
            "1e5",
            "1E-5",
            "-0",
            "0o17",
            "0b101",
            "+.5",
            "-.inf",
            ".NaN",
            "inf",
            "NaN",
            "12:30",
            "1 2",
            "1\"",
            "2024-01-01T10:00:00Z",
            // Several lines, document markers.
            "a\nb\n",
            "\n",
            "a\n\n",
            "\na",
            "a\r\nb",
            "---",
            "...",
            "--- a",
            "a\n---\nb",
            // Unicode.
            "日本語",
            "ça: va",
            "🙂",
            "\u{a0}a",
            "a\u{85}b",
            "\u{2029}",
            "\u{200b}",
            "\u{10ffff}",
        ];
        for text in strings {
            let value = json!({ text: [text, {text: text}] });
            assert_eq!(round_trip(&value), value, "{text:?}\n{}", to_yaml(&value));
        }
    }

    #[test]
    fn a_string_that_starts_like_a_number_is_quoted() {
        let value = json!(["2024-01-01", "1_000", "+1", "0b1", "1 item", "a1"]);
        assert_eq!(
            to_yaml(&value),
            "- \"2024-01-01\"\n- \"1_000\"\n- \"+1\"\n- \"0b1\"\n- \"1 item\"\n- a1\n"
        );
        assert_eq!(round_trip(&value), value);
    }

    #[test]
    fn a_document_has_no_marker_and_ends_with_a_line_break() {
        assert_eq!(to_yaml(&json!({"a": 1})), "a: 1\n");
        assert_eq!(to_yaml(&json!("a")), "a\n");
        assert_eq!(to_yaml(&json!({})), "{}\n");
        assert_eq!(to_yaml(&json!([])), "[]\n");
        assert_eq!(to_yaml(&json!(null)), "~\n");
        assert_eq!(to_yaml(&json!([["a"], []])), "- - a\n- []\n");
    }

    #[test]
    fn scalars_round_trip_at_the_top_and_numbers_keep_their_text() {
        // (The reader takes an integer beyond `i64` as a float, so `u64::MAX` is only written.)
        for value in [
            json!(null),
            json!(true),
            json!(""),
            json!("a\nb"),
            json!(i64::MAX),
            json!(i64::MIN),
            json!(1e300),
            json!(-0.5),
            json!(1.0),
        ] {
            assert_eq!(round_trip(&value), value, "{}", to_yaml(&value));
        }
        assert_eq!(
            to_yaml(&json!([u64::MAX, 1e300, 1.0])),
            "- 18446744073709551615\n- 1e+300\n- 1.0\n"
        );
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
