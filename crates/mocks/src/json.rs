//! The JSON body matchers, as WireMock evaluates them: `equalToJson` (JsonUnit underneath:
//! numbers compared by value, `${json-unit.*}` placeholders) and `matchesJsonPath` (Jayway
//! JsonPath underneath: a definite path yields one value, any other a list).
//!
//! Expressions are evaluated with `serde_json_path` (RFC 9535, which Jayway's common
//! expressions are). An expression outside RFC 9535 (Jayway's `=~`, `.length()`) is refused
//! when the stub loads rather than evaluated differently.

use regex::Regex;
use serde_json::Value;
use serde_json_path::JsonPath;

use crate::StringMatch;

/// `equalToJson`.
#[derive(Debug, Clone)]
pub struct JsonEquality {
    pub expected: Value,
    pub ignore_array_order: bool,
    pub ignore_extra_elements: bool,
}

/// `matchesJsonPath`.
#[derive(Debug, Clone)]
pub struct JsonPathMatch {
    pub expression: String,
    pub path: JsonPath,
    /// Jayway's "definite" path: names and indexes only, so it yields one value.
    pub definite: bool,
    pub value: Option<Box<StringMatch>>,
}

impl JsonEquality {
    pub fn matches(&self, actual: Option<&str>) -> bool {
        let Some(Ok(actual)) = actual.map(serde_json::from_str::<Value>) else {
            return false;
        };
        self.equal(&self.expected, &actual)
    }

    fn equal(&self, expected: &Value, actual: &Value) -> bool {
        if let Value::String(text) = expected
            && let Some(placeholder) = text.strip_prefix("${json-unit.")
        {
            return placeholder_accepts(placeholder, actual);
        }
        match (expected, actual) {
            (Value::Number(a), Value::Number(b)) => same_number(a, b),
            (Value::Object(expected), Value::Object(actual)) => {
                (self.ignore_extra_elements || expected.len() == actual.len())
                    && expected
                        .iter()
                        .all(|(key, e)| actual.get(key).is_some_and(|a| self.equal(e, a)))
            }
            (Value::Array(expected), Value::Array(actual)) => self.arrays(expected, actual),
            _ => expected == actual,
        }
    }

    fn arrays(&self, expected: &[Value], actual: &[Value]) -> bool {
        let sizes_fit = if self.ignore_extra_elements {
            expected.len() <= actual.len()
        } else {
            expected.len() == actual.len()
        };
        if !sizes_fit {
            return false;
        }
        if !self.ignore_array_order {
            return expected.iter().zip(actual).all(|(e, a)| self.equal(e, a));
        }
        // Each expected item its own actual item: a small backtracking assignment.
        let mut used = vec![false; actual.len()];
        self.assign(expected, actual, &mut used)
    }

    fn assign(&self, expected: &[Value], actual: &[Value], used: &mut [bool]) -> bool {
        let Some((first, rest)) = expected.split_first() else {
            return true;
        };
        for i in 0..actual.len() {
            if !used[i] && self.equal(first, &actual[i]) {
                used[i] = true;
                if self.assign(rest, actual, used) {
                    return true;
                }
                used[i] = false;
            }
        }
        false
    }
}

/// JsonUnit's placeholders, after `${json-unit.`.
fn placeholder_accepts(placeholder: &str, actual: &Value) -> bool {
    match placeholder {
        "ignore}" => true,
        "any-string}" => actual.is_string(),
        "any-number}" => actual.is_number(),
        "any-boolean}" => actual.is_boolean(),
        _ => match (placeholder.strip_prefix("regex}"), actual) {
            (Some(pattern), Value::String(text)) => {
                Regex::new(&format!("^(?:{pattern})$")).is_ok_and(|regex| regex.is_match(text))
            }
            _ => false,
        },
    }
}

/// Numbers by value, as WireMock's comparator has them (`1` equals `1.0`).
fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i128(), b.as_i128()) {
        (Some(a), Some(b)) => a == b,
        _ => a.as_f64() == b.as_f64(),
    }
}

impl JsonPathMatch {
    /// Whether the body (`None`: absent) passes.
    pub fn matches(&self, body: Option<&str>) -> bool {
        let body = body.unwrap_or_default();
        // WireMock does not read a document that looks like XML.
        if body.trim_start().starts_with('<') {
            return false;
        }
        // A document that does not parse has nothing at any path (so `absent` passes).
        let document = serde_json::from_str::<Value>(body).ok();
        let found = match &document {
            Some(document) => self.path.query(document).all(),
            None => Vec::new(),
        };
        let Some(value) = &self.value else {
            return if self.definite {
                found.first().is_some_and(|v| !is_empty(v))
            } else {
                !found.is_empty()
            };
        };
        let texts: Vec<Option<String>> = if matches!(**value, StringMatch::EqualToJson(_)) {
            // The whole result as JSON: one value, or the list of them.
            let whole = if self.definite {
                found.first().map_or(Value::Null, |v| (*v).clone())
            } else {
                Value::Array(found.into_iter().cloned().collect())
            };
            vec![Some(whole.to_string())]
        } else if self.definite {
            match found.first() {
                Some(Value::Object(_)) => vec![Some(found[0].to_string())],
                Some(Value::Array(items)) => items.iter().map(|v| Some(java_string(v))).collect(),
                Some(Value::Null) | None => Vec::new(),
                Some(scalar) => vec![Some(java_string(scalar))],
            }
        } else {
            found.iter().map(|v| Some(java_string(v))).collect()
        };
        // Nothing found passes only `absent`.
        let texts = if texts.is_empty() && matches!(**value, StringMatch::Absent) {
            vec![None]
        } else {
            texts
        };
        value.best_of(texts.iter().map(Option::as_deref))
    }
}

/// What Jayway's result counts as empty: nothing, an empty list or object.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// A JSON value as Java's `toString` writes what Jayway returns for it: strings bare,
/// numbers as Java's `Integer` or `Double`, containers as JSON.
fn java_string(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
        Value::Number(n) => java_double(n.as_f64().unwrap_or_default()),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

/// Java's `Double.toString`: plain with at least one decimal between 10^-3 and 10^7,
/// scientific (`1.0E10`) outside.
fn java_double(x: f64) -> String {
    let magnitude = x.abs();
    if x == 0.0 || (1e-3..1e7).contains(&magnitude) {
        let text = format!("{x}");
        if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        }
    } else {
        let text = format!("{x:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        format!("{mantissa}E{exponent}")
    }
}

/// Whether Jayway takes `expression` as definite: only names and single indexes, no
/// wildcard, deep scan, filter, slice or union.
pub(crate) fn is_definite(expression: &str) -> bool {
    let mut quote = None;
    let mut previous = '\0';
    for c in expression.chars() {
        match quote {
            Some(q) if c == q && previous != '\\' => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '*' | '?' | ',' | ':' => return false,
                '.' if previous == '.' => return false,
                _ => {}
            },
        }
        previous = c;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_doubles() {
        for (x, java) in [
            (1.5, "1.5"),
            (100.0, "100.0"),
            (0.001, "0.001"),
            (1e7, "1.0E7"),
            (1.25e-5, "1.25E-5"),
            (0.0, "0.0"),
        ] {
            assert_eq!(java_double(x), java, "{x}");
        }
    }

    #[test]
    fn definite_paths() {
        for (path, definite) in [
            ("$.a.b", true),
            ("$['a'][0]", true),
            ("$['a:b']", true),
            ("$.a[*]", false),
            ("$..a", false),
            ("$.a[?(@.b)]", false),
            ("$.a[0,1]", false),
            ("$.a[0:2]", false),
        ] {
            assert_eq!(is_definite(path), definite, "{path}");
        }
    }
}
