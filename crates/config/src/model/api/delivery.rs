//! What the delivery does with a site's pages beyond content and code: response headers
//! by path glob (`headers`), folder mappings (`folders`), metadata sheets
//! (`metadata.source`) and `robots.txt` (`robots`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::pattern_keys;

/// `headers`: path glob (`/**`, `/blog/*.json`) -> the headers of its responses, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct HeadersConfig(
    #[schemars(transform = pattern_keys(r"^[a-zA-Z0-9-/._*]+$"))]
    pub  BTreeMap<String, Vec<HeaderPair>>,
);

/// One response header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeaderPair {
    pub key: String,
    pub value: String,
}

/// `folders`: folder path -> the path of the page that serves every page under it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct FoldersConfig(
    #[schemars(transform = pattern_keys(r"^/[a-zA-Z0-9-_/.]*$"))] pub BTreeMap<String, String>,
);

/// `metadata`: where page metadata comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetadataConfig {
    /// Paths of the metadata sheets, applied in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Vec<String>>,
}

/// `robots`: the site's `robots.txt`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotsConfig {
    /// The text served as `/robots.txt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txt: Option<String>,
}
