//! The typed site store under the server: reads of what the administration service stores
//! (site documents, public configurations, repository registrations, jobs, worker
//! configurations) as typed documents, with an error of their own. The admin routes, the
//! worker, the preview hosts and code sync all read through here.
//!
//! Every document was validated when it was written, so one that does not read back is
//! damaged (edited by hand, or written by another version): that is an error naming the
//! document and what is wrong, never a silent "absent", which could, for instance, turn a
//! site that requires authentication into an open one. The HTTP answer (500) is made at
//! the route edge ([`crate::api::ApiError`] from [`SiteError`]).

pub mod documents;
pub mod legacy;
mod names;
pub mod onboarding;
pub mod repos;
pub mod sealed;
mod user_lists;
pub mod versions;

pub use documents::{DEFAULT_PROFILE, OrgDocument, OrgShared, Profile, load_org, load_profile};
pub use names::{MAX_NAME_LEN, is_name};
pub use user_lists::UserLists;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::code::CodeRepo;
use crate::store::{Store, StoreError, keys};
use siteops_config::model::api::{
    AccessConfig, CodeConfig, ContentConfig, Groups, Holder, PublicConfig,
    SiteAccess as SiteAuthentication, SiteConfig,
};

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("the stored document `{key}` is damaged: {reason}")]
    Damaged { key: String, reason: String },
    #[error("cannot seal `{key}`: {reason}")]
    Seal { key: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The value of `org/site`'s secret `id`, for the service's own use (code sync, webhooks).
pub async fn secret_value(
    store: &dyn Store,
    org: &str,
    site: &str,
    id: &str,
) -> Result<Option<String>, SiteError> {
    Ok(secret(store, org, site, id)
        .await?
        .map(|secret| secret.value))
}

/// `org/site`'s secret `id`: its value and the origin it was issued for.
pub async fn secret(
    store: &dyn Store,
    org: &str,
    site: &str,
    id: &str,
) -> Result<Option<repos::SyncSecret>, SiteError> {
    let Some(site) = load(store, org, site).await? else {
        return Ok(None);
    };
    site.secret(id)
}

/// The field of a stored secret entry, beside the platform's, that records the origin its
/// value was issued for: the origin of the site's code `raw_url` when the value was
/// written, if the code block names the secret (`code.source.secretId`). Set by the
/// service, never by a request body, never answered.
pub const SECRET_ORIGIN: &str = "origin";

/// The origin a value written now for `org/site`'s secret `id` is issued for: the origin
/// of the site's code `raw_url`, when its code block names `id` as its `secretId`.
pub(crate) fn secret_origin(site: &Site, id: &str) -> Option<String> {
    let code = site.code()?;
    if code.source.secret_id.as_deref() != Some(id) {
        return None;
    }
    repos::origin_of(&code.raw_base()?)
}

/// The site authentication of the preview hosts (and the worker's pages, which feed
/// them): `access.preview`, else `access.site`. `access.live` is the live site's, which
/// siteops does not serve.
pub fn preview_authentication(config: &SiteConfig) -> Option<&SiteAuthentication> {
    let access = config.access.as_ref()?;
    access.preview.as_ref().or(access.site.as_ref())
}

/// Whether a site's content needs a credential: `requireAuth` (`auto` or `true`), or site
/// authentication on the preview ([`preview_authentication`]).
pub fn content_is_protected(config: &SiteConfig) -> bool {
    config
        .access
        .as_ref()
        .is_some_and(AccessConfig::requires_auth)
        || preview_authentication(config).is_some()
}

/// The JSON record at `key`, typed; `None` when there is none.
pub async fn read<T: DeserializeOwned>(
    store: &dyn Store,
    key: &str,
) -> Result<Option<T>, SiteError> {
    let Some(bytes) = store.get(key).await? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| SiteError::Damaged {
            key: key.to_string(),
            reason: error.to_string(),
        })
}

/// The names (without `.json`) of the JSON documents directly in `folder`, last name
/// first: newest first where names sort by creation, as job names do.
pub async fn names_newest_first(store: &dyn Store, folder: &str) -> Result<Vec<String>, SiteError> {
    let files = store.list(folder).await?;
    Ok(files
        .iter()
        .rev()
        .filter_map(|file| file.strip_suffix(".json"))
        .map(str::to_string)
        .collect())
}

/// The JSON document at `key` that holds credentials, opened if sealed ([`sealed`]), typed;
/// `None` when there is none.
pub(crate) async fn read_sealed<T: DeserializeOwned>(
    store: &dyn Store,
    key: &str,
) -> Result<Option<T>, SiteError> {
    let Some(bytes) = store.get(key).await? else {
        return Ok(None);
    };
    let damaged = |reason: String| SiteError::Damaged {
        key: key.to_string(),
        reason,
    };
    let clear = sealed::open_bytes(key, bytes).map_err(damaged)?;
    serde_json::from_slice(&clear)
        .map(Some)
        .map_err(|error| damaged(error.to_string()))
}

/// Writes a JSON document that holds credentials at `key`, sealed when the service has a
/// secrets key ([`sealed`]).
pub(crate) async fn write_sealed<T: serde::Serialize>(
    store: &dyn Store,
    key: &str,
    value: &T,
) -> Result<(), SiteError> {
    let clear = serde_json::to_vec_pretty(value).expect("JSON serializes");
    let bytes = sealed::seal_bytes(key, &clear).map_err(|reason| SiteError::Seal {
        key: key.to_string(),
        reason,
    })?;
    Ok(store.put(key, &bytes).await?)
}

/// Fields the service manages on stored documents; a client may send them back, they
/// are ignored.
pub const MANAGED: [&str; 2] = ["created", "lastModified"];

/// A stored site document: one document per site, the platform's, with its public
/// configuration, secrets and API key records in it; the JSON as stored and its typed
/// configuration, read once when loaded; and what the site uses ([`Site::effective`]):
/// its document over its profile, with the org's groups and secrets its access names.
///
/// A secret entry's `value` is stored sealed ([`sealed::seal_value`], bound to the
/// secret's name [`keys::secret`]) when the service has a secrets key, and may carry
/// [`SECRET_ORIGIN`]; neither is ever answered ([`answer_of`]).
#[derive(Debug, Clone)]
pub struct Site {
    pub org: String,
    pub name: String,
    /// The document as stored, with the service's fields (`created`, `lastModified`).
    pub json: Value,
    /// The site's own document, typed: what writes change.
    pub config: SiteConfig,
    /// What the site uses: its document over its profile (the same as `config` without
    /// one). Access decisions, the content source and the code read this.
    pub effective: SiteConfig,
    /// The document over its profile as JSON, when it has one (the `aggregated` answer).
    aggregated: Option<Value>,
    /// The org's groups and secrets, read when the site's access names one it does not
    /// define itself.
    org_shared: Option<OrgShared>,
    /// The origin each secret's value was issued for, by secret id.
    origins: std::collections::BTreeMap<String, String>,
    /// The profile the site is laid over, and the ids of the API keys it records.
    profile_keys: Option<(String, std::collections::BTreeSet<String>)>,
    /// The user lists its access names, as previewed ([`user_lists`]).
    user_lists: UserLists,
}

impl Site {
    /// Reads a stored document as `org/name`'s site.
    pub fn from_json(org: &str, name: &str, mut json: Value) -> Result<Site, SiteError> {
        let key = keys::site(org, name);
        legacy_require_auth(&key, &mut json);
        let mut platform = without_managed(json.clone());
        let origins = take_origins(&key, &mut platform)?;
        let config: SiteConfig = typed(&key, platform)?;
        Ok(Site {
            org: org.to_string(),
            name: name.to_string(),
            json,
            effective: config.clone(),
            config,
            aggregated: None,
            org_shared: None,
            origins,
            profile_keys: None,
            user_lists: UserLists::default(),
        })
    }

    /// The site laid over `profile` (the config crate's one merge rule: objects key by
    /// key, other values replaced); damaged, naming the profile, when the result does not
    /// read as a site.
    pub fn over(mut self, profile: &Profile) -> Result<Site, SiteError> {
        let merged = siteops_config::model::effective::over(&profile.shared(), &self.json);
        let mut platform = without_managed(merged.clone());
        take_origins(&keys::site(&self.org, &self.name), &mut platform)?;
        let key = format!(
            "{} over {}",
            keys::site(&self.org, &self.name),
            keys::profile(&profile.org, &profile.name)
        );
        self.effective = typed(&key, platform)?;
        self.aggregated = Some(merged);
        let ids = profile
            .config
            .api_keys
            .iter()
            .flat_map(|keys| keys.0.keys());
        self.profile_keys = Some((profile.name.clone(), ids.cloned().collect()));
        Ok(self)
    }

    /// The document as the API answers it: secrets without their values and without
    /// what the service keeps beside them.
    pub fn answer(&self) -> Value {
        answer_of(&self.json)
    }

    /// The document over its profile as the API answers it (`aggregated`).
    pub fn aggregated_answer(&self) -> Value {
        answer_of(self.aggregated.as_ref().unwrap_or(&self.json))
    }

    /// The profile the site takes: `extends.profile`, else [`DEFAULT_PROFILE`].
    pub fn profile_name(&self) -> &str {
        self.config
            .extends
            .as_ref()
            .and_then(|extends| extends.profile.as_deref())
            .unwrap_or(DEFAULT_PROFILE)
    }

    /// The org's groups, when the site's access names one of them.
    pub fn org_groups(&self) -> Option<&Groups> {
        self.org_shared.as_ref()?.groups.as_ref()
    }

    /// The user lists the site's access names, each as its sheet was last previewed.
    pub fn user_lists(&self) -> &UserLists {
        &self.user_lists
    }

    /// Whether the site's access names a group or a secret it does not define (its own
    /// document and its profile's), which the org's may: only then is the org's document
    /// read with the site's.
    fn names_org_parts(&self) -> bool {
        let Some(access) = &self.effective.access else {
            return false;
        };
        let groups = self.effective.groups.as_ref();
        let unknown_group = |entry: &String| match Holder::of(entry) {
            Holder::Group(id) => !groups.is_some_and(|groups| groups.0.contains_key(id)),
            _ => false,
        };
        let holders = access
            .admin
            .iter()
            .flat_map(|admin| admin.role.iter())
            .flat_map(|roles| roles.0.values().flatten());
        let rules = [&access.site, &access.preview, &access.live];
        let allowed = rules
            .iter()
            .filter_map(|rule| rule.as_ref()?.allow.as_ref())
            .flatten();
        let secrets = self.effective.secrets.as_ref();
        let unknown_secret = rules
            .iter()
            .filter_map(|rule| rule.as_ref()?.secret_id.as_ref())
            .flatten()
            .any(|id| !secrets.is_some_and(|secrets| secrets.0.contains_key(id)));
        holders.chain(allowed).any(unknown_group) || unknown_secret
    }

    /// Whether the document records API key `id` (`apiKeys.<id>`): a key holds only while
    /// it does, so deleting the record revokes it.
    pub fn records_key(&self, id: &str) -> bool {
        self.config
            .api_keys
            .as_ref()
            .is_some_and(|keys| keys.0.contains_key(id))
    }

    /// Whether the site is laid over profile `name` (it extends it, and it exists).
    pub fn extends(&self, name: &str) -> bool {
        self.profile_keys
            .as_ref()
            .is_some_and(|(profile, _)| profile == name)
    }

    /// Whether the site is laid over profile `name` and that profile records API key `id`.
    pub fn profile_records_key(&self, name: &str, id: &str) -> bool {
        self.profile_keys
            .as_ref()
            .is_some_and(|(profile, ids)| profile == name && ids.contains(id))
    }

    /// Secret `id`'s value, opened, and the origin it was issued for: the site's own
    /// secret, else the org's of that id (when the site's access names it).
    pub fn secret(&self, id: &str) -> Result<Option<repos::SyncSecret>, SiteError> {
        let own = self.config.secrets.as_ref().and_then(|s| s.0.get(id));
        let (entry, name, key) = match own {
            Some(entry) => (
                entry,
                keys::secret(&self.org, &self.name, id),
                keys::site(&self.org, &self.name),
            ),
            None => {
                let org = self
                    .org_shared
                    .as_ref()
                    .and_then(|org| org.secrets.as_ref());
                let Some(entry) = org.and_then(|s| s.0.get(id)) else {
                    return Ok(None);
                };
                let org = &self.org;
                (entry, keys::org_secret(org, id), keys::org_document(org))
            }
        };
        let Some(stored) = &entry.value else {
            // A hashed secret (the platform's form): no value to use.
            return Ok(None);
        };
        let value = sealed::open_value(&name, stored).map_err(|reason| SiteError::Damaged {
            key,
            reason: format!("secret `{id}`: {reason}"),
        })?;
        Ok(Some(repos::SyncSecret {
            value,
            origin: self.origins.get(id).cloned(),
        }))
    }

    /// The code the site uses (its own code block, else its profile's).
    pub fn code(&self) -> Option<&CodeConfig> {
        self.effective.code.as_ref()
    }

    /// The content source the site uses.
    pub fn content(&self) -> Option<&ContentConfig> {
        self.effective.content.as_ref()
    }

    /// The access block the site uses: who may do what is decided on this.
    pub fn access(&self) -> Option<&AccessConfig> {
        self.effective.access.as_ref()
    }

    /// The site's own access block: what a write of its document changes.
    pub fn own_access(&self) -> Option<&AccessConfig> {
        self.config.access.as_ref()
    }

    /// Whether the site's content needs a credential ([`content_is_protected`]).
    pub(crate) fn protects_content(&self) -> bool {
        content_is_protected(&self.effective)
    }

    /// The site's code repository, when it has a code block.
    pub fn code_repo(&self) -> Option<CodeRepo> {
        self.code().map(CodeRepo::of)
    }
}

/// `org/site`'s stored site document, with what it uses ([`Site::effective`]); `None`
/// when the site does not exist.
///
/// The document and the [`DEFAULT_PROFILE`] are read together (one round trip); a site
/// that extends another profile costs a second, and one whose access names a group or a
/// secret of the org's a third (the org's document), and each user list it names one or
/// two more (the sheet's preview record, then its JSON). A profile the site names that
/// does not exist adds nothing.
pub async fn load(store: &dyn Store, org: &str, site: &str) -> Result<Option<Site>, SiteError> {
    let key = keys::site(org, site);
    let (document, default) = tokio::join!(
        read::<Value>(store, &key),
        load_profile(store, org, DEFAULT_PROFILE),
    );
    let Some(json) = document? else {
        return Ok(None);
    };
    let site = Site::from_json(org, site, json)?;
    let profile = match site.profile_name() {
        DEFAULT_PROFILE => default?,
        other => load_profile(store, org, other).await?,
    };
    let lays = Layers {
        profile: Some((site.profile_name().to_string(), profile.as_ref())),
        org: None,
    };
    compose(store, site, lays).await.map(Some)
}

/// What a site is laid over in [`compose`] instead of what the store holds: a profile
/// (by name; `None`, the profile does not exist) or the org's document, as a write
/// would leave them. A layer left `None` is read from the store.
#[derive(Debug, Clone, Default)]
pub struct Layers<'a> {
    pub profile: Option<(String, Option<&'a Profile>)>,
    pub org: Option<Option<&'a OrgDocument>>,
}

/// `site` (its own document, as [`Site::from_json`] reads it) with what it uses: laid
/// over the profile it extends and given the org's groups and secrets its access names,
/// each from `layers` where given, else from the store. Reads what a write of the site,
/// a profile or the org's document would make of a site ([`crate::auth::powers`]), as
/// [`load`] reads what it is.
pub async fn compose(store: &dyn Store, site: Site, layers: Layers<'_>) -> Result<Site, SiteError> {
    let mut site = site;
    let loaded;
    let profile = match layers.profile {
        Some((name, profile)) if name == site.profile_name() => profile,
        _ => {
            loaded = load_profile(store, &site.org, site.profile_name()).await?;
            loaded.as_ref()
        }
    };
    if let Some(profile) = profile {
        site = site.over(profile)?;
    }
    if site.names_org_parts() {
        site.org_shared = match layers.org {
            Some(org) => org.map(OrgDocument::shared),
            None => load_org(store, &site.org).await?.map(|org| org.shared()),
        };
    }
    if let Some(access) = &site.effective.access {
        let names = (site.org.as_str(), site.name.as_str());
        site.user_lists = user_lists::load(store, names, access.user_lists()).await?;
    }
    Ok(site)
}

/// `org/site`'s public configuration (`public` of what it uses).
pub async fn public(
    store: &dyn Store,
    org: &str,
    site: &str,
) -> Result<Option<PublicConfig>, SiteError> {
    Ok(load(store, org, site)
        .await?
        .and_then(|site| site.effective.public))
}

/// A stored document as the API answers it: secrets without their values and without
/// what the service keeps beside them. A kept secret is answered as the platform answers
/// a hashed one, with a `hash`: a digest of what is stored (base64url SHA-256 of the sealed
/// value, or of the value where nothing is sealed), which changes when the value does and
/// gives nothing of it away.
pub fn answer_of(json: &Value) -> Value {
    use base64::Engine as _;
    use sha2::Digest as _;
    let mut answer = json.clone();
    if let Some(Value::Object(secrets)) = answer.get_mut("secrets") {
        for entry in secrets.values_mut() {
            if let Value::Object(entry) = entry {
                if let Some(Value::String(stored)) = entry.remove("value") {
                    let digest = sha2::Sha256::digest(stored.as_bytes());
                    let hash = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest);
                    entry.entry("hash").or_insert(Value::String(hash));
                }
                entry.remove(SECRET_ORIGIN);
            }
        }
    }
    answer
}

/// The content bus of `content`: the id the document carries, else the one the service
/// stamps on a document written without one ([`derived_content_bus_id`]).
pub(crate) fn content_bus_id(content: &ContentConfig) -> String {
    content
        .content_bus_id
        .clone()
        .unwrap_or_else(|| derived_content_bus_id(&content.source.url))
}

/// The content bus id the service gives a document that has none: 40 hex digits of the
/// SHA-256 of the primary source's URL, so sites that share a source share it, and the
/// same document written to two services gets the same id.
pub(crate) fn derived_content_bus_id(source_url: &str) -> String {
    use sha2::Digest as _;
    hex::encode(&sha2::Sha256::digest(source_url.as_bytes())[..20])
}

/// `access.admin.requireAuth` as older siteops stored it (`"true"`, `"false"`): read as
/// the boolean, as `siteops validate` does, with a warning in the log, not as damage.
pub(crate) fn legacy_require_auth(key: &str, json: &mut Value) {
    let Some(slot) = json.pointer_mut("/access/admin/requireAuth") else {
        return;
    };
    if let Some(flag) = siteops_config::model::api::legacy_require_auth(slot) {
        tracing::warn!(
            document = key,
            "`requireAuth` is the string \"{flag}\" (older siteops): read as {flag}"
        );
        *slot = Value::Bool(flag);
    }
}

/// Takes [`SECRET_ORIGIN`] out of each secret entry of a stored document (the platform's
/// entry has no such field), by secret id; damaged when one is not a string.
fn take_origins(
    key: &str,
    document: &mut Value,
) -> Result<std::collections::BTreeMap<String, String>, SiteError> {
    let mut origins = std::collections::BTreeMap::new();
    let Some(Value::Object(secrets)) = document.get_mut("secrets") else {
        return Ok(origins);
    };
    for (id, entry) in secrets.iter_mut() {
        let Value::Object(entry) = entry else {
            continue;
        };
        match entry.remove(SECRET_ORIGIN) {
            None | Some(Value::Null) => {}
            Some(Value::String(origin)) => {
                origins.insert(id.clone(), origin);
            }
            Some(_) => {
                return Err(SiteError::Damaged {
                    key: key.to_string(),
                    reason: format!("secret `{id}`: `{SECRET_ORIGIN}` is not a string"),
                });
            }
        }
    }
    Ok(origins)
}

/// The document at `key` as a `T`; a damaged one names the field that does not read
/// (`` `access.admin.role`: invalid type… ``).
fn typed<T: DeserializeOwned>(key: &str, json: Value) -> Result<T, SiteError> {
    serde_path_to_error::deserialize(json).map_err(|error| {
        let path = error.path().to_string();
        let reason = error.into_inner().to_string();
        SiteError::Damaged {
            key: key.to_string(),
            reason: if path == "." {
                reason
            } else {
                format!("`{path}`: {reason}")
            },
        }
    })
}

/// `value` without the service's fields.
pub(crate) fn without_managed(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        for field in MANAGED {
            map.remove(field);
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn site(json: Value) -> Result<Site, SiteError> {
        Site::from_json("acme", "web", json)
    }

    #[test]
    fn a_stored_site_reads_typed_with_the_service_fields_kept_in_its_json() {
        let stored = json!({
            "version": 1,
            "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
            "access": null,
            "created": "2026-01-01T00:00:00Z",
            "lastModified": "2026-01-02T00:00:00Z",
        });
        let site = site(stored.clone()).expect("a valid document");
        assert_eq!(
            site.code_repo().map(|r| r.to_string()).as_deref(),
            Some("acme/web")
        );
        assert!(site.access().is_none() && site.content().is_none());
        assert_eq!(site.json, stored);
    }

    #[test]
    fn a_damaged_site_names_the_document_and_what_is_wrong() {
        let message = site(json!({"code": {"owner": "acme"}}))
            .expect_err("damaged")
            .to_string();
        assert!(
            message.starts_with(
                "the stored document `config/acme/sites/web.json` is damaged: `code`: missing field"
            ),
            "{message}"
        );
        let unknown = site(json!({"versoin": 1}))
            .expect_err("damaged")
            .to_string();
        assert!(unknown.contains("unknown field `versoin`"), "{unknown}");
    }
}
