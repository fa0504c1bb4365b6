//! Fetching pages: URL construction, overlay fallback, credentials, statuses, time-outs,
//! limits and redirects.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::preview::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{PAGE, html, preview, site, site_with};
use crate::harness::TestServer;

/// The path and query of every request a mock server received, in order.
async fn received(mock: &MockServer) -> Vec<String> {
    mock.received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| match r.url.query() {
            Some(query) => format!("{}?{query}", r.url.path()),
            None => r.url.path().to_string(),
        })
        .collect()
}

/// One row per case: configured path and query, suffix (`-`: none), page, the path and
/// query fetched, webPath, resourcePath.
const URL_CASES: &str = "
    /delivery?tenant=acme       .html  /a             /delivery/a.html?tenant=acme    /a          /a.md
    /delivery/?tenant=acme&x=1  -      /a/b           /delivery/a/b?tenant=acme&x=1   /a/b        /a/b.md
    /delivery                   .html  /              /delivery/index.html            /           /index.md
    /delivery?t=1               .html  /folder/       /delivery/folder/index.html?t=1 /folder/    /folder/index.md
    /delivery                   -      /folder/       /delivery/folder/index          /folder/    /folder/index.md
    /delivery                   -      /folder/index  /delivery/folder/index          /folder/    /folder/index.md
    /delivery                   .html  /index.md      /delivery/index.html            /           /index.md
    /                           -      /a             /a                              /a          /a.md
    /delivery                   .html  /a%20b         /delivery/a%20b.html            /a%20b      /a%20b.md
    /delivery                   -      //a//b         /delivery/a/b                   /a/b        /a/b.md
    /delivery                   -      /caf%C3%A9     /delivery/caf%C3%A9             /caf%C3%A9  /caf%C3%A9.md
";

#[tokio::test]
async fn fetch_urls_follow_the_interface_rule() {
    let source = MockServer::start().await;
    let (server, root) = site(&source.uri(), None).await;
    let mut failures = Vec::new();
    for row in URL_CASES.lines().filter(|l| !l.trim().is_empty()) {
        let [configured, suffix, page, fetched, web_path, resource_path] =
            row.split_whitespace().collect::<Vec<_>>()[..]
        else {
            panic!("bad row {row}");
        };
        let mut config = json!({"url": format!("{}{configured}", source.uri()), "type": "markup"});
        if suffix != "-" {
            config["suffix"] = json!(suffix);
        }
        let content = json!({ "source": config });
        let updated = server
            .post("/admin/config/acme/sites/web/content.json", &root, &content)
            .await;
        assert_eq!(updated.status, StatusCode::OK, "{:?}", updated.error);
        source.reset().await;
        Mock::given(any())
            .respond_with(html(PAGE))
            .mount(&source)
            .await;
        let (answer, _) = preview(&server, &root, page, &[]).await;
        let text = |key: &str| answer.body[key].as_str().unwrap_or("").to_string();
        let got = (
            answer.status.as_u16(),
            received(&source).await,
            text("webPath"),
            text("resourcePath"),
        );
        let expected = (
            200,
            vec![fetched.to_string()],
            web_path.into(),
            resource_path.into(),
        );
        if got != expected {
            failures.push(format!("{row}: got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Sends a request line as is (reqwest would normalise `..` away) and returns the status
/// and `x-error`.
async fn raw_post(server: &TestServer, target: &str, token: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(server.server.addr)
        .await
        .expect("connects");
    let request = format!(
        "POST {target} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: token {token}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut text = String::new();
    stream.read_to_string(&mut text).await.expect("read");
    let status = text[9..12].parse().expect("status");
    let error = text
        .lines()
        .find_map(|l| l.strip_prefix("x-error: "))
        .unwrap_or("")
        .to_string();
    (status, error)
}

#[tokio::test]
async fn dot_segments_and_encoded_slashes_are_refused() {
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    let (server, root) = site(&format!("{}/delivery", source.uri()), None).await;
    for target in [
        "/admin/preview/acme/web/main/a/../b",
        "/admin/preview/acme/web/main/..",
        "/admin/preview/acme/web/main/%2e%2e/secret",
        "/admin/preview/acme/web/main/a/%2E/b",
        "/admin/preview/acme/web/main/a%2Fb",
    ] {
        let (status, error) = raw_post(&server, target, &root).await;
        assert_eq!(status, 400, "{target}");
        assert!(error.starts_with("invalid page path"), "{target}: {error}");
    }
    assert!(received(&source).await.is_empty());
}

/// Issue 14, finding 7: `serve --refuse-private-sources` (and any server listening beyond
/// loopback) fetches no source on loopback or private addresses, whose answers it would
/// re-serve; its own address (the bundled worker) stays reachable.
#[tokio::test]
async fn public_only_sources_refuse_loopback_before_connecting() {
    use siteops_server::preview::{AddressPolicy, ReqwestTransport};
    let source = MockServer::start().await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    let transport = ReqwestTransport::under(AddressPolicy::PublicOnly);
    let server = TestServer::start_through(std::sync::Arc::new(transport.clone())).await;
    transport.allow_own(server.server.addr);
    let root = server.token(crate::harness::ORG_ADMIN);
    let body = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": format!("{}/delivery", source.uri()), "type": "markup"}},
    });
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &body)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let (answer, _) = preview(&server, &root, "/index", &[]).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY, "{answer:?}");
    let error = answer.error.unwrap_or_default();
    assert!(error.contains("refused address: 127.0.0.1"), "{error}");
    assert!(received(&source).await.is_empty());
}

/// A site whose overlay is `overlay` and primary source `primary`.
async fn overlaid(
    overlay: &MockServer,
    primary: &MockServer,
    limits: Limits,
) -> (TestServer, String) {
    site_with(
        json!({
            "source": {"url": format!("{}/primary", primary.uri()), "type": "markup", "suffix": ".html"},
            "overlay": {"url": format!("{}/overlay", overlay.uri()), "type": "markup"},
        }),
        Value::Null,
        limits,
    )
    .await
}

#[tokio::test]
async fn the_overlay_falls_back_on_404_401_and_403_only() {
    for (overlay_status, expected, primary_calls) in [
        (404, StatusCode::OK, 1),
        (401, StatusCode::OK, 1),
        (403, StatusCode::OK, 1),
        (200, StatusCode::OK, 0),
        (500, StatusCode::BAD_GATEWAY, 0),
        (400, StatusCode::BAD_REQUEST, 0),
    ] {
        let overlay = MockServer::start().await;
        let primary = MockServer::start().await;
        Mock::given(path("/overlay/p"))
            .respond_with(match overlay_status {
                200 => html(PAGE),
                status => ResponseTemplate::new(status),
            })
            .expect(1)
            .mount(&overlay)
            .await;
        Mock::given(path("/primary/p.html"))
            .respond_with(html(PAGE))
            .expect(primary_calls)
            .mount(&primary)
            .await;
        let (server, root) = overlaid(&overlay, &primary, Limits::default()).await;
        let (answer, _) = preview(&server, &root, "/p", &[]).await;
        assert_eq!(
            answer.status, expected,
            "overlay {overlay_status}: {:?}",
            answer.error
        );
        if expected == StatusCode::OK {
            let fetch = &answer.body["trace"]["fetch"];
            let used = if primary_calls == 1 {
                "primary"
            } else {
                "overlay"
            };
            assert_eq!(answer.body["preview"]["source"], used);
            assert_eq!(
                fetch.as_array().map(Vec::len),
                Some(1 + primary_calls as usize)
            );
            if primary_calls == 1 {
                assert_eq!(fetch[0]["status"], overlay_status);
                assert_eq!(
                    fetch[0]["decision"],
                    format!("fallback: the overlay source answered {overlay_status}")
                );
                assert_eq!(fetch[1]["decision"], "used");
            }
        }
    }
}

#[tokio::test]
async fn only_the_forwarded_authorization_and_the_location_reach_the_sources() {
    let overlay = MockServer::start().await;
    let primary = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(401))
        .mount(&overlay)
        .await;
    Mock::given(any())
        .respond_with(html(PAGE))
        .mount(&primary)
        .await;
    let (server, root) = overlaid(&overlay, &primary, Limits::default()).await;
    let caller = [
        ("x-content-source-authorization", "Bearer source-secret"),
        ("x-auth-token", root.as_str()),
        ("cookie", "session=abc; other=1"),
        ("x-forwarded-for", "10.0.0.1"),
    ];
    let (answer, _) = preview(&server, &root, "/a/b", &caller).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    let (answer, _) = preview(&server, &root, "/c", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    for mock in [&overlay, &primary] {
        let requests = mock.received_requests().await.unwrap_or_default();
        assert_eq!(requests.len(), 2);
        for (request, (authorization, location)) in requests
            .iter()
            .zip([(Some("Bearer source-secret"), "/a/b"), (None, "/c")])
        {
            let mut names: Vec<&str> = request.headers.keys().map(|n| n.as_str()).collect();
            names.sort();
            let expected: Vec<&str> = if authorization.is_some() {
                vec![
                    "accept",
                    "authorization",
                    "host",
                    "user-agent",
                    "x-content-source-location",
                ]
            } else {
                vec!["accept", "host", "user-agent", "x-content-source-location"]
            };
            assert_eq!(names, expected, "{}", request.url);
            let header = |name: &str| request.headers.get(name).and_then(|v| v.to_str().ok());
            assert_eq!(header("authorization"), authorization);
            assert_eq!(header("x-content-source-location"), Some(location));
        }
    }
}

#[tokio::test]
async fn source_statuses_map_to_preview_statuses() {
    let source = MockServer::start().await;
    let cases = [
        (404, 404),
        (401, 401),
        (403, 404),
        (400, 400),
        (410, 410),
        (429, 503),
        (500, 502),
        (503, 502),
        (304, 502),
    ];
    for (status, _) in cases {
        Mock::given(path(format!("/s{status}")))
            .respond_with(ResponseTemplate::new(status))
            .mount(&source)
            .await;
    }
    let (server, root) = site(&source.uri(), None).await;
    for (status, expected) in cases {
        let (answer, body) = preview(&server, &root, &format!("/s{status}"), &[]).await;
        assert_eq!(answer.status.as_u16(), expected, "source {status}");
        assert!(
            body.is_empty(),
            "source {status}: an error has an empty body"
        );
        let error = answer.error.unwrap_or_default();
        assert_eq!(
            error,
            format!("unable to fetch /s{status} from the primary source: {status}")
        );
    }
}

#[tokio::test]
async fn network_errors_time_outs_and_large_bodies() {
    let source = MockServer::start().await;
    Mock::given(path("/slow"))
        .respond_with(html(PAGE).set_delay(Duration::from_secs(3)))
        .mount(&source)
        .await;
    Mock::given(path("/large"))
        .respond_with(html(&"x".repeat(2 * 1024 * 1024)))
        .mount(&source)
        .await;
    Mock::given(path("/limit"))
        .respond_with(html(&"x".repeat(1024 * 1024)))
        .mount(&source)
        .await;
    let limits = Limits {
        page_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, Value::Null, limits).await;

    let (slow, _) = preview(&server, &root, "/slow", &[]).await;
    assert_eq!(slow.status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(
        slow.error.as_deref(),
        Some("timeout fetching /slow from the primary source after 300 ms")
    );

    let (large, body) = preview(&server, &root, "/large", &[]).await;
    assert_eq!(large.status, StatusCode::CONFLICT);
    assert!(body.is_empty());
    assert_eq!(
        large.error.as_deref(),
        Some("/large from the primary source is larger than 1048576 bytes")
    );
    let (exact, _) = preview(&server, &root, "/limit", &[]).await;
    assert_eq!(exact.status, StatusCode::OK, "exactly 1 MiB is accepted");

    // A port nobody listens on: the connection is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let updated = server
        .post(
            "/admin/config/acme/sites/web/content.json",
            &root,
            &json!({"source": {"url": format!("http://127.0.0.1:{port}"), "type": "markup"}}),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK);
    let (down, _) = preview(&server, &root, "/x", &[]).await;
    assert_eq!(down.status, StatusCode::BAD_GATEWAY);
    assert!(
        down.error
            .unwrap_or_default()
            .starts_with("unable to fetch /x from the primary source: network error"),
    );
}

#[tokio::test]
async fn a_redirected_page_fetch_keeps_credentials_on_the_source_origin() {
    let source = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(path("/moved"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", "/here"))
        .mount(&source)
        .await;
    Mock::given(path("/here"))
        .respond_with(
            ResponseTemplate::new(302)
                .insert_header("location", format!("{}/there", elsewhere.uri()).as_str()),
        )
        .mount(&source)
        .await;
    Mock::given(path("/there"))
        .respond_with(html(PAGE))
        .mount(&elsewhere)
        .await;
    let (server, root) = site(&source.uri(), None).await;
    let (answer, _) = preview(
        &server,
        &root,
        "/moved",
        &[("x-content-source-authorization", "Bearer t")],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    for request in source.received_requests().await.unwrap_or_default() {
        assert_eq!(
            request.headers.get("authorization").map(|v| v.as_bytes()),
            Some(&b"Bearer t"[..])
        );
        assert!(request.headers.contains_key("x-content-source-location"));
    }
    let away = elsewhere.received_requests().await.unwrap_or_default();
    assert_eq!(away.len(), 1);
    assert!(!away[0].headers.contains_key("authorization"));
    assert!(!away[0].headers.contains_key("x-content-source-location"));
    let hops: Vec<(bool, u64)> = answer.body["trace"]["fetch"][0]["redirects"]
        .as_array()
        .expect("hops")
        .iter()
        .map(|h| {
            (
                h["authorization"] == true,
                h["status"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(hops, vec![(true, 301), (true, 302), (false, 200)]);
}

/// Issue 14, finding 17: a preview has one deadline for its page and all its images (190
/// slow images held a request for 120 s); past it, 504 and nothing stored.
#[tokio::test]
async fn a_preview_has_one_deadline_for_its_page_and_images() {
    let source = MockServer::start().await;
    let images: String = (0..40)
        .map(|i| format!("<p><img src=\"/img/{i}.png\"></p>"))
        .collect();
    let page = format!("<html><body><main><div>{images}</div></main></body></html>");
    Mock::given(path("/docs/slow.html"))
        .respond_with(html(&page))
        .mount(&source)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(2)))
        .mount(&source)
        .await;
    let limits = Limits {
        preview_deadline: Duration::from_millis(600),
        image_timeout: Duration::from_secs(5),
        ..Limits::default()
    };
    let content = json!({"source": {"url": format!("{}/docs", source.uri()), "type": "markup", "suffix": ".html"}});
    let (server, root) = site_with(content, Value::Null, limits).await;
    let started = std::time::Instant::now();
    let (answer, _) = preview(&server, &root, "/slow", &[]).await;
    assert_eq!(answer.status, StatusCode::GATEWAY_TIMEOUT, "{answer:?}");
    let error = answer.error.unwrap_or_default();
    assert_eq!(
        error,
        "the preview of /slow took longer than 600 ms (its page and images)"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let (status, _, _) = super::host_get(&server, "/slow").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A source that says why it failed (`x-error`, as the bundled worker does) is quoted: in
/// the preview's error when the failure ends the preview, in the trace's decision when the
/// overlay falls back. A long reason is cut, and control characters are dropped.
#[tokio::test]
async fn a_sources_own_reason_is_quoted_in_the_error_and_the_trace() {
    let overlay = MockServer::start().await;
    let primary = MockServer::start().await;
    Mock::given(path("/overlay/broken"))
        .respond_with(ResponseTemplate::new(500).insert_header("x-error", "missing header tenant"))
        .mount(&overlay)
        .await;
    Mock::given(path("/overlay/long"))
        .respond_with(ResponseTemplate::new(502).insert_header("x-error", "x".repeat(2_000)))
        .mount(&overlay)
        .await;
    Mock::given(path("/overlay/moved"))
        .respond_with(
            ResponseTemplate::new(404).insert_header("x-error", "no mock matches GET /moved"),
        )
        .mount(&overlay)
        .await;
    Mock::given(path("/primary/moved.html"))
        .respond_with(html(PAGE))
        .mount(&primary)
        .await;
    let (server, root) = overlaid(&overlay, &primary, Limits::default()).await;

    let (answer, _) = preview(&server, &root, "/broken", &[]).await;
    assert_eq!(answer.status, StatusCode::BAD_GATEWAY);
    assert_eq!(
        answer.error.as_deref(),
        Some(
            "unable to fetch /broken from the overlay source: 500 (x-error: missing header tenant)"
        )
    );

    let (answer, _) = preview(&server, &root, "/long", &[]).await;
    let error = answer.error.expect("an error");
    assert!(
        error.ends_with(&format!("502 (x-error: {}...)", "x".repeat(500))),
        "{error}"
    );

    let (answer, _) = preview(&server, &root, "/moved", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    assert_eq!(
        answer.body["trace"]["fetch"][0]["decision"],
        "fallback: the overlay source answered 404 (x-error: no mock matches GET /moved)"
    );
}
