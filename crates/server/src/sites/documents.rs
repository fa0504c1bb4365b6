//! The org's documents beside its sites: the org document (`config/<org>.json` on the
//! platform) and its profiles (`config/<org>/profiles/<name>.json`), typed as site
//! documents are (read once; one that does not read back is damaged, never absent), and
//! how a site's document lays over its profile (the config crate's one merge rule,
//! [`siteops_config::model::effective::over`]).

use serde_json::Value;

use super::{SiteError, legacy_require_auth, read, take_origins, typed, without_managed};
use crate::store::{Store, keys};
use siteops_config::model::api::{Groups, OrgConfig, ProfileConfig, SecretEntries, User};

/// The profile a site without `extends.profile` takes, when it exists.
pub const DEFAULT_PROFILE: &str = "default";

/// The parts of a stored document only the service writes (secret values sealed for
/// their own document, API key records): never laid over a site.
const OWN_PARTS: [&str; 3] = ["secrets", "apiKeys", "tokens"];

/// A stored profile document.
#[derive(Debug, Clone)]
pub struct Profile {
    pub org: String,
    pub name: String,
    /// The document as stored, with the service's fields.
    pub json: Value,
    pub config: ProfileConfig,
}

impl Profile {
    /// Reads a stored document as `org`'s profile `name`.
    pub fn from_json(org: &str, name: &str, mut json: Value) -> Result<Profile, SiteError> {
        let key = keys::profile(org, name);
        legacy_require_auth(&key, &mut json);
        let config = typed(&key, without_managed(json.clone()))?;
        Ok(Profile {
            org: org.to_string(),
            name: name.to_string(),
            json,
            config,
        })
    }

    /// What a site that extends the profile takes from it: the document without the
    /// service's fields and without what belongs to the profile alone (its secrets, whose
    /// values are sealed for it, and its API key records).
    pub(crate) fn shared(&self) -> Value {
        let mut shared = without_managed(self.json.clone());
        if let Value::Object(map) = &mut shared {
            for part in OWN_PARTS {
                map.remove(part);
            }
        }
        shared
    }
}

/// A stored org document.
#[derive(Debug, Clone)]
pub struct OrgDocument {
    pub org: String,
    pub json: Value,
    pub config: OrgConfig,
}

impl OrgDocument {
    /// Reads a stored document as `org`'s.
    pub fn from_json(org: &str, json: Value) -> Result<OrgDocument, SiteError> {
        let key = keys::org_document(org);
        let mut platform = without_managed(json.clone());
        take_origins(&key, &mut platform)?;
        let config = typed(&key, platform)?;
        Ok(OrgDocument {
            org: org.to_string(),
            json,
            config,
        })
    }

    /// Whether the document records API key `id` (`apiKeys.<id>`), which holds on every
    /// site of the org while it does.
    pub fn records_key(&self, id: &str) -> bool {
        self.config
            .api_keys
            .as_ref()
            .is_some_and(|keys| keys.0.contains_key(id))
    }

    /// The org's users (who hold roles on every site and profile of the org).
    pub fn users(&self) -> &[User] {
        self.config.users.as_deref().unwrap_or_default()
    }

    /// What a site may name from the org: its groups and its secrets.
    pub(crate) fn shared(&self) -> OrgShared {
        OrgShared {
            groups: self.config.groups.clone(),
            secrets: self.config.secrets.clone(),
        }
    }
}

/// The org's groups and secrets, which a site's access block may name (a role holder or
/// an `allow` entry naming a group id, a `secretId` naming a secret).
#[derive(Debug, Clone, Default)]
pub struct OrgShared {
    pub groups: Option<Groups>,
    pub secrets: Option<SecretEntries>,
}

/// `org`'s profile `name`; `None` when there is none.
pub async fn load_profile(
    store: &dyn Store,
    org: &str,
    name: &str,
) -> Result<Option<Profile>, SiteError> {
    read::<Value>(store, &keys::profile(org, name))
        .await?
        .map(|json| Profile::from_json(org, name, json))
        .transpose()
}

/// `org`'s document; `None` when there is none.
pub async fn load_org(store: &dyn Store, org: &str) -> Result<Option<OrgDocument>, SiteError> {
    read::<Value>(store, &keys::org_document(org))
        .await?
        .map(|json| OrgDocument::from_json(org, json))
        .transpose()
}

/// The names of `org`'s profiles, sorted.
pub async fn profile_names(store: &dyn Store, org: &str) -> Result<Vec<String>, SiteError> {
    Ok(store
        .list(&keys::profiles(org))
        .await?
        .into_iter()
        .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
        .collect())
}
