//! The live state: what the service answered to GET, as data. `remote::live` fills it;
//! [`super::diff`] reads it.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::Body;
use siteops_config::compile::{ResourceKind, masked};
use siteops_config::model::SiteId;

/// The live state of every site read: the repository's sites, and with `--prune` the
/// other sites of its orgs.
#[derive(Debug, Clone, Default)]
pub struct LiveState {
    pub sites: BTreeMap<SiteId, LiveSite>,
}

#[derive(Debug, Clone, Default)]
pub struct LiveSite {
    /// The site document; `None` when the site does not exist (then nothing else does).
    pub document: Option<Value>,
    pub public: Option<Value>,
    /// Secret id → what GET shows of it: its id and dates, never its value.
    pub secrets: BTreeMap<String, Value>,
    /// Whether `secrets` holds every secret of the site (the service listed them), not
    /// only those the repository names. Only a listed secret can be pruned.
    pub secrets_listed: bool,
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
            sites.insert(
                id.to_string(),
                json!({
                    "document": site.document,
                    "public": site.public,
                    "secrets": site.secrets,
                    "secretsListed": site.secrets_listed,
                    "workers": workers,
                    "branchesListed": site.branches_listed,
                }),
            );
        }
        // serde_json's map is sorted: the serialization is canonical.
        let bytes = serde_json::to_vec(&Value::Object(sites)).expect("JSON serializes");
        let digest = Sha256::digest(&bytes);
        let hex = hex::encode(digest);
        format!("sha256:{hex}")
    }
}
