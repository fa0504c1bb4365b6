//! Permissions computed, not field-listed (issue 43): no field of a site, profile or org
//! document lets someone who configures a site widen who administers it, open it, or reach
//! another site. The side doors found, each as a case over real HTTP in both path families;
//! the one group rule; and random sequences of writes by `config_admin`s (a site's, the
//! org's, an org key) checked against what they must never reach.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use siteops_server::auth::Powers;

use crate::harness::{ORG_ADMIN, TestServer};

const TECH: &str = "tech@techacct.example";
const WEB: &str = "web@acme.example";
const CFG: &str = "cfg@acme.example";

/// The newer family's path of a site document's part (`access/admin/defaultRole`), or of
/// the document (`""`), and the older's.
fn site_paths(site: &str, part: &str) -> [String; 2] {
    if part.is_empty() {
        return [
            format!("/api/acme/sites/{site}/config.json"),
            format!("/admin/config/acme/sites/{site}.json"),
        ];
    }
    [
        format!("/api/acme/sites/{site}/config/{part}.json"),
        format!("/admin/config/acme/sites/{site}/{part}.json"),
    ]
}

fn protected_site(extra: Value) -> Value {
    let mut site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
        "access": {
            "admin": {"role": {"admin": [WEB, "owners"], "config_admin": [TECH]}},
            "preview": {"allow": ["*@acme.example"]}
        },
        "groups": {"owners": {"members": [{"email": "own@acme.example"}]}}
    });
    if let (Value::Object(site), Value::Object(extra)) = (&mut site, extra) {
        site.extend(extra);
    }
    site
}

/// A service with the org `acme`: its document (users: `cfg`, a `config_admin`; a group
/// `org-owners`), the profiles `default` (empty), `open` (every signed-in caller admin)
/// and `shared` (no access), and the sites `web` (protected; admins `web@`, the group
/// `owners`; `config_admin` `tech@`), `blog` (extends `shared`, admin through the org's
/// group), `news` (extends `shared`, no admin of its own) and `other` (its own admin
/// only). Each is protected by the preview's authentication alone.
async fn fleet() -> (TestServer, String) {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let put = |path: &'static str, body: Value| {
        let (server, root) = (&server, &root);
        async move {
            let answer = server.put(path, root, &body).await;
            assert_eq!(
                answer.status,
                StatusCode::CREATED,
                "{path}: {:?}",
                answer.error
            );
        }
    };
    put(
        "/api/acme/config.json",
        json!({
            "users": [{"id": "cfg", "email": CFG, "roles": ["config_admin"]}],
            "groups": {"org-owners": {"members": [{"email": "boss@acme.example"}]}}
        }),
    )
    .await;
    put("/api/acme/profiles/default/config.json", json!({})).await;
    put(
        "/api/acme/profiles/open/config.json",
        json!({"access": {"admin": {"defaultRole": ["admin"]}}}),
    )
    .await;
    put("/api/acme/profiles/shared/config.json", json!({})).await;
    put("/api/acme/sites/web/config.json", protected_site(json!({}))).await;
    let mut blog = protected_site(json!({"extends": {"profile": "shared"}}));
    blog["access"]["admin"]["role"] = json!({"admin": ["org-owners"], "config_admin": [TECH]});
    put("/api/acme/sites/blog/config.json", blog).await;
    let mut news = protected_site(json!({"extends": {"profile": "shared"}}));
    news["access"]["admin"]["role"] = json!({"config_admin": [TECH]});
    put("/api/acme/sites/news/config.json", news).await;
    let mut other = protected_site(json!({}));
    other["access"]["admin"]["role"] = json!({"admin": ["other@acme.example"]});
    put("/api/acme/sites/other/config.json", other).await;
    (server, root)
}

/// Who administers a site and whether it is protected, as the service computes it from
/// the stored documents (the aggregated site, the org's groups).
async fn powers(server: &TestServer, root: &str, site: &str) -> Powers {
    let aggregated = server
        .get(&format!("/api/acme/aggregated/{site}/config.json"), root)
        .await;
    assert_eq!(aggregated.status, StatusCode::OK, "{:?}", aggregated.error);
    let org = server.get("/admin/config/acme.json", root).await.body;
    let groups = serde_json::from_value(org["groups"].clone()).ok();
    let config = serde_json::from_value(without_service_fields(aggregated.body)).expect("a site");
    Powers::of(&config, groups.as_ref())
}

fn bytes(body: &Value) -> Vec<u8> {
    serde_json::to_vec(body).expect("JSON serializes")
}

fn without_service_fields(mut site: Value) -> Value {
    if let Value::Object(map) = &mut site {
        for field in ["created", "lastModified", "secrets", "apiKeys", "name"] {
            map.remove(field);
        }
    }
    site
}

#[tokio::test]
async fn a_config_admin_finds_no_side_door() {
    let (server, root) = fleet().await;
    let tech = server.token(TECH);
    let own_group = json!({"members": [{"email": "own@acme.example"}, {"email": TECH}]});
    let mut raised = protected_site(json!({}));
    raised["groups"]["owners"] = own_group.clone();
    // (what, part of the site, method, body, the field the 403 names)
    let cases: Vec<(&str, &str, Method, Option<Value>, &str)> = vec![
        (
            "everyone admin by default",
            "access/admin/defaultRole",
            Method::POST,
            Some(json!(["admin"])),
            "/access/admin/defaultRole",
        ),
        (
            "itself into the group that holds admin",
            "groups/owners",
            Method::POST,
            Some(own_group.clone()),
            "/groups/owners/members",
        ),
        (
            "itself into the group, the document whole",
            "",
            Method::POST,
            Some(raised),
            "/groups/owners/members",
        ),
        (
            "onto a profile that makes everyone admin",
            "extends",
            Method::POST,
            Some(json!({"profile": "open"})),
            "/extends/profile",
        ),
        (
            "the preview's authentication deleted",
            "access/preview",
            Method::DELETE,
            None,
            "/access/preview",
        ),
        (
            "every signed-in caller may read",
            "access/admin/defaultRole",
            Method::POST,
            Some(json!(["basic_author"])),
            "/access/admin/defaultRole",
        ),
    ];
    for (what, part, method, body, field) in cases {
        for path in site_paths("web", part) {
            let before = server.get(&site_paths("web", "")[1], &root).await.body;
            let answer = server
                .send(method.clone(), &path, Some(&tech), body.as_ref().map(bytes))
                .await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{what}: {path}");
            let error = answer.error.unwrap_or_default();
            assert!(
                error.contains(field) && error.contains("only an admin of acme/web"),
                "{what}: {path}: {error}"
            );
            let after = server.get(&site_paths("web", "")[1], &root).await.body;
            assert_eq!(before, after, "{what}: nothing written");
        }
    }
    // Configuration stays the config_admin's: a reader more, another config_admin.
    let readers = json!({"allow": ["*@acme.example", "r@partner.example"]});
    let answer = server
        .post(&site_paths("web", "access/preview")[0], &tech, &readers)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    // And the site stays the admins': the config_admin still cannot delete it.
    let delete = server.delete(&site_paths("web", "")[0], &tech).await;
    assert_eq!(delete.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_org_config_admin_reaches_no_site() {
    let (server, root) = fleet().await;
    let cfg = server.token(CFG);
    // A profile that a site extends, made to name the config_admin admin: refused.
    for path in [
        "/api/acme/profiles/shared/config.json",
        "/admin/config/acme/profiles/shared.json",
    ] {
        let answer = server
            .post(
                path,
                &cfg,
                &json!({"access": {"admin": {"role": {"admin": [CFG]}}}}),
            )
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}");
        let error = answer.error.unwrap_or_default();
        assert!(
            error.contains("/access/admin/role/admin of profile acme/shared")
                && error.contains("acme/news uses it"),
            "{error}"
        );
    }
    // A part of the default profile, which `web` and `other` use.
    let answer = server
        .post(
            "/api/acme/profiles/default/config/access/admin/defaultRole.json",
            &cfg,
            &json!(["admin"]),
        )
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{:?}", answer.error);
    // The org's group that administers `blog`, given the config_admin.
    let groups =
        json!({"org-owners": {"members": [{"email": "boss@acme.example"}, {"email": CFG}]}});
    let answer = server
        .post("/api/acme/config/groups.json", &cfg, &groups)
        .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{:?}", answer.error);
    assert!(
        answer
            .error
            .unwrap_or_default()
            .starts_with("/groups/org-owners/members of the org acme: acme/blog uses it"),
    );
    // An org key of a config_admin's roles, minted by the config_admin (allowed), sets a
    // site's default role to admin: refused, as its own holder would be.
    let minted = server
        .post(
            "/api/acme/config/apiKeys.json",
            &cfg,
            &json!({"description": "CI", "roles": ["config_admin"]}),
        )
        .await;
    assert_eq!(minted.status, StatusCode::CREATED, "{:?}", minted.error);
    let key = minted.body["value"].as_str().expect("a key").to_string();
    for site in ["web", "other"] {
        let answer = server
            .post(
                &site_paths(site, "access/admin/defaultRole")[0],
                &key,
                &json!(["admin"]),
            )
            .await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "{site}: {:?}",
            answer.error
        );
    }
    // What the config_admin may: a profile no site's admins change by.
    let answer = server
        .post(
            "/api/acme/profiles/shared/config.json",
            &cfg,
            &json!({"title": "Shared", "access": {"admin": {"role": {"author": ["a@acme.example"]}}}}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    // An org administrator may all of it.
    let answer = server
        .post("/api/acme/config/groups.json", &root, &groups)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    assert!(powers(&server, &root, "blog").await.is_admin(CFG));
}

/// One rule for who holds a role: an entry names the site's group (its own, its
/// profile's), else the org's; whoever holds `admin` so may all an admin may.
#[tokio::test]
async fn admins_through_groups_may_all_an_admin_may() {
    let (server, root) = fleet().await;
    for (site, member) in [("web", "own@acme.example"), ("blog", "boss@acme.example")] {
        let token = server.token(member);
        let keys = format!("/api/acme/sites/{site}/config/apiKeys.json");
        let minted = server
            .post(
                &keys,
                &token,
                &json!({"description": "ops", "roles": ["admin"]}),
            )
            .await;
        assert_eq!(
            minted.status,
            StatusCode::CREATED,
            "{site}: {:?}",
            minted.error
        );
        let mut access = server.get(&site_paths(site, "access")[0], &root).await.body;
        access["admin"]["role"]["admin"]
            .as_array_mut()
            .expect("admins")
            .push(json!("new@acme.example"));
        let answer = server
            .post(&site_paths(site, "access")[0], &token, &access)
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{site}: {:?}", answer.error);
        let stranger = server.token("stranger@acme.example");
        let refused = server.delete(&site_paths(site, "")[0], &stranger).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        let deleted = server.delete(&site_paths(site, "")[0], &token).await;
        assert_eq!(
            deleted.status,
            StatusCode::NO_CONTENT,
            "{site}: {:?}",
            deleted.error
        );
    }
}

/// One write a `config_admin` may try.
#[derive(Debug, Clone)]
enum Write {
    Part {
        site: &'static str,
        part: &'static str,
        body: Option<Value>,
    },
    Profile {
        name: &'static str,
        body: Value,
    },
    OrgGroups(Value),
    MintOrgKey(&'static [&'static str]),
    MintSiteKey(&'static str, &'static [&'static str]),
}

const SITES: [&str; 3] = ["web", "blog", "other"];
const PEOPLE: [&str; 4] = [TECH, CFG, "*", "*@acme.example"];

fn pick<T: Clone>(rng: &mut fastrand::Rng, items: &[T]) -> T {
    items[rng.usize(..items.len())].clone()
}

fn random_write(rng: &mut fastrand::Rng) -> Write {
    let person = pick(rng, &PEOPLE);
    let holders = json!([pick(rng, &PEOPLE), person]);
    let role = pick(
        rng,
        &["admin", "ops", "config_admin", "author", "basic_author"],
    );
    match rng.u8(..8) {
        0 => Write::Part {
            site: pick(rng, &SITES),
            part: pick(
                rng,
                &[
                    "access/admin/defaultRole",
                    "access/admin/role/admin",
                    "access/admin/role/ops",
                    "access/admin/requireAuth",
                    "access/preview",
                    "access/admin",
                    "access",
                    "groups/owners",
                    "groups/org-owners",
                    "extends",
                ],
            ),
            body: None,
        },
        1 => Write::Part {
            site: pick(rng, &SITES),
            part: "access/admin/defaultRole",
            body: Some(json!([role])),
        },
        2 => Write::Part {
            site: pick(rng, &SITES),
            part: pick(rng, &["groups/owners", "groups/org-owners"]),
            body: Some(json!({"members": [{"email": person}]})),
        },
        3 => Write::Part {
            site: pick(rng, &SITES),
            part: pick(rng, &["access/admin/role/admin", "access/admin/role/ops"]),
            body: Some(holders),
        },
        4 => Write::Part {
            site: pick(rng, &SITES),
            part: "extends",
            body: Some(json!({"profile": pick(rng, &["open", "shared", "default", "none"])})),
        },
        5 => Write::Profile {
            name: pick(rng, &["default", "shared", "open"]),
            body: json!({"access": {"admin": {"role": {role: holders}, "requireAuth": pick(rng, &["auto", "false"])}}}),
        },
        6 => Write::OrgGroups(
            json!({pick(rng, &["org-owners", "owners"]): {"members": [{"email": person}]}}),
        ),
        _ => match rng.bool() {
            true => Write::MintOrgKey(pick(
                rng,
                &[&["config_admin"][..], &["admin"], &["publish"]],
            )),
            false => Write::MintSiteKey(
                pick(rng, &SITES),
                pick(rng, &[&["config_admin"][..], &["admin"]]),
            ),
        },
    }
}

/// Random sequences of writes by the config_admins (a site's, the org's, and every key
/// they manage to mint), each write by one of them: afterwards no site has another admin
/// or lost one, no protected site is open, and none of them may delete a site.
#[tokio::test]
async fn random_writes_by_config_admins_never_widen_admin() {
    let seed = std::env::var("SITEOPS_PROPERTY_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    for case in 0..24 {
        let (server, root) = fleet().await;
        let mut callers = vec![server.token(TECH), server.token(CFG)];
        let mut before = Vec::new();
        for site in SITES {
            before.push(powers(&server, &root, site).await);
        }
        let writes: Vec<Write> = (0..rng.usize(4..12))
            .map(|_| random_write(&mut rng))
            .collect();
        let mut done = Vec::new();
        for write in &writes {
            let caller = pick(&mut rng, &callers);
            let (method, path, body) = match write {
                Write::Part { site, part, body } => {
                    let method = if body.is_some() {
                        Method::POST
                    } else {
                        Method::DELETE
                    };
                    let path = pick(&mut rng, &site_paths(site, part));
                    (method, path, body.clone())
                }
                Write::Profile { name, body } => (
                    Method::POST,
                    format!("/api/acme/profiles/{name}/config.json"),
                    Some(body.clone()),
                ),
                Write::OrgGroups(groups) => (
                    Method::POST,
                    "/api/acme/config/groups.json".to_string(),
                    Some(groups.clone()),
                ),
                Write::MintOrgKey(roles) => (
                    Method::POST,
                    "/api/acme/config/apiKeys.json".to_string(),
                    Some(json!({"description": "k", "roles": roles})),
                ),
                Write::MintSiteKey(site, roles) => (
                    Method::POST,
                    format!("/api/acme/sites/{site}/config/apiKeys.json"),
                    Some(json!({"description": "k", "roles": roles})),
                ),
            };
            let answer = server
                .send(method, &path, Some(&caller), body.as_ref().map(bytes))
                .await;
            assert!(
                !answer.status.is_server_error(),
                "seed {seed}, case {case}: {write:?}: {:?}",
                answer.error
            );
            if let Some(key) = answer.body.get("value").and_then(Value::as_str) {
                callers.push(key.to_string());
            }
            done.push(format!("{write:?} -> {}", answer.status));
        }
        for (site, before) in SITES.iter().zip(&before) {
            let after = powers(&server, &root, site).await;
            assert_eq!(
                before.admins().collect::<Vec<_>>(),
                after.admins().collect::<Vec<_>>(),
                "seed {seed}, case {case}: the admins of {site} changed after {done:#?}"
            );
            assert_eq!(
                before.is_protected(),
                after.is_protected(),
                "seed {seed}, case {case}: {site}'s protection after {done:#?}"
            );
            for caller in &callers {
                let delete = server.delete(&site_paths(site, "")[0], caller).await;
                assert!(
                    delete.status.is_client_error(),
                    "seed {seed}, case {case}: a config_admin deleted {site} after {done:#?}"
                );
            }
        }
    }
}
