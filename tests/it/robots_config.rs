//! `robots.txt` of a site and of a profile over real HTTP, in both path families (older
//! `/admin/config/<org>/sites/<site>/robots.txt`, newer
//! `/api/<org>/sites/<site>/config/robots.txt`, and the profile's): the text a migration
//! script POSTs as `text/plain` is kept as the document's `robots.txt`, answered as sent,
//! and bounded.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

/// A body to send: its content type and bytes.
type Body<'a> = Option<(&'a str, Vec<u8>)>;

/// What a request answered: status, content type, body text, `x-error`.
struct Text {
    status: StatusCode,
    content_type: Option<String>,
    body: String,
    error: Option<String>,
}

async fn send(
    server: &TestServer,
    method: Method,
    path: &str,
    token: &str,
    body: Body<'_>,
) -> Text {
    let mut request = (server.client)
        .request(method, server.url(path))
        .header("x-auth-token", token);
    if let Some((content_type, body)) = body {
        request = request.header("content-type", content_type).body(body);
    }
    let response = request.send().await.expect("answered");
    let header = |name: &str| {
        let value = response.headers().get(name)?;
        value.to_str().ok().map(str::to_string)
    };
    let (content_type, error) = (header("content-type"), header("x-error"));
    Text {
        status: response.status(),
        content_type,
        error,
        body: response.text().await.expect("text"),
    }
}

async fn post_text(server: &TestServer, path: &str, token: &str, text: &str) -> Text {
    let body = Some(("text/plain", text.as_bytes().to_vec()));
    send(server, Method::POST, path, token, body).await
}

async fn get_text(server: &TestServer, path: &str, token: &str) -> Text {
    send(server, Method::GET, path, token, None).await
}

fn is_text(answer: &Text) -> bool {
    (answer.content_type.as_deref()).is_some_and(|kind| kind.starts_with("text/plain"))
}

/// The document's and its `robots.txt`'s paths in one family.
struct Paths {
    document: &'static str,
    robots: &'static str,
}

/// A site's, then a profile's, in the older family and the newer.
const OWNERS: [(Paths, Paths); 2] = [
    (
        Paths {
            document: "/admin/config/acme/sites/web.json",
            robots: "/admin/config/acme/sites/web/robots.txt",
        },
        Paths {
            document: "/api/acme/sites/web/config.json",
            robots: "/api/acme/sites/web/config/robots.txt",
        },
    ),
    (
        Paths {
            document: "/admin/config/acme/profiles/shared.json",
            robots: "/admin/config/acme/profiles/shared/robots.txt",
        },
        Paths {
            document: "/api/acme/profiles/shared/config.json",
            robots: "/api/acme/profiles/shared/config/robots.txt",
        },
    ),
];

async fn server_with_site_and_profile() -> (TestServer, String) {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let profile = server
        .put("/api/acme/profiles/shared/config.json", &root, &json!({}))
        .await;
    assert_eq!(profile.status, StatusCode::CREATED, "{:?}", profile.error);
    let site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup"}},
        "extends": {"profile": "shared"},
    });
    let created = server.put(OWNERS[0].1.document, &root, &site).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    (server, root)
}

#[tokio::test]
async fn robots_txt_is_posted_as_text_and_read_back_in_both_families() {
    let (server, root) = server_with_site_and_profile().await;
    for (older, newer) in &OWNERS {
        for (written, read) in [(older, newer), (newer, older)] {
            let text = format!(
                "User-agent: *\nDisallow: /drafts/\n# via {}\n",
                written.robots
            );
            let posted = post_text(&server, written.robots, &root, &text).await;
            assert_eq!(posted.status, StatusCode::OK, "{:?}", posted.error);
            assert!(is_text(&posted), "{:?}", posted.content_type);
            assert_eq!(posted.body, text, "the text as stored");
            // The other family reads the same text, as text.
            let got = get_text(&server, read.robots, &root).await;
            assert_eq!(got.status, StatusCode::OK, "{:?}", got.error);
            assert!(is_text(&got), "{:?}", got.content_type);
            assert_eq!(got.body, text);
            // The document holds it where the platform keeps it.
            let document = server.get(read.document, &root).await;
            assert_eq!(document.body["robots"], json!({"txt": text}));
        }
    }
    // The site over its profile: the site's own text.
    let site = get_text(&server, OWNERS[0].1.robots, &root).await.body;
    let aggregated = "/api/acme/aggregated/web/config/robots.txt";
    let got = get_text(&server, aggregated, &root).await;
    assert_eq!((got.status, got.body), (StatusCode::OK, site));

    // Removed, it is no more.
    for (older, newer) in &OWNERS {
        let removed = send(&server, Method::DELETE, newer.robots, &root, None).await;
        assert_eq!(
            removed.status,
            StatusCode::NO_CONTENT,
            "{:?}",
            removed.error
        );
        let gone = get_text(&server, older.robots, &root).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND);
        let document = server.get(older.document, &root).await;
        assert_eq!(document.body.get("robots"), None);
    }
}

#[tokio::test]
async fn robots_txt_is_bounded_text() {
    let (server, root) = server_with_site_and_profile().await;
    let kept = "User-agent: *\nAllow: /\n";
    let largest = "#".repeat(500 * 1024);
    for (older, newer) in &OWNERS {
        for paths in [older, newer] {
            let path = paths.robots;
            let posted = post_text(&server, path, &root, kept).await;
            assert_eq!(posted.status, StatusCode::OK, "{path}: {:?}", posted.error);
            let refused: [(Body<'_>, StatusCode); 4] = [
                (
                    Some(("text/plain", format!("{largest}#").into_bytes())),
                    StatusCode::PAYLOAD_TOO_LARGE,
                ),
                (Some(("text/plain", Vec::new())), StatusCode::BAD_REQUEST),
                (
                    Some(("application/json", b"{\"txt\": \"x\"}".to_vec())),
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ),
                (
                    Some(("text/plain", vec![0xff, 0xfe])),
                    StatusCode::BAD_REQUEST,
                ),
            ];
            for (body, status) in refused {
                let answer = send(&server, Method::POST, path, &root, body).await;
                assert_eq!(answer.status, status, "{path}: {:?}", answer.error);
            }
            // What was refused changed nothing.
            assert_eq!(get_text(&server, path, &root).await.body, kept, "{path}");
            let posted = post_text(&server, path, &root, &largest).await;
            assert_eq!(posted.status, StatusCode::OK, "{path}: {:?}", posted.error);
        }
    }
    // Who may not configure the site may neither read nor write its robots.txt.
    let stranger = server.token("stranger@elsewhere.example");
    let denied = post_text(&server, OWNERS[0].0.robots, &stranger, kept).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    let denied = get_text(&server, OWNERS[1].1.robots, &stranger).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_services_own_document_describes_robots_txt() {
    let server = TestServer::start().await;
    let (status, text) = server.text("/admin/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    let document: Value = serde_json::from_str(&text).expect("JSON");
    for path in [
        "/admin/config/{org}/sites/{site}/robots.txt",
        "/admin/config/{org}/profiles/{profile}/robots.txt",
    ] {
        let item = &document["paths"][path];
        let body = &item["post"]["requestBody"]["content"]["text/plain"];
        assert!(body.is_object(), "{path}: {item}");
        let answer = &item["get"]["responses"]["200"]["content"]["text/plain"];
        assert!(answer.is_object(), "{path}: {item}");
    }
}
