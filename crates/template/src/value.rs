//! JSON values seen the way JavaScript sees them: which are falsy, which
//! properties they have (array indices, `length`), and how they turn into
//! text. This is where mustache.js's behaviour over a JSON view lives.

use crate::json::{JsonArray, JsonObject, JsonRef, Kind};

use super::error::Full;
use super::escape::escape_html_within;
use super::node::Key;
use super::number::write_js_number;

/// A value as the renderer handles it: a view of part of the data, or a
/// number or piece of a string that JavaScript would compute on the fly
/// (`list.length`, `name.0`). `Copy`, so the context stack is cheap.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Item<'d> {
    Null,
    Bool(bool),
    Number(f64),
    Str(&'d str),
    Array(JsonArray<'d>),
    Object(JsonObject<'d>),
}

/// What JavaScript yields for a string index that falls on half of a
/// surrogate pair, once that lone half is written out as UTF-8.
const REPLACEMENT: &str = "\u{FFFD}";

impl<'d> From<JsonRef<'d>> for Item<'d> {
    #[inline]
    fn from(value: JsonRef<'d>) -> Self {
        match value.kind() {
            Kind::Null => Item::Null,
            Kind::Bool(b) => Item::Bool(b),
            // Every JSON number is a double in JavaScript: huge integers
            // lose precision there too, and print accordingly.
            Kind::Number(n) => Item::Number(n),
            Kind::Str(s) => Item::Str(s),
            Kind::Array(items) => Item::Array(items),
            Kind::Object(map) => Item::Object(map),
        }
    }
}

impl<'d> Item<'d> {
    /// JavaScript's truthiness (`!value` is false). Empty arrays and
    /// objects are truthy here; sections deal with empty arrays themselves.
    pub(crate) fn is_truthy(self) -> bool {
        match self {
            Item::Null => false,
            Item::Bool(b) => b,
            Item::Number(n) => n != 0.0 && !n.is_nan(),
            Item::Str(s) => !s.is_empty(),
            Item::Array(_) | Item::Object(_) => true,
        }
    }

    /// What an inverted section tests: falsy, or an empty list.
    pub(crate) fn is_blank(self) -> bool {
        !self.is_truthy() || matches!(self, Item::Array(items) if items.is_empty())
    }

    /// Arrays and objects; the only values whose properties a plain
    /// (undotted) name can find, as mustache.js's `hasProperty` requires.
    pub(crate) fn is_object(self) -> bool {
        matches!(self, Item::Array(_) | Item::Object(_))
    }

    /// The value of own property `key`, or `None` when there is no such
    /// property (JavaScript's `undefined`). Besides object keys this knows
    /// array and string indices and their `length`, the properties
    /// templates rely on; other prototype members are not modelled.
    // Inlined so the `Option<Item>` stays in registers: returned through
    // memory, its tag and payload are written separately and read back
    // together, a store-forwarding stall that once dominated lookups.
    #[inline(always)]
    pub(crate) fn get(self, key: &Key) -> Option<Item<'d>> {
        match self {
            Item::Object(map) => map.get(&key.name).map(Item::from),
            Item::Array(items) => match key.index {
                Some(i) => items.get(i).map(Item::from),
                None => is_length(key).then(|| Item::Number(items.len() as f64)),
            },
            Item::Str(s) => match key.index {
                Some(i) => utf16_unit(s, i).map(Item::Str),
                None => is_length(key).then(|| Item::Number(s.encode_utf16().count() as f64)),
            },
            Item::Null | Item::Bool(_) | Item::Number(_) => None,
        }
    }

    /// Appends JavaScript's `String(value)`, HTML-escaped if asked. Null
    /// (and a missing value) print nothing, as mustache.js skips them. [`Full`] when the
    /// text would take `out` past `limit` bytes (what was appended is then the caller's
    /// to drop).
    pub(crate) fn write(self, out: &mut String, escape: bool, limit: usize) -> Result<(), Full> {
        match self {
            Item::Array(items) => write_joined(items, out, escape, limit),
            other => other.write_scalar(out, escape, limit),
        }
    }

    fn write_scalar(self, out: &mut String, escape: bool, limit: usize) -> Result<(), Full> {
        let text = match self {
            Item::Null => return Ok(()),
            Item::Bool(b) => {
                if b {
                    "true"
                } else {
                    "false"
                }
            }
            Item::Number(n) => {
                // At most a few dozen bytes: written, then judged.
                write_js_number(n, out);
                return if out.len() > limit { Err(Full) } else { Ok(()) };
            }
            Item::Str(s) if escape => {
                return if escape_html_within(s, out, limit) {
                    Ok(())
                } else {
                    Err(Full)
                };
            }
            Item::Str(s) => s,
            Item::Object(_) => "[object Object]",
            Item::Array(items) => return write_joined(items, out, escape, limit),
        };
        push_within(out, text, limit)
    }
}

/// Appends `text` unless it would take `out` past `limit` bytes.
#[inline]
pub(crate) fn push_within(out: &mut String, text: &str, limit: usize) -> Result<(), Full> {
    if out.len() + text.len() > limit {
        return Err(Full);
    }
    out.push_str(text);
    Ok(())
}

fn is_length(key: &Key) -> bool {
    &*key.name == "length"
}

/// `s[i]` in JavaScript: the character at UTF-16 index `i`.
fn utf16_unit(s: &str, i: usize) -> Option<&str> {
    let mut unit = 0;
    for (at, c) in s.char_indices() {
        let width = c.len_utf16();
        if i < unit + width {
            return Some(if width == 1 {
                s.get(at..at + c.len_utf8()).unwrap_or(REPLACEMENT)
            } else {
                REPLACEMENT
            });
        }
        unit += width;
    }
    None
}

/// `Array.prototype.join(',')`, which `String(array)` uses: nested arrays
/// are joined in place and null elements print empty. Iterative, so deeply
/// nested data cannot exhaust the stack.
fn write_joined(
    items: JsonArray<'_>,
    out: &mut String,
    escape: bool,
    limit: usize,
) -> Result<(), Full> {
    let mut stack = vec![(items.elements(), true)];
    while let Some((iter, first)) = stack.last_mut() {
        let Some(value) = iter.next() else {
            stack.pop();
            continue;
        };
        if !std::mem::replace(first, false) {
            push_within(out, ",", limit)?;
        }
        match Item::from(value) {
            Item::Array(inner) => stack.push((inner.elements(), true)),
            other => other.write_scalar(out, escape, limit)?,
        }
    }
    Ok(())
}
