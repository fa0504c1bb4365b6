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
        .replace("{profile}", "default")
        .replace("{key}", "no-such-key")
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
    assert_eq!(answer.body, siteops_server::api::openapi::document());
    assert_eq!(answer.body["openapi"], "3.1.0");
}

/// A body that fits each operation, for the site `acme/web` (others get `{}`).
fn example_body(operation_id: &str) -> Vec<u8> {
    let body = match operation_id {
        "saveSite" | "createSite" => json!({
            "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
            "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
        }),
        "setPublic" => json!({"paths": {"mappings": ["/docs/:/"], "includes": ["/docs/"]}}),
        "setAccess" => json!({"admin": {"role": {"admin": ["web@acme.example"]}}}),
        "setCode" => {
            json!({"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}})
        }
        "setContent" => {
            json!({"source": {"url": "https://content.acme.example/web", "type": "markup"}})
        }
        "setSecret" => json!({"value": "s3cret"}),
        "setWorkerConfig" => {
            json!([{"path": "/products/", "endpoint": "https://api.acme.example/products/{{id}}.json", "regex": "/(\\d+)$/", "template": "/templates/product.html"}])
        }
        "pushNotification" => json!({"ref": "refs/heads/main"}),
        _ => json!({}),
    };
    body.to_string().into_bytes()
}

/// Reads first, then writes, then deletes: so that reads find what there is.
fn method_rank(method: &str) -> u8 {
    match method {
        "get" | "head" => 0,
        "post" | "put" => 1,
        _ => 2,
    }
}

/// Checks `body` against the schema of the answer `status` of `operation`, when it has a
/// JSON one; the problems found.
fn conformance(document: &Value, operation: &Value, status: &str, body: &Value) -> Vec<String> {
    let Some(schema) =
        operation["responses"][status]["content"]["application/json"]["schema"].as_object()
    else {
        return Vec::new();
    };
    // The schema's `$ref`s point into the document: resolve them against its components.
    let mut root = Value::Object(schema.clone());
    root["components"] = document["components"].clone();
    let validator = jsonschema::validator_for(&root).expect("the document's schemas compile");
    validator
        .iter_errors(body)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

/// Every operation, with and without a token: the status is one the operation documents,
/// and a 2xx JSON body fits its schema.
#[tokio::test]
async fn every_documented_operation_answers_as_documented() {
    let (server, root) = with_site().await;
    let document = siteops_server::api::openapi::document();
    let mut operations = operations(&document);
    operations.sort_by_key(|(_, method, _)| method_rank(method));
    let mut wrong = Vec::new();
    let mut checked_bodies = 0;
    for token in [None, Some(root.as_str())] {
        for (path, method, operation) in &operations {
            let http_method = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let id = operation["operationId"].as_str().unwrap_or_default();
            let body = operation.get("requestBody").map(|_| example_body(id));
            let url = concrete(path);
            let answer = server.send(http_method.clone(), &url, token, body).await;
            let status = answer.status.as_u16().to_string();
            let documented = operation["responses"].get(&status).is_some()
                || (answer.status.is_client_error() && operation["responses"].get("4XX").is_some());
            if !documented {
                wrong.push(format!(
                    "{method} {url} (token: {}): undocumented {status} {:?}",
                    token.is_some(),
                    answer.error
                ));
                continue;
            }
            if answer.status.is_success() && http_method != Method::HEAD && !answer.body.is_null() {
                checked_bodies += 1;
                for problem in conformance(&document, operation, &status, &answer.body) {
                    wrong.push(format!("{method} {url}: {status} body: {problem}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(
        checked_bodies >= 15,
        "only {checked_bodies} answers were checked against their schemas"
    );
}

#[tokio::test]
async fn a_method_not_documented_gets_405_with_the_documented_ones_in_allow() {
    let (server, root) = with_site().await;
    let document = siteops_server::api::openapi::document();
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

/// The preview answer is a type, and the document takes its schema from it: a real
/// preview's answer fits the document's schema for the route and status, and the schema
/// names what the answer carries (it once lacked `source`, `sourceLastModified`, `media`).
#[tokio::test]
async fn a_real_preview_answers_as_documented() {
    use wiremock::matchers::any;
    use wiremock::{Mock, MockServer};
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(
            crate::preview::html(crate::preview::PAGE)
                .insert_header("last-modified", "Tue, 01 Apr 2025 10:00:00 GMT"),
        )
        .mount(&source)
        .await;
    let (server, root) = crate::preview::site(&source.uri(), None).await;
    let (answer, _) = crate::preview::preview(&server, &root, "/guide", &[]).await;
    assert_eq!(answer.status, reqwest::StatusCode::OK, "{:?}", answer.error);
    let body = &answer.body;
    assert_eq!(body["preview"]["source"], "primary", "{body}");
    assert!(body["preview"]["media"].is_array(), "{body}");

    let document = siteops_server::api::openapi::document();
    let operation = &document["paths"]["/admin/preview/{org}/{site}/{branch}/{path}"]["post"];
    assert!(operation.is_object(), "the preview route is documented");
    let problems = conformance(&document, operation, "200", body);
    assert!(problems.is_empty(), "{problems:#?}\n{body:#}");

    // `preview` is one of two shapes: previewed (status 200, the page) or not (404 alone).
    let states = &document["components"]["schemas"]["Preview"]["properties"]["preview"]["anyOf"];
    let page = &states[0]["properties"];
    for field in [
        "source",
        "sourceLastModified",
        "media",
        "url",
        "contentBusId",
    ] {
        assert!(
            page.get(field).is_some(),
            "`preview.{field}` is documented: {page:#}"
        );
    }
    assert_eq!(page["status"]["const"], 200, "{states:#}");
    assert_eq!(
        states[1]["properties"]["status"]["const"], 404,
        "{states:#}"
    );
    for (field, kind) in [("trace", "object"), ("warnings", "array")] {
        let schema = &document["components"]["schemas"]["Preview"]["properties"][field];
        assert_eq!(
            schema["type"], kind,
            "`{field}` is absent or set, never null: {schema:#}"
        );
    }
    // A field the schema does not allow fails the check: it can tell.
    let mut wrong = body.clone();
    wrong["preview"]["media"] = serde_json::json!("not a list");
    assert!(!conformance(&document, operation, "200", &wrong).is_empty());
    // A status the route never answers fails; so does a page under "not previewed".
    for status in [201, 404] {
        let mut wrong = body.clone();
        wrong["preview"]["status"] = serde_json::json!(status);
        assert!(
            !conformance(&document, operation, "200", &wrong).is_empty(),
            "status {status} with a page passes"
        );
    }
    let not_previewed = serde_json::json!({"status": 404});
    let mut fits = body.clone();
    fits["preview"] = not_previewed;
    fits.as_object_mut().expect("object").remove("trace");
    fits.as_object_mut().expect("object").remove("warnings");
    let problems = conformance(&document, operation, "200", &fits);
    assert!(problems.is_empty(), "{problems:#?}");
}
