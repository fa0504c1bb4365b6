//! Who and what may act: users, groups, secrets, API keys and tokens, which the org
//! document holds (a site or profile may hold groups, secrets and tokens too), and the
//! org document itself.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::access::{KnownRole, OrgAccess};
use super::{ID_KEY_PATTERN, pattern_keys, site_version_schema};

/// The org document: `POST /config/<org>.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrgConfig {
    /// Always 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(transform = site_version_schema)]
    pub version: Option<u32>,
    /// Stamped by the service; never compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date-time"))]
    pub created: Option<String>,
    /// Stamped by the service; never compiled.
    #[serde(
        rename = "lastModified",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(extend("format" = "date-time"))]
    pub last_modified: Option<String>,
    /// Human-readable title; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description for clarity; no effect on the configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub users: Option<Vec<User>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<Groups>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<SecretEntries>,
    #[serde(rename = "apiKeys", default, skip_serializing_if = "Option::is_none")]
    pub api_keys: Option<ApiKeys>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<OrgAccess>,
    /// Editor name -> its settings (schema 1.73.0), open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<super::EditorConfig>,
    /// Where the org's code repositories are registered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<Registry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Registry {
    Github,
    Custom,
    /// Schema 1.73.0.
    Ims,
}

/// A user of the org.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct User {
    #[schemars(regex(pattern = ID_KEY_PATTERN))]
    pub id: String,
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub roles: Vec<KnownRole>,
}

/// `groups`: group id -> members. `access` names a group by its id.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Groups(
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))] pub BTreeMap<String, Group>,
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub members: Vec<GroupMember>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupMember {
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `secrets` of a document: secret id -> its entry, as the service keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct SecretEntries(
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))] pub BTreeMap<String, SecretEntry>,
);

/// One stored secret: hashed (`hash`) or kept (`value`). Neither is required: the
/// service answers a kept secret without its value (values are write-only), and that
/// answer is this type too.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretEntry {
    #[schemars(regex(pattern = ID_KEY_PATTERN))]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: SecretType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_KEY_PATTERN))]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Stamped by the service, as a document's `created`; a body to write has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date-time"))]
    pub created: Option<String>,
    /// Stamped by the service.
    #[serde(
        rename = "lastModified",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(extend("format" = "date-time"))]
    pub last_modified: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl std::fmt::Debug for SecretEntry {
    // The value never reaches a log, even through a debug print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretEntry")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("value", &self.value.as_ref().map(|_| "(sensitive)"))
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SecretType {
    Hashed,
    Key,
}

/// `apiKeys`: the admin API keys issued, by name. Records only: a key's value is a token
/// the platform issued, not part of the document.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct ApiKeys(
    #[schemars(transform = pattern_keys(r"^[a-zA-Z0-9-_]+$"))] pub BTreeMap<String, ApiKey>,
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApiKey {
    /// The token's id (`jti`): what `apiKeyId` lists.
    #[schemars(regex(pattern = r"^[a-zA-Z0-9-_/+]+$"))]
    pub id: String,
    #[schemars(extend("format" = "date-time"))]
    pub created: String,
    #[schemars(extend("format" = "date-time"))]
    pub expiration: String,
    pub roles: Vec<String>,
    /// The token's subject (`sub`).
    pub subject: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// `tokens`: deprecated by the platform for the org's secrets; read, kept, never written.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Tokens(
    #[schemars(transform = pattern_keys(ID_KEY_PATTERN))] pub BTreeMap<String, Token>,
);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Token {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_KEY_PATTERN))]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_KEY_PATTERN))]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date-time"))]
    pub created: Option<String>,
}

/// The body of `secrets/<id>.json` (a site's or the org's). Write-only on the service.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretBody {
    /// The secret's value; the service stores it and never returns it.
    pub value: String,
}

impl std::fmt::Debug for SecretBody {
    // Secrets never reach logs, even through a debug print.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBody { value: (sensitive) }")
    }
}
