//! The bodies of the `mustache` and `json_reader` fuzz targets (`fuzz/`), shared with the
//! replay of their corpora in the tests, so that the stable test suite checks every
//! committed input. Not an interface: hidden from the docs, may change with the targets.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::json::{Json, JsonRef, Kind};
use crate::number::write_js_number;
use crate::{NoPartials, Template};

/// The input split at NUL bytes.
fn sections(data: &[u8]) -> Vec<String> {
    data.split(|&b| b == 0)
        .map(|part| String::from_utf8_lossy(part).into_owned())
        .collect()
}

/// `template \0 data \0 name \0 partial \0 name \0 partial …`: the template compiled and
/// rendered over the data (JSON; `null` where it does not parse) with those partials.
/// Properties:
/// - nothing panics; compiling and rendering fail only with an error;
/// - rendering is deterministic, and `render_to` appends exactly what `render` returns;
/// - a template without `{{` renders as itself.
///
/// Mustache has no bound on its output (a section over a list inside a section over the
/// same list, partials including themselves twice): the target skips inputs whose
/// estimated output is above [`MAX_WORK`], as those only measure the machine.
pub fn mustache(data: &[u8]) {
    let parts = sections(data);
    let template_text = parts.first().map(String::as_str).unwrap_or("");
    let data_text = parts.get(1).map(String::as_str).unwrap_or("null");
    let partials: BTreeMap<String, String> = parts
        .get(2..)
        .unwrap_or(&[])
        .chunks(2)
        .map(|pair| (pair[0].clone(), pair.get(1).cloned().unwrap_or_default()))
        .collect();
    let mut buffer = Vec::new();
    let json = Json::parse(data_text.as_bytes(), &mut buffer).unwrap_or_else(|_| Json::null());
    let root = json.root();
    if estimated_work(template_text, &partials, root) > MAX_WORK {
        return;
    }
    let Ok(template) = Template::compile(template_text) else {
        return;
    };
    let first = template.render(root, &partials);
    let second = template.render(root, &partials);
    assert_eq!(first, second, "rendering is deterministic");
    let mut out = String::from("prefix");
    let appended = template.render_to(root, &partials, &mut out);
    match (&first, appended) {
        (Ok(text), Ok(())) => assert_eq!(&out["prefix".len()..], text),
        (Err(_), Err(_)) => assert_eq!(out, "prefix", "a failed render leaves `out` as it was"),
        (first, appended) => panic!("render gave {first:?}, render_to {appended:?}"),
    }
    if !template_text.contains("{{") {
        assert_eq!(
            template.render(root, &NoPartials).as_deref(),
            Ok(template_text)
        );
    }
}

/// The largest estimated output (bytes) a `mustache` input may have.
pub const MAX_WORK: u128 = 20_000_000;

/// An upper bound on the output: the texts' length, times the longest list to the power
/// of the number of tags that may open a section; partials that include partials count
/// as the largest nesting the renderer allows.
fn estimated_work(template: &str, partials: &BTreeMap<String, String>, data: JsonRef<'_>) -> u128 {
    let texts = std::iter::once(template).chain(partials.values().map(String::as_str));
    let mut sections: u32 = 0;
    let mut partial_tags: u32 = 0;
    let mut length: u128 = 0;
    for text in texts {
        length += text.len() as u128 + 1;
        if text.contains('=') {
            // Delimiters may change: any `#`, `^`, `>` may open a section or a partial.
            let openers = text
                .bytes()
                .filter(|b| matches!(b, b'#' | b'^' | b'>' | b'<' | b'$'));
            sections = sections.saturating_add(openers.count() as u32);
            partial_tags = partial_tags.saturating_add(text.matches(['>', '<']).count() as u32);
        } else {
            for opener in ["{{#", "{{^", "{{>", "{{<", "{{$", "{{ #", "{{ ^", "{{ >"] {
                sections = sections.saturating_add(text.matches(opener).count() as u32);
            }
            partial_tags = partial_tags.saturating_add(
                (text.matches("{{>").count() + text.matches("{{ >").count()) as u32,
            );
        }
    }
    let recursive = partials.values().any(|text| text.contains('>'));
    if recursive && partial_tags >= 2 {
        return u128::MAX;
    }
    if recursive {
        sections = sections.saturating_mul(100);
    }
    let widest = widest_list(data).max(1) as u128;
    let data_len = data.node_count() as u128 * 64;
    let mut work = length + data_len;
    for _ in 0..sections {
        work = work.saturating_mul(widest);
        if work == u128::MAX {
            break;
        }
    }
    work.saturating_mul(2)
}

/// The most elements (or, for a string, characters) a value anywhere in `data` holds.
fn widest_list(data: JsonRef<'_>) -> usize {
    match data.kind() {
        Kind::Array(array) => array
            .elements()
            .map(widest_list)
            .max()
            .unwrap_or(0)
            .max(array.len()),
        Kind::Object(object) => object
            .entries()
            .map(|(_, value)| widest_list(value))
            .max()
            .unwrap_or(0)
            .max(object.len()),
        Kind::Str(s) => s.len().min(1),
        _ => 0,
    }
}

/// Any bytes as a JSON document. Properties:
/// - nothing panics; `parse` and `parse_in_place` agree;
/// - the reader accepts exactly what serde_json accepts (but for nesting deeper than
///   serde_json's limit of 128 or simd-json's), and reads the same values, numbers
///   compared as JavaScript does (as doubles);
/// - `to_value`, written and read again, gives the same value;
/// - the views (`get`, `elements`, `entries`) agree with `to_value`;
/// - every number prints (as JavaScript prints it) to text that reads back as the same
///   double.
pub fn json_reader(data: &[u8]) {
    let mut buffer = Vec::new();
    let parsed = Json::parse(data, &mut buffer);
    let mut in_place = data.to_vec();
    let parsed_in_place = Json::parse_in_place(&mut in_place);
    assert_eq!(
        parsed.is_ok(),
        parsed_in_place.is_ok(),
        "parse and parse_in_place"
    );
    let reference = serde_json::from_slice::<Value>(data);
    let json = match (parsed, &reference) {
        (Ok(json), Ok(_)) => json,
        (Ok(json), Err(error)) => {
            assert!(
                error.to_string().contains("recursion limit"),
                "the reader accepts what serde_json refuses: {error}"
            );
            json
        }
        (Err(error), Ok(_)) => {
            assert!(
                error.message.contains("nested too deeply"),
                "the reader refuses what serde_json accepts: {error}"
            );
            return;
        }
        (Err(_), Err(_)) => return,
    };
    let root = json.root();
    let value = root.to_value();
    if let Ok(expected) = &reference {
        assert!(
            same(&value, expected),
            "read {value} but serde_json read {expected}"
        );
    }
    let in_place_value = parsed_in_place.expect("parsed in place").root().to_value();
    assert!(same(&value, &in_place_value));
    let text = serde_json::to_vec(&value).expect("a value writes");
    let mut again_buffer = Vec::new();
    if let Ok(again) = Json::parse(&text, &mut again_buffer) {
        assert!(
            same(&again.root().to_value(), &value),
            "round trip of {value}"
        );
    }
    check_views(root, &value);
}

/// Whether two values are equal, numbers compared as doubles (as JavaScript has them).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(k, x)| ys.get(k).is_some_and(|y| same(x, y)))
        }
        _ => a == b,
    }
}

fn check_views(node: JsonRef<'_>, value: &Value) {
    match (node.kind(), value) {
        (Kind::Null, Value::Null) => {}
        (Kind::Bool(b), Value::Bool(c)) => assert_eq!(b, *c),
        (Kind::Number(n), Value::Number(m)) => {
            assert_eq!(Some(n), m.as_f64());
            let mut printed = String::new();
            write_js_number(n, &mut printed);
            let back: f64 = printed.parse().expect("a printed number reads back");
            assert_eq!(back, n, "{n} printed as {printed}");
        }
        (Kind::Str(s), Value::String(t)) => assert_eq!(s, t),
        (Kind::Array(array), Value::Array(items)) => {
            assert_eq!(array.len(), items.len());
            for (i, (element, item)) in array.elements().zip(items).enumerate() {
                assert!(array.get(i).is_some());
                check_views(element, item);
            }
            assert!(array.get(items.len()).is_none());
        }
        (Kind::Object(object), Value::Object(map)) => {
            for (key, _) in object.entries() {
                let key = key.to_string();
                let found = object.get(&key).expect("an entry's key is found");
                check_views(found, &map[&key]);
            }
        }
        (kind, value) => panic!("the view reads {kind:?}, the value is {value}"),
    }
}
