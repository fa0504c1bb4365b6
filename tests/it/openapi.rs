//! The OpenAPI document against the service it describes: served as generated, every
//! documented operation routed and answering one of its documented statuses, and every
//! path's `Allow` the methods documented for it. (schemathesis checks much more, with
//! generated requests: `cargo xtask api-check`.)

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

/// A server with the site `acme/web`, and a token of the org's administrator.
async fn with_site() -> (TestServer, String) {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup", "suffix": ".html"}},
    });
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &site)
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    (server, root)
}

/// The document's path with its parameters filled in for `acme/web`.
fn concrete(path: &str) -> String {
    path.replace("{org}", "acme")
        .replace("{site}", "web")
        .replace("{branch}", "main")
        .replace("{secret}", "token")
        .replace("{job}", "no-such-job")
        .replace("{path}", "about")
}

fn operations(document: &Value) -> Vec<(String, String, &Value)> {
    let mut all = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            all.push((path.clone(), method.clone(), operation));
        }
    }
    all
}

#[tokio::test]
async fn the_service_serves_the_document_it_generates() {
    let server = TestServer::start().await;
    let answer = server
        .send(Method::GET, "/admin/openapi.json", None, None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "no token needed");
    assert_eq!(answer.body, siteops::openapi::document());
    assert_eq!(answer.body["openapi"], "3.1.0");
}

#[tokio::test]
async fn every_documented_operation_answers_a_documented_status() {
    let (server, root) = with_site().await;
    let document = siteops::openapi::document();
    let mut undocumented = Vec::new();
    for (path, method, operation) in operations(&document) {
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        let body = operation.get("requestBody").map(|_| b"{}".to_vec());
        let url = concrete(&path);
        let answer = server.send(method.clone(), &url, Some(&root), body).await;
        let status = answer.status.as_u16().to_string();
        if operation["responses"].get(&status).is_none() {
            undocumented.push(format!("{method} {url}: {status} {:?}", answer.error));
        }
    }
    assert!(undocumented.is_empty(), "{undocumented:#?}");
}

#[tokio::test]
async fn a_method_not_documented_gets_405_with_the_documented_ones_in_allow() {
    let (server, root) = with_site().await;
    let document = siteops::openapi::document();
    let mut wrong = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        let documented: BTreeSet<String> = item
            .as_object()
            .expect("path item")
            .keys()
            .map(|m| m.to_uppercase())
            .collect();
        let response = server
            .client
            .request(Method::PATCH, server.url(&concrete(path)))
            .header("x-auth-token", &root)
            .send()
            .await
            .expect("answered");
        let allow: BTreeSet<String> = response
            .headers()
            .get("allow")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .split(',')
            .map(|m| m.trim().to_string())
            .filter(|m| !m.is_empty())
            .collect();
        if response.status() != StatusCode::METHOD_NOT_ALLOWED || allow != documented {
            wrong.push(format!(
                "{path}: {} allow {allow:?}, documented {documented:?}",
                response.status()
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
