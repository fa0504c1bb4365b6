//! The image downloader against wiremock image hosts: who receives `Authorization`
//! (allow list, redirects), failures that become `about:error`, limits that fail the page,
//! SVG validation, storage and the preview host's media.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http::HeaderValue;
use reqwest::StatusCode;
use siteops::preview::images::allow::AllowList;
use siteops::preview::images::download::Downloader;
use siteops::preview::images::{ImageMap, MediaSink, download_images};
use siteops::preview::store::BranchPreviews;
use siteops::preview::trace::ImageTrace;
use siteops::preview::transport::BoxFuture;
use siteops::preview::{
    IncomingResponse, Limits, OutgoingRequest, PreviewError, ReqwestTransport, Transport,
    TransportError,
};
use siteops::store::StoreError;
use url::Url;
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::host_get;
use crate::harness::TestServer;

#[derive(Default)]
struct Memory(Mutex<BTreeMap<String, Vec<u8>>>);

impl MediaSink for Memory {
    fn store(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.0
            .lock()
            .expect("lock")
            .insert(name.to_string(), bytes.to_vec());
        Ok(())
    }
}

/// A PNG header of `width` x `height`, then `fill`.
fn png(width: u32, height: u32, fill: &[u8]) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend_from_slice(&width.to_be_bytes());
    bytes.extend_from_slice(&height.to_be_bytes());
    bytes.extend_from_slice(fill);
    bytes
}

fn image(bytes: Vec<u8>, content_type: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(bytes, content_type)
}

fn redirect(to: String) -> ResponseTemplate {
    ResponseTemplate::new(302).insert_header("location", to.as_str())
}

struct Run {
    result: Result<ImageMap, PreviewError>,
    trace: Vec<ImageTrace>,
}

async fn run(
    transport: &dyn Transport,
    sources: &[String],
    base: &str,
    img_src: Option<&str>,
    authorization: Option<&str>,
    limits: &Limits,
    sink: &dyn MediaSink,
) -> Run {
    let base = Url::parse(base).expect("base");
    let allow = AllowList::parse(img_src, &base);
    let authorization = authorization.map(|a| HeaderValue::from_str(a).expect("header"));
    let downloader = Downloader {
        transport,
        limits,
        allow: &allow,
        authorization: authorization.as_ref(),
        sink,
    };
    let mut trace = Vec::new();
    let result = download_images(&downloader, sources, &base, &mut trace).await;
    Run { result, trace }
}

fn quick() -> Limits {
    Limits {
        image_timeout: Duration::from_millis(500),
        retry_delay: Duration::from_millis(5),
        ..Limits::default()
    }
}

/// The `Authorization` each path of a mock server received, sorted by path.
async fn authorizations(mock: &MockServer) -> Vec<(String, Option<String>)> {
    mock.received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let value = r.headers.get("authorization").and_then(|v| v.to_str().ok());
            (r.url.path().to_string(), value.map(str::to_string))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn with(path: &str, auth: bool) -> (String, Option<String>) {
    (path.to_string(), auth.then(|| "Bearer s3cret".to_string()))
}

#[tokio::test]
async fn authorization_goes_only_to_allowed_hosts_even_through_redirects() {
    let source = MockServer::start().await; // the page's source: `self`
    let allowed = MockServer::start().await;
    let other = MockServer::start().await;
    let a = source.address().port();
    let b = allowed.address().port();
    let c = other.address().port();
    let bytes = png(2, 1, b"pixels");
    for mock in [&source, &allowed, &other] {
        Mock::given(path("/to-other"))
            .respond_with(redirect(format!("http://127.0.0.1:{c}/final.png")))
            .mount(mock)
            .await;
        Mock::given(path("/to-self"))
            .respond_with(redirect(format!("http://127.0.0.1:{a}/back.png")))
            .mount(mock)
            .await;
        Mock::given(any())
            .respond_with(image(bytes.clone(), "image/png"))
            .mount(mock)
            .await;
    }
    let sources: Vec<String> = vec![
        "../self.png".into(),
        format!("http://localhost:{b}/listed.png"),
        format!("http://127.0.0.1:{b}/other-name.png"),
        format!("http://localhost:{c}/other-port.png"),
        format!("http://localhost:{b}/to-other"),
        format!("http://localhost:{b}/to-self"),
    ];
    let base = format!("http://127.0.0.1:{a}/pages/page.html");
    let memory = Memory::default();
    let transport = ReqwestTransport::new();
    let header = format!("LOCALHOST:{b} *.example.com");
    let outcome = run(
        &transport,
        &sources,
        &base,
        Some(&header),
        Some("Bearer s3cret"),
        &quick(),
        &memory,
    )
    .await;
    let map = outcome.result.expect("downloads");

    assert_eq!(
        authorizations(&source).await,
        vec![with("/back.png", true), with("/self.png", true)]
    );
    assert_eq!(
        authorizations(&allowed).await,
        vec![
            with("/listed.png", true),
            with("/other-name.png", false),
            with("/to-other", true),
            with("/to-self", true),
        ]
    );
    assert_eq!(
        authorizations(&other).await,
        vec![with("/final.png", false), with("/other-port.png", false)]
    );
    // Every URL got the same bytes: one stored file, referenced with its size.
    let stored: Vec<String> = memory.0.lock().expect("lock").keys().cloned().collect();
    assert_eq!(stored.len(), 1);
    let reference = format!("./{}#width=2&height=1", stored[0]);
    for src in &sources {
        assert_eq!(map.replacement(src), Some(reference.as_str()), "{src}");
    }
    let redirected = &outcome.trace[4];
    assert!(redirected.allowed);
    let hops: Vec<(bool, Option<u16>)> = redirected
        .hops
        .iter()
        .map(|h| (h.authorization, h.status))
        .collect();
    assert_eq!(hops, vec![(true, Some(302)), (false, Some(200))]);
    assert_eq!(redirected.decision, "stored");

    // `*` allows everyone; a full URL counts by host; no header at all without credentials.
    for (header, auth, other_gets_it) in [
        (Some("*"), Some("Bearer s3cret"), true),
        (
            Some(format!("https://localhost:{c}/any/path")).as_deref(),
            Some("Bearer s3cret"),
            true,
        ),
        (Some("*"), None, false),
    ] {
        other.reset().await;
        Mock::given(any())
            .respond_with(image(bytes.clone(), "image/png"))
            .mount(&other)
            .await;
        let sources = vec![format!("http://localhost:{c}/x.png")];
        let outcome = run(&transport, &sources, &base, header, auth, &quick(), &memory).await;
        assert!(outcome.result.is_ok());
        assert_eq!(
            authorizations(&other).await,
            vec![with("/x.png", other_gets_it)],
            "{header:?}"
        );
    }
}

#[tokio::test]
async fn failing_images_become_about_error_and_the_page_converts() {
    let host = MockServer::start().await;
    let bytes = png(1, 1, b"");
    Mock::given(path("/missing.png"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&host)
        .await;
    Mock::given(path("/page.png"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(b"<html/>".to_vec(), "text/html"))
        .mount(&host)
        .await;
    Mock::given(path("/slow.png"))
        .respond_with(image(bytes.clone(), "image/png").set_delay(Duration::from_secs(3)))
        .mount(&host)
        .await;
    Mock::given(path("/down.png"))
        .respond_with(ResponseTemplate::new(503))
        .expect(4)
        .mount(&host)
        .await;
    Mock::given(path("/flaky.png"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(2)
        .mount(&host)
        .await;
    Mock::given(path("/flaky.png"))
        .respond_with(image(bytes.clone(), "image/png"))
        .mount(&host)
        .await;
    let h = host.address().port();
    let sources: Vec<String> = [
        "/missing.png",
        "/page.png",
        "/slow.png",
        "/down.png",
        "/flaky.png",
        "data:image/png;base64,AAAA",
        "about:blank",
        "ftp://example.com/a.png",
        "http://169.254.169.254/latest/meta-data/a.png",
        "http://[fe80::1]/a.png",
        "http://exa mple.com/a.png",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let memory = Memory::default();
    let transport = ReqwestTransport::new();
    let base = format!("http://127.0.0.1:{h}/page");
    let outcome = run(&transport, &sources, &base, None, None, &quick(), &memory).await;
    let map = outcome.result.expect("the page converts");
    let summary: Vec<(String, String, u32)> = outcome
        .trace
        .iter()
        .map(|t| {
            let replacement = map.replacement(&t.src).unwrap_or("?");
            let replacement = if replacement.starts_with("./media_") {
                "./media_"
            } else {
                replacement
            };
            (
                replacement.chars().take(12).collect(),
                t.decision.clone(),
                t.attempts,
            )
        })
        .collect();
    let expected: Vec<(String, String, u32)> = [
        ("about:error", "status 404", 1),
        ("about:error", "not an image: `text/html`", 1),
        ("about:error", "timeout after 500 ms", 1),
        ("about:error", "status 503", 4),
        ("./media_", "stored", 3),
        ("data:image/p", "kept", 0),
        ("about:blank", "kept", 0),
        ("about:error", "ftp: URLs are never fetched", 0),
        ("about:error", "refused address: 169.254.169.254", 1),
        ("about:error", "refused address: fe80::1", 1),
        ("about:error", "not a URL", 0),
    ]
    .iter()
    .map(|(r, d, a)| (r.to_string(), d.to_string(), *a))
    .collect();
    assert_eq!(summary, expected);
    assert_eq!(memory.0.lock().expect("lock").len(), 1);
}

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
    ] {
        let failed = run(&transport, &one(src), &base, None, None, &quick(), &memory).await;
        let error = failed.result.expect_err(src);
        assert_eq!(error.status, 409, "{src}");
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
        (error.status, error.message),
        (
            409,
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
        (error.status, error.message.as_str()),
        (409, "the page has 201 distinct images, more than 200")
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
    let previews = BranchPreviews::new(server.server.state.store.as_ref(), "acme", "web", "main");
    let transport = ReqwestTransport::new();
    let sources = vec!["/a.png".to_string()];
    let outcome = run(
        &transport,
        &sources,
        &format!("{}/p", host.uri()),
        None,
        None,
        &quick(),
        &previews,
    )
    .await;
    let name = outcome.result.expect("stored").stored[0].name.clone();
    for at in [format!("/{name}"), format!("/deep/folder/{name}")] {
        let (status, content_type, body) = host_get(&server, &at).await;
        assert_eq!(status, StatusCode::OK, "{at}");
        assert_eq!(content_type.as_deref(), Some("image/png"));
        assert_eq!(body, bytes);
    }
    let unknown = name.replace(&name[6..10], "0000");
    let (status, _, _) = host_get(&server, &format!("/{unknown}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
