//! The body of `public.json`: configuration the site publishes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The body of `public.json`: configuration the site publishes. Open, as the platform's
/// schema is: besides `paths` (the interface's), a site publishes what its code reads, and
/// a document exported from the platform carries it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct PublicConfig {
    /// Path mappings and includes of the site's pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<PublicPaths>,
    /// Everything else the site publishes, kept as written.
    #[serde(flatten)]
    pub other: serde_json::Map<String, serde_json::Value>,
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
