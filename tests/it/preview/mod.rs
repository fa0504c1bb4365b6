//! The preview pipeline over real HTTP: wiremock markup sources and image hosts, the
//! bundled server on 127.0.0.1:0.
//! - `fetch`: URL construction, overlay fallback, credential forwarding, status rules,
//!   time-outs, body limits, redirects;
//! - `route`: the route's authorisation, storage, the preview host and the response;
//! - `images`: the downloader with the allow list, redirects and failing images;
//! - `image_limits`: count and size limits, SVG validation, concurrency, served media;
//! - `pages`: a whole page through the route: conversion, images, markdown, HTML;
//! - `storage`: the cap on the bytes a site's previews hold, and room given back;
//! - `delivery`: what the host delivers around a page, at the view (sheets, redirects,
//!   headers, folders, `404.html`, nonces, robots).

mod delivery;
mod downloads;
mod fetch;
mod image_limits;
mod images;
mod pages;
mod route;
mod storage;

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::preview::Limits;

use wiremock::ResponseTemplate;

use crate::harness::{Answer, ORG_ADMIN, TestServer};

pub(crate) const PAGE: &str =
    "<html><head><title>T</title></head><body><main><div><p>Hello</p></div></main></body></html>";

pub(crate) fn html(body: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.as_bytes().to_vec(), "text/html; charset=utf-8")
}

pub(crate) const SITE_ADMIN: &str = "web@acme.example";
pub(crate) const CONFIG_BOT: &str = "bot@acme.example";

/// A server with the site acme/web whose `content` block is given (and `access`, when not
/// null); returns the server and an org administrator's token.
pub(crate) async fn site_with(
    content: Value,
    access: Value,
    limits: Limits,
) -> (TestServer, String) {
    let server = TestServer::start_with(limits).await;
    let root = server.token(ORG_ADMIN);
    let mut body = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": content,
        "access": {"admin": {"role": {"admin": [SITE_ADMIN], "config_admin": [CONFIG_BOT]}}},
    });
    if !access.is_null() {
        body["access"] = access;
    }
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &body)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    (server, root)
}

/// The status of `GET <path>` on acme/web's preview host, with `authorization: <credential>`
/// when given.
pub(crate) async fn guarded_status(
    server: &TestServer,
    path: &str,
    credential: Option<String>,
) -> StatusCode {
    let request = server
        .client
        .get(server.url(path))
        .header("host", "main--web--acme.localhost");
    let request = match credential {
        Some(value) => request.header("authorization", value),
        None => request,
    };
    request.send().await.expect("answered").status()
}

/// A site whose primary source is `url` (with `suffix`), without overlay.
pub(crate) async fn site(url: &str, suffix: Option<&str>) -> (TestServer, String) {
    let mut source = json!({"url": url, "type": "markup"});
    if let Some(suffix) = suffix {
        source["suffix"] = json!(suffix);
    }
    site_with(json!({"source": source}), Value::Null, Limits::default()).await
}

/// `POST /admin/preview/acme/web/main<page>` with `authorization: token …` and `headers`.
pub(crate) async fn preview(
    server: &TestServer,
    token: &str,
    page: &str,
    headers: &[(&str, &str)],
) -> (Answer, Vec<u8>) {
    let mut request = server
        .client
        .post(server.url(&format!("/admin/preview/acme/web/main{page}")))
        .header("authorization", format!("token {token}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    answer_with_body(request.send().await.expect("answered")).await
}

/// The answer and the raw body (to check that errors have an empty one).
async fn answer_with_body(response: reqwest::Response) -> (Answer, Vec<u8>) {
    let status = response.status();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (error, code, content_type) = (
        header("x-error"),
        header("x-error-code"),
        header("content-type"),
    );
    let bytes = response.bytes().await.expect("body").to_vec();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let answer = Answer {
        status,
        error,
        code,
        content_type,
        body,
    };
    (answer, bytes)
}

/// The answer to a GET of `path` from acme/web's preview host on main.
async fn host_request(server: &TestServer, path: &str) -> reqwest::Response {
    server
        .client
        .get(server.url(path))
        // As a browser sends it, with the port: the page is delivered for this URL.
        .header(
            "host",
            format!("main--web--acme.localhost:{}", server.server.addr.port()),
        )
        .send()
        .await
        .expect("answered")
}

/// A GET to the preview host of acme/web on main.
pub(crate) async fn host_get(
    server: &TestServer,
    path: &str,
) -> (StatusCode, Option<String>, Vec<u8>) {
    let response = host_request(server, path).await;
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (
        status,
        content_type,
        response.bytes().await.expect("body").to_vec(),
    )
}

/// A GET of an HTML page of acme/web's preview host: its content security policy, and the
/// page with the policy's nonce taken off the scripts that carry it (so the page compares
/// with what the pipeline rendered). Fails unless the policy has a nonce.
pub(crate) async fn host_page(server: &TestServer, path: &str) -> (String, String) {
    let response = host_request(server, path).await;
    let policy = response
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .expect("a content security policy")
        .to_string();
    let nonce = policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a nonce");
    let page = response.text().await.expect("text");
    (
        policy.clone(),
        page.replace(&format!(" nonce=\"{nonce}\""), ""),
    )
}

/// Replaces every `127.0.0.1:<port>` and `localhost:<port>` with a placeholder, so a JSON
/// value can be snapshot.
pub(crate) fn redact_ports(value: &Value) -> Value {
    let text = value.to_string();
    let port = regex::Regex::new(r"(127\.0\.0\.1|localhost):\d+").expect("regex");
    serde_json::from_str(&port.replace_all(&text, "$1:[port]")).expect("JSON")
}
