use serde_json::json;

use super::*;
use crate::plan::Kind;

fn id(site: &str) -> SiteId {
    SiteId {
        org: "acme".into(),
        site: site.into(),
    }
}

fn resource(site: &str, kind: ResourceKind, body: Value) -> Resource {
    Resource {
        owner: Owner::Site(id(site)),
        kind,
        body,
    }
}

fn site_body(url: &str) -> Value {
    json!({"version": 1, "content": {"source": {"type": "markup", "url": url}}})
}

fn worker_body(key: &str) -> Value {
    json!([{"path": "/a/", "endpoint": "https://e/{{id}}", "templateApiKey": key}])
}

/// web: site, public, secret `sync` and worker `main`.
fn desired() -> Compiled {
    Compiled {
        resources: vec![
            resource("web", ResourceKind::Site, site_body("https://c/web")),
            resource(
                "web",
                ResourceKind::Public,
                json!({"paths": {"includes": ["/a/"]}}),
            ),
            resource(
                "web",
                ResourceKind::Secret("sync".into()),
                json!({"value": "s3cr3t-value"}),
            ),
            resource(
                "web",
                ResourceKind::Worker("main".into()),
                worker_body("k3y-value"),
            ),
            // Fields of the site document: never planned on their own.
            resource("web", ResourceKind::Access, json!({})),
        ],
    }
}

/// The live state after `desired()` was applied, as the service returns it.
fn applied() -> LiveState {
    let mut document = site_body("https://c/web");
    document["created"] = json!("2026-01-01T00:00:00Z");
    document["lastModified"] = json!("2026-01-02T00:00:00Z");
    let site = LiveSite {
        document: Some(document),
        public: Some(json!({"paths": {"includes": ["/a/"]}, "created": "x", "lastModified": "y"})),
        query: None,
        sitemap: None,
        secrets: [("sync".to_string(), json!({"id": "sync", "created": "x"}))].into(),
        secrets_listed: true,
        api_keys: Default::default(),
        workers: [("main".to_string(), Body(worker_body("k3y-value")))].into(),
        branches_listed: true,
    };
    LiveState {
        sites: [(id("web"), site)].into(),
        ..LiveState::default()
    }
}

fn actions(plan: &Plan) -> Vec<(String, Action)> {
    plan.resources
        .iter()
        .map(|r| (r.address.clone(), r.action))
        .collect()
}

fn settings(prune: bool) -> PlanSettings {
    PlanSettings {
        prune,
        ..PlanSettings::default()
    }
}

#[test]
fn everything_is_created_in_an_empty_service() {
    let plan = diff(&desired(), &LiveState::default(), &settings(false)).unwrap();
    assert_eq!(
        actions(&plan),
        [
            ("acme/sites/web.json".into(), Action::Create),
            ("acme/sites/web/public.json".into(), Action::Create),
            ("acme/sites/web/secrets/sync.json".into(), Action::Create),
            ("transform/acme/web/main.json".into(), Action::Create),
        ]
    );
    assert_eq!(plan.summary.create, 4);
    assert!(plan.resources.iter().all(|r| r.body.is_some()));
    let secret = &plan.resources[2];
    assert_eq!(secret.kind, Kind::Secret);
    assert_eq!(secret.name.as_deref(), Some("sync"));
    assert!(secret.sensitive);
}

#[test]
fn what_the_service_manages_is_ignored() {
    let plan = diff(&desired(), &applied(), &settings(false)).unwrap();
    assert!(!plan.has_changes(), "{:#?}", plan.resources);
    assert_eq!(plan.summary.unchanged, 4);
    // A version the service stamped is ignored when the repository sends none.
    let mut compiled = desired();
    compiled.resources[0]
        .body
        .as_object_mut()
        .unwrap()
        .remove("version");
    let plan = diff(&compiled, &applied(), &settings(false)).unwrap();
    assert!(!plan.has_changes());
    // The content bus the platform gave the site is its own, not a change.
    let mut live = applied();
    let document = live
        .sites
        .values_mut()
        .next()
        .unwrap()
        .document
        .as_mut()
        .unwrap();
    document["content"]["contentBusId"] =
        json!("h4a1e6a9f0c2d3b7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9");
    let plan = diff(&desired(), &live, &settings(false)).unwrap();
    assert!(!plan.has_changes(), "{:#?}", plan.resources);
}

#[test]
fn an_update_lists_the_fields_that_differ() {
    let mut compiled = desired();
    compiled.resources[0].body = json!({
        "version": 1,
        "content": {"source": {"type": "markup", "url": "https://c/new"}},
        "access": {"admin": {"role": {"admin": ["a@b.example"]}}},
    });
    let plan = diff(&compiled, &applied(), &settings(false)).unwrap();
    let site = &plan.resources[0];
    assert_eq!(site.action, Action::Update);
    assert_eq!(
        site.changes,
        [
            Change {
                path: "/access".into(),
                before: None,
                after: Some(json!({"admin": {"role": {"admin": ["a@b.example"]}}})),
            },
            Change {
                path: "/content/source/url".into(),
                before: Some(json!("https://c/web")),
                after: Some(json!("https://c/new")),
            },
        ]
    );
    assert_eq!(site.before.as_ref().unwrap().get("created"), None);
    assert_eq!(plan.summary.update, 1);
}

#[test]
fn worker_keys_are_compared_but_never_shown() {
    let mut compiled = desired();
    compiled.resources[3].body = worker_body("n3w-k3y");
    let plan = diff(&compiled, &applied(), &settings(false)).unwrap();
    let worker = &plan.resources[3];
    assert_eq!(worker.action, Action::Update);
    assert_eq!(
        worker.changes,
        [Change {
            path: "/0/templateApiKey".into(),
            before: Some(json!(REDACTED)),
            after: Some(json!(REDACTED)),
        }]
    );
    let shown = serde_json::to_string(&plan).unwrap();
    for secret in ["k3y-value", "n3w-k3y", "s3cr3t-value"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
    assert!(format!("{plan:?}").find("n3w-k3y").is_none());
}

#[test]
fn an_existing_secret_is_replaced_only_on_request() {
    for selector in ["sync", "acme/web/sync"] {
        let settings = PlanSettings {
            replace_secrets: vec![selector.into()],
            ..PlanSettings::default()
        };
        let plan = diff(&desired(), &applied(), &settings).unwrap();
        let secret = &plan.resources[2];
        assert_eq!(secret.action, Action::Update, "{selector}");
        assert_eq!(secret.after, Some(json!({"value": REDACTED})));
        assert!(secret.body.is_some());
    }
    for unknown in ["other", "acme/blog/sync", "globex/web/sync"] {
        let settings = PlanSettings {
            replace_secrets: vec![unknown.into()],
            ..PlanSettings::default()
        };
        assert_eq!(
            diff(&desired(), &applied(), &settings).unwrap_err(),
            PlanError::UnknownSecret(unknown.into())
        );
    }
}

#[test]
fn nothing_is_deleted_without_prune() {
    let mut live = applied();
    live.sites
        .insert(id("old"), applied().sites[&id("web")].clone());
    let mut compiled = desired();
    compiled.resources.remove(1); // public
    let plan = diff(&compiled, &live, &settings(false)).unwrap();
    assert_eq!(plan.summary.delete, 0);
    assert!(!plan.has_changes());
}

#[test]
fn prune_deletes_a_removed_site_and_removed_sub_resources() {
    let mut live = applied();
    let mut extra = applied().sites[&id("web")].clone();
    extra.secrets.insert("other".into(), json!({"id": "other"}));
    live.sites.insert(id("old"), extra);
    let web = live.sites.get_mut(&id("web")).unwrap();
    web.secrets.insert("stale".into(), json!({"id": "stale"}));
    web.workers.insert("dev".into(), Body(worker_body("k")));
    let mut compiled = desired();
    compiled.resources.remove(1); // web's public configuration
    let plan = diff(&compiled, &live, &settings(true)).unwrap();
    let deleted: Vec<&str> = plan
        .changes()
        .map(|r| {
            assert_eq!(r.action, Action::Delete);
            r.address.as_str()
        })
        .collect();
    assert_eq!(
        deleted,
        [
            "acme/sites/old.json",
            "acme/sites/old/public.json",
            "acme/sites/old/secrets/other.json",
            "acme/sites/old/secrets/sync.json",
            "acme/sites/web/public.json",
            "acme/sites/web/secrets/stale.json",
            "transform/acme/old/main.json",
            "transform/acme/web/dev.json",
        ]
    );
    let worker = plan.changes().last().unwrap();
    assert_eq!(
        worker.before.as_ref().unwrap()[0]["templateApiKey"],
        json!(REDACTED)
    );
    assert!(plan.notes.is_empty());
}

#[test]
fn without_prune_what_prune_would_delete_is_named_not_planned() {
    let mut live = applied();
    let web = live.sites.get_mut(&id("web")).unwrap();
    web.secrets.insert("stale".into(), json!({"id": "stale"}));
    web.workers.insert("dev".into(), Body(worker_body("k")));
    let mut compiled = desired();
    compiled.resources.remove(1); // web's public configuration
    let pruned = diff(&compiled, &live, &settings(true)).unwrap();
    assert!(
        pruned.unmanaged.is_empty(),
        "with --prune they are deletions"
    );
    let plan = diff(&compiled, &live, &settings(false)).unwrap();
    assert!(!plan.has_changes());
    let deletions: Vec<String> = pruned.changes().map(|r| r.address.clone()).collect();
    assert_eq!(plan.unmanaged.documents, deletions);
    // What the survey found by name: other sites and profiles, a site's index.
    live.others.sites.insert(id("old"));
    live.others
        .profiles
        .insert(("acme".into(), "legacy".into()));
    live.others
        .documents
        .insert(id("web"), [ResourceKind::Query].into());
    let plan = diff(&compiled, &live, &settings(false)).unwrap();
    assert_eq!(plan.unmanaged.sites, ["acme/old"]);
    assert_eq!(plan.unmanaged.profiles, ["acme/legacy"]);
    assert_eq!(
        plan.unmanaged.documents,
        [
            "acme/sites/web/content/query.yaml",
            "acme/sites/web/public.json",
            "acme/sites/web/secrets/stale.json",
            "transform/acme/web/dev.json",
        ]
    );
    assert_eq!(plan.summary.changes(), 0);
    // Not part of the fingerprint: a site made by hand leaves a saved plan good.
    assert_eq!(live.fingerprint(), applied_with_extras().fingerprint());
}

/// [`applied`] with the extra secret and branch of the test above.
fn applied_with_extras() -> LiveState {
    let mut live = applied();
    let web = live.sites.get_mut(&id("web")).unwrap();
    web.secrets.insert("stale".into(), json!({"id": "stale"}));
    web.workers.insert("dev".into(), Body(worker_body("k")));
    live
}

#[test]
fn prune_says_what_it_could_not_list() {
    let mut live = applied();
    let web = live.sites.get_mut(&id("web")).unwrap();
    web.secrets_listed = false;
    web.branches_listed = false;
    let plan = diff(&desired(), &live, &settings(true)).unwrap();
    assert_eq!(plan.notes.len(), 2, "{:?}", plan.notes);
    assert!(plan.notes[0].starts_with("acme/web: the service does not list secrets"));
}

#[test]
fn prune_refuses_to_delete_everything() {
    let error = diff(&Compiled::default(), &applied(), &settings(true)).unwrap_err();
    assert_eq!(error, PlanError::PruneEverything(4));
    // With nothing live, an empty repository is simply no changes.
    let plan = diff(&Compiled::default(), &LiveState::default(), &settings(true)).unwrap();
    assert!(!plan.has_changes());
}

#[test]
fn the_fingerprint_follows_the_live_state_but_not_worker_keys() {
    let base = applied().fingerprint();
    assert!(base.starts_with("sha256:") && base.len() == 7 + 64);
    assert_eq!(applied().fingerprint(), base);
    let mut touched = applied();
    touched
        .sites
        .get_mut(&id("web"))
        .unwrap()
        .document
        .as_mut()
        .unwrap()["lastModified"] = json!("later");
    assert_ne!(touched.fingerprint(), base);
    let mut rekeyed = applied();
    rekeyed.sites.get_mut(&id("web")).unwrap().workers =
        [("main".to_string(), Body(worker_body("another")))].into();
    assert_eq!(rekeyed.fingerprint(), base);
}

#[test]
fn field_changes_inside_arrays() {
    let kind = ResourceKind::Site;
    let before = json!({"list": ["a", "b"], "entries": [{"x": 1}, {"x": 2}]});
    let after = json!({"list": ["a", "c"], "entries": [{"x": 1}, {"x": 3}, {"x": 4}]});
    let paths: Vec<String> = changes(&kind, &before, &after)
        .into_iter()
        .map(|c| c.path)
        .collect();
    assert_eq!(paths, ["/entries/1/x", "/entries/2", "/list"]);
    let odd = changes(&kind, &json!({"a/b": 1, "c~d": 1}), &json!({}));
    assert_eq!(odd[0].path, "/a~1b");
    assert_eq!(odd[1].path, "/c~0d");
}

/// The org's document with secret `reader`, a profile, and a site that extends it.
fn documents() -> Compiled {
    let org = Owner::Org("acme".into());
    let profile = Owner::Profile {
        org: "acme".into(),
        name: "shared".into(),
    };
    let mut site = site_body("https://c/web");
    site["extends"] = json!({"profile": "shared"});
    Compiled {
        resources: vec![
            Resource {
                owner: org,
                kind: ResourceKind::Org,
                body: json!({"version": 1, "title": "Acme",
                    "secrets": {"reader": {"id": "reader", "type": "key", "value": "r3ader-value"}}}),
            },
            Resource {
                owner: profile,
                kind: ResourceKind::Profile,
                body: json!({"version": 1, "robots": {"txt": "new"}}),
            },
            resource("web", ResourceKind::Site, site),
        ],
    }
}

#[test]
fn the_org_and_profiles_are_compared_as_the_service_keeps_them() {
    let mut live = LiveState::default();
    // As stored: stamped, the secret's value never answered, a key the service minted.
    live.orgs.insert(
        "acme".into(),
        json!({"version": 1, "title": "Acme", "created": "x", "lastModified": "y",
            "apiKeys": {"k": {"id": "k"}},
            "secrets": {"reader": {"id": "reader", "type": "key", "created": "x", "lastModified": "y"}}}),
    );
    live.profiles.insert(
        ("acme".into(), "shared".into()),
        json!({"version": 1, "robots": {"txt": "old"}, "created": "x"}),
    );
    let plan = diff(&documents(), &live, &settings(false)).expect("plan");
    let org = &plan.resources[0];
    assert_eq!(
        (org.address.as_str(), org.action),
        ("acme.json", Action::NoOp)
    );
    let profile = &plan.resources[1];
    assert_eq!(profile.action, Action::Update);
    assert_eq!(profile.extended_by, ["acme/web"]);
    assert_eq!(profile.changes.len(), 1);
    assert_eq!(profile.changes[0].path, "/robots/txt");

    // --replace-secret acme/reader rewrites the org's document, its value masked.
    let replace = PlanSettings {
        replace_secrets: vec!["acme/reader".into()],
        ..settings(false)
    };
    let plan = diff(&documents(), &live, &replace).expect("plan");
    let org = &plan.resources[0];
    assert_eq!(org.action, Action::Update);
    assert_eq!(org.changes[0].path, "/secrets/reader/value");
    assert_eq!(
        org.after.as_ref().unwrap()["secrets"]["reader"]["value"],
        REDACTED
    );
    assert_eq!(plan.secret_values(), ["r3ader-value"]);
    let text = crate::plan::render::json(&plan);
    assert!(!text.contains("r3ader-value"), "{text}");
}

#[test]
fn listed_profiles_the_repository_lacks_are_pruned_and_the_org_never() {
    let mut live = LiveState::default();
    live.profiles
        .insert(("acme".into(), "old".into()), json!({"version": 1}));
    live.profiles_listed.insert("acme".into());
    live.orgs.insert("globex".into(), json!({"version": 1}));
    let plan = diff(&documents(), &live, &settings(true)).expect("plan");
    let deleted: Vec<&str> = (plan.resources.iter())
        .filter(|r| r.action == Action::Delete)
        .map(|r| r.address.as_str())
        .collect();
    assert_eq!(deleted, ["acme/profiles/old.json"]);
    // Unlisted, nothing is deleted.
    live.profiles_listed.clear();
    let plan = diff(&documents(), &live, &settings(true)).expect("plan");
    assert_eq!(plan.summary.delete, 0);
}

#[test]
fn what_the_service_makes_is_created_once_and_shown_masked() {
    let made = resource(
        "web",
        ResourceKind::Secret("partner".into()),
        siteops_config::compile::made_secret(),
    );
    let key = resource(
        "web",
        ResourceKind::ApiKey("ci".into()),
        json!({"description": "ci", "roles": ["publish"]}),
    );
    let mut wanted = desired();
    wanted.resources.extend([made, key]);
    let mut live = applied();
    let plan = diff(&wanted, &live, &settings(false)).expect("plans");
    let created: Vec<&Planned> = plan.changes().collect();
    assert_eq!(created.len(), 2, "{created:?}");
    assert!(
        created
            .iter()
            .all(|r| r.action == Action::Create && r.makes_value())
    );
    assert!(created.iter().all(|r| r.sensitive && r.reason.is_some()));
    let key_plan = created
        .iter()
        .find(|r| r.kind == Kind::ApiKey)
        .expect("the key");
    assert_eq!(key_plan.address, "acme/sites/web/apiKeys/ci.json");
    assert_eq!(
        key_plan.after,
        Some(json!({"roles": ["publish"], "value": REDACTED}))
    );
    // Once they exist (the key found by its description), nothing changes.
    let site = live.sites.get_mut(&id("web")).expect("web");
    site.secrets
        .insert("partner".into(), json!({"id": "partner"}));
    site.api_keys.insert(
        "Xk2".into(),
        json!({"id": "Xk2", "description": "ci", "roles": ["publish"]}),
    );
    let plan = diff(&wanted, &live, &settings(false)).expect("plans");
    assert!(
        !plan.has_changes(),
        "{:?}",
        plan.changes().collect::<Vec<_>>()
    );
    // Made again only when asked.
    let replace = PlanSettings {
        replace_secrets: vec!["ci".into(), "acme/web/partner".into()],
        ..settings(false)
    };
    let plan = diff(&wanted, &live, &replace).expect("plans");
    let updated: Vec<&Planned> = plan.changes().collect();
    assert_eq!(updated.len(), 2);
    assert!(
        updated
            .iter()
            .all(|r| r.action == Action::Update && r.makes_value())
    );
}

/// Key records in `org.toml` (as `siteops import` writes them) are notes: never planned,
/// neither when the service holds the key nor when it revoked it (finding 3 of issue 43:
/// the plan once proposed `+ apiKeys.<id>` for a revoked key, and apply revived it). A
/// record of a key the service no longer holds is named in a note.
#[test]
fn key_records_are_never_planned_and_a_revoked_ones_is_named() {
    let mut desired = documents();
    desired.resources[0].body["apiKeys"] = json!({
        "ci": {"id": "k-live", "roles": ["publish"]},
        "leaked": {"id": "k-revoked", "roles": ["admin"]},
    });
    let mut live = LiveState::default();
    live.orgs.insert(
        "acme".into(),
        json!({"version": 1, "title": "Acme",
            "apiKeys": {"k-live": {"id": "k-live", "roles": ["publish"]}},
            "secrets": {"reader": {"id": "reader", "type": "key"}}}),
    );
    let plan = diff(&desired, &live, &settings(false)).expect("plan");
    let org = &plan.resources[0];
    assert_eq!(org.action, Action::NoOp, "{:?}", org.changes);
    assert_eq!(
        plan.notes
            .iter()
            .filter(|n| n.contains("apiKeys"))
            .collect::<Vec<_>>(),
        [
            "sites/acme/org.toml: `[apiKeys.leaked]` records key `k-revoked`, which the service \
          does not hold (revoked, or never minted); apply never writes key records: remove it \
          (and the `apiKeyId` entries naming it)"
        ]
    );
    // A new org: the records are still not sent.
    let plan = diff(&desired, &LiveState::default(), &settings(false)).expect("plan");
    let org = &plan.resources[0];
    assert_eq!(org.action, Action::Create);
    assert!(
        org.after.as_ref().unwrap().get("apiKeys").is_none(),
        "{:?}",
        org.after
    );
}
