//! The transformation worker's configuration of a branch.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ABSOLUTE_PATH_PATTERN, TEMPLATE_PATTERN, URL_ORIGIN_PATTERN};

/// An HTTP header name: a token (RFC 9110).
pub const HEADER_NAME_PATTERN: &str = r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";
/// A header value: no control characters but tab.
pub const HEADER_VALUE_PATTERN: &str = r"^[^\x00-\x08\x0a-\x1f\x7f-\x9f]*$";

/// The schema of an entry's `headers`: names that are header names, values without control
/// characters (`invalid-header`).
pub(crate) fn header_map(schema: &mut schemars::Schema) {
    schema.insert(
        "propertyNames".into(),
        serde_json::json!({"pattern": HEADER_NAME_PATTERN}),
    );
    schema.insert(
        "additionalProperties".into(),
        serde_json::json!({"type": "string", "pattern": HEADER_VALUE_PATTERN}),
    );
    schema.insert("x-siteops-rule".into(), "invalid-header".into());
}

/// The schema of an entry's listing keys (`invalid-listing`): `arrayKey` and `pathKey` go
/// together, and a listing entry has no `regex` (a null is absent).
pub(crate) fn listing_keys(schema: &mut schemars::Schema) {
    let rule = |given: &str, then: serde_json::Value| {
        serde_json::json!({
            "if": {"properties": {given: {"type": "string"}}, "required": [given]},
            "then": then,
        })
    };
    schema.insert(
        "allOf".into(),
        serde_json::json!([
            rule(
                "arrayKey",
                serde_json::json!({
                    "required": ["pathKey"],
                    "properties": {"pathKey": {"type": "string"}, "regex": {"type": "null"}},
                    "x-siteops-rule": "invalid-listing",
                })
            ),
            rule(
                "pathKey",
                serde_json::json!({
                    "required": ["arrayKey"],
                    "properties": {"arrayKey": {"type": "string"}},
                    "x-siteops-rule": "invalid-listing",
                })
            ),
        ]),
    );
}

/// One entry of the transformation worker's configuration of a branch; the body of
/// `POST {transform_url}/config/<org>/<site>/<branch>` is a non-empty array of these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = listing_keys)]
pub struct WorkerEntry {
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
