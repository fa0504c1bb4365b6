//! Plans: what it takes to bring a service's live state to the repository's desired state.
//!
//! Pure: [`diff`] compares the compiled resources ([`Compiled`]) with the live state that
//! the caller read ([`LiveState`], see `remote::live`) and returns a [`Plan`], a value
//! that renderers print ([`render`], [`markdown`]) and `apply` carries out.
//!
//! A plan shows bodies only with secret values masked ([`REDACTED`]): a plan can be
//! printed, logged, saved and posted anywhere. The bodies to send, secret values included,
//! ride along in [`Planned::body`], which is never serialized and never printed.
//!
//! What the plan manages: per org, its document (when the repository has `org.toml`) and
//! each profile; per site, the site document (which holds `code`, `content` and `access`,
//! so the compiled `code.json` and `access.json` are not planned separately),
//! `public.json`, the index and sitemap configurations (YAML on the service, compared as
//! data), each secret, and each branch's worker configuration. Of each document, only the
//! parts the repository declares ([`ownership`]).
//!
//! A plan also shows what its writes of profiles reach without writing it ([`effective`]):
//! the effective configuration of each site that extends a changing profile.

mod diff;
pub mod effective;
mod live;
pub mod markdown;
pub mod ownership;
pub mod render;
pub mod repreview;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use diff::{PlanError, diff};
pub(crate) use diff::{SERVER_MANAGED, changes};
pub use effective::{Reach, SiteEffect};
pub use live::{LiveSite, LiveState, Others};

use crate::versions::DocumentVersion;
use siteops_config::compile::{Owner, REDACTED, ResourceKind};
use siteops_config::model::SiteId;

/// The version of the JSON plan document; bumped on any incompatible change.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    Create,
    Update,
    Delete,
    NoOp,
}

/// The kinds of resource a plan manages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The org's document.
    Org,
    /// A profile's document (`name`: the profile).
    Profile,
    Site,
    Public,
    Secret,
    /// An admin API key the service mints (`name`: the key's name, the `description` the
    /// service records).
    #[serde(rename = "apiKey")]
    ApiKey,
    /// The worker configuration of one branch.
    Worker,
    /// The index configuration (`content/query.yaml`).
    Query,
    /// The sitemap configuration (`content/sitemap.yaml`).
    Sitemap,
}

/// A body that may hold secret values: compared and sent, never printed.
#[derive(Clone, PartialEq)]
pub struct Body(pub Value);

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Body(..)")
    }
}

/// One field that differs, addressed by JSON pointer. Values are masked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// One resource of the plan and what happens to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planned {
    /// The resource's path, as `siteops compile --out` writes it.
    pub address: String,
    pub org: String,
    /// Empty for the org's and a profile's document.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub site: String,
    pub kind: Kind,
    /// The secret id, the branch, or the profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub action: Action,
    /// Whether the body holds secret values (shown masked).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sensitive: bool,
    /// Why, where the action needs explaining (a replaced secret, a pruned resource).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Of a profile that changes: the sites of the repository that extend it (`org/site`),
    /// whose effective configuration changes with it.
    #[serde(rename = "extendedBy", default, skip_serializing_if = "Vec::is_empty")]
    pub extended_by: Vec<String>,
    /// Of a profile that changes: each site that extends it (of the repository, or live
    /// only) whose effective configuration changes with it, and how ([`effective`]). A
    /// consequence of this write, never a write of its own: apply writes only the profile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effective: Vec<SiteEffect>,
    /// Of a profile that changes: how many sites that extend it keep their effective
    /// configuration as it is.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unaffected: usize,
    /// Of a document (the org's, a profile's, a site's): its newest version on the
    /// service, when apply did not write it (the document changed on the service since
    /// the last apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<DocumentVersion>,
    /// The live body, masked, without the fields the service manages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// The desired body, masked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
    /// For an update: the fields that differ.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// The body to send for a create or update, secret values included. Only a plan made
    /// in this process has it; a plan read from a file does not.
    #[serde(skip)]
    pub body: Option<Body>,
    /// Of a document (the org's, a profile's, a site's): [`ownership::digest`] of the
    /// document as the plan read it, which apply compares with the document it reads again
    /// before writing. Only a plan made in this process has it.
    #[serde(skip)]
    pub read: Option<String>,
}

impl Planned {
    pub fn owner(&self) -> Owner {
        let org = self.org.clone();
        match self.kind {
            Kind::Org => Owner::Org(org),
            Kind::Profile => Owner::Profile {
                org,
                name: self.name.clone().unwrap_or_default(),
            },
            _ => Owner::Site(SiteId {
                org,
                site: self.site.clone(),
            }),
        }
    }

    pub fn resource_kind(&self) -> ResourceKind {
        let name = || self.name.clone().unwrap_or_default();
        match self.kind {
            Kind::Org => ResourceKind::Org,
            Kind::Profile => ResourceKind::Profile,
            Kind::Site => ResourceKind::Site,
            Kind::Public => ResourceKind::Public,
            Kind::Secret => ResourceKind::Secret(name()),
            Kind::ApiKey => ResourceKind::ApiKey(name()),
            Kind::Worker => ResourceKind::Worker(name()),
            Kind::Query => ResourceKind::Query,
            Kind::Sitemap => ResourceKind::Sitemap,
        }
    }

    /// Whether applying it has the service make a value (a made secret, an API key),
    /// answered once: apply hands it to its [`crate::apply::MadeValues`], never to a log.
    pub fn makes_value(&self) -> bool {
        matches!(self.action, Action::Create | Action::Update)
            && match (&self.kind, &self.body) {
                (Kind::ApiKey, _) => true,
                (Kind::Secret, Some(Body(body))) => {
                    siteops_config::compile::is_made(&self.resource_kind(), body)
                }
                _ => false,
            }
    }

    /// The secret values of the body to send, for scrubbing messages.
    pub fn secret_values(&self) -> Vec<String> {
        let Some(Body(body)) = &self.body else {
            return Vec::new();
        };
        let resource = siteops_config::compile::Resource {
            owner: self.owner(),
            kind: self.resource_kind(),
            body: body.clone(),
        };
        resource
            .secret_values()
            .into_iter()
            .map(str::to_string)
            .collect()
    }
}

/// What the plan was made with; a saved plan is re-checked with the same settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanSettings {
    /// Delete what the repository no longer has, within its orgs (or `sites`).
    #[serde(default)]
    pub prune: bool,
    /// Only these sites (`org/site`); empty means every site of the repository.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<String>,
    /// Secrets to overwrite although they exist: `id` (in every site) or `org/site/id`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace_secrets: Vec<String>,
    /// Only this shard's sites (`K/N`, [`crate::shard::Shard`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub create: usize,
    pub update: usize,
    pub delete: usize,
    pub unchanged: usize,
    /// Sites whose effective configuration changes with a profile the plan writes
    /// ([`Planned::effective`]); not writes themselves.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub effective: usize,
}

impl Summary {
    /// The writes: resources to create, update and delete.
    pub fn changes(&self) -> usize {
        self.create + self.update + self.delete
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The plan document: `siteops plan --format json` prints it, `--out` saves it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub version: u32,
    pub settings: PlanSettings,
    /// Of the live state the plan was made against ([`LiveState::fingerprint`]).
    pub fingerprint: String,
    /// The administration API's path family the live state was read in (`older`,
    /// `newer`); absent from plans saved before it was recorded.
    #[serde(
        rename = "pathFamily",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub path_family: Option<String>,
    pub summary: Summary,
    /// Things the reader should know, such as what could not be read for pruning.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Without `--prune`: what the service has in the plan's reach that the repository
    /// does not manage, which `--prune` would delete. Not a change: apply leaves it.
    #[serde(default, skip_serializing_if = "Unmanaged::is_empty")]
    pub unmanaged: Unmanaged,
    pub resources: Vec<Planned>,
}

/// What a plan without `--prune` finds live and leaves alone because the repository does
/// not have it: exactly what the same plan with `--prune` deletes. Sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unmanaged {
    /// Sites, as `org/site`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<String>,
    /// Profiles, as `org/profile`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<String>,
    /// Documents of the repository's sites (public configuration, index and sitemap
    /// configurations, secrets, worker branches), by address.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub documents: Vec<String>,
}

impl Unmanaged {
    pub fn is_empty(&self) -> bool {
        self.sites.is_empty() && self.profiles.is_empty() && self.documents.is_empty()
    }
}

impl Plan {
    /// Whether the plan writes anything, or anything's effective configuration changes.
    pub fn has_changes(&self) -> bool {
        self.summary.changes() > 0 || self.summary.effective > 0
    }

    /// The resources that change, in plan order.
    pub fn changes(&self) -> impl Iterator<Item = &Planned> {
        self.resources.iter().filter(|r| r.action != Action::NoOp)
    }

    /// Reads a saved plan, checking its format version.
    pub fn from_json(text: &str) -> Result<Plan, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match value.get("version").and_then(Value::as_u64) {
            Some(v) if v == u64::from(FORMAT_VERSION) => {}
            Some(v) => {
                return Err(format!(
                    "plan format version {v}; this siteops reads {FORMAT_VERSION}"
                ));
            }
            None => return Err("not a siteops plan: no `version`".into()),
        }
        serde_json::from_value(value).map_err(|e| format!("not a siteops plan: {e}"))
    }

    /// Every secret value of the bodies to send, for scrubbing messages.
    pub fn secret_values(&self) -> Vec<String> {
        self.resources
            .iter()
            .flat_map(Planned::secret_values)
            .filter(|v| !v.is_empty())
            .collect()
    }
}

/// Replaces every occurrence of a secret value in `text` by [`REDACTED`]: messages that
/// come back from a service (which may echo a request) pass through this before printing.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut text = text.to_string();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        if text.contains(secret.as_str()) {
            text = text.replace(secret.as_str(), REDACTED);
        }
    }
    text
}
