//! `?restoreVersion=<n>` on a POST of a whole document restores version `n` in both path
//! families, for a site, a profile and the org document: the `/api` family takes back a
//! version the `/admin` family wrote (a site without `content`, say), as its twin does.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

/// The document at `path` after writing `first`, then `second`, then restoring the
/// first version through `restore` (a path of the same document in either family).
async fn restored(server: &TestServer, path: &str, restore: &str, first: Value, second: Value) {
    let token = server.token(ORG_ADMIN);
    for body in [&first, &second] {
        let written = server.post(path, &token, body).await;
        assert_eq!(written.status, StatusCode::OK, "{path}: {written:?}");
    }
    let versions = path.replace("config.json", "versions.json");
    let listed = server.get(&versions, &token).await;
    let oldest = listed.body["versions"]
        .as_array()
        .and_then(|v| v.last())
        .and_then(|v| v["version"].as_u64())
        .unwrap_or_else(|| panic!("{versions}: {listed:?}"));
    let answer = server
        .send(
            reqwest::Method::POST,
            &format!("{restore}?restoreVersion={oldest}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{restore}: {answer:?}");
    let now = server.get(path, &token).await;
    for (pointer, value) in first.as_object().expect("an object") {
        assert_eq!(
            now.body.get(pointer),
            Some(value),
            "{restore}: {pointer} not restored: {}",
            now.body
        );
    }
}

#[tokio::test]
async fn restore_version_restores_in_both_families() {
    let code = json!({"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}});
    let content = json!({"source": {"type": "markup", "url": "https://cms.acme.example/"}});
    for family in ["/api", "/admin/config"] {
        let server = TestServer::start().await;
        // A site written by the older family without `content` (as the interface writes
        // one), then given one: restoring the first version works from either family.
        let site = "/api/acme/sites/web/config.json";
        let older_site = "/admin/config/acme/sites/web.json";
        let restore_site = if family == "/api" { site } else { older_site };
        let token = server.token(ORG_ADMIN);
        let first = server
            .post(older_site, &token, &json!({"code": code.clone()}))
            .await;
        assert_eq!(first.status, StatusCode::OK, "{first:?}");
        let second = server
            .post(
                site,
                &token,
                &json!({"code": code.clone(), "content": content.clone()}),
            )
            .await;
        assert_eq!(second.status, StatusCode::OK, "{second:?}");
        let answer = server
            .send(
                reqwest::Method::POST,
                &format!("{restore_site}?restoreVersion=1"),
                Some(&token),
                None,
            )
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{family}: {answer:?}");
        let now = server.get(older_site, &token).await;
        assert_eq!(now.body.get("content"), None, "{family}: {}", now.body);

        // A profile and the org document, each restored through this family.
        let profile = "/api/acme/profiles/shared/config.json";
        let older_profile = "/admin/config/acme/profiles/shared.json";
        restored(
            &server,
            profile,
            if family == "/api" {
                profile
            } else {
                older_profile
            },
            json!({"code": code.clone()}),
            json!({"code": code.clone(), "content": content.clone()}),
        )
        .await;
        let org = "/api/acme/config.json";
        restored(
            &server,
            org,
            if family == "/api" {
                org
            } else {
                "/admin/config/acme.json"
            },
            json!({"title": "first"}),
            json!({"title": "second"}),
        )
        .await;
    }
}
