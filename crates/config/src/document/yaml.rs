//! YAML -> [`Document`], as the platform reads it: `YAML.parseDocument(text, {merge: true})`
//! (the `yaml` package, in helix-shared-config's `BaseConfig`), so anchors, aliases and
//! merge keys (`<<: *default`, `<<: [*a, *b]`) are taken. This is the one YAML parser of the
//! product: `validate` (`fstab.yaml`, `paths.yaml`), the server (a site's `query.yaml` and
//! `sitemap.yaml`, code sync's `fstab.yaml`) and the remote client (import, plan) share it.
//!
//! Two passes. The events become a tree of nodes, linear in the file's size, where an alias
//! is a node that names its anchor's node. That tree becomes the value, an alias by
//! expanding its anchor again. Expansion is bounded: nested aliases grow nine-fold per
//! level (the "billion laughs"), so what aliases add is counted and a document that would
//! pass [`EXPANSION_LIMIT`] is refused where the alias stands (`yaml-alias`), before it is
//! built; nesting deeper than [`MAX_DEPTH`] is refused too.
//!
//! Spans: an aliased value is located at the alias (its key and `*name`), what is inside it
//! at the anchor's text, where it is written and where it is fixed; a merged key is located
//! in its source mapping. These are redirects in the span index, one per alias and merged
//! key, so the index stays linear in the file's size however much aliases expand.
//!
//! Merge keys follow the `yaml` package: a plain `<<` key takes a mapping, or a sequence of
//! mappings, and adds each of their keys that the mapping does not have yet, explicit keys
//! winning wherever they stand and earlier sources over later ones.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};
use serde_json::{Map, Number, Value};

use super::{Document, SpanIndex, push_token};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::SourceFile;

/// The most that aliases may add to a document: each value counts the bytes of its text
/// (at least one), each key its name's. As much as the service takes in a YAML body, and
/// far beyond what a real index or sitemap configuration adds (the platform's own parser
/// refuses an anchor aliased a hundred times).
pub(super) const EXPANSION_LIMIT: usize = 256 * 1024;

/// The deepest nesting of collections taken, aliases expanded (as `serde_json`'s parser).
pub(super) const MAX_DEPTH: usize = 128;

pub(super) fn parse(source: Arc<SourceFile>) -> Result<Document, Vec<Diagnostic>> {
    // helix-shared-config's BaseConfig refuses a file with a tab anywhere (before the
    // YAML parser sees it), so the platform would not read it.
    if let Some(at) = source.text.find('\t') {
        return Err(vec![
            Diagnostic::error(
                Code::YamlSyntax,
                "a tab: the platform reads no YAML with tabs",
            )
            .with_help("indent with spaces, and write a tab in a value as `\\t` in double quotes")
            .at(&source, at..at + 1),
        ]);
    }
    let offsets = CharOffsets::new(&source.text);
    let mut tree = Tree {
        offsets: &offsets,
        source: &source,
        nodes: Vec::new(),
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
    };
    for event in Parser::new_from_str(&source.text) {
        let (event, span) = event.map_err(|error| vec![scan_error(&source, &offsets, &error)])?;
        if tree.event(event, span).map_err(|error| vec![*error])? {
            break;
        }
    }
    let Some(root) = tree.root else {
        let mut spans = SpanIndex::default();
        spans.insert("", None, 0..0);
        return Ok(Document {
            value: Value::Null,
            spans: spans.into_spans(source),
        });
    };
    let mut resolver = Resolver {
        nodes: &tree.nodes,
        source: &source,
        spans: SpanIndex::default(),
        written_at: HashMap::new(),
        expanded: 0,
        errors: Vec::new(),
    };
    let value = resolver
        .value(
            root,
            Place::Written {
                pointer: "",
                key: None,
            },
            0,
        )
        .map_err(|error| vec![*error])?;
    if !resolver.errors.is_empty() {
        return Err(resolver.errors);
    }
    Ok(Document {
        value,
        spans: resolver.spans.into_spans(source),
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

/// A node of the first pass; children and alias targets are indices into the tree's
/// nodes, a node always after those it names.
struct Node {
    kind: Kind,
    span: Range<usize>,
    anchored: bool,
}

enum Kind {
    Scalar(Value),
    Seq(Vec<usize>),
    Map(Vec<Entry>),
    /// An alias, by the index of its anchor's node.
    Alias(usize),
}

struct Entry {
    key: Key,
    key_span: Range<usize>,
    value: usize,
}

enum Key {
    Text(String),
    /// A plain `<<`.
    Merge,
    /// An alias as a key, by the index of its anchor's (scalar) node.
    Alias(usize),
}

enum Frame {
    Map {
        start: usize,
        anchor: usize,
        entries: Vec<Entry>,
        key: Option<(Key, Range<usize>)>,
    },
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<usize>,
    },
}

/// The first pass: events -> nodes.
struct Tree<'a> {
    offsets: &'a CharOffsets,
    source: &'a SourceFile,
    nodes: Vec<Node>,
    stack: Vec<Frame>,
    /// saphyr's anchor ids -> the node, once complete: an alias inside its own anchor's
    /// node finds nothing.
    anchors: HashMap<usize, usize>,
    root: Option<usize>,
}

impl Tree<'_> {
    /// Feeds one event; true when the first document is complete.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, Box<Diagnostic>> {
        let range = self.offsets.range(&span);
        match event {
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                if self.expects_key() {
                    return Err(self.error(
                        Code::YamlSyntax,
                        "a mapping or a sequence as a key: keys are scalars",
                        range,
                    ));
                }
                if self.stack.len() >= MAX_DEPTH {
                    return Err(self.error(
                        Code::YamlSyntax,
                        &format!("collections nested deeper than {MAX_DEPTH} levels"),
                        range,
                    ));
                }
                self.stack.push(match event {
                    Event::MappingStart(..) => Frame::Map {
                        start: range.start,
                        anchor,
                        entries: Vec::new(),
                        key: None,
                    },
                    _ => Frame::Seq {
                        start: range.start,
                        anchor,
                        items: Vec::new(),
                    },
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(frame) = self.stack.pop() {
                    let (start, anchor, kind) = match frame {
                        Frame::Map {
                            start,
                            anchor,
                            entries,
                            ..
                        } => (start, anchor, Kind::Map(entries)),
                        Frame::Seq {
                            start,
                            anchor,
                            items,
                        } => (start, anchor, Kind::Seq(items)),
                    };
                    let node = self.push(kind, start..range.end, anchor);
                    self.attach(node);
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                if self.expects_key() {
                    let key = if style == ScalarStyle::Plain && text == "<<" {
                        Key::Merge
                    } else {
                        Key::Text(text.to_string())
                    };
                    if anchor != 0 {
                        self.push(
                            Kind::Scalar(Value::String(text.into_owned())),
                            range.clone(),
                            anchor,
                        );
                    }
                    self.set_key(key, range);
                } else {
                    let node = self.push(Kind::Scalar(scalar(&text, style)), range.clone(), anchor);
                    self.attach(node);
                }
            }
            Event::Alias(anchor) => {
                let Some(&target) = self.anchors.get(&anchor) else {
                    return Err(self.alias_error("refers to the node that contains it", range));
                };
                if self.expects_key() {
                    if !matches!(self.nodes[target].kind, Kind::Scalar(_)) {
                        return Err(self.alias_error(
                            "as a key names a mapping or a sequence: keys are scalars",
                            range,
                        ));
                    }
                    self.set_key(Key::Alias(target), range);
                } else {
                    let node = self.push(Kind::Alias(target), range.clone(), 0);
                    self.attach(node);
                }
            }
            Event::DocumentEnd => return Ok(self.root.is_some()),
            _ => {}
        }
        Ok(false)
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Map { key: None, .. }))
    }

    fn push(&mut self, kind: Kind, span: Range<usize>, anchor: usize) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            kind,
            span,
            anchored: anchor != 0,
        });
        if anchor != 0 {
            self.anchors.insert(anchor, index);
        }
        index
    }

    fn set_key(&mut self, new: Key, range: Range<usize>) {
        if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
            *key = Some((new, range));
        }
    }

    /// Adds a complete node to the innermost collection, or makes it the root.
    fn attach(&mut self, node: usize) {
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => {
                if let Some((key, key_span)) = key.take() {
                    entries.push(Entry {
                        key,
                        key_span,
                        value: node,
                    });
                }
            }
        }
    }

    fn alias_error(&self, what: &str, range: Range<usize>) -> Box<Diagnostic> {
        let name = self.source.text.get(range.clone()).unwrap_or("*");
        self.error(
            Code::YamlAlias,
            &format!("the alias `{name}` {what}"),
            range,
        )
    }

    fn error(&self, code: Code, message: &str, range: Range<usize>) -> Box<Diagnostic> {
        Box::new(Diagnostic::error(code, message).at(self.source, range))
    }
}

/// Where a node's value goes: at its written place (its spans are recorded), or inside an
/// alias's expansion (nothing recorded; problems are the alias's).
#[derive(Clone, Copy)]
enum Place<'p> {
    Written {
        pointer: &'p str,
        key: Option<&'p Range<usize>>,
    },
    Expanded {
        alias: &'p Range<usize>,
    },
}

/// The second pass: nodes -> the value and its spans.
struct Resolver<'a> {
    nodes: &'a [Node],
    source: &'a SourceFile,
    spans: SpanIndex,
    /// Where each anchored node is written, for the redirects of its aliases.
    written_at: HashMap<usize, String>,
    /// What aliases have added so far, against [`EXPANSION_LIMIT`].
    expanded: usize,
    /// Problems that do not stop the value from being built (merge sources that are not
    /// mappings).
    errors: Vec<Diagnostic>,
}

impl<'a> Resolver<'a> {
    fn value(
        &mut self,
        index: usize,
        place: Place<'_>,
        depth: usize,
    ) -> Result<Value, Box<Diagnostic>> {
        let nodes: &'a [Node] = self.nodes;
        let node = &nodes[index];
        if let Place::Written { pointer, key } = place {
            self.spans.insert(pointer, key.cloned(), node.span.clone());
            if node.anchored {
                self.written_at.insert(index, pointer.to_string());
            }
        }
        if let Place::Expanded { alias } = place {
            let weight = match &node.kind {
                Kind::Scalar(Value::String(text)) => text.len().max(1),
                Kind::Map(entries) => 1 + entries.iter().map(|e| e.key_span.len()).sum::<usize>(),
                _ => 1,
            };
            self.expanded += weight;
            if self.expanded > EXPANSION_LIMIT {
                return Err(self.alias_error(
                    alias,
                    &format!(
                        "expands the document beyond {} KiB: aliases this large are refused \
                         as an alias bomb",
                        EXPANSION_LIMIT / 1024
                    ),
                ));
            }
            if depth > MAX_DEPTH {
                return Err(self.alias_error(
                    alias,
                    &format!("nests the document deeper than {MAX_DEPTH} levels"),
                ));
            }
        }
        match &node.kind {
            Kind::Scalar(value) => Ok(value.clone()),
            Kind::Alias(target) => {
                let span = &node.span;
                if let Place::Written { pointer, .. } = place
                    && let Some(anchor) = self.written_at.get(target)
                {
                    self.spans.redirect(pointer, anchor);
                }
                let alias = match place {
                    Place::Written { .. } => span,
                    Place::Expanded { alias } => alias,
                };
                self.value(*target, Place::Expanded { alias }, depth)
            }
            Kind::Seq(items) => {
                let mut values = Vec::with_capacity(items.len());
                for (i, &item) in items.iter().enumerate() {
                    let value = match place {
                        Place::Written { pointer, .. } => {
                            let pointer = push_token(pointer, &i.to_string());
                            self.value(
                                item,
                                Place::Written {
                                    pointer: &pointer,
                                    key: None,
                                },
                                depth + 1,
                            )?
                        }
                        expanded => self.value(item, expanded, depth + 1)?,
                    };
                    values.push(value);
                }
                Ok(Value::Array(values))
            }
            Kind::Map(entries) => {
                let mut object = Map::new();
                let mut written = HashSet::new();
                for entry in entries {
                    let name = match &entry.key {
                        Key::Text(name) => name.clone(),
                        Key::Merge => "<<".to_string(),
                        Key::Alias(target) => self.key_text(*target),
                    };
                    // The platform's parser refuses a mapping whose keys are not unique
                    // (`uniqueKeys`); reported where written, an expansion repeats it.
                    if !matches!(entry.key, Key::Merge)
                        && !written.insert(name.clone())
                        && matches!(place, Place::Written { .. })
                    {
                        self.errors.push(
                            Diagnostic::error(
                                Code::YamlSyntax,
                                format!("the key `{name}` is written twice in this mapping"),
                            )
                            .with_help("the platform refuses a mapping whose keys are not unique: keep one")
                            .at(self.source, entry.key_span.clone()),
                        );
                    }
                    let pointer = match place {
                        Place::Written { pointer, .. } => Some(push_token(pointer, &name)),
                        Place::Expanded { .. } => None,
                    };
                    let child = match (&pointer, place) {
                        (Some(pointer), _) => Place::Written {
                            pointer,
                            key: Some(&entry.key_span),
                        },
                        (None, expanded) => expanded,
                    };
                    let merge = matches!(entry.key, Key::Merge);
                    if let (false, Some(pointer)) = (merge, &pointer) {
                        // An explicit key wins over a merged one, wherever it stands.
                        self.spans.unredirect(pointer);
                    }
                    let value = self.value(entry.value, child, depth + 1)?;
                    if merge {
                        self.merge(&mut object, value, entry.value, place, pointer.as_deref());
                    } else {
                        object.insert(name, value);
                    }
                }
                Ok(Value::Object(object))
            }
        }
    }

    /// Adds the keys of a merge key's value (`source`, at `merge_pointer` when written)
    /// that `object` does not have: a mapping, or the mappings of a sequence in order.
    fn merge(
        &mut self,
        object: &mut Map<String, Value>,
        value: Value,
        node: usize,
        place: Place<'_>,
        merge_pointer: Option<&str>,
    ) {
        let (container, sources) = match value {
            Value::Array(items) => (true, items),
            single => (false, vec![single]),
        };
        let parent = match place {
            Place::Written { pointer, .. } => Some(pointer),
            Place::Expanded { .. } => None,
        };
        for (i, source) in sources.into_iter().enumerate() {
            let Value::Object(source) = source else {
                // Reported where the mapping is written; an expansion repeats it silently.
                if parent.is_some() {
                    let at = self.item_span(node, container.then_some(i));
                    self.errors.push(
                        Diagnostic::error(
                            Code::YamlMerge,
                            "a merge key (`<<`) takes a mapping, or a sequence of mappings",
                        )
                        .with_help("merge an alias of a mapping: `<<: *name` or `<<: [*a, *b]`")
                        .at(self.source, at),
                    );
                }
                continue;
            };
            let from = merge_pointer.map(|merge| {
                if container {
                    push_token(merge, &i.to_string())
                } else {
                    merge.to_string()
                }
            });
            for (key, value) in source {
                if object.contains_key(&key) {
                    continue;
                }
                if let (Some(parent), Some(from)) = (parent, &from) {
                    self.spans
                        .redirect(&push_token(parent, &key), &push_token(from, &key));
                }
                object.insert(key, value);
            }
        }
    }

    /// The span of a merge key's value, or of its `item`th item.
    fn item_span(&self, node: usize, item: Option<usize>) -> Range<usize> {
        let node = &self.nodes[node];
        match (item, &node.kind) {
            (Some(i), Kind::Seq(items)) => items
                .get(i)
                .map_or(node.span.clone(), |&item| self.nodes[item].span.clone()),
            _ => node.span.clone(),
        }
    }

    /// The key an alias stands for: its anchor's scalar, as the platform writes it as a
    /// key (`null` as the empty string).
    fn key_text(&self, target: usize) -> String {
        match &self.nodes[target].kind {
            Kind::Scalar(Value::String(text)) => text.clone(),
            Kind::Scalar(Value::Null) => String::new(),
            Kind::Scalar(other) => other.to_string(),
            _ => String::new(),
        }
    }

    fn alias_error(&self, alias: &Range<usize>, what: &str) -> Box<Diagnostic> {
        let name = self.source.text.get(alias.clone()).unwrap_or("*");
        Box::new(
            Diagnostic::error(Code::YamlAlias, format!("the alias `{name}` {what}"))
                .with_help("write the values out, or alias less")
                .at(self.source, alias.clone()),
        )
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

    /// The billion laughs: each level refers nine times to the one before.
    fn alias_bomb(levels: char) -> String {
        let mut text = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        let mut previous = 'a';
        for level in 'b'..=levels {
            let refs = vec![format!("*{previous}"); 9].join(", ");
            text.push_str(&format!("{level}: &{level} [{refs}]\n"));
            previous = level;
        }
        text
    }

    #[test]
    fn an_alias_bomb_is_refused_at_the_alias_that_passes_the_bound() {
        let errors = Document::parse_yaml(SourceFile::new("sites/a/b/fstab.yaml", alias_bomb('j')))
            .expect_err("the bomb is refused");
        assert_eq!(errors.len(), 1);
        let error = &errors[0];
        assert_eq!(error.code, Code::YamlAlias);
        assert!(
            error.message.starts_with("the alias `*"),
            "{}",
            error.message
        );
        assert!(error.message.contains("alias bomb"), "{}", error.message);
        let location = error.location.as_ref().expect("located");
        assert_eq!(location.file, "sites/a/b/fstab.yaml");
        assert!(location.span.is_some());
        // Four levels (9^4 values) fit.
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", alias_bomb('d'))).expect("small");
        assert_eq!(doc.value["d"].as_array().map(Vec::len), Some(9));
        assert_eq!(doc.value["d"][8][8][8][8], json!("lol"));
    }

    #[test]
    fn a_long_scalar_aliased_often_is_a_bomb_too() {
        let mut text = format!("a: &a {}\nb: [", "x".repeat(100_000));
        text.push_str(&["*a"; 11].join(", "));
        text.push_str("]\n");
        // The third alias passes the bound.
        assert_eq!(located(&text), vec![(Code::YamlAlias, 2, 5 + 4 * 2)]);
    }

    #[test]
    fn nesting_is_bounded_with_and_without_aliases() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", deep)).expect_err("too deep");
        assert_eq!(errors[0].code, Code::YamlSyntax);
        assert!(errors[0].message.contains("deeper than 128"));
        let nested = |n: usize| format!("{}x{}", "[".repeat(n), "]".repeat(n));
        let text = format!(
            "a: &a {}\nb: &b [{}*a{}]\n",
            nested(100),
            "[".repeat(27),
            "]".repeat(27)
        );
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", text)).expect_err("too deep");
        assert_eq!(errors[0].code, Code::YamlAlias);
        assert!(
            errors[0].message.contains("deeper than 128"),
            "{}",
            errors[0].message
        );
        let text = format!("a: &a {}\nb: [*a]\n", nested(100));
        Document::parse_yaml(SourceFile::new("f.yaml", text)).expect("deep enough");
    }

    #[test]
    fn an_alias_inside_its_anchor_is_refused() {
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", "a: &a [1, *a]\n"))
            .expect_err("recursive");
        assert_eq!(errors[0].code, Code::YamlAlias);
    }

    #[test]
    fn aliases_expand_and_are_located_at_the_alias_their_parts_at_the_anchor() {
        let text = "a: &x {k: [1, 2]}\nb: *x\nc: &s text\n*s : key\n";
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", text)).expect("parses");
        assert_eq!(
            doc.value,
            json!({"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": "text", "text": "key"})
        );
        let b = doc.span("/b").expect("b");
        assert_eq!(&text[b.key.clone().expect("key")], "b");
        assert_eq!(&text[b.value.clone()], "*x");
        let inside = doc.span("/b/k/1").expect("inside the alias");
        assert_eq!(
            inside.value,
            text.find("2]").map(|at| at..at + 1).expect("2")
        );
    }

    #[test]
    fn merge_keys_follow_the_platform() {
        // Explicit keys win wherever they stand; earlier sources win over later ones.
        let text = "\
base: &base {a: 1, b: 1, c: 1}
other: &other {b: 2, d: 2, e: 2}
one:
  b: explicit
  <<: *base
  c: explicit
list:
  <<: [*other, *base]
inline:
  <<: {z: 0}
quoted:
  '<<': *base
";
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", text)).expect("parses");
        assert_eq!(
            doc.value["one"],
            json!({"a": 1, "b": "explicit", "c": "explicit"})
        );
        assert_eq!(
            doc.value["list"],
            json!({"a": 1, "b": 2, "c": 1, "d": 2, "e": 2})
        );
        assert_eq!(doc.value["inline"], json!({"z": 0}));
        assert_eq!(doc.value["quoted"], json!({"<<": {"a": 1, "b": 1, "c": 1}}));
        // A merged key is located in its source mapping, an explicit one where it stands.
        let merged = doc.span("/one/a").expect("merged");
        let at = text.find("{a: 1").expect("base") + 4;
        assert_eq!(merged.value, at..at + 1);
        let explicit = doc.span("/one/c").expect("explicit");
        assert_eq!(&text[explicit.value.clone()], "explicit");
        let from_list = doc.span("/list/d").expect("from the list");
        assert_eq!(&text[from_list.key.clone().expect("key")], "d");
        assert!(from_list.value.start > text.find("other:").expect("other"));
    }

    #[test]
    fn a_merge_of_what_is_not_a_mapping_is_refused_where_it_is_written() {
        let text = "a: &a [1]\nb:\n  <<: [*a, {x: 1}, 3]\n";
        assert_eq!(
            located(text),
            vec![(Code::YamlMerge, 3, 8), (Code::YamlMerge, 3, 20)]
        );
    }

    #[test]
    fn an_anchor_without_alias_is_harmless() {
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", "a: &x [1]\n")).expect("parses");
        assert_eq!(doc.value, json!({"a": [1]}));
    }

    /// Where each error of `text` is: code, line, column.
    fn located(text: &str) -> Vec<(Code, usize, usize)> {
        let errors = Document::parse_yaml(SourceFile::new("f.yaml", text)).expect_err("refused");
        errors
            .iter()
            .map(|e| {
                let span = e
                    .location
                    .as_ref()
                    .and_then(|l| l.span.as_ref())
                    .expect("span");
                (e.code, span.start.line, span.start.column)
            })
            .collect()
    }

    #[test]
    fn a_key_written_twice_is_refused_where_it_is_written_again() {
        let text = "base: &b {x: 1}\nindices:\n  en: {a: 1}\n  de: {a: 2}\n  en: {a: 3}\n";
        assert_eq!(located(text), vec![(Code::YamlSyntax, 5, 3)]);
        // A merged key and an explicit one are no duplicate; an alias repeats no error.
        let fine = "base: &b {x: 1, y: 2}\none: {<<: *b, x: 3}\ntwo: *b\n";
        let doc = Document::parse_yaml(SourceFile::new("f.yaml", fine)).expect("parses");
        assert_eq!(doc.value["one"], json!({"x": 3, "y": 2}));
    }

    #[test]
    fn a_tab_anywhere_is_refused_as_the_platform_refuses_it() {
        assert_eq!(
            located("a: 1\nb: \"x\ty\"\n"),
            vec![(Code::YamlSyntax, 2, 6)]
        );
    }
}
