//! Stub mapping files to [`Stub`]s, strictly: a key siteops does not implement is an error,
//! so a mock never behaves differently here than in WireMock without saying so. Every
//! error says where it is (line and column, from [`spans`]) and, for a mistyped key,
//! which key was meant.

mod matchers;
mod response;
pub(crate) mod spans;

use std::ops::Range;

use serde_json::{Map, Value};

use super::{BodyOrigin, MockFile, RequestPattern, ScenarioStep, Stub, UrlMatch};

/// A problem in a mapping file: the file, where in it, what, and what kind of problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockError {
    pub file: String,
    /// The JSON pointer of the value (or key) at fault; empty for the whole file.
    pub pointer: String,
    pub kind: MockErrorKind,
    pub message: String,
    /// What to do about it, when there is more to say than the message.
    pub help: Option<String>,
    /// The bytes of the file at fault: the key or value the pointer names, or where the
    /// file stops being JSON.
    pub span: Range<usize>,
    /// 1-based line and column (in characters) of the span's start.
    pub line: usize,
    pub column: usize,
}

/// What kind of problem a [`MockError`] is, so callers can classify it (validation gives
/// each kind its diagnostic code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MockErrorKind {
    /// The file is not JSON.
    Syntax,
    /// A key neither siteops nor WireMock has: a typo, mostly.
    UnknownKey,
    /// A WireMock feature siteops does not implement (`transformers`, `proxyBaseUrl`…).
    Unsupported,
    /// A `bodyFileName` with no such file under `__files/`.
    MissingBodyFile,
    /// Any other value siteops cannot use as written.
    Invalid,
}

impl std::fmt::Display for MockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )?;
        match &self.help {
            Some(help) => write!(f, " ({help})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for MockError {}

/// Keys of WireMock's stub format that siteops does not implement, so that using one is
/// said to be that, not a typo.
const WIREMOCK_ONLY: &[&str] = &[
    // Stubs.
    "postServeActions",
    "serveEventListeners",
    // Requests.
    "basicAuthCredentials",
    "cookies",
    "formParameters",
    "multipartPatterns",
    "customMatcher",
    "clientIp",
    "scheme",
    "port",
    // Responses.
    "transformers",
    "transformerParameters",
    "proxyBaseUrl",
    "proxyUrlPrefixToRemove",
    "additionalProxyRequestHeaders",
    "removeProxyRequestHeaders",
    "delayDistribution",
    "chunkedDribbleDelay",
    "fromConfiguredStub",
    // Matchers.
    "equalToXml",
    "matchesXPath",
    "binaryEqualTo",
    "before",
    "after",
    "equalToDateTime",
];

/// A JSON pointer with one more reference token, escaped as RFC 6901 requires: header
/// and parameter names are the file's own text and may hold `/` or `~`.
fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
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
        let first_error = errors.len();
        let mut parser = Parser {
            label: label.trim_end_matches('/'),
            file: &name,
            files,
            errors: &mut errors,
        };
        parser.file_stubs(file, &mut stubs);
        // Located once the file is done, from its text: only a file with problems pays.
        let text = String::from_utf8_lossy(&file.content);
        for error in &mut errors[first_error..] {
            spans::locate(error, &text);
        }
    }
    if errors.is_empty() {
        Ok(stubs)
    } else {
        Err(errors)
    }
}

struct Parser<'a> {
    /// The mock directory as messages name it (`sites/acme/web/mocks`).
    label: &'a str,
    file: &'a str,
    files: &'a [MockFile],
    errors: &'a mut Vec<MockError>,
}

impl Parser<'_> {
    /// The stubs of one mapping file, pushed onto `stubs`; its problems onto the errors.
    fn file_stubs(&mut self, file: &MockFile, stubs: &mut Vec<Stub>) {
        let document: Value = match serde_json::from_slice(&file.content) {
            Ok(value) => value,
            Err(error) => {
                self.syntax_error(&file.content, &error);
                return;
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
                    self.error("/mappings", "must be an array of stubs".into());
                    return;
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
            if let Some(stub) = self.stub(&pointer, value, fallback) {
                stubs.push(stub);
            }
        }
    }

    /// A value siteops cannot use as written.
    fn error(&mut self, pointer: &str, message: String) {
        self.report(MockErrorKind::Invalid, pointer, message, None);
    }

    /// A problem, not yet located: [`spans::locate`] places it once the file is done.
    fn report(
        &mut self,
        kind: MockErrorKind,
        pointer: &str,
        message: String,
        help: Option<String>,
    ) {
        self.errors.push(MockError {
            file: self.file.to_string(),
            pointer: pointer.into(),
            kind,
            message,
            help,
            span: 0..0,
            line: 1,
            column: 1,
        });
    }

    /// The file is not JSON: serde_json says where it stopped, as a line and a column
    /// (in bytes); the error points there, or at the comma a "trailing comma" is about.
    fn syntax_error(&mut self, content: &[u8], error: &serde_json::Error) {
        let full = error.to_string();
        // The position is the error's span; the message need not repeat it.
        let message = full
            .rsplit_once(" at line ")
            .map_or(full.as_str(), |(message, _)| message);
        let help = (message == "trailing comma")
            .then(|| "JSON has no comma after the last item of an object or array".to_string());
        let at = spans::offset_of(content, error.line(), error.column(), message);
        self.errors.push(MockError {
            file: self.file.to_string(),
            pointer: String::new(),
            kind: MockErrorKind::Syntax,
            message: format!("not valid JSON: {message}"),
            help,
            span: at..at,
            line: 1,
            column: 1,
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
            let at = child(pointer, key);
            let here = known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            if WIREMOCK_ONLY.contains(&key.as_str()) {
                self.report(
                    MockErrorKind::Unsupported,
                    &at,
                    format!("`{key}` is a WireMock feature that siteops mocks do not implement"),
                    Some(format!("siteops takes {here} here")),
                );
                continue;
            }
            let help = match closest(key, known) {
                Some(meant) => format!("did you mean `{meant}`?"),
                None => format!("known keys here: {here}"),
            };
            self.report(
                MockErrorKind::UnknownKey,
                &at,
                format!("unknown key `{key}`"),
                Some(help),
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
        let body = map
            .get("response")
            .map_or(BodyOrigin::None, |r| self.body_origin(pointer, r));
        Some(Stub {
            name,
            file: self.file.to_string(),
            body,
            priority,
            request: request?,
            response: response?,
            scenario,
        })
    }

    /// Where a (valid) response's body is written: the key of the mapping that holds it,
    /// or the `__files/` file it names.
    fn body_origin(&self, pointer: &str, response: &Value) -> BodyOrigin {
        let at = |key: &str| BodyOrigin::Mapping {
            pointer: format!("{pointer}/response/{key}"),
        };
        match response.get("bodyFileName").and_then(Value::as_str) {
            Some(name) if !name.starts_with('/') => {
                BodyOrigin::File(format!("{}/__files/{name}", self.label))
            }
            Some(_) => at("bodyFileName"),
            None => ["body", "base64Body", "jsonBody"]
                .into_iter()
                .find(|key| response.get(key).is_some())
                .map_or(BodyOrigin::None, at),
        }
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
                if let Some(matcher) = self.values_match(&child(&at, name), matcher) {
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
                                &child(&at, name),
                                format!("the urlPathTemplate has no {{{name}}}"),
                            );
                        } else if let Some(matcher) = self.string_match(&child(&at, name), matcher)
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

/// The known key closest to a mistyped one, if one is close enough to be what was meant:
/// a small edit away, or the same but for case.
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|candidate| {
            let distance =
                strsim::damerau_levenshtein(&key.to_lowercase(), &candidate.to_lowercase());
            (distance, *candidate)
        })
        .filter(|(distance, candidate)| *distance <= 2.max(candidate.len() / 3))
        .min()
        .map(|(_, candidate)| candidate)
}
