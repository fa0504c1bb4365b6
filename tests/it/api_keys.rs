//! API keys of the org and of its profiles over real HTTP, in both path families: minted
//! (`POST …/apiKeys.json {description, roles}`, the token answered once), listed and
//! shown (records the platform's `apikeys` schema takes), revoked by deleting the record;
//! what each key is good for (the org's: every site of the org; a profile's: every site
//! that extends it; never another org's) and who may mint one. A site's own keys:
//! `admin_api.rs`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::{Answer, ORG_ADMIN, TestServer};

fn site_body(extends: Option<&str>) -> Value {
    let mut body = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
    });
    if let Some(profile) = extends {
        body["extends"] = json!({"profile": profile});
    }
    body
}

/// Creates `org/site` (over `extends`), as the org administrator.
async fn site(server: &TestServer, org: &str, site: &str, extends: Option<&str>) {
    let path = format!("/api/{org}/sites/{site}/config.json");
    let created = server
        .put(&path, &server.token(ORG_ADMIN), &site_body(extends))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
}

/// Creates a document (the org's, a profile) with `body`, as the org administrator.
async fn document(server: &TestServer, path: &str, body: Value) {
    let created = server.put(path, &server.token(ORG_ADMIN), &body).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
}

/// Mints a key at `keys` (an `apiKeys.json`) as `token`: its id and its token.
async fn mint(server: &TestServer, keys: &str, token: &str, roles: &[&str]) -> (String, String) {
    let minted = server
        .post(keys, token, &json!({"description": "CI", "roles": roles}))
        .await;
    assert_eq!(minted.status, StatusCode::CREATED, "{:?}", minted.error);
    let id = minted.body["id"].as_str().expect("an id").to_string();
    let value = minted.body["value"].as_str().expect("the token, once");
    assert_eq!(minted.body["roles"], json!(roles));
    assert_eq!(minted.body["description"], "CI");
    (id, value.to_string())
}

/// The status `token` gets reading `org/site`'s document.
async fn reads_site(server: &TestServer, token: &str, org: &str, site: &str) -> StatusCode {
    let path = format!("/api/{org}/sites/{site}/config.json");
    server.get(&path, token).await.status
}

/// The listing `apiKeys.json` answers: the platform's `apikeys` schema takes it (checked
/// when `../shared` is there).
fn check_listing(listed: &Answer) {
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.error);
    let Some(path) =
        siteops_testkit::shared("reference/platform/schemas-1.73.0/apikeys.schema.json")
    else {
        return;
    };
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON");
    let validator = jsonschema::draft201909::new(&schema).expect("the schema compiles");
    let problems: Vec<String> = validator
        .iter_errors(&listed.body)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(problems.is_empty(), "{problems:?}: {}", listed.body);
}

#[tokio::test]
async fn an_orgs_key_acts_on_every_site_of_the_org_until_its_record_goes() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    document(&server, "/api/acme/config.json", json!({})).await;
    document(&server, "/api/globex/config.json", json!({})).await;
    site(&server, "acme", "web", None).await;
    site(&server, "acme", "blog", None).await;
    site(&server, "globex", "web", None).await;

    for (keys, record_of) in [
        (
            "/admin/config/acme/apiKeys.json",
            "/api/acme/config/apiKeys",
        ),
        (
            "/api/acme/config/apiKeys.json",
            "/admin/config/acme/apiKeys",
        ),
    ] {
        let (id, token) = mint(&server, keys, &root, &["config_admin"]).await;

        // Every site of the org, with the key's roles; never another org's.
        assert_eq!(
            reads_site(&server, &token, "acme", "web").await,
            StatusCode::OK
        );
        assert_eq!(
            reads_site(&server, &token, "acme", "blog").await,
            StatusCode::OK
        );
        let robots = json!({"txt": "User-agent: *"});
        let written = server
            .post("/api/acme/sites/blog/config/robots.json", &token, &robots)
            .await;
        assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
        assert_eq!(
            reads_site(&server, &token, "globex", "web").await,
            StatusCode::FORBIDDEN
        );
        // A config_admin's roles: not who administers a site, not the org's documents,
        // not minting keys.
        let grant = json!({"admin": {"role": {"admin": ["me@x.example"]}}});
        let access = "/api/acme/sites/web/config/access.json";
        assert_eq!(
            server.post(access, &token, &grant).await.status,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            server.get("/api/acme/config.json", &token).await.status,
            StatusCode::FORBIDDEN
        );
        let again = server
            .post(keys, &token, &json!({"roles": ["config_admin"]}))
            .await;
        assert_eq!(again.status, StatusCode::FORBIDDEN);
        // The sites it may configure, listed.
        let listed = server.get("/api/acme/sites", &token).await;
        assert_eq!(
            listed.body,
            json!({"sites": [{"name": "blog"}, {"name": "web"}]})
        );

        // Recorded in the org's document, without the token; listed and shown in both
        // families.
        let org = server.get("/admin/config/acme.json", &root).await.body;
        assert_eq!(org["apiKeys"][&id]["subject"], "acme", "{org}");
        assert!(!org.to_string().contains(&token));
        let listed = server.get(keys, &root).await;
        check_listing(&listed);
        assert_eq!(listed.body[&id]["roles"], json!(["config_admin"]));
        let record = format!("{record_of}/{id}.json");
        let shown = server.get(&record, &root).await;
        assert_eq!(shown.status, StatusCode::OK, "{:?}", shown.error);
        assert_eq!(shown.body, listed.body[&id]);

        // Deleting the record revokes the key, on every site.
        assert_eq!(
            server.delete(&record, &root).await.status,
            StatusCode::NO_CONTENT
        );
        assert_eq!(
            server.get(&record, &root).await.status,
            StatusCode::NOT_FOUND
        );
        for site in ["web", "blog"] {
            assert_eq!(
                reads_site(&server, &token, "acme", site).await,
                StatusCode::UNAUTHORIZED
            );
        }
        assert_eq!(
            server.delete(&record, &root).await.status,
            StatusCode::NOT_FOUND
        );
    }
}

#[tokio::test]
async fn an_orgs_key_never_works_for_another_org_even_recorded_there() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    document(&server, "/api/acme/config.json", json!({})).await;
    site(&server, "globex", "web", None).await;
    let (id, token) = mint(&server, "/api/acme/config/apiKeys.json", &root, &["admin"]).await;
    // globex's document cannot record a key of the same id (records are the service's:
    // one globex never minted is refused), and the key stays acme's alone.
    let acme = server.get("/api/acme/config.json", &root).await.body;
    let forged = json!({"apiKeys": {&id: acme["apiKeys"][&id].clone()}});
    let written = server.post("/api/globex/config.json", &root, &forged).await;
    assert_eq!(written.status, StatusCode::CONFLICT, "{:?}", written.error);
    assert_eq!(
        reads_site(&server, &token, "globex", "web").await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server.get("/api/globex/config.json", &token).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_profiles_key_acts_on_the_sites_that_extend_the_profile() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    document(&server, "/api/acme/profiles/shared/config.json", json!({})).await;
    document(&server, "/api/acme/profiles/default/config.json", json!({})).await;
    document(
        &server,
        "/api/globex/profiles/shared/config.json",
        json!({}),
    )
    .await;
    site(&server, "acme", "web", Some("shared")).await;
    site(&server, "acme", "blog", None).await;
    site(&server, "globex", "web", Some("shared")).await;

    for (keys, record_of) in [
        (
            "/api/acme/profiles/shared/config/apiKeys.json",
            "/admin/config/acme/profiles/shared/apiKeys",
        ),
        (
            "/admin/config/acme/profiles/shared/apiKeys.json",
            "/api/acme/profiles/shared/config/apiKeys",
        ),
    ] {
        let (id, token) = mint(&server, keys, &root, &["config_admin"]).await;
        assert_eq!(
            reads_site(&server, &token, "acme", "web").await,
            StatusCode::OK
        );
        // Not a site over another profile (`default`), nor another org's site over a
        // profile of the same name.
        let blog = server.get("/api/acme/sites/blog/config.json", &token).await;
        assert_eq!(blog.status, StatusCode::FORBIDDEN);
        assert!(
            blog.error
                .as_deref()
                .unwrap_or_default()
                .contains("does not extend"),
            "{:?}",
            blog.error
        );
        assert_eq!(
            reads_site(&server, &token, "globex", "web").await,
            StatusCode::FORBIDDEN
        );
        // Nor the profile itself, nor the org's documents.
        assert_eq!(
            server
                .get("/api/acme/profiles/shared/config.json", &token)
                .await
                .status,
            StatusCode::FORBIDDEN
        );
        let listed = server.get("/api/acme/sites", &token).await;
        assert_eq!(listed.body, json!({"sites": [{"name": "web"}]}));

        // Recorded in the profile, which sites over it do not take.
        let profile = server
            .get("/admin/config/acme/profiles/shared.json", &root)
            .await
            .body;
        assert_eq!(
            profile["apiKeys"][&id]["subject"], "acme/profiles/shared",
            "{profile}"
        );
        let aggregated = server
            .get("/api/acme/aggregated/web/config.json", &root)
            .await
            .body;
        assert!(aggregated.get("apiKeys").is_none(), "{aggregated}");
        let listed = server.get(keys, &root).await;
        check_listing(&listed);
        let record = format!("{record_of}/{id}.json");
        assert_eq!(server.get(&record, &root).await.body, listed.body[&id]);

        // A site that stops extending the profile stops taking the key.
        let own = json!({"profile": "default"});
        let moved = server
            .post("/api/acme/sites/web/config/extends.json", &root, &own)
            .await;
        assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.error);
        assert_eq!(
            reads_site(&server, &token, "acme", "web").await,
            StatusCode::FORBIDDEN
        );
        let back = json!({"profile": "shared"});
        let moved = server
            .post("/api/acme/sites/web/config/extends.json", &root, &back)
            .await;
        assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.error);
        assert_eq!(
            reads_site(&server, &token, "acme", "web").await,
            StatusCode::OK
        );

        // Deleting the record revokes the key.
        assert_eq!(
            server.delete(&record, &root).await.status,
            StatusCode::NO_CONTENT
        );
        assert_eq!(
            reads_site(&server, &token, "acme", "web").await,
            StatusCode::UNAUTHORIZED
        );
    }

    // The profile's document, written whole as read, keeps validating and keeps its keys.
    let (id, _) = mint(
        &server,
        "/api/acme/profiles/shared/config/apiKeys.json",
        &root,
        &["publish"],
    )
    .await;
    // (The newer family answers a profile without `apiKeys`, as the platform's profile
    // schema has none; the older family shows them.)
    let path = "/api/acme/profiles/shared/config.json";
    let older = "/admin/config/acme/profiles/shared.json";
    let read = server.get(older, &root).await.body;
    let written = server.post(path, &root, &json!({"title": "Shared"})).await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    assert!(written.body.get("apiKeys").is_none(), "{}", written.body);
    let kept = server.get(older, &root).await.body;
    assert_eq!(kept["apiKeys"], read["apiKeys"]);
    assert!(kept["apiKeys"][&id].is_object());
}

#[tokio::test]
async fn who_may_mint_the_orgs_and_a_profiles_keys() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let users = json!({"users": [
        {"id": "cfg", "email": "cfg@acme.example", "roles": ["config_admin"]},
        {"id": "boss", "email": "boss@acme.example", "roles": ["admin"]},
    ]});
    document(&server, "/api/acme/config.json", users).await;
    document(&server, "/api/acme/profiles/shared/config.json", json!({})).await;
    let config_admin = server.token("cfg@acme.example");
    let boss = server.token("boss@acme.example");
    let stranger = server.token("someone@acme.example");
    let other_org = server.token_with("cfg@acme.example", "globex/*", 3600);

    for keys in [
        "/api/acme/config/apiKeys.json",
        "/admin/config/acme/profiles/shared/apiKeys.json",
    ] {
        let body = json!({"roles": ["config_admin"]});
        assert_eq!(
            server.post(keys, "", &body).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(server.get(keys, "").await.status, StatusCode::UNAUTHORIZED);
        for refused in [&stranger, &other_org] {
            assert_eq!(
                server.post(keys, refused, &body).await.status,
                StatusCode::FORBIDDEN
            );
            assert_eq!(
                server.get(keys, refused).await.status,
                StatusCode::FORBIDDEN
            );
        }
        // A config_admin mints keys that configure, not ones that administer.
        mint(&server, keys, &config_admin, &["config_admin", "publish"]).await;
        let admin = server
            .post(keys, &config_admin, &json!({"roles": ["admin"]}))
            .await;
        assert_eq!(admin.status, StatusCode::FORBIDDEN);
        assert!(
            admin
                .error
                .as_deref()
                .unwrap_or_default()
                .starts_with("/roles"),
            "{:?}",
            admin.error
        );
        mint(&server, keys, &boss, &["admin"]).await;

        // Bad bodies, methods and records.
        for bad in [json!({"roles": []}), json!({"roles": ["Admin"]}), json!({})] {
            let answer = server.post(keys, &root, &bad).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        }
        let put = server.put(keys, &root, &json!({"roles": ["admin"]})).await;
        assert_eq!(put.status, StatusCode::METHOD_NOT_ALLOWED);
        let missing = keys.replace("apiKeys.json", "apiKeys/nope.json");
        let no_body = server
            .send(reqwest::Method::POST, &missing, Some(&root), None)
            .await;
        assert_eq!(no_body.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(
            server.get(&missing, &root).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            server.delete(&missing, &root).await.status,
            StatusCode::NOT_FOUND
        );
    }
    // Without the document, nothing to record a key in.
    let absent = server
        .post(
            "/api/acme/profiles/none/config/apiKeys.json",
            &root,
            &json!({"roles": ["admin"]}),
        )
        .await;
    assert_eq!(absent.status, StatusCode::NOT_FOUND);
}
