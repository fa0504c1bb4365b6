//! `sidekick`: the authoring browser extension's settings for the site. Plugins and
//! special views are open objects on the platform: their known keys are typed, others kept.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::pattern_keys;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SidekickConfig {
    /// The label of the custom editing environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_url_label: Option<String>,
    /// The URL pattern of the custom editing environment (`{{contentSourceUrl}}`,
    /// `{{pathname}}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_url_pattern: Option<String>,
    /// The production host (overrides `cdn.prod.host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "hostname"))]
    pub host: Option<String>,
    /// The live host (overrides `cdn.live.host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "hostname"))]
    pub live_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugins: Option<Vec<SidekickPlugin>>,
    /// The preview host (overrides `cdn.preview.host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "hostname"))]
    pub preview_host: Option<String>,
    /// The project name the sidekick shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The review host (overrides `cdn.review.host`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "hostname"))]
    pub review_host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special_views: Option<Vec<SpecialView>>,
    /// More hosts trusted with the sidekick's authentication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted_hosts: Option<Vec<String>>,
    /// Milliseconds to wait for Word to save before previewing (default 1500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub word_save_delay: Option<Number>,
}

/// The badge colours (Spectrum's badge variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BadgeVariant {
    Gray,
    Red,
    Orange,
    Yellow,
    Chartreuse,
    Celery,
    Green,
    Seafoam,
    Cyan,
    Blue,
    Indigo,
    Purple,
    Fuchsia,
    Magenta,
}

/// Where a plugin shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SidekickEnvironment {
    Any,
    Dev,
    Admin,
    Edit,
    Preview,
    Review,
    Live,
    Prod,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("dependentRequired" = {
    "isPalette": ["url"],
    "paletteRect": ["isPalette"],
    "isPopover": ["url"],
    "popoverRect": ["isPopover"],
    "badgeVariant": ["isBadge"]
}))]
pub struct SidekickPlugin {
    /// The unique plugin id.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge_variant: Option<BadgeVariant>,
    /// The container plugin this one goes in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environments: Option<Vec<SidekickEnvironment>>,
    /// A custom event fired on click (default: the id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_paths: Option<Vec<String>>,
    /// Paths that show the plugin (over `excludePaths`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_paths: Option<Vec<String>>,
    // A key another depends on (`dependentRequired`) is not nullable in the schema: a
    // null is stored as absent, which would leave the dependent key without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool")]
    pub is_badge: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_container: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool")]
    pub is_palette: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool")]
    pub is_popover: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette_rect: Option<String>,
    /// Append ref, repo, owner, host and project to the URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_config: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_referrer: Option<bool>,
    /// In the bar (`true`, the default) or the menu.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub popover_rect: Option<String>,
    /// The button text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The button text by language (`en`, `en-US`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = pattern_keys(r"^[a-z]{2}(-[A-Z]{2})?$"), extend("minProperties" = 1))]
    pub title_i18n: Option<BTreeMap<String, String>>,
    /// The URL opened on click.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub url: Option<String>,
    /// Keys the platform does not define, kept as they are.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpecialView {
    /// The unique view id.
    pub id: String,
    /// The paths the view opens on (`/foo/**.json`).
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The view's URL; it gets the resource path as `path`.
    pub viewer: String,
    /// Keys the platform does not define, kept as they are.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}
