//! JSON written as JavaScript's `JSON.stringify` writes a value that `JSON.parse` read:
//! the byte-level shape of the platform's sheet answers.
//!
//! Three things differ from serde_json's output and matter to a client comparing bytes:
//! a JavaScript object lists its array-index keys (`"0"`, `"2024"`) first, ascending,
//! then the other keys in the order they were first written, and a repeated key keeps
//! its first place with its last value; numbers print as JavaScript prints them (`1.0`
//! as `1`, `1e21` as `1e+21`); and control characters escape as `\u001f`, lower case.

use std::collections::HashMap;

pub(crate) use siteops_template::json::write_js_string as write_string;
use siteops_template::json::{JsonObject, JsonRef, Kind};
use siteops_template::number::write_js_number;

/// Nesting deeper than this is refused rather than risking the stack (the parser refuses
/// far shallower documents already; this is the writer's own guard).
const MAX_DEPTH: usize = 2048;

/// A value nested too deeply to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("JSON nested too deeply")]
pub(crate) struct TooDeep;

/// Appends `JSON.stringify(value)` (no indentation) to `out`.
pub(crate) fn write_compact(value: JsonRef<'_>, out: &mut String) -> Result<(), TooDeep> {
    write_value(value, None, 0, out)
}

/// Appends `JSON.stringify(value, null, 2)` to `out`.
pub(crate) fn write_pretty(value: JsonRef<'_>, out: &mut String) -> Result<(), TooDeep> {
    write_value(value, Some("  "), 0, out)
}

fn write_value(
    value: JsonRef<'_>,
    indent: Option<&str>,
    depth: usize,
    out: &mut String,
) -> Result<(), TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    match value.kind() {
        Kind::Null => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Kind::Number(n) => write_number(n, out),
        Kind::Str(s) => write_string(s, out),
        Kind::Array(array) => {
            if array.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            for (i, element) in array.elements().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(indent, depth + 1, out);
                write_value(element, indent, depth + 1, out)?;
            }
            newline(indent, depth, out);
            out.push(']');
        }
        Kind::Object(object) => {
            let entries = object_entries(object);
            if entries.is_empty() {
                out.push_str("{}");
                return Ok(());
            }
            out.push('{');
            for (i, (key, member)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(indent, depth + 1, out);
                write_string(key, out);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_value(member, indent, depth + 1, out)?;
            }
            newline(indent, depth, out);
            out.push('}');
        }
    }
    Ok(())
}

fn newline(indent: Option<&str>, depth: usize, out: &mut String) {
    if let Some(unit) = indent {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(unit);
        }
    }
}

/// A number as `JSON.stringify` writes it: JavaScript's form, `null` when not finite.
pub(crate) fn write_number(n: f64, out: &mut String) {
    if n.is_finite() {
        write_js_number(n, out);
    } else {
        out.push_str("null");
    }
}

/// An object's members in JavaScript's property order: each key once (at its first
/// place, with its last value), array-index keys first and ascending.
pub(crate) fn object_entries<'d>(object: JsonObject<'d>) -> Vec<(&'d str, JsonRef<'d>)> {
    let mut entries: Vec<(&'d str, JsonRef<'d>)> = Vec::with_capacity(object.len());
    let mut seen: HashMap<&'d str, usize> = HashMap::new();
    for (key, value) in object.entries() {
        match seen.get(key) {
            Some(&at) => entries[at].1 = value,
            None => {
                seen.insert(key, entries.len());
                entries.push((key, value));
            }
        }
    }
    js_property_order(&mut entries, |(key, _)| key);
    entries
}

/// Sorts `items` as JavaScript orders an object's keys: array indices (canonical
/// decimal integers below 2^32 - 1) first, ascending, then the rest as they were.
pub(crate) fn js_property_order<T>(items: &mut [T], key: impl Fn(&T) -> &str) {
    // A stable sort keeps the insertion order of the non-index keys.
    items.sort_by_key(|item| array_index(key(item)).map_or(u64::MAX, u64::from));
}

/// `key` as an array index, when JavaScript treats it as one.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    u32::try_from(n).ok().filter(|&n| n != u32::MAX)
}

/// JavaScript's `String(value)` of a JSON value (`null` is `"null"`; in an array, empty).
pub(crate) fn js_string(value: JsonRef<'_>) -> String {
    match value.kind() {
        Kind::Null => "null".to_owned(),
        Kind::Bool(b) => b.to_string(),
        Kind::Number(n) => {
            let mut out = String::new();
            siteops_template::number::write_js_number(n, &mut out);
            out
        }
        Kind::Str(s) => s.to_owned(),
        Kind::Array(array) => array
            .elements()
            .map(|e| match e.kind() {
                Kind::Null => String::new(),
                _ => js_string(e),
            })
            .collect::<Vec<_>>()
            .join(","),
        Kind::Object(_) => "[object Object]".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use siteops_template::json::Json;

    use super::*;

    fn compact(text: &str) -> String {
        let mut buffer = Vec::new();
        let json = Json::parse(text.as_bytes(), &mut buffer).unwrap();
        let mut out = String::new();
        write_compact(json.root(), &mut out).unwrap();
        out
    }

    #[test]
    fn keys_follow_javascript_property_order() {
        // node -e 'console.log(JSON.stringify(JSON.parse(process.argv[1])))' '...'
        assert_eq!(
            compact(r#"{"b":1,"10":2,"a":3,"2":4,"01":5,"b":6,"4294967295":7}"#),
            r#"{"2":4,"10":2,"b":6,"a":3,"01":5,"4294967295":7}"#
        );
    }

    #[test]
    fn numbers_and_strings_print_as_javascript_prints_them() {
        assert_eq!(
            compact(r#"[1.0, 1e21, 0.5, -0, 12345678901234567890, "a\u001fb\"\\\n\u00e9\u2028"]"#),
            "[1,1e+21,0.5,0,12345678901234567000,\"a\\u001fb\\\"\\\\\\n\u{e9}\u{2028}\"]"
        );
    }

    #[test]
    fn pretty_printing_indents_by_two() {
        let mut buffer = Vec::new();
        let json = Json::parse(br#"{"a":[1,{}],"b":{"c":[]}}"#, &mut buffer).unwrap();
        let mut out = String::new();
        write_pretty(json.root(), &mut out).unwrap();
        assert_eq!(
            out,
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": {\n    \"c\": []\n  }\n}"
        );
    }
}
