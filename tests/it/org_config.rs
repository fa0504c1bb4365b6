//! The org's own documents over real HTTP, in both path families: the org document and
//! its profiles (written, read, listed, deleted as site documents are), a site over its
//! profile (`aggregated`, and what the service does with it: who may, what the preview
//! host lets in), the org's groups and secrets named from a site, and stores written by
//! older siteops.

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::preview::Limits;
use wiremock::matchers::any;
use wiremock::{Mock, MockServer};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::preview::{PAGE, SITE_ADMIN, guarded_status, html, preview, site_with};

const PROFILE: &str = "/admin/config/acme/profiles/default.json";
const NEWER_PROFILE: &str = "/api/acme/profiles/default/config.json";

fn site_body() -> Value {
    json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
    })
}

#[tokio::test]
async fn profiles_and_the_org_document_are_documents_in_both_families() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let profile = json!({"headers": {"/**": [{"key": "x-frame-options", "value": "SAMEORIGIN"}]},
        "sidekick": {"project": "Acme"}});

    // PUT creates (an empty 201), again is 409; POST replaces; both families, one document.
    let created = server.put(NEWER_PROFILE, &root, &profile).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    assert_eq!(created.body, Value::Null);
    let again = server.put(PROFILE, &root, &profile).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.code.as_deref(), Some("AEM_BACKEND_CONFIG_EXISTS"));
    let older = server.get(PROFILE, &root).await;
    let newer = server.get(NEWER_PROFILE, &root).await;
    assert_eq!(older.status, StatusCode::OK);
    assert_eq!(older.body, newer.body, "one document, two paths");
    assert_eq!(older.body["version"], 1);
    assert_eq!(older.body["sidekick"], json!({"project": "Acme"}));
    for stamped in ["created", "lastModified"] {
        assert!(older.body[stamped].is_string(), "{stamped}: {}", older.body);
    }

    // A part is part of the document, re-validated whole.
    let part = "/api/acme/profiles/default/config/sidekick.json";
    let written = server
        .post(part, &root, &json!({"project": "Acme sites"}))
        .await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    assert_eq!(
        server.get(PROFILE, &root).await.body["sidekick"]["project"],
        "Acme sites"
    );
    let invalid = server.post(part, &root, &json!({"projekt": 1})).await;
    assert_eq!(invalid.status, StatusCode::BAD_REQUEST);
    assert!(
        invalid
            .error
            .as_deref()
            .unwrap_or_default()
            .contains("projekt"),
        "{:?}",
        invalid.error
    );
    let bad_body = server
        .post(PROFILE, &root, &json!({"version": 1, "name": "x"}))
        .await;
    assert_eq!(
        bad_body.status,
        StatusCode::BAD_REQUEST,
        "a profile has no name"
    );

    // Listings: the newer family the platform's shape, the older with paths.
    let newer_list = server.get("/api/acme/profiles", &root).await;
    assert_eq!(newer_list.body, json!({"profiles": [{"name": "default"}]}));
    let older_list = server.get("/admin/config/acme/profiles.json", &root).await;
    assert_eq!(
        older_list.body,
        json!({"profiles": [{"name": "default", "path": "/acme/profiles/default/config.json"}]})
    );

    // The org document, and its secrets: a value the service makes is answered once.
    let org = server
        .post("/admin/config/acme.json", &root, &json!({"title": "Acme"}))
        .await;
    assert_eq!(org.status, StatusCode::OK, "{:?}", org.error);
    assert_eq!(
        server.get("/api/acme/config.json", &root).await.body["title"],
        "Acme"
    );
    let made = server
        .post("/api/acme/config/secrets.json", &root, &Value::Null)
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{:?}", made.error);
    let (id, value) = (
        made.body["id"].as_str().unwrap(),
        made.body["value"].as_str().unwrap(),
    );
    let listed = server.get("/admin/config/acme/secrets.json", &root).await;
    assert_eq!(listed.body[id]["id"], id, "{}", listed.body);
    let whole = server.get("/api/acme/config.json", &root).await;
    assert!(
        !whole.body.to_string().contains(value),
        "never readable again"
    );
    let set = server
        .post(
            "/admin/config/acme/secrets/partner.json",
            &root,
            &json!({"value": "p4rtner"}),
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.error);
    let shown = server
        .get("/api/acme/config/secrets/partner.json", &root)
        .await;
    assert_eq!(shown.body["id"], "partner");
    assert!(shown.body.get("value").is_none(), "{}", shown.body);
    assert!(
        server.data.join("config/acme/org.json").is_file(),
        "kept in the org's folder"
    );

    // Deleting: 204, then 404 in both families.
    assert_eq!(
        server.delete(NEWER_PROFILE, &root).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        server.get(PROFILE, &root).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        server.delete(PROFILE, &root).await.status,
        StatusCode::NOT_FOUND
    );
    // A name that cannot be one is a document that cannot exist.
    let odd = server
        .get("/api/acme/profiles/a.b/config.json", &root)
        .await;
    assert_eq!(odd.status, StatusCode::NOT_FOUND);
    let odd_org = server.get("/api/Acme/config.json", &root).await;
    assert_eq!(odd_org.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn who_may_write_the_orgs_documents() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let users = json!({"users": [
        {"id": "cfg", "email": "cfg@acme.example", "roles": ["config_admin"]},
        {"id": "boss", "email": "boss@acme.example", "roles": ["admin"]},
    ]});
    assert_eq!(
        server
            .post("/admin/config/acme.json", &root, &users)
            .await
            .status,
        StatusCode::OK
    );

    let config_admin = server.token("cfg@acme.example");
    let stranger = server.token("someone@acme.example");
    let profile = json!({"robots": {"txt": "User-agent: *"}});
    assert_eq!(
        server.get(PROFILE, "").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        server.post(PROFILE, &stranger, &profile).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server.get("/api/acme/profiles", &stranger).await.status,
        StatusCode::FORBIDDEN
    );
    let written = server.post(PROFILE, &config_admin, &profile).await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    // A config_admin configures, and may not raise anyone (itself included).
    let mut raised = users.clone();
    raised["users"][0]["roles"] = json!(["admin"]);
    let refused = server
        .post("/api/acme/config.json", &config_admin, &raised)
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(
        refused
            .error
            .as_deref()
            .unwrap_or_default()
            .starts_with("/users"),
        "{:?}",
        refused.error
    );
    let titled = json!({"title": "Acme", "users": users["users"]});
    assert_eq!(
        server
            .post("/api/acme/config.json", &config_admin, &titled)
            .await
            .status,
        StatusCode::OK
    );
    let boss = server.token("boss@acme.example");
    assert_eq!(
        server
            .post("/api/acme/config.json", &boss, &raised)
            .await
            .status,
        StatusCode::OK
    );
    // Another org's documents are not theirs.
    assert_eq!(
        server
            .get("/api/globex/profiles", &config_admin)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_site_over_its_profile_is_what_the_service_acts_on() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    // The profile makes web@acme.example admin of the sites that take it, and sets
    // headers; the site overrides one key of the sidekick.
    let profile = json!({
        "access": {"admin": {"role": {"admin": ["web@acme.example"]}}},
        "sidekick": {"project": "P", "host": "p.example"},
        "headers": {"/**": [{"key": "a", "value": "1"}]},
        "secrets": {"profile-only": {"id": "profile-only", "type": "key", "value": "v", "created": "2026-01-01T00:00:00Z", "lastModified": "2026-01-01T00:00:00Z"}},
    });
    let shared = "/admin/config/acme/profiles/shared.json";
    assert_eq!(
        server.post(shared, &root, &profile).await.status,
        StatusCode::OK
    );
    let mut body = site_body();
    body["extends"] = json!({"profile": "shared"});
    body["sidekick"] = json!({"project": "S"});
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &body)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);

    let aggregated = server
        .get("/api/acme/aggregated/web/config.json", &root)
        .await;
    assert_eq!(aggregated.status, StatusCode::OK, "{:?}", aggregated.error);
    assert_eq!(
        aggregated.body["sidekick"],
        json!({"project": "S", "host": "p.example"})
    );
    assert_eq!(aggregated.body["headers"]["/**"][0]["key"], "a");
    assert_eq!(
        aggregated.body["access"]["admin"]["role"]["admin"],
        json!(["web@acme.example"])
    );
    assert!(
        aggregated.body.get("secrets").is_none(),
        "the profile's secrets are its own"
    );
    let older = server
        .get("/admin/config/acme/aggregated/web.json", &root)
        .await;
    assert_eq!(older.body, aggregated.body);
    let part = server
        .get(
            "/admin/config/acme/aggregated/web/sidekick/host.json",
            &root,
        )
        .await;
    assert_eq!(part.body, json!("p.example"));
    let own = server.get("/admin/config/acme/sites/web.json", &root).await;
    assert!(
        own.body.get("headers").is_none(),
        "the site's own document is unchanged"
    );
    assert_eq!(
        server
            .post("/api/acme/aggregated/web/config.json", &root, &body)
            .await
            .status,
        StatusCode::METHOD_NOT_ALLOWED
    );

    // The profile's admin role holds on the site: configuration, aggregated.
    let admin = server.token("web@acme.example");
    assert_eq!(
        server
            .get("/api/acme/sites/web/config.json", &admin)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        server
            .get("/api/acme/aggregated/web/config.json", &admin)
            .await
            .status,
        StatusCode::OK
    );
    let stranger = server.token("x@acme.example");
    assert_eq!(
        server
            .get("/api/acme/aggregated/web/config.json", &stranger)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // Without `extends`, the profile `default` when it exists.
    let default = json!({"robots": {"txt": "from default"}});
    assert_eq!(
        server.post(PROFILE, &root, &default).await.status,
        StatusCode::OK
    );
    let plain = "/admin/config/acme/sites/plain.json";
    assert_eq!(
        server.put(plain, &root, &site_body()).await.status,
        StatusCode::CREATED
    );
    let plain = server
        .get("/api/acme/aggregated/plain/config.json", &root)
        .await;
    assert_eq!(plain.body["robots"]["txt"], "from default");
    let contents = server
        .get("/api/acme/aggregated/web/config.json", &root)
        .await;
    assert!(
        contents.body.get("robots").is_none(),
        "web extends `shared`, not `default`"
    );
}

#[tokio::test]
async fn a_site_may_name_the_orgs_groups_and_secrets() {
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    // As the example fleet's acme/campaigns: the org's group and the org's secret.
    let access = json!({
        "admin": {"role": {"admin": [SITE_ADMIN]}},
        "site": {"allow": ["partners"], "secretId": ["partner-preview"]},
    });
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, access, Limits::default()).await;
    let org = json!({"groups": {"partners": {"members": [{"email": "*@partner.example"}]}}});
    assert_eq!(
        server
            .post("/admin/config/acme.json", &root, &org)
            .await
            .status,
        StatusCode::OK
    );
    let secret = "/admin/config/acme/secrets/partner-preview.json";
    let set = server
        .post(secret, &root, &json!({"value": "the-partners-token"}))
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.error);
    let (answer, _) = preview(&server, &root, "/guarded", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);

    let get = |credential: Option<String>| guarded_status(&server, "/guarded", credential);
    assert_eq!(get(None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        get(Some("Bearer the-partners-token".into())).await,
        StatusCode::OK,
        "the org's secret"
    );
    assert_eq!(
        get(Some("token not-the-token".into())).await,
        StatusCode::UNAUTHORIZED
    );
    let partner = server.token("ann@partner.example");
    assert_eq!(
        get(Some(format!("token {partner}"))).await,
        StatusCode::OK,
        "the org's group"
    );
    let outsider = server.token("eve@elsewhere.example");
    assert_eq!(
        get(Some(format!("token {outsider}"))).await,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_store_of_older_siteops_reads_as_one_document_per_site() {
    let data = tempfile::tempdir().expect("temp dir");
    let root_dir = data.path().join("config/acme/sites");
    std::fs::create_dir_all(root_dir.join("web/secrets")).expect("dirs");
    let mut document = site_body();
    document["version"] = json!(1);
    // Older siteops wrote requireAuth as a string.
    document["access"] = json!({"admin": {"requireAuth": "true", "role": {"admin": [SITE_ADMIN]}}});
    std::fs::write(root_dir.join("web.json"), document.to_string()).expect("site");
    std::fs::write(
        root_dir.join("web/public.json"),
        r#"{"paths":{"mappings":["/a/:/b/"]}}"#,
    )
    .expect("public");
    std::fs::write(
        root_dir.join("web/secrets/sync.json"),
        r#"{"value":"0ld-v4lue","created":"2025-01-01T00:00:00Z","lastModified":"2025-01-02T00:00:00Z"}"#,
    )
    .expect("secret");

    let server = TestServer::start_on(data.path().to_path_buf()).await;
    let root = server.token(ORG_ADMIN);
    let site = server.get("/admin/config/acme/sites/web.json", &root).await;
    assert_eq!(site.status, StatusCode::OK, "{:?}", site.error);
    assert_eq!(site.body["access"]["admin"]["requireAuth"], json!(true));
    assert_eq!(
        site.body["public"],
        json!({"paths": {"mappings": ["/a/:/b/"]}})
    );
    assert_eq!(
        site.body["secrets"]["sync"]["created"],
        "2025-01-01T00:00:00Z"
    );
    assert!(!site.body.to_string().contains("0ld-v4lue"));
    assert!(!root_dir.join("web/public.json").exists());
    assert!(!root_dir.join("web/secrets/sync.json").exists());
    let stored = std::fs::read_to_string(root_dir.join("web.json")).expect("the document");
    assert!(stored.contains("sync"), "{stored}");
    // The secret's value is kept: the site's document opens it.
    let sites = siteops_server::sites::load(
        &*siteops_server::store::StoreLocation::Dir(data.path().to_path_buf())
            .open()
            .expect("store"),
        "acme",
        "web",
    )
    .await
    .expect("reads")
    .expect("the site");
    let value = sites.secret("sync").expect("opens").expect("kept").value;
    assert_eq!(value, "0ld-v4lue");
}

/// A secret written in the org's whole document is dated as the platform's secrets schema
/// wants, and the document sent back as answered (a `hash` in place of the value, what an
/// editor does) keeps the stored value: the hash, a digest of it, is unchanged.
#[tokio::test]
async fn the_orgs_secrets_are_dated_and_survive_a_round_trip() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let org = "/api/acme/config.json";
    let body = json!({"title": "Acme",
        "secrets": {"partner": {"id": "partner", "type": "key", "value": "v-1"}}});
    let written = server.post(org, &root, &body).await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    let first = server.get(org, &root).await.body;
    let entry = &first["secrets"]["partner"];
    for field in ["created", "lastModified", "hash"] {
        assert!(entry[field].is_string(), "{field}: {entry}");
    }
    assert!(entry.get("value").is_none(), "{entry}");
    let stored_value = || {
        let stored = std::fs::read(server.data.join("config/acme/org.json")).expect("stored");
        let stored: Value = serde_json::from_slice(&stored).expect("JSON");
        stored["secrets"]["partner"]["value"].clone()
    };
    let sealed = stored_value();
    assert!(sealed.is_string(), "{sealed}");

    let mut answered = first.clone();
    answered["title"] = json!("Acme Inc.");
    let sent_back = server.post(org, &root, &answered).await;
    assert_eq!(sent_back.status, StatusCode::OK, "{:?}", sent_back.error);
    let second = server.get(org, &root).await.body;
    assert_eq!(second["title"], "Acme Inc.");
    assert_eq!(second["secrets"]["partner"], first["secrets"]["partner"]);
    assert_eq!(stored_value(), sealed, "the stored (sealed) value stays");

    let rotated = json!({"title": "Acme Inc.",
        "secrets": {"partner": {"id": "partner", "type": "key", "value": "v-2"}}});
    assert_eq!(
        server.post(org, &root, &rotated).await.status,
        StatusCode::OK
    );
    let third = server.get(org, &root).await.body["secrets"]["partner"].clone();
    assert_ne!(
        third["hash"], first["secrets"]["partner"]["hash"],
        "a new value"
    );
    assert_eq!(third["created"], first["secrets"]["partner"]["created"]);
}
