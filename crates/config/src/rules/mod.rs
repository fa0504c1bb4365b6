//! Semantic rules over single documents, as pure functions from an API body to
//! diagnostics addressed by JSON pointer (relative to the body).
//!
//! These rules need no repository, so the administration service runs the same ones on
//! request bodies. Rules that relate several files or sites live in
//! [`crate::validate`].

mod access;
mod content;
mod indexing;
mod names;
mod worker;

pub use access::{access, public};
pub use content::{check_suffix, code, content};
pub use indexing::{query, sitemap};
pub use names::{NameError, NameKind};
pub use worker::worker_entries;

use url::Url;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::{AccessConfig, CodeConfig, ContentConfig, PublicConfig, SiteConfig};

/// Rules for a whole site body: its code, content and access blocks.
pub fn site_config(config: &SiteConfig) -> Vec<Diagnostic> {
    parts(
        config.code.as_ref(),
        config.content.as_ref(),
        config.access.as_ref(),
        None,
    )
}

/// Rules for the parts a site and a profile document both have (`code`, `content`,
/// `access`, `public`), each problem under its part's pointer.
pub fn parts(
    code_config: Option<&CodeConfig>,
    content_config: Option<&ContentConfig>,
    access_config: Option<&AccessConfig>,
    public_config: Option<&PublicConfig>,
) -> Vec<Diagnostic> {
    let under = |part: &str, problems: Vec<Diagnostic>| {
        let pointer = format!("/{part}");
        problems.into_iter().map(move |d| d.under(&pointer))
    };
    let mut diagnostics = Vec::new();
    if let Some(config) = code_config {
        diagnostics.extend(under("code", code(config)));
    }
    if let Some(config) = content_config {
        diagnostics.extend(under("content", content(config)));
    }
    if let Some(config) = access_config {
        diagnostics.extend(under("access", access(config)));
    }
    if let Some(config) = public_config {
        diagnostics.extend(under("public", public(config)));
    }
    diagnostics
}

/// Whether `name` is a valid org, site, branch or secret id: `[a-z0-9][a-z0-9-]*`. Ids
/// become URL path segments and directory names, so nothing else gets through.
pub fn is_id(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Whether `name` is a site name the platform takes: `^[a-z0-9]+(?:-[a-z0-9]+)*$`, an id
/// without a double or trailing dash (either would break the `branch--site--org` host).
pub fn is_site_name(name: &str) -> bool {
    is_id(name) && !name.ends_with('-') && !name.contains("--")
}

/// Whether `name` is a profile name: `^[0-9a-zA-Z-_]+$`.
pub fn is_profile_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The most a DNS label holds.
pub const MAX_LABEL: usize = 63;

/// Problems with a site's name as part of its host, `main--<site>--<org>`: the
/// platform's site-name pattern, and the length of the label.
pub fn check_site_host(org: &str, site: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if is_id(site) && !is_site_name(site) {
        out.push(
            Diagnostic::error(Code::InvalidName, format!("invalid site name `{site}`"))
                .with_help("site names are words of lowercase letters and digits joined by single dashes: they are part of the `branch--site--org` host"),
        );
    }
    let label = format!("main--{site}--{org}");
    if label.len() > MAX_LABEL {
        out.push(
            Diagnostic::error(
                Code::HostLabelTooLong,
                format!(
                    "the host label `{label}` has {} characters, more than the {MAX_LABEL} of a DNS label",
                    label.len()
                ),
            )
            .with_help("shorten the site or org name"),
        );
    }
    out
}

/// The diagnostic for an invalid id, or none.
pub fn check_id(what: &str, name: &str) -> Option<Diagnostic> {
    (!is_id(name)).then(|| {
        Diagnostic::error(Code::InvalidName, format!("invalid {what} name `{name}`")).with_help(
            "names use lowercase letters, digits and dashes, and start with a letter or digit",
        )
    })
}

/// Why a text is not an absolute http(s) URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` {problem}")]
pub struct UrlError {
    /// The text as the user wrote it.
    pub text: String,
    pub problem: UrlProblem,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlProblem {
    /// `api.example.com/x`, `/x`: a host or a path without `https://`.
    #[error("is not a valid URL: it has no scheme")]
    NoScheme,
    #[error("is not a valid URL: {0}")]
    Invalid(url::ParseError),
    #[error("is not an http(s) URL (scheme `{0}`)")]
    Scheme(String),
    #[error("has no host")]
    NoHost,
    /// Parses, but not as the schemas' `HTTP_URL_PATTERN` says: a host with characters
    /// other than letters, digits, `-`, `_` and dots (`http://a*`), a punycode label, a
    /// space in the path.
    #[error(
        "is not an http(s) URL siteops takes: the host is letters, digits, `-`, `_` and dots, and nothing has spaces"
    )]
    Shape,
}

impl UrlError {
    /// The same problem, said of the text as written (an endpoint is checked through a
    /// sample expansion; the message quotes the endpoint, placeholders and all).
    pub fn written_as(self, text: &str) -> UrlError {
        UrlError {
            text: text.to_string(),
            ..self
        }
    }

    /// How to fix it, when that is clear: the scheme to add.
    pub fn help(&self) -> Option<String> {
        let text = &self.text;
        match self.problem {
            UrlProblem::NoScheme if text.starts_with("//") => {
                Some(format!("add the scheme: `https:{text}`"))
            }
            UrlProblem::NoScheme if text.starts_with('/') => Some(format!(
                "write the whole URL, with scheme and host: `https://<host>{text}`"
            )),
            UrlProblem::NoScheme => Some(format!("add the scheme: `https://{text}`")),
            _ => None,
        }
    }

    /// The `invalid-url` diagnostic, at `pointer`.
    pub fn diagnostic(&self, pointer: &str) -> Diagnostic {
        let diagnostic = Diagnostic::error(Code::InvalidUrl, self.to_string()).at_pointer(pointer);
        match self.help() {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        }
    }
}

/// Parses an absolute http(s) URL, or says why it is not one.
pub fn http_url(text: &str) -> Result<Url, UrlError> {
    let error = |problem| UrlError {
        text: text.to_string(),
        problem,
    };
    let url = Url::parse(text).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase => error(UrlProblem::NoScheme),
        other => error(UrlProblem::Invalid(other)),
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        // `api.example.com:8080/x` parses with the host as its scheme.
        let problem = if url.scheme().contains('.') || url.scheme() == "localhost" {
            UrlProblem::NoScheme
        } else {
            UrlProblem::Scheme(url.scheme().to_string())
        };
        return Err(error(problem));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(error(UrlProblem::NoHost));
    }
    // The schemas state this rule as a pattern (`x-siteops-rule: invalid-url`) and leave
    // its failures to this function: it must refuse all they refuse, with the same engine.
    static SHAPE: std::sync::LazyLock<jsonschema::Validator> = std::sync::LazyLock::new(|| {
        jsonschema::validator_for(
            &serde_json::json!({ "pattern": crate::model::api::HTTP_URL_PATTERN }),
        )
        .expect("the URL pattern compiles")
    });
    if !SHAPE.is_valid(&serde_json::Value::String(text.to_string())) {
        return Err(error(UrlProblem::Shape));
    }
    Ok(url)
}

/// An `invalid-url` diagnostic at `pointer` when `text` is not an http(s) URL.
fn check_url(text: &str, pointer: &str) -> Option<Diagnostic> {
    http_url(text).err().map(|error| error.diagnostic(pointer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lowercase_alphanumeric_with_dashes() {
        for good in ["a", "0", "acme-web", "site2", "a--b"] {
            assert!(is_id(good), "{good}");
        }
        for bad in ["", "-a", "A", "a_b", "a/b", "..", "a.b", "é"] {
            assert!(!is_id(bad), "{bad}");
        }
    }

    #[test]
    fn only_absolute_http_urls_pass() {
        assert!(http_url("https://example.com/x?y=1").is_ok());
        assert!(http_url("http://127.0.0.1:3000").is_ok());
        assert!(http_url("ftp://example.com").is_err());
        assert!(http_url("/relative").is_err());
        assert!(http_url("https://").is_err());
        // Parses (WHATWG hosts may hold `*`), but the schemas' pattern refuses it.
        assert!(matches!(
            http_url("hTtP://jJM9*").map_err(|e| e.problem),
            Err(UrlProblem::Shape)
        ));
    }

    /// Issue 28: a URL without its scheme says to add one.
    #[test]
    fn a_url_without_scheme_says_to_add_one() {
        let help = |text: &str| http_url(text).err().and_then(|e| e.help());
        assert_eq!(
            help("api.example.com/x.json").as_deref(),
            Some("add the scheme: `https://api.example.com/x.json`")
        );
        assert_eq!(
            help("api.example.com:8080/x").as_deref(),
            Some("add the scheme: `https://api.example.com:8080/x`")
        );
        assert_eq!(
            help("/x.json").as_deref(),
            Some("write the whole URL, with scheme and host: `https://<host>/x.json`")
        );
        assert_eq!(help("ftp://example.com"), None);
        assert_eq!(
            http_url("api.example.com")
                .map_err(|e| e.to_string())
                .err()
                .as_deref(),
            Some("`api.example.com` is not a valid URL: it has no scheme")
        );
    }
}
