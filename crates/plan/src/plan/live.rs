//! The live state: what the service answered to GET, as data. `remote::live` fills it;
//! [`super::diff`] reads it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::Body;
use crate::versions::DocumentVersion;
use siteops_config::api_path::PathFamily;
use siteops_config::compile::{Owner, ResourceKind, masked};
use siteops_config::model::SiteId;

/// The live state of every site read: the repository's sites, and with `--prune` the
/// other sites of its orgs; and the org documents and profiles read likewise.
#[derive(Debug, Clone, Default)]
pub struct LiveState {
    pub sites: BTreeMap<SiteId, LiveSite>,
    /// Org → its document, of the orgs read that have one.
    pub orgs: BTreeMap<String, Value>,
    /// (org, profile) → its document, of the profiles read that exist.
    pub profiles: BTreeMap<(String, String), Value>,
    /// The orgs whose profiles the service listed (with `--prune`): only a listed profile
    /// can be pruned.
    pub profiles_listed: BTreeSet<String>,
    /// The path family it was read in: the newer one answers a `byogit` code source as
    /// `github`, which the diff reads as the repository's `byogit`.
    pub family: PathFamily,
    /// Of each document read (the org's, a profile's, a site's) whose service keeps
    /// versions, the newest version: who changed it last, and whether apply did.
    pub versions: BTreeMap<Owner, DocumentVersion>,
    /// Without pruning, what the service has in the plan's reach beyond what was read
    /// (`remote::live::survey`): names only, and never in the [`LiveState::fingerprint`]
    /// (a site made by hand after the plan does not touch what the plan writes).
    pub others: Others,
}

/// What the service has, within the plan's reach, that the live state holds only by
/// name: what `--prune` would read and delete, found without it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Others {
    /// Listed sites that the repository does not have.
    pub sites: BTreeSet<SiteId>,
    /// Listed profiles (org, name) that the repository does not have.
    pub profiles: BTreeSet<(String, String)>,
    /// Of the repository's sites, the documents that exist beyond those read (the index
    /// and sitemap configurations, worker branches the repository does not configure).
    pub documents: BTreeMap<SiteId, BTreeSet<ResourceKind>>,
}

#[derive(Debug, Clone, Default)]
pub struct LiveSite {
    /// The site document; `None` when the site does not exist (then nothing else does).
    pub document: Option<Value>,
    pub public: Option<Value>,
    /// The index configuration (`content/query.yaml`), parsed from its YAML.
    pub query: Option<Value>,
    /// The sitemap configuration (`content/sitemap.yaml`), parsed from its YAML.
    pub sitemap: Option<Value>,
    /// Secret id → what GET shows of it: its id and dates, never its value.
    pub secrets: BTreeMap<String, Value>,
    /// Whether `secrets` holds every secret of the site (the service listed them), not
    /// only those the repository names. Only a listed secret can be pruned.
    pub secrets_listed: bool,
    /// The records of the site's minted API keys (id, description, roles, dates), by the
    /// key the service files them under; read when the repository declares keys.
    pub api_keys: BTreeMap<String, Value>,
    /// Branch → worker entries (which may hold `templateApiKey` values).
    pub workers: BTreeMap<String, Body>,
    /// Whether `workers` holds every branch that has entries.
    pub branches_listed: bool,
}

impl LiveState {
    /// `sha256:<hex>` of the live state with secret values masked. Any write to a read
    /// resource changes it (the service stamps `lastModified`), so a saved plan can tell
    /// that the state it was made against is gone. Worker keys are masked rather than
    /// hashed: a hash of a short key could be guessed back; a changed key still changes
    /// the plan itself, which apply compares too.
    pub fn fingerprint(&self) -> String {
        let mut sites = Map::new();
        for (id, site) in &self.sites {
            let workers: Map<String, Value> = site
                .workers
                .iter()
                .map(|(branch, Body(entries))| {
                    let kind = ResourceKind::Worker(branch.clone());
                    (branch.clone(), masked(&kind, entries))
                })
                .collect();
            let mut state = json!({
                "document": site.document,
                "public": site.public,
                "secrets": site.secrets,
                "secretsListed": site.secrets_listed,
                "workers": workers,
                "branchesListed": site.branches_listed,
            });
            // Added only when read, so the fingerprint of a state without them is what it was.
            for (name, body) in [("query", &site.query), ("sitemap", &site.sitemap)] {
                if let Some(body) = body {
                    state[name] = body.clone();
                }
            }
            if !site.api_keys.is_empty() {
                state["apiKeys"] = json!(site.api_keys);
            }
            sites.insert(id.to_string(), state);
        }
        // The org's documents are masked (their secrets' values are write-only, a service
        // answers none; a masked one cannot be guessed back), and added only when read, so
        // the fingerprint of a state of sites alone is what it was.
        let mut state = Value::Object(sites);
        if !self.orgs.is_empty() {
            let orgs: Map<String, Value> = (self.orgs.iter())
                .map(|(org, body)| (org.clone(), masked(&ResourceKind::Org, body)))
                .collect();
            state = json!({ "sites": state, "orgs": orgs });
        }
        if !self.profiles.is_empty() || !self.profiles_listed.is_empty() {
            let profiles: Map<String, Value> = (self.profiles.iter())
                .map(|((org, name), body)| {
                    (
                        format!("{org}/{name}"),
                        masked(&ResourceKind::Profile, body),
                    )
                })
                .collect();
            state = json!({
                "state": state,
                "profiles": profiles,
                "profilesListed": self.profiles_listed,
            });
        }
        // serde_json's map is sorted: the serialization is canonical.
        let bytes = serde_json::to_vec(&state).expect("JSON serializes");
        let digest = Sha256::digest(&bytes);
        let hex = hex::encode(digest);
        format!("sha256:{hex}")
    }
}
