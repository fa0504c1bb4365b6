//! Reads the live state that a plan compares: the org documents and profiles the
//! repository has (and with pruning, every profile the service lists in its orgs); for
//! each site in scope its document, and when it exists its public configuration, index and
//! sitemap configurations, secrets (ids and dates only) and worker configurations. A site that does not exist costs one
//! request. Without pruning, [`survey`] lists by name what pruning would read besides.
//! After the diff, [`read_reach`] reads what a plan's changing profiles reach.
//! Beside each document, in the same round, its versions (`versions.json`), for
//! who changed it last: one request more per document, none when it does not exist.

use std::collections::{BTreeMap, BTreeSet};

use futures_util::StreamExt;
use serde_json::Value;

use super::{Client, ClientError, Location};
use crate::plan::{Body, LiveSite, LiveState, Plan, Reach, effective};
use crate::scope::PruneScope;
use crate::shard::Shard;
use crate::versions::{DocumentVersion, VersionList};
use siteops_config::compile::{Compiled, Owner, ResourceKind};
use siteops_config::model::SiteId;

/// What the repository wants of one site, so that only those are asked for when the
/// service cannot list them.
#[derive(Debug, Clone, Default)]
struct Wanted {
    secrets: BTreeSet<String>,
    /// Whether the repository declares API keys for the site (their records are read).
    api_keys: bool,
    branches: BTreeSet<String>,
    /// The YAML documents the repository has for the site (`Query`, `Sitemap`).
    yaml: BTreeSet<ResourceKind>,
}

/// Reads the live state of `desired`'s sites, and with `prune` of the other sites in its
/// scope, `sites_at_once` sites at a time (the client bounds requests in flight).
pub async fn read(
    client: &Client,
    desired: &Compiled,
    prune: Option<&PruneScope>,
    sites_at_once: usize,
) -> Result<LiveState, ClientError> {
    let mut wanted: BTreeMap<SiteId, Wanted> = BTreeMap::new();
    let mut documents: BTreeSet<Owner> = BTreeSet::new();
    for resource in &desired.resources {
        let Owner::Site(site) = &resource.owner else {
            documents.insert(resource.owner.clone());
            continue;
        };
        let entry = wanted.entry(site.clone()).or_default();
        match &resource.kind {
            ResourceKind::Secret(id) => {
                entry.secrets.insert(id.clone());
            }
            ResourceKind::Worker(branch) => {
                entry.branches.insert(branch.clone());
            }
            ResourceKind::ApiKey(_) => entry.api_keys = true,
            kind if kind.is_yaml() => {
                entry.yaml.insert(kind.clone());
            }
            _ => {}
        }
    }
    let mut live = LiveState {
        family: client.family(),
        ..LiveState::default()
    };
    if let Some(PruneScope::Orgs { orgs, shard, .. }) = prune {
        for org in profile_orgs(orgs, shard.as_ref()) {
            if let Some(names) = list_profiles(client, org).await? {
                live.profiles_listed.insert(org.clone());
                documents.extend(names.into_iter().map(|name| Owner::Profile {
                    org: org.clone(),
                    name,
                }));
            }
        }
    }
    let reads = documents.into_iter().map(|owner| async move {
        let location = Location::of(&owner, &owner.document_kind());
        let (document, newest) =
            tokio::try_join!(client.get(&location), newest_version(client, &owner))?;
        Ok::<_, ClientError>(document.map(|document| (owner, document, newest)))
    });
    for (owner, document, newest) in futures_util::future::try_join_all(reads)
        .await?
        .into_iter()
        .flatten()
    {
        if let Some(newest) = newest {
            live.versions.insert(owner.clone(), newest);
        }
        match owner {
            Owner::Org(org) => {
                live.orgs.insert(org, document);
            }
            Owner::Profile { org, name } => {
                live.profiles.insert((org, name), document);
            }
            Owner::Site(_) => {}
        }
    }
    match prune {
        None => {}
        Some(PruneScope::Sites(sites)) => {
            for site in sites {
                wanted.entry(site.clone()).or_default();
            }
        }
        Some(PruneScope::Orgs {
            orgs,
            shard,
            elsewhere,
        }) => {
            for org in orgs {
                for site in list_sites(client, org).await? {
                    if wanted.contains_key(&site) || reaches(shard.as_ref(), elsewhere, &site) {
                        wanted.entry(site).or_default();
                    }
                }
            }
        }
    }
    let pruning = prune.is_some();
    let mut reads = futures_util::stream::iter(wanted)
        .map(|(id, wanted)| async move {
            let site = read_site(client, &id, &wanted, pruning).await?;
            Ok::<_, ClientError>((id, site))
        })
        .buffer_unordered(sites_at_once.max(1));
    while let Some(result) = reads.next().await {
        let (id, (site, newest)) = result?;
        if let Some(newest) = newest {
            live.versions.insert(Owner::Site(id.clone()), newest);
        }
        live.sites.insert(id, site);
    }
    Ok(live)
}

/// Whether a listed site that the repository lacks is in this plan's reach: in its shard's
/// share and not a site of the repository that another shard plans.
fn reaches(shard: Option<&Shard>, elsewhere: &BTreeSet<SiteId>, site: &SiteId) -> bool {
    shard.is_none_or(|shard| shard.takes(&site.to_string())) && !elsewhere.contains(site)
}

/// The orgs whose profiles a plan reaches: profiles go with the shard that holds the org's
/// documents.
fn profile_orgs<'a>(
    orgs: &'a BTreeSet<String>,
    shard: Option<&'a Shard>,
) -> impl Iterator<Item = &'a String> {
    orgs.iter()
        .filter(move |org| shard.is_none_or(|s| s.takes(org)))
}

/// Without pruning: what the same plan with `--prune` would read beyond `live`, by name
/// only, into [`LiveState::others`]: in `reach`'s orgs the listed sites and profiles the
/// repository does not have; of each of the repository's live sites, the index and
/// sitemap configurations it does not declare (one GET each) and the worker's branches
/// (its listing, when a worker is configured). What `--prune` would delete of them, it
/// reads in full; this reads no site or profile document.
pub async fn survey(
    client: &Client,
    desired: &Compiled,
    reach: &PruneScope,
    live: &mut LiveState,
    sites_at_once: usize,
) -> Result<(), ClientError> {
    let mut ours: BTreeMap<&SiteId, BTreeSet<&ResourceKind>> = BTreeMap::new();
    let mut profiles: BTreeSet<(&str, &str)> = BTreeSet::new();
    for resource in &desired.resources {
        match &resource.owner {
            Owner::Site(id) => {
                ours.entry(id).or_default().insert(&resource.kind);
            }
            Owner::Profile { org, name } => {
                profiles.insert((org, name));
            }
            Owner::Org(_) => {}
        }
    }
    if let PruneScope::Orgs {
        orgs,
        shard,
        elsewhere,
    } = reach
    {
        for org in profile_orgs(orgs, shard.as_ref()) {
            for name in list_profiles(client, org).await?.unwrap_or_default() {
                if !profiles.contains(&(org.as_str(), name.as_str())) {
                    live.others.profiles.insert((org.clone(), name));
                }
            }
        }
        for org in orgs {
            for site in list_sites(client, org).await? {
                if !ours.contains_key(&site) && reaches(shard.as_ref(), elsewhere, &site) {
                    live.others.sites.insert(site);
                }
            }
        }
    }
    let present =
        (live.sites.iter()).filter(|(id, site)| site.document.is_some() && ours.contains_key(id));
    let mut reads = futures_util::stream::iter(present)
        .map(|(id, site)| {
            let kinds = &ours[id];
            async move {
                let found = survey_site(client, id, kinds, site).await?;
                Ok::<_, ClientError>((id.clone(), found))
            }
        })
        .buffer_unordered(sites_at_once.max(1));
    let mut documents = BTreeMap::new();
    while let Some(result) = reads.next().await {
        let (id, found) = result?;
        if !found.is_empty() {
            documents.insert(id, found);
        }
    }
    drop(reads);
    live.others.documents = documents;
    Ok(())
}

/// Of one of the repository's live sites, the index and sitemap configurations and worker
/// branches that exist and that `kinds` (what the repository has of it) and `site` (what
/// was read) lack.
async fn survey_site(
    client: &Client,
    id: &SiteId,
    kinds: &BTreeSet<&ResourceKind>,
    site: &LiveSite,
) -> Result<BTreeSet<ResourceKind>, ClientError> {
    let mut found = BTreeSet::new();
    for kind in [ResourceKind::Query, ResourceKind::Sitemap] {
        if !kinds.contains(&kind)
            && client
                .get_yaml(&Location::of_site(id, &kind))
                .await?
                .is_some()
        {
            found.insert(kind);
        }
    }
    if client.endpoints().worker.is_some() && !site.branches_listed {
        let location = Location::branches_of(id);
        if let Some(listing) = client.get_listing(&location).await? {
            let Some(names) = listing.get("branches").and_then(Value::as_array) else {
                return Err(unexpected(client, &location, "no `branches` array"));
            };
            found.extend(
                (names.iter().filter_map(Value::as_str))
                    .map(|branch| ResourceKind::Worker(branch.to_string()))
                    .filter(|kind| !kinds.contains(kind)),
            );
        }
    }
    Ok(found)
}

/// What a plan's writes of profiles and org documents reach beyond the live state it was
/// made with ([`crate::plan::effective`]): the site listing of each org whose document or
/// profiles the plan writes; of those whose profiles change, the documents of listed sites
/// the live state lacks; and the aggregated configuration of each site that extends a
/// changing profile. `sites_at_once` reads at a time (the client bounds requests in
/// flight). Reads nothing when the plan writes no profile or org document.
pub async fn read_reach(
    client: &Client,
    plan: &Plan,
    desired: &Compiled,
    live: &LiveState,
    sites_at_once: usize,
) -> Result<Reach, ClientError> {
    let mut reach = Reach::default();
    let profiles = effective::changing_profiles(plan);
    let mut missing = Vec::new();
    for org in effective::written_orgs(plan) {
        let location = Location::sites_of(&org);
        let Some(listing) = client.get_listing(&location).await? else {
            continue;
        };
        let names = listed(client, &location, &listing, "sites", "name")?;
        reach.sites.insert(org.clone(), names.len());
        if !profiles.iter().any(|(o, _)| *o == org) {
            continue;
        }
        missing.extend(names.into_iter().map(|(site, _)| SiteId {
            org: org.clone(),
            site,
        }));
    }
    missing.retain(|id| !live.sites.contains_key(id));
    let mut reads = futures_util::stream::iter(missing)
        .map(|id| async move {
            let document = client
                .get(&Location::of_site(&id, &ResourceKind::Site))
                .await?;
            Ok::<_, ClientError>((id, document))
        })
        .buffer_unordered(sites_at_once.max(1));
    while let Some(result) = reads.next().await {
        if let (id, Some(document)) = result? {
            reach.others.insert(id, document);
        }
    }
    let reached = effective::reached(plan, desired, live, &reach.others);
    let mut reads = futures_util::stream::iter(reached)
        .map(|id| async move {
            let aggregated = client.get(&Location::aggregated_of(&id)).await?;
            Ok::<_, ClientError>((id, aggregated))
        })
        .buffer_unordered(sites_at_once.max(1));
    while let Some(result) = reads.next().await {
        let (id, aggregated) = result?;
        reach.aggregated.insert(id, aggregated);
    }
    Ok(reach)
}

/// The org's profiles by name; `None` when the service has no listing (404, 405).
pub async fn list_profiles(client: &Client, org: &str) -> Result<Option<Vec<String>>, ClientError> {
    let location = Location::profiles_of(org);
    let Some(listing) = client.get_listing(&location).await? else {
        return Ok(None);
    };
    let names = listed(client, &location, &listing, "profiles", "name")?;
    Ok(Some(names.into_iter().map(|(name, _)| name).collect()))
}

/// The org's sites the service lists (none when it has no listing).
pub async fn list_sites(client: &Client, org: &str) -> Result<Vec<SiteId>, ClientError> {
    let location = Location::sites_of(org);
    let Some(listing) = client.get(&location).await? else {
        return Ok(Vec::new());
    };
    let names = listed(client, &location, &listing, "sites", "name")?;
    Ok(names
        .into_iter()
        .map(|(site, _)| SiteId {
            org: org.to_string(),
            site,
        })
        .collect())
}

/// A site's live state, and its document's newest version.
async fn read_site(
    client: &Client,
    id: &SiteId,
    wanted: &Wanted,
    pruning: bool,
) -> Result<(LiveSite, Option<DocumentVersion>), ClientError> {
    let Some(document) = client
        .get(&Location::of_site(id, &ResourceKind::Site))
        .await?
    else {
        return Ok((LiveSite::default(), None));
    };
    let public_location = Location::of_site(id, &ResourceKind::Public);
    let public = client.get(&public_location);
    let owner = Owner::Site(id.clone());
    let (public, (query, sitemap), (secrets, secrets_listed), (workers, branches_listed), newest) =
        tokio::try_join!(
            public,
            read_yaml(client, id, wanted, pruning),
            read_secrets(client, id, wanted),
            read_workers(client, id, wanted, pruning),
            newest_version(client, &owner),
        )?;
    let api_keys = match wanted.api_keys {
        true => read_api_keys(client, id, &document).await?,
        false => BTreeMap::new(),
    };
    let site = LiveSite {
        document: Some(document),
        public,
        query,
        sitemap,
        secrets,
        secrets_listed,
        api_keys,
        workers,
        branches_listed,
    };
    Ok((site, newest))
}

/// The versions of `owner`'s document (`versions.json`); `None` when the service keeps
/// none (it answers 404 or 405).
pub async fn versions(client: &Client, owner: &Owner) -> Result<Option<VersionList>, ClientError> {
    let location = Location::versions_of(owner);
    let Some(listing) = client.get_listing(&location).await? else {
        return Ok(None);
    };
    serde_json::from_value(listing)
        .map(Some)
        .map_err(|e| unexpected(client, &location, &e.to_string()))
}

/// The newest version of `owner`'s document, when the service keeps versions.
async fn newest_version(
    client: &Client,
    owner: &Owner,
) -> Result<Option<DocumentVersion>, ClientError> {
    Ok(versions(client, owner)
        .await?
        .and_then(|list| list.newest().cloned()))
}

/// The records of the site's minted API keys, from `apiKeys.json`; from the document's
/// `apiKeys` when the service has no listing.
async fn read_api_keys(
    client: &Client,
    id: &SiteId,
    document: &Value,
) -> Result<BTreeMap<String, Value>, ClientError> {
    let location = Location::api_keys_of(id);
    let listing = match client.get_listing(&location).await? {
        Some(listing) => listing,
        None => document.get("apiKeys").cloned().unwrap_or(Value::Null),
    };
    Ok((listing.as_object().into_iter().flatten())
        .map(|(key, record)| (key.clone(), record.clone()))
        .collect())
}

/// The index and sitemap configurations, as data: each one the repository has, and with
/// `pruning` both (one the repository no longer has is deleted).
async fn read_yaml(
    client: &Client,
    id: &SiteId,
    wanted: &Wanted,
    pruning: bool,
) -> Result<(Option<Value>, Option<Value>), ClientError> {
    let read = |kind: ResourceKind| async move {
        if !pruning && !wanted.yaml.contains(&kind) {
            return Ok(None);
        }
        client.get_yaml(&Location::of_site(id, &kind)).await
    };
    tokio::try_join!(read(ResourceKind::Query), read(ResourceKind::Sitemap))
}

/// The site's secrets from its listing; from one GET per wanted secret when the service
/// has no listing (then `false`: other secrets are unknown).
async fn read_secrets(
    client: &Client,
    id: &SiteId,
    wanted: &Wanted,
) -> Result<(BTreeMap<String, Value>, bool), ClientError> {
    let location = Location::secrets_of(id);
    if let Some(listing) = client.get_listing(&location).await? {
        return Ok((keyed(client, &location, &listing)?, true));
    }
    let mut secrets = BTreeMap::new();
    for secret in &wanted.secrets {
        let location = Location::of_site(id, &ResourceKind::Secret(secret.clone()));
        if let Some(metadata) = client.get(&location).await? {
            // Only what GET shows of a secret is kept, whatever the service sends.
            let metadata = match metadata {
                Value::Object(mut map) => {
                    map.remove("value");
                    Value::Object(map)
                }
                other => other,
            };
            secrets.insert(secret.clone(), metadata);
        }
    }
    Ok((secrets, false))
}

/// The worker configurations of the wanted branches, and with `pruning` of every branch
/// the worker lists.
async fn read_workers(
    client: &Client,
    id: &SiteId,
    wanted: &Wanted,
    pruning: bool,
) -> Result<(BTreeMap<String, Body>, bool), ClientError> {
    if client.endpoints().worker.is_none() && wanted.branches.is_empty() {
        // No worker to manage: there is nothing to read or prune there.
        return Ok((BTreeMap::new(), true));
    }
    let mut branches = wanted.branches.clone();
    let mut all_listed = false;
    if pruning {
        let location = Location::branches_of(id);
        if let Some(listing) = client.get_listing(&location).await? {
            let Some(names) = listing.get("branches").and_then(Value::as_array) else {
                return Err(unexpected(client, &location, "no `branches` array"));
            };
            branches.extend(names.iter().filter_map(Value::as_str).map(str::to_string));
            all_listed = true;
        }
    }
    let reads = branches.into_iter().map(|branch| async move {
        let location = Location::of_site(id, &ResourceKind::Worker(branch.clone()));
        let entries = client.get(&location).await?;
        Ok::<_, ClientError>(entries.map(|e| (branch, Body(e))))
    });
    let workers = futures_util::future::try_join_all(reads).await?;
    Ok((workers.into_iter().flatten().collect(), all_listed))
}

/// The entries of a listing keyed by id, `{"<id>": {…}, …}` (the platform's form of
/// `secrets.json`), or of the older form `{"secrets": [{"id": …}, …]}`, without any
/// `value` a service might send.
fn keyed(
    client: &Client,
    location: &Location,
    listing: &Value,
) -> Result<BTreeMap<String, Value>, ClientError> {
    if listing.get("secrets").is_some_and(Value::is_array) {
        return Ok(listed(client, location, listing, "secrets", "id")?
            .into_iter()
            .collect());
    }
    let Some(entries) = listing.as_object() else {
        return Err(unexpected(client, location, "not an object keyed by id"));
    };
    Ok(entries
        .iter()
        .map(|(id, entry)| {
            let mut entry = entry.clone();
            if let Value::Object(map) = &mut entry {
                map.remove("value");
            }
            (id.clone(), entry)
        })
        .collect())
}

/// The items of `{"<array>": [{"<key>": name, …}, …]}` by name.
fn listed(
    client: &Client,
    location: &Location,
    listing: &Value,
    array: &str,
    key: &str,
) -> Result<Vec<(String, Value)>, ClientError> {
    let Some(items) = listing.get(array).and_then(Value::as_array) else {
        return Err(unexpected(client, location, &format!("no `{array}` array")));
    };
    Ok(items
        .iter()
        .filter_map(|item| {
            let name = item.get(key)?.as_str()?.to_string();
            let mut item = item.clone();
            if let Value::Object(map) = &mut item {
                map.remove("value");
            }
            Some((name, item))
        })
        .collect())
}

fn unexpected(client: &Client, location: &Location, what: &str) -> ClientError {
    ClientError::NotJson {
        method: "GET".into(),
        url: client
            .url(location)
            .unwrap_or_else(|_| location.path.clone()),
        message: format!("unexpected listing: {what}"),
    }
}
