//! Which stub answers a request, and when none does, which came closest and why not.

use std::fmt;

use url::Url;

use super::{MockSet, RequestPattern, Scenarios, StringMatch, Stub, UrlMatch, ValuesMatch};

/// A request as the mocks see it.
#[derive(Debug, Clone)]
pub struct MockRequest<'a> {
    pub method: &'a str,
    pub url: &'a Url,
    /// Header names in any case. A `Host` header, when there is one, is the host that
    /// `host` matchers see, in its own case (as WireMock sees it); otherwise the URL's.
    pub headers: Vec<(String, String)>,
    pub body: &'a [u8],
}

/// No stub matches: the request, and the closest stubs with what differed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoMatch {
    pub method: String,
    pub url: String,
    pub closest: Vec<Miss>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    pub name: String,
    pub file: String,
    pub differences: Vec<String>,
}

impl std::error::Error for NoMatch {}

impl fmt::Display for NoMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no mock matches {} {}", self.method, self.url)?;
        if self.closest.is_empty() {
            return write!(f, " (there are no mocks)");
        }
        write!(f, "; closest:")?;
        for miss in &self.closest {
            write!(
                f,
                " `{}` ({}): {};",
                miss.name,
                miss.file,
                miss.differences.join(", ")
            )?;
        }
        Ok(())
    }
}

/// How many of the closest stubs a [`NoMatch`] names.
const CLOSEST: usize = 3;

impl MockSet {
    /// The stub that answers `request` and moves its scenario on, as WireMock serves it.
    pub fn answer(
        &self,
        request: &MockRequest<'_>,
        scenarios: &mut Scenarios,
    ) -> Result<&Stub, NoMatch> {
        let stub = self.find(request, scenarios)?;
        scenarios.advance(stub);
        Ok(stub)
    }

    /// The first stub, in priority then load order, that matches `request` with the
    /// scenarios in their current states.
    pub fn find(&self, request: &MockRequest<'_>, scenarios: &Scenarios) -> Result<&Stub, NoMatch> {
        if let Some(stub) = self
            .stubs
            .iter()
            .find(|stub| differences(stub, request, scenarios).is_empty())
        {
            return Ok(stub);
        }
        let mut misses: Vec<(usize, usize, Miss)> = self
            .stubs
            .iter()
            .map(|stub| {
                let differences = differences(stub, request, scenarios);
                let distance = url_distance(&stub.request.url, request.url);
                (
                    differences.len(),
                    distance,
                    Miss {
                        name: stub.name.clone(),
                        file: stub.file.clone(),
                        differences,
                    },
                )
            })
            .collect();
        misses.sort_by_key(|(count, distance, _)| (*count, *distance));
        Err(NoMatch {
            method: request.method.to_string(),
            url: request.url.to_string(),
            closest: misses
                .into_iter()
                .take(CLOSEST)
                .map(|(_, _, miss)| miss)
                .collect(),
        })
    }
}

/// What of `stub` the request (or the scenario's state) does not satisfy, in words; empty
/// when it matches.
fn differences(stub: &Stub, request: &MockRequest<'_>, scenarios: &Scenarios) -> Vec<String> {
    let mut out = request_differences(&stub.request, request);
    if let Some(step) = &stub.scenario
        && !scenarios.allows(step)
    {
        out.push(format!(
            "scenario {:?} is in state {:?}, not {:?}",
            step.scenario,
            scenarios.state(&step.scenario),
            step.required.as_deref().unwrap_or_default()
        ));
    }
    out
}

fn request_differences(pattern: &RequestPattern, request: &MockRequest<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(method) = &pattern.method
        && method != request.method
    {
        out.push(format!("method is {method}"));
    }
    let path = request.url.path();
    let path_and_query = match request.url.query() {
        Some(query) => format!("{path}?{query}"),
        None => path.to_string(),
    };
    let url_ok = match &pattern.url {
        UrlMatch::Any => true,
        UrlMatch::Url(url) => *url == path_and_query,
        UrlMatch::Path(expected) => expected == path,
        UrlMatch::UrlPattern(regex) => regex.is_match(&path_and_query),
        UrlMatch::PathPattern(regex) => regex.is_match(path),
        UrlMatch::PathTemplate(template) => template.regex.is_match(path),
    };
    if !url_ok {
        out.push(match &pattern.url {
            UrlMatch::Url(url) => format!("url is {url}"),
            UrlMatch::Path(p) => format!("urlPath is {p}"),
            UrlMatch::UrlPattern(r) => format!("urlPattern is {}", unanchored(r.as_str())),
            UrlMatch::PathPattern(r) => format!("urlPathPattern is {}", unanchored(r.as_str())),
            UrlMatch::PathTemplate(t) => format!("urlPathTemplate is {}", t.template),
            UrlMatch::Any => String::new(),
        });
    }
    if let UrlMatch::PathTemplate(template) = &pattern.url
        && !pattern.path_parameters.is_empty()
    {
        let captures = template.regex.captures(path);
        for (name, matcher) in &pattern.path_parameters {
            let value = captures.as_ref().and_then(|captures| {
                let index = template.variables.iter().position(|v| v == name)?;
                Some(captures.get(index + 1)?.as_str())
            });
            if captures.is_none() || !matcher.result(value).exact {
                out.push(format!("path parameter {name} {}", matcher.describe()));
            }
        }
    }
    if let Some(host) = &pattern.host {
        let from_header = request
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("host"))
            .map(|(_, value)| strip_port(value));
        let actual = from_header.or(request.url.host_str());
        if !host.best_of(std::iter::once(actual)) {
            out.push(format!("host {}", host.describe()));
        }
    }
    for (name, matcher) in &pattern.headers {
        let values = request
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str());
        if !matcher.accepts(values) {
            out.push(format!("header {name} {}", matcher.describe()));
        }
    }
    if !pattern.query.is_empty() {
        let pairs: Vec<(String, String)> = request.url.query_pairs().into_owned().collect();
        for (name, matcher) in &pattern.query {
            let values = pairs
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str());
            if !matcher.accepts(values) {
                out.push(format!("query parameter {name} {}", matcher.describe()));
            }
        }
    }
    if !pattern.body.is_empty() {
        let body = String::from_utf8_lossy(request.body);
        for matcher in &pattern.body {
            if !matcher.result(Some(&body)).exact {
                out.push(format!("body {}", matcher.describe()));
            }
        }
    }
    out
}

/// A `Host` header's host: without its port (an IPv6 literal keeps its brackets).
fn strip_port(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port))
            if !name.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
                && !name.ends_with(':') =>
        {
            name
        }
        _ => host,
    }
}

impl ValuesMatch {
    /// Whether the values a request has for a field (none: the field is absent) pass.
    fn accepts<'v>(&self, values: impl Iterator<Item = &'v str>) -> bool {
        match self {
            ValuesMatch::Any(matcher) => {
                let values: Vec<&str> = values.collect();
                if values.is_empty() {
                    matcher.best_of(std::iter::once(None))
                } else {
                    matcher.best_of(values.into_iter().map(Some))
                }
            }
            ValuesMatch::Includes(matchers) => {
                let values: Vec<&str> = values.collect();
                every_matcher_passed(matchers, &values)
            }
            // As many values as matchers, each matcher passed by some value: WireMock does
            // not pair them, so `[v, v]` takes the values `v, 2`.
            ValuesMatch::HasExactly(matchers) => {
                let values: Vec<&str> = values.collect();
                values.len() == matchers.len() && every_matcher_passed(matchers, &values)
            }
        }
    }

    fn describe(&self) -> String {
        let list = |matchers: &[StringMatch]| {
            matchers
                .iter()
                .map(StringMatch::describe)
                .collect::<Vec<_>>()
                .join("; ")
        };
        match self {
            ValuesMatch::Any(matcher) => matcher.describe(),
            ValuesMatch::Includes(matchers) => {
                format!("must include values that {}", list(matchers))
            }
            ValuesMatch::HasExactly(matchers) => {
                format!("must have exactly values that {}", list(matchers))
            }
        }
    }
}

fn every_matcher_passed(matchers: &[StringMatch], values: &[&str]) -> bool {
    matchers
        .iter()
        .all(|m| values.iter().any(|v| m.result(Some(v)).exact))
}

/// How a matcher judged one value, as WireMock's `MatchResult`: whether it passed, and how
/// far the value is from passing (0 to 1), which decides which of several values counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MatchResult {
    pub exact: bool,
    pub distance: f64,
}

impl MatchResult {
    fn of(exact: bool) -> MatchResult {
        MatchResult {
            exact,
            distance: if exact { 0.0 } else { 1.0 },
        }
    }
}

impl StringMatch {
    /// Whether one value (`None`: absent) passes.
    pub fn accepts_value(&self, value: Option<&str>) -> bool {
        self.result(value).exact
    }

    /// WireMock's verdict on several values of one field (`[None]` when it is absent): the
    /// value with the least distance, the first of equals, passes or fails for all. With
    /// `equalTo` and `caseInsensitive` this can pick `vz` over `V` for `"v"`, since the
    /// distance minds case.
    pub(crate) fn best_of<'v>(&self, values: impl Iterator<Item = Option<&'v str>>) -> bool {
        let mut best: Option<MatchResult> = None;
        for value in values {
            let result = self.result(value);
            if best.is_none_or(|b| result.distance < b.distance) {
                best = Some(result);
            }
        }
        best.is_some_and(|b| b.exact)
    }

    pub(crate) fn result(&self, value: Option<&str>) -> MatchResult {
        match self {
            StringMatch::Absent => MatchResult::of(value.is_none()),
            StringMatch::EqualTo {
                value: expected,
                case_insensitive,
            } => match value {
                None => MatchResult::of(false),
                Some(value) => MatchResult {
                    exact: if *case_insensitive {
                        java_equals_ignore_case(expected, value)
                    } else {
                        expected == value
                    },
                    distance: 1.0 - strsim::normalized_levenshtein(expected, value),
                },
            },
            StringMatch::Contains(part) => {
                MatchResult::of(value.is_some_and(|v| v.contains(part.as_str())))
            }
            StringMatch::Matches(regex) => {
                MatchResult::of(value.is_some_and(|v| regex.is_match(v)))
            }
            // An absent field does not match the pattern, so it passes, as in WireMock.
            StringMatch::DoesNotMatch(regex) => {
                MatchResult::of(value.is_none_or(|v| !regex.is_match(v)))
            }
            StringMatch::And(all) => {
                let results: Vec<MatchResult> = all.iter().map(|m| m.result(value)).collect();
                MatchResult {
                    exact: results.iter().all(|r| r.exact),
                    distance: results.iter().map(|r| r.distance).sum::<f64>()
                        / results.len().max(1) as f64,
                }
            }
            StringMatch::Or(any) => {
                let results: Vec<MatchResult> = any.iter().map(|m| m.result(value)).collect();
                MatchResult {
                    exact: results.iter().any(|r| r.exact),
                    distance: results.iter().map(|r| r.distance).fold(1.0, f64::min),
                }
            }
            StringMatch::Not(inner) => MatchResult::of(!inner.result(value).exact),
            StringMatch::EqualToJson(json) => MatchResult::of(json.matches(value)),
            StringMatch::MatchesJsonPath(path) => MatchResult::of(path.matches(value)),
        }
    }

    fn describe(&self) -> String {
        match self {
            StringMatch::Absent => "must be absent".into(),
            StringMatch::EqualTo { value, .. } => format!("must equal {value:?}"),
            StringMatch::Contains(part) => format!("must contain {part:?}"),
            StringMatch::Matches(r) => format!("must match {}", unanchored(r.as_str())),
            StringMatch::DoesNotMatch(r) => format!("must not match {}", unanchored(r.as_str())),
            StringMatch::And(all) => format!("must ({})", join(all, " and ")),
            StringMatch::Or(any) => format!("must ({})", join(any, " or ")),
            StringMatch::Not(inner) => format!("must not ({})", inner.describe()),
            StringMatch::EqualToJson(json) => format!("must equal the JSON {}", json.expected),
            StringMatch::MatchesJsonPath(path) => match &path.value {
                None => format!("must have {}", path.expression),
                Some(value) => format!("must have {} that {}", path.expression, value.describe()),
            },
        }
    }
}

fn join(matchers: &[StringMatch], by: &str) -> String {
    matchers
        .iter()
        .map(|m| m.describe().trim_start_matches("must ").to_string())
        .collect::<Vec<_>>()
        .join(by)
}

/// Java's `equalsIgnoreCase`: as long, and each character equal in upper or lower case.
fn java_equals_ignore_case(a: &str, b: &str) -> bool {
    let fold = |c: char| {
        let mut upper = c.to_uppercase();
        match (upper.next(), upper.next()) {
            (Some(u), None) => u,
            _ => c,
        }
    };
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).all(|(x, y)| {
            x == y || fold(x) == fold(y) || fold(x).to_lowercase().eq(fold(y).to_lowercase())
        })
}

/// A regex as its stub wrote it, without the anchors added for whole-value matching.
fn unanchored(pattern: &str) -> &str {
    pattern
        .strip_prefix("^(?:")
        .and_then(|p| p.strip_suffix(")$"))
        .unwrap_or(pattern)
}

/// How far the request's URL is from a stub's literal URL: the characters after their
/// common prefix. Patterns count as far; they are reported by their differences anyway.
fn url_distance(pattern: &UrlMatch, url: &Url) -> usize {
    let target = match pattern {
        UrlMatch::Url(u) | UrlMatch::Path(u) => u.as_str(),
        _ => return usize::MAX / 2,
    };
    let actual = &url[url::Position::BeforePath..];
    let common = target
        .bytes()
        .zip(actual.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    (target.len() - common) + (actual.len() - common)
}
