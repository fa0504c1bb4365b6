//! Stub mapping files to [`Stub`]s, strictly: a key siteops does not implement is an error,
//! so a mock never behaves differently here than in WireMock without saying so.

use base64::Engine as _;
use regex::Regex;
use serde_json::{Map, Value};

use super::{MockFile, RequestPattern, StringMatch, Stub, StubResponse, UrlMatch, ValuesMatch};

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
        if self.errors.len() > before {
            return None;
        }
        Some(Stub {
            name,
            file: self.file.to_string(),
            priority,
            request: request?,
            response: response?,
        })
    }

    fn request(&mut self, pointer: &str, value: &Value) -> Option<RequestPattern> {
        const URL_KEYS: [&str; 4] = ["url", "urlPath", "urlPattern", "urlPathPattern"];
        let map = self.object(
            pointer,
            value,
            &[
                "method",
                "url",
                "urlPath",
                "urlPattern",
                "urlPathPattern",
                "host",
                "headers",
                "queryParameters",
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
                        _ => UrlMatch::PathPattern(self.regex(&at, text)?),
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
        Some(pattern)
    }

    /// A header's or query parameter's matcher: one string matcher, or `hasExactly` or
    /// `includes` with a list of them.
    fn values_match(&mut self, pointer: &str, value: &Value) -> Option<ValuesMatch> {
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
            let matchers: Vec<StringMatch> = items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| self.string_match(&format!("{at}/{i}"), item))
                .collect();
            return (matchers.len() == items.len()).then(|| make(matchers));
        }
        self.string_match(pointer, value).map(ValuesMatch::Any)
    }

    fn string_match(&mut self, pointer: &str, value: &Value) -> Option<StringMatch> {
        let map = self.object(
            pointer,
            value,
            &[
                "equalTo",
                "caseInsensitive",
                "contains",
                "matches",
                "doesNotMatch",
                "absent",
            ],
        )?;
        let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
        let matcher = if let Some(value) = text("equalTo") {
            let case_insensitive =
                map.get("caseInsensitive").and_then(Value::as_bool) == Some(true);
            StringMatch::EqualTo {
                value,
                case_insensitive,
            }
        } else if let Some(value) = text("contains") {
            StringMatch::Contains(value)
        } else if let Some(value) = text("matches") {
            StringMatch::Matches(self.regex(&format!("{pointer}/matches"), &value)?)
        } else if let Some(value) = text("doesNotMatch") {
            StringMatch::DoesNotMatch(self.regex(&format!("{pointer}/doesNotMatch"), &value)?)
        } else if map.get("absent").and_then(Value::as_bool) == Some(true) {
            StringMatch::Absent
        } else {
            self.error(
                pointer,
                "needs one of equalTo, contains, matches, doesNotMatch (strings) or absent: true"
                    .into(),
            );
            return None;
        };
        Some(matcher)
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

    /// A regex matching whole values, as Java's `String.matches` in WireMock.
    fn regex(&mut self, pointer: &str, pattern: &str) -> Option<Regex> {
        match Regex::new(&format!("^(?:{pattern})$")) {
            Ok(regex) => Some(regex),
            Err(error) => {
                self.error(pointer, format!("invalid regex: {error}"));
                None
            }
        }
    }

    fn response(&mut self, pointer: &str, value: &Value) -> Option<StubResponse> {
        const BODY_KEYS: [&str; 4] = ["body", "jsonBody", "base64Body", "bodyFileName"];
        let map = self.object(
            pointer,
            value,
            &[
                "status",
                "statusMessage",
                "headers",
                "body",
                "jsonBody",
                "base64Body",
                "bodyFileName",
            ],
        )?;
        let status = match map.get("status") {
            None => 200,
            Some(s) => match s.as_u64().filter(|s| (100..=599).contains(s)) {
                Some(s) => s as u16,
                None => {
                    self.error(
                        &format!("{pointer}/status"),
                        "must be an HTTP status (100 to 599)".into(),
                    );
                    200
                }
            },
        };
        let mut headers = Vec::new();
        if let Some(value) = map.get("headers") {
            match value {
                Value::Object(entries) => {
                    for (name, value) in entries {
                        match value {
                            Value::String(v) => headers.push((name.clone(), v.clone())),
                            Value::Array(values) => headers.extend(
                                values
                                    .iter()
                                    .filter_map(Value::as_str)
                                    .map(|v| (name.clone(), v.to_string())),
                            ),
                            _ => self.error(
                                &format!("{pointer}/headers/{name}"),
                                "must be a string or an array of strings".into(),
                            ),
                        }
                    }
                }
                _ => self.error(&format!("{pointer}/headers"), "must be an object".into()),
            }
        }
        let chosen = self.one_of(pointer, map, &BODY_KEYS);
        let body = match chosen {
            None => Vec::new(),
            // WireMock sends `jsonBody` without a `Content-Type` unless `headers` gives one.
            Some("jsonBody") => serde_json::to_vec(&map["jsonBody"]).unwrap_or_default(),
            Some(key) => {
                let at = format!("{pointer}/{key}");
                let Some(text) = map[key].as_str() else {
                    self.error(&at, "must be a string".into());
                    return None;
                };
                match key {
                    "body" => text.as_bytes().to_vec(),
                    "base64Body" => match base64::engine::general_purpose::STANDARD.decode(text) {
                        Ok(bytes) => bytes,
                        Err(error) => {
                            self.error(&at, format!("not base64: {error}"));
                            return None;
                        }
                    },
                    // WireMock refuses a file outside `__files/` (an absolute path) with
                    // a 500 when the stub answers.
                    _ if text.starts_with('/') => {
                        return Some(StubResponse {
                            status: 500,
                            headers: vec![(
                                "Content-Type".into(),
                                "text/plain; charset=utf-8".into(),
                            )],
                            body: format!(
                                "Access to file {text} is not permitted: a bodyFileName is relative to __files/"
                            )
                            .into_bytes(),
                        });
                    }
                    _ => {
                        let path = format!("__files/{text}");
                        match self.files.iter().find(|f| f.path == path) {
                            Some(file) => file.content.clone(),
                            None => {
                                self.error(&at, format!("no file {path} next to mappings/"));
                                return None;
                            }
                        }
                    }
                }
            }
        };
        Some(StubResponse {
            status,
            headers,
            body,
        })
    }
}
