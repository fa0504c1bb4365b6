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
    pub mappings: Option<Vec<String>>,
    /// Source path prefixes that are published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub includes: Option<Vec<String>>,
}
