//! YAML -> [`Document`], for the platform's legacy `fstab.yaml` (the file-based mountpoints).
//! Built on the event parser so that every key and value keeps its span.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};
use serde_json::{Map, Number, Value};

use super::{Document, SpanIndex, push_token};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::SourceFile;

pub(super) fn parse(source: Arc<SourceFile>) -> Result<Document, Vec<Diagnostic>> {
    let offsets = CharOffsets::new(&source.text);
    let mut builder = Builder {
        offsets: &offsets,
        spans: SpanIndex::default(),
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
    };
    for event in Parser::new_from_str(&source.text) {
        let (event, span) = event.map_err(|error| vec![scan_error(&source, &offsets, &error)])?;
        if builder.event(event, span) {
            break;
        }
    }
    let value = builder.root.take().unwrap_or(Value::Null);
    Ok(Document {
        value,
        spans: builder.spans.into_spans(source),
    })
}

fn scan_error(source: &SourceFile, offsets: &CharOffsets, error: &ScanError) -> Diagnostic {
    let at = offsets.byte(error.marker().index());
    Diagnostic::error(Code::YamlSyntax, error.info().to_string()).at(source, at..at)
}

/// saphyr counts positions in characters; spans are byte offsets.
struct CharOffsets(Option<Vec<usize>>);

impl CharOffsets {
    fn new(text: &str) -> CharOffsets {
        if text.is_ascii() {
            CharOffsets(None)
        } else {
            let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            offsets.push(text.len());
            CharOffsets(Some(offsets))
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.0 {
            None => char_index,
            Some(offsets) => offsets
                .get(char_index)
                .or(offsets.last())
                .copied()
                .unwrap_or(0),
        }
    }

    fn range(&self, span: &Span) -> Range<usize> {
        self.byte(span.start.index())..self.byte(span.end.index())
    }
}

enum Frame {
    Map {
        pointer: String,
        start: usize,
        anchor: usize,
        object: Map<String, Value>,
        key: Option<(String, Range<usize>)>,
    },
    Seq {
        pointer: String,
        start: usize,
        anchor: usize,
        items: Vec<Value>,
    },
}

struct Builder<'a> {
    offsets: &'a CharOffsets,
    spans: SpanIndex,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Value>,
    root: Option<Value>,
}

impl Builder<'_> {
    /// Feeds one event; true when the first document is complete.
    fn event(&mut self, event: Event<'_>, span: Span) -> bool {
        let range = self.offsets.range(&span);
        match event {
            Event::MappingStart(anchor, _) => {
                let pointer = self.child_pointer();
                self.stack.push(Frame::Map {
                    pointer,
                    start: range.start,
                    anchor,
                    object: Map::new(),
                    key: None,
                });
            }
            Event::SequenceStart(anchor, _) => {
                let pointer = self.child_pointer();
                self.stack.push(Frame::Seq {
                    pointer,
                    start: range.start,
                    anchor,
                    items: Vec::new(),
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = self.stack.pop() {
                    let (start, anchor, value) = match frame {
                        Frame::Map {
                            start,
                            anchor,
                            object,
                            ..
                        } => (start, anchor, Value::Object(object)),
                        Frame::Seq {
                            start,
                            anchor,
                            items,
                            ..
                        } => (start, anchor, Value::Array(items)),
                    };
                    self.remember(anchor, &value);
                    self.finish(value, start..range.end);
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                if self.expects_key() {
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = Some((text.into_owned(), range));
                    }
                } else {
                    let value = scalar(&text, style);
                    self.remember(anchor, &value);
                    self.finish(value, range);
                }
            }
            Event::Alias(anchor) => {
                let value = self.anchors.get(&anchor).cloned().unwrap_or(Value::Null);
                if self.expects_key() {
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = Some((value_as_key(&value), range));
                    }
                } else {
                    self.finish(value, range);
                }
            }
            Event::DocumentEnd => return self.root.is_some(),
            _ => {}
        }
        false
    }

    fn remember(&mut self, anchor: usize, value: &Value) {
        if anchor != 0 {
            self.anchors.insert(anchor, value.clone());
        }
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    /// The pointer of the value about to be added to the innermost collection.
    fn child_pointer(&self) -> String {
        match self.stack.last() {
            None => String::new(),
            Some(Frame::Map {
                pointer,
                key: Some((key, _)),
                ..
            }) => push_token(pointer, key),
            Some(Frame::Map { pointer, .. }) => pointer.clone(),
            Some(Frame::Seq { pointer, items, .. }) => {
                push_token(pointer, &items.len().to_string())
            }
        }
    }

    /// Stores a completed value in its parent (or as the root) and records its span.
    fn finish(&mut self, value: Value, range: Range<usize>) {
        let pointer = self.child_pointer();
        match self.stack.last_mut() {
            None => {
                self.spans.insert("", None, range);
                self.root = Some(value);
            }
            Some(Frame::Map { object, key, .. }) => {
                if let Some((key, key_range)) = key.take() {
                    self.spans.insert(&pointer, Some(key_range), range);
                    object.insert(key, value);
                }
            }
            Some(Frame::Seq { items, .. }) => {
                self.spans.insert(&pointer, None, range);
                items.push(value);
            }
        }
    }
}

fn value_as_key(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Resolves a scalar with the YAML 1.2 core schema; quoted scalars are always strings.
fn scalar(text: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text.to_string());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = text.parse::<i64>() {
        return Value::Number(i.into());
    }
    let looks_numeric = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if looks_numeric && let Some(n) = text.parse::<f64>().ok().and_then(Number::from_f64) {
        return Value::Number(n);
    }
    Value::String(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fstab_parses_with_spans() {
        let text = "mountpoints:\n  /:\n    url: https://content.example.com/site\n    type: markup\n    suffix: '.html'\n";
        let doc = Document::parse_yaml(SourceFile::new("fstab.yaml", text)).expect("parses");
        assert_eq!(
            doc.value,
            json!({"mountpoints": {"/": {"url": "https://content.example.com/site", "type": "markup", "suffix": ".html"}}})
        );
        let span = doc.span("/mountpoints/~1/type").expect("type span");
        assert_eq!(&text[span.key.clone().expect("key")], "type");
        assert_eq!(&text[span.value.clone()], "markup");
    }

    #[test]
    fn scalars_follow_the_core_schema() {
        let text = "a: 1\nb: '1'\nc: true\nd: ~\ne: 1.5\nf: [x, 2]\ng: ça\n";
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", text)).expect("parses");
        assert_eq!(
            doc.value,
            json!({"a": 1, "b": "1", "c": true, "d": null, "e": 1.5, "f": ["x", 2], "g": "ça"})
        );
        let g = doc.span("/g").expect("g");
        assert_eq!(&text[g.value.clone()], "ça");
    }

    #[test]
    fn syntax_errors_are_located() {
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", "a: [1, 2\nb: 3\n"))
            .expect_err("unclosed flow sequence");
        assert_eq!(errors[0].code, Code::YamlSyntax);
        assert!(
            errors[0]
                .location
                .as_ref()
                .is_some_and(|l| l.span.is_some())
        );
    }
}
