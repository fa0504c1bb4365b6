//! The preview route and the preview host: authorisation, the stored preview, pages,
//! sheets, `requireAuth`, and the response (snapshot).

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::preview::Limits;
use wiremock::matchers::{any, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{
    CONFIG_BOT, PAGE, SITE_ADMIN, guarded_status, host_get, html, preview, redact_ports, site,
    site_with,
};

#[tokio::test]
async fn previews_need_a_token_with_the_right_role() {
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    let (server, root) = site(&source.uri(), None).await;
    let unauthenticated = server
        .client
        .post(server.url("/admin/preview/acme/web/main/a"))
        .send()
        .await
        .expect("answered");
    assert_eq!(unauthenticated.status(), StatusCode::UNAUTHORIZED);
    let cases = [
        (server.token(SITE_ADMIN), StatusCode::OK),
        // The platform's config_admin holds publish's permissions, preview among them.
        (server.token(CONFIG_BOT), StatusCode::OK),
        (server.token("stranger@acme.example"), StatusCode::FORBIDDEN),
        (
            server.token_with(SITE_ADMIN, "acme/other", 60),
            StatusCode::FORBIDDEN,
        ),
        (root.clone(), StatusCode::OK),
    ];
    for (token, expected) in cases {
        let (answer, _) = preview(&server, &token, "/a", &[]).await;
        assert_eq!(answer.status, expected, "{:?}", answer.error);
    }
    let other = server
        .client
        .post(server.url("/admin/preview/acme/nosuch/main/a"))
        .header("authorization", format!("token {root}"))
        .send()
        .await
        .expect("answered");
    assert_eq!(other.status(), StatusCode::NOT_FOUND);
    let put = server
        .client
        .put(server.url("/admin/preview/acme/web/main/a"))
        .header("authorization", format!("token {root}"))
        .send()
        .await
        .expect("answered");
    assert_eq!(put.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_preview_is_stored_and_served_by_the_preview_host() {
    let source = MockServer::start().await;
    Mock::given(path("/docs/guide.html"))
        .respond_with(html(PAGE).insert_header("last-modified", "Tue, 01 Apr 2025 10:00:00 GMT"))
        .mount(&source)
        .await;
    Mock::given(path("/docs/data.json.html"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            br#"{"total":1,"data":[{"a":"b"}]}"#.to_vec(),
            "application/json",
        ))
        .mount(&source)
        .await;
    Mock::given(path("/docs/broken.json.html"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(b"{".to_vec(), "application/json"))
        .mount(&source)
        .await;
    // The overlay has nothing (wiremock answers 404), so the primary source serves.
    let content = json!({
        "source": {"url": format!("{}/docs?v=2", source.uri()), "type": "markup", "suffix": ".html"},
        "overlay": {"url": format!("{}/overlay", source.uri()), "type": "markup"},
    });
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;

    let status = server
        .get("/admin/preview/acme/web/main/guide", &root)
        .await;
    assert_eq!(status.status, StatusCode::OK);
    assert_eq!(status.body["preview"]["status"], 404);
    let (missing, _, _) = host_get(&server, "/guide").await;
    assert_eq!(missing, StatusCode::NOT_FOUND);

    let (answer, _) = preview(&server, &root, "/guide", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    let mut snapshot = redact_ports(&answer.body);
    snapshot["preview"]["lastModified"] = json!("[time]");
    snapshot["preview"]["contentBusId"] = json!("[hash of the source URL]");
    for attempt in snapshot["trace"]["fetch"].as_array_mut().expect("attempts") {
        attempt["elapsedMs"] = json!("[ms]");
    }
    insta::assert_json_snapshot!("preview-response", snapshot);

    let status = server
        .get("/admin/preview/acme/web/main/guide", &root)
        .await;
    assert_eq!(status.body, answer.body, "GET answers what POST stored");

    let (served, content_type, body) = host_get(&server, "/guide").await;
    assert_eq!(served, StatusCode::OK);
    assert_eq!(content_type.as_deref(), Some("text/html; charset=utf-8"));
    let page = String::from_utf8(body).expect("UTF-8");
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(
        page.contains("<main>\n      <div>\n        <p>Hello</p>"),
        "{page}"
    );
    let canonical = format!(
        "<link rel=\"canonical\" href=\"https://main--web--acme.localhost:{}/guide\">",
        server.server.addr.port()
    );
    assert!(page.contains(&canonical), "{page}");
    let (_, content_type, markdown) = host_get(&server, "/guide.md").await;
    assert_eq!(
        content_type.as_deref(),
        Some("text/markdown; charset=utf-8")
    );
    assert_eq!(
        String::from_utf8_lossy(&markdown),
        "Hello\n\n+------------+\n| Metadata   |\n+-------+----+\n| title | T  |\n+-------+----+\n"
    );
    let (_, _, plain) = host_get(&server, "/guide.plain.html").await;
    assert_eq!(
        String::from_utf8_lossy(&plain),
        // As the platform answers it: the newline `rehype-format` puts before the
        // first section comes first.
        "\n<div>\n  <p>Hello</p>\n</div>\n"
    );

    let (sheet, _) = preview(&server, &root, "/data.json", &[]).await;
    assert_eq!(sheet.status, StatusCode::OK, "{:?}", sheet.error);
    assert_eq!(sheet.body["webPath"], "/data.json");
    assert_eq!(sheet.body["resourcePath"], "/data.json");
    assert_eq!(sheet.body["preview"]["contentType"], "application/json");
    let (served, content_type, body) = host_get(&server, "/data.json").await;
    assert_eq!(served, StatusCode::OK);
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(body, br#"{"total":1,"data":[{"a":"b"}]}"#);
    let (plain, _, _) = host_get(&server, "/data.json.plain.html").await;
    assert_eq!(plain, StatusCode::NOT_FOUND);

    let (broken, _) = preview(&server, &root, "/broken.json", &[]).await;
    assert_eq!(broken.status, StatusCode::BAD_GATEWAY);
    assert_eq!(
        broken.error.as_deref(),
        Some("/broken.json from the primary source is not valid JSON")
    );

    // A failed preview leaves the stored one alone.
    source.reset().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&source)
        .await;
    let (failed, _) = preview(&server, &root, "/guide", &[]).await;
    assert_eq!(failed.status, StatusCode::BAD_GATEWAY);
    let (served, _, body) = host_get(&server, "/guide").await;
    assert_eq!(served, StatusCode::OK);
    assert!(String::from_utf8_lossy(&body).contains("<p>Hello</p>"));
}

#[tokio::test]
async fn the_preview_host_respects_require_auth() {
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    let access = json!({"admin": {"role": {"admin": [SITE_ADMIN]}, "requireAuth": "auto"}});
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, access, Limits::default()).await;
    let (answer, _) = preview(&server, &root, "/secret", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    let anonymous = server
        .preview("main--web--acme.localhost", "/secret", None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let token = server.token(SITE_ADMIN);
    let allowed = server
        .client
        .get(server.url("/secret"))
        .header("host", "main--web--acme.localhost")
        .header("authorization", format!("token {token}"))
        .send()
        .await
        .expect("answered");
    assert_eq!(allowed.status(), StatusCode::OK);
    assert!(allowed.text().await.expect("text").contains("<p>Hello</p>"));
}

#[tokio::test]
async fn the_preview_host_answers_site_authentication() {
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    // The platform's site authentication: the preview's rule (over the site's) lets in the
    // `reviewers` group and the holders of the site token `preview-token`.
    let access = json!({
        "admin": {"role": {"admin": [SITE_ADMIN]}},
        "site": {"allow": ["*@acme.example"]},
        "preview": {"allow": ["reviewers"], "secretId": ["preview-token"]}
    });
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, access, Limits::default()).await;
    let groups = server
        .client
        .post(server.url("/admin/config/acme/sites/web.json"))
        .header("authorization", format!("token {root}"))
        .json(&json!({
            "version": 1,
            "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
            "content": {"source": {"url": source.uri(), "type": "markup"}},
            "access": {
                "admin": {"role": {"admin": [SITE_ADMIN]}},
                "site": {"allow": ["*@acme.example"]},
                "preview": {"allow": ["reviewers"], "secretId": ["preview-token"]}
            },
            "groups": {"reviewers": {"members": [{"email": "rev@partner.example"}]}}
        }))
        .send()
        .await
        .expect("answered");
    assert_eq!(
        groups.status(),
        StatusCode::OK,
        "{:?}",
        groups.headers().get("x-error")
    );
    let secret = server
        .client
        .post(server.url("/admin/config/acme/sites/web/secrets/preview-token.json"))
        .header("authorization", format!("token {root}"))
        .json(&json!({"value": "a-site-token-of-the-preview"}))
        .send()
        .await
        .expect("answered");
    assert!(secret.status().is_success(), "{}", secret.status());
    let (answer, _) = preview(&server, &root, "/guarded", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    let get = |credential: Option<String>| guarded_status(&server, "/guarded", credential);
    assert_eq!(get(None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        get(Some("token a-site-token-of-the-preview".into())).await,
        StatusCode::OK,
        "the site token"
    );
    assert_eq!(
        get(Some("token another-value".into())).await,
        StatusCode::UNAUTHORIZED
    );
    let reviewer = server.token("rev@partner.example");
    assert_eq!(get(Some(format!("token {reviewer}"))).await, StatusCode::OK);
    let outsider = server.token("someone@acme.example");
    assert_eq!(
        get(Some(format!("token {outsider}"))).await,
        StatusCode::FORBIDDEN,
        "the preview's rule replaces the site's allow list"
    );
    let admin = server.token(SITE_ADMIN);
    assert_eq!(get(Some(format!("token {admin}"))).await, StatusCode::OK);
}
