//! Image limits that fail the whole page (count, size, SVG validation), bounded
//! concurrency, and stored media served by the preview host.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http::HeaderValue;
use reqwest::StatusCode;
use siteops_server::preview::store::BranchPreviews;
use siteops_server::preview::transport::BoxFuture;
use siteops_server::preview::{
    FailureKind, IncomingResponse, Limits, OutgoingRequest, ReqwestTransport, Transport,
    TransportError,
};
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer};

use super::downloads::{Memory, image, png, quick, run};
use super::host_get;
use crate::harness::TestServer;

#[tokio::test]
async fn limits_and_svg_validation_fail_the_whole_page() {
    let host = MockServer::start().await;
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>"#;
    Mock::given(path("/ok.svg"))
        .respond_with(image(svg.to_vec(), "image/svg+xml"))
        .mount(&host)
        .await;
    Mock::given(path("/script.svg"))
        .respond_with(image(
            b"<svg><script>alert(1)</script></svg>".to_vec(),
            "image/svg+xml",
        ))
        .mount(&host)
        .await;
    Mock::given(path("/handler.svg"))
        .respond_with(image(
            b"<svg onload=\"x()\"/>".to_vec(),
            "image/svg+xml; charset=utf-8",
        ))
        .mount(&host)
        .await;
    Mock::given(path("/foreign.svg"))
        .respond_with(image(
            br#"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="9" height="9"><iframe xmlns="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;parent.x=1&lt;/script&gt;"/></foreignObject></svg>"#.to_vec(),
            "image/svg+xml",
        ))
        .mount(&host)
        .await;
    let large_svg = format!("<svg>{}</svg>", " ".repeat(41 * 1024));
    Mock::given(path("/large.svg"))
        .respond_with(image(large_svg.into_bytes(), "image/svg+xml"))
        .mount(&host)
        .await;
    Mock::given(path("/big.png"))
        .respond_with(image(png(1, 1, &vec![0; 4096]), "image/png"))
        .mount(&host)
        .await;
    let base = format!("{}/page", host.uri());
    let transport = ReqwestTransport::new();
    let memory = Memory::default();
    let one = |p: &str| vec![p.to_string()];

    let ok = run(
        &transport,
        &one("/ok.svg"),
        &base,
        None,
        None,
        &quick(),
        &memory,
    )
    .await;
    let stored = ok.result.expect("a valid SVG is stored");
    assert!(stored.stored[0].name.ends_with(".svg"));
    for (src, message) in [
        ("/script.svg", "the SVG contains a script element"),
        (
            "/handler.svg",
            "the SVG has an event-handler attribute `onload`",
        ),
        ("/large.svg", "the SVG is larger than 40960 bytes"),
        (
            "/foreign.svg",
            "the SVG has a `foreignObject` element, which can hold HTML or load a document",
        ),
    ] {
        let failed = run(&transport, &one(src), &base, None, None, &quick(), &memory).await;
        let error = failed.result.expect_err(src);
        assert_eq!(error.failure, FailureKind::Refused, "{src}");
        assert_eq!(
            error.message,
            format!("the image {}{src}: {message}", host.uri())
        );
    }
    let small = Limits {
        image_size: 1024,
        ..quick()
    };
    let big = run(
        &transport,
        &one("/big.png"),
        &base,
        None,
        None,
        &small,
        &memory,
    )
    .await;
    let error = big.result.expect_err("too large");
    assert_eq!(
        (error.failure, error.message),
        (
            FailureKind::Refused,
            format!("the image {}/big.png is larger than 1024 bytes", host.uri())
        )
    );

    // 201 distinct images: refused before any download; 200 are fine.
    host.reset().await;
    Mock::given(any())
        .respond_with(image(png(1, 1, b""), "image/png"))
        .mount(&host)
        .await;
    let many: Vec<String> = (0..201).map(|i| format!("/i{i}.png")).collect();
    let too_many = run(&transport, &many, &base, None, None, &quick(), &memory).await;
    let error = too_many.result.expect_err("too many");
    assert_eq!(
        (error.failure, error.message.as_str()),
        (
            FailureKind::Refused,
            "the page has 201 distinct images, more than 200"
        )
    );
    assert!(
        host.received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
    let mut enough = many[..200].to_vec();
    enough.push("/i0.png".into());
    enough.push("data:image/png;base64,AAAA".into());
    let fine = run(&transport, &enough, &base, None, None, &quick(), &memory).await;
    assert!(fine.result.is_ok());
    assert_eq!(
        host.received_requests().await.unwrap_or_default().len(),
        200
    );
}

/// A transport that answers every request with a small PNG after a pause, counting how
/// many requests are in flight at once.
#[derive(Debug, Default)]
struct Counting {
    now: AtomicUsize,
    most: AtomicUsize,
}

impl Transport for Counting {
    fn get(
        &self,
        request: OutgoingRequest,
    ) -> BoxFuture<'_, Result<IncomingResponse, TransportError>> {
        Box::pin(async move {
            let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            self.now.fetch_sub(1, Ordering::SeqCst);
            let mut headers = http::HeaderMap::new();
            headers.insert("content-type", HeaderValue::from_static("image/png"));
            Ok(IncomingResponse {
                status: 200,
                headers,
                body: png(1, 1, request.url.path().as_bytes()),
                answerer: Default::default(),
            })
        })
    }
}

#[tokio::test]
async fn eight_downloads_at_a_time() {
    let transport = Counting::default();
    let sources: Vec<String> = (0..30).map(|i| format!("/{i}.png")).collect();
    let memory = Memory::default();
    let outcome = run(
        &transport,
        &sources,
        "https://cms.example/page",
        None,
        None,
        &Limits::default(),
        &memory,
    )
    .await;
    assert_eq!(outcome.result.expect("downloads").stored.len(), 30);
    assert_eq!(transport.most.load(Ordering::SeqCst), 8);
}

#[tokio::test]
async fn stored_media_are_served_by_the_preview_host() {
    let server = TestServer::start().await;
    let root = server.token(crate::harness::ORG_ADMIN);
    let site = serde_json::json!({"code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}}});
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &site)
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let host = MockServer::start().await;
    let bytes = png(3, 4, b"served");
    Mock::given(any())
        .respond_with(image(bytes.clone(), "image/png"))
        .mount(&host)
        .await;
    let state = &server.server.state;
    let previews = BranchPreviews::new(state.store.as_ref(), "acme", "web", "main");
    let service = state.previews();
    let usage = service.service().usage("acme", "web");
    let room = usage.room(Duration::from_secs(60));
    let transport = ReqwestTransport::new();
    let sources = vec!["/a.png".to_string()];
    let outcome = run(
        &transport,
        &sources,
        &format!("{}/p", host.uri()),
        None,
        None,
        &quick(),
        &previews.media_sink(&room),
    )
    .await;
    room.finish().await.expect("counted");
    let name = outcome.result.expect("stored").stored[0].name.clone();
    for at in [format!("/{name}"), format!("/deep/folder/{name}")] {
        let (status, content_type, body) = host_get(&server, &at).await;
        assert_eq!(status, StatusCode::OK, "{at}");
        assert_eq!(content_type.as_deref(), Some("image/png"));
        assert_eq!(body, bytes);
        // Opened on its own, an image runs nothing and is read as nothing else.
        let response = super::host_request(&server, &at).await;
        let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
        assert_eq!(
            header("content-security-policy"),
            Some("default-src 'none'; style-src 'unsafe-inline'; sandbox")
        );
        assert_eq!(header("x-content-type-options"), Some("nosniff"));
    }
    let unknown = name.replace(&name[6..10], "0000");
    let (status, _, _) = host_get(&server, &format!("/{unknown}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_replaced_preview_drops_the_media_no_stored_page_names() {
    let source = MockServer::start().await;
    let (server, root) = super::site(&source.uri(), None).await;
    let page = |image: &str| {
        super::html(&format!(
            "<html><body><main><div><p><img src=\"/{image}.png\"></p></div></main></body></html>"
        ))
    };
    // Pages p and q show image a; then p, then q, show image b instead.
    let serve = |p: &'static str, q: &'static str| {
        let source = &source;
        async move {
            source.reset().await;
            for (at, image) in [("/p", p), ("/q", q)] {
                Mock::given(path(at))
                    .respond_with(page(image))
                    .mount(source)
                    .await;
            }
            for (image, fill) in [("a", b"first"), ("b", b"other")] {
                Mock::given(path(format!("/{image}.png")))
                    .respond_with(image_of(fill))
                    .mount(source)
                    .await;
            }
        }
    };
    fn image_of(fill: &[u8]) -> wiremock::ResponseTemplate {
        image(png(3, 4, fill), "image/png")
    }
    let media_of = |answer: &crate::harness::Answer| {
        assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
        answer.body["preview"]["media"][0]
            .as_str()
            .expect("a stored image")
            .to_string()
    };
    serve("a", "a").await;
    let a = media_of(&super::preview(&server, &root, "/p", &[]).await.0);
    assert_eq!(
        a,
        media_of(&super::preview(&server, &root, "/q", &[]).await.0)
    );
    serve("b", "a").await;
    let b = media_of(&super::preview(&server, &root, "/p", &[]).await.0);
    assert_ne!(a, b);
    assert_eq!(
        host_get(&server, &format!("/{a}")).await.0,
        StatusCode::OK,
        "q still shows a"
    );
    serve("b", "b").await;
    assert_eq!(
        b,
        media_of(&super::preview(&server, &root, "/q", &[]).await.0)
    );
    assert_eq!(
        host_get(&server, &format!("/{a}")).await.0,
        StatusCode::NOT_FOUND,
        "no stored page shows a"
    );
    assert_eq!(host_get(&server, &format!("/{b}")).await.0, StatusCode::OK);
}
