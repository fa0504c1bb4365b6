//! YAML -> [`Document`], for the platform's legacy `fstab.yaml` (the file-based mountpoints)
//! and `paths.yaml`. Built on the event parser so that every key and value keeps its span.
//!
//! Aliases (`*name`) are refused, each with a located `yaml-alias` error, and never
//! expanded: nested aliases grow nine-fold per level (the "billion laughs"), so a few
//! hundred bytes would expand to gigabytes. The files siteops reads have no use for them,
//! and refusing them keeps the value linear in the file's size. This is the one YAML
//! parser of the product: `validate` and the server (code sync's `fstab.yaml`) share it.

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
        root: None,
        source: &source,
        aliases: Vec::new(),
    };
    for event in Parser::new_from_str(&source.text) {
        let (event, span) = event.map_err(|error| vec![scan_error(&source, &offsets, &error)])?;
        if builder.event(event, span) {
            break;
        }
    }
    if !builder.aliases.is_empty() {
        return Err(builder.aliases);
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
        object: Map<String, Value>,
        key: Option<(String, Range<usize>)>,
    },
    Seq {
        pointer: String,
        start: usize,
        items: Vec<Value>,
    },
}

struct Builder<'a> {
    offsets: &'a CharOffsets,
    spans: SpanIndex,
    stack: Vec<Frame>,
    root: Option<Value>,
    source: &'a SourceFile,
    /// One error per alias met; the alias itself stands for `null` in the value.
    aliases: Vec<Diagnostic>,
}

impl Builder<'_> {
    /// Feeds one event; true when the first document is complete.
    fn event(&mut self, event: Event<'_>, span: Span) -> bool {
        let range = self.offsets.range(&span);
        match event {
            Event::MappingStart(_, _) => {
                let pointer = self.child_pointer();
                self.stack.push(Frame::Map {
                    pointer,
                    start: range.start,
                    object: Map::new(),
                    key: None,
                });
            }
            Event::SequenceStart(_, _) => {
                let pointer = self.child_pointer();
                self.stack.push(Frame::Seq {
                    pointer,
                    start: range.start,
                    items: Vec::new(),
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = self.stack.pop() {
                    let (start, value) = match frame {
                        Frame::Map { start, object, .. } => (start, Value::Object(object)),
                        Frame::Seq { start, items, .. } => (start, Value::Array(items)),
                    };
                    self.finish(value, start..range.end);
                }
            }
            Event::Scalar(text, style, _, _) => {
                if self.expects_key() {
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = Some((text.into_owned(), range));
                    }
                } else {
                    self.finish(scalar(&text, style), range);
                }
            }
            Event::Alias(_) => {
                let name = self.source.text.get(range.clone()).unwrap_or("*");
                self.aliases.push(
                    Diagnostic::error(
                        Code::YamlAlias,
                        format!("YAML aliases are not supported (`{name}`)"),
                    )
                    .with_help("write the value out instead of referring to an anchor")
                    .at(self.source, range.clone()),
                );
                // Parsing goes on, so that every alias of the file is reported at once.
                if self.expects_key() {
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = Some((String::new(), range));
                    }
                } else {
                    self.finish(Value::Null, range);
                }
            }
            Event::DocumentEnd => return self.root.is_some(),
            _ => {}
        }
        false
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

    #[test]
    fn aliases_are_refused_where_they_are_not_expanded() {
        // The billion laughs: each level refers nine times to the one before.
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        let mut previous = 'a';
        for level in 'b'..='j' {
            let refs = vec![format!("*{previous}"); 9].join(", ");
            text.push_str(&format!("{level}: &{level} [{refs}]\n"));
            previous = level;
        }
        let errors = Document::parse_yaml(SourceFile::new("sites/a/b/fstab.yaml", text))
            .expect_err("aliases are refused");
        assert_eq!(errors.len(), 81, "one error per alias, none expanded");
        let first = &errors[0];
        assert_eq!(first.code, Code::YamlAlias);
        assert_eq!(first.message, "YAML aliases are not supported (`*a`)");
        let location = first.location.as_ref().expect("located");
        assert_eq!(location.file, "sites/a/b/fstab.yaml");
        let span = location.span.as_ref().expect("span");
        assert_eq!((span.start.line, span.start.column), (2, 8));
    }

    #[test]
    fn an_alias_as_a_key_is_refused_too() {
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", "a: &k x\n*k : 1\n"))
            .expect_err("alias key");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, Code::YamlAlias);
    }

    #[test]
    fn an_anchor_without_alias_is_harmless() {
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", "a: &x [1]\n")).expect("parses");
        assert_eq!(doc.value, json!({"a": [1]}));
    }
}
