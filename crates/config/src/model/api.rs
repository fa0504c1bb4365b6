//! The JSON bodies of the administration API and of the transformation worker's
//! configuration, exactly as they go over the wire. Field names follow the interface
//! (`secretId`, `raw_url`, `forwardHeaders`…), so serde renames are the only translation.
//!
//! Optional fields are `Option` so that a body round-trips unchanged: an empty list the
//! user wrote stays an empty list, an absent one stays absent.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// The closed sets of values the interface fixes. Each is an `enum` in the schemas, so the
// service, `siteops validate` and editors reject any other value; the rules use the same
// lists.

/// `content.source.type` (and a mountpoint's `type`): `markup`, which siteops previews,
/// and the platform's other source types, accepted and not previewed.
pub const CONTENT_SOURCE_TYPES: [&str; 3] = ["markup", "onedrive", "google"];
/// `content.overlay.type`: an overlay is always a markup source.
pub const OVERLAY_TYPES: [&str; 1] = ["markup"];
/// `access.admin.requireAuth`: `auto` (the value the platform uses) and `true` make the
/// preview require a token; `false` is the same as leaving the key out.
pub const REQUIRE_AUTH_VALUES: [&str; 3] = ["auto", "true", "false"];
/// `version` of a site configuration: 1 is the only one.
pub const SITE_VERSIONS: [u32; 1] = [1];
/// Code source types siteops knows. Not a closed set: the interface allows any hosted
/// repository type besides `byogit`, so the schemas give these as `examples` only and
/// validation warns about another value instead of rejecting it.
pub const KNOWN_CODE_SOURCE_TYPES: [&str; 2] = ["github", "byogit"];

/// The schema of `version`: the closed set [`SITE_VERSIONS`], without the `minimum` of a
/// `u32`, which would report a negative version a second time.
pub(crate) fn site_version_schema(schema: &mut schemars::Schema) {
    schema.remove("minimum");
    schema.insert("enum".into(), serde_json::json!(SITE_VERSIONS));
}

/// `POST /config/<org>/sites/<site>.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    /// Always 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = site_version_schema)]
    pub version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<CodeConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessConfig>,
}

/// `code`: where the site's code comes from. Also the body of `code.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeConfig {
    /// Code host org.
    pub owner: String,
    /// Repository name.
    pub repo: String,
    /// Where the code comes from: a hosted repository or an external git service.
    pub source: CodeSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeSource {
    /// `github` for a hosted repository, `byogit` for an external git service. Not a closed
    /// set: the interface allows any hosted-repository type besides `byogit`, so another
    /// value is accepted (validation warns that siteops does not know it).
    #[serde(rename = "type")]
    #[schemars(extend("examples" = KNOWN_CODE_SOURCE_TYPES))]
    pub kind: String,
    /// Repository address.
    pub url: String,
    /// With `byogit`: the address for raw file access (with `github`: optional, for a
    /// raw host other than GitHub's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_url: Option<String>,
    /// With `byogit`: the program identifier of the external repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// With `byogit`: the repository identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// With `byogit`: the secret that holds the sync secret. Only on the first site of a
    /// shared repository.
    #[serde(rename = "secretId", default, skip_serializing_if = "Option::is_none")]
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

/// `content`: the primary content source and an optional overlay in front of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentConfig {
    /// The primary content source.
    pub source: ContentSource,
    /// A second source asked before the primary one for every page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay: Option<ContentOverlay>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentSource {
    /// Content source address.
    pub url: String,
    /// `markup` for a markup source; the platform's other source types are accepted, and
    /// not previewed by siteops.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = CONTENT_SOURCE_TYPES))]
    pub kind: String,
    /// Appended to the page path on fetch, for example `.html`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentOverlay {
    /// Overlay markup source address, asked before the primary source.
    pub url: String,
    /// Must be `markup`.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = OVERLAY_TYPES))]
    pub kind: String,
}

/// `access`: who may administer the site. Also the body of `access.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessConfig {
    /// Administration access: roles and whether previews need a token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<AdminAccess>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminAccess {
    /// Who holds each administration role. The roles are a closed set, `admin` and
    /// `config_admin`: another key is rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<AdminRoles>,
    /// `auto` (the value the platform uses) or `true`: the site's preview requires a
    /// token. `false`, like leaving it out: it does not.
    #[serde(
        rename = "requireAuth",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(extend("enum" = REQUIRE_AUTH_VALUES))]
    pub require_auth: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminRoles {
    /// E-mail addresses with full admin access; `*` allows everyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<Vec<String>>,
    /// Technical account identifiers allowed to change configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_admin: Option<Vec<String>>,
}

/// The body of `public.json`: configuration the site publishes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublicConfig {
    /// Path mappings and includes of the site's pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<PublicPaths>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublicPaths {
    /// `<source_path>:<target_path>` pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mappings: Option<Vec<String>>,
    /// Source path prefixes that are published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub includes: Option<Vec<String>>,
}

/// The body of `secrets/<id>.json`. Write-only on the service.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretBody {
    /// The secret's value; the service stores it and never returns it.
    pub value: String,
}

impl std::fmt::Debug for SecretBody {
    // Secrets never reach logs, even through a debug print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBody { value: (sensitive) }")
    }
}

/// One entry of the transformation worker's configuration of a branch; the body of
/// `POST {transform_url}/config/<org>/<site>/<branch>` is a non-empty array of these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkerEntry {
    /// Path prefix of the pages this entry handles.
    pub path: String,
    /// JSON source address; may hold `{{id}}` and header placeholders.
    pub endpoint: String,
    /// JavaScript regular-expression literal whose whole match is `{{id}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// Path of the Mustache template in the site's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Headers sent to the endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,
    /// Incoming request headers passed on to the endpoint request.
    #[serde(
        rename = "forwardHeaders",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub forward_headers: Option<Vec<String>>,
    /// URL origin put in front of relative media URLs in the generated HTML.
    #[serde(
        rename = "relativeURLPrefix",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub relative_url_prefix: Option<String>,
    /// Dotted path to the array of page records in a listing document (`""`: the root).
    #[serde(rename = "arrayKey", default, skip_serializing_if = "Option::is_none")]
    pub array_key: Option<String>,
    /// Field of each record that holds the page path.
    #[serde(rename = "pathKey", default, skip_serializing_if = "Option::is_none")]
    pub path_key: Option<String>,
    /// Key for fetching templates from a site with site authentication.
    #[serde(
        rename = "templateApiKey",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub template_api_key: Option<String>,
    /// Fetch the site's `/config.json` and apply its path mappings.
    #[serde(
        rename = "useAEMMapping",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub use_aem_mapping: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(kind: &str, raw_url: Option<&str>) -> CodeConfig {
        CodeConfig {
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
