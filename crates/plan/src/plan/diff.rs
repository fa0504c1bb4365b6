//! The diff: desired resources against the live state, to a [`Plan`].

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::{
    Action, Body, Change, FORMAT_VERSION, Kind, LiveSite, LiveState, Plan, PlanSettings, Planned,
    Summary,
};
use siteops_config::compile::{Compiled, REDACTED, Resource, ResourceKind, mask_at, masked};
use siteops_config::model::SiteId;

/// Fields the service stamps on the documents it stores; the diff ignores them.
pub(super) const SERVER_MANAGED: [&str; 2] = ["created", "lastModified"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error(
        "--replace-secret {0}: no secret of that name among the sites planned (give `id` or `org/site/id`)"
    )]
    UnknownSecret(String),
    #[error(
        "refusing to prune: the repository has no sites in scope, so --prune would delete everything the service has there ({0} resources); check --root and --site"
    )]
    PruneEverything(usize),
}

/// Compares `desired` with `live`. Without `settings.prune` nothing is deleted; with it,
/// live resources that `desired` lacks are deleted, within the sites `live` holds (the
/// caller reads only the sites in scope).
pub fn diff(
    desired: &Compiled,
    live: &LiveState,
    settings: &PlanSettings,
) -> Result<Plan, PlanError> {
    let replace = ReplaceSecrets::new(&settings.replace_secrets, desired)?;
    let absent = LiveSite::default();
    let mut resources = Vec::new();
    let mut wanted: BTreeMap<&SiteId, BTreeSet<&ResourceKind>> = BTreeMap::new();
    for resource in desired.resources.iter().filter(|r| planned_kind(&r.kind)) {
        wanted
            .entry(&resource.site)
            .or_default()
            .insert(&resource.kind);
        let live_site = live.sites.get(&resource.site).unwrap_or(&absent);
        resources.push(compare(resource, live_site, &replace));
    }
    let mut notes = Vec::new();
    if settings.prune {
        let before = resources.len();
        for (id, site) in &live.sites {
            match wanted.get(id) {
                None => prune_site(id, site, &mut resources),
                Some(kinds) => prune_within(id, site, kinds, &mut resources, &mut notes),
            }
        }
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
        summary,
        notes,
        resources,
    })
}

/// `access.json` and `code.json` are fields of the site document, planned with it.
fn planned_kind(kind: &ResourceKind) -> bool {
    !matches!(kind, ResourceKind::Access | ResourceKind::Code)
}

fn compare(resource: &Resource, live: &LiveSite, replace: &ReplaceSecrets<'_>) -> Planned {
    let desired = &resource.body;
    if let ResourceKind::Secret(id) = &resource.kind {
        return compare_secret(resource, live.secrets.contains_key(id), replace);
    }
    let before = match &resource.kind {
        ResourceKind::Site => live.document.as_ref().map(|d| normalise(d, desired)),
        ResourceKind::Public => live.public.as_ref().map(|d| normalise(d, desired)),
        ResourceKind::Worker(branch) => live.workers.get(branch).map(|Body(b)| b.clone()),
        _ => None,
    };
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

/// Secrets are write-only: an existing one is left alone unless its replacement is asked
/// for, since its value cannot be compared.
fn compare_secret(resource: &Resource, exists: bool, replace: &ReplaceSecrets<'_>) -> Planned {
    let hidden = json!({ "value": REDACTED });
    let action = match (exists, replace.wants(resource)) {
        (false, _) => Action::Create,
        (true, true) => Action::Update,
        (true, false) => Action::NoOp,
    };
    let mut planned = planned(resource, action);
    if action == Action::NoOp {
        return planned;
    }
    planned.after = Some(hidden.clone());
    planned.body = Some(Body(resource.body.clone()));
    if action == Action::Update {
        planned.before = Some(hidden);
        planned.reason = Some("--replace-secret: the stored value is replaced".into());
        planned.changes = vec![Change {
            path: "/value".into(),
            before: Some(json!(REDACTED)),
            after: Some(json!(REDACTED)),
        }];
    }
    planned
}

fn planned(resource: &Resource, action: Action) -> Planned {
    let (kind, name) = match &resource.kind {
        ResourceKind::Site | ResourceKind::Access | ResourceKind::Code => (Kind::Site, None),
        ResourceKind::Public => (Kind::Public, None),
        ResourceKind::Secret(id) => (Kind::Secret, Some(id.clone())),
        ResourceKind::Worker(branch) => (Kind::Worker, Some(branch.clone())),
    };
    Planned {
        address: resource.path(),
        org: resource.site.org.clone(),
        site: resource.site.site.clone(),
        kind,
        name,
        action,
        sensitive: matches!(kind, Kind::Secret) || resource.is_sensitive(),
        reason: None,
        before: None,
        after: None,
        changes: Vec::new(),
        body: None,
    }
}

/// Fields inside a site document that the platform stamps: the content bus it gave the
/// site. The diff ignores one the repository does not set.
const STAMPED_IN_SITE: [(&str, &str); 1] = [("content", "contentBusId")];

/// The parts of a live site document that the plan manages as resources of their own
/// (`public.json`, `secrets/<id>.json`) or not at all (`apiKeys`, which the service mints):
/// the service keeps one document per site, and answers them in it.
const OWN_RESOURCES: [&str; 3] = ["public", "secrets", "apiKeys"];

/// The live document without what the service manages: `created`, `lastModified`, a
/// `version` the service stamped when the desired body has none, and the fields the
/// platform stamps inside it ([`STAMPED_IN_SITE`]) when the desired body has none; of a
/// site's document, the parts that are resources of their own ([`OWN_RESOURCES`]).
fn normalise(live: &Value, desired: &Value) -> Value {
    let mut live = live.clone();
    if let Value::Object(map) = &mut live {
        for field in SERVER_MANAGED {
            map.remove(field);
        }
        for part in OWN_RESOURCES {
            if desired.get(part).is_none() {
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

/// A deletion of a live resource, with its masked body as `before`.
fn deletion(site: &SiteId, kind: ResourceKind, live: Option<&Value>, reason: &str) -> Planned {
    let resource = Resource {
        site: site.clone(),
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
    let reason = "the repository no longer has this site";
    for (branch, Body(entries)) in &site.workers {
        out.push(deletion(
            id,
            ResourceKind::Worker(branch.clone()),
            Some(entries),
            reason,
        ));
    }
    for secret in site.secrets.keys() {
        out.push(deletion(
            id,
            ResourceKind::Secret(secret.clone()),
            None,
            reason,
        ));
    }
    if let Some(public) = &site.public {
        out.push(deletion(id, ResourceKind::Public, Some(public), reason));
    }
    out.push(deletion(
        id,
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
    let reason = "the repository no longer has it";
    let gone = |kind: &ResourceKind| !wanted.contains(kind);
    if site.public.is_some() && gone(&ResourceKind::Public) {
        out.push(deletion(
            id,
            ResourceKind::Public,
            site.public.as_ref(),
            reason,
        ));
    }
    for secret in site.secrets.keys() {
        let kind = ResourceKind::Secret(secret.clone());
        if gone(&kind) {
            out.push(deletion(id, kind, None, reason));
        }
    }
    for (branch, Body(entries)) in &site.workers {
        let kind = ResourceKind::Worker(branch.clone());
        if gone(&kind) {
            out.push(deletion(id, kind, Some(entries), reason));
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
pub(super) fn changes(kind: &ResourceKind, before: &Value, after: &Value) -> Vec<Change> {
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
            let found = desired.resources.iter().any(|r| this.matches(selector, r));
            if !found {
                return Err(PlanError::UnknownSecret(selector.clone()));
            }
        }
        Ok(this)
    }

    fn matches(&self, selector: &str, resource: &Resource) -> bool {
        let ResourceKind::Secret(id) = &resource.kind else {
            return false;
        };
        match selector.rsplit_once('/') {
            Some((site, name)) => name == id && site == resource.site.to_string(),
            None => selector == id,
        }
    }

    fn wants(&self, resource: &Resource) -> bool {
        self.selectors.iter().any(|s| self.matches(s, resource))
    }
}

#[cfg(test)]
mod tests;
