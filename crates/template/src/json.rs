//! JSON documents as the worker renders them: parsed once onto a flat tape, then read
//! through cheap `Copy` views.
//!
//! The worker parses every endpoint response, and for a large listing parsing costs as
//! much as rendering. `serde_json::Value` allocates every string and builds a B-tree per
//! object; here simd-json (SIMD-accelerated, its instruction set chosen at run time)
//! validates the input and writes one flat `Vec` of nodes whose strings borrow from the
//! input buffer (escapes are decoded in place). A container node records how many nodes
//! follow it, so skipping a subtree is one addition and no value is ever copied.
//!
//! Reading follows JavaScript's `JSON.parse`: numbers are doubles (integers beyond 64 bits
//! too), and when an object repeats a key the last value wins.

use std::cell::RefCell;

use serde_json::{Map, Number, Value};
use simd_json::{Buffers, INPUT_PADDING, Node, StaticNode, Tape};

/// A parsed JSON document, borrowing its strings from the input buffer.
pub struct Json<'a> {
    tape: Tape<'a>,
}

/// Input that is not JSON: where (1-based line and column) and why.
#[derive(Debug, thiserror::Error)]
#[error("{message} at line {line} column {column}")]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl<'a> Json<'a> {
    /// Parses `text`, copied into `buffer` (simd-json decodes escaped strings in place, and
    /// the strings of the document borrow from it). Errors say exactly what is wrong where.
    pub fn parse(text: &[u8], buffer: &'a mut Vec<u8>) -> Result<Self, JsonError> {
        buffer.clear();
        buffer.extend_from_slice(text);
        Json::parse_padded(buffer).map_err(|_| explain(text))
    }

    /// Parses the text in `input` where it is, without a copy: for a response body that
    /// is parsed once. `input` is changed (padding appended, escapes decoded), so the error
    /// only says where parsing stopped.
    pub fn parse_in_place(input: &'a mut Vec<u8>) -> Result<Self, JsonError> {
        Json::parse_padded(input).map_err(|offset| JsonError {
            line: 1,
            column: offset + 1,
            message: "not valid JSON".to_string(),
        })
    }

    /// Appends simd-json's padding to the text in `input` and parses it; on failure, the
    /// byte offset where parsing stopped.
    fn parse_padded(input: &'a mut Vec<u8>) -> Result<Self, usize> {
        let len = input.len();
        input.resize(len + INPUT_PADDING, b' ');
        let input: &'a mut [u8] = input.as_mut_slice();
        let (mut buffers, spare_tape) = SPARE.with_borrow_mut(|spare| {
            (
                spare.buffers.take().unwrap_or_else(|| Buffers::new(len)),
                spare.tape.take(),
            )
        });
        let mut tape: Tape<'a> = spare_tape.map_or_else(|| Tape(Vec::new()), Tape::reset);
        let parsed = simd_json::fill_tape_padded(input, len, &mut buffers, &mut tape);
        SPARE.with_borrow_mut(|spare| spare.buffers = Some(buffers));
        match parsed {
            Ok(()) => Ok(Json { tape }),
            Err(error) => {
                keep_spare(tape);
                Err(error.index())
            }
        }
    }

    /// The document `null`.
    pub fn null() -> Json<'static> {
        Json { tape: Tape::null() }
    }

    /// The document's root value.
    pub fn root(&self) -> JsonRef<'_> {
        JsonRef(&self.tape.0)
    }
}

impl Drop for Json<'_> {
    fn drop(&mut self) {
        keep_spare(std::mem::replace(&mut self.tape, Tape(Vec::new())));
    }
}

/// simd-json's working buffers and a tape, kept per thread between parses: a large
/// document would otherwise take fresh memory (and page faults) on every parse.
#[derive(Default)]
struct Spare {
    buffers: Option<Buffers>,
    tape: Option<Tape<'static>>,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::default();
}

/// Tapes larger than this (in nodes, 24 bytes each) are freed rather than kept.
const LARGEST_SPARE_TAPE: usize = 4 << 20;

fn keep_spare(tape: Tape<'_>) {
    if tape.0.capacity() <= LARGEST_SPARE_TAPE {
        let tape = tape.reset();
        // During thread teardown the slot may be gone; the tape is then simply freed.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                spare.tape = Some(tape);
            }
        });
    }
}

/// Why `text` is not JSON. simd-json's errors are terse (a trailing comma is an "internal
/// error"), so the rare failure is parsed again by serde_json, whose messages say what was
/// expected where.
#[cold]
fn explain(text: &[u8]) -> JsonError {
    match serde_json::from_slice::<serde::de::IgnoredAny>(text) {
        Err(error) => JsonError {
            line: error.line(),
            column: error.column(),
            message: strip_position(&error.to_string()),
        },
        // Accepted by serde_json, refused by simd-json (nesting deeper than it allows).
        Ok(_) => JsonError {
            line: 1,
            column: 1,
            message: "JSON nested too deeply".to_string(),
        },
    }
}

/// serde_json's message without its own " at line L column C" suffix.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// A view of one value of a [`Json`] document: its node and the nodes of its subtree.
#[derive(Debug, Clone, Copy)]
pub struct JsonRef<'d>(&'d [Node<'d>]);

/// What a [`JsonRef`] holds.
#[derive(Debug, Clone, Copy)]
pub enum Kind<'d> {
    Null,
    Bool(bool),
    /// Every JSON number is a double, as in JavaScript.
    Number(f64),
    Str(&'d str),
    Array(JsonArray<'d>),
    Object(JsonObject<'d>),
}

/// An array: its header node followed by its elements' nodes.
#[derive(Debug, Clone, Copy)]
pub struct JsonArray<'d>(&'d [Node<'d>]);

/// An object: its header node followed by alternating key and value nodes.
#[derive(Debug, Clone, Copy)]
pub struct JsonObject<'d>(&'d [Node<'d>]);

/// The elements of an array not yet visited.
#[derive(Debug, Clone, Copy, Default)]
pub struct Elements<'d>(&'d [Node<'d>]);

/// How many nodes the value starting at `node` spans, itself included.
#[inline]
fn extent(node: &Node<'_>) -> usize {
    match node {
        Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
        Node::String(_) | Node::Static(_) => 1,
    }
}

/// Splits the value starting at `nodes[0]` off the front of `nodes`.
#[inline]
fn split_value<'d>(nodes: &'d [Node<'d>]) -> Option<(JsonRef<'d>, &'d [Node<'d>])> {
    let len = extent(nodes.first()?);
    let value = nodes.get(..len)?;
    let rest = nodes.get(len..)?;
    Some((JsonRef(value), rest))
}

impl<'d> JsonRef<'d> {
    #[inline]
    pub fn kind(self) -> Kind<'d> {
        match self.0.first() {
            None => Kind::Null,
            Some(Node::String(s)) => Kind::Str(s),
            Some(Node::Array { .. }) => Kind::Array(JsonArray(self.0)),
            Some(Node::Object { .. }) => Kind::Object(JsonObject(self.0)),
            Some(Node::Static(node)) => match *node {
                StaticNode::Null => Kind::Null,
                StaticNode::Bool(b) => Kind::Bool(b),
                StaticNode::I64(n) => Kind::Number(n as f64),
                StaticNode::U64(n) => Kind::Number(n as f64),
                StaticNode::F64(n) => Kind::Number(n),
            },
        }
    }

    /// How many tape nodes the value spans: a measure of its size (strings count as one).
    pub fn node_count(self) -> usize {
        self.0.len()
    }

    /// The property `key` of an object; `None` for other values.
    pub fn get(self, key: &str) -> Option<JsonRef<'d>> {
        match self.kind() {
            Kind::Object(object) => object.get(key),
            _ => None,
        }
    }

    pub fn as_str(self) -> Option<&'d str> {
        match self.kind() {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(self) -> Option<JsonArray<'d>> {
        match self.kind() {
            Kind::Array(array) => Some(array),
            _ => None,
        }
    }

    /// The value as a `serde_json::Value`, for code that needs a tree (the generic page).
    /// Iterative, so no document can overflow the stack.
    pub fn to_value(self) -> Value {
        /// A container being filled, and in an object the key of the value to come.
        struct Open {
            value: Value,
            remaining: usize,
            key: Option<String>,
        }
        let mut stack: Vec<Open> = Vec::new();
        for node in self.0 {
            if let Some(top) = stack.last_mut()
                && top.value.is_object()
                && top.key.is_none()
            {
                if let Node::String(name) = node {
                    top.key = Some((*name).to_string());
                }
                continue;
            }
            let mut value = match *node {
                Node::Array { len, .. } if len > 0 => {
                    let value = Value::Array(Vec::with_capacity(len));
                    stack.push(Open {
                        value,
                        remaining: len,
                        key: None,
                    });
                    continue;
                }
                Node::Object { len, .. } if len > 0 => {
                    let value = Value::Object(Map::new());
                    stack.push(Open {
                        value,
                        remaining: len,
                        key: None,
                    });
                    continue;
                }
                Node::Array { .. } => Value::Array(Vec::new()),
                Node::Object { .. } => Value::Object(Map::new()),
                Node::String(s) => Value::String(s.to_string()),
                Node::Static(node) => static_value(node),
            };
            // Store the value in its container, closing every container it completes.
            loop {
                let Some(top) = stack.last_mut() else {
                    return value;
                };
                match &mut top.value {
                    Value::Array(items) => items.push(value),
                    Value::Object(map) => {
                        map.insert(top.key.take().unwrap_or_default(), value);
                    }
                    _ => {}
                }
                top.remaining -= 1;
                if top.remaining > 0 {
                    break;
                }
                value = stack.pop().map_or(Value::Null, |open| open.value);
            }
        }
        Value::Null
    }
}

fn static_value(node: StaticNode) -> Value {
    match node {
        StaticNode::Null => Value::Null,
        StaticNode::Bool(b) => Value::Bool(b),
        StaticNode::I64(n) => n.into(),
        StaticNode::U64(n) => n.into(),
        StaticNode::F64(n) => Number::from_f64(n).map_or(Value::Null, Value::Number),
    }
}

impl<'d> JsonArray<'d> {
    pub fn len(self) -> usize {
        match self.0.first() {
            Some(Node::Array { len, .. }) => *len,
            _ => 0,
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn elements(self) -> Elements<'d> {
        Elements(self.0.get(1..).unwrap_or_default())
    }

    /// Element `index`, found by skipping the elements before it.
    pub fn get(self, index: usize) -> Option<JsonRef<'d>> {
        self.elements().nth(index)
    }
}

impl<'d> Iterator for Elements<'d> {
    type Item = JsonRef<'d>;

    #[inline]
    fn next(&mut self) -> Option<JsonRef<'d>> {
        let (value, rest) = split_value(self.0)?;
        self.0 = rest;
        Some(value)
    }
}

impl<'d> JsonObject<'d> {
    pub fn len(self) -> usize {
        match self.0.first() {
            Some(Node::Object { len, .. }) => *len,
            _ => 0,
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The value of `key`; the last one when the key repeats, as `JSON.parse` keeps.
    #[inline]
    pub fn get(self, key: &str) -> Option<JsonRef<'d>> {
        let mut found = None;
        for (name, value) in self.entries() {
            if same_key(name, key) {
                found = Some(value);
            }
        }
        found
    }

    /// The key-value pairs in document order, repeated keys included.
    pub fn entries(self) -> Entries<'d> {
        Entries(self.0.get(1..).unwrap_or_default())
    }
}

/// The entries of an object not yet visited.
pub struct Entries<'d>(&'d [Node<'d>]);

impl<'d> Iterator for Entries<'d> {
    type Item = (&'d str, JsonRef<'d>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (Node::String(name), rest) = self.0.split_first()? else {
            return None;
        };
        let (value, rest) = split_value(rest)?;
        self.0 = rest;
        Some((name, value))
    }
}

/// Key equality, inlined: keys are short, where a call to `memcmp` costs more than the
/// comparison itself.
#[inline]
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A string as JavaScript's `JSON.stringify` quotes it: `"`, `\\` and the control
/// characters escaped (the short forms where JSON has them), everything else as it is.
pub fn write_js_string(s: &str, out: &mut String) {
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
            c if (c as u32) < 0x20 => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(text: &str) -> Value {
        let mut buffer = Vec::new();
        let json = Json::parse(text.as_bytes(), &mut buffer).expect("valid JSON");
        json.root().to_value()
    }

    #[test]
    fn documents_round_trip_through_the_tape() {
        for value in [
            json!(null),
            json!(1),
            json!("a\"b\\u00e9\n"),
            json!([]),
            json!({}),
            json!([[], {}, [[1, 2], {"a": [3]}], "x"]),
            json!({"a": {"b": {"c": [1, {"d": null}]}}, "e": true, "f": -2.5}),
            json!([{"k": []}, {"k": {}}, {"": ""}]),
        ] {
            assert_eq!(parsed(&value.to_string()), value, "{value}");
        }
    }

    #[test]
    fn the_last_of_repeated_keys_wins_as_in_json_parse() {
        let mut buffer = Vec::new();
        let json = Json::parse(br#"{"a": 1, "b": 2, "a": 3}"#, &mut buffer).unwrap();
        let a = json.root().get("a").unwrap();
        assert!(matches!(a.kind(), Kind::Number(n) if n == 3.0));
        assert!(json.root().get("c").is_none());
    }

    #[test]
    fn integers_beyond_64_bits_are_doubles() {
        let mut buffer = Vec::new();
        let json = Json::parse(b"[123456789012345678901234567890, -0, 1e2]", &mut buffer).unwrap();
        let numbers: Vec<f64> = json
            .root()
            .as_array()
            .unwrap()
            .elements()
            .map(|v| match v.kind() {
                Kind::Number(n) => n,
                _ => f64::NAN,
            })
            .collect();
        assert_eq!(numbers, [1.2345678901234568e29, 0.0, 100.0]);
    }

    #[test]
    fn arrays_index_and_skip_nested_values() {
        let mut buffer = Vec::new();
        let json = Json::parse(br#"[{"a": [1, 2, 3]}, [4, [5]], "six"]"#, &mut buffer).unwrap();
        let array = json.root().as_array().unwrap();
        assert_eq!(array.len(), 3);
        assert_eq!(array.get(2).and_then(JsonRef::as_str), Some("six"));
        assert!(array.get(3).is_none());
        assert_eq!(array.get(1).unwrap().to_value(), json!([4, [5]]));
    }

    #[test]
    fn errors_say_where_and_what() {
        let mut buffer = Vec::new();
        let error = Json::parse(b"{\"a\": [1,\n 2,]}", &mut buffer)
            .err()
            .expect("invalid");
        assert_eq!((error.line, error.column), (2, 4), "{error}");
        assert_eq!(error.message, "expected value");
    }
}
