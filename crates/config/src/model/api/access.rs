//! `access`: who may administer a site (`admin`: roles by e-mail glob or group, the
//! default role, API keys) and who may read it (`site`, `preview`, `live`: site
//! authentication). Also the body of `access.json`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The roles the platform knows; `admin.role` may also grant custom roles whose names
/// match [`ROLE_PATTERN`].
pub const KNOWN_ROLES: [&str; 8] = [
    "admin",
    "author",
    "publish",
    "develop",
    "basic_author",
    "basic_publish",
    "config",
    "config_admin",
];

/// What a role name in `admin.role` must match (the platform's `patternProperties`).
pub const ROLE_PATTERN: &str = "^[a-z-_]+$";

/// `access` of a site or profile. Also the body of `access.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AccessConfig {
    /// Administration access: roles, whether the site requires authentication, API keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<AdminAccess>,
    /// Site authentication of both the preview and the live site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteAccess>,
    /// Site authentication of the preview only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<SiteAccess>,
    /// Site authentication of the live site only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<SiteAccess>,
}

impl AccessConfig {
    /// Whether the site requires authentication, as siteops reads `requireAuth`: `auto`
    /// and `true` do, `false` and an absent value do not.
    pub fn requires_auth(&self) -> bool {
        self.admin
            .as_ref()
            .and_then(|admin| admin.require_auth)
            .is_some_and(RequireAuth::protects)
    }

    /// Who holds `role`, when the access block grants it.
    pub fn holders(&self, role: &str) -> Option<&[String]> {
        self.admin.as_ref()?.role.as_ref()?.get(role)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminAccess {
    /// Who holds each role: e-mail globs (`*@acme.example`, `*`) or group references.
    /// The platform's roles ([`KNOWN_ROLES`]) or custom ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<AdminRoles>,
    /// `true`: the site requires authentication; `auto` (the platform's default): it does
    /// when a role mapping is defined (siteops reads it as `true`); `false`: it does not.
    #[serde(
        rename = "requireAuth",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(schema_with = "require_auth_schema")]
    pub require_auth: Option<RequireAuth>,
    /// Roles every signed-in user holds.
    #[serde(
        rename = "defaultRole",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub default_role: Option<Vec<KnownRole>>,
    /// Ids of the API keys (of `apiKeys`) accepted for administration.
    #[serde(rename = "apiKeyId", default, skip_serializing_if = "Option::is_none")]
    pub api_key_id: Option<Vec<String>>,
}

/// `admin.role`: role name -> e-mail globs or group references. An open map, as on the
/// platform: the keys are checked against [`ROLE_PATTERN`], and validation against the
/// roles known.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct AdminRoles(#[schemars(transform = role_holders)] pub BTreeMap<String, Vec<String>>);

/// Who may hold a role: `*`, a group reference (letters, digits, `-`, `_`, `=`), or an
/// e-mail address or glob (one `@`, a dotted domain whose labels neither are empty nor
/// start or end with `-`, no spaces or control characters).
pub const ROLE_HOLDER_PATTERN: &str = concat!(
    r"^(?:\*|[A-Za-z0-9_=-]*",
    r"|[^@\s\x00-\x1f\x7f-\x9f]+@",
    r"(?:[^.@\s\x00-\x1f\x7f-\x9f-](?:[^.@\s\x00-\x1f\x7f-\x9f]*[^.@\s\x00-\x1f\x7f-\x9f-])?\.)+",
    r"[^.@\s\x00-\x1f\x7f-\x9f-](?:[^.@\s\x00-\x1f\x7f-\x9f]*[^.@\s\x00-\x1f\x7f-\x9f-])?)$"
);
/// Who may hold `config_admin`: a technical account identifier, any text without spaces.
pub const TECHNICAL_ACCOUNT_PATTERN: &str = r"^\S+$";

/// The schema of `admin.role`: names matching [`ROLE_PATTERN`], any other refused; holders
/// matching [`ROLE_HOLDER_PATTERN`], or for `config_admin`, [`TECHNICAL_ACCOUNT_PATTERN`]
/// (the rules, `invalid-access-entry`, say which).
fn role_holders(schema: &mut schemars::Schema) {
    let holders = |pattern: &str| {
        serde_json::json!({
            "type": "array",
            "items": {"type": "string", "pattern": pattern},
            "x-siteops-rule": "invalid-access-entry"
        })
    };
    schema.remove("additionalProperties");
    // Every role but `config_admin`: the lookahead keeps the two sets of holders apart.
    let others = ROLE_PATTERN.replacen('^', "^(?!config_admin$)", 1);
    schema.insert(
        "patternProperties".into(),
        serde_json::json!({ others: holders(ROLE_HOLDER_PATTERN) }),
    );
    schema.insert(
        "properties".into(),
        serde_json::json!({ "config_admin": holders(TECHNICAL_ACCOUNT_PATTERN) }),
    );
    schema.insert("additionalProperties".into(), false.into());
}

impl AdminRoles {
    /// Who holds `role`.
    pub fn get(&self, role: &str) -> Option<&[String]> {
        self.0.get(role).map(Vec::as_slice)
    }

    /// From `(role, holders)` pairs.
    pub fn of<'a>(roles: impl IntoIterator<Item = (&'a str, Vec<String>)>) -> AdminRoles {
        AdminRoles(
            roles
                .into_iter()
                .map(|(role, holders)| (role.to_string(), holders))
                .collect(),
        )
    }
}

/// The schema of `requireAuth`: one closed set of the three values, so that a wrong one
/// is one problem that names them (an `anyOf` of a boolean and a string would not).
fn require_auth_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "enum": [true, false, "auto"] })
}

/// `requireAuth`: a boolean, or `"auto"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RequireAuth {
    Flag(bool),
    Mode(AuthMode),
}

/// The one string value of `requireAuth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    Auto,
}

impl RequireAuth {
    pub const AUTO: RequireAuth = RequireAuth::Mode(AuthMode::Auto);

    /// Whether the site requires authentication: `auto` and `true`.
    pub fn protects(self) -> bool {
        matches!(self, RequireAuth::Flag(true) | RequireAuth::Mode(_))
    }
}

/// `requireAuth` as older siteops wrote it, the strings `"true"` and `"false"`: the
/// boolean each stands for (`None` for any other value). `siteops validate` reads it so,
/// with a warning, and so does the service reading a document an older siteops stored.
pub fn legacy_require_auth(value: &serde_json::Value) -> Option<bool> {
    match value.as_str()? {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A role the platform defines; the closed set of `defaultRole` and of a user's roles.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum KnownRole {
    Admin,
    Author,
    Publish,
    Develop,
    BasicAuthor,
    BasicPublish,
    Config,
    ConfigAdmin,
}

/// `access.site`, `access.preview`, `access.live`: site authentication.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SiteAccess {
    /// E-mail globs or group references of the users allowed to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<String>>,
    /// Ids of the org's (hashed) secrets whose holders may read.
    #[serde(rename = "secretId", default, skip_serializing_if = "Option::is_none")]
    #[schemars(inner(regex(pattern = r"^[a-zA-Z0-9-_=+/]+$")))]
    pub secret_id: Option<Vec<String>>,
    /// Ids of the API keys allowed to read. Deprecated by the platform for `secretId`.
    #[serde(rename = "apiKeyId", default, skip_serializing_if = "Option::is_none")]
    pub api_key_id: Option<Vec<String>>,
}

/// `access` of the org document.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrgAccess {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin: Option<OrgAdminAccess>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrgAdminAccess {
    /// Ids of the API keys allowed to administer the org.
    #[serde(rename = "apiKeyId", default, skip_serializing_if = "Option::is_none")]
    pub api_key_id: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn require_auth_is_a_boolean_or_auto() {
        for (value, protects) in [
            (json!(true), true),
            (json!(false), false),
            (json!("auto"), true),
        ] {
            let parsed: RequireAuth = serde_json::from_value(value.clone()).unwrap();
            assert_eq!(parsed.protects(), protects, "{value}");
            assert_eq!(serde_json::to_value(parsed).unwrap(), value);
        }
        assert!(serde_json::from_value::<RequireAuth>(json!("true")).is_err());
    }

    #[test]
    fn roles_are_an_open_map() {
        let access: AccessConfig = serde_json::from_value(json!({
            "admin": {"role": {"author": ["*@acme.example"], "translators": ["group:lang"]}}
        }))
        .unwrap();
        assert_eq!(
            access.holders("author"),
            Some(&["*@acme.example".to_string()][..])
        );
        assert_eq!(access.holders("admin"), None);
    }
}
