//! What the preview host delivers around a page, at the view, as the platform's pipeline
//! does (`siteops-delivery`): metadata sheets, redirects, custom headers, folder mappings,
//! `/index`, the code's `404.html` and static pages with the answer's nonce, `robots.txt`
//! (the preview host's),
//! sheets filtered by `limit`; and the page rendered from its stored markdown with the
//! site's `head.html` of now. Real HTTP: a wiremock markup source, the bundled server.

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::code::CodeRepo;
use siteops_server::store::keys;
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{html, preview};
use crate::harness::{ORG_ADMIN, TestServer};

const HOST: &str = "main--web--acme.localhost";

/// A page whose markdown has a heading and a paragraph.
fn page(title: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body><main><div><h1>{title}</h1>\
         <p>Text of {title}.</p></div></main></body></html>"
    )
}

fn sheet(data: &Value) -> ResponseTemplate {
    let total = data.as_array().map_or(0, Vec::len);
    ResponseTemplate::new(200).set_body_raw(
        serde_json::to_vec(
            &json!({"total": total, "offset": 0, "limit": total, "data": data, ":type": "sheet"}),
        )
        .expect("JSON"),
        "application/json",
    )
}

/// A wiremock source with `pages` (path -> HTML) and `sheets` (path -> rows), and the site
/// acme/web on it, its document with `parts` besides; the server and an admin's token.
async fn delivery_site(
    pages: &[(&str, String)],
    sheets: &[(&str, Value)],
    parts: Value,
) -> (TestServer, String, MockServer) {
    let source = MockServer::start().await;
    for (at, body) in pages {
        Mock::given(path(*at))
            .respond_with(html(body))
            .mount(&source)
            .await;
    }
    for (at, rows) in sheets {
        Mock::given(path(*at))
            .respond_with(sheet(rows))
            .mount(&source)
            .await;
    }
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let mut body = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": source.uri(), "type": "markup"}},
    });
    if let (Some(body), Some(parts)) = (body.as_object_mut(), parts.as_object()) {
        body.extend(parts.clone());
    }
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &body)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    (server, root, source)
}

async fn previewed(server: &TestServer, root: &str, page: &str) {
    let (answer, _) = preview(server, root, page, &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{page}: {:?}", answer.error);
}

/// Puts `file` into acme/web's code on main (the code store, as code sync fills it).
async fn code(server: &TestServer, file: &str, text: &str) {
    let key = keys::code_file("acme", &CodeRepo::new("acme", "web"), "main", file);
    server
        .server
        .state
        .store
        .put(&key, text.as_bytes())
        .await
        .expect("a code file");
}

/// A GET on acme/web's preview host (as a browser sends `Host`), redirects not followed.
async fn get(server: &TestServer, at: &str) -> reqwest::Response {
    siteops_plan::http::install_crypto_provider();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(server.url(at))
        .header("host", format!("{HOST}:{}", server.server.addr.port()))
        .send()
        .await
        .expect("answered")
}

fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The nonce of the host's own policy (the last `content-security-policy`).
fn host_nonce(response: &reqwest::Response) -> String {
    let policies: Vec<&str> = response
        .headers()
        .get_all("content-security-policy")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let policy = policies.last().expect("the host's policy");
    policy
        .split("'nonce-")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .expect("a nonce")
        .to_owned()
}

/// The page is rendered from its stored markdown at each view: an edit of `head.html`
/// shows on the next view, without previewing again; each answer has its own nonce, the
/// platform's shape (18 random bytes, base64).
#[tokio::test]
async fn a_page_is_rendered_at_the_view_with_the_code_of_now() {
    let (server, root, _source) =
        delivery_site(&[("/guide", page("Guide"))], &[], Value::Null).await;
    code(
        &server,
        "head.html",
        "<script src=\"/scripts/one.js\"></script>",
    )
    .await;
    previewed(&server, &root, "/guide").await;
    let first = get(&server, "/guide").await;
    assert_eq!(first.status(), StatusCode::OK);
    let nonce = host_nonce(&first);
    assert_eq!(nonce.len(), 24, "{nonce}");
    let body = first.text().await.expect("text");
    assert!(
        body.contains(&format!(
            "<script nonce=\"{nonce}\" src=\"/scripts/one.js\"></script>"
        )),
        "{body}"
    );
    assert!(body.contains("<h1 id=\"guide\">Guide</h1>"), "{body}");

    code(
        &server,
        "head.html",
        "<script src=\"/scripts/two.js\"></script>",
    )
    .await;
    let second = get(&server, "/guide").await;
    let again = host_nonce(&second);
    assert_ne!(again, nonce);
    let body = second.text().await.expect("text");
    assert!(body.contains("/scripts/two.js"), "{body}");
    assert!(!body.contains("/scripts/one.js"), "{body}");

    // Content only: the body, no nonce.
    let plain = get(&server, "/guide.plain.html").await;
    assert_eq!(plain.status(), StatusCode::OK);
    let plain = plain.text().await.expect("text");
    assert!(plain.contains("<h1 id=\"guide\">Guide</h1>"), "{plain}");
    assert!(!plain.contains("nonce"), "{plain}");
    // The stored markdown, as it was.
    let markdown = get(&server, "/guide.md").await;
    assert_eq!(markdown.status(), StatusCode::OK);
    assert!(markdown.text().await.expect("text").starts_with("# Guide"));
}

#[tokio::test]
async fn a_metadata_sheet_applies_once_previewed() {
    let rows = json!([{"URL": "/**", "description": "From the sheet", "theme": "dark"}]);
    let (server, root, _source) = delivery_site(
        &[("/guide", page("Guide"))],
        &[("/metadata.json", rows)],
        Value::Null,
    )
    .await;
    previewed(&server, &root, "/guide").await;
    let before = get(&server, "/guide").await.text().await.expect("text");
    assert!(!before.contains("From the sheet"), "{before}");
    previewed(&server, &root, "/metadata.json").await;
    let after = get(&server, "/guide").await.text().await.expect("text");
    assert!(
        after.contains("<meta name=\"description\" content=\"From the sheet\">"),
        "{after}"
    );
    assert!(
        after.contains("<meta name=\"theme\" content=\"dark\">"),
        "{after}"
    );
}

#[tokio::test]
async fn a_redirect_of_the_redirects_sheet_answers_301() {
    let rows = json!([{"Source": "/old", "Destination": "/guide"}]);
    let (server, root, _source) = delivery_site(
        &[("/guide", page("Guide"))],
        &[("/redirects.json", rows)],
        Value::Null,
    )
    .await;
    previewed(&server, &root, "/guide").await;
    assert_eq!(get(&server, "/old").await.status(), StatusCode::NOT_FOUND);
    previewed(&server, &root, "/redirects.json").await;
    let moved = get(&server, "/old").await;
    assert_eq!(moved.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(header(&moved, "location").as_deref(), Some("/guide"));
    let plain = get(&server, "/old.plain.html").await;
    assert_eq!(plain.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        header(&plain, "location").as_deref(),
        Some("/guide.plain.html")
    );
    // The page itself is not moved.
    assert_eq!(get(&server, "/guide").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_header_rule_sets_the_pages_headers() {
    let parts = json!({"headers": {
        "/**": [{"key": "x-site", "value": "acme"}],
        "/news/**": [{"key": "cache-control", "value": "max-age=300"}],
    }});
    let (server, root, _source) = delivery_site(
        &[("/guide", page("Guide")), ("/news/launch", page("Launch"))],
        &[],
        parts,
    )
    .await;
    previewed(&server, &root, "/guide").await;
    previewed(&server, &root, "/news/launch").await;
    let guide = get(&server, "/guide").await;
    assert_eq!(header(&guide, "x-site").as_deref(), Some("acme"));
    assert_ne!(
        header(&guide, "cache-control").as_deref(),
        Some("max-age=300")
    );
    let news = get(&server, "/news/launch").await;
    assert_eq!(header(&news, "x-site").as_deref(), Some("acme"));
    assert_eq!(
        header(&news, "cache-control").as_deref(),
        Some("max-age=300")
    );
}

#[tokio::test]
async fn a_folder_mapping_serves_its_page_under_the_folder() {
    let parts = json!({"folders": {"/products/": "/generic-product"}});
    let (server, root, _source) =
        delivery_site(&[("/generic-product", page("Generic Product"))], &[], parts).await;
    previewed(&server, &root, "/generic-product").await;
    let mapped = get(&server, "/products/kettle-pro").await;
    assert_eq!(mapped.status(), StatusCode::OK);
    let body = mapped.text().await.expect("text");
    assert!(body.contains("Generic Product"), "{body}");
    // The platform's canonical links are https.
    let canonical = format!(
        "<link rel=\"canonical\" href=\"https://{HOST}:{}/products/kettle-pro\">",
        server.server.addr.port()
    );
    assert!(body.contains(&canonical), "{body}");
}

#[tokio::test]
async fn index_is_no_page_and_a_missing_page_answers_the_codes_404() {
    let (server, root, _source) =
        delivery_site(&[("/index", page("Home"))], &[], Value::Null).await;
    previewed(&server, &root, "/").await;
    assert_eq!(get(&server, "/").await.status(), StatusCode::OK);
    assert_eq!(get(&server, "/index").await.status(), StatusCode::NOT_FOUND);
    code(
        &server,
        "404.html",
        "<html><head><script src=\"/scripts/404.js\"></script></head><body>Nothing here</body></html>",
    )
    .await;
    let missing = get(&server, "/missing").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let nonce = host_nonce(&missing);
    let body = missing.text().await.expect("text");
    assert!(body.contains("Nothing here"), "{body}");
    assert!(
        body.contains(&format!(
            "<script nonce=\"{nonce}\" src=\"/scripts/404.js\">"
        )),
        "{body}"
    );
}

/// The current boilerplate's `head.html`, in a static page of the code: the delivery
/// gives `aem` the answer's nonce, the host's policy names the same, and no script gets
/// a second.
#[tokio::test]
async fn a_static_page_of_the_code_has_the_answers_nonce() {
    let (server, _root, _source) = delivery_site(&[], &[], Value::Null).await;
    code(
        &server,
        "static.html",
        "<html><head><meta http-equiv=\"content-security-policy\" content=\"script-src 'nonce-aem' 'strict-dynamic'; base-uri 'self'; object-src 'none';\" move-to-http-header=\"true\">\
         <script nonce=\"aem\" src=\"/scripts/aem.js\" type=\"module\"></script></head><body>Static</body></html>",
    )
    .await;
    let answer = get(&server, "/static.html").await;
    assert_eq!(answer.status(), StatusCode::OK);
    let nonce = host_nonce(&answer);
    let policies: Vec<String> = answer
        .headers()
        .get_all("content-security-policy")
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::to_owned))
        .collect();
    assert_eq!(policies.len(), 2, "{policies:?}");
    assert!(
        policies[0].contains(&format!("'nonce-{nonce}' 'strict-dynamic'")),
        "{policies:?}"
    );
    let body = answer.text().await.expect("text");
    assert!(
        body.contains(&format!(
            "<script nonce=\"{nonce}\" src=\"/scripts/aem.js\" type=\"module\">"
        )),
        "{body}"
    );
    assert!(!body.contains("nonce=\"aem\""), "{body}");
    assert_eq!(body.matches("nonce=").count(), 1, "{body}");
}

/// On the preview host `robots.txt` keeps search engines away whatever the site
/// configures, as on the platform's `.aem.page` hosts (the configured text is the
/// production host's).
#[tokio::test]
async fn robots_txt_on_the_preview_host_keeps_robots_away() {
    let parts = json!({"robots": {"txt": "User-agent: *\nAllow: /\n"}});
    let (server, _root, _source) = delivery_site(&[], &[], parts).await;
    let answer = get(&server, "/robots.txt").await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(header(&answer, "content-type").is_some_and(|t| t.starts_with("text/plain")));
    let text = answer.text().await.expect("text");
    assert!(text.ends_with("User-agent: *\nDisallow: /\n"), "{text}");
    assert!(!text.contains("Allow: /\n"), "{text}");
}

#[tokio::test]
async fn a_sheet_is_served_filtered_by_limit() {
    let rows = json!([{"name": "a"}, {"name": "b"}, {"name": "c"}]);
    let (server, root, _source) =
        delivery_site(&[], &[("/query-index.json", rows)], Value::Null).await;
    previewed(&server, &root, "/query-index.json").await;
    let answer = get(&server, "/query-index.json?limit=2&offset=1").await;
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(header(&answer, "content-type").is_some_and(|t| t.starts_with("application/json")));
    let sheet: Value = answer.json().await.expect("JSON");
    assert_eq!(sheet["total"], 3, "{sheet}");
    assert_eq!(sheet["offset"], 1, "{sheet}");
    assert_eq!(sheet["limit"], 2, "{sheet}");
    assert_eq!(
        sheet["data"],
        json!([{"name": "b"}, {"name": "c"}]),
        "{sheet}"
    );
}

/// A site is stamped `created` when it is made, so the delivery knows it is new (and
/// renders it as version 2).
#[tokio::test]
async fn a_new_site_is_stamped_created() {
    let (server, root, _source) = delivery_site(&[], &[], Value::Null).await;
    let site = server.get("/admin/config/acme/sites/web.json", &root).await;
    let created = site.body["created"].as_str().expect("created");
    assert!(created.starts_with("20"), "{created}");
    assert!(created.ends_with('Z'), "{created}");
}

#[tokio::test]
async fn section_metadata_is_on_for_a_new_site_and_off_for_version_1() {
    let page = "<html><body><main><div><p>Hello</p><div class=\"section-metadata\">\
                <div><div>style</div><div>highlight</div></div></div></div></main></body></html>";
    let (server, root, _source) =
        delivery_site(&[("/page", page.to_owned())], &[], Value::Null).await;
    previewed(&server, &root, "/page").await;
    let body = get(&server, "/page").await.text().await.expect("text");
    assert!(body.contains("<div class=\"highlight\">"), "{body}");
    let answer = server
        .post(
            "/admin/config/acme/sites/web/features.json",
            &root,
            &json!({"rendering": {"version": 1}}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    let body = get(&server, "/page").await.text().await.expect("text");
    assert!(body.contains("section-metadata"), "{body}");
}

/// `features.rendering.version` goes from a `site.toml` into the compiled body, the
/// stored document and the pipeline's configuration.
#[tokio::test]
async fn the_rendering_version_goes_from_site_toml_to_the_pipeline() {
    use siteops_config::compile::{Secrets, compile};
    use siteops_config::repo::RepoFiles;

    let repo = crate::support::example_copy();
    let site_toml = repo.path().join("sites/acme/website/site.toml");
    let text = std::fs::read_to_string(&site_toml).expect("site.toml");
    std::fs::write(
        &site_toml,
        format!("{text}\n[features.rendering]\nversion = 2\n"),
    )
    .expect("site.toml");
    let validation =
        crate::support::validate_repo(&RepoFiles::load(repo.path()).expect("repository loads"));
    assert!(!validation.has_errors(), "{:?}", validation.diagnostics);
    let compiled = compile(&validation.fleet, &Secrets::Redacted).expect("compiles");
    let features = compiled
        .resources
        .iter()
        .filter(|resource| resource.path().contains("website"))
        .find_map(|resource| resource.body.get("features").cloned())
        .expect("the site's features");
    assert_eq!(features["rendering"]["version"], 2);

    let (server, _root, _source) = delivery_site(&[], &[], json!({ "features": features })).await;
    let state = &server.server.state;
    let site = siteops_server::sites::load(state.store.as_ref(), "acme", "web")
        .await
        .expect("readable")
        .expect("stored");
    let config = {
        let host = siteops_server::preview::PreviewHost {
            org: "acme".into(),
            site: "web".into(),
            branch: "main".into(),
        };
        siteops_server::preview::delivery::pipeline_config(&state.code, &site, &host).await
    };
    let version = config
        .features
        .and_then(|f| f.rendering)
        .and_then(|r| r.version);
    assert_eq!(version, Some(2.0));
    assert!(config.created.is_some());
}

/// In `serve`, a redirect of the previewed redirects sheet wins over previewing on view,
/// and a page the source does not have, never previewed, is the delivery's to answer: the
/// code's `404.html` (with the reload script).
#[tokio::test]
async fn in_serve_the_redirects_sheet_and_404_html_answer_what_the_source_lacks() {
    let repo = crate::support::example_copy();
    // The source has no such page (without a mock, an offline serve says which mocks
    // come closest instead).
    std::fs::write(
        repo.path().join("sites/acme/website/mocks/mappings/page-missing.json"),
        r#"{"request": {"method": "GET", "host": {"equalTo": "cms.acme.example"},
            "url": "/delivery/website/no-such-page.html?tenant=acme"}, "response": {"status": 404}}"#,
    )
    .expect("mapping");
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let port = server.server.addr.port();
    let browse = |at: &str| {
        siteops_plan::http::install_crypto_provider();
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
            .get(server.url(at))
            .header("host", format!("main--website--acme.localhost:{port}"))
            .send()
    };
    // The redirects page, previewed on view, is a sheet: sent to its JSON.
    let sheet = browse("/redirects").await.expect("answered");
    assert_eq!(sheet.status(), StatusCode::SEE_OTHER);
    let moved = browse("/about-us").await.expect("answered");
    assert_eq!(moved.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(header(&moved, "location").as_deref(), Some("/about"));
    let missing = browse("/no-such-page").await.expect("answered");
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let body = missing.text().await.expect("text");
    let not_found =
        std::fs::read_to_string(repo.path().join("code/acme-website/404.html")).expect("404.html");
    let first_line = not_found
        .lines()
        .find(|l| !l.trim().is_empty())
        .expect("a line");
    assert!(body.contains(first_line.trim()), "{body}");
    assert!(
        body.contains("new EventSource('/.siteops/events')"),
        "{body}"
    );
}
