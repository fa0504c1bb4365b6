//! The body of `public.json`: configuration the site publishes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
    #[schemars(inner(regex(pattern = MAPPING_PATTERN)), extend("x-siteops-rule" = "invalid-mapping"))]
    pub mappings: Option<Vec<String>>,
    /// Source path prefixes that are published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(inner(regex(pattern = INCLUDE_PATTERN)), extend("x-siteops-rule" = "invalid-include"))]
    pub includes: Option<Vec<String>>,
}

/// A path mapping: two absolute paths (no `:` or spaces) joined by `:`.
pub const MAPPING_PATTERN: &str = r"^/[^:\s]*:/[^:\s]*$";
/// A published path prefix: an absolute path, no `:` or spaces.
pub const INCLUDE_PATTERN: &str = r"^/[^:\s]*$";
