//! Which stub answers a request, and when none does, which came closest and why not.

use std::fmt;

use url::Url;

use super::{MockSet, RequestPattern, StringMatch, Stub, UrlMatch, ValuesMatch};

/// A request as the mocks see it.
#[derive(Debug, Clone)]
pub struct MockRequest<'a> {
    pub method: &'a str,
    pub url: &'a Url,
    /// Header names in any case.
    pub headers: Vec<(String, String)>,
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
    /// The first stub, in priority then file order, that matches `request`.
    pub fn find(&self, request: &MockRequest<'_>) -> Result<&Stub, NoMatch> {
        if let Some(stub) = self
            .stubs
            .iter()
            .find(|stub| differences(&stub.request, request).is_empty())
        {
            return Ok(stub);
        }
        let mut misses: Vec<(usize, usize, Miss)> = self
            .stubs
            .iter()
            .map(|stub| {
                let differences = differences(&stub.request, request);
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

/// What of `pattern` the request does not satisfy, in words; empty when it matches.
fn differences(pattern: &RequestPattern, request: &MockRequest<'_>) -> Vec<String> {
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
    };
    if !url_ok {
        out.push(match &pattern.url {
            UrlMatch::Url(url) => format!("url is {url}"),
            UrlMatch::Path(p) => format!("urlPath is {p}"),
            UrlMatch::UrlPattern(r) => format!("urlPattern is {}", unanchored(r.as_str())),
            UrlMatch::PathPattern(r) => format!("urlPathPattern is {}", unanchored(r.as_str())),
            UrlMatch::Any => String::new(),
        });
    }
    if let Some(host) = &pattern.host {
        let actual = request.url.host_str();
        if !host.accepts(actual.into_iter()) {
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
    out
}

impl ValuesMatch {
    /// Whether the values a request has for a field (none: the field is absent) pass.
    fn accepts<'v>(&self, values: impl Iterator<Item = &'v str>) -> bool {
        match self {
            ValuesMatch::Any(matcher) => matcher.accepts(values),
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

/// The Levenshtein distance of `a` and `b` (in characters, case counting) over the longer
/// length, as WireMock ranks the values of a field against an `equalTo`.
fn normalised_distance(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 0.0;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()] as f64 / longest as f64
}

fn every_matcher_passed(matchers: &[StringMatch], values: &[&str]) -> bool {
    matchers
        .iter()
        .all(|m| values.iter().any(|v| m.accepts_value(Some(v))))
}

impl StringMatch {
    /// Whether one value (`None`: absent) passes.
    pub fn accepts_value(&self, value: Option<&str>) -> bool {
        self.accepts(value.into_iter())
    }

    /// Whether the values a request has for a field (none: the field is absent) pass.
    fn accepts<'v>(&self, values: impl Iterator<Item = &'v str>) -> bool {
        let mut values = values.peekable();
        match self {
            StringMatch::Absent => values.next().is_none(),
            // WireMock takes the value closest to the expected one (by an edit distance that
            // minds case, the first on a tie) and matches that one: with several values,
            // `V` can lose to `vz` for `equalTo: "v"` with `caseInsensitive`.
            StringMatch::EqualTo {
                value,
                case_insensitive: true,
            } => {
                let mut best: Option<(f64, &str)> = None;
                for candidate in values {
                    let distance = normalised_distance(value, candidate);
                    if best.is_none_or(|(d, _)| distance < d) {
                        best = Some((distance, candidate));
                    }
                }
                best.is_some_and(|(_, v)| v.eq_ignore_ascii_case(value))
            }
            StringMatch::EqualTo { value, .. } => values.any(|v| v == value),
            StringMatch::Contains(part) => values.any(|v| v.contains(part.as_str())),
            StringMatch::Matches(regex) => values.any(|v| regex.is_match(v)),
            // An absent field does not match the pattern, so it passes, as in WireMock.
            StringMatch::DoesNotMatch(regex) => {
                values.peek().is_none() || values.any(|v| !regex.is_match(v))
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            StringMatch::Absent => "must be absent".into(),
            StringMatch::EqualTo { value, .. } => format!("must equal {value:?}"),
            StringMatch::Contains(part) => format!("must contain {part:?}"),
            StringMatch::Matches(r) => format!("must match {}", unanchored(r.as_str())),
            StringMatch::DoesNotMatch(r) => format!("must not match {}", unanchored(r.as_str())),
        }
    }
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
