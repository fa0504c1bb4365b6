//! A whole preview through the route: a page with blocks, metadata and images on two
//! hosts, converted, its images stored and rewritten, served by the preview host.

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_ingest::render::{PageOptions, page_html, plain_html};
use siteops_server::codesync::code_key;
use siteops_server::preview::Limits;
use wiremock::matchers::{any, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::downloads::{image, png};
use super::{host_get, host_page, html, preview, redact_ports, site_with};

const SVG: &[u8] = br#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="1" height="1"/></svg>"#;

fn page(other: u16) -> String {
    format!(
        r#"<html><head><title>Launch</title><meta name="description" content="All about it">
<meta property="og:image" content="/og.png"></head><body><main>
<div><h1>Launch <span class="note">day</span></h1><p style="color: red" data-x="1">See <a href="/more">more</a>.</p>
<picture><img src="hero.png" alt="Hero"></picture>
<img src="http://localhost:{other}/listed.png"><img src="http://127.0.0.1:{other}/logo.svg"><img src="/missing.png">
</div>
<div><div class="columns"><div><div>One</div><div>Two</div></div></div>
<div class="bad_name"><div><div>x</div></div></div>
<div class="metadata"><div><div>Tags</div><div>news, launch</div></div></div></div>
</main></body></html>"#
    )
}

#[tokio::test]
async fn a_page_with_images_is_converted_stored_and_served() {
    let source = MockServer::start().await;
    let other = MockServer::start().await;
    let o = other.address().port();
    let hero = png(800, 600, b"hero");
    let listed = png(40, 30, b"listed");
    Mock::given(path("/docs/news/launch.html"))
        .respond_with(
            html(&page(o)).insert_header("x-html2md-img-src", format!("localhost:{o}").as_str()),
        )
        .mount(&source)
        .await;
    Mock::given(path("/docs/news/hero.png"))
        .respond_with(image(hero.clone(), "image/png"))
        .mount(&source)
        .await;
    Mock::given(path("/og.png"))
        .respond_with(image(hero.clone(), "image/png"))
        .mount(&source)
        .await;
    Mock::given(path("/listed.png"))
        .respond_with(image(listed, "image/png"))
        .mount(&other)
        .await;
    Mock::given(path("/logo.svg"))
        .respond_with(image(SVG.to_vec(), "image/svg+xml"))
        .mount(&other)
        .await;
    let content = json!({"source": {"url": format!("{}/docs", source.uri()), "type": "markup", "suffix": ".html"}});
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;
    let store = server.server.state.store.clone();
    store
        .put(
            &code_key("acme", "acme", "web", "main", "head.html"),
            b"<script src=\"/scripts/aem.js\" type=\"module\"></script>",
        )
        .await
        .expect("stored");

    let (answer, _) = preview(
        &server,
        &root,
        "/news/launch",
        &[("x-content-source-authorization", "token s3cret")],
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);

    // Authorization: the source's own host and the listed host, not the other name.
    let auth = |requests: Vec<wiremock::Request>| -> Vec<(String, bool)> {
        let mut seen: Vec<(String, bool)> = requests
            .iter()
            .map(|r| {
                (
                    r.url.path().to_string(),
                    r.headers.contains_key("authorization"),
                )
            })
            .collect();
        seen.sort();
        seen
    };
    assert_eq!(
        auth(source.received_requests().await.unwrap_or_default()),
        vec![
            ("/docs/news/hero.png".into(), true),
            ("/docs/news/launch.html".into(), true),
            ("/missing.png".into(), true),
            ("/og.png".into(), true),
        ]
    );
    assert_eq!(
        auth(other.received_requests().await.unwrap_or_default()),
        vec![("/listed.png".into(), true), ("/logo.svg".into(), false)]
    );

    let mut snapshot = redact_ports(&answer.body);
    snapshot["preview"]["lastModified"] = json!("[time]");
    snapshot["preview"]["contentBusId"] = json!("[hash of the source URL]");
    for list in ["fetch", "images"] {
        for entry in snapshot["trace"][list].as_array_mut().expect("entries") {
            entry["elapsedMs"] = json!("[ms]");
        }
    }
    insta::assert_json_snapshot!("page-response", snapshot);

    let (status, content_type, markdown) = host_get(&server, "/news/launch.md").await;
    assert_eq!(
        (status, content_type.as_deref()),
        (StatusCode::OK, Some("text/markdown; charset=utf-8"))
    );
    insta::assert_snapshot!("page-markdown", redact(&String::from_utf8_lossy(&markdown)));
    let (_, _, plain) = host_get(&server, "/news/launch.plain.html").await;
    insta::assert_snapshot!("page-plain", redact(&String::from_utf8_lossy(&plain)));
    let (_, _, served) = host_get(&server, "/news/launch").await;
    assert!(String::from_utf8_lossy(&served).contains("<script nonce=\""));
    let (_, page) = host_page(&server, "/news/launch").await;
    assert!(
        page.contains("<script src=\"/scripts/aem.js\" type=\"module\"></script>"),
        "head.html: {page}"
    );
    insta::assert_snapshot!("page-html", redact(&page));

    // The page and its plain body are the stored markdown rendered as the platform renders
    // it, with the site's head.html: the bytes `siteops ingest --format html --head` gives.
    let markdown = String::from_utf8_lossy(&markdown).to_string();
    let canonical = page
        .split("<link rel=\"canonical\" href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a canonical link");
    let options = PageOptions {
        url: url::Url::parse(canonical).unwrap(),
        head_html: Some("<script src=\"/scripts/aem.js\" type=\"module\"></script>".into()),
        delivery: Default::default(),
    };
    assert_eq!(page, page_html(&markdown, &options));
    // The platform's `.plain.html` starts with the newline `rehype-format` puts first.
    assert_eq!(
        String::from_utf8_lossy(&plain),
        format!("\n{}", plain_html(&markdown))
    );

    // Every stored image is served at the page's folder with its type.
    for name in answer.body["preview"]["media"].as_array().expect("media") {
        let name = name.as_str().expect("name");
        let (status, content_type, _) = host_get(&server, &format!("/news/{name}")).await;
        let expected = if name.ends_with(".svg") {
            "image/svg+xml"
        } else {
            "image/png"
        };
        assert_eq!(
            (status, content_type.as_deref()),
            (StatusCode::OK, Some(expected)),
            "{name}"
        );
    }
    let hero_name = answer.body["trace"]["images"][0]["storedAs"]
        .as_str()
        .expect("hero");
    let (_, _, bytes) = host_get(&server, &format!("/news/{hero_name}")).await;
    assert_eq!(bytes, hero);
}

#[tokio::test]
async fn an_invalid_svg_fails_the_preview_and_keeps_nothing() {
    let source = MockServer::start().await;
    Mock::given(path("/p"))
        .respond_with(html(
            r#"<html><body><main><div><img src="/bad.svg"></div></main></body></html>"#,
        ))
        .mount(&source)
        .await;
    Mock::given(path("/bad.svg"))
        .respond_with(image(
            b"<svg><script>alert(1)</script></svg>".to_vec(),
            "image/svg+xml",
        ))
        .mount(&source)
        .await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(404))
        .mount(&source)
        .await;
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;
    let (answer, body) = preview(&server, &root, "/p", &[]).await;
    assert_eq!(answer.status, StatusCode::CONFLICT);
    assert!(body.is_empty());
    let expected = format!(
        "the image {}/bad.svg: the SVG contains a script element",
        source.uri()
    );
    assert_eq!(answer.error.as_deref(), Some(expected.as_str()));
    let (status, _, _) = host_get(&server, "/p").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Ports of the test servers, in rendered text.
fn redact(text: &str) -> String {
    let port = regex::Regex::new(r"(127\.0\.0\.1|localhost):\d+").expect("regex");
    port.replace_all(text, "$1:[port]").into_owned()
}

#[tokio::test]
async fn ingestion_errors_answer_400() {
    let source = MockServer::start().await;
    let bad = r#"<html><head><script type="application/ld+json">{"broken": </script></head><body><main><div>x</div></main></body></html>"#;
    Mock::given(path("/ld"))
        .respond_with(html(bad))
        .mount(&source)
        .await;
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;
    let (answer, body) = preview(&server, &root, "/ld", &[]).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(body.is_empty());
    assert_eq!(answer.error.as_deref(), Some("invalid json-ld"));
}

/// A page nested past the limit previews: the elements deeper than 512 levels are left
/// out, the rest of the page is kept, and the preview's warnings say so.
#[tokio::test]
async fn a_page_nested_too_deeply_previews_without_its_deepest_elements() {
    let source = MockServer::start().await;
    let depth = 600;
    let body = format!(
        "<html><body><main><div><p>before</p>{}<p>deepest</p>{}<p>after</p></div></main></body></html>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    Mock::given(path("/deep"))
        .respond_with(html(&body))
        .mount(&source)
        .await;
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;
    let (answer, _) = preview(&server, &root, "/deep", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(
        answer.body["warnings"],
        json!(["elements nested more than 256 levels deep are left out"])
    );
    let (status, _, page) = host_get(&server, "/deep.plain.html").await;
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8(page).expect("utf-8");
    assert!(
        page.contains("<p>before</p>") && page.contains("<p>after</p>"),
        "{page}"
    );
    assert!(!page.contains("deepest"), "{page}");
}

/// Issue 28: a page that starts with a byte-order mark previews as on the platform, whose
/// parser reads the mark as text before `<html>`: `head` ends there, so its title, meta tags
/// and JSON-LD (here invalid, which would otherwise refuse the page) are not read, and the
/// preview's warnings say why.
#[tokio::test]
async fn a_byte_order_mark_ends_the_head_and_the_warnings_say_so() {
    let source = MockServer::start().await;
    let body = "\u{feff}<html lang=\"en\"><head><title>Lost</title><meta name=\"description\" content=\"lost\">\
                <script type=\"application/ld+json\">{\"broken\": </script></head>\
                <body><main><div><h1>Kept</h1></div></main></body></html>";
    Mock::given(path("/bom"))
        .respond_with(html(body))
        .mount(&source)
        .await;
    let content = json!({"source": {"url": source.uri(), "type": "markup"}});
    let (server, root) = site_with(content, Value::Null, Limits::default()).await;
    let (answer, _) = preview(&server, &root, "/bom", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    let warnings = answer.body["warnings"]
        .as_array()
        .expect("warnings")
        .clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let warning = warnings[0].as_str().expect("a message");
    assert!(
        warning.contains("byte-order mark (U+FEFF)")
            && warning.contains("3 title, meta and JSON-LD"),
        "{warning}"
    );
    let (status, _, page) = host_get(&server, "/bom").await;
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8(page).expect("utf-8");
    assert!(page.contains("<title>Kept</title>"), "{page}");
    assert!(page.contains("<html lang=\"en\">"), "{page}");
    assert!(!page.contains("Lost") && !page.contains("lost"), "{page}");
}

/// Issue 14, finding 8: the reference keeps `javascript:` and `data:text/html` links in the
/// page and in `.plain.html`, and so does siteops; the preview host serves both with a
/// content security policy under which such a link runs nothing (no `unsafe-inline`), the
/// code's own scripts carrying the answer's nonce.
#[tokio::test]
async fn script_links_are_kept_as_the_reference_keeps_them_and_stopped_by_the_policy() {
    let source = MockServer::start().await;
    let body = "<html><body><main><div><p><a href=\"javascript:alert(1)\">js</a> \
                <a href=\"data:text/html,<script>alert(2)</script>\">data</a></p></div></main></body></html>";
    Mock::given(any())
        .respond_with(html(body))
        .mount(&source)
        .await;
    let (server, root) = site_with(
        json!({"source": {"url": format!("{}/docs", source.uri()), "type": "markup"}}),
        Value::Null,
        Limits::default(),
    )
    .await;
    let (answer, _) = preview(&server, &root, "/links", &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    // What the reference pipeline renders (helix-html2md 2.2.4, helix-html-pipeline 6.32.3).
    let expected = "<a href=\"javascript:alert(1)\">js</a> \
                    <a href=\"data:text/html,%3Cscript%3Ealert(2)%3C/script%3E\">data</a>";
    for path in ["/links", "/links.plain.html"] {
        let (policy, page) = host_page(&server, path).await;
        assert!(page.contains(expected), "{path}: {page}");
        assert!(policy.starts_with("script-src 'self' 'nonce-"), "{policy}");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
    }
}
