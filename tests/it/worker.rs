//! The transformation worker over real HTTP, with wiremock JSON endpoints: configuration
//! routes and every rendering rule.

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::codesync::code_key;
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{ORG_ADMIN, TestServer, answer};

const CONFIG: &str = "/transform/config/acme/web/main";

/// A site acme/web with code acme/web and the given worker entries; `template` files go
/// into its code store on main.
async fn setup(entries: Value, templates: &[(&str, &str)]) -> (TestServer, String) {
    setup_on(TestServer::start().await, entries, templates).await
}

/// [`setup`] on a server already started.
async fn setup_on(
    server: TestServer,
    entries: Value,
    templates: &[(&str, &str)],
) -> (TestServer, String) {
    let root = server.token(ORG_ADMIN);
    let site = json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "access": {"admin": {"role": {"admin": ["web@acme.example"]}}}
    });
    assert_eq!(
        server
            .put("/admin/config/acme/sites/web.json", &root, &site)
            .await
            .status,
        StatusCode::CREATED
    );
    let posted = post_config(&server, &root, CONFIG, &entries).await;
    assert_eq!(posted.status, StatusCode::OK, "{:?}", posted.error);
    for (file, text) in templates {
        server
            .server
            .state
            .store
            .put(
                &code_key("acme", "acme", "web", "main", file),
                text.as_bytes(),
            )
            .await
            .expect("stored");
    }
    (server, root)
}

async fn post_config(
    server: &TestServer,
    token: &str,
    path: &str,
    entries: &Value,
) -> crate::harness::Answer {
    let request = server
        .client
        .post(server.url(path))
        .header("authorization", format!("token {token}"))
        .body(entries.to_string());
    answer(request.send().await.expect("answered")).await
}

async fn render(
    server: &TestServer,
    page: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, Option<String>, String) {
    let mut request = server
        .client
        .get(server.url(&format!("/transform/acme/web/main{page}")));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("answered");
    let status = response.status();
    let error = response
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    (status, error, response.text().await.expect("text"))
}

async fn endpoint(mock: &MockServer, at: &str, body: Value) {
    Mock::given(method("GET"))
        .and(path(at))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(mock)
        .await;
}

#[tokio::test]
async fn configuration_is_replaced_read_and_checked() {
    let (server, root) = setup(
        json!([{"path": "/", "endpoint": "https://api.example.com/x.json"}]),
        &[],
    )
    .await;
    let got = server.get(CONFIG, &root).await;
    assert_eq!(
        got.body,
        json!([{"path": "/", "endpoint": "https://api.example.com/x.json"}])
    );
    // POST replaces the whole array.
    let replacement =
        json!([{"path": "/p/", "endpoint": "https://api.example.com/{{id}}", "regex": "/\\d+$/"}]);
    assert_eq!(
        post_config(&server, &root, CONFIG, &replacement)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(server.get(CONFIG, &root).await.body, replacement);
    assert_eq!(
        server
            .get("/transform/config/acme/web/feature", &root)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    let bad = [
        (json!([]), "the document: [] has less than 1 item"),
        (
            json!({"path": "/"}),
            "the document must be an array, found a table",
        ),
        (
            json!([{"path": "/p/", "endpoint": "https://api.example.com/{{id}}"}]),
            "/0/endpoint: the endpoint uses {{id}}",
        ),
        (
            json!([{"path": "/p/", "endpoint": "https://x.example/{{headers.tenant}}"}]),
            "not in `forwardHeaders`",
        ),
        (
            json!([{"path": "/p/", "endpoint": "https://x.example/", "colour": "red"}]),
            "unknown key `colour`",
        ),
    ];
    for (body, message) in bad {
        let answer = post_config(&server, &root, CONFIG, &body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer.error.as_deref().is_some_and(|e| e.contains(message)),
            "{body}: {:?}",
            answer.error
        );
    }
    // The token is checked with the administration service.
    let body = json!([{"path": "/", "endpoint": "https://api.example.com/x.json"}]);
    let anonymous = answer(
        server
            .client
            .post(server.url(CONFIG))
            .body(body.to_string())
            .send()
            .await
            .expect("answered"),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        post_config(&server, "not-a-token", CONFIG, &body)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        post_config(&server, &server.token("stranger@x.example"), CONFIG, &body)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        post_config(&server, &server.token("web@acme.example"), CONFIG, &body)
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_page_is_rendered_from_the_endpoint_json_through_the_template() {
    let api = MockServer::start().await;
    endpoint(&api, "/products/1234.json", json!({"name": "Trail <Shoe>", "price": 99.5, "image": "/media/shoe.jpg", "tags": "running, trail"})).await;
    let entries = json!([{
        "path": "/products/", "regex": "/\\d+$/", "endpoint": format!("{}/products/{{{{id}}}}.json", api.uri()),
        "template": "/templates/product.html", "relativeURLPrefix": "https://media.acme.example"
    }]);
    let template = "<html><head><title>{{name}}</title><meta name=\"tags\" content=\"{{tags}}\"></head><body><main><div><h1>{{name}}</h1><p>{{price}}</p><img src=\"{{image}}\"></div></main></body></html>";
    let (server, _) = setup(entries, &[("templates/product.html", template)]).await;
    let (status, error, html) = render(&server, "/products/1234", &[]).await;
    assert_eq!(status, StatusCode::OK, "{error:?}");
    assert_eq!(
        html,
        "<html><head><title>Trail &lt;Shoe&gt;</title><meta property=\"article:tag\" content=\"running\"><meta property=\"article:tag\" content=\"trail\"></head><body><main><div><h1>Trail &lt;Shoe&gt;</h1><p>99.5</p><img src=\"https://media.acme.example/media/shoe.jpg\"></div></main></body></html>"
    );
    assert_eq!(
        render(&server, "/products/abc", &[]).await.0,
        StatusCode::NOT_FOUND,
        "the regex does not match"
    );
    assert_eq!(
        render(&server, "/elsewhere/1", &[]).await.0,
        StatusCode::NOT_FOUND,
        "no entry"
    );
}

#[tokio::test]
async fn headers_are_forwarded_only_when_listed_and_static_headers_are_sent() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(
            "/v1/globex/stores/3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        ))
        .and(query_param("market", "de ch"))
        .and(header("x-api-version", "2"))
        .and(header("tenant", "globex"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"title": "Store"})))
        .mount(&api)
        .await;
    let entries = json!([{
        "path": "/stores/", "regex": "/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i",
        "endpoint": format!("{}/v1/{{{{headers.Tenant}}}}/stores/{{{{id}}}}?market={{{{headers['x-market']}}}}", api.uri()),
        "headers": {"x-api-version": "2"}, "forwardHeaders": ["tenant", "X-Market"]
    }]);
    let (server, _) = setup(entries, &[]).await;
    let page = "/stores/3f2504e0-4f89-11d3-9a0c-0305e82c3301";
    let (status, error, html) = render(
        &server,
        page,
        &[
            ("Tenant", "globex"),
            ("x-market", "de ch"),
            ("cookie", "secret"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{error:?}");
    assert!(
        html.contains("<title>Store</title>"),
        "generic page without a template: {html}"
    );
    let (status, error, _) = render(&server, page, &[("tenant", "globex")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error.as_deref(), Some("missing header x-market"));
}

#[tokio::test]
async fn endpoint_failures_are_502() {
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/broken.json"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/html.json"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>"))
        .mount(&api)
        .await;
    let entries = json!([
        {"path": "/broken", "endpoint": format!("{}/broken.json", api.uri())},
        {"path": "/html", "endpoint": format!("{}/html.json", api.uri())}
    ]);
    let (server, _) = setup(entries, &[]).await;
    let (status, error, _) = render(&server, "/broken", &[]).await;
    assert_eq!(
        (status, error.as_deref()),
        (
            StatusCode::BAD_GATEWAY,
            Some("Failed to fetch endpoint data: 500")
        )
    );
    let (status, error, _) = render(&server, "/html", &[]).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert!(error.is_some_and(|e| e.starts_with("Failed to fetch endpoint data:")));
}

/// Issue 44: when a mock answers the endpoint (serve), the 502 of a body that is not JSON,
/// and of a status that is not 2xx, names the mock and its file: the file to fix.
#[tokio::test]
async fn a_mocked_endpoint_failure_names_the_mock() {
    use siteops_mocks::{MockFile, MockSet};
    let stub = |name: &str, url: &str, status: u16, body: &str| MockFile {
        path: format!("mappings/{name}.json"),
        content: json!({"request": {"url": url}, "response": {"status": status, "body": body}})
            .to_string()
            .into_bytes(),
    };
    let mocks = MockSet::from_files(
        "sites/acme/web/mocks",
        &[
            stub("html", "/html.json", 200, "<html>"),
            stub("gone", "/gone.json", 404, "{}"),
        ],
    )
    .expect("mocks");
    let server = TestServer::start_through(std::sync::Arc::new(
        siteops_live::offline::OfflineTransport::fixed(mocks),
    ))
    .await;
    let entries = json!([
        {"path": "/html", "endpoint": "https://api.acme.example/html.json"},
        {"path": "/gone", "endpoint": "https://api.acme.example/gone.json"}
    ]);
    let (server, _) = setup_on(server, entries, &[]).await;
    let (status, error, _) = render(&server, "/html", &[]).await;
    assert_eq!(
        (status, error.as_deref()),
        (
            StatusCode::BAD_GATEWAY,
            Some(
                "Failed to fetch endpoint data: the response is not JSON (answered by the mock `html`, sites/acme/web/mocks/mappings/html.json)"
            )
        )
    );
    let (status, error, _) = render(&server, "/gone", &[]).await;
    assert_eq!(
        (status, error.as_deref()),
        (
            StatusCode::BAD_GATEWAY,
            Some(
                "Failed to fetch endpoint data: 404 (answered by the mock `gone`, sites/acme/web/mocks/mappings/gone.json)"
            )
        )
    );
}

#[tokio::test]
async fn a_listing_entry_renders_the_record_of_the_page() {
    let api = MockServer::start().await;
    endpoint(&api, "/team.json", json!({"data": [{"path": "/team/jane-doe", "name": "Jane"}, {"path": "/team/joe", "name": "Joe"}]})).await;
    let entries = json!([{"path": "/team/", "endpoint": format!("{}/team.json", api.uri()), "arrayKey": "data", "pathKey": "path", "template": "/templates/member.html"}]);
    let (server, _) = setup(entries, &[("templates/member.html", "<h1>{{name}}</h1>")]).await;
    assert_eq!(
        render(&server, "/team/jane-doe", &[]).await.2,
        "<h1>Jane</h1>"
    );
    assert_eq!(
        render(&server, "/team/nobody", &[]).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_site_with_authentication_gives_templates_only_with_a_valid_key() {
    let api = MockServer::start().await;
    endpoint(
        &api,
        "/events/summer-fest.json",
        json!({"title": "Summer Fest", "description": "Music"}),
    )
    .await;
    let entry = |key: Option<String>| {
        let mut entry = json!({"path": "/events/", "regex": "/(?<=event-)[a-z0-9-]+$/", "endpoint": format!("{}/events/{{{{id}}}}.json", api.uri()), "template": "/templates/event.html"});
        if let Some(key) = key {
            entry["templateApiKey"] = json!(key);
        }
        json!([entry])
    };
    let (server, root) = setup(
        entry(None),
        &[("templates/event.html", "<h1>{{title}}</h1>")],
    )
    .await;
    assert_eq!(
        render(&server, "/events/event-summer-fest", &[]).await.2,
        "<h1>Summer Fest</h1>"
    );
    server
        .post(
            "/admin/config/acme/sites/web/access.json",
            &root,
            &json!({"admin": {"role": {"admin": ["web@acme.example"]}, "requireAuth": "auto"}}),
        )
        .await;
    // The site's pages are no longer public: the worker asks what its preview host asks.
    let (status, error, _) = render(&server, "/events/event-summer-fest", &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{error:?}");
    assert_eq!(
        error.as_deref(),
        Some("acme/web requires authentication: send a token")
    );
    let stranger = server.token("someone@globex.example");
    let auth = |token: &str| format!("token {token}");
    let (status, _, _) = render(
        &server,
        "/events/event-summer-fest",
        &[("authorization", &auth(&stranger))],
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let reader = server.token("web@acme.example");
    let (status, error, generic) = render(
        &server,
        "/events/event-summer-fest",
        &[("authorization", &auth(&reader))],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{error:?}");
    assert!(
        generic.contains("<meta name=\"description\" content=\"Music\">")
            && generic.contains("application/ld+json"),
        "{generic}"
    );
    let key = server.token_with("worker@acme.example", "acme/web", 3600);
    post_config(&server, &root, CONFIG, &entry(Some(key))).await;
    assert_eq!(
        render(
            &server,
            "/events/event-summer-fest",
            &[("authorization", &auth(&reader))]
        )
        .await
        .2,
        "<h1>Summer Fest</h1>"
    );
}

#[tokio::test]
async fn a_preview_of_a_protected_site_still_renders_through_its_own_worker() {
    let api = MockServer::start().await;
    endpoint(
        &api,
        "/events/summer-fest.json",
        json!({"title": "Summer Fest", "description": "Music"}),
    )
    .await;
    let entries = json!([{"path": "/events/", "regex": "/(?<=event-)[a-z0-9-]+$/", "endpoint": format!("{}/events/{{{{id}}}}.json", api.uri())}]);
    let (server, root) = setup(entries, &[]).await;
    // The site's content comes from this server's worker, and only signed-in readers see it.
    let content =
        json!({"source": {"url": server.url("/transform/acme/web/main"), "type": "markup"}});
    let set = server
        .post("/admin/config/acme/sites/web/content.json", &root, &content)
        .await;
    assert_eq!(set.status, StatusCode::OK, "{:?}", set.error);
    server
        .post(
            "/admin/config/acme/sites/web/access.json",
            &root,
            &json!({"admin": {"role": {"admin": ["web@acme.example"]}, "requireAuth": "auto"}}),
        )
        .await;
    assert_eq!(
        render(&server, "/events/event-summer-fest", &[]).await.0,
        StatusCode::UNAUTHORIZED,
        "the worker page itself is refused without a token"
    );
    let admin = server.token("web@acme.example");
    let previewed = server
        .post(
            "/admin/preview/acme/web/main/events/event-summer-fest",
            &admin,
            &json!({}),
        )
        .await;
    assert_eq!(previewed.status, StatusCode::OK, "{:?}", previewed.error);
    let page = server
        .client
        .get(server.url("/events/event-summer-fest.md"))
        .header("host", "main--web--acme.localhost")
        .header("authorization", format!("token {admin}"))
        .send()
        .await
        .expect("answered");
    assert_eq!(page.status(), StatusCode::OK);
    let markdown = page.text().await.expect("text");
    assert!(markdown.contains("Summer Fest"), "{markdown}");
}

#[tokio::test]
async fn mappings_apply_with_use_aem_mapping_and_branches_fall_back_to_main() {
    let api = MockServer::start().await;
    endpoint(
        &api,
        "/news.json",
        json!({"link": "/content/web/products/1"}),
    )
    .await;
    let entries = json!([{"path": "/news/", "endpoint": format!("{}/news.json", api.uri()), "template": "/templates/news.html", "useAEMMapping": true}]);
    let (server, root) = setup(
        entries,
        &[("templates/news.html", "<a href=\"{{link}}\">x</a>")],
    )
    .await;
    server
        .post(
            "/admin/config/acme/sites/web/public.json",
            &root,
            &json!({"paths": {"mappings": ["/content/web/:/"]}}),
        )
        .await;
    assert_eq!(
        render(&server, "/news/a", &[]).await.2,
        "<a href=\"/products/1\">x</a>"
    );
    // A branch without its own configuration uses main's.
    let response = server
        .client
        .get(server.url("/transform/acme/web/feature/news/a"))
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), StatusCode::OK);
    // No configuration at all: 404 naming what is missing, not a server error.
    let none = server
        .client
        .get(server.url("/transform/acme/other/main/x"))
        .send()
        .await
        .expect("answered");
    assert_eq!(none.status(), StatusCode::NOT_FOUND);
    let error = none
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(
        error.contains("no worker configuration for acme/other branch main"),
        "{error}"
    );
}

#[tokio::test]
async fn a_page_past_the_output_limit_is_refused_while_rendering() {
    let limit = siteops_server::worker::render::OUTPUT_LIMIT;
    // 40 items of 32 KB: 1.25 MiB of output through the template, and of generic page.
    let items: Vec<Value> = (0..40)
        .map(|i| json!({"title": format!("{i:02}{}", "x".repeat(32 * 1024))}))
        .collect();
    let api = MockServer::start().await;
    endpoint(&api, "/items.json", json!({"items": items})).await;
    endpoint(&api, "/few.json", json!({"items": &items[..20]})).await;
    let entries = json!([
        {"path": "/listing", "endpoint": format!("{}/items.json", api.uri()), "template": "/templates/list.html"},
        {"path": "/few", "endpoint": format!("{}/few.json", api.uri()), "template": "/templates/list.html"},
        {"path": "/generic", "endpoint": format!("{}/items.json", api.uri())}
    ]);
    let template = "{{#items}}{{{title}}}{{/items}}";
    let (server, _) = setup(entries, &[("templates/list.html", template)]).await;
    let (status, error, body) = render(&server, "/listing", &[]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{error:?}");
    assert_eq!(
        error.as_deref(),
        Some(
            format!("the page of entry 0 (path /listing) would be larger than the worker's output limit of {limit} bytes")
                .as_str()
        )
    );
    assert!(body.len() < 1024, "no partial page is sent");
    let (status, error, _) = render(&server, "/generic", &[]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{error:?}");
    assert!(
        error.is_some_and(|e| e.starts_with("the page of entry 2 (path /generic)")),
        "the generic page has the same limit"
    );
    // Half of it fits, and renders whole.
    let (status, error, html) = render(&server, "/few", &[]).await;
    assert_eq!(status, StatusCode::OK, "{error:?}");
    assert_eq!(html.len(), 20 * (2 + 32 * 1024));
}

#[tokio::test]
async fn a_page_path_past_the_bound_is_refused_before_any_match() {
    let bound = siteops_server::worker::render::MAX_PAGE_PATH;
    let api = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"title": "Event"})))
        .mount(&api)
        .await;
    let entries = json!([{"path": "/events/", "regex": "/(?<=event-)[a-z0-9-]+$/", "endpoint": format!("{}/events/{{{{id}}}}.json", api.uri())}]);
    let (server, _) = setup(entries, &[]).await;
    let page = |len: usize| format!("/events/event-{}", "a".repeat(len - "/events/event-".len()));
    let (status, error, _) = render(&server, &page(bound), &[]).await;
    assert_eq!(status, StatusCode::OK, "{error:?}");
    let (status, error, _) = render(&server, &page(bound + 1), &[]).await;
    assert_eq!(status, StatusCode::URI_TOO_LONG);
    assert_eq!(
        error,
        Some(format!(
            "the page path is {} bytes long; the worker takes at most {bound}",
            bound + 1
        ))
    );
    let asked = api.received_requests().await.expect("recorded").len();
    assert_eq!(
        asked, 1,
        "only the page within the bound reached the endpoint"
    );
}

#[tokio::test]
async fn an_endpoint_whose_origin_holds_a_placeholder_is_refused() {
    let (server, root) = setup(
        json!([{"path": "/", "endpoint": "https://api.example.com/x.json"}]),
        &[],
    )
    .await;
    let entries = json!([{"path": "/p/", "endpoint": "https://{{id}}/data.json", "regex": "/[a-z.]+$/", "headers": {"x-api-key": "secret"}}]);
    let posted = post_config(&server, &root, CONFIG, &entries).await;
    assert_eq!(posted.status, StatusCode::BAD_REQUEST);
    let error = posted.error.unwrap_or_default();
    assert!(
        error.contains("/0/endpoint") && error.contains("scheme, host or port"),
        "{error}"
    );
}

/// An endpoint on loopback that answers every GET, after `delay`, with `body` (JSON), and
/// counts how many requests it holds at once: the most, as it ends.
async fn counting_endpoint(
    body: Vec<u8>,
    delay: std::time::Duration,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let body = Arc::new(body);
    let seen = most.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let (now, most, body) = (now.clone(), most.clone(), body.clone());
            tokio::spawn(async move {
                let held = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(held, Ordering::SeqCst);
                // The request head (a GET has no body); at most 64 KiB of it.
                let mut head = Vec::new();
                let mut buffer = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buffer[..n]),
                    }
                }
                tokio::time::sleep(delay).await;
                let header = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(header.as_bytes()).await;
                let _ = stream.write_all(&body).await;
                let _ = stream.shutdown().await;
                now.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (format!("http://{address}"), seen)
}

/// 32 pages at once whose endpoint answers a large JSON array: each ends 200 or 503, and
/// no more endpoint documents are held at once than the worker's bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoint_documents_held_at_once_are_bounded() {
    let items: Vec<Value> = (0..20_000)
        .map(|i| json!({"path": format!("/p/{i}"), "title": "x".repeat(64)}))
        .collect();
    let body = serde_json::to_vec(&json!({"items": items})).expect("JSON");
    assert!(body.len() > 1024 * 1024, "{}", body.len());
    let (origin, most) = counting_endpoint(body, std::time::Duration::from_millis(200)).await;
    let entries = json!([{"path": "/p/", "endpoint": format!("{origin}/items.json"), "arrayKey": "items", "pathKey": "path"}]);
    let (server, _) = setup(entries, &[]).await;
    let pages = (0..32).map(|i| {
        let request = server
            .client
            .get(server.url(&format!("/transform/acme/web/main/p/{i}")))
            .send();
        async move {
            let response = request.await.expect("answered");
            let status = response.status();
            let error = response
                .headers()
                .get("x-error")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            (status, error)
        }
    });
    let answers = futures_util::future::join_all(pages).await;
    for (status, error) in &answers {
        assert!(
            *status == StatusCode::OK || *status == StatusCode::SERVICE_UNAVAILABLE,
            "{status} {error:?}"
        );
    }
    let bound = siteops_server::worker::bound::parses_at_once();
    let held = most.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        held <= bound,
        "{held} endpoint documents were held at once; the bound is {bound}"
    );
}
