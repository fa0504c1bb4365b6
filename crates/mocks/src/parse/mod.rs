//! Stub mapping files to [`Stub`]s, strictly: a key siteops does not implement is an error,
//! so a mock never behaves differently here than in WireMock without saying so.

mod matchers;
mod response;

use serde_json::{Map, Value};

use super::{MockFile, RequestPattern, ScenarioStep, Stub, UrlMatch};

/// A problem in a mapping file: the file, where in it (a JSON pointer), and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {pointer}: {message}")]
pub struct MockError {
    pub file: String,
    pub pointer: String,
    pub message: String,
}

pub(super) fn stubs(label: &str, files: &[MockFile]) -> Result<Vec<Stub>, Vec<MockError>> {
    let mut stubs = Vec::new();
    let mut errors = Vec::new();
    let mut mappings: Vec<&MockFile> = files
        .iter()
        .filter(|f| f.path.starts_with("mappings/") && f.path.ends_with(".json"))
        .collect();
    mappings.sort_by(|a, b| a.path.cmp(&b.path));
    for file in mappings {
        let name = format!("{}/{}", label.trim_end_matches('/'), file.path);
        let mut parser = Parser {
            file: &name,
            files,
            errors: &mut errors,
        };
        let document: Value = match serde_json::from_slice(&file.content) {
            Ok(value) => value,
            Err(error) => {
                parser.error(
                    "",
                    format!(
                        "not JSON: {error} (line {}, column {})",
                        error.line(),
                        error.column()
                    ),
                );
                continue;
            }
        };
        let stem = file
            .path
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".json");
        let list: Vec<(String, &Value)> = match &document {
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("/{i}"), v))
                .collect(),
            Value::Object(map) if map.contains_key("mappings") => match &map["mappings"] {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (format!("/mappings/{i}"), v))
                    .collect(),
                _ => {
                    parser.error("/mappings", "must be an array of stubs".into());
                    continue;
                }
            },
            other => vec![(String::new(), other)],
        };
        let single = list.len() == 1;
        for (index, (pointer, value)) in list.into_iter().enumerate() {
            let fallback = if single {
                stem.to_string()
            } else {
                format!("{stem}#{index}")
            };
            if let Some(stub) = parser.stub(&pointer, value, fallback) {
                stubs.push(stub);
            }
        }
    }
    if errors.is_empty() {
        Ok(stubs)
    } else {
        Err(errors)
    }
}

struct Parser<'a> {
    file: &'a str,
    files: &'a [MockFile],
    errors: &'a mut Vec<MockError>,
}

impl Parser<'_> {
    fn error(&mut self, pointer: &str, message: String) {
        self.errors.push(MockError {
            file: self.file.to_string(),
            pointer: if pointer.is_empty() {
                "/".into()
            } else {
                pointer.into()
            },
            message,
        });
    }

    /// The object at `pointer`, checking that it has no key outside `known`.
    fn object<'v>(
        &mut self,
        pointer: &str,
        value: &'v Value,
        known: &[&str],
    ) -> Option<&'v Map<String, Value>> {
        let Value::Object(map) = value else {
            self.error(pointer, "must be an object".into());
            return None;
        };
        for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
            self.error(
                &format!("{pointer}/{key}"),
                format!(
                    "`{key}` is not supported by siteops mocks (supported: {})",
                    known.join(", ")
                ),
            );
        }
        Some(map)
    }

    fn stub(&mut self, pointer: &str, value: &Value, fallback: String) -> Option<Stub> {
        let before = self.errors.len();
        let map = self.object(
            pointer,
            value,
            &[
                "id",
                "uuid",
                "name",
                "priority",
                "request",
                "response",
                "persistent",
                "metadata",
                // WireMock's recorder writes it on every stub; the load order decides here.
                "insertionIndex",
                "scenarioName",
                "requiredScenarioState",
                "newScenarioState",
            ],
        )?;
        let name = map
            .get("name")
            .and_then(Value::as_str)
            .map_or(fallback, str::to_string);
        let priority = match map.get("priority") {
            None => None,
            Some(p) => match p.as_i64() {
                Some(p) => Some(p),
                None => {
                    self.error(&format!("{pointer}/priority"), "must be an integer".into());
                    None
                }
            },
        };
        let request = match map.get("request") {
            Some(request) => self.request(&format!("{pointer}/request"), request),
            None => {
                self.error(pointer, "a stub needs `request`".into());
                None
            }
        };
        let response = match map.get("response") {
            Some(response) => self.response(&format!("{pointer}/response"), response),
            None => {
                self.error(pointer, "a stub needs `response`".into());
                None
            }
        };
        let scenario = self.scenario(pointer, map);
        if self.errors.len() > before {
            return None;
        }
        Some(Stub {
            name,
            file: self.file.to_string(),
            priority,
            request: request?,
            response: response?,
            scenario,
        })
    }

    /// `scenarioName` with `requiredScenarioState` and `newScenarioState`; the states
    /// mean nothing without the name, as in WireMock.
    fn scenario(&mut self, pointer: &str, map: &Map<String, Value>) -> Option<ScenarioStep> {
        let mut text = |key: &str| match map.get(key) {
            None => None,
            Some(Value::String(text)) => Some(text.clone()),
            Some(_) => {
                self.error(&format!("{pointer}/{key}"), "must be a string".into());
                None
            }
        };
        let scenario = text("scenarioName");
        let required = text("requiredScenarioState");
        let next = text("newScenarioState");
        Some(ScenarioStep {
            scenario: scenario?,
            required,
            next,
        })
    }

    fn request(&mut self, pointer: &str, value: &Value) -> Option<RequestPattern> {
        const URL_KEYS: [&str; 5] = [
            "url",
            "urlPath",
            "urlPattern",
            "urlPathPattern",
            "urlPathTemplate",
        ];
        let map = self.object(
            pointer,
            value,
            &[
                "method",
                "url",
                "urlPath",
                "urlPattern",
                "urlPathPattern",
                "urlPathTemplate",
                "pathParameters",
                "host",
                "headers",
                "queryParameters",
                "bodyPatterns",
            ],
        )?;
        let mut pattern = RequestPattern {
            method: match map.get("method").map(Value::as_str) {
                None | Some(Some("ANY")) => None,
                Some(Some(method)) => Some(method.to_string()),
                Some(None) => {
                    self.error(&format!("{pointer}/method"), "must be a string".into());
                    None
                }
            },
            ..RequestPattern::default()
        };
        let chosen = self.one_of(pointer, map, &URL_KEYS);
        if let Some(key) = chosen {
            let at = format!("{pointer}/{key}");
            match map[key].as_str() {
                None => self.error(&at, "must be a string".into()),
                Some(text) => {
                    pattern.url = match key {
                        "url" => UrlMatch::Url(text.into()),
                        "urlPath" => UrlMatch::Path(text.into()),
                        "urlPattern" => UrlMatch::UrlPattern(self.regex(&at, text)?),
                        "urlPathPattern" => UrlMatch::PathPattern(self.regex(&at, text)?),
                        _ => UrlMatch::PathTemplate(self.path_template(&at, text)?),
                    }
                }
            }
        }
        if let Some(host) = map.get("host") {
            pattern.host = self.string_match(&format!("{pointer}/host"), host);
        }
        for (field, target) in [
            ("headers", &mut pattern.headers),
            ("queryParameters", &mut pattern.query),
        ] {
            let Some(value) = map.get(field) else {
                continue;
            };
            let at = format!("{pointer}/{field}");
            let Value::Object(entries) = value else {
                self.error(&at, "must be an object of matchers".into());
                continue;
            };
            for (name, matcher) in entries {
                if let Some(matcher) = self.values_match(&format!("{at}/{name}"), matcher) {
                    target.push((name.clone(), matcher));
                }
            }
        }
        if let Some(parameters) = map.get("pathParameters") {
            let at = format!("{pointer}/pathParameters");
            match (&pattern.url, parameters) {
                (UrlMatch::PathTemplate(template), Value::Object(entries)) => {
                    let variables = template.variables.clone();
                    for (name, matcher) in entries {
                        if !variables.contains(name) {
                            self.error(
                                &format!("{at}/{name}"),
                                format!("the urlPathTemplate has no {{{name}}}"),
                            );
                        } else if let Some(matcher) =
                            self.string_match(&format!("{at}/{name}"), matcher)
                        {
                            pattern.path_parameters.push((name.clone(), matcher));
                        }
                    }
                }
                (UrlMatch::PathTemplate(_), _) => {
                    self.error(&at, "must be an object of matchers".into())
                }
                _ => self.error(
                    &at,
                    "needs a urlPathTemplate to take its parameters from".into(),
                ),
            }
        }
        if let Some(patterns) = map.get("bodyPatterns") {
            let at = format!("{pointer}/bodyPatterns");
            match patterns {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let Some(matcher) = self.string_match(&format!("{at}/{i}"), item) {
                            pattern.body.push(matcher);
                        }
                    }
                }
                _ => self.error(&at, "must be an array of matchers".into()),
            }
        }
        Some(pattern)
    }

    /// The one key of `keys` that `map` has (the first, reporting the others, when it has
    /// several), or `None`.
    fn one_of(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        keys: &[&'static str],
    ) -> Option<&'static str> {
        let given: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| map.contains_key(*k))
            .collect();
        if given.len() > 1 {
            let message = format!(
                "give one of {}, not {}",
                keys.join(", "),
                given.join(" and ")
            );
            self.error(pointer, message);
        }
        given.first().copied()
    }
}
