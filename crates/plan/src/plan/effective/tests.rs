use serde_json::json;

use super::*;
use crate::plan::{LiveSite, PlanSettings, diff};
use siteops_config::compile::{REDACTED, Resource};

fn id(site: &str) -> SiteId {
    SiteId {
        org: "acme".into(),
        site: site.into(),
    }
}

fn profile(name: &str, body: Value) -> Resource {
    Resource {
        owner: Owner::Profile {
            org: "acme".into(),
            name: name.into(),
        },
        kind: ResourceKind::Profile,
        body,
    }
}

fn site(name: &str, body: Value) -> Resource {
    Resource {
        owner: Owner::Site(id(name)),
        kind: ResourceKind::Site,
        body,
    }
}

/// A site document: its content source, and the profile it names, if any.
fn document(name: &str, extends: Option<&str>) -> Value {
    let mut body =
        json!({"version": 1, "content": {"source": {"url": format!("https://c/{name}")}}});
    if let Some(profile) = extends {
        body["extends"] = json!({"profile": profile});
    }
    body
}

/// As the service answers a stored document: stamped, with the parts it keeps.
fn stored(mut body: Value) -> Value {
    body["created"] = json!("2026-01-01T00:00:00Z");
    body["lastModified"] = json!("2026-01-02T00:00:00Z");
    body["apiKeys"] = json!({"k": {"id": "k"}});
    body
}

/// The repository: profile `default` (its sidekick project now "New") and `other`; site
/// web on `default` (implicitly), blog on `other`, own on `default` with a sidekick of
/// its own.
fn desired() -> Compiled {
    let mut own = document("own", None);
    own["sidekick"] = json!({"project": "Own"});
    Compiled {
        resources: vec![
            profile("default", json!({"sidekick": {"project": "New"}})),
            profile("other", json!({"sidekick": {"project": "Other"}})),
            site("blog", document("blog", Some("other"))),
            site("own", own),
            site("web", document("web", None)),
        ],
    }
}

/// The live state after the repository was applied with the default profile's project
/// "Old"; and shop, a live site the repository does not have, on `default` explicitly.
fn live() -> (LiveState, BTreeMap<SiteId, Value>) {
    let mut live = LiveState::default();
    live.profiles.insert(
        ("acme".into(), "default".into()),
        stored(json!({"sidekick": {"project": "Old"}})),
    );
    live.profiles.insert(
        ("acme".into(), "other".into()),
        stored(json!({"sidekick": {"project": "Other"}})),
    );
    let desired = desired();
    for resource in desired
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::Site)
    {
        let id = resource.site().expect("a site").clone();
        let site = LiveSite {
            document: Some(stored(resource.body.clone())),
            ..LiveSite::default()
        };
        live.sites.insert(id, site);
    }
    let others = [(id("shop"), stored(document("shop", Some("default"))))].into();
    (live, others)
}

fn plan(desired: &Compiled, live: &LiveState) -> Plan {
    diff(desired, live, &PlanSettings::default()).expect("plan")
}

fn reach(
    plan: &Plan,
    desired: &Compiled,
    live: &LiveState,
    others: BTreeMap<SiteId, Value>,
) -> Reach {
    let mut aggregated = BTreeMap::new();
    for id in reached(plan, desired, live, &others) {
        // web's aggregated answer, as the service lays it over its profile; the others
        // have none (the service has no route for them): the live site over the live
        // profile stands in.
        let answer = (id.site == "web").then(|| {
            over(
                &json!({"sidekick": {"project": "Old"}}),
                &live.sites[&id].document.clone().expect("live"),
            )
        });
        aggregated.insert(id, answer);
    }
    Reach {
        sites: [("acme".to_string(), 4)].into(),
        others,
        aggregated,
    }
}

#[test]
fn a_changing_profile_shows_the_effective_diff_of_every_site_that_extends_it() {
    let desired = desired();
    let (live, others) = live();
    let mut plan = plan(&desired, &live);
    assert_eq!(
        reached(&plan, &desired, &live, &others),
        [id("own"), id("shop"), id("web")],
        "blog extends a profile that does not change"
    );
    let reach = reach(&plan, &desired, &live, others);
    attach(&mut plan, &desired, &live, &reach);

    let default = plan
        .resources
        .iter()
        .find(|r| r.name.as_deref() == Some("default"))
        .expect("the profile");
    assert_eq!(default.action, Action::Update);
    let change = Change {
        path: "/sidekick/project".into(),
        before: Some(json!("Old")),
        after: Some(json!("New")),
    };
    assert_eq!(
        default.effective,
        [
            SiteEffect {
                site: "acme/shop".into(),
                changes: vec![change.clone()],
            },
            SiteEffect {
                site: "acme/web".into(),
                changes: vec![change],
            },
        ]
    );
    assert_eq!(default.unaffected, 1, "own keeps its own project");
    assert_eq!(plan.summary.effective, 2);
    assert_eq!((plan.summary.changes(), plan.summary.update), (1, 1));
    assert!(plan.has_changes());
    assert_eq!(
        plan.notes,
        [
            "acme: writing acme/profiles/default.json purges the configuration cache of every site in the org (4 sites)"
        ]
    );
    // Additive in the JSON document: the entry lists them, the summary counts them.
    let json: Value = serde_json::from_str(&crate::plan::render::json(&plan)).expect("JSON");
    assert_eq!(json["summary"]["effective"], 2);
    assert_eq!(json["resources"][0]["effective"][1]["site"], "acme/web");
    assert_eq!(json["resources"][0]["unaffected"], 1);
}

#[test]
fn nothing_is_read_or_noted_when_no_profile_or_org_document_changes() {
    let mut desired = desired();
    desired.resources[0].body = json!({"sidekick": {"project": "Old"}});
    let (live, others) = live();
    let mut plan = plan(&desired, &live);
    assert!(!plan.has_changes());
    assert!(written_orgs(&plan).is_empty());
    assert!(reached(&plan, &desired, &live, &others).is_empty());
    attach(&mut plan, &desired, &live, &Reach::default());
    assert!(plan.notes.is_empty());
    assert_eq!(plan.summary.effective, 0);
    let json = crate::plan::render::json(&plan);
    assert!(
        !json.contains("effective") && !json.contains("unaffected"),
        "{json}"
    );
}

#[test]
fn a_site_of_the_repository_is_taken_as_apply_leaves_it() {
    // web moves to `other` in the same plan: its effective configuration follows the
    // repository's document over the profile it will extend; the service's parts of its
    // document (its stamps, minted keys) are no change.
    let mut desired = desired();
    desired.resources[4].body = document("web", Some("other"));
    let (live, others) = live();
    let mut plan = plan(&desired, &live);
    let reach = reach(&plan, &desired, &live, others);
    attach(&mut plan, &desired, &live, &reach);
    let default = &plan.resources[0];
    let web = (default.effective.iter())
        .find(|e| e.site == "acme/web")
        .expect("web");
    let paths: Vec<&str> = web.changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["/extends", "/sidekick/project"]);
    assert_eq!(web.changes[1].after, Some(json!("Other")));
}

#[test]
fn a_deleted_profile_leaves_its_sites_on_their_own_documents() {
    let (mut live, others) = live();
    live.profiles.insert(
        ("acme".into(), "gone".into()),
        stored(json!({"robots": {"txt": "x"}})),
    );
    live.profiles_listed.insert("acme".into());
    let mut document = stored(document("old", Some("gone")));
    document["robots"] = json!({"txt": "x"});
    let others = others.into_iter().chain([(id("old"), document)]).collect();
    let desired = desired();
    let prune = PlanSettings {
        prune: true,
        ..PlanSettings::default()
    };
    let mut plan = diff(&desired, &live, &prune).expect("plan");
    let reach = reach(&plan, &desired, &live, others);
    attach(&mut plan, &desired, &live, &reach);
    let gone = (plan.resources.iter())
        .find(|r| r.name.as_deref() == Some("gone"))
        .expect("the profile");
    assert_eq!(gone.action, Action::Delete);
    // old sets robots itself: laid over nothing, nothing changes.
    assert_eq!((gone.effective.len(), gone.unaffected), (0, 1));
}

#[test]
fn effective_secrets_are_masked_and_the_org_document_reaches_no_site() {
    let mut desired = desired();
    desired.resources[0].body = json!({"sidekick": {"project": "Old"},
        "cdn": {"prod": {"type": "fastly", "authToken": "n3w-token"}}});
    desired.resources.insert(
        0,
        Resource {
            owner: Owner::Org("acme".into()),
            kind: ResourceKind::Org,
            body: json!({"title": "Acme"}),
        },
    );
    let (live, others) = live();
    let mut plan = plan(&desired, &live);
    let reach = reach(&plan, &desired, &live, others);
    attach(&mut plan, &desired, &live, &reach);
    let text = crate::plan::render::json(&plan);
    assert!(!text.contains("n3w-token"), "{text}");
    let org = &plan.resources[0];
    assert_eq!((org.kind, org.effective.len()), (Kind::Org, 0));
    let default = &plan.resources[1];
    let cdn = (default.effective[0].changes.iter())
        .find(|c| c.path == "/cdn")
        .expect("the CDN block");
    assert_eq!(
        cdn.after,
        Some(json!({"prod": {"type": "fastly", "authToken": REDACTED}}))
    );
    assert_eq!(
        plan.notes,
        [
            "acme: writing acme.json, acme/profiles/default.json purges the configuration cache of every site in the org (4 sites)"
        ]
    );
}

#[test]
fn the_summary_counts_the_sites_reached() {
    use crate::plan::Summary;
    use crate::plan::render::summary_line;
    let summary = |update, effective| Summary {
        update,
        effective,
        ..Summary::default()
    };
    assert_eq!(
        summary_line(&summary(1, 100)),
        "Plan: 0 to create, 1 to update, 0 to delete; 100 sites' effective configuration changes."
    );
    assert_eq!(
        summary_line(&summary(1, 1)),
        "Plan: 0 to create, 1 to update, 0 to delete; 1 site's effective configuration changes."
    );
    assert_eq!(
        summary_line(&summary(1, 0)),
        "Plan: 0 to create, 1 to update, 0 to delete."
    );
    assert_eq!(summary_line(&summary(0, 0)), "No changes.");
}
