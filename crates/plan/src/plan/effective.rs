//! What a plan's writes of profiles reach without writing it: the effective configuration
//! of each site that extends a changing profile.
//!
//! A site uses its document laid over its profile (`extends.profile`, else `default`;
//! `siteops_config::model::effective::over`), which the service answers as the site's
//! `aggregated` configuration. A change of a profile therefore changes every site that
//! extends it, in the repository or live only. For each, the plan shows the effective
//! configuration before (the service's aggregated answer; where it has none, the live site
//! over the live profile) against after (the site's document as apply leaves it, the
//! repository's or the live one, over the profile as apply writes it), by the plan's own
//! field diff, masked as the plan's bodies are. A [`SiteEffect`] has no address and no
//! body: apply, which carries out the plan's entries, has nothing of it to write. A site
//! whose effective configuration stays as it is is only counted.
//!
//! The org's document is no part of a site's aggregated configuration (the service reads
//! its groups and secrets for access decisions only), so no effective diff follows from it.
//! But on the platform a write of the org's document or of a profile purges the
//! configuration cache of every site in the org: the plan says so, once per org.
//!
//! Pure: `remote::live::read_reach` reads the [`Reach`] that [`attach`] needs.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::diff::{SERVER_MANAGED, STAMPED_IN_SITE, byogit_as_desired, changes};
use super::ownership::merged;
use super::{Action, Change, Kind, LiveState, Plan};
use siteops_config::compile::{Compiled, Owner, ResourceKind};
use siteops_config::model::SiteId;
use siteops_config::model::effective::over;

/// The profile a site without `extends.profile` takes.
pub const DEFAULT_PROFILE: &str = "default";

/// The parts of a document the service keeps for it alone (secret entries, minted keys):
/// never laid over a site, and no part of what the effective diff compares.
const SERVICE_PARTS: [&str; 3] = ["secrets", "apiKeys", "tokens"];

/// A site whose effective configuration changes with a profile the plan writes: a
/// consequence of that write, not a write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteEffect {
    /// `org/site`.
    pub site: String,
    /// The fields of its effective configuration that differ, masked.
    pub changes: Vec<Change>,
}

/// What the service answered beyond the plan's live state, about the sites a plan's writes
/// of profiles and org documents reach.
#[derive(Debug, Clone, Default)]
pub struct Reach {
    /// Org → how many sites the service lists in it, of the orgs whose document or
    /// profiles the plan writes (absent where the service has no listing).
    pub sites: BTreeMap<String, usize>,
    /// The documents of the listed sites that the live state lacks (not in the plan's
    /// scope), of the orgs whose profiles change.
    pub others: BTreeMap<SiteId, Value>,
    /// Site → its aggregated configuration as the service answers it, of the sites
    /// [`reached`] names; `None` where the service has no aggregated route (404).
    pub aggregated: BTreeMap<SiteId, Option<Value>>,
}

/// The orgs whose document or profiles the plan writes: whose sites' configuration cache
/// the platform purges.
pub fn written_orgs(plan: &Plan) -> BTreeSet<String> {
    plan.changes()
        .filter(|r| matches!(r.kind, Kind::Org | Kind::Profile))
        .map(|r| r.org.clone())
        .collect()
}

/// The profiles the plan writes, as (org, name).
pub fn changing_profiles(plan: &Plan) -> BTreeSet<(String, String)> {
    plan.changes()
        .filter(|r| r.kind == Kind::Profile)
        .map(|r| (r.org.clone(), r.name.clone().unwrap_or_default()))
        .collect()
}

/// The sites whose effective configuration a profile the plan writes may change (they
/// extend it now or will), of the live state's and `others`: those whose aggregated
/// configuration is worth reading. None when no profile changes.
pub fn reached(
    plan: &Plan,
    desired: &Compiled,
    live: &LiveState,
    others: &BTreeMap<SiteId, Value>,
) -> Vec<SiteId> {
    let changing = changing_profiles(plan);
    extenders(&changing, desired, live, others)
        .into_iter()
        .map(|e| e.id.clone())
        .collect()
}

/// Puts on each changing profile's entry the sites whose effective configuration changes
/// with it ([`SiteEffect`]) and how many do not, counts them in the summary, and notes
/// the purge of each org whose document or profiles the plan writes.
pub fn attach(plan: &mut Plan, desired: &Compiled, live: &LiveState, reach: &Reach) {
    let changing = changing_profiles(plan);
    let mut effects: BTreeMap<(String, String), (Vec<SiteEffect>, usize)> = BTreeMap::new();
    for extender in extenders(&changing, desired, live, &reach.others) {
        let org = &extender.id.org;
        let key = |name: &str| (org.clone(), name.to_string());
        let Some(profile) = profile_after(plan, desired, live, org, extender.after) else {
            continue;
        };
        let mut after = comparable(match &profile {
            Some(profile) => over(&shared(profile), &extender.document_after()),
            None => extender.document_after(),
        });
        let mut before = comparable(match reach.aggregated.get(extender.id) {
            Some(Some(aggregated)) => aggregated.clone(),
            _ => match live.profiles.get(&key(extender.before)) {
                Some(profile) => over(&shared(profile), extender.live),
                None => extender.live.clone(),
            },
        });
        byogit_as_desired(live.family, &after, &mut before);
        // What the site's code and content stamps hold is the service's, both sides.
        for (part, field) in STAMPED_IN_SITE {
            if let Some(stamp) = before.get(part).and_then(|p| p.get(field)).cloned()
                && let Some(Value::Object(part)) = after.get_mut(part)
            {
                part.entry(field).or_insert(stamp);
            }
        }
        let owner = if changing.contains(&key(extender.after)) {
            key(extender.after)
        } else {
            key(extender.before)
        };
        let (listed, unaffected) = effects.entry(owner).or_default();
        let changes = changes(&ResourceKind::Site, &before, &after);
        if changes.is_empty() {
            *unaffected += 1;
        } else {
            listed.push(SiteEffect {
                site: extender.id.to_string(),
                changes,
            });
        }
    }
    let mut total = 0;
    for planned in plan.resources.iter_mut() {
        if planned.kind != Kind::Profile || planned.action == Action::NoOp {
            continue;
        }
        let key = (
            planned.org.clone(),
            planned.name.clone().unwrap_or_default(),
        );
        if let Some((listed, unaffected)) = effects.remove(&key) {
            total += listed.len();
            planned.effective = listed;
            planned.unaffected = unaffected;
        }
    }
    plan.summary.effective = total;
    for org in written_orgs(plan) {
        let written: Vec<&str> = (plan.changes())
            .filter(|r| r.org == org && matches!(r.kind, Kind::Org | Kind::Profile))
            .map(|r| r.address.as_str())
            .collect();
        let sites = match reach.sites.get(&org) {
            Some(1) => " (1 site)".to_string(),
            Some(n) => format!(" ({n} sites)"),
            None => String::new(),
        };
        plan.notes.push(format!(
            "{org}: writing {} purges the configuration cache of every site in the org{sites}",
            written.join(", ")
        ));
    }
}

/// A live site that extends a changing profile now or will after the plan.
struct Extender<'a> {
    id: &'a SiteId,
    /// The live document.
    live: &'a Value,
    /// The repository's site document and public configuration, when it has the site.
    desired: Option<(&'a Value, Option<&'a Value>)>,
    /// The profile it extends now, and after the plan.
    before: &'a str,
    after: &'a str,
}

impl Extender<'_> {
    /// The site's document as apply leaves it: the live one with the parts the repository
    /// manages replaced (its public configuration too, written apart), and the stamps
    /// the service keeps.
    fn document_after(&self) -> Value {
        let Some((body, public)) = self.desired else {
            return self.live.clone();
        };
        let mut document = merged(self.live, body);
        if let (Some(public), Value::Object(map)) = (public, &mut document) {
            map.insert("public".into(), public.clone());
        }
        document
    }
}

/// The sites that extend a profile of `changing` now (live) or after the plan (the
/// repository's document): the live state's that the plan keeps (a site it deletes has no
/// effective configuration left to show) and `others`, sorted.
fn extenders<'a>(
    changing: &'a BTreeSet<(String, String)>,
    desired: &'a Compiled,
    live: &'a LiveState,
    others: &'a BTreeMap<SiteId, Value>,
) -> Vec<Extender<'a>> {
    if changing.is_empty() {
        return Vec::new();
    }
    let (mut sites, mut public) = (BTreeMap::new(), BTreeMap::new());
    for resource in &desired.resources {
        let Owner::Site(id) = &resource.owner else {
            continue;
        };
        match resource.kind {
            ResourceKind::Site => sites.insert(id, &resource.body),
            ResourceKind::Public => public.insert(id, &resource.body),
            _ => None,
        };
    }
    let repository: BTreeMap<&SiteId, (&Value, Option<&Value>)> = (sites.into_iter())
        .map(|(id, body)| (id, (body, public.get(id).copied())))
        .collect();
    let live_sites =
        (live.sites.iter()).filter_map(|(id, site)| Some((id, site.document.as_ref()?)));
    let others = others
        .iter()
        .filter(|(id, _)| !live.sites.contains_key(*id));
    let mut out = Vec::new();
    for (id, document) in live_sites.chain(others) {
        let desired = repository.get(id).copied();
        if desired.is_none() && live.sites.contains_key(id) {
            // Pruned: the plan deletes it.
            continue;
        }
        let before = profile_of(document);
        let after = desired.map_or(before, |(body, _)| profile_of(body));
        let changes = |name: &str| changing.contains(&(id.org.clone(), name.to_string()));
        if changes(before) || changes(after) {
            out.push(Extender {
                id,
                live: document,
                desired,
                before,
                after,
            });
        }
    }
    out.sort_by(|a, b| a.id.cmp(b.id));
    out
}

/// The profile a site document extends: `extends.profile`, else [`DEFAULT_PROFILE`].
fn profile_of(document: &Value) -> &str {
    document
        .pointer("/extends/profile")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_PROFILE)
}

/// Profile `name` of `org` as the plan leaves it: `Some(None)` when there is none (deleted,
/// or never was), `None` when it is unknown (neither the repository's nor read).
fn profile_after(
    plan: &Plan,
    desired: &Compiled,
    live: &LiveState,
    org: &str,
    name: &str,
) -> Option<Option<Value>> {
    let key = (org.to_string(), name.to_string());
    let planned = (plan.resources.iter())
        .find(|r| r.kind == Kind::Profile && r.org == org && r.name.as_deref() == Some(name));
    if planned.is_some_and(|r| r.action == Action::Delete) {
        return Some(None);
    }
    let body = desired.resources.iter().find_map(|r| match &r.owner {
        Owner::Profile { org: o, name: n } if o == org && n == name => Some(&r.body),
        _ => None,
    });
    let stored = live.profiles.get(&key);
    match (body, stored) {
        (Some(body), Some(stored)) => Some(Some(merged(stored, body))),
        (Some(body), None) => Some(Some(body.clone())),
        (None, Some(stored)) => Some(Some(stored.clone())),
        // Not the repository's and not read: known absent only when the org's profiles
        // were listed.
        (None, None) => live.profiles_listed.contains(org).then_some(None),
    }
}

/// What a site takes from a profile document: all but the service's fields and parts.
fn shared(profile: &Value) -> Value {
    comparable(profile.clone())
}

/// A document without the fields the service stamps and the parts it keeps for the
/// document alone.
fn comparable(mut document: Value) -> Value {
    if let Value::Object(map) = &mut document {
        for field in SERVER_MANAGED.iter().chain(&SERVICE_PARTS) {
            map.remove(*field);
        }
    }
    document
}

#[cfg(test)]
mod tests;
