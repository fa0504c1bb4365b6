//! TOML -> [`Document`], keeping the span of every key and value.

use std::sync::Arc;

use serde_json::{Map, Number, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::{Document, SpanIndex, push_token};
use crate::diagnostic::{Code, Diagnostic};
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
    // The parser reports duplicates as ordinary errors; they deserve their own code because
    // the fix is different (remove one, rather than repair syntax).
    let code = if message.starts_with("duplicate key") {
        Code::DuplicateKey
    } else {
        Code::TomlSyntax
    };
    let message = message.lines().next().unwrap_or("invalid TOML").to_string();
    Diagnostic::error(code, message).at(source, error.span().unwrap_or(0..0))
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
