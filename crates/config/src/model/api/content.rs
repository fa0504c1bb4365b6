//! `content`: the primary content source and an optional overlay in front of it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CONTENT_SOURCE_TYPES, HTTP_URL_PATTERN, OVERLAY_TYPES};

/// `content`: the primary content source and an optional overlay in front of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentConfig {
    /// Human-readable title; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description for clarity; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The content bus: stamped by the service, accepted in a body, never compiled.
    #[serde(
        rename = "contentBusId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub content_bus_id: Option<String>,
    /// The primary content source.
    pub source: ContentSource,
    /// A second source asked before the primary one for every page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay: Option<ContentOverlay>,
}

/// A suffix reads as a file extension: `.` and then letters, digits, `.`, `-` or `_`.
pub const SUFFIX_PATTERN: &str = r"^\.[A-Za-z0-9._-]+$";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// The platform requires a google source's folder id (a string: a null is absent), and its
// per-type schemas refuse another type's fields (absent or null here; `rules::content` says
// which type owns them).
#[schemars(extend("allOf" = [
    {
        "if": {"properties": {"type": {"const": "google"}}, "required": ["type"]},
        "then": {"required": ["id"], "properties": {"id": {"type": "string"}}}
    },
    {
        "if": {"properties": {"type": {"const": "markup"}}, "required": ["type"]},
        "then": {
            "properties": {"id": {"type": "null"}, "tenantId": {"type": "null"}, "itemId": {"type": "null"}},
            "x-siteops-rule": "foreign-source-key"
        }
    },
    {
        "if": {"properties": {"type": {"const": "google"}}, "required": ["type"]},
        "then": {
            "properties": {"suffix": {"type": "null"}, "tenantId": {"type": "null"}, "itemId": {"type": "null"}},
            "x-siteops-rule": "foreign-source-key"
        }
    },
    {
        "if": {"properties": {"type": {"const": "onedrive"}}, "required": ["type"]},
        "then": {
            "properties": {"suffix": {"type": "null"}, "id": {"type": "null"}},
            "x-siteops-rule": "foreign-source-key"
        }
    }
]))]
pub struct ContentSource {
    /// Content source address.
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub url: String,
    /// `markup` for a markup source; the platform's other source types are accepted, and
    /// not previewed by siteops.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = CONTENT_SOURCE_TYPES))]
    pub kind: String,
    /// Appended to the page path on fetch, for example `.html`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = SUFFIX_PATTERN), extend("x-siteops-rule" = "invalid-suffix"))]
    pub suffix: Option<String>,
    /// With `google`: the drive id of the root folder (required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// With `onedrive`: the tenant.
    #[serde(rename = "tenantId", default, skip_serializing_if = "Option::is_none")]
    pub tenant_id: Option<String>,
    /// With `onedrive`: the item id of the root folder.
    #[serde(rename = "itemId", default, skip_serializing_if = "Option::is_none")]
    pub item_id: Option<String>,
}

impl ContentConfig {
    /// A content block with only a primary source.
    pub fn of(source: ContentSource) -> ContentConfig {
        ContentConfig {
            title: None,
            description: None,
            content_bus_id: None,
            source,
            overlay: None,
        }
    }
}

impl ContentSource {
    /// A source of `kind` at `url`, nothing else set.
    pub fn new(kind: &str, url: &str) -> ContentSource {
        ContentSource {
            url: url.to_string(),
            kind: kind.to_string(),
            suffix: None,
            id: None,
            tenant_id: None,
            item_id: None,
        }
    }

    /// The fields this source sets that its type does not have (the platform's
    /// per-type schemas), by API name.
    pub fn foreign_fields(&self) -> Vec<&'static str> {
        let set = [
            ("suffix", self.suffix.is_some(), "markup"),
            ("id", self.id.is_some(), "google"),
            ("tenantId", self.tenant_id.is_some(), "onedrive"),
            ("itemId", self.item_id.is_some(), "onedrive"),
        ];
        set.iter()
            .filter(|(_, present, owner)| *present && *owner != self.kind)
            .map(|(name, ..)| *name)
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentOverlay {
    /// Overlay markup source address, asked before the primary source.
    #[schemars(regex(pattern = HTTP_URL_PATTERN), extend("x-siteops-rule" = "invalid-url"))]
    pub url: String,
    /// Must be `markup`.
    #[serde(rename = "type")]
    #[schemars(extend("enum" = OVERLAY_TYPES))]
    pub kind: String,
}
