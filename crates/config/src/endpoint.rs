//! Endpoint URL templates of the transformation worker.
//!
//! A worker entry names the upstream URL with placeholders, e.g.
//! `https://api.example.com/products/{{id}}.json?market={{headers['x-market']}}`.
//! `{{id}}` is the whole match of the entry's regex and `{{headers.…}}` a
//! forwarded request header. Templates are parsed once, when the configuration
//! is loaded, so that every mistake can be reported with its position before
//! any request is served; expanding a parsed template then cannot fail on
//! syntax, only on missing values.

/// A piece of a parsed endpoint template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Text copied into the URL unchanged.
    Literal(String),
    /// `{{id}}`: the whole match of the entry's regex.
    Id,
    /// `{{headers.name}}` or `{{headers['name']}}`, with the name lowercased
    /// because HTTP header names compare case-insensitively.
    Header(String),
}

/// An endpoint URL template, split into literal text and placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointTemplate {
    segments: Vec<Segment>,
    /// Where each placeholder is written in the endpoint (bytes, braces included), in
    /// order: for diagnostics that point at one.
    places: Vec<std::ops::Range<usize>>,
}

/// A placeholder that could not be parsed, with its place in the endpoint string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct PlaceholderError {
    /// Byte offset of the placeholder's `{{` in the endpoint string.
    pub offset: usize,
    /// Byte length of the offending placeholder text, at least 2.
    pub len: usize,
    /// What is wrong with it.
    pub kind: PlaceholderErrorKind,
}

/// What is wrong with a placeholder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlaceholderErrorKind {
    /// `{{` with no `}}` before the end or before the next `{{`.
    #[error("`{{{{` is never closed by `}}}}`")]
    Unclosed,
    /// Text between the braces that is no placeholder; holds that text.
    #[error(
        "unknown placeholder `{{{{{0}}}}}`; the endpoint may use {{{{id}}}}, {{{{headers.name}}}} and {{{{headers['x-name']}}}}"
    )]
    Unknown(String),
    /// A valid header name that the dot form cannot spell, such as `x-market`.
    #[error(
        "header `{0}` has characters the dot form cannot hold; write {{{{headers[{quoted}]}}}}",
        quoted = quote_header_name(.0)
    )]
    DotFormNeedsBrackets(String),
    /// A name that is not an HTTP header name at all.
    #[error(
        "`{0}` is not a valid HTTP header name; use ASCII letters, digits and ! # $ % & ' * + - . ^ _ ` | ~"
    )]
    InvalidHeaderName(String),
}

/// Why a template could not be filled in for a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandError {
    /// The request lacks a header the template uses; holds the lowercased name.
    #[error("missing header {0}")]
    MissingHeader(String),
    /// The template uses `{{id}}` but there is no id.
    #[error("{{{{id}}}} has no value: the entry has no regex")]
    MissingId,
    /// The id would add a `.` or `..` segment to the URL path. Percent-encoding
    /// cannot defuse it, since URL parsers treat `%2e%2e` as `..` too, so the
    /// request is refused rather than sent to another upstream path.
    #[error(
        "the id `{0}` contains a `.` or `..` path segment, which would change the endpoint path"
    )]
    DotSegment(String),
    /// A placeholder stands in the scheme, host or port: a request would choose where
    /// the entry's headers (its API keys) go.
    #[error(
        "a placeholder stands in the endpoint's scheme, host or port; the origin must be written out"
    )]
    PlaceholderInOrigin,
}

impl EndpointTemplate {
    /// Parses every placeholder; returns all errors found, not just the first,
    /// so that validation can report each one.
    ///
    /// A lone `{` or `}`, and `}}` without an opener, are literal text. In a
    /// run of opening braces the last two open the placeholder, so
    /// `{{{id}}}` is a literal `{`, the id and a literal `}`.
    pub fn parse(endpoint: &str) -> Result<EndpointTemplate, Vec<PlaceholderError>> {
        let mut parsed = Parsed::default();
        let mut rest = endpoint;
        while let Some((before, after)) = rest.split_once("{{") {
            let body = after.trim_start_matches('{');
            parsed.literal.push_str(before);
            parsed
                .literal
                .push_str(&"{".repeat(after.len() - body.len()));
            let open = suffix_offset(endpoint, body).saturating_sub(2);
            rest = match placeholder_end(body) {
                End::Closed { inner, after } => {
                    parsed.placeholder(inner, open);
                    after
                }
                End::Reopened(next) => {
                    parsed.error(
                        open,
                        body.len() - next.len() + 2,
                        PlaceholderErrorKind::Unclosed,
                    );
                    next
                }
                End::Unclosed => {
                    parsed.error(open, body.len() + 2, PlaceholderErrorKind::Unclosed);
                    ""
                }
            };
        }
        parsed.literal.push_str(rest);
        parsed.finish()
    }

    /// The literal text and placeholders, in order; adjacent text is merged.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Where the first placeholder equal to `wanted` is written (bytes of the endpoint,
    /// braces included); without `wanted`, the first placeholder of all.
    pub fn place_of(&self, wanted: Option<&Segment>) -> Option<std::ops::Range<usize>> {
        self.segments
            .iter()
            .filter(|segment| !matches!(segment, Segment::Literal(_)))
            .zip(&self.places)
            .find(|(segment, _)| wanted.is_none_or(|wanted| wanted == *segment))
            .map(|(_, place)| place.clone())
    }

    /// Whether a placeholder stands before the end of the origin (scheme, host, port):
    /// the literal text before the first placeholder must hold `scheme://authority`
    /// and the `/`, `?` or `#` that ends it. Then a value can only land in the path or
    /// the query, where it is percent-encoded, so no request chooses the origin.
    pub fn origin_has_placeholder(&self) -> bool {
        let Some(first_placeholder) = self
            .segments
            .iter()
            .position(|segment| !matches!(segment, Segment::Literal(_)))
        else {
            return false;
        };
        let Some(Segment::Literal(text)) = first_placeholder
            .checked_sub(1)
            .and_then(|i| self.segments.get(i))
        else {
            return true;
        };
        let Some((_, after_scheme)) = text.split_once("://") else {
            return true;
        };
        !after_scheme.contains(['/', '?', '#'])
    }

    /// Whether the template has an `{{id}}`, which needs the entry to have a regex.
    pub fn uses_id(&self) -> bool {
        self.segments.contains(&Segment::Id)
    }

    /// Lowercased header names used, in first-use order, without duplicates,
    /// so they can be checked against the entry's `forwardHeaders`.
    pub fn headers(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for segment in &self.segments {
            if let Segment::Header(name) = segment
                && !names.contains(&name.as_str())
            {
                names.push(name);
            }
        }
        names
    }

    /// Substitutes values, percent-encoding them as a URL component: everything
    /// except ASCII letters, digits and `-._~` is encoded, as UTF-8.
    ///
    /// A `/` in the id is kept when the placeholder stands in the URL path
    /// (before the first `?` of the literal text), because ids such as
    /// `2024/05/17/launch-day` are path fragments; in the query it becomes
    /// `%2F`. Header values always have `/` encoded. `header` receives the
    /// lowercased name and returns `None` when the header is absent.
    pub fn expand(
        &self,
        id: Option<&str>,
        header: impl Fn(&str) -> Option<String>,
    ) -> Result<String, ExpandError> {
        self.fill(id, |name, url| {
            let value = header(name).ok_or_else(|| ExpandError::MissingHeader(name.to_owned()))?;
            push_encoded(url, &value, false);
            Ok(())
        })
    }

    /// The endpoint for one id with header placeholders left in place, as
    /// `{{headers['name']}}`: what `siteops validate --explain` shows, since
    /// header values only exist per request.
    pub fn explain(&self, id: Option<&str>) -> Result<String, ExpandError> {
        self.fill(id, |name, url| {
            url.push_str(&format!("{{{{headers[{}]}}}}", quote_header_name(name)));
            Ok(())
        })
    }

    fn fill(
        &self,
        id: Option<&str>,
        header: impl Fn(&str, &mut String) -> Result<(), ExpandError>,
    ) -> Result<String, ExpandError> {
        if self.origin_has_placeholder() {
            return Err(ExpandError::PlaceholderInOrigin);
        }
        let mut url = String::new();
        let mut in_query = false;
        for segment in &self.segments {
            match segment {
                Segment::Literal(text) => {
                    url.push_str(text);
                    in_query = in_query || text.contains('?');
                }
                Segment::Id => {
                    let id = id.ok_or(ExpandError::MissingId)?;
                    if !in_query && has_dot_segment(id) {
                        return Err(ExpandError::DotSegment(id.to_owned()));
                    }
                    push_encoded(&mut url, id, !in_query);
                }
                Segment::Header(name) => header(name, &mut url)?,
            }
        }
        Ok(url)
    }
}

/// Collects segments and errors while the endpoint is scanned.
#[derive(Default)]
struct Parsed {
    segments: Vec<Segment>,
    places: Vec<std::ops::Range<usize>>,
    /// Literal text not yet pushed, so that adjacent text ends up in one segment.
    literal: String,
    errors: Vec<PlaceholderError>,
}

impl Parsed {
    /// Records the placeholder `{{inner}}` that starts at byte `offset`.
    fn placeholder(&mut self, inner: &str, offset: usize) {
        match parse_placeholder(inner) {
            Ok(segment) => {
                self.flush_literal();
                self.segments.push(segment);
                self.places.push(offset..offset + inner.len() + 4);
            }
            Err(kind) => self.error(offset, inner.len() + 4, kind),
        }
    }

    fn error(&mut self, offset: usize, len: usize, kind: PlaceholderErrorKind) {
        self.errors.push(PlaceholderError { offset, len, kind });
    }

    fn flush_literal(&mut self) {
        if !self.literal.is_empty() {
            self.segments
                .push(Segment::Literal(std::mem::take(&mut self.literal)));
        }
    }

    fn finish(mut self) -> Result<EndpointTemplate, Vec<PlaceholderError>> {
        self.flush_literal();
        if self.errors.is_empty() {
            Ok(EndpointTemplate {
                segments: self.segments,
                places: self.places,
            })
        } else {
            Err(self.errors)
        }
    }
}

/// How the text after a `{{` ends.
enum End<'a> {
    /// `inner}}after`.
    Closed { inner: &'a str, after: &'a str },
    /// Another `{{` comes before any `}}`; holds the text from that `{{` on,
    /// which is scanned next so its placeholder is still checked.
    Reopened(&'a str),
    /// Neither `}}` nor `{{` follows.
    Unclosed,
}

fn placeholder_end(body: &str) -> End<'_> {
    let close = body.find("}}");
    match body.find("{{") {
        Some(reopen) if close.is_none_or(|close| reopen < close) => {
            body.get(reopen..).map_or(End::Unclosed, End::Reopened)
        }
        _ => close
            .and_then(|close| body.split_at_checked(close))
            .and_then(|(inner, tail)| Some((inner, tail.strip_prefix("}}")?)))
            .map_or(End::Unclosed, |(inner, after)| End::Closed { inner, after }),
    }
}

/// Byte offset in `whole` where its suffix `suffix` starts.
fn suffix_offset(whole: &str, suffix: &str) -> usize {
    whole.len().saturating_sub(suffix.len())
}

/// Parses the text between `{{` and `}}`.
fn parse_placeholder(inner: &str) -> Result<Segment, PlaceholderErrorKind> {
    let body = inner.trim_matches(|c: char| c.is_ascii_whitespace());
    let unknown = || PlaceholderErrorKind::Unknown(inner.to_owned());
    if body == "id" {
        return Ok(Segment::Id);
    }
    let reference = body.strip_prefix("headers").ok_or_else(unknown)?;
    if let Some(name) = reference.strip_prefix('.') {
        dot_form(name).ok_or_else(unknown)?
    } else if let Some(quoted) = reference.strip_prefix('[') {
        bracket_form(quoted).ok_or_else(unknown)?
    } else {
        Err(unknown())
    }
}

/// `headers.name`, after the dot; `None` when nothing follows the dot.
fn dot_form(name: &str) -> Option<Result<Segment, PlaceholderErrorKind>> {
    if name.is_empty() {
        return None;
    }
    Some(if is_identifier(name) {
        Ok(header(name))
    } else if is_header_name(name) {
        Err(PlaceholderErrorKind::DotFormNeedsBrackets(name.to_owned()))
    } else {
        Err(PlaceholderErrorKind::InvalidHeaderName(name.to_owned()))
    })
}

/// `headers['name']` or `headers["name"]`, after the `[`; `None` when the
/// quotes or the bracket are missing or nothing is between the quotes.
fn bracket_form(quoted: &str) -> Option<Result<Segment, PlaceholderErrorKind>> {
    let quote = quoted.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let name = quoted
        .strip_prefix(quote)?
        .strip_suffix(']')?
        .strip_suffix(quote)?;
    if name.is_empty() {
        return None;
    }
    Some(if is_header_name(name) && !name.contains(quote) {
        Ok(header(name))
    } else {
        Err(PlaceholderErrorKind::InvalidHeaderName(name.to_owned()))
    })
}

fn header(name: &str) -> Segment {
    Segment::Header(name.to_ascii_lowercase())
}

/// What the dot form can hold: `[A-Za-z_][A-Za-z0-9_]*`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An HTTP header name: one or more token characters (RFC 9110).
pub fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// The bracket form's quoted name, choosing the quote the name does not contain.
fn quote_header_name(name: &str) -> String {
    if name.contains('\'') {
        format!("\"{name}\"")
    } else {
        format!("'{name}'")
    }
}

/// Whether a path-kept id has a `.` or `..` segment of its own.
fn has_dot_segment(id: &str) -> bool {
    id.split('/').any(|part| part == "." || part == "..")
}

/// Appends `value` percent-encoded as a URL component, keeping `/` if asked.
fn push_encoded(url: &mut String, value: &str, keep_slash: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) || (keep_slash && byte == b'/') {
            url.push(char::from(byte));
        } else {
            url.push('%');
            url.push(char::from(HEX[usize::from(byte >> 4)]));
            url.push(char::from(HEX[usize::from(byte & 0xF)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PlaceholderErrorKind::{DotFormNeedsBrackets, InvalidHeaderName, Unclosed, Unknown};
    use super::*;

    fn lit(text: &str) -> Segment {
        Segment::Literal(text.to_owned())
    }

    fn hdr(name: &str) -> Segment {
        Segment::Header(name.to_owned())
    }

    fn unknown(inner: &str) -> PlaceholderErrorKind {
        Unknown(inner.to_owned())
    }

    /// Parses `endpoint` and compares its segments, or its errors as
    /// `(offset, len, kind)`, with `expected`.
    fn check(
        endpoint: &str,
        expected: Result<Vec<Segment>, Vec<(usize, usize, PlaceholderErrorKind)>>,
    ) {
        let actual = EndpointTemplate::parse(endpoint)
            .map(|template| template.segments().to_vec())
            .map_err(|errors| {
                errors
                    .into_iter()
                    .map(|e| (e.offset, e.len, e.kind))
                    .collect::<Vec<_>>()
            });
        assert_eq!(actual, expected, "{endpoint}");
    }

    fn template(endpoint: &str) -> EndpointTemplate {
        EndpointTemplate::parse(endpoint)
            .unwrap_or_else(|errors| panic!("{endpoint} should parse: {errors:?}"))
    }

    fn headers<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            assert_eq!(
                name,
                name.to_ascii_lowercase(),
                "names are passed lowercased"
            );
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    #[test]
    fn every_placeholder_form_parses() {
        let cases = [
            (
                "https://api.example.com/products/{{id}}.json",
                vec![
                    lit("https://api.example.com/products/"),
                    Segment::Id,
                    lit(".json"),
                ],
            ),
            (
                "https://api.example.com/products/{{id}}.json?market={{headers['x-market']}}&t={{headers.tenant}}",
                vec![
                    lit("https://api.example.com/products/"),
                    Segment::Id,
                    lit(".json?market="),
                    hdr("x-market"),
                    lit("&t="),
                    hdr("tenant"),
                ],
            ),
            (
                r#"/{{headers["x-market"]}}"#,
                vec![lit("/"), hdr("x-market")],
            ),
            (r#"{{headers["a'b"]}}"#, vec![hdr("a'b")]),
            ("{{headers['*']}}", vec![hdr("*")]),
            ("{{headers._a1}}", vec![hdr("_a1")]),
            ("https://x/", vec![lit("https://x/")]),
            ("", vec![]),
        ];
        for (endpoint, segments) in cases {
            check(endpoint, Ok(segments));
        }
    }

    #[test]
    fn whitespace_is_allowed_just_inside_the_braces() {
        check("/{{ id }}", Ok(vec![lit("/"), Segment::Id]));
        check("{{\theaders.tenant\n}}", Ok(vec![hdr("tenant")]));
        check("{{  headers['x-a']  }}", Ok(vec![hdr("x-a")]));
    }

    #[test]
    fn header_names_are_lowercased() {
        check("{{headers.Tenant}}", Ok(vec![hdr("tenant")]));
        check("{{headers['X-Market']}}", Ok(vec![hdr("x-market")]));
    }

    #[test]
    fn stray_braces_are_literal_text() {
        check("/a{b}c}}d{", Ok(vec![lit("/a{b}c}}d{")]));
        check("/{{{id}}}", Ok(vec![lit("/{"), Segment::Id, lit("}")]));
        check("{x}{{id}}}}", Ok(vec![lit("{x}"), Segment::Id, lit("}}")]));
    }

    #[test]
    fn malformed_placeholders_report_kind_offset_and_length() {
        let cases = [
            ("https://x/{{id", vec![(10, 4, Unclosed)]),
            ("/{{", vec![(1, 2, Unclosed)]),
            ("/{{name}}", vec![(1, 8, unknown("name"))]),
            ("{{headers}}", vec![(0, 11, unknown("headers"))]),
            ("{{headers.}}", vec![(0, 12, unknown("headers."))]),
            ("{{headers['']}}", vec![(0, 15, unknown("headers['']"))]),
            ("{{ headers .x}}", vec![(0, 15, unknown(" headers .x"))]),
            ("{{headers['x}}", vec![(0, 14, unknown("headers['x"))]),
            ("{{headers[x]}}", vec![(0, 14, unknown("headers[x]"))]),
            ("{{}}", vec![(0, 4, unknown(""))]),
            ("{{ID}}", vec![(0, 6, unknown("ID"))]),
            (
                "/p/{{headers.x-market}}",
                vec![(3, 20, DotFormNeedsBrackets("x-market".into()))],
            ),
            (
                "{{headers.1st}}",
                vec![(0, 15, DotFormNeedsBrackets("1st".into()))],
            ),
            (
                "{{headers['x market']}}",
                vec![(0, 23, InvalidHeaderName("x market".into()))],
            ),
            (
                "{{headers.é}}",
                vec![(0, 14, InvalidHeaderName("é".into()))],
            ),
            ("/é/{{x}}", vec![(4, 5, unknown("x"))]),
        ];
        for (endpoint, errors) in cases {
            check(endpoint, Err(errors));
        }
    }

    #[test]
    fn every_error_in_one_endpoint_is_reported() {
        check(
            "/{{a}}/{{id}}/{{headers.x-y}}?q={{b",
            Err(vec![
                (1, 5, unknown("a")),
                (14, 15, DotFormNeedsBrackets("x-y".into())),
                (32, 3, Unclosed),
            ]),
        );
        // An unclosed `{{` does not hide the placeholder after it.
        check(
            "/{{id/{{headers.a-b}}",
            Err(vec![
                (1, 5, Unclosed),
                (6, 15, DotFormNeedsBrackets("a-b".into())),
            ]),
        );
    }

    #[test]
    fn messages_explain_the_fix() {
        let message = |kind: PlaceholderErrorKind| {
            PlaceholderError {
                offset: 0,
                len: 2,
                kind,
            }
            .to_string()
        };
        assert_eq!(message(Unclosed), "`{{` is never closed by `}}`");
        assert_eq!(
            message(unknown("x")),
            "unknown placeholder `{{x}}`; the endpoint may use {{id}}, {{headers.name}} and {{headers['x-name']}}"
        );
        assert_eq!(
            message(DotFormNeedsBrackets("x-market".into())),
            "header `x-market` has characters the dot form cannot hold; write {{headers['x-market']}}"
        );
        assert_eq!(
            message(DotFormNeedsBrackets("it's".into())),
            r#"header `it's` has characters the dot form cannot hold; write {{headers["it's"]}}"#
        );
        assert_eq!(
            ExpandError::MissingId.to_string(),
            "{{id}} has no value: the entry has no regex"
        );
        assert_eq!(
            ExpandError::MissingHeader("x-market".into()).to_string(),
            "missing header x-market"
        );
    }

    #[test]
    fn placeholders_know_where_they_are_written() {
        let endpoint = "https://a/{{ id }}?m={{headers['X-M']}}&n={{headers.b}}";
        let t = template(endpoint);
        let at = |wanted: Option<&Segment>| t.place_of(wanted).map(|bytes| &endpoint[bytes]);
        assert_eq!(at(None), Some("{{ id }}"));
        assert_eq!(at(Some(&Segment::Id)), Some("{{ id }}"));
        assert_eq!(at(Some(&hdr("x-m"))), Some("{{headers['X-M']}}"));
        assert_eq!(at(Some(&hdr("b"))), Some("{{headers.b}}"));
        assert_eq!(at(Some(&hdr("c"))), None);
        assert_eq!(template("/{{{id}}}").place_of(None), Some(2..8));
    }

    #[test]
    fn uses_id_and_headers_in_first_use_order() {
        let t = template("/{{headers.B}}/{{id}}?a={{headers['a']}}&b={{headers.b}}");
        assert!(t.uses_id());
        assert_eq!(t.headers(), vec!["b", "a"]);
        let no_id = template("/static?t={{headers.tenant}}");
        assert!(!no_id.uses_id());
        assert_eq!(no_id.headers(), vec!["tenant"]);
    }

    #[test]
    fn expand_encodes_values_for_their_position() {
        let values = [("x-market", "de ch"), ("tenant", "a/b")];
        let cases = [
            (
                "https://api/docs/{{id}}.json",
                "guides/getting-started",
                "https://api/docs/guides/getting-started.json",
            ),
            (
                "https://api/search?q={{id}}",
                "a/b & c é",
                "https://api/search?q=a%2Fb%20%26%20c%20%C3%A9",
            ),
            (
                "https://api/p/{{id}}?m={{headers['x-market']}}",
                "42",
                "https://api/p/42?m=de%20ch",
            ),
            (
                "https://api/{{headers.tenant}}/{{id}}",
                "a-b_c.d~e",
                "https://api/a%2Fb/a-b_c.d~e",
            ),
            ("https://api/{{id}}", "100%?#", "https://api/100%25%3F%23"),
            ("https://api/{{{id}}}", "7", "https://api/{7}"),
        ];
        for (endpoint, id, expected) in cases {
            assert_eq!(
                template(endpoint).expand(Some(id), headers(&values)),
                Ok(expected.to_owned()),
                "{endpoint} with {id}"
            );
        }
    }

    #[test]
    fn expand_reports_missing_values() {
        let t = template("https://api/{{id}}?m={{headers['X-Market']}}");
        assert_eq!(
            t.expand(Some("1"), headers(&[])),
            Err(ExpandError::MissingHeader("x-market".into()))
        );
        assert_eq!(
            t.expand(None, headers(&[("x-market", "de")])),
            Err(ExpandError::MissingId)
        );
        let without_id = template("https://api/all");
        assert_eq!(
            without_id.expand(None, headers(&[])),
            Ok("https://api/all".to_owned())
        );
    }

    #[test]
    fn expand_refuses_ids_that_would_leave_the_path() {
        for id in ["..", "../admin", "a/./b", "a/.."] {
            assert_eq!(
                template("https://api/p/{{id}}").expand(Some(id), headers(&[])),
                Err(ExpandError::DotSegment(id.to_owned())),
                "{id}"
            );
        }
        assert_eq!(
            template("https://api/p?q={{id}}").expand(Some("../x"), headers(&[])),
            Ok("https://api/p?q=..%2Fx".to_owned())
        );
        assert_eq!(
            template("https://api/p/{{id}}").expand(Some("a..b/.c"), headers(&[])),
            Ok("https://api/p/a..b/.c".to_owned())
        );
    }

    #[test]
    fn placeholders_never_choose_the_origin() {
        for endpoint in [
            "{{id}}",
            "https://{{id}}/x",
            "https://{{id}}.example.com/x",
            "https://api.example.com{{id}}",
            "https://api.example.com:{{headers.port}}/x",
            "https://user@{{headers.host}}/x",
            "{{headers['x-scheme']}}://api.example.com/x",
            "https:{{id}}",
        ] {
            let t = template(endpoint);
            assert!(t.origin_has_placeholder(), "{endpoint}");
            assert_eq!(
                t.expand(
                    Some("evil.example"),
                    headers(&[("port", "1"), ("host", "h"), ("x-scheme", "http")])
                ),
                Err(ExpandError::PlaceholderInOrigin),
                "{endpoint}"
            );
        }
        for endpoint in [
            "https://api.example.com/{{id}}",
            "https://api.example.com:8443?q={{id}}",
            "https://api.example.com#{{id}}",
            "https://api.example.com/all",
        ] {
            assert!(!template(endpoint).origin_has_placeholder(), "{endpoint}");
        }
        // In the path and query, what could change the origin is encoded.
        assert_eq!(
            template("https://api.example.com/{{id}}?q={{id}}")
                .expand(Some("@evil.example#?"), headers(&[])),
            Ok("https://api.example.com/%40evil.example%23%3F?q=%40evil.example%23%3F".to_owned())
        );
    }
}
