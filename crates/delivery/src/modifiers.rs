//! Path-keyed modifiers (`utils/modifiers.js`): the configuration's `headers` and
//! `metadata` maps, and metadata sheets, as globs or exact paths with key/value rows; what
//! applies to a path is every matching entry's rows, in order, later keys replacing
//! earlier ones. The preview host uses this too, so it is public.
//!
//! Bounded whatever the configuration says: each glob is compiled once, by the linear-time
//! `regex` crate with a size cap, and a glob that does not compile never matches (as the
//! pipeline's `globToRegExp` gives `null` for an invalid one).

use regex::{Regex, RegexBuilder};
use serde_json::Value;

use crate::config::{KeyValue, ModifierMap};

/// The largest compiled glob: far beyond any real path pattern, small enough that no
/// configuration can make one cost much memory.
const GLOB_SIZE_LIMIT: usize = 1 << 16;
/// The longest glob compiled; longer ones never match.
const MAX_GLOB_LEN: usize = 1024;

/// How an entry matches a path.
#[derive(Debug, Clone)]
enum Pattern {
    Exact(String),
    Glob(Regex),
    /// A glob that did not compile: it matches nothing.
    Never,
}

impl Pattern {
    fn new(url: &str) -> Pattern {
        if url.contains('*') {
            glob_to_regex(url).map_or(Pattern::Never, Pattern::Glob)
        } else {
            Pattern::Exact(url.to_owned())
        }
    }

    fn matches(&self, path: &str) -> bool {
        match self {
            Pattern::Exact(exact) => exact == path,
            Pattern::Glob(re) => re.is_match(path),
            Pattern::Never => false,
        }
    }
}

/// `globToRegExp`: `**` is any text, `*` a run of `[0-9a-z-.]`, and everything else is
/// read as regular-expression syntax, as the pipeline does (so `.` is any character).
/// Differs from JavaScript only where the `regex` crate's syntax does (a lone `{` is an
/// error here, a literal there); such a glob never matches. `None` when it does not compile.
pub fn glob_to_regex(glob: &str) -> Option<Regex> {
    if glob.len() > MAX_GLOB_LEN {
        return None;
    }
    let pattern = glob
        .replace("**", "|")
        .replace('*', r"[0-9a-z\-.]*")
        .replace('|', ".*");
    RegexBuilder::new(&format!("^(?:{pattern})$"))
        .size_limit(GLOB_SIZE_LIMIT)
        .dfa_size_limit(GLOB_SIZE_LIMIT)
        .build()
        .ok()
}

/// `toMetaName`: every character but `[0-9a-zA-Z:_-]` becomes `-` (one per UTF-16 code
/// unit, as JavaScript counts them), lower case; an `hreflang-` or `hreflang:` prefix
/// becomes `hreflang:` and keeps the language tag's case.
pub fn to_meta_name(text: &str) -> String {
    let mut name = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-') {
            name.push(c);
        } else {
            name.extend(std::iter::repeat_n('-', c.len_utf16()));
        }
    }
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("hreflang-") || lower.starts_with("hreflang:") {
        return format!("hreflang:{}", &name[9..]);
    }
    lower
}

/// A modifiers map, its patterns compiled.
#[derive(Debug, Clone, Default)]
pub struct Modifiers {
    entries: Vec<(Pattern, Vec<KeyValue>)>,
}

impl Modifiers {
    /// From a configuration map (`headers`, `metadata.<partition>.data`), in its order.
    pub fn new(map: &ModifierMap) -> Modifiers {
        Modifiers {
            entries: map
                .iter()
                .map(|(url, rows)| (Pattern::new(url), rows.clone()))
                .collect(),
        }
    }

    /// `fromModifierSheet`: a sheet's rows (`URL`, then `Key` and `Value`, or one column
    /// per key), column names in any case. A row without a URL is skipped; one with both a
    /// key and a value gives that pair, else each other non-empty column gives one.
    /// Entries are grouped by URL in the order each URL first appears.
    pub fn from_sheet(rows: &[Value]) -> Modifiers {
        let mut grouped: Vec<(String, Vec<KeyValue>)> = Vec::new();
        for row in rows {
            let Some(row) = row.as_object() else {
                continue;
            };
            // `toLowerKeys`: a later column with the same lower-case name replaces an
            // earlier one's value, keeping the first position.
            let mut lowered: Vec<(String, &Value)> = Vec::with_capacity(row.len());
            for (key, value) in row {
                let key = js_lower(key);
                match lowered.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = value,
                    None => lowered.push((key, value)),
                }
            }
            let cell = |name: &str| lowered.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
            let Some(url) = cell("url").filter(|v| truthy(v)).map(js_string) else {
                continue;
            };
            let mut pairs = Vec::new();
            let (key, value) = (cell("key"), cell("value"));
            if let (Some(key), Some(value)) = (key, value)
                && truthy(key)
                && truthy(value)
            {
                pairs.push(KeyValue {
                    key: js_string(key),
                    value: js_string(value),
                });
            } else {
                for (name, value) in &lowered {
                    if matches!(name.as_str(), "url" | "key" | "value") {
                        continue;
                    }
                    if !name.is_empty() && truthy(value) {
                        pairs.push(KeyValue {
                            key: name.clone(),
                            value: js_string(value),
                        });
                    }
                }
            }
            if pairs.is_empty() {
                continue;
            }
            match grouped.iter_mut().find(|(u, _)| *u == url) {
                Some(entry) => entry.1.extend(pairs),
                None => grouped.push((url, pairs)),
            }
        }
        Modifiers::new(&js_object_order(grouped))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `getModifiers(path)`: every matching entry's rows, keys as meta names; a later key
    /// replaces the value of an earlier one and keeps its place (a JavaScript object's
    /// order, integer-like keys first).
    pub fn get(&self, path: &str) -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> = Vec::new();
        for (pattern, rows) in &self.entries {
            if !pattern.matches(path) {
                continue;
            }
            for KeyValue { key, value } in rows {
                let name = to_meta_name(key);
                match found.iter_mut().find(|(n, _)| *n == name) {
                    Some(entry) => entry.1 = value.clone(),
                    None => found.push((name, value.clone())),
                }
            }
        }
        js_object_order(found)
    }
}

/// Keys in the order a JavaScript object enumerates them: array indices (canonical
/// integers below 2³² − 1) first, ascending, then the others as inserted.
pub(crate) fn js_object_order<V>(entries: Vec<(String, V)>) -> Vec<(String, V)> {
    let index = |k: &str| -> Option<u32> {
        let n: u32 = k.parse().ok()?;
        (n != u32::MAX && n.to_string() == k).then_some(n)
    };
    let (mut indices, others): (Vec<_>, Vec<_>) =
        entries.into_iter().partition(|(k, _)| index(k).is_some());
    indices.sort_by_key(|(k, _)| index(k));
    indices.extend(others);
    indices
}

/// `String.prototype.toLowerCase` for the ASCII range, and Unicode's lower case beyond.
fn js_lower(text: &str) -> String {
    text.to_lowercase()
}

/// A cell's truth as JavaScript sees it (sheet cells are strings, but JSON allows more).
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// A cell as the string JavaScript would make of it where the pipeline uses it as one.
fn js_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(entries: &[(&str, &[(&str, &str)])]) -> ModifierMap {
        entries
            .iter()
            .map(|(url, rows)| {
                let rows = rows
                    .iter()
                    .map(|(k, v)| KeyValue {
                        key: (*k).into(),
                        value: (*v).into(),
                    })
                    .collect();
                ((*url).to_owned(), rows)
            })
            .collect()
    }

    #[test]
    fn globs_as_the_pipeline_reads_them() {
        let re = glob_to_regex("/blog/**").unwrap();
        assert!(re.is_match("/blog/a/b"));
        assert!(!re.is_match("/blogs"));
        let one = glob_to_regex("/news/*").unwrap();
        assert!(one.is_match("/news/a-b.c"));
        assert!(!one.is_match("/news/a/b"));
        assert!(!one.is_match("/news/Upper"));
        assert!(glob_to_regex("/a{*").is_none());
        assert!(glob_to_regex(&format!("/{}*", "a".repeat(2000))).is_none());
    }

    #[test]
    fn later_matches_replace_values_in_place() {
        let modifiers = Modifiers::new(&map(&[
            ("/news/**", &[("Category", "news"), ("locale", "en-US")]),
            ("/**", &[("title", "ACME"), ("locale", "de")]),
            ("/exact", &[("x", "1")]),
            ("/bad{*", &[("never", "1")]),
        ]));
        assert_eq!(
            modifiers.get("/news/a"),
            [
                ("category".into(), "news".into()),
                ("locale".into(), "de".into()),
                ("title".into(), "ACME".into())
            ]
        );
        assert_eq!(modifiers.get("/exact").last().unwrap().0, "x");
        assert_eq!(modifiers.get("/exact/").len(), 2);
    }

    #[test]
    fn meta_names() {
        assert_eq!(to_meta_name("Og Title!"), "og-title-");
        assert_eq!(to_meta_name("hreflang-en-US"), "hreflang:en-US");
        assert_eq!(to_meta_name("HrefLang:de-CH"), "hreflang:de-CH");
        assert_eq!(to_meta_name("a😀"), "a--");
    }

    #[test]
    fn sheets_by_key_and_value_or_by_column() {
        let rows = [
            json!({"URL": "/**", "Key": "a", "Value": "1"}),
            json!({"URL": "/f", "Key": "", "Value": "", "Title": "Hero", "Description": ""}),
            json!({"URL": "", "Key": "b", "Value": "2"}),
            json!({"URL": "/**", "Key": "c", "Value": "3"}),
        ];
        let modifiers = Modifiers::from_sheet(&rows);
        assert_eq!(
            modifiers.get("/f"),
            [
                ("a".into(), "1".into()),
                ("c".into(), "3".into()),
                ("title".into(), "Hero".into())
            ]
        );
        assert!(Modifiers::from_sheet(&[]).is_empty());
    }

    #[test]
    fn integer_keys_come_first() {
        let modifiers = Modifiers::new(&map(&[("/**", &[("b", "1"), ("10", "x"), ("2", "y")])]));
        let names: Vec<String> = modifiers.get("/").into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["2", "10", "b"]);
    }
}
