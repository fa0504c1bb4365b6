//! `features`, `limits`, `editor` and `events`: switches and quotas the platform reads by
//! name, the editors' settings, and where the site's events go. `features`, `limits` and
//! `editor` are open objects on the platform (any keys, any values), so their entries stay
//! JSON objects here.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{ID_KEY_PATTERN, pattern_keys};

/// `features`: feature name -> its settings, which the platform does not define.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct FeaturesConfig(
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))] pub BTreeMap<String, Map<String, Value>>,
);

/// `editor` (schema 1.73.0): editor name -> its settings, which the platform leaves open.
/// Its names are narrower than features' (no `=`), and nothing but named objects is taken.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct EditorConfig(
    #[schemars(transform = pattern_keys(EDITOR_KEY_PATTERN))]
    pub  BTreeMap<String, Map<String, Value>>,
);

/// The names of `editor`'s entries.
pub const EDITOR_KEY_PATTERN: &str = "^[a-zA-Z0-9-_]+$";

/// `limits`: limit name -> its settings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct LimitsConfig(
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))] pub BTreeMap<String, Limit>,
);

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Limit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The limit's other settings, which the platform leaves open.
    #[serde(flatten)]
    pub settings: BTreeMap<String, Value>,
}

/// `events`: where the site's events are sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventsConfig {
    pub github: GithubEvents,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GithubEvents {
    /// The repository that receives the events, `owner/repo`.
    #[schemars(regex(pattern = r"^[a-zA-Z0-9_-]+/[a-zA-Z0-9_-]+$"))]
    pub target: String,
}
