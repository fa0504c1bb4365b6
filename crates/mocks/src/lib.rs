//! Offline mocks: the HTTP services a site talks to (markup sources, the worker's JSON
//! endpoints, image hosts, the external git raw host), as stub mappings in WireMock's JSON
//! format, so they can be shared with WireMock and the tools that read its files.
//!
//! A site keeps them under `sites/<org>/<site>/mocks/`: `mappings/*.json` (each file one
//! stub, `{"mappings": [...]}`, or an array of stubs) and `__files/` for `bodyFileName`.
//!
//! Supported, from WireMock's format:
//! - `request`: `method` (`ANY` or absent: any), one of `url` (path and query, exact),
//!   `urlPath` (path, exact), `urlPattern` (path and query, regex), `urlPathPattern` (path,
//!   regex), `host` and `headers` and `queryParameters` with `equalTo` (optionally
//!   `caseInsensitive`), `contains`, `matches`, `doesNotMatch` or `absent`, and for
//!   headers and query parameters `hasExactly` and `includes` (lists of those);
//! - `response`: `status`, `headers`, and one of `body`, `jsonBody` (sent without a
//!   `Content-Type` unless `headers` gives one, as WireMock does), `base64Body`,
//!   `bodyFileName` (an absolute path is refused with a 500, as WireMock refuses it);
//! - `priority` (lower wins; a stub without one has WireMock's default, 5); among equal
//!   priorities the stub loaded last wins, as in WireMock (files in name order, which is
//!   WireMock's order where its directory listing is sorted; each file's stubs in order).
//!
//! Regexes match the whole value, as Java's `matches` does in WireMock. Anything else in a
//! stub (scenarios, delays, transformers) is an error naming the file and the key, rather
//! than a mock that silently behaves differently from WireMock.
//!
//! `record` turns exchanges captured from the network into such files, for `siteops
//! mocks record`.
//!
//! This module is pure: the caller reads and writes the files.

#[doc(hidden)]
pub mod fuzzing;
mod matching;
mod parse;
pub mod record;

pub use matching::{Miss, MockRequest, NoMatch};
pub use parse::MockError;

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
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StubResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
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
