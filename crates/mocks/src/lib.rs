//! Offline mocks: the HTTP services a site talks to (markup sources, the worker's JSON
//! endpoints, image hosts, the external git raw host), as stub mappings in WireMock's JSON
//! format, so they can be shared with WireMock and the tools that read its files.
//!
//! A site keeps them under `sites/<org>/<site>/mocks/`: `mappings/*.json` (each file one
//! stub, `{"mappings": [...]}`, or an array of stubs) and `__files/` for `bodyFileName`.
//!
//! Supported, from WireMock's format (`docs/src/mocks.md` lists it for users):
//! - `request`: `method`; one of `url`, `urlPath`, `urlPattern`, `urlPathPattern`,
//!   `urlPathTemplate` (with `pathParameters`); `host`, `headers`, `queryParameters` and
//!   `bodyPatterns` with the string matchers (`equalTo`, `contains`, `matches`,
//!   `doesNotMatch`, `absent`, `and`, `or`, `not`; for bodies also `equalToJson` and
//!   `matchesJsonPath`), and for headers and query parameters `hasExactly` and `includes`;
//! - `response`: `status`, `headers`, one body form, `fixedDelayMilliseconds`, `fault`;
//! - `priority`, and scenarios (`scenarioName`, `requiredScenarioState`,
//!   `newScenarioState`), whose states a [`Scenarios`] keeps.
//!
//! Matching follows WireMock's own rules, down to its quirks (which value of a header
//! `equalTo` compares, which stub wins a tie); `tests/it/wiremock_diff.rs` holds siteops to
//! the real WireMock. Anything else in a stub (transformers, proxies, XML matchers) is an
//! error naming the file and the key, rather than a mock that silently behaves differently.
//!
//! `record` turns exchanges captured from the network into such files, for `siteops
//! mocks record`.
//!
//! This module is pure: the caller reads and writes the files.

#[doc(hidden)]
pub mod fuzzing;
mod hosts;
mod json;
mod matching;
mod parse;
pub mod record;
mod scenarios;

pub use hosts::MockedHosts;
pub use matching::{Miss, MockRequest, NoMatch};
pub use parse::{MockError, MockErrorKind};
pub use scenarios::Scenarios;

use std::time::Duration;

use regex::Regex;

/// WireMock's priority for a stub that gives none.
pub const DEFAULT_PRIORITY: i64 = 5;

/// The stubs of one or more mock directories, in the order they are tried.
#[derive(Debug, Clone, Default)]
pub struct MockSet {
    stubs: Vec<Stub>,
}

#[derive(Debug, Clone)]
pub struct Stub {
    /// The stub's `name`, or its file name.
    pub name: String,
    /// The mapping file it came from, for messages.
    pub file: String,
    pub priority: Option<i64>,
    pub request: RequestPattern,
    pub response: StubResponse,
    /// The stub's step in a scenario, when it has `scenarioName`.
    pub scenario: Option<ScenarioStep>,
    /// Where its response body is written, for messages about the body.
    pub body: BodyOrigin,
}

/// Where a stub's response body is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyOrigin {
    /// The response has no body.
    None,
    /// In the mapping file ([`Stub::file`]), at this JSON pointer (`/response/body`).
    Mapping { pointer: String },
    /// A file of `__files/`, named as [`Stub::file`] is (`sites/a/b/mocks/__files/x.json`).
    File(String),
}

/// The byte span, in a mapping file's `text`, of the member `pointer` names (its key), for
/// pointing at part of a stub (a [`BodyOrigin::Mapping`]); `0..0` when it is not there.
pub fn pointer_span(text: &str, pointer: &str) -> std::ops::Range<usize> {
    parse::spans::find(text, pointer, true)
}

/// A stub of a scenario answers only in `required` state (any state when `None`) and then
/// moves the scenario to `next` (stays when `None`). Every scenario starts in
/// [`scenarios::STARTED`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioStep {
    pub scenario: String,
    pub required: Option<String>,
    pub next: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct RequestPattern {
    /// `None` matches any method; otherwise the method exactly, case included (WireMock's
    /// `"get"` matches nothing).
    pub method: Option<String>,
    pub url: UrlMatch,
    pub host: Option<StringMatch>,
    pub headers: Vec<(String, ValuesMatch)>,
    pub query: Vec<(String, ValuesMatch)>,
    /// With [`UrlMatch::PathTemplate`]: matchers of the template's variables.
    pub path_parameters: Vec<(String, StringMatch)>,
    /// Every one must pass against the body as text.
    pub body: Vec<StringMatch>,
}

/// A matcher of a field that can have several values (a header, a query parameter).
#[derive(Debug, Clone)]
pub enum ValuesMatch {
    /// One matcher: some value passes it (`absent`: there is none; `doesNotMatch`: there
    /// is none, or some value does not match).
    Any(StringMatch),
    /// `hasExactly`: as many values as matchers, each matcher passed by some value (as
    /// WireMock has it: the values are not paired with the matchers).
    HasExactly(Vec<StringMatch>),
    /// `includes`: each matcher passed by some value.
    Includes(Vec<StringMatch>),
}

#[derive(Debug, Clone, Default)]
pub enum UrlMatch {
    #[default]
    Any,
    /// Path and query, exactly.
    Url(String),
    /// Path only, exactly.
    Path(String),
    /// Path and query, against a regex.
    UrlPattern(Regex),
    /// Path only, against a regex.
    PathPattern(Regex),
    /// Path only, against a template: `{name}` is one segment, `**` anything.
    PathTemplate(PathTemplate),
}

/// A `urlPathTemplate`, as WireMock builds it: the template as written, the regex it
/// becomes, and its variables in order.
#[derive(Debug, Clone)]
pub struct PathTemplate {
    pub template: String,
    pub regex: Regex,
    pub variables: Vec<String>,
}

#[derive(Debug, Clone)]
pub enum StringMatch {
    EqualTo {
        value: String,
        case_insensitive: bool,
    },
    Contains(String),
    Matches(Regex),
    DoesNotMatch(Regex),
    Absent,
    And(Vec<StringMatch>),
    Or(Vec<StringMatch>),
    Not(Box<StringMatch>),
    /// `equalToJson`: the expected document, with its options.
    EqualToJson(json::JsonEquality),
    /// `matchesJsonPath`: the expression, and a matcher of what it finds (without one, it
    /// must find something).
    MatchesJsonPath(json::JsonPathMatch),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StubResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// `fixedDelayMilliseconds`: how long to wait before answering.
    pub delay: Option<Duration>,
    /// `fault`: no HTTP answer at all, the connection fails this way.
    pub fault: Option<Fault>,
}

/// WireMock's `fault`s: what the client sees instead of a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    ConnectionResetByPeer,
    EmptyResponse,
    MalformedResponseChunk,
    RandomDataThenClose,
}

impl Fault {
    pub const ALL: [Fault; 4] = [
        Fault::ConnectionResetByPeer,
        Fault::EmptyResponse,
        Fault::MalformedResponseChunk,
        Fault::RandomDataThenClose,
    ];

    /// The name a stub gives it.
    pub fn name(self) -> &'static str {
        match self {
            Fault::ConnectionResetByPeer => "CONNECTION_RESET_BY_PEER",
            Fault::EmptyResponse => "EMPTY_RESPONSE",
            Fault::MalformedResponseChunk => "MALFORMED_RESPONSE_CHUNK",
            Fault::RandomDataThenClose => "RANDOM_DATA_THEN_CLOSE",
        }
    }
}

/// A file of a mock directory, relative to it (`mappings/x.json`, `__files/page.html`).
#[derive(Debug, Clone)]
pub struct MockFile {
    pub path: String,
    pub content: Vec<u8>,
}

impl MockSet {
    /// The stubs of one mock directory's files. `label` prefixes file names in messages
    /// (`sites/acme/web/mocks`). Every problem of every file is reported.
    pub fn from_files(label: &str, files: &[MockFile]) -> Result<MockSet, Vec<MockError>> {
        parse::stubs(label, files).map(|mut stubs| {
            // WireMock tries the stub added last first: files load in name order, each
            // file's stubs in its order, so the last stub of the last file leads a tie.
            stubs.reverse();
            let mut set = MockSet { stubs };
            set.order();
            set
        })
    }

    /// Adds another set's stubs (another site's, a test case's extra mocks) before this
    /// set's stubs of the same priority: later, more specific sets win, as in WireMock
    /// where the most recently added stub wins.
    pub fn layer(&mut self, other: MockSet) {
        let mut stubs = other.stubs;
        stubs.append(&mut self.stubs);
        self.stubs = stubs;
        self.order();
    }

    pub fn stubs(&self) -> &[Stub] {
        &self.stubs
    }

    pub fn is_empty(&self) -> bool {
        self.stubs.is_empty()
    }

    /// Lowest priority number first, as in WireMock; among equal priorities the stable sort
    /// keeps the order the stubs are tried in (the most recently loaded first).
    fn order(&mut self) {
        self.stubs
            .sort_by_key(|stub| stub.priority.unwrap_or(DEFAULT_PRIORITY));
    }
}

#[cfg(test)]
mod tests;
