//! The image downloader against wiremock image hosts: who receives `Authorization` (the
//! allow list, redirects), and the failures that become `about:error`.

use std::time::Duration;

use siteops_server::preview::ReqwestTransport;
use url::Url;
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::downloads::{Memory, image, png, quick, redirect, run};

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
        let url = Url::parse(&base).and_then(|b| b.join(src)).expect("url");
        assert_eq!(map.replacement_for(&url), Some(reference.as_str()), "{src}");
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
