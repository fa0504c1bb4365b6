//! The matchers of a request's fields: string matchers (nested with `and`, `or`, `not`),
//! the multi-value forms of headers and query parameters, and URL path templates.

use regex::Regex;
use serde_json::{Map, Value};

use super::Parser;
use crate::json::{self, JsonEquality, JsonPathMatch};
use crate::{PathTemplate, StringMatch, ValuesMatch};

/// The keys that make a string matcher, each with the keys allowed beside it.
const OPERATORS: [(&str, &[&str]); 10] = [
    ("equalTo", &["caseInsensitive"]),
    ("contains", &[]),
    ("matches", &[]),
    ("doesNotMatch", &[]),
    ("absent", &[]),
    ("and", &[]),
    ("or", &[]),
    ("not", &[]),
    ("equalToJson", &["ignoreArrayOrder", "ignoreExtraElements"]),
    ("matchesJsonPath", &[]),
];

impl Parser<'_> {
    /// A header's or query parameter's matcher: one string matcher, or `hasExactly` or
    /// `includes` with a list of them.
    pub(super) fn values_match(&mut self, pointer: &str, value: &Value) -> Option<ValuesMatch> {
        for (key, make) in [
            (
                "hasExactly",
                ValuesMatch::HasExactly as fn(Vec<StringMatch>) -> ValuesMatch,
            ),
            ("includes", ValuesMatch::Includes),
        ] {
            let Some(list) = value.get(key) else {
                continue;
            };
            let at = format!("{pointer}/{key}");
            if let Value::Object(map) = value
                && map.len() > 1
            {
                self.error(pointer, format!("`{key}` takes no other key beside it"));
                return None;
            }
            let Value::Array(items) = list else {
                self.error(&at, "must be an array of matchers".into());
                return None;
            };
            return self.matchers(&at, items).map(make);
        }
        self.string_match(pointer, value).map(ValuesMatch::Any)
    }

    /// One string matcher.
    pub(super) fn string_match(&mut self, pointer: &str, value: &Value) -> Option<StringMatch> {
        let Value::Object(map) = value else {
            self.error(pointer, "must be an object (a matcher)".into());
            return None;
        };
        let Some((operator, extras)) = OPERATORS.iter().find(|(key, _)| map.contains_key(*key))
        else {
            // A WireMock matcher siteops lacks (`equalToXml`) or a mistyped one (`equalto`)
            // is said at its key; a matcher with no operator at all, as such.
            let known: Vec<&str> = OPERATORS
                .iter()
                .flat_map(|(key, extras)| std::iter::once(*key).chain(extras.iter().copied()))
                .collect();
            let before = self.errors.len();
            self.object(pointer, value, &known);
            if self.errors.len() == before {
                let names: Vec<&str> = OPERATORS.iter().map(|(key, _)| *key).collect();
                self.error(pointer, format!("needs one of {}", names.join(", ")));
            }
            return None;
        };
        let mut known = vec![*operator];
        known.extend_from_slice(extras);
        self.object(pointer, value, &known)?;
        let at = format!("{pointer}/{operator}");
        let operand = &map[*operator];
        match *operator {
            "equalTo" => Some(StringMatch::EqualTo {
                value: self.text(&at, operand)?,
                case_insensitive: self.flag(pointer, map, "caseInsensitive")?,
            }),
            "contains" => Some(StringMatch::Contains(self.text(&at, operand)?)),
            "matches" => {
                let text = self.text(&at, operand)?;
                self.regex(&at, &text).map(StringMatch::Matches)
            }
            "doesNotMatch" => {
                let text = self.text(&at, operand)?;
                self.regex(&at, &text).map(StringMatch::DoesNotMatch)
            }
            "absent" => match operand {
                Value::Bool(true) => Some(StringMatch::Absent),
                _ => {
                    self.error(&at, "must be true".into());
                    None
                }
            },
            "and" | "or" => {
                let Some(items) = operand.as_array().filter(|items| items.len() >= 2) else {
                    self.error(&at, "must be an array of at least two matchers".into());
                    return None;
                };
                let matchers = self.matchers(&at, items)?;
                Some(if *operator == "and" {
                    StringMatch::And(matchers)
                } else {
                    StringMatch::Or(matchers)
                })
            }
            "not" => self
                .string_match(&at, operand)
                .map(|inner| StringMatch::Not(Box::new(inner))),
            "equalToJson" => {
                let expected = match operand {
                    Value::String(text) => match serde_json::from_str(text) {
                        Ok(expected) => expected,
                        Err(error) => {
                            self.error(&at, format!("not JSON: {error}"));
                            return None;
                        }
                    },
                    other => other.clone(),
                };
                Some(StringMatch::EqualToJson(JsonEquality {
                    expected,
                    ignore_array_order: self.flag(pointer, map, "ignoreArrayOrder")?,
                    ignore_extra_elements: self.flag(pointer, map, "ignoreExtraElements")?,
                }))
            }
            _ => self.json_path(&at, operand),
        }
    }

    /// A list of string matchers, all of them or `None` (each problem reported).
    fn matchers(&mut self, pointer: &str, items: &[Value]) -> Option<Vec<StringMatch>> {
        let matchers: Vec<StringMatch> = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| self.string_match(&format!("{pointer}/{i}"), item))
            .collect();
        (matchers.len() == items.len()).then_some(matchers)
    }

    /// `matchesJsonPath`: an expression, or `{"expression": ..., <a matcher>}`.
    fn json_path(&mut self, pointer: &str, value: &Value) -> Option<StringMatch> {
        let (expression, matcher) = match value {
            Value::String(expression) => (expression.clone(), None),
            Value::Object(map) => {
                let Some(expression) = map.get("expression").and_then(Value::as_str) else {
                    self.error(pointer, "needs `expression`, a JSON path".into());
                    return None;
                };
                let mut rest = map.clone();
                rest.remove("expression");
                let matcher = self.string_match(pointer, &Value::Object(rest))?;
                (expression.to_string(), Some(Box::new(matcher)))
            }
            _ => {
                self.error(
                    pointer,
                    "must be a JSON path or an object with `expression`".into(),
                );
                return None;
            }
        };
        match serde_json_path::JsonPath::parse(&expression) {
            Ok(path) => Some(StringMatch::MatchesJsonPath(JsonPathMatch {
                definite: json::is_definite(&expression),
                expression,
                path,
                value: matcher,
            })),
            Err(error) => {
                self.error(
                    pointer,
                    format!("siteops cannot evaluate the JSON path {expression:?} (it takes RFC 9535 paths): {error}"),
                );
                None
            }
        }
    }

    fn text(&mut self, pointer: &str, value: &Value) -> Option<String> {
        match value {
            Value::String(text) => Some(text.clone()),
            _ => {
                self.error(pointer, "must be a string".into());
                None
            }
        }
    }

    /// An optional boolean option beside a matcher's operator.
    fn flag(&mut self, pointer: &str, map: &Map<String, Value>, key: &str) -> Option<bool> {
        match map.get(key) {
            None => Some(false),
            Some(Value::Bool(flag)) => Some(*flag),
            Some(_) => {
                self.error(&format!("{pointer}/{key}"), "must be true or false".into());
                None
            }
        }
    }

    /// A `urlPathTemplate`, as WireMock compiles it: `{name}` one path segment, `**` any
    /// text, the rest literal.
    pub(super) fn path_template(&mut self, pointer: &str, template: &str) -> Option<PathTemplate> {
        let special = Regex::new(r"\{([^}]+)\}|\*\*").expect("a valid regex");
        let mut pattern = String::from("^");
        let mut variables = Vec::new();
        let mut wildcards = 0;
        let mut last = 0;
        for found in special.captures_iter(template) {
            let whole = found.get(0).expect("the whole match");
            pattern.push_str(&regex::escape(&template[last..whole.start()]));
            match found.get(1) {
                Some(name) => {
                    pattern.push_str("([^/]+)");
                    variables.push(name.as_str().replace(['.', ';', '*'], ""));
                }
                None => {
                    pattern.push_str("(.*?)");
                    variables.push(wildcards.to_string());
                    wildcards += 1;
                }
            }
            last = whole.end();
        }
        pattern.push_str(&regex::escape(&template[last..]));
        pattern.push('$');
        match Regex::new(&pattern) {
            Ok(regex) => Some(PathTemplate {
                template: template.to_string(),
                regex,
                variables,
            }),
            Err(error) => {
                self.error(pointer, format!("invalid template: {error}"));
                None
            }
        }
    }

    /// A regex matching whole values, as Java's `String.matches` in WireMock.
    pub(super) fn regex(&mut self, pointer: &str, pattern: &str) -> Option<Regex> {
        match Regex::new(&format!("^(?:{pattern})$")) {
            Ok(regex) => Some(regex),
            Err(error) => {
                self.error(pointer, format!("invalid regex: {}", regex_problem(&error)));
                None
            }
        }
    }
}

/// The one line of a regex error that says what is wrong: the full text quotes the
/// pattern as wrapped here (`^(?:…)$`), which is not what the file holds.
fn regex_problem(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .unwrap_or(&text)
        .to_string()
}
