//! The transformation worker's configuration of a branch.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
