//! A revoked API key stays revoked (issue 43, finding 3): key records are the service's,
//! so a whole-document write that sends a revoked key's record back (a site's document
//! by its `config_admin`, the org's document by its admin; both path families) is refused
//! naming `/apiKeys/<id>`, and the key still answers 401. A record sent back as answered
//! (GET then POST of the document) passes.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

const CONFIG_ADMIN: &str = "cfg@acme.example";

fn site_body() -> Value {
    json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
        "access": {"admin": {"role": {"config_admin": [CONFIG_ADMIN]}}},
    })
}

/// Mints a key at `keys` as `token` with `roles`: its id and its token.
async fn mint(server: &TestServer, keys: &str, token: &str, roles: &[&str]) -> (String, String) {
    let minted = server
        .post(keys, token, &json!({"description": "CI", "roles": roles}))
        .await;
    assert_eq!(minted.status, StatusCode::CREATED, "{:?}", minted.error);
    let id = minted.body["id"].as_str().expect("an id").to_string();
    let value = minted.body["value"].as_str().expect("the token, once");
    (id, value.to_string())
}

/// Writes `document` back at `path` as `token` after its key `id` was revoked: refused,
/// naming the record; then checks the key still reads 401 and that the document as it is
/// now round-trips (GET then POST passes).
async fn written_back_stays_revoked(
    server: &TestServer,
    path: &str,
    token: &str,
    document: &Value,
    id: &str,
    key: &str,
) {
    let written = server.post(path, token, document).await;
    assert_eq!(
        written.status,
        StatusCode::CONFLICT,
        "{path}: {:?}",
        written.error
    );
    let error = written.error.unwrap_or_default();
    assert!(error.contains(&format!("/apiKeys/{id}")), "{error}");
    let read = server.get("/api/acme/sites/web/config.json", key).await;
    assert_eq!(read.status, StatusCode::UNAUTHORIZED, "{path}");
    let now = server.get(path, token).await;
    assert_eq!(now.status, StatusCode::OK, "{:?}", now.error);
    assert!(now.body["apiKeys"].get(id).is_none(), "{}", now.body);
    let again = server.post(path, token, &now.body).await;
    assert_eq!(again.status, StatusCode::OK, "{path}: {:?}", again.error);
    let read = server.get("/api/acme/sites/web/config.json", key).await;
    assert_eq!(read.status, StatusCode::UNAUTHORIZED, "{path}");
}

#[tokio::test]
async fn a_sites_config_admin_cannot_bring_back_a_revoked_key() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let config_admin = server.token(CONFIG_ADMIN);
    let created = server
        .put("/api/acme/sites/web/config.json", &root, &site_body())
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    for path in [
        "/admin/config/acme/sites/web.json",
        "/api/acme/sites/web/config.json",
    ] {
        let keys = "/api/acme/sites/web/config/apiKeys.json";
        let (id, key) = mint(&server, keys, &root, &["config_admin"]).await;
        let read = server.get("/api/acme/sites/web/config.json", &key).await;
        assert_eq!(read.status, StatusCode::OK, "{:?}", read.error);
        let with_record = server.get(path, &config_admin).await;
        assert_eq!(
            with_record.status,
            StatusCode::OK,
            "{:?}",
            with_record.error
        );
        assert!(with_record.body["apiKeys"].get(&id).is_some());
        // The round trip of the document with the live record passes.
        let same = server.post(path, &config_admin, &with_record.body).await;
        assert_eq!(same.status, StatusCode::OK, "{:?}", same.error);

        let record = format!("/api/acme/sites/web/config/apiKeys/{id}.json");
        let revoked = server.delete(&record, &root).await;
        assert_eq!(
            revoked.status,
            StatusCode::NO_CONTENT,
            "{:?}",
            revoked.error
        );
        written_back_stays_revoked(&server, path, &config_admin, &with_record.body, &id, &key)
            .await;
        // An invented record is no key either.
        let mut invented = server.get(path, &config_admin).await.body;
        let mut made_up = with_record.body["apiKeys"][&id].clone();
        made_up["id"] = json!("made-up");
        made_up["roles"] = json!(["admin"]);
        invented["apiKeys"] = json!({ "made-up": made_up });
        let refused = server.post(path, &config_admin, &invented).await;
        assert_eq!(refused.status, StatusCode::CONFLICT, "{:?}", refused.error);
    }
}

#[tokio::test]
async fn the_orgs_admin_cannot_bring_back_a_revoked_org_key() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let created = server.put("/api/acme/config.json", &root, &json!({})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let site = server
        .put("/api/acme/sites/web/config.json", &root, &site_body())
        .await;
    assert_eq!(site.status, StatusCode::CREATED, "{:?}", site.error);
    for (path, keys) in [
        ("/admin/config/acme.json", "/admin/config/acme/apiKeys.json"),
        ("/api/acme/config.json", "/api/acme/config/apiKeys.json"),
    ] {
        let (id, key) = mint(&server, keys, &root, &["config_admin"]).await;
        let read = server.get("/api/acme/sites/web/config.json", &key).await;
        assert_eq!(read.status, StatusCode::OK, "{:?}", read.error);
        let with_record = server.get(path, &root).await;
        assert_eq!(
            with_record.status,
            StatusCode::OK,
            "{:?}",
            with_record.error
        );
        assert!(
            with_record.body["apiKeys"].get(&id).is_some(),
            "{}",
            with_record.body
        );

        let record = keys.replace("apiKeys.json", &format!("apiKeys/{id}.json"));
        let revoked = server.delete(&record, &root).await;
        assert_eq!(
            revoked.status,
            StatusCode::NO_CONTENT,
            "{:?}",
            revoked.error
        );
        written_back_stays_revoked(&server, path, &root, &with_record.body, &id, &key).await;
    }
}
