//! The raw repository file formats, as written under `sites/<org>/<site>/`, plus the
//! org's own files beside its sites (`org.toml`, `<profile>.profile.toml`). They reuse the
//! API types where a file is the body as is (`public.toml`, `access.toml`, the code and
//! content blocks), and differ where the repository needs more than the wire: a base site
//! to inherit code from, secrets named by environment variable, worker entry examples.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::api::{
    ABSOLUTE_PATH_PATTERN, HEADER_NAME_PATTERN, HTTP_URL_PATTERN, TEMPLATE_PATTERN,
    URL_ORIGIN_PATTERN, header_map, listing_keys,
};
use super::api::{
    AccessConfig, ApiKeys, ID_KEY_PATTERN, OrgAccess, PublicConfig, ROLE_PATTERN, Registry, User,
    pattern_keys,
};
use super::api::{
    CONTENT_SOURCE_TYPES, CdnConfig, CodeConfig, ContentConfig, EditorConfig, EventsConfig,
    Extends, FeaturesConfig, FoldersConfig, Groups, HeadersConfig, LimitsConfig, MetadataConfig,
    RobotsConfig, SidekickConfig, site_version_schema,
};

/// `siteops.toml` at the repository root: settings shared by every site.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsFile {
    /// Address of the transformation worker; URLs in site files may say `{transform_url}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub transform_url: Option<String>,
    /// Local checkouts of code repositories, for `siteops serve`: `"owner/repo" = "DIR"`,
    /// the directory relative to this file. Its files are the repository's code on every
    /// branch, and saving one reloads the open preview pages.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub code: BTreeMap<String, String>,
}

/// `site.toml`: the site configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
// serde cannot deny unknown fields beside a flattened struct; the schema, checked before
// the file is typed, refuses them instead.
#[schemars(extend("additionalProperties" = false))]
pub struct SiteFile {
    /// Always 1; may be left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = site_version_schema)]
    pub version: Option<u32>,
    /// A site of the same org (`site`) or another (`org/site`) whose code this site shares,
    /// instead of a `[code]` table of its own (repoless sites).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Marks an environment site (for example `production`): its name must equal the site
    /// named in its `content.source.url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<CodeConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentConfig>,
    /// Admin API keys the service mints for this site, by name (the `description` the
    /// service records): apply asks for each one it does not find and writes its token to
    /// `--secrets-out`.
    #[serde(
        rename = "apiKeys",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    #[schemars(transform = pattern_keys(API_KEY_NAME_PATTERN))]
    pub api_keys: BTreeMap<String, MadeApiKey>,
    #[serde(flatten)]
    pub parts: SiteParts,
}

/// The names of API keys the repository declares: the platform's keys of `apiKeys`.
pub const API_KEY_NAME_PATTERN: &str = "^[a-zA-Z0-9-_]+$";

/// An admin API key the service mints (`[apiKeys.<name>]` with `made = "service"`): its
/// token is the service's, never the repository's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MadeApiKey {
    /// Always `"service"`: the service makes the token.
    pub made: MadeBy,
    /// The roles the key holds on the sites it is for.
    #[schemars(length(min = 1), inner(regex(pattern = ROLE_PATTERN)))]
    pub roles: Vec<String>,
}

/// Who makes a value the repository does not hold: `service`, the administration
/// service, which answers the value once, when it makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MadeBy {
    Service,
}

/// The parts of a site document that a `site.toml` writes as the API names them, beside
/// `code` and `content`. What the service records (`created`, `apiKeys`, `tokens`, stored
/// `secrets`) is not written here. Credentials (`[cdn.prod]` purge tokens) name their
/// environment variable, as `secrets.toml` does.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct SiteParts {
    /// Human-readable title; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description for clarity; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The profile the site takes its defaults from (`default` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<Extends>,
    /// Folder path -> the page that serves every page under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folders: Option<FoldersConfig>,
    /// Path glob -> response headers, `[[headers."/**"]]` with `key` and `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<HeadersConfig>,
    /// The production CDN and host overrides; credentials by environment variable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cdn: Option<CdnConfig<EnvRef>>,
    /// Groups that `access.toml` may name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Groups>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sidekick: Option<SidekickConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<MetadataConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robots: Option<RobotsConfig>,
    /// Editor name -> its settings, an open table (`[editor.<name>]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<EditorConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<EventsConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<FeaturesConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<LimitsConfig>,
}

/// `<org>/<profile>.profile.toml`: a profile, the same parts as a site's (its access
/// and public blocks included), which every site that extends it takes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ProfileFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<CodeConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public: Option<PublicConfig>,
    #[serde(flatten)]
    pub parts: SiteParts,
}

/// `<org>/org.toml`: the org's users, groups, secrets and API keys.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrgFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub users: Option<Vec<User>>,
    /// Groups that the sites' access blocks may name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Groups>,
    /// The org's secrets (site authentication's `secretId` names them), by environment
    /// variable.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))]
    pub secrets: BTreeMap<String, EnvRef>,
    /// The admin API keys issued, as the platform records them; `apiKeyId` names their ids.
    #[serde(rename = "apiKeys", default, skip_serializing_if = "Option::is_none")]
    pub api_keys: Option<ApiKeys>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<OrgAccess>,
    /// Editor name -> its settings, an open table (`[editor.<name>]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<EditorConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<Registry>,
}

/// `secrets.toml`: one table per secret id, naming the environment variable that holds
/// the value, or saying the service makes it. Values never live in the repository.
pub type SecretsFile = BTreeMap<String, SecretSource>;

/// Where a secret's value comes from: an environment variable (`env`), or the service
/// (`made = "service"`: apply asks it to make the secret when it does not exist and writes
/// the value, answered once, to `--secrets-out`). One of the two.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("minProperties" = 1, "maxProperties" = 1))]
pub struct SecretSource {
    /// Name of the environment variable that holds the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_]*$"))]
    pub env: Option<String>,
    /// `"service"`: the service makes the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "MadeBy")]
    pub made: Option<MadeBy>,
}

impl SecretSource {
    /// A value read from variable `name`.
    pub fn env(name: String) -> SecretSource {
        SecretSource {
            env: Some(name),
            made: None,
        }
    }

    /// A value the service makes.
    pub fn made() -> SecretSource {
        SecretSource {
            env: None,
            made: Some(MadeBy::Service),
        }
    }

    pub fn is_made(&self) -> bool {
        self.made.is_some()
    }

    /// The variable, for a value read from one.
    pub fn env_ref(&self) -> Option<EnvRef> {
        self.env.clone().map(|env| EnvRef { env })
    }
}

/// A sensitive value, read from an environment variable when the configuration is compiled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvRef {
    /// Name of the environment variable that holds the value.
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_]*$"))]
    pub env: String,
}

/// `transform/<branch>.toml`: the worker configuration of one branch.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransformFile {
    /// The entries, tried in order; the first whose `path` prefixes the page path wins.
    #[schemars(length(min = 1))]
    pub entry: Vec<TransformEntryFile>,
}

/// One `[[entry]]`: the worker entry's keys, with `templateApiKey` read from the
/// environment, plus `examples` that validation checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = listing_keys)]
pub struct TransformEntryFile {
    /// Path prefix of the pages this entry handles.
    #[schemars(regex(pattern = ABSOLUTE_PATH_PATTERN), extend("x-siteops-rule" = "invalid-worker-path"))]
    pub path: String,
    /// JSON source address; may hold `{{id}}` and header placeholders.
    pub endpoint: String,
    /// JavaScript regular-expression literal whose whole match is `{{id}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<String>,
    /// Path of the Mustache template in the site's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = TEMPLATE_PATTERN), extend("x-siteops-rule" = "invalid-value"))]
    pub template: Option<String>,
    /// Headers sent to the endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = header_map)]
    pub headers: Option<BTreeMap<String, String>>,
    /// Incoming request headers passed on to the endpoint request.
    #[serde(
        rename = "forwardHeaders",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(inner(regex(pattern = HEADER_NAME_PATTERN)), extend("x-siteops-rule" = "invalid-header"))]
    pub forward_headers: Option<Vec<String>>,
    /// URL origin put in front of relative media URLs in the generated HTML.
    #[serde(
        rename = "relativeURLPrefix",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(regex(pattern = URL_ORIGIN_PATTERN), extend("x-siteops-rule" = "invalid-url-prefix"))]
    pub relative_url_prefix: Option<String>,
    /// Dotted path to the array of page records in a listing document (`""`: the root).
    #[serde(rename = "arrayKey", default, skip_serializing_if = "Option::is_none")]
    pub array_key: Option<String>,
    /// Field of each record that holds the page path.
    #[serde(rename = "pathKey", default, skip_serializing_if = "Option::is_none")]
    pub path_key: Option<String>,
    /// A key is a credential, so the file names its environment variable.
    #[serde(
        rename = "templateApiKey",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub template_api_key: Option<EnvRef>,
    /// Fetch the site's `/config.json` and apply its path mappings.
    #[serde(
        rename = "useAEMMapping",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub use_aem_mapping: Option<bool>,
    /// Page paths this entry must handle; validation computes `{{id}}` and the endpoint for
    /// each (`siteops validate --explain` prints them). Not sent to the worker.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// `fstab.yaml`: the platform's file-based alternative for the primary content source.
/// Read as input; `site.toml`'s `[content]` takes precedence when both exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FstabFile {
    /// Content sources by path; `/` is the primary source.
    pub mountpoints: BTreeMap<String, Mountpoint>,
    /// Folder mappings of the legacy file; accepted and not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folders: Option<BTreeMap<String, String>>,
}

impl FstabFile {
    /// The `/` mountpoint as a primary content source, when it has a type.
    pub fn root_source(&self) -> Option<super::api::ContentSource> {
        match self.mountpoints.get("/")? {
            Mountpoint::Url(_) => None,
            Mountpoint::Full(table) => Some(super::api::ContentSource {
                suffix: table.suffix.clone(),
                ..super::api::ContentSource::new(table.kind.as_deref()?, &table.url)
            }),
        }
    }
}

/// `paths.yaml`: the legacy path-mapping file of a site's code. Ignored once public path
/// mappings are configured.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct LegacyPaths {
    #[serde(default)]
    pub mappings: Vec<String>,
    #[serde(default)]
    pub includes: Vec<String>,
}

/// A mountpoint is either a bare URL or a table with `url`, `type` and `suffix`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Mountpoint {
    Url(String),
    Full(MountpointTable),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MountpointTable {
    /// Content source address.
    pub url: String,
    /// `markup` for a markup source; the platform's other source types are accepted, and
    /// not previewed by siteops.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = CONTENT_SOURCE_TYPES))]
    pub kind: Option<String>,
    /// Appended to the page path on fetch, for example `.html`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
}
