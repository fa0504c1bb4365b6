//! A site document in the platform's shape (as the platform answers one: a stamped
//! `contentBusId`, a CDN block, headers, `public`, a secret, roles beyond `admin` with
//! `view` and a user list, site authentication, `extends`, `editor`) written to either
//! path family reads back as the platform would answer it, from both, and its sub-paths
//! read and write as parts of it.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

/// A site document as the platform keeps it, `name` its site.
fn exported(name: &str) -> Value {
    json!({
        "version": 1,
        "name": name,
        "title": "Acme web",
        "description": "The main site",
        "content": {
            "contentBusId": "h7c0ffee0123456789abcdef0123456789abcdef0123456789abcdef0123",
            "source": {"type": "markup", "url": format!("https://content.acme.example/{name}")},
        },
        "code": {
            "owner": "acme",
            "repo": "web",
            "source": {"type": "github", "url": "https://github.com/acme/web"},
        },
        "cdn": {
            "prod": {"type": "fastly", "host": "www.acme.example", "serviceId": "svc-1", "authToken": "purge-token"},
            "live": {"host": "live.acme.example"},
        },
        "headers": {"/**": [{"key": "x-frame-options", "value": "SAMEORIGIN"}]},
        "public": {"theme": {"colour": "teal"}},
        "secrets": {
            "partner": {"id": "partner", "type": "hashed", "value": "s3cret-v4lue", "description": "for the partner preview"},
        },
        "access": {
            "admin": {
                "role": {
                    "admin": ["web@acme.example"],
                    "author": ["*@acme.example", "/drafts/authors.json"],
                    "publish": ["lead@acme.example"],
                    "view": ["reviewer@agency.example"],
                    "develop": ["dev@acme.example"],
                    "config_admin": ["tech@techacct.example"],
                },
                "defaultRole": ["basic_author"],
                "requireAuth": "auto",
            },
            "site": {"allow": ["*@acme.example"], "secretId": ["partner"]},
        },
        "extends": {"profile": "default"},
        "editor": {"universal-editor": {"enabled": true, "canvas": "https://canvas.acme.example"}},
    })
}

/// What the platform answers for `sent`: dates stamped (checked, then left out), a secret
/// by its hash and never its value (checked, then left out), the rest as sent.
fn as_answered(mut answer: Value, sent: &Value) -> Value {
    for field in ["created", "lastModified"] {
        let date = answer.as_object_mut().and_then(|a| a.remove(field));
        assert!(
            date.as_ref()
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains('T')),
            "`{field}` stamped: {date:?}"
        );
    }
    let secret = &mut answer["secrets"]["partner"];
    assert!(
        secret.get("value").is_none(),
        "a secret's value is never answered"
    );
    assert!(
        secret["hash"].is_string(),
        "a secret is answered by its hash: {secret}"
    );
    for field in ["hash", "created", "lastModified"] {
        secret.as_object_mut().expect("an entry").remove(field);
    }
    let mut expected = sent.clone();
    expected["secrets"]["partner"]
        .as_object_mut()
        .expect("an entry")
        .remove("value");
    assert_eq!(answer, expected);
    answer
}

/// The paths of site `name` in each family: (older document, newer document, older part
/// prefix, newer part prefix).
fn paths(name: &str) -> [String; 4] {
    [
        format!("/admin/config/acme/sites/{name}.json"),
        format!("/api/acme/sites/{name}/config.json"),
        format!("/admin/config/acme/sites/{name}/"),
        format!("/api/acme/sites/{name}/config/"),
    ]
}

#[tokio::test]
async fn a_document_in_the_platforms_shape_reads_back_as_the_platform_answers_it() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let site_schema = crate::platform_schemas::platform("site");
    if site_schema.is_none() {
        eprintln!(
            "skipped: the answers against the platform's site schema: ../shared is not beside the repository"
        );
    }
    // One site written through each family.
    for (name, via_newer) in [("web", true), ("shop", false)] {
        let [older, newer, ..] = paths(name);
        let sent = exported(name);
        let written = server
            .post(if via_newer { &newer } else { &older }, &root, &sent)
            .await;
        assert_eq!(
            written.status,
            StatusCode::OK,
            "{name}: {:?}",
            written.error
        );
        for path in [&older, &newer] {
            let read = server.get(path, &root).await;
            assert_eq!(read.status, StatusCode::OK, "{path}: {:?}", read.error);
            if let Some(schema) = &site_schema {
                let problems: Vec<String> = schema
                    .iter_errors(&read.body)
                    .map(|e| format!("{} at {}", e, e.instance_path()))
                    .collect();
                assert!(problems.is_empty(), "{path}: {problems:#?}");
            }
            as_answered(read.body, &sent);
        }
    }

    // Sub-paths, nested too, read and write as parts of the one document, on both families.
    for (name, [_, newer, older_part, newer_part]) in
        [("web", paths("web")), ("shop", paths("shop"))]
    {
        for prefix in [&older_part, &newer_part] {
            let prod = server.get(&format!("{prefix}cdn/prod.json"), &root).await;
            assert_eq!(
                prod.body,
                exported(name)["cdn"]["prod"],
                "{prefix}cdn/prod.json"
            );
            let site_access = server
                .get(&format!("{prefix}access/site.json"), &root)
                .await;
            assert_eq!(
                site_access.body,
                exported(name)["access"]["site"],
                "{prefix}access/site.json"
            );
        }
        let headers = json!({"/**": [{"key": "x-frame-options", "value": "DENY"}], "/assets/**": [{"key": "cache-control", "value": "max-age=3600"}]});
        let written = server
            .post(&format!("{newer_part}headers.json"), &root, &headers)
            .await;
        assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
        let live = json!({"host": "live2.acme.example"});
        let written = server
            .post(&format!("{older_part}cdn/live.json"), &root, &live)
            .await;
        assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);

        let mut expected = exported(name);
        expected["headers"] = headers;
        expected["cdn"]["live"] = live;
        let read = server.get(&newer, &root).await;
        as_answered(read.body, &expected);
    }
}

#[tokio::test]
async fn the_service_stamps_a_content_bus_and_keeps_it() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let [_, newer, _, newer_part] = paths("web");
    let mut sent = exported("web");
    sent["content"]
        .as_object_mut()
        .expect("content")
        .remove("contentBusId");
    assert_eq!(
        server.put(&newer, &root, &sent).await.status,
        StatusCode::CREATED
    );
    let stamped = server.get(&newer, &root).await.body["content"]["contentBusId"].clone();
    let id = stamped.as_str().expect("a content bus is stamped");
    assert!(
        id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );

    // A write without one keeps the site's; one written with it keeps that.
    let content =
        json!({"source": {"type": "markup", "url": "https://elsewhere.acme.example/web"}});
    let written = server
        .post(&format!("{newer_part}content.json"), &root, &content)
        .await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    assert_eq!(
        server.get(&newer, &root).await.body["content"]["contentBusId"],
        stamped
    );
    assert_eq!(
        server.post(&newer, &root, &exported("web")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        server.get(&newer, &root).await.body["content"]["contentBusId"],
        exported("web")["content"]["contentBusId"]
    );
}

#[tokio::test]
async fn the_newer_family_answers_an_external_repository_as_the_platforms_github() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let [older, newer, older_part, newer_part] = paths("web");
    let mut sent = exported("web");
    sent["code"] = json!({"owner": "acme", "repo": "web", "source": {"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": "https://raw.git.acme.example/acme/web", "owner": "p1", "repo": "web", "secretId": "partner"}});
    let written = server.post(&older, &root, &sent).await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    for (path, kind) in [
        (older.clone(), "byogit"),
        (format!("{older_part}code.json"), "byogit"),
        (newer.clone(), "github"),
        (format!("{newer_part}code.json"), "github"),
    ] {
        let body = server.get(&path, &root).await.body;
        let code = body.get("code").unwrap_or(&body);
        assert_eq!(code["source"]["type"], kind, "{path}: {body}");
        assert_eq!(
            code["source"]["raw_url"], sent["code"]["source"]["raw_url"],
            "{path}"
        );
    }
    let aggregated = server
        .get("/api/acme/aggregated/web/config.json", &root)
        .await
        .body;
    assert_eq!(
        aggregated["code"]["source"]["type"], "github",
        "{aggregated}"
    );
}

#[tokio::test]
async fn the_newer_family_requires_what_the_platforms_site_schema_requires() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let [older, newer, _, newer_part] = paths("web");
    for part in ["code", "content"] {
        let mut sent = exported("web");
        sent.as_object_mut().expect("a document").remove(part);
        let refused = server.put(&newer, &root, &sent).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "without {part}");
        assert!(
            refused
                .error
                .is_some_and(|e| e.contains(&format!("`/{part}` is required")))
        );
    }
    // `null` is absence.
    let mut sent = exported("web");
    sent["code"] = Value::Null;
    assert_eq!(
        server.put(&newer, &root, &sent).await.status,
        StatusCode::BAD_REQUEST
    );
    // The older family takes a site without code (its code comes next, by `code.json`).
    let mut sent = exported("web");
    sent.as_object_mut().expect("a document").remove("code");
    assert_eq!(
        server.put(&older, &root, &sent).await.status,
        StatusCode::CREATED
    );
    // A site that has both may not lose one through a part.
    assert_eq!(
        server.post(&newer, &root, &exported("web")).await.status,
        StatusCode::OK
    );
    let refused = server
        .delete(&format!("{newer_part}code.json"), &root)
        .await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{:?}",
        refused.error
    );
    assert!(
        server.get(&newer, &root).await.body["code"].is_object(),
        "nothing changed"
    );
}

#[tokio::test]
async fn the_newer_family_takes_the_code_source_types_its_schema_has() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let [older, newer, ..] = paths("web");
    let mut sent = exported("web");
    sent["code"]["source"]["type"] = json!("gitlab");
    let refused = server.put(&newer, &root, &sent).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(
        refused
            .error
            .is_some_and(|e| e.contains("/code/source/type")),
        "names the field"
    );
    let profile = "/api/acme/profiles/shared/config.json";
    let refused = server
        .put(profile, &root, &json!({"code": sent["code"]}))
        .await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{:?}",
        refused.error
    );
    // The older family takes another hosted type (the interface's open set).
    assert_eq!(
        server.put(&older, &root, &sent).await.status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn the_newer_family_answers_a_profile_without_the_keys_its_schema_has_no_field_for() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let [newer, older] = [
        "/api/acme/profiles/shared/config.json",
        "/admin/config/acme/profiles/shared.json",
    ];
    let created = server.put(newer, &root, &json!({"title": "Shared"})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let minted = server
        .post(
            "/admin/config/acme/profiles/shared/apiKeys.json",
            &root,
            &json!({"description": "ci", "roles": ["publish"]}),
        )
        .await;
    assert!(minted.status.is_success(), "{:?}", minted.error);
    assert!(server.get(older, &root).await.body["apiKeys"].is_object());
    let answer = server.get(newer, &root).await.body;
    assert!(answer.get("apiKeys").is_none(), "{answer}");
    assert_eq!(answer["title"], "Shared");
    if let Some(schema) = crate::platform_schemas::platform("profile") {
        let problems: Vec<String> = schema.iter_errors(&answer).map(|e| e.to_string()).collect();
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
