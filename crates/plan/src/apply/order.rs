//! The order of a plan's changes, as dependencies between them. Pure.
//!
//! - A site before its sub-resources when it is created (the service has nowhere to put
//!   them before), and before its public and worker configurations when it changes.
//! - Secrets before the code configuration that names them: a changed site waits for its
//!   own secrets, and a site that selects a shared external repository waits for the
//!   repository's onboarding site and its sync secret (the repository is not selectable
//!   until that secret is stored).
//! - The org's document before its profiles, and both before the sites (a site names a
//!   profile, and the org's groups and secrets).
//! - Deletions in reverse: a site's sub-resources go before the site; a secret goes after
//!   the site change that stops naming it; a profile after its org's site changes.

use std::collections::HashMap;

use serde_json::Value;

use crate::plan::{Action, Kind, Planned};

/// For each resource of the plan (by index into `resources`), the changes it waits for.
/// A resource without a change waits for nothing, and nothing waits for it.
pub fn dependencies(resources: &[Planned]) -> Vec<Vec<usize>> {
    let changes = resources;
    let index: HashMap<(&str, &str, Kind, Option<&str>), usize> = changes
        .iter()
        .enumerate()
        .filter(|(_, r)| r.action != Action::NoOp)
        .map(|(i, r)| {
            (
                (r.org.as_str(), r.site.as_str(), r.kind, r.name.as_deref()),
                i,
            )
        })
        .collect();
    let site_of = |r: &Planned| {
        index
            .get(&(r.org.as_str(), r.site.as_str(), Kind::Site, None))
            .copied()
    };
    let written = |j: usize| matches!(changes[j].action, Action::Create | Action::Update);
    let org_of = |r: &Planned| {
        index
            .get(&(r.org.as_str(), "", Kind::Org, None))
            .copied()
            .filter(|&j| written(j))
    };
    let profile_of = |r: &Planned| {
        let name = (r.after.as_ref())
            .and_then(|body| body.pointer("/extends/profile"))
            .and_then(Value::as_str)
            .unwrap_or("default");
        index
            .get(&(r.org.as_str(), "", Kind::Profile, Some(name)))
            .copied()
            .filter(|&j| written(j))
    };
    let onboarding = onboarding_sites(changes);
    let mut deps = vec![Vec::new(); changes.len()];
    for (i, resource) in changes.iter().enumerate() {
        let site = site_of(resource).map(|s| (s, changes[s].action));
        match (resource.kind, resource.action) {
            (_, Action::NoOp) | (Kind::Org, _) => {}
            (Kind::Profile, Action::Create | Action::Update) => deps[i].extend(org_of(resource)),
            (Kind::Profile, Action::Delete) => {
                deps[i].extend((0..changes.len()).filter(|&j| {
                    changes[j].kind == Kind::Site && changes[j].org == resource.org && written(j)
                }));
            }
            (Kind::Site, Action::Create | Action::Update) => {
                deps[i].extend(org_of(resource));
                deps[i].extend(profile_of(resource));
                if resource.action == Action::Update {
                    // Its own new or replaced secrets first.
                    deps[i].extend(changes.iter().enumerate().filter_map(|(j, r)| {
                        (r.kind == Kind::Secret
                            && matches!(r.action, Action::Create | Action::Update)
                            && r.org == resource.org
                            && r.site == resource.site)
                            .then_some(j)
                    }));
                }
                if let Some((owner, repo)) = selected_repository(resource)
                    && let Some(&(org, site, secret)) = onboarding.get(&(owner, repo))
                {
                    deps[i].extend(index.get(&(org, site, Kind::Site, None)));
                    deps[i].extend(index.get(&(org, site, Kind::Secret, Some(secret))));
                }
            }
            (Kind::Site, Action::Delete) => {
                deps[i].extend(changes.iter().enumerate().filter_map(|(j, r)| {
                    (j != i
                        && r.action == Action::Delete
                        && r.org == resource.org
                        && r.site == resource.site)
                        .then_some(j)
                }));
            }
            (Kind::Secret, Action::Create | Action::Update) => {
                if let Some((s, Action::Create)) = site {
                    deps[i].push(s);
                }
            }
            (_, Action::Create | Action::Update) | (Kind::Secret, Action::Delete) => {
                if let Some((s, Action::Create | Action::Update)) = site {
                    deps[i].push(s);
                }
            }
            _ => {}
        }
        deps[i].retain(|&j| j != i);
        deps[i].sort_unstable();
        deps[i].dedup();
    }
    deps
}

type Repository = (String, String);

/// External repositories onboarded by a site of the plan, changed or not: (owner, repo)
/// → (org, site, secretId). Owners and repositories compare case-insensitively, as the
/// service does.
fn onboarding_sites(resources: &[Planned]) -> HashMap<Repository, (&str, &str, &str)> {
    let mut out = HashMap::new();
    for resource in resources.iter().filter(|r| r.kind == Kind::Site) {
        let Some(source) = code_source(resource) else {
            continue;
        };
        if let (Some(key), Some(secret)) = (
            repository_key(source),
            source.get("secretId").and_then(Value::as_str),
        ) {
            out.insert(key, (resource.org.as_str(), resource.site.as_str(), secret));
        }
    }
    out
}

/// The external repository a site selects without onboarding it (no `secretId`).
fn selected_repository(resource: &Planned) -> Option<Repository> {
    let source = code_source(resource)?;
    if source.get("secretId").is_some() {
        return None;
    }
    repository_key(source)
}

fn code_source(resource: &Planned) -> Option<&Value> {
    byogit_source(resource.after.as_ref()?)
}

fn byogit_source(site: &Value) -> Option<&Value> {
    let source = site.get("code")?.get("source")?;
    (source.get("type").and_then(Value::as_str) == Some("byogit")).then_some(source)
}

/// The external (`byogit`) repository a site body's code names, as the service compares
/// repositories (owner and name lower-cased).
pub(crate) fn external_repository(site: &Value) -> Option<Repository> {
    repository_key(byogit_source(site)?)
}

fn repository_key(source: &Value) -> Option<(String, String)> {
    let field = |name| {
        source
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
    };
    Some((field("owner")?, field("repo")?))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::plan::{Body, LiveSite, LiveState, Plan, PlanSettings, diff};
    use siteops_config::compile::{Compiled, Owner, Resource, ResourceKind};
    use siteops_config::model::SiteId;

    fn resource(site: &str, kind: ResourceKind, body: Value) -> Resource {
        Resource {
            owner: Owner::Site(SiteId {
                org: "acme".into(),
                site: site.into(),
            }),
            kind,
            body,
        }
    }

    fn code(secret: Option<&str>) -> Value {
        let mut source = json!({"type": "byogit", "url": "https://g/x", "raw_url": "https://r/x",
            "owner": "P1", "repo": "Web"});
        if let Some(secret) = secret {
            source["secretId"] = json!(secret);
        }
        json!({"version": 1, "code": {"owner": "acme", "repo": "web", "source": source}})
    }

    /// `web` onboards the repository with secret `sync`; `blog` selects it.
    fn fleet() -> Compiled {
        Compiled {
            resources: vec![
                resource("blog", ResourceKind::Site, code(None)),
                resource("blog", ResourceKind::Public, json!({})),
                resource("web", ResourceKind::Site, code(Some("sync"))),
                resource(
                    "web",
                    ResourceKind::Secret("sync".into()),
                    json!({"value": "v"}),
                ),
                resource("web", ResourceKind::Worker("main".into()), json!([])),
            ],
        }
    }

    /// Each change with the addresses it waits for.
    fn waits(plan: &Plan) -> Vec<(String, Vec<String>)> {
        let deps = dependencies(&plan.resources);
        plan.resources
            .iter()
            .zip(deps)
            .filter(|(r, _)| r.action != Action::NoOp)
            .map(|(r, d)| {
                let names = d
                    .iter()
                    .map(|&j| plan.resources[j].address.clone())
                    .collect();
                (r.address.clone(), names)
            })
            .collect()
    }

    fn strings(pairs: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        pairs
            .iter()
            .map(|(a, d)| (a.to_string(), d.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    #[test]
    fn a_new_fleet_creates_sites_then_secrets_then_the_sites_that_need_them() {
        let plan = diff(&fleet(), &LiveState::default(), &PlanSettings::default()).unwrap();
        assert_eq!(
            waits(&plan),
            strings(&[
                (
                    "acme/sites/blog.json",
                    &["acme/sites/web.json", "acme/sites/web/secrets/sync.json"]
                ),
                ("acme/sites/blog/public.json", &["acme/sites/blog.json"]),
                ("acme/sites/web.json", &[]),
                ("acme/sites/web/secrets/sync.json", &["acme/sites/web.json"]),
                ("transform/acme/web/main.json", &["acme/sites/web.json"]),
            ])
        );
    }

    #[test]
    fn a_changed_site_waits_for_its_secrets_and_its_sub_resources_wait_for_it() {
        let mut live = LiveState::default();
        let stale = |body: Value| {
            let mut body = body;
            body["code"]["source"]["raw_url"] = json!("https://r/old");
            body
        };
        live.sites.insert(
            SiteId {
                org: "acme".into(),
                site: "web".into(),
            },
            LiveSite {
                document: Some(stale(code(Some("sync")))),
                workers: [("main".to_string(), Body(json!([{"path": "/"}])))].into(),
                secrets_listed: true,
                branches_listed: true,
                ..LiveSite::default()
            },
        );
        let plan = diff(&fleet(), &live, &PlanSettings::default()).unwrap();
        let waits = waits(&plan);
        assert!(waits.contains(&(
            "acme/sites/web.json".into(),
            vec!["acme/sites/web/secrets/sync.json".into()]
        )));
        assert!(waits.contains(&("acme/sites/web/secrets/sync.json".into(), vec![])));
        assert!(waits.contains(&(
            "transform/acme/web/main.json".into(),
            vec!["acme/sites/web.json".into()]
        )));
    }

    #[test]
    fn the_org_goes_before_its_profiles_and_both_before_the_sites() {
        let mut desired = fleet();
        desired.resources.push(Resource {
            owner: Owner::Org("acme".into()),
            kind: ResourceKind::Org,
            body: json!({"version": 1}),
        });
        desired.resources.push(Resource {
            owner: Owner::Profile {
                org: "acme".into(),
                name: "default".into(),
            },
            kind: ResourceKind::Profile,
            body: json!({"version": 1}),
        });
        let plan = diff(&desired, &LiveState::default(), &PlanSettings::default()).unwrap();
        let waits = waits(&plan);
        let of = |address: &str| &waits.iter().find(|(a, _)| a == address).unwrap().1;
        assert!(of("acme.json").is_empty());
        assert_eq!(of("acme/profiles/default.json"), &["acme.json"]);
        assert_eq!(
            of("acme/sites/web.json"),
            &["acme.json", "acme/profiles/default.json"]
        );
    }

    #[test]
    fn a_pruned_site_goes_after_its_sub_resources() {
        let mut live = LiveState::default();
        live.sites.insert(
            SiteId {
                org: "acme".into(),
                site: "old".into(),
            },
            LiveSite {
                document: Some(json!({"version": 1})),
                public: Some(json!({})),
                query: Some(json!({"version": 1, "indices": {}})),
                sitemap: None,
                secrets: [("s".to_string(), json!({"id": "s"}))].into(),
                workers: [("main".to_string(), Body(json!([])))].into(),
                secrets_listed: true,
                api_keys: Default::default(),
                branches_listed: true,
            },
        );
        let mut desired = fleet();
        desired.resources.truncate(1);
        let settings = PlanSettings {
            prune: true,
            ..PlanSettings::default()
        };
        let plan = diff(&desired, &live, &settings).unwrap();
        let waits = waits(&plan);
        let site = waits
            .iter()
            .find(|(a, _)| a == "acme/sites/old.json")
            .unwrap();
        assert_eq!(
            site.1,
            [
                "acme/sites/old/content/query.yaml",
                "acme/sites/old/public.json",
                "acme/sites/old/secrets/s.json",
                "transform/acme/old/main.json"
            ]
        );
    }
}
