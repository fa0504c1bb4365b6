//! TOML -> [`Document`], keeping the span of every key and value.

use std::ops::Range;
use std::sync::Arc;

use serde_json::{Map, Number, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Document, SpanIndex, push_token};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::source::SourceFile;

pub(super) fn parse(source: Arc<SourceFile>) -> Result<Document, Vec<Diagnostic>> {
    let (root, errors) = DeTable::parse_recoverable(&source.text);
    if !errors.is_empty() {
        return Err(errors
            .iter()
            .map(|error| syntax_error(&source, error))
            .collect());
    }
    let mut spans = SpanIndex::default();
    spans.insert("", None, root.span());
    let value = table(root.get_ref(), "", &mut spans);
    Ok(Document {
        value,
        spans: spans.into_spans(source),
    })
}

fn syntax_error(source: &SourceFile, error: &toml::de::Error) -> Diagnostic {
    let message = error.message().trim();
    let span = error.span().unwrap_or(0..0);
    // The parser reports duplicates as ordinary errors; they deserve their own code because
    // the fix is different (remove one, rather than repair syntax).
    if message.starts_with("duplicate key") {
        return duplicate(source, span);
    }
    let message = message.lines().next().unwrap_or("invalid TOML").to_string();
    Diagnostic::error(Code::TomlSyntax, message).at(source, span)
}

/// A key (or table) defined twice, at `span`: the diagnostic names it and, as a secondary
/// label, its first definition. The parser says neither, so both are read from the text:
/// for a key, the same key written earlier in the same table (before the table's header);
/// for a table header, the same header earlier in the file.
fn duplicate(source: &SourceFile, span: Range<usize>) -> Diagnostic {
    let text = source.text.as_str();
    let line_start = text[..span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let name = text
        .get(span.clone())
        .unwrap_or_default()
        .trim_matches(['"', '\''])
        .to_string();
    let header = line.trim_start().starts_with('[');
    // What the earlier line must start with to define the same thing: the header, or the
    // key as written up to the duplicate (dotted keys included).
    let written = if header {
        line.trim()
    } else {
        text.get(line_start..span.end).unwrap_or_default().trim()
    };
    let earlier = text[..line_start]
        .lines()
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len() + 1;
            Some((start, line))
        })
        .collect::<Vec<_>>();
    let first = earlier
        .iter()
        .rev()
        // A key is looked for in its own table only: up to the table's header.
        .take_while(|(_, line)| header || !line.trim_start().starts_with('['))
        .find(|(_, line)| defines(line, written, header))
        .map(|(start, line)| {
            let indent = line.len() - line.trim_start().len();
            let at = start + indent;
            at..at + written.len()
        });
    let (message, help) = if header {
        (
            format!("table `{written}` is defined twice"),
            "a table is defined once: move the keys of the second into the first",
        )
    } else {
        (
            format!("key `{name}` is defined twice in the same table"),
            "remove one of them",
        )
    };
    let mut diagnostic = Diagnostic::error(Code::DuplicateKey, message)
        .with_help(help)
        .at(source, span);
    if let Some(first) = first {
        diagnostic = diagnostic.with_related("first defined here", Location::of(source, first));
    }
    diagnostic
}

/// Whether `line` defines `written` (a table header, or a key up to its `=`).
fn defines(line: &str, written: &str, header: bool) -> bool {
    let line = line.trim();
    if header {
        return line == written;
    }
    line.strip_prefix(written)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

fn table(table: &DeTable<'_>, pointer: &str, spans: &mut SpanIndex) -> Value {
    let mut object = Map::new();
    for (key, item) in table.iter() {
        let child = push_token(pointer, key.get_ref());
        spans.insert(&child, Some(key.span()), item.span());
        object.insert(key.get_ref().to_string(), value(item, &child, spans));
    }
    Value::Object(object)
}

fn value(item: &Spanned<DeValue<'_>>, pointer: &str, spans: &mut SpanIndex) -> Value {
    match item.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => integer(i.as_str(), i.radix()),
        DeValue::Float(f) => float(f.as_str()),
        DeValue::Boolean(b) => Value::Bool(*b),
        // JSON has no dates; a string keeps the text and lets the schema report the type.
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(index, item)| {
                    let child = push_token(pointer, &index.to_string());
                    spans.insert(&child, None, item.span());
                    value(item, &child, spans)
                })
                .collect(),
        ),
        DeValue::Table(t) => table(t, pointer, spans),
    }
}

fn integer(digits: &str, radix: u32) -> Value {
    if let Ok(i) = i64::from_str_radix(digits, radix) {
        Value::Number(i.into())
    } else if let Ok(u) = u64::from_str_radix(digits, radix) {
        Value::Number(u.into())
    } else {
        Value::String(digits.to_string())
    }
}

fn float(text: &str) -> Value {
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map_or_else(|| Value::String(text.to_string()), Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(text: &str) -> Document {
        Document::parse_toml(SourceFile::new("t.toml", text)).expect("parses")
    }

    #[test]
    fn converts_every_toml_type() {
        let d = doc("a = 'x'\nb = 0x10\nc = 1.5\nd = true\ne = 1979-05-27\n[t]\nf = [1, 2]\n");
        assert_eq!(
            d.value,
            json!({"a": "x", "b": 16, "c": 1.5, "d": true, "e": "1979-05-27", "t": {"f": [1, 2]}})
        );
    }

    #[test]
    fn spans_point_at_keys_values_and_array_items() {
        let text = "[content.source]\nurl = \"https://x\"\nlist = [\"a\", \"b\"]\n";
        let d = doc(text);
        let url = d.span("/content/source/url").expect("url span");
        assert_eq!(&text[url.key.clone().expect("key")], "url");
        assert_eq!(&text[url.value.clone()], "\"https://x\"");
        let item = d.span("/content/source/list/1").expect("item span");
        assert_eq!(&text[item.value.clone()], "\"b\"");
    }

    /// Issue 28: a duplicate names the key, and where it was first defined, in its own
    /// table only.
    #[test]
    fn duplicates_name_the_key_and_its_first_definition() {
        let first = |text: &str| -> (String, Option<(usize, usize)>) {
            let errors = Document::parse_toml(SourceFile::new("t.toml", text)).expect_err("dup");
            let d = &errors[0];
            assert_eq!(d.code, Code::DuplicateKey);
            let related = d.related.first().map(|r| {
                let span = r.location.span.as_ref().expect("span");
                assert_eq!(r.label, "first defined here");
                (span.start.line, span.start.column)
            });
            (d.message.clone(), related)
        };
        let text = "[a]\ntype = 1\n[b]\ntype = 1\n  url = 2\n  type = 3\n";
        assert_eq!(
            first(text),
            (
                "key `type` is defined twice in the same table".into(),
                Some((4, 1))
            )
        );
        assert_eq!(
            first("x.y = 1\nz.y = 2\nx.y = 3\n"),
            (
                "key `y` is defined twice in the same table".into(),
                Some((1, 1))
            )
        );
        assert_eq!(
            first("[code]\na = 1\n[code.source]\nb = 1\n[code]\nc = 1\n"),
            ("table `[code]` is defined twice".into(), Some((1, 1)))
        );
        assert_eq!(
            first("\"q\" = 1\n\"q\" = 2\n"),
            (
                "key `q` is defined twice in the same table".into(),
                Some((1, 1))
            )
        );
    }

    #[test]
    fn duplicate_keys_and_syntax_errors_are_located() {
        let errors = Document::parse_toml(SourceFile::new("t.toml", "a = 1\na = 2\n"))
            .expect_err("duplicate");
        assert_eq!(errors[0].code, Code::DuplicateKey);
        let span = errors[0].location.as_ref().and_then(|l| l.span.clone());
        assert_eq!(span.map(|s| s.start.line), Some(2));

        let errors = Document::parse_toml(SourceFile::new("t.toml", "a = \n")).expect_err("syntax");
        assert_eq!(errors[0].code, Code::TomlSyntax);
    }
}
