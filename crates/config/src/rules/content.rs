//! Rules for the `content` and `code` blocks.

use super::{check_id, check_url};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::api::{CONTENT_SOURCE_TYPES, CodeConfig, ContentConfig};

pub fn content(content: &ContentConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let source = &content.source;
    diagnostics.extend(check_url(&source.url, "/source/url"));
    // A type outside the closed set is the schema's error (`invalid-value`, with the allowed
    // values); this warning is for the platform's other types, which it accepts.
    if source.kind != "markup" && CONTENT_SOURCE_TYPES.contains(&source.kind.as_str()) {
        diagnostics.push(
            Diagnostic::warning(
                Code::ContentSourceType,
                format!(
                    "content source type `{}` is not previewed by siteops",
                    source.kind
                ),
            )
            .with_help("siteops fetches and previews `markup` sources")
            .at_pointer("/source/type"),
        );
    }
    if let Some(suffix) = &source.suffix {
        diagnostics.extend(check_suffix(suffix).map(|d| d.at_pointer("/source/suffix")));
    }
    if let Some(overlay) = &content.overlay {
        diagnostics.extend(check_url(&overlay.url, "/overlay/url"));
        // Its type is a closed set in the schemas: `markup`.
    }
    diagnostics
}

/// A suffix is appended to the page path, so it must read as an extension: `.html`.
pub fn check_suffix(suffix: &str) -> Option<Diagnostic> {
    let extension = suffix.strip_prefix('.');
    let valid = extension.is_some_and(|ext| {
        !ext.is_empty()
            && ext
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
    });
    (!valid).then(|| {
        Diagnostic::error(
            Code::InvalidSuffix,
            format!("suffix `{suffix}` must start with `.` and be a file extension"),
        )
        .with_help("for example `.html`")
    })
}

pub fn code(code: &CodeConfig) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let source = &code.source;
    diagnostics.extend(check_url(&source.url, "/source/url"));
    if let Some(raw_url) = &source.raw_url {
        diagnostics.extend(check_url(raw_url, "/source/raw_url"));
    }
    match source.kind.as_str() {
        "byogit" => {
            let missing: Vec<&str> = [
                ("raw_url", source.raw_url.is_none()),
                ("owner", source.owner.is_none()),
                ("repo", source.repo.is_none()),
            ]
            .into_iter()
            .filter_map(|(name, missing)| missing.then_some(name))
            .collect();
            if !missing.is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        Code::ByogitIncomplete,
                        format!(
                            "a `byogit` code source needs {}",
                            missing
                                .iter()
                                .map(|m| format!("`{m}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .with_help("`raw_url` is the raw file address, `owner` and `repo` identify the external repository")
                    .at_pointer("/source"),
                );
            }
        }
        "github" => {}
        other => diagnostics.push(
            Diagnostic::warning(
                Code::CodeSourceType,
                format!("unknown code source type `{other}`"),
            )
            .with_help(
                "use `github` for a hosted repository or `byogit` for an external git service",
            )
            .at_pointer("/source/type"),
        ),
    }
    if let Some(secret_id) = &source.secret_id {
        diagnostics.extend(check_id("secret", secret_id).map(|d| d.at_pointer("/source/secretId")));
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::api::{CodeSource, ContentSource, KNOWN_CODE_SOURCE_TYPES};

    #[test]
    fn suffixes_are_extensions() {
        for good in [".html", ".plain.html", ".md"] {
            assert!(check_suffix(good).is_none(), "{good}");
        }
        for bad in ["html", ".", "./x", ".html?x", ""] {
            assert!(check_suffix(bad).is_some(), "{bad}");
        }
    }

    fn content_with(kind: &str) -> ContentConfig {
        ContentConfig::of(ContentSource::new(kind, "https://content.example.com/web"))
    }

    fn code_with(kind: &str) -> CodeConfig {
        CodeConfig {
            title: None,
            description: None,
            owner: "acme".into(),
            repo: "web".into(),
            source: CodeSource {
                kind: kind.into(),
                url: "https://github.com/acme/web".into(),
                raw_url: Some("https://raw.example.com/acme/web".into()),
                owner: Some("p1".into()),
                repo: Some("r1".into()),
                secret_id: None,
            },
        }
    }

    fn codes(diagnostics: Vec<Diagnostic>) -> Vec<Code> {
        diagnostics.into_iter().map(|d| d.code).collect()
    }

    /// The schemas reject a content source type outside the closed set (`invalid-value`);
    /// the warning is only for the platform's other types, so a wrong type is reported once.
    #[test]
    fn only_the_accepted_types_siteops_cannot_preview_warn() {
        assert_eq!(codes(content(&content_with("markup"))), []);
        for other in CONTENT_SOURCE_TYPES.into_iter().filter(|t| *t != "markup") {
            assert_eq!(
                codes(content(&content_with(other))),
                [Code::ContentSourceType],
                "{other}"
            );
        }
        assert_eq!(codes(content(&content_with("markdown"))), []);
    }

    /// Code source types are open: the known ones pass, another one is a warning.
    #[test]
    fn known_code_source_types_pass_and_others_warn() {
        for known in KNOWN_CODE_SOURCE_TYPES {
            assert_eq!(codes(code(&code_with(known))), [], "{known}");
        }
        assert_eq!(codes(code(&code_with("gitlab"))), [Code::CodeSourceType]);
    }
}
