//! `code`: where a site's code comes from. Also the body of `code.json`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{HTTP_URL_PATTERN, KNOWN_CODE_SOURCE_TYPES, MAX_NAME_LEN};

/// A code owner's or repository's name, as the platform's code schema has it.
pub const CODE_NAME_PATTERN: &str = "^[a-zA-Z0-9_-]+$";
use crate::schema::ID_PATTERN;

/// `code`: where the site's code comes from. Also the body of `code.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeConfig {
    /// Human-readable title; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description for clarity; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Code host org.
    #[schemars(regex(pattern = CODE_NAME_PATTERN))]
    pub owner: String,
    /// Repository name.
    #[schemars(regex(pattern = CODE_NAME_PATTERN))]
    pub repo: String,
    /// Where the code comes from: a hosted repository or an external git service.
    pub source: CodeSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// A `byogit` source names its raw file address and the external repository (a null is
// absent, as everywhere in a body).
#[schemars(extend("allOf" = [{
    "if": {"properties": {"type": {"const": "byogit"}}, "required": ["type"]},
    "then": {
        "required": ["raw_url", "owner", "repo"],
        "properties": {"raw_url": {"type": "string"}, "owner": {"type": "string"}, "repo": {"type": "string"}},
        "x-siteops-rule": "byogit-incomplete"
    }
}]))]
pub struct CodeSource {
    /// `github` for a hosted repository, `byogit` for an external git service. Not a closed
    /// set: the interface allows any hosted-repository type besides `byogit`, so another
    /// value is accepted (validation warns that siteops does not know it).
    #[serde(rename = "type")]
    #[schemars(extend("examples" = KNOWN_CODE_SOURCE_TYPES))]
    pub kind: String,
    /// Repository address.
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub url: String,
    /// With `byogit`: the address for raw file access (with `github`: optional, for a
    /// raw host other than GitHub's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub raw_url: Option<String>,
    /// With `byogit`: the program identifier of the external repository. Part of the
    /// service's store keys, so bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = CODE_NAME_PATTERN), length(max = MAX_NAME_LEN))]
    pub owner: Option<String>,
    /// With `byogit`: the repository identifier. Part of the service's store keys, so
    /// bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = CODE_NAME_PATTERN), length(max = MAX_NAME_LEN))]
    pub repo: Option<String>,
    /// With `byogit`: the secret that holds the sync secret. Only on the first site of a
    /// shared repository.
    #[serde(rename = "secretId", default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        regex(pattern = ID_PATTERN),
        length(max = MAX_NAME_LEN),
        extend("x-siteops-rule" = "invalid-name")
    )]
    pub secret_id: Option<String>,
}

impl CodeSource {
    pub fn is_byogit(&self) -> bool {
        self.kind == "byogit"
    }

    pub fn is_github(&self) -> bool {
        self.kind == "github"
    }
}

impl CodeConfig {
    /// Where a code sync reads the repository's files, `<base>/<branch>/<path>`: the
    /// source's `raw_url` when it has one (required for `byogit`; for `github`, an
    /// enterprise or mirror host), else GitHub's raw file host for a `github` source.
    /// `None` for a source that cannot be synced.
    pub fn raw_base(&self) -> Option<String> {
        match (&self.source.raw_url, self.source.kind.as_str()) {
            (Some(raw_url), "byogit" | "github") => Some(raw_url.trim_end_matches('/').to_string()),
            (None, "github") => Some(format!(
                "https://raw.githubusercontent.com/{}/{}",
                self.owner, self.repo
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(kind: &str, raw_url: Option<&str>) -> CodeConfig {
        CodeConfig {
            title: None,
            description: None,
            owner: "acme".into(),
            repo: "web".into(),
            source: CodeSource {
                kind: kind.into(),
                url: "https://git.acme.example/acme/web".into(),
                raw_url: raw_url.map(str::to_string),
                owner: None,
                repo: None,
                secret_id: None,
            },
        }
    }

    #[test]
    fn code_is_synced_from_the_raw_url_or_githubs_raw_host() {
        let raw = Some("https://raw.acme.example/web/");
        assert_eq!(
            code("byogit", raw).raw_base().as_deref(),
            Some("https://raw.acme.example/web")
        );
        assert_eq!(code("byogit", None).raw_base(), None);
        assert_eq!(
            code("github", None).raw_base().as_deref(),
            Some("https://raw.githubusercontent.com/acme/web")
        );
        assert_eq!(
            code("github", raw).raw_base().as_deref(),
            Some("https://raw.acme.example/web")
        );
        assert_eq!(code("gitea", raw).raw_base(), None);
    }
}
