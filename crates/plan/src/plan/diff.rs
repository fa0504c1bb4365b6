//! The diff: desired resources against the live state, to a [`Plan`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::ownership::{digest, owned};
use super::{
    Action, Body, Change, FORMAT_VERSION, Kind, LiveSite, LiveState, Plan, PlanSettings, Planned,
    Summary, Unmanaged,
};
use siteops_config::api_path::PathFamily;
use siteops_config::compile::{Compiled, Owner, REDACTED, Resource, ResourceKind, mask_at, masked};
use siteops_config::document::push_token;
use siteops_config::model::SiteId;

/// Fields the service stamps on the documents it stores; the diff ignores them.
pub(crate) const SERVER_MANAGED: [&str; 2] = ["created", "lastModified"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error(
        "--replace-secret {0}: no secret of that name among the sites and orgs planned (give `id`, `org/site/id` or `org/id`)"
    )]
    UnknownSecret(String),
    #[error(
        "refusing to prune: the repository has no sites in scope, so --prune would delete everything the service has there ({0} resources); check --root and --site"
    )]
    PruneEverything(usize),
}

/// Compares `desired` with `live`. Without `settings.prune` nothing is deleted; with it,
/// live resources that `desired` lacks are deleted, within the sites `live` holds (the
/// caller reads only the sites in scope) and the profiles it lists.
pub fn diff(
    desired: &Compiled,
    live: &LiveState,
    settings: &PlanSettings,
) -> Result<Plan, PlanError> {
    let replace = ReplaceSecrets::new(&settings.replace_secrets, desired)?;
    let mut notes = Vec::new();
    let without_records = without_key_records(desired, live, &mut notes);
    let desired = without_records.as_ref().unwrap_or(desired);
    let extenders = extenders(desired);
    let absent = LiveSite::default();
    let family = live.family;
    let mut resources = Vec::new();
    let mut wanted: BTreeMap<&SiteId, BTreeSet<&ResourceKind>> = BTreeMap::new();
    let mut wanted_profiles: BTreeSet<(&str, &str)> = BTreeSet::new();
    for resource in desired.resources.iter().filter(|r| planned_kind(&r.kind)) {
        let planned = match &resource.owner {
            Owner::Org(org) => compare_org(resource, live.orgs.get(org), family, &replace),
            Owner::Profile { org, name } => {
                wanted_profiles.insert((org, name));
                let key = (org.clone(), name.clone());
                let document = live.profiles.get(&key);
                let before = document.map(|d| normalise(&resource.kind, d, &resource.body, family));
                let mut planned = compare_body(resource, before);
                planned.read = Some(digest(document));
                if planned.action != Action::NoOp {
                    planned.extended_by = extenders.get(&key).cloned().unwrap_or_default();
                }
                planned
            }
            Owner::Site(id) => {
                wanted.entry(id).or_default().insert(&resource.kind);
                let live_site = live.sites.get(id).unwrap_or(&absent);
                compare(resource, live_site, family, &replace)
            }
        };
        let mut planned = planned;
        if matches!(planned.kind, Kind::Org | Kind::Profile | Kind::Site) {
            planned.drift = (live.versions.get(&resource.owner))
                .filter(|newest| !crate::versions::is_applied(newest))
                .cloned();
        }
        resources.push(planned);
    }
    let mut unmanaged = Unmanaged::default();
    if !settings.prune {
        unmanaged = not_managed(live, &wanted, &wanted_profiles);
    } else {
        let before = resources.len();
        for (id, site) in &live.sites {
            match wanted.get(id) {
                None => prune_site(id, site, &mut resources),
                Some(kinds) => prune_within(id, site, kinds, &mut resources, &mut notes),
            }
        }
        prune_profiles(live, &wanted_profiles, &extenders, &mut resources);
        let deletes = resources.len() - before;
        if wanted.is_empty() && deletes > 0 {
            return Err(PlanError::PruneEverything(deletes));
        }
    }
    resources.sort_by(|a, b| a.address.cmp(&b.address));
    let summary = summarise(&resources);
    Ok(Plan {
        version: FORMAT_VERSION,
        settings: settings.clone(),
        fingerprint: live.fingerprint(),
        path_family: Some(family.name().to_string()),
        summary,
        notes,
        unmanaged,
        resources,
    })
}

/// Without pruning, what the same plan with `--prune` would delete, by name: the live
/// sites and profiles of its reach that the repository does not have (listed by the
/// survey), and of the repository's sites each part the repository does not have.
fn not_managed(
    live: &LiveState,
    wanted: &BTreeMap<&SiteId, BTreeSet<&ResourceKind>>,
    wanted_profiles: &BTreeSet<(&str, &str)>,
) -> Unmanaged {
    let sites = (live.others.sites.iter())
        .filter(|id| !wanted.contains_key(id))
        .map(SiteId::to_string)
        .collect();
    let profiles = (live.others.profiles.iter())
        .filter(|(org, name)| !wanted_profiles.contains(&(org.as_str(), name.as_str())))
        .map(|(org, name)| format!("{org}/{name}"))
        .collect();
    let mut documents = Vec::new();
    for (id, site) in &live.sites {
        let (Some(kinds), Some(_)) = (wanted.get(id), &site.document) else {
            continue;
        };
        let surveyed = live.others.documents.get(id).into_iter().flatten();
        let found = parts(site).into_iter().map(|(kind, _)| kind);
        let owner = Owner::Site(id.clone());
        let gone: BTreeSet<ResourceKind> = found
            .chain(surveyed.cloned())
            .filter(|kind| !kinds.contains(kind))
            .collect();
        documents.extend(
            gone.into_iter()
                .map(|kind| siteops_config::api_path::Location::of(&owner, &kind).compile_path()),
        );
    }
    documents.sort();
    Unmanaged {
        sites,
        profiles,
        documents,
    }
}

/// The parts of a live site besides its document, with their bodies where read (never a
/// secret's): what pruning deletes of a site.
fn parts(site: &LiveSite) -> Vec<(ResourceKind, Option<&Value>)> {
    let mut out = Vec::new();
    if let Some(public) = &site.public {
        out.push((ResourceKind::Public, Some(public)));
    }
    for (kind, live) in [
        (ResourceKind::Query, &site.query),
        (ResourceKind::Sitemap, &site.sitemap),
    ] {
        if let Some(body) = live {
            out.push((kind, Some(body)));
        }
    }
    for secret in site.secrets.keys() {
        out.push((ResourceKind::Secret(secret.clone()), None));
    }
    for (branch, Body(entries)) in &site.workers {
        out.push((ResourceKind::Worker(branch.clone()), Some(entries)));
    }
    out
}

/// `desired` without the API key records a document's body carries (`apiKeys` of the
/// org's, a profile's or a site's document: `siteops import` writes the org's into
/// `org.toml` as notes), or `None` when none does. A key exists because the service minted
/// it and is revoked by deleting its record, so a record is never a change to make (the
/// service refuses one it does not hold): none is planned. A record of a key the service
/// no longer holds (revoked, or never minted) gets a note naming the file and the id.
fn without_key_records(
    desired: &Compiled,
    live: &LiveState,
    notes: &mut Vec<String>,
) -> Option<Compiled> {
    let carries = |r: &Resource| {
        matches!(
            r.kind,
            ResourceKind::Org | ResourceKind::Profile | ResourceKind::Site
        ) && r.body.get("apiKeys").is_some()
    };
    if !desired.resources.iter().any(carries) {
        return None;
    }
    let mut out = desired.clone();
    for resource in out.resources.iter_mut().filter(|r| carries(r)) {
        let Some(records) = resource
            .body
            .as_object_mut()
            .and_then(|body| body.remove("apiKeys"))
        else {
            continue;
        };
        let held = live_key_ids(live, &resource.owner);
        let file = match &resource.owner {
            Owner::Org(org) => format!("sites/{org}/org.toml"),
            Owner::Profile { org, name } => format!("sites/{org}/{name}.profile.toml"),
            Owner::Site(id) => format!("sites/{}/{}/site.toml", id.org, id.site),
        };
        for (name, record) in records.as_object().into_iter().flatten() {
            let id = record.get("id").and_then(Value::as_str).unwrap_or(name);
            if !held.contains(id) {
                notes.push(format!(
                    "{file}: `[apiKeys.{name}]` records key `{id}`, which the service does not \
                     hold (revoked, or never minted); apply never writes key records: remove it \
                     (and the `apiKeyId` entries naming it)"
                ));
            }
        }
    }
    Some(out)
}

/// The ids of the API keys the live document of `owner` records (by their `id`, or the
/// name they are filed under).
fn live_key_ids<'a>(live: &'a LiveState, owner: &Owner) -> BTreeSet<&'a str> {
    let document = match owner {
        Owner::Org(org) => live.orgs.get(org),
        Owner::Profile { org, name } => live.profiles.get(&(org.clone(), name.clone())),
        Owner::Site(id) => live.sites.get(id).and_then(|s| s.document.as_ref()),
    };
    let records = document
        .and_then(|d| d.get("apiKeys"))
        .and_then(Value::as_object);
    records
        .into_iter()
        .flatten()
        .flat_map(|(name, record)| {
            [
                Some(name.as_str()),
                record.get("id").and_then(Value::as_str),
            ]
        })
        .flatten()
        .collect()
}

/// `access.json` and `code.json` are fields of the site document, planned with it.
fn planned_kind(kind: &ResourceKind) -> bool {
    !matches!(kind, ResourceKind::Access | ResourceKind::Code)
}

/// (org, profile) → the sites of `desired` that extend it (`default` when a site names
/// none), as `org/site`, sorted: what a change of the profile reaches.
fn extenders(desired: &Compiled) -> BTreeMap<(String, String), Vec<String>> {
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for resource in desired
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Site)
    {
        let Some(site) = resource.site() else {
            continue;
        };
        let profile = (resource.body.pointer("/extends/profile"))
            .and_then(Value::as_str)
            .unwrap_or("default");
        out.entry((site.org.clone(), profile.to_string()))
            .or_default()
            .push(site.to_string());
    }
    out
}

fn compare(
    resource: &Resource,
    live: &LiveSite,
    family: PathFamily,
    replace: &ReplaceSecrets<'_>,
) -> Planned {
    let desired = &resource.body;
    if let ResourceKind::Secret(id) = &resource.kind {
        return compare_secret(resource, id, live.secrets.contains_key(id), replace);
    }
    if let ResourceKind::ApiKey(name) = &resource.kind {
        return compare_api_key(resource, name, live, replace);
    }
    let before = match &resource.kind {
        ResourceKind::Site => {
            let mut planned = compare_body(
                resource,
                (live.document.as_ref()).map(|d| normalise(&resource.kind, d, desired, family)),
            );
            planned.read = Some(digest(live.document.as_ref()));
            return planned;
        }
        ResourceKind::Public => live
            .public
            .as_ref()
            .map(|d| normalise(&resource.kind, d, desired, family)),
        ResourceKind::Worker(branch) => live.workers.get(branch).map(|Body(b)| b.clone()),
        // Read from YAML: compared as data, so the service's formatting shows no change.
        ResourceKind::Query => live.query.clone(),
        ResourceKind::Sitemap => live.sitemap.clone(),
        _ => None,
    };
    compare_body(resource, before)
}

/// A document against what the service holds of it (`None`: nothing), both as compared.
fn compare_body(resource: &Resource, before: Option<Value>) -> Planned {
    let desired = &resource.body;
    let mut planned = planned(resource, Action::Create);
    planned.after = Some(masked(&resource.kind, desired));
    planned.body = Some(Body(desired.clone()));
    if let Some(before) = before {
        if before == *desired {
            // `after` stays: apply reads which repositories unchanged sites onboard.
            planned.action = Action::NoOp;
            planned.body = None;
        } else {
            planned.action = Action::Update;
            planned.changes = changes(&resource.kind, &before, desired);
            planned.before = Some(masked(&resource.kind, &before));
        }
    }
    planned
}

/// The org's document. Its secrets' values are write-only, as a site's secrets are: the
/// document is compared without them, and a value is sent again only with the rest of a
/// changed document, or when `--replace-secret` names it.
fn compare_org(
    resource: &Resource,
    live: Option<&Value>,
    family: PathFamily,
    replace: &ReplaceSecrets<'_>,
) -> Planned {
    let desired = &resource.body;
    let comparable = without_secret_values(desired);
    let before =
        live.map(|live| without_secret_values(&normalise(&resource.kind, live, desired, family)));
    let replaced: Vec<&str> = secret_ids(resource)
        .into_iter()
        .filter(|id| replace.wants(resource, id))
        .collect();
    let mut planned = planned(resource, Action::Create);
    planned.after = Some(masked(&resource.kind, desired));
    planned.body = Some(Body(desired.clone()));
    planned.read = Some(digest(live));
    let Some(before) = before else {
        return planned;
    };
    if before == comparable && replaced.is_empty() {
        planned.action = Action::NoOp;
        planned.body = None;
        return planned;
    }
    planned.action = Action::Update;
    planned.changes = changes(&resource.kind, &before, &comparable);
    for id in &replaced {
        planned.changes.push(Change {
            path: format!("{}/value", push_token("/secrets", id)),
            before: Some(json!(REDACTED)),
            after: Some(json!(REDACTED)),
        });
    }
    if !replaced.is_empty() {
        planned.reason = Some("--replace-secret: the stored value is replaced".into());
    }
    planned.before = Some(masked(&resource.kind, &before));
    planned
}

/// An org document's secret entries as compared: id, type and description (values are
/// write-only, dates and hashes the service's).
fn without_secret_values(document: &Value) -> Value {
    let mut document = document.clone();
    if let Some(Value::Object(secrets)) = document.get_mut("secrets") {
        for entry in secrets.values_mut() {
            if let Value::Object(entry) = entry {
                for field in ["value", "hash", "created", "lastModified"] {
                    entry.remove(field);
                }
            }
        }
    }
    document
}

/// Secrets are write-only: an existing one is left alone unless its replacement is asked
/// for, since its value cannot be compared.
fn compare_secret(
    resource: &Resource,
    id: &str,
    exists: bool,
    replace: &ReplaceSecrets<'_>,
) -> Planned {
    let hidden = json!({ "value": REDACTED });
    let action = match (exists, replace.wants(resource, id)) {
        (false, _) => Action::Create,
        (true, true) => Action::Update,
        (true, false) => Action::NoOp,
    };
    let mut planned = planned(resource, action);
    if action == Action::NoOp {
        return planned;
    }
    let made = resource.is_made();
    planned.after = Some(hidden.clone());
    planned.body = Some(Body(resource.body.clone()));
    if made {
        planned.reason = Some(MADE.into());
    }
    if action == Action::Update {
        planned.before = Some(hidden);
        planned.reason = Some(if made {
            format!("--replace-secret: the service makes a new value; {MADE}")
        } else {
            "--replace-secret: the stored value is replaced".into()
        });
        planned.changes = vec![Change {
            path: "/value".into(),
            before: Some(json!(REDACTED)),
            after: Some(json!(REDACTED)),
        }];
    }
    planned
}

/// Why a resource whose value the service makes is created (or made again).
const MADE: &str = "made by the service; its value goes to --secrets-out";

/// An API key the service mints, found by its name among the `description`s of the
/// records the service keeps. One that exists is left alone (a key cannot be read back
/// nor changed in place) unless `--replace-secret` names it: then a new key is minted and
/// the old ones of that name are deleted. Its roles are shown, never a token.
fn compare_api_key(
    resource: &Resource,
    name: &str,
    live: &LiveSite,
    replace: &ReplaceSecrets<'_>,
) -> Planned {
    let found: Vec<&Value> = (live.api_keys.values())
        .filter(|record| record.get("description").and_then(Value::as_str) == Some(name))
        .collect();
    let action = match (found.is_empty(), replace.wants(resource, name)) {
        (true, _) => Action::Create,
        (false, true) => Action::Update,
        (false, false) => Action::NoOp,
    };
    let mut planned = planned(resource, action);
    let shown = |record: &Value| json!({ "roles": record.get("roles"), "value": REDACTED });
    planned.after = Some(shown(&resource.body));
    if action == Action::NoOp {
        return planned;
    }
    planned.body = Some(Body(resource.body.clone()));
    planned.reason = Some(MADE.into());
    if let Some(record) = found.first() {
        planned.before = Some(shown(record));
        planned.reason = Some(format!(
            "--replace-secret: the service mints a new key and the old one is deleted; {MADE}"
        ));
        planned.changes = vec![Change {
            path: "/value".into(),
            before: Some(json!(REDACTED)),
            after: Some(json!(REDACTED)),
        }];
    }
    planned
}

fn planned(resource: &Resource, action: Action) -> Planned {
    let (kind, name) = match (&resource.owner, &resource.kind) {
        (Owner::Org(_), _) => (Kind::Org, None),
        (Owner::Profile { name, .. }, _) => (Kind::Profile, Some(name.clone())),
        (Owner::Site(_), kind) => site_kind(kind),
    };
    Planned {
        address: resource.path(),
        org: resource.owner.org().to_string(),
        site: resource.site().map(|s| s.site.clone()).unwrap_or_default(),
        kind,
        name,
        action,
        sensitive: matches!(kind, Kind::Secret | Kind::ApiKey) || resource.is_sensitive(),
        reason: None,
        extended_by: Vec::new(),
        effective: Vec::new(),
        unaffected: 0,
        drift: None,
        before: None,
        after: None,
        changes: Vec::new(),
        body: None,
        read: None,
    }
}

/// The plan's kind of a site's resource, and its name (secret id, branch).
fn site_kind(kind: &ResourceKind) -> (Kind, Option<String>) {
    match kind {
        ResourceKind::Org => (Kind::Org, None),
        ResourceKind::Profile => (Kind::Profile, None),
        ResourceKind::Site | ResourceKind::Access | ResourceKind::Code => (Kind::Site, None),
        ResourceKind::Public => (Kind::Public, None),
        ResourceKind::Secret(id) => (Kind::Secret, Some(id.clone())),
        ResourceKind::ApiKey(name) => (Kind::ApiKey, Some(name.clone())),
        ResourceKind::Worker(branch) => (Kind::Worker, Some(branch.clone())),
        ResourceKind::Query => (Kind::Query, None),
        ResourceKind::Sitemap => (Kind::Sitemap, None),
    }
}

/// Fields inside a site document that the platform stamps: the content bus it gave the
/// site. The diff ignores one the repository does not set.
pub(super) const STAMPED_IN_SITE: [(&str, &str); 1] = [("content", "contentBusId")];

/// The parts of a live site document that the plan manages as resources of their own
/// (`public.json`, `secrets/<id>.json`) or not at all (`apiKeys`, which the service mints):
/// the service keeps one document per site, and answers them in it. Of the org's and a
/// profile's documents, the parts the service keeps that the repository need not write
/// (minted keys, the deprecated `tokens`, a profile's `secrets`).
const OWN_RESOURCES: [&str; 4] = ["public", "secrets", "apiKeys", "tokens"];

/// The live document as compared: without what the service manages (`created`,
/// `lastModified`, a `version` the service stamped when the desired body has none, and the
/// fields the platform stamps inside it, [`STAMPED_IN_SITE`], when the desired body has
/// none; of a site's document, the parts that are resources of their own,
/// [`OWN_RESOURCES`]), and of a document (the org's, a profile's, a site's) only the parts
/// the repository manages ([`owned`]). In the newer path family, a code source answered
/// as `github` where the repository says `byogit` reads as `byogit`: that family answers
/// `byogit` so, with the same fields.
fn normalise(kind: &ResourceKind, live: &Value, desired: &Value, family: PathFamily) -> Value {
    let mut live = match kind {
        ResourceKind::Org | ResourceKind::Profile | ResourceKind::Site => owned(live, desired),
        _ => live.clone(),
    };
    byogit_as_desired(family, desired, &mut live);
    if let Value::Object(map) = &mut live {
        for field in SERVER_MANAGED {
            map.remove(field);
        }
        for part in OWN_RESOURCES {
            // A profile's `public` is a part of its document, not a resource of its own.
            let own = part != "public" || *kind != ResourceKind::Profile;
            if own && desired.get(part).is_none() {
                map.remove(part);
            }
        }
        if desired.get("version").is_none() && map.get("version") == Some(&json!(1)) {
            map.remove("version");
        }
        for (part, field) in STAMPED_IN_SITE {
            let wanted = desired.get(part).and_then(|part| part.get(field));
            if wanted.is_none()
                && let Some(Value::Object(part)) = map.get_mut(part)
            {
                part.remove(field);
            }
        }
    }
    live
}

/// In the newer path family, `live`'s code source answered as `github` where `desired`
/// says `byogit` reads as `byogit`: that family answers `byogit` so, with the same fields.
pub(super) fn byogit_as_desired(family: PathFamily, desired: &Value, live: &mut Value) {
    const SOURCE_TYPE: &str = "/code/source/type";
    if family == PathFamily::Newer
        && desired.pointer(SOURCE_TYPE) == Some(&json!("byogit"))
        && let Some(kind) = live.pointer_mut(SOURCE_TYPE)
        && *kind == json!("github")
    {
        *kind = json!("byogit");
    }
}

/// A deletion of a live resource, with its masked body as `before`.
fn deletion(owner: &Owner, kind: ResourceKind, live: Option<&Value>, reason: &str) -> Planned {
    let resource = Resource {
        owner: owner.clone(),
        kind,
        body: Value::Null,
    };
    let mut planned = planned(&resource, Action::Delete);
    planned.before = live.map(|body| {
        let mut body = masked(&resource.kind, body);
        if let Value::Object(map) = &mut body {
            for field in SERVER_MANAGED {
                map.remove(field);
            }
        }
        body
    });
    planned.reason = Some(reason.to_string());
    planned
}

/// A live site that the repository no longer has: everything of it goes.
fn prune_site(id: &SiteId, site: &LiveSite, out: &mut Vec<Planned>) {
    if site.document.is_none() {
        return;
    }
    let owner = &Owner::Site(id.clone());
    let reason = "the repository no longer has this site";
    for (kind, body) in parts(site) {
        out.push(deletion(owner, kind, body, reason));
    }
    out.push(deletion(
        owner,
        ResourceKind::Site,
        site.document.as_ref(),
        reason,
    ));
}

/// A site the repository has: sub-resources it no longer has go.
fn prune_within(
    id: &SiteId,
    site: &LiveSite,
    wanted: &BTreeSet<&ResourceKind>,
    out: &mut Vec<Planned>,
    notes: &mut Vec<String>,
) {
    if site.document.is_none() {
        return;
    }
    let owner = &Owner::Site(id.clone());
    let reason = "the repository no longer has it";
    for (kind, body) in parts(site) {
        if !wanted.contains(&kind) {
            out.push(deletion(owner, kind, body, reason));
        }
    }
    if !site.secrets_listed {
        notes.push(format!(
            "{id}: the service does not list secrets, so secrets the repository no longer has are not pruned"
        ));
    }
    if !site.branches_listed {
        notes.push(format!(
            "{id}: the worker does not list branches, so branches the repository no longer configures are not pruned"
        ));
    }
}

/// The profiles the service listed in the repository's orgs that the repository no
/// longer has.
fn prune_profiles(
    live: &LiveState,
    wanted: &BTreeSet<(&str, &str)>,
    extenders: &BTreeMap<(String, String), Vec<String>>,
    out: &mut Vec<Planned>,
) {
    for ((org, name), body) in &live.profiles {
        if !live.profiles_listed.contains(org) || wanted.contains(&(org.as_str(), name.as_str())) {
            continue;
        }
        let owner = Owner::Profile {
            org: org.clone(),
            name: name.clone(),
        };
        let reason = "the repository no longer has this profile";
        let mut planned = deletion(&owner, ResourceKind::Profile, Some(body), reason);
        let key = (org.clone(), name.clone());
        planned.extended_by = extenders.get(&key).cloned().unwrap_or_default();
        out.push(planned);
    }
}

fn summarise(resources: &[Planned]) -> Summary {
    let mut summary = Summary::default();
    for resource in resources {
        match resource.action {
            Action::Create => summary.create += 1,
            Action::Update => summary.update += 1,
            Action::Delete => summary.delete += 1,
            Action::NoOp => summary.unchanged += 1,
        }
    }
    summary
}

/// The field-level differences between two bodies of `kind`, masked. Objects are compared
/// key by key; arrays that hold objects (worker entries) index by index; other arrays and
/// scalars as whole values.
pub(crate) fn changes(kind: &ResourceKind, before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    walk(kind, &mut Vec::new(), Some(before), Some(after), &mut out);
    out
}

fn walk(
    kind: &ResourceKind,
    pointer: &mut Vec<String>,
    before: Option<&Value>,
    after: Option<&Value>,
    out: &mut Vec<Change>,
) {
    if before == after {
        return;
    }
    match (before, after) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                pointer.push(key.clone());
                walk(kind, pointer, a.get(key), b.get(key), out);
                pointer.pop();
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b)))
            if a.iter().chain(b).any(Value::is_object) =>
        {
            for index in 0..a.len().max(b.len()) {
                pointer.push(index.to_string());
                walk(kind, pointer, a.get(index), b.get(index), out);
                pointer.pop();
            }
        }
        _ => {
            let mut mask = |value: Option<&Value>| value.map(|v| mask_at(kind, pointer, v));
            let (before, after) = (mask(before), mask(after));
            out.push(Change {
                path: to_pointer(pointer),
                before,
                after,
            });
        }
    }
}

fn to_pointer(segments: &[String]) -> String {
    segments
        .iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The secrets named by `--replace-secret`: `id` in every site, or `org/site/id`.
struct ReplaceSecrets<'a> {
    selectors: &'a [String],
}

impl<'a> ReplaceSecrets<'a> {
    fn new(selectors: &'a [String], desired: &Compiled) -> Result<Self, PlanError> {
        let this = ReplaceSecrets { selectors };
        for selector in selectors {
            let found = (desired.resources.iter()).any(|r| {
                secret_ids(r)
                    .iter()
                    .any(|id| Self::matches(selector, r, id))
            });
            if !found {
                return Err(PlanError::UnknownSecret(selector.clone()));
            }
        }
        Ok(this)
    }

    /// Whether `selector` names the secret `id` of `resource` (a site's secret, or one of
    /// the org document's): `id`, or its owner and id (`org/site/id`, `org/id`).
    fn matches(selector: &str, resource: &Resource, id: &str) -> bool {
        match selector.rsplit_once('/') {
            Some((owner, name)) => name == id && owner == resource.owner.to_string(),
            None => selector == id,
        }
    }

    fn wants(&self, resource: &Resource, id: &str) -> bool {
        self.selectors
            .iter()
            .any(|s| Self::matches(s, resource, id))
    }
}

/// The secrets a resource holds: a site's secret or API key, or the entries of the org's
/// document.
fn secret_ids(resource: &Resource) -> Vec<&str> {
    match &resource.kind {
        ResourceKind::Secret(id) | ResourceKind::ApiKey(id) => vec![id.as_str()],
        ResourceKind::Org => (resource.body.get("secrets"))
            .and_then(Value::as_object)
            .map(|secrets| secrets.keys().map(String::as_str).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
