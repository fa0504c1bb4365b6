//! `access`: who may administer a site (`admin`: roles by e-mail glob or group, the
//! default role, API keys) and who may read it (`site`, `preview`, `live`: site
//! authentication). Also the body of `access.json`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The roles the platform knows (`view` since its schema of 1.73.0); `admin.role` may
/// also grant custom roles whose names match [`ROLE_PATTERN`].
pub const KNOWN_ROLES: [&str; 9] = [
    "admin",
    "view",
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
    /// The block with every holder entry (of `admin.role`, but `config_admin`'s technical
    /// accounts, and of the `allow` lists) passed through `rewrite`.
    pub fn map_holders(mut self, rewrite: impl Fn(&str) -> Option<String>) -> AccessConfig {
        let rewrite_all = |entries: &mut Vec<String>| {
            for entry in entries.iter_mut() {
                if let Some(new) = rewrite(entry) {
                    *entry = new;
                }
            }
        };
        let roles = self.admin.as_mut().and_then(|admin| admin.role.as_mut());
        for (role, holders) in roles.into_iter().flat_map(|roles| roles.0.iter_mut()) {
            if role != "config_admin" {
                rewrite_all(holders);
            }
        }
        for rule in [&mut self.site, &mut self.preview, &mut self.live] {
            if let Some(allow) = rule.as_mut().and_then(|rule| rule.allow.as_mut()) {
                rewrite_all(allow);
            }
        }
        self
    }

    /// The block as the platform stores it: each bare group id (siteops's shorthand)
    /// written as the reference `/groups/<id>.json`. What `compile` sends.
    pub fn platform_form(self) -> AccessConfig {
        self.map_holders(|entry| match Holder::of(entry) {
            Holder::Group(id) if !entry.trim().starts_with('/') => Some(group_reference(id)),
            _ => None,
        })
    }

    /// The block as a repository writes it: each reference `/groups/<id>.json` as the
    /// bare id, which [`AccessConfig::platform_form`] turns back. What `import` writes.
    pub fn readable_form(self) -> AccessConfig {
        self.map_holders(|entry| match Holder::of(entry) {
            Holder::Group(id) if entry.trim().starts_with('/') => Some(id.to_string()),
            _ => None,
        })
    }

    /// The user lists the block's holder entries name (paths, sorted, once each).
    pub fn user_lists(&self) -> std::collections::BTreeSet<&str> {
        let roles = self.admin.iter().flat_map(|admin| admin.role.iter());
        let holders = roles
            .flat_map(|roles| roles.0.iter())
            .filter(|(role, _)| *role != "config_admin")
            .flat_map(|(_, holders)| holders);
        let allowed = [&self.site, &self.preview, &self.live]
            .into_iter()
            .filter_map(|rule| rule.as_ref()?.allow.as_ref())
            .flatten();
        holders
            .chain(allowed)
            .filter_map(|entry| match Holder::of(entry) {
                Holder::UserList(path) => Some(path),
                _ => None,
            })
            .collect()
    }

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
    /// Who holds each role: e-mail globs (`*@acme.example`, `*`), group references
    /// (`/groups/<id>.json`, or the bare id) or user lists (`/users.json`): see
    /// [`Holder`]. The platform's roles ([`KNOWN_ROLES`]) or custom ones.
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

/// Who may hold a role: `*`, a group reference (the platform's `/groups/<id>.json`, or
/// siteops's shorthand, the bare id: letters, digits, `-`, `_`, `=`), a user list (a path
/// of the site's content, `/users.json`), or an e-mail address or glob (one `@`, a dotted
/// domain whose labels neither are empty nor start or end with `-`, no spaces or control
/// characters). The rules ([`Holder`]) say which a path is.
pub const ROLE_HOLDER_PATTERN: &str = concat!(
    r"^(?:\*|[A-Za-z0-9_=-]*|/groups/[A-Za-z0-9_=-]+\.json|/(?!groups/)\S*",
    r"|[^@\s\x00-\x1f\x7f-\x9f]+@",
    r"(?:[^.@\s\x00-\x1f\x7f-\x9f-](?:[^.@\s\x00-\x1f\x7f-\x9f]*[^.@\s\x00-\x1f\x7f-\x9f-])?\.)+",
    r"[^.@\s\x00-\x1f\x7f-\x9f-](?:[^.@\s\x00-\x1f\x7f-\x9f]*[^.@\s\x00-\x1f\x7f-\x9f-])?)$"
);

/// Where a group reference points, as the platform stores it: `/groups/<id>.json`.
pub const GROUP_REFERENCE_PREFIX: &str = "/groups/";

/// What a holder entry of a role (or of an `allow` list) names, as the platform reads it
/// (helix-api-service `getUserListPaths`: an entry that starts with `/groups/` references
/// a group; any other that starts with `/` is a user list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder<'a> {
    /// `*`: every signed-in caller.
    Everyone,
    /// An e-mail address or glob (any other entry with an `@`).
    Address(&'a str),
    /// A group, by id: `/groups/<id>.json`, or siteops's shorthand, the bare id.
    Group(&'a str),
    /// A user list: the path of a sheet of the site's content (`/users.json`) whose
    /// e-mail addresses hold the role once it is previewed.
    UserList(&'a str),
    /// Neither: an entry under `/groups/` that is not `/groups/<id>.json` with a valid id,
    /// or one without `@` that is no group id.
    Invalid(&'a str),
}

impl<'a> Holder<'a> {
    /// What `entry` (trimmed) names.
    pub fn of(entry: &'a str) -> Holder<'a> {
        let entry = entry.trim();
        if entry == "*" {
            return Holder::Everyone;
        }
        if let Some(rest) = entry.strip_prefix(GROUP_REFERENCE_PREFIX) {
            return match rest.strip_suffix(".json") {
                Some(id) if is_group_id(id) => Holder::Group(id),
                _ => Holder::Invalid(entry),
            };
        }
        if entry.starts_with('/') {
            return Holder::UserList(entry);
        }
        if entry.contains('@') {
            return Holder::Address(entry);
        }
        if is_group_id(entry) {
            Holder::Group(entry)
        } else {
            Holder::Invalid(entry)
        }
    }
}

/// Whether `id` can name a group (the platform's key pattern of `groups`).
pub fn is_group_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_=".contains(&b))
}

/// The platform's reference to group `id`: `/groups/<id>.json`.
pub fn group_reference(id: &str) -> String {
    format!("{GROUP_REFERENCE_PREFIX}{id}.json")
}

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

/// A role the platform defines; the closed set of `defaultRole` and of a user's roles
/// (`view` since the platform's schema of 1.73.0).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum KnownRole {
    Admin,
    // Since the platform's schema of 1.73.0 (a plain comment: a doc comment would make
    // the schema a `oneOf`).
    View,
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

    #[test]
    fn holders_as_the_platform_reads_them() {
        for (entry, holder) in [
            ("*", Holder::Everyone),
            ("web@acme.example", Holder::Address("web@acme.example")),
            ("/groups/editors.json", Holder::Group("editors")),
            ("editors", Holder::Group("editors")),
            (" /users.json ", Holder::UserList("/users.json")),
            ("/editor", Holder::UserList("/editor")),
            ("/groups/editors", Holder::Invalid("/groups/editors")),
            ("/groups/a b.json", Holder::Invalid("/groups/a b.json")),
            ("someone at acme", Holder::Invalid("someone at acme")),
        ] {
            assert_eq!(Holder::of(entry), holder, "{entry}");
        }
    }

    #[test]
    fn group_ids_become_references_and_back() {
        let readable: AccessConfig = serde_json::from_value(json!({
            "admin": {"role": {
                "author": ["editors", "/users.json", "*@acme.example"],
                "config_admin": ["tech"]
            }},
            "preview": {"allow": ["reviewers"]}
        }))
        .unwrap();
        let platform = readable.clone().platform_form();
        assert_eq!(
            serde_json::to_value(&platform).unwrap(),
            json!({
                "admin": {"role": {
                    "author": ["/groups/editors.json", "/users.json", "*@acme.example"],
                    "config_admin": ["tech"]
                }},
                "preview": {"allow": ["/groups/reviewers.json"]}
            })
        );
        assert_eq!(platform.clone().platform_form(), platform);
        assert_eq!(platform.readable_form(), readable);
        assert_eq!(
            readable.user_lists().into_iter().collect::<Vec<_>>(),
            ["/users.json"]
        );
    }
}
