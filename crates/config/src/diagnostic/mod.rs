//! The one diagnostic type. Every problem found anywhere (TOML syntax, schema, semantic rules,
//! compilation) becomes a [`Diagnostic`]: plain data, independent of how it is rendered.
//! Rendering lives in [`render`].

pub mod render;

use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use crate::source::{Position, SourceFile};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal ($severity:ident),)*) => {
        /// Stable diagnostic codes. The string form is part of the interface (JSON output,
        /// GitHub annotations, documentation): never rename one, only add.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($(#[doc = $doc])* $variant,)* }

        impl Code {
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// One line that says what the code means, from its doc comment.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => concat!($($doc),*).trim_ascii(),)* }
            }

            /// The severity a diagnostic of this code has: every code has one, which
            /// [`Diagnostic::error`] and [`Diagnostic::warning`] check in debug builds.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }
        }
    };
}

codes! {
    /// A file is not valid UTF-8.
    InvalidUtf8 = "invalid-utf8" (Error),
    /// A TOML file does not parse.
    TomlSyntax = "toml-syntax" (Error),
    /// A key is defined twice in one TOML table.
    DuplicateKey = "duplicate-key" (Error),
    /// A YAML file does not parse.
    YamlSyntax = "yaml-syntax" (Error),
    /// A YAML alias (`*name`) that siteops does not expand: one that would grow the
    /// document past 256 KiB or 128 levels (an alias bomb), or that is inside its own anchor.
    YamlAlias = "yaml-alias" (Error),
    /// A YAML merge key (`<<`) whose value is not a mapping or a sequence of mappings.
    YamlMerge = "yaml-merge" (Error),
    /// A key that the file format does not have.
    UnknownKey = "unknown-key" (Error),
    /// A required key is missing.
    MissingKey = "missing-key" (Error),
    /// A value has the wrong type.
    WrongType = "wrong-type" (Error),
    /// A value is outside what the schema allows.
    InvalidValue = "invalid-value" (Error),
    /// A file in the sites tree that siteops does not read.
    UnknownFile = "unknown-file" (Warning),
    /// A path of the repository that is not a regular file or a directory (a symbolic
    /// link, FIFO, socket or device): siteops does not follow or read it.
    SkippedFile = "skipped-file" (Warning),
    /// A file larger than siteops reads: 10 MiB for a configuration file, 20 MiB for a
    /// template or a mock body.
    FileTooLarge = "file-too-large" (Error),
    /// A site directory without its `site.toml`.
    MissingFile = "missing-file" (Error),
    /// An org, site, branch or secret name is not `[a-z0-9][a-z0-9-]*`.
    InvalidName = "invalid-name" (Error),
    /// A URL does not parse or is not http(s).
    InvalidUrl = "invalid-url" (Error),
    /// A content source type that siteops cannot preview.
    ContentSourceType = "content-source-type" (Warning),
    /// A suffix that does not start with `.`.
    InvalidSuffix = "invalid-suffix" (Error),
    /// A public path mapping that is not `<absolute path>:<absolute path>`.
    InvalidMapping = "invalid-mapping" (Error),
    /// A public include that is not an absolute path prefix.
    InvalidInclude = "invalid-include" (Error),
    /// An access entry that is neither an e-mail address nor `*`.
    InvalidAccessEntry = "invalid-access-entry" (Error),
    /// A code source type other than `github` or `byogit`.
    CodeSourceType = "code-source-type" (Warning),
    /// A `byogit` code source without `raw_url`, `owner` or `repo`.
    ByogitIncomplete = "byogit-incomplete" (Error),
    /// No site of an external repository carries the `secretId` its sync needs.
    MissingSecretId = "missing-secret-id" (Error),
    /// A later site of a shared external repository carries `secretId`.
    SharedSecretId = "shared-secret-id" (Error),
    /// A `secretId` names a secret that the site does not declare.
    UnknownSecret = "unknown-secret" (Error),
    /// A declared secret that nothing uses.
    UnusedSecret = "unused-secret" (Warning),
    /// A site names a base site that does not exist.
    UnknownBase = "unknown-base" (Error),
    /// Base sites that name each other in a cycle.
    BaseCycle = "base-cycle" (Error),
    /// A site that names a base and also has its own `[code]`.
    ConflictingCode = "conflicting-code" (Error),
    /// A site with no code, neither its own nor from a base.
    MissingCode = "missing-code" (Error),
    /// A site with no content source, neither in site.toml nor in fstab.yaml.
    MissingContent = "missing-content" (Error),
    /// An environment site whose name differs from the site in its content source URL.
    EnvironmentMismatch = "environment-mismatch" (Error),
    /// A file that is ignored because another one takes precedence.
    IgnoredFile = "ignored-file" (Warning),
    /// A `{placeholder}` in a URL that siteops cannot fill.
    UnknownVariable = "unknown-variable" (Error),
    /// A worker entry `path` that does not start with `/`.
    InvalidWorkerPath = "invalid-worker-path" (Error),
    /// A malformed or unknown `{{…}}` placeholder in a worker endpoint, or one in its scheme, host or port.
    InvalidPlaceholder = "invalid-placeholder" (Error),
    /// `{{id}}` in an endpoint of an entry without `regex`.
    IdWithoutRegex = "id-without-regex" (Error),
    /// A header placeholder whose header is not in `forwardHeaders`.
    HeaderNotForwarded = "header-not-forwarded" (Error),
    /// A `regex` that is not a valid JavaScript regular-expression literal.
    InvalidRegex = "invalid-regex" (Error),
    /// `arrayKey`/`pathKey` used inconsistently (both needed, no `regex`).
    InvalidListing = "invalid-listing" (Error),
    /// A `relativeURLPrefix` that is not a URL origin.
    InvalidUrlPrefix = "invalid-url-prefix" (Error),
    /// An invalid HTTP header name or value.
    InvalidHeader = "invalid-header" (Error),
    /// A `template` that does not exist where templates are kept.
    MissingTemplate = "missing-template" (Error),
    /// A worker entry with a template on a site that requires authentication, without the
    /// `templateApiKey` the worker needs to read it.
    TemplateNeedsKey = "template-needs-key" (Warning),
    /// A worker entry that an earlier entry's path prefix always wins over.
    UnreachableEntry = "unreachable-entry" (Warning),
    /// A worker entry example that the entry does not handle.
    ExampleMismatch = "example-mismatch" (Error),
    /// An overlay or source that points at the worker, which has no entries for that branch.
    WorkerUnconfigured = "worker-unconfigured" (Warning),
    /// A secret's environment variable is not set at compile time.
    MissingSecretValue = "missing-secret-value" (Error),
    /// A code checkout in siteops.toml for a repository that no site's code names.
    UnusedCodeCheckout = "unused-code-checkout" (Warning),
    /// A code checkout in siteops.toml whose directory does not exist or is not a site's
    /// code (neither `head.html` nor `scripts/`).
    MissingCodeCheckout = "missing-code-checkout" (Error),
    /// A template that does not compile: an unclosed tag or section, a section closed
    /// under another name, an invalid delimiter change.
    TemplateSyntax = "template-syntax" (Error),
    /// A mock mapping (JSON) that does not parse.
    JsonSyntax = "json-syntax" (Error),
    /// A WireMock feature that siteops mocks do not implement (a key such as
    /// `transformers` or `proxyBaseUrl`).
    UnsupportedMock = "unsupported-mock" (Error),
    /// A value of a mock mapping that siteops cannot use: of the wrong type, an invalid
    /// regular expression, a stub without `request` or `response`.
    InvalidMock = "invalid-mock" (Error),
    /// A mock's `bodyFileName` that names no file under the mocks' `__files/`.
    MissingBodyFile = "missing-body-file" (Error),
    /// A name of a worker template (`{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}`)
    /// that the data of none of the entry examples rendering it holds, as their mocks
    /// answer: it renders as nothing (a misspelt name).
    UnknownTemplateName = "unknown-template-name" (Warning),
    /// The mock answering a worker entry example's endpoint has a body that is not JSON:
    /// the worker fails the page (502).
    MockBodyNotJson = "mock-body-not-json" (Error),
    /// A worker template that fails to render over an example's mock data as the worker
    /// renders it (a page over the worker's output limit, a name read through `null`).
    ExampleRenderFails = "example-render-fails" (Error),
    /// A site's preview host label, `main--<site>--<org>`, is longer than the 63
    /// characters a DNS label may have.
    HostLabelTooLong = "host-label-too-long" (Error),
    /// `extends.profile` names a profile that the org does not have.
    UnknownProfile = "unknown-profile" (Error),
    /// An access entry names a group (`group:<id>`… or the id itself) that neither the
    /// site, its profile nor the org defines.
    UnknownGroup = "unknown-group" (Error),
    /// `secretId` of site authentication names a secret that the org does not declare.
    UnknownOrgSecret = "unknown-org-secret" (Error),
    /// An `apiKeyId` that no `apiKeys` record of the org has: a key revoked, or never
    /// minted (records are the service's, kept in `org.toml` as notes; no key gets in by it).
    UnknownApiKey = "unknown-api-key" (Warning),
    /// A role granted that is neither one of the platform's nor a custom role name.
    UnknownRole = "unknown-role" (Warning),
    /// `requireAuth = "true"` or `"false"`: the platform takes a boolean; siteops reads it
    /// as one.
    LegacyRequireAuth = "legacy-require-auth" (Warning),
    /// A content source key of another source type (`suffix` on a google source).
    ForeignSourceKey = "foreign-source-key" (Error),
    /// A path of an index or sitemap configuration (`target`, `include`, `exclude`,
    /// `source`, `destination`, `alternate`) that is not absolute, or has spaces.
    InvalidPath = "invalid-path" (Error),
    /// An index property without one selector (`select` or `selectFirst`) and one
    /// expression (`value` or `values`), or `faceted` without `select`.
    InvalidIndexProperty = "invalid-index-property" (Error),
    /// A sitemap without `source` and `destination` or `languages` (or with both), a
    /// `default` that names none of its languages, an `alternate` without `{path}`.
    InvalidSitemap = "invalid-sitemap" (Error),
    /// An index or sitemap configuration on a site that takes its code from a base: only
    /// the primary site of a repoless group carries them.
    NotPrimarySite = "not-primary-site" (Error),
    /// A part of a git-era site's files (`fstab.yaml`, `helix-query.yaml`, …) that
    /// `siteops import --from-repo` cannot write as configuration: a second mountpoint, a
    /// key the configuration has no place for, a file the platform no longer reads.
    NotCarriedOver = "not-carried-over" (Warning),
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a diagnostic points: a file, and within it a byte span with its positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub span: Option<Span>,
}

impl Location {
    /// A byte span of a source file, with its positions (clamped to the file's text and
    /// characters, so every renderer can slice with it).
    pub fn of(source: &SourceFile, bytes: Range<usize>) -> Location {
        let bytes = source.clamp(&bytes);
        let (start, end) = source.range(&bytes);
        Location {
            file: source.path.clone(),
            span: Some(Span { bytes, start, end }),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    #[serde(skip)]
    pub bytes: Range<usize>,
    pub start: Position,
    pub end: Position,
}

/// A further place a diagnostic names, with what it is (rustc's secondary labels): where
/// a key was first defined, say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    pub label: String,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The JSON pointer of the offending value inside the checked document. Rules set it;
    /// [`Diagnostic::locate_in`] turns it into a [`Location`], and the administration
    /// service names it in `x-error`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Locate the key that names the pointer's value rather than the value: right for an
    /// unknown key, a bad header name, an ignored table.
    #[serde(skip)]
    pub at_key: bool,
    /// The bytes of the pointer's string value, as parsed, that are at fault (the
    /// `{{idd}}` of an endpoint, the `(` of a regex): located to exactly those characters
    /// of the file when the value is a string written on one line, else the whole value.
    #[serde(skip)]
    pub within: Option<Range<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Other places it names, each with a label.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            help: None,
            pointer: None,
            at_key: false,
            within: None,
            location: None,
            related: Vec::new(),
        }
    }

    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        debug_assert_eq!(code.severity(), Severity::Error, "{code} is not an error");
        Diagnostic::new(Severity::Error, code, message)
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        debug_assert_eq!(
            code.severity(),
            Severity::Warning,
            "{code} is not a warning"
        );
        Diagnostic::new(Severity::Warning, code, message)
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn at_pointer(mut self, pointer: impl Into<String>) -> Diagnostic {
        self.pointer = Some(pointer.into());
        self
    }

    /// Points at the key of the value at `pointer` (see [`Diagnostic::at_key`]).
    pub fn at_key(mut self, pointer: impl Into<String>) -> Diagnostic {
        self.pointer = Some(pointer.into());
        self.at_key = true;
        self
    }

    /// Narrows the location to bytes `range` of the pointer's string value (see
    /// [`Diagnostic::within`]).
    pub fn within(mut self, range: Range<usize>) -> Diagnostic {
        self.within = Some(range);
        self
    }

    /// Names another place, with what it is (see [`Related`]).
    pub fn with_related(mut self, label: impl Into<String>, location: Location) -> Diagnostic {
        self.related.push(Related {
            label: label.into(),
            location,
        });
        self
    }

    /// Puts the pointer under `prefix`, for rules that check a part of a larger document.
    pub fn under(mut self, prefix: &str) -> Diagnostic {
        if !prefix.is_empty() {
            self.pointer = Some(format!("{prefix}{}", self.pointer.as_deref().unwrap_or("")));
        }
        self
    }

    /// Points at a whole file (or directory), without a position.
    pub fn in_file(mut self, file: impl Into<String>) -> Diagnostic {
        self.location = Some(Location {
            file: file.into(),
            span: None,
        });
        self
    }

    /// Points at a byte span of a source file.
    pub fn at(mut self, source: &SourceFile, bytes: Range<usize>) -> Diagnostic {
        self.location = Some(Location::of(source, bytes));
        self
    }

    pub fn with_location(mut self, location: Option<Location>) -> Diagnostic {
        self.location = location;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The one-line form used in `x-error` headers and logs: `pointer: message`.
    pub fn headline(&self) -> String {
        match &self.pointer {
            Some(pointer) if !pointer.is_empty() => format!("{pointer}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

/// Counts by severity, for summaries and exit codes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
}

impl Summary {
    pub fn of(diagnostics: &[Diagnostic]) -> Summary {
        diagnostics
            .iter()
            .fold(Summary::default(), |mut summary, d| {
                match d.severity {
                    Severity::Error => summary.errors += 1,
                    Severity::Warning => summary.warnings += 1,
                }
                summary
            })
    }
}

/// Sorts diagnostics by file and position so output is stable whatever order rules ran in.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
}

fn sort_key(d: &Diagnostic) -> (Option<&str>, Option<(usize, usize)>, Code, &str) {
    let location = d.location.as_ref();
    (
        location.map(|l| l.file.as_str()),
        location
            .and_then(|l| l.span.as_ref())
            .map(|s| (s.bytes.start, s.bytes.end)),
        d.code,
        d.message.as_str(),
    )
}

/// Looks up the source text of a file by its path, for renderers that quote source lines.
pub trait SourceLookup {
    fn source(&self, path: &str) -> Option<Arc<SourceFile>>;
}

impl SourceLookup for () {
    fn source(&self, _: &str) -> Option<Arc<SourceFile>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_unique_kebab_name_and_a_summary() {
        let mut names: Vec<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
        for code in Code::ALL {
            let name = code.as_str();
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{name}"
            );
            assert!(!code.summary().is_empty(), "{name} has no summary");
        }
    }
}
