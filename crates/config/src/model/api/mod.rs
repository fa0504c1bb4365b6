//! The JSON bodies of the administration API and of the transformation worker's
//! configuration, exactly as they go over the wire: every property of the platform's
//! site, profile and org documents (its schemas, `../shared/reference/platform/schemas-1.73.0/`)
//! and the interface's sub-resources. Field names are the API's, so serde renames are the
//! only translation; `deny_unknown_fields` where the platform closes an object, open maps
//! (with the platform's key pattern in the schema) where it has `patternProperties`.
//!
//! Optional fields are `Option` so that a body round-trips unchanged: an empty list the
//! user wrote stays an empty list, an absent one stays absent. Fields the service stamps
//! (`created`, `lastModified`, `contentBusId`) are accepted and never compiled.
//!
//! One module per concern; the types are re-exported here.

pub mod access;
pub mod cdn;
pub mod code;
pub mod content;
pub mod delivery;
pub mod features;
pub mod indexing;
pub mod org;
pub mod public;
pub mod sidekick;
pub mod worker;

pub use access::*;
pub use cdn::*;
pub use code::*;
pub use content::*;
pub use delivery::*;
pub use features::*;
pub use indexing::*;
pub use org::*;
pub use public::*;
pub use sidekick::*;
pub use worker::*;

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
/// `version` of a site configuration: 1 is the only one.
pub const SITE_VERSIONS: [u32; 1] = [1];
/// Code source types siteops knows. Not a closed set: the interface allows any hosted
/// repository type besides `byogit`, so the schemas give these as `examples` only and
/// validation warns about another value instead of rejecting it.
pub const KNOWN_CODE_SOURCE_TYPES: [&str; 2] = ["github", "byogit"];
/// The platform's site names: they are part of a host name (`<branch>--<site>--<org>`).
pub const SITE_NAME_PATTERN: &str = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
/// A profile's name, as `extends.profile` gives it.
pub const PROFILE_NAME_PATTERN: &str = "^[0-9a-zA-Z-_]+$";
/// The keys of the platform's maps of groups, secrets, tokens, features and limits.
pub const ID_KEY_PATTERN: &str = "^[a-zA-Z0-9-_=]+$";

// The rules of single values that a JSON schema can state, as the schemas state them. The
// semantic rules (`crate::rules`) check the same and say it with their own codes and help;
// each schema carries the rule's code as `x-siteops-rule` beside the constraint (see
// `schema::RULE_KEYWORD`), and `tests/it/schemas.rs` holds both to one verdict.

/// The scheme, host and port of an http(s) URL, as `rules::http_url` takes it: `http` or
/// `https` (any case), a domain whose last label starts with a letter (a last label of
/// digits would be read as an IPv4 address) or a dotted IPv4 address, a port up to 65535.
/// No label starts with `xn--` (punycode that may not decode). Every match parses.
macro_rules! url_origin {
    ($userinfo:literal) => {
        concat!(
            r"[Hh][Tt][Tt][Pp][Ss]?://",
            $userinfo,
            r"(?:(?:(?![Xx][Nn]--)[A-Za-z0-9_-]+\.)*(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9_-]*",
            r"|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9]))",
            r"(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?",
        )
    };
}

/// An absolute http(s) URL with a host: an origin with optional user info, then a path,
/// query or fragment without spaces.
pub const HTTP_URL_PATTERN: &str =
    concat!("^", url_origin!(r"(?:[^\s/?#@\\]+@)?"), r"(?:[/?#]\S*)?$");
/// A URL origin (`relativeURLPrefix`): no user info, path, query, fragment or trailing
/// slash.
pub const URL_ORIGIN_PATTERN: &str = concat!("^", url_origin!(""), "$");
/// A worker entry's `template`: an absolute path, or an http(s) URL.
pub const TEMPLATE_PATTERN: &str = concat!(
    "^/|^",
    url_origin!(r"(?:[^\s/?#@\\]+@)?"),
    r"(?:[/?#]\S*)?$"
);
/// An absolute path: starts with `/`.
pub const ABSOLUTE_PATH_PATTERN: &str = "^/";
/// The longest name the service keys its store by (a byogit repository's owner and repo, a
/// secret id): the service's `MAX_NAME_LEN`.
pub const MAX_NAME_LEN: u32 = 250;

/// The schema of `version`: the closed set [`SITE_VERSIONS`], without the `minimum` of a
/// `u32`, which would report a negative version a second time.
pub(crate) fn site_version_schema(schema: &mut schemars::Schema) {
    schema.remove("minimum");
    schema.insert("enum".into(), serde_json::json!(SITE_VERSIONS));
}

/// A schema transform for a map whose keys must match `pattern`: the platform's
/// `patternProperties`, with any other key refused.
pub(crate) fn pattern_keys(pattern: &'static str) -> impl FnMut(&mut schemars::Schema) {
    move |schema| {
        let values = schema
            .remove("additionalProperties")
            .unwrap_or(serde_json::Value::Bool(true));
        schema.insert(
            "patternProperties".into(),
            serde_json::json!({ pattern: values }),
        );
        schema.insert("additionalProperties".into(), false.into());
    }
}

/// The site and profile documents share every field but a few; one definition of them
/// keeps the two in step. `$extra` are the fields of one document only.
macro_rules! config_document {
    ($(#[$meta:meta])* pub struct $name:ident { $($extra:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Always 1.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(transform = site_version_schema)]
            pub version: Option<u32>,
            /// Human-readable title; no effect on the configuration.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub title: Option<String>,
            /// Description for clarity; no effect on the configuration.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub description: Option<String>,
            /// Stamped by the service; never compiled.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            #[schemars(extend("format" = "date-time"))]
            pub created: Option<String>,
            /// Stamped by the service; never compiled.
            #[serde(rename = "lastModified", default, skip_serializing_if = "Option::is_none")]
            #[schemars(extend("format" = "date-time"))]
            pub last_modified: Option<String>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub code: Option<CodeConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub content: Option<ContentConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub folders: Option<FoldersConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub headers: Option<HeadersConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub cdn: Option<CdnConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub access: Option<AccessConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub tokens: Option<Tokens>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub secrets: Option<SecretEntries>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub groups: Option<Groups>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub sidekick: Option<SidekickConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub metadata: Option<MetadataConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub robots: Option<RobotsConfig>,
            /// The public configuration, also its own resource (`public.json`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub public: Option<PublicConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub editor: Option<EditorConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub events: Option<EventsConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub features: Option<FeaturesConfig>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub limits: Option<LimitsConfig>,
            $($extra)*
        }
    };
}

config_document! {
    /// The site document: `POST /config/<org>/sites/<site>.json`.
    pub struct SiteConfig {
        /// The site's name, part of its host names.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(regex(pattern = SITE_NAME_PATTERN))]
        pub name: Option<String>,
        /// The admin API keys issued for the site.
        #[serde(rename = "apiKeys", default, skip_serializing_if = "Option::is_none")]
        pub api_keys: Option<ApiKeys>,
        /// The profile whose configuration the site takes (`default` when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extends: Option<Extends>,
    }
}

config_document! {
    /// A profile document, whose fields every site that extends it takes:
    /// `POST /config/<org>/profiles/<profile>.json`.
    pub struct ProfileConfig {
        /// The admin API keys issued for the profile, which hold on every site that
        /// extends it (the service's; the platform's profile has none).
        #[serde(rename = "apiKeys", default, skip_serializing_if = "Option::is_none")]
        pub api_keys: Option<ApiKeys>,
    }
}

/// `extends`: what a site builds on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Extends {
    /// The profile's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = PROFILE_NAME_PATTERN))]
    pub profile: Option<String>,
}
