//! Semantic rules over single documents, as pure functions from an API body to
//! diagnostics addressed by JSON pointer (relative to the body).
//!
//! These rules need no repository, so the administration service runs the same ones on
//! request bodies. Rules that relate several files or sites live in
//! [`crate::validate`].

mod access;
mod content;
mod worker;

pub use access::{access, public};
pub use content::{check_suffix, code, content};
pub use worker::worker_entries;

use url::Url;

use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::SiteConfig;

/// Rules for a whole site body: its code, content and access blocks.
pub fn site_config(config: &SiteConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if let Some(code_config) = &config.code {
        diagnostics.extend(code(code_config).into_iter().map(|d| d.under("/code")));
    }
    if let Some(content_config) = &config.content {
        diagnostics.extend(
            content(content_config)
                .into_iter()
                .map(|d| d.under("/content")),
        );
    }
    if let Some(access_config) = &config.access {
        diagnostics.extend(
            access(access_config)
                .into_iter()
                .map(|d| d.under("/access")),
        );
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

/// The diagnostic for an invalid id, or none.
pub fn check_id(what: &str, name: &str) -> Option<Diagnostic> {
    (!is_id(name)).then(|| {
        Diagnostic::error(Code::InvalidName, format!("invalid {what} name `{name}`")).with_help(
            "names use lowercase letters, digits and dashes, and start with a letter or digit",
        )
    })
}

/// Parses an absolute http(s) URL, or says why it is not one.
pub fn http_url(text: &str) -> Result<Url, String> {
    let url = Url::parse(text).map_err(|error| format!("`{text}` is not a valid URL: {error}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "`{text}` is not an http(s) URL (scheme `{}`)",
            url.scheme()
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("`{text}` has no host"));
    }
    Ok(url)
}

/// An `invalid-url` diagnostic at `pointer` when `text` is not an http(s) URL.
fn check_url(text: &str, pointer: &str) -> Option<Diagnostic> {
    http_url(text)
        .err()
        .map(|message| Diagnostic::error(Code::InvalidUrl, message).at_pointer(pointer))
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
    }
}
