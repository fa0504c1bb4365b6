//! The demo's dashboard, as the local browser uses it (issue 28): every link it has, and
//! every link of the pages it opens on the preview hosts (`.md`, `.plain.html`, traces,
//! `config.json`, code jobs), answers without an error; no page repeats an id; the
//! pictures are real ones of the size the pages declare. Then what the dashboard and the
//! preview pages say while the repository changes: an org's last site gone, an edit that
//! does not validate.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

use regex::Regex;
use reqwest::StatusCode;
use siteops_live::{Live, Target, reload};
use url::Url;

use crate::harness::{ORG_ADMIN, TestServer};
use crate::serve_process::Serve;
use crate::support::example_copy;

/// One answer of the crawl.
struct Fetched {
    status: StatusCode,
    content_type: String,
    error: String,
    location: Option<String>,
    body: Vec<u8>,
}

/// GETs `url` as a browser on this machine would: `*.localhost` is loopback.
async fn fetch(client: &reqwest::Client, port: u16, url: &Url) -> Fetched {
    let host = url.host_str().expect("a host");
    let mut target = format!("http://127.0.0.1:{port}{}", url.path());
    if let Some(query) = url.query() {
        target.push('?');
        target.push_str(query);
    }
    let response = client
        .get(target)
        .header("host", format!("{host}:{port}"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    Fetched {
        status: response.status(),
        content_type: header("content-type").unwrap_or_default(),
        error: header("x-error").unwrap_or_default(),
        location: header("location"),
        body: response.bytes().await.expect("body").to_vec(),
    }
}

fn unescape(value: &str) -> String {
    value
        .replace("&#x26;", "&")
        .replace("&#38;", "&")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The links of an HTML page a browser follows or loads: `href`, `src` and `srcset`, on
/// this machine (`localhost`, `*.localhost`), without their fragment.
fn links(page: &Url, html: &str) -> Vec<Url> {
    let attribute = Regex::new(r#"(?i)\s(href|src|srcset)\s*=\s*"([^"]*)""#).expect("regex");
    let mut found = Vec::new();
    for capture in attribute.captures_iter(html) {
        let value = unescape(&capture[2]);
        let values: Vec<String> = if capture[1].eq_ignore_ascii_case("srcset") {
            value
                .split(',')
                .filter_map(|c| c.split_whitespace().next().map(str::to_string))
                .collect()
        } else {
            vec![value]
        };
        for value in values {
            let Ok(mut link) = page.join(&value) else {
                continue;
            };
            link.set_fragment(None);
            if is_local(&link) {
                found.push(link);
            }
        }
    }
    found
}

fn is_local(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https")
        && url
            .host_str()
            .is_some_and(|h| h == "localhost" || h.ends_with(".localhost"))
}

/// The ids a page repeats.
fn repeated_ids(html: &str) -> Vec<String> {
    let id = Regex::new(r#"(?i)\sid\s*=\s*"([^"]*)""#).expect("regex");
    let mut seen = BTreeSet::new();
    id.captures_iter(html)
        .map(|c| c[1].to_string())
        .filter(|id| !seen.insert(id.clone()))
        .collect()
}

/// The `<img>` of a page: its `src`, and its declared `width` and `height`.
fn images(html: &str) -> Vec<(String, Option<u32>, Option<u32>)> {
    let tag = Regex::new(r"(?i)<img\s[^>]*>").expect("regex");
    let attribute = |tag: &str, name: &str| {
        Regex::new(&format!(r#"(?i)\s{name}\s*=\s*"([^"]*)""#))
            .expect("regex")
            .captures(tag)
            .map(|c| unescape(&c[1]))
    };
    tag.find_iter(html)
        .map(|m| {
            let tag = m.as_str();
            let size = |name| attribute(tag, name).and_then(|v| v.parse().ok());
            (
                attribute(tag, "src").unwrap_or_default(),
                size("width"),
                size("height"),
            )
        })
        .collect()
}

/// Issue 28: the walk of the demo's dashboard. On main, `/.md` answered 400, the code
/// jobs 401, `/stores/<uuid>` 400, acme/website's `config.json` 404; acme/website's
/// section was there twice; Trail Runner 2's picture was not stored (no mock) and every
/// other one was the same 1×1 PNG.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_link_of_the_demo_answers_with_real_pictures_and_unique_ids() {
    let repo = example_copy();
    let data = tempfile::tempdir().expect("data dir");
    let serve = Serve::start(repo.path(), data.path());
    siteops_plan::http::install_crypto_provider();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let dashboard = Url::parse(&serve.url("localhost", "/")).expect("url");
    let mut seen: BTreeMap<Url, Url> = BTreeMap::new();
    let mut queue = VecDeque::new();
    let mut problems = Vec::new();
    // Every stored picture, by address: its bytes' size in pixels.
    let mut pictures: BTreeMap<Url, Option<(u32, u32)>> = BTreeMap::new();
    // The dashboard twice: the previews the first walk made add their traces to it.
    for _ in 0..2 {
        seen.insert(dashboard.clone(), dashboard.clone());
        queue.push_back((dashboard.clone(), dashboard.clone()));
        while let Some((url, from)) = queue.pop_front() {
            let page = fetch(&client, serve.port, &url).await;
            if page.status.is_client_error() || page.status.is_server_error() {
                problems.push(format!(
                    "{} {url} (linked from {from}): {}",
                    page.status, page.error
                ));
                continue;
            }
            let mut next = Vec::new();
            if page.status.is_redirection() {
                let location = page.location.as_deref().unwrap_or_default();
                next.extend(url.join(location).ok());
            }
            if page.content_type.starts_with("text/html") {
                let html = String::from_utf8_lossy(&page.body);
                let repeated = repeated_ids(&html);
                if !repeated.is_empty() {
                    problems.push(format!("{url} repeats the ids {repeated:?}"));
                }
                if url.host_str().is_some_and(|h| h.ends_with(".localhost")) {
                    for (src, width, height) in images(&html) {
                        let picture = url.join(&src).ok().filter(|p| p.host() == url.host());
                        let Some(mut picture) = picture.filter(|p| {
                            p.path_segments()
                                .and_then(|mut s| s.next_back())
                                .is_some_and(siteops_media::is_media_name)
                        }) else {
                            problems.push(format!("{url}: the picture {src} was not stored"));
                            continue;
                        };
                        picture.set_query(None);
                        if !pictures.contains_key(&picture) {
                            let image = fetch(&client, serve.port, &picture).await;
                            assert_eq!(image.status, StatusCode::OK, "{picture}");
                            let size = siteops_media::dimensions(&image.body);
                            if size.is_none() && !image.content_type.starts_with("image/svg+xml") {
                                problems.push(format!("{picture} is no picture"));
                            }
                            pictures.insert(picture.clone(), size);
                        }
                        if let Some((w, h)) = pictures[&picture] {
                            if w < 100 || h < 100 {
                                problems.push(format!("{url}: {src} is {w}×{h}"));
                            }
                            if (width, height) != (Some(w), Some(h)) {
                                problems.push(format!(
                                    "{url}: {src} is {w}×{h}, the page declares {width:?}×{height:?}"
                                ));
                            }
                        }
                    }
                }
                next.extend(links(&url, &html));
            }
            for link in next {
                if !seen.contains_key(&link) {
                    seen.insert(link.clone(), url.clone());
                    queue.push_back((link, url.clone()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // What was walked: every kind of link the dashboard has.
    let paths: BTreeSet<String> = seen.keys().map(|u| u.path().to_string()).collect();
    for expected in [
        "/index.md",
        "/index.plain.html",
        "/products/1234.md",
        "/products/shoes/98765",
        "/config.json",
        "/content/website/configuration.json",
        "/.siteops/jobs/acme/website/main",
        "/news/2024/04/02/spring-sale",
        "/docs/guides/first-order",
    ] {
        assert!(
            paths.contains(expected),
            "{expected} not walked: {paths:#?}"
        );
    }
    let traces = paths
        .iter()
        .filter(|p| p.starts_with("/.siteops/previews/"));
    assert!(traces.count() >= 10, "{paths:#?}");
    let raster = pictures.values().filter(|size| size.is_some()).count();
    assert!(raster >= 6, "{pictures:#?}");
}

/// Every picture the demo's mocks serve is a real one (not the 1×1 PNG they all were),
/// and small enough for the repository.
#[test]
fn the_demo_pictures_are_real_and_small() {
    let sites = crate::support::repo_root().join("sites");
    let mut pictures = Vec::new();
    collect_pictures(&sites, &mut pictures);
    assert!(pictures.len() >= 8, "{pictures:?}");
    for path in pictures {
        let bytes = std::fs::read(&path).expect("read");
        let (w, h) = siteops_media::dimensions(&bytes)
            .unwrap_or_else(|| panic!("{} has no size in pixels", path.display()));
        assert!(w >= 100 && h >= 100, "{}: {w}×{h}", path.display());
        assert!(
            bytes.len() <= 48 * 1024,
            "{}: {} bytes",
            path.display(),
            bytes.len()
        );
    }
}

fn collect_pictures(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_pictures(&path, found);
        } else if path
            .extension()
            .is_some_and(|e| ["png", "jpg", "jpeg", "gif", "webp"].contains(&&*e.to_string_lossy()))
        {
            found.push(path);
        }
    }
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

async fn reload_once(live: &Live, server: &TestServer) {
    reload(live, &Target::of(&server.server)).await;
}

/// A GET on `host` (a preview host, `localhost`) as the local browser sends it.
async fn browse(server: &TestServer, host: &str, path: &str) -> (StatusCode, String) {
    let port = server.server.addr.port();
    let response = server
        .client
        .get(server.url(path))
        .header("host", format!("{host}:{port}"))
        .send()
        .await
        .expect("answered");
    let status = response.status();
    (status, response.text().await.expect("text"))
}

/// Issue 28: acme/website maps a configuration page to `/config.json`, which answered 404
/// until that page was previewed by hand; now viewing `/config.json` previews it. A page
/// that comes out a sheet is served where sheets are, `<path>.json`.
#[tokio::test]
async fn config_json_previews_the_page_mapped_there() {
    let repo = example_copy();
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;
    for (host, analytics) in [
        ("main--website--acme.localhost", "off"),
        ("main--website-prod--acme.localhost", "on"),
    ] {
        let (status, body) = browse(&server, host, "/config.json").await;
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
        let sheet: serde_json::Value = serde_json::from_str(&body).expect("json");
        assert_eq!(sheet["data"][0]["value"], analytics, "{host}: {sheet}");
    }
    // The sheet as a page: sent to its JSON.
    siteops_plan::http::install_crypto_provider();
    let page = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
        .get(server.url("/content/website/configuration"))
        .header("host", "main--website--acme.localhost")
        .send()
        .await
        .expect("answered");
    assert_eq!(page.status(), StatusCode::SEE_OTHER);
    let location = page.headers()["location"].to_str().expect("text");
    assert_eq!(location, "/content/website/configuration.json");
    let (status, _) = browse(&server, "main--website--acme.localhost", location).await;
    assert_eq!(status, StatusCode::OK);
    // A site without such a mapping answers its public configuration, as before.
    let (status, body) = browse(&server, "main--blog--acme.localhost", "/config.json").await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::OK, r#"{"public":{}}"#)
    );
}

/// Issue 28: the dashboard's "code jobs" was the administration API's, which answered
/// 401 to the local browser (it has no token). The session's own page shows the jobs to
/// whom the dashboard shows (the local browser; beyond this machine, operators only).
#[tokio::test]
async fn code_jobs_are_shown_to_the_local_browser() {
    let repo = example_copy();
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let (_, dashboard) = browse(&server, "localhost", "/").await;
    assert!(
        dashboard.contains("href=\"/.siteops/jobs/acme/website/main\""),
        "{dashboard}"
    );
    let (status, page) = browse(&server, "localhost", "/.siteops/jobs/acme/website/main").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("No code sync job yet"), "{page}");

    // A job started through the API is listed.
    let token = server.token(ORG_ADMIN);
    let started = server
        .post(
            "/admin/code/acme/website/main",
            &token,
            &serde_json::json!({}),
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{started:?}");
    let (status, page) = browse(&server, "localhost", "/.siteops/jobs/acme/website/main").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page.matches("<tr class=\"job\">").count(), 1, "{page}");

    let (status, _) = browse(&server, "localhost", "/.siteops/jobs/acme/nowhere/main").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = browse(&server, "localhost", "/.siteops/jobs/acme/Web_Site/main").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn code_jobs_beyond_this_machine_are_for_operators() {
    let repo = example_copy();
    let (server, _live) =
        TestServer::start_live_allowing(repo.path().to_path_buf(), &["siteops.acme.example"]).await;
    let get = |token: Option<String>| {
        let request = server
            .client
            .get(server.url("/.siteops/jobs/acme/website/main"))
            .header("host", "siteops.acme.example");
        let request = match token {
            Some(token) => request.header("authorization", format!("token {token}")),
            None => request,
        };
        async move { request.send().await.expect("answered").status() }
    };
    assert_eq!(get(None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        get(Some(server.token("web-team@acme.example"))).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(get(Some(server.token(ORG_ADMIN))).await, StatusCode::OK);
}

/// Issue 28: `/stores/<uuid>` was offered as a preview, which always failed: its worker
/// entry needs request headers that a preview does not send. The dashboard says so.
#[tokio::test]
async fn a_page_that_needs_request_headers_is_no_preview_link() {
    let repo = example_copy();
    let (server, _live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let (_, dashboard) = browse(&server, "localhost", "/").await;
    assert!(
        dashboard.contains("needs the request headers tenant, x-market"),
        "{dashboard}"
    );
    assert!(!dashboard.contains("/stores/3F2504E0-4F89-11D3-9A0C-0305E82C3301\""));
}

/// Issue 28: the dashboard said "applied" until refreshed by hand; it now follows the
/// reload events as the preview pages do (the browser test watches it change).
#[tokio::test]
async fn the_dashboard_follows_the_reloads() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let (_, dashboard) = browse(&server, "localhost", "/").await;
    assert!(
        dashboard
            .contains("const made=1,code=\"\";const events=new EventSource('/.siteops/events')"),
        "{dashboard}"
    );
    reload_once(&live, &server).await;
    let (_, dashboard) = browse(&server, "localhost", "/").await;
    assert!(dashboard.contains("const made=2,"), "{dashboard}");
}

/// Issue 28: a preview page gave no sign that the repository did not validate (the last
/// good state was shown as if current). While it does not apply, pages carry a banner
/// that names the problems' count and links to the dashboard.
#[tokio::test]
async fn preview_pages_show_a_banner_while_the_repository_does_not_apply() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let port = server.server.addr.port();
    let (_, page) = browse(&server, "main--website--acme.localhost", "/products/1234").await;
    assert!(!page.contains("siteops-invalid"), "{page}");

    edit(
        repo.path(),
        "sites/acme/blog/site.toml",
        "\"https://cms.acme.example/delivery/blog\"",
        "\"cms.acme.example/blog\"",
    );
    reload_once(&live, &server).await;
    let count = live.snapshot.read().expect("snapshot").diagnostic_count;
    assert!(count >= 1);
    let problems = if count == 1 {
        "(1 problem)".to_string()
    } else {
        format!("({count} problems)")
    };
    for (host, path) in [
        ("main--website--acme.localhost", "/products/1234"),
        // A page whose preview fails shows it too.
        ("main--blog--acme.localhost", "/no-such-page"),
    ] {
        let (_, page) = browse(&server, host, path).await;
        assert!(
            page.contains("<div id=\"siteops-invalid\""),
            "{path}: {page}"
        );
        assert!(
            page.contains(&format!(
                "siteops: the repository does not validate; the last good state stays applied {problems}"
            )),
            "{page}"
        );
        assert!(
            page.contains(&format!("href=\"http://localhost:{port}/\"")),
            "{page}"
        );
    }
    // Not in what is not a page.
    let (_, markdown) = browse(
        &server,
        "main--website--acme.localhost",
        "/products/1234.md",
    )
    .await;
    assert!(!markdown.contains("siteops-invalid"));

    edit(
        repo.path(),
        "sites/acme/blog/site.toml",
        "\"cms.acme.example/blog\"",
        "\"https://cms.acme.example/delivery/blog\"",
    );
    reload_once(&live, &server).await;
    let (_, page) = browse(&server, "main--website--acme.localhost", "/products/1234").await;
    assert!(!page.contains("siteops-invalid"), "{page}");
}

/// Beyond this machine, the banner is for whom the dashboard is: a failure's message can
/// name the server's own paths.
#[tokio::test]
async fn beyond_this_machine_the_banner_is_for_operators() {
    let repo = example_copy();
    let (server, live) =
        TestServer::start_live_allowing(repo.path().to_path_buf(), &["siteops.acme.example"]).await;
    edit(
        repo.path(),
        "sites/acme/blog/site.toml",
        "\"https://cms.acme.example/delivery/blog\"",
        "\"cms.acme.example/blog\"",
    );
    reload_once(&live, &server).await;
    // acme/blog needs no token to be read.
    let view = |token: Option<String>| {
        let request = server
            .client
            .get(server.url("/"))
            .header("host", "main--blog--acme.localhost");
        let request = match token {
            Some(token) => request.header("authorization", format!("token {token}")),
            None => request,
        };
        async move {
            let response = request.send().await.expect("answered");
            assert_eq!(response.status(), StatusCode::OK);
            response.text().await.expect("text")
        }
    };
    // The operator's view previews the page; an anonymous view then reads what is stored
    // (issue 43: anonymous views are reads), without the banner.
    assert!(
        view(Some(server.token(ORG_ADMIN)))
            .await
            .contains("siteops-invalid")
    );
    assert!(!view(None).await.contains("siteops-invalid"));
}

/// Issue 28: removing an org's last site from `sites/` left it on the service (only the
/// repository's orgs were pruned, and that org was no longer one). It goes from the
/// administration API, its preview host and the dashboard.
#[tokio::test]
async fn an_org_whose_last_site_goes_loses_it() {
    let repo = example_copy();
    let (server, live) = TestServer::start_live(repo.path().to_path_buf()).await;
    let token = server.token(ORG_ADMIN);
    let (status, _) = browse(&server, "main--docs--globex.localhost", "/").await;
    assert_eq!(status, StatusCode::OK);

    std::fs::remove_dir_all(repo.path().join("sites/globex")).expect("remove");
    reload_once(&live, &server).await;
    {
        let snapshot = live.snapshot.read().expect("snapshot");
        assert_eq!(snapshot.error, None, "{}", snapshot.diagnostics);
        assert!(
            snapshot
                .changes
                .iter()
                .any(|c| c.contains("globex/sites/docs.json")),
            "{:?}",
            snapshot.changes
        );
    }
    let site = server
        .get("/admin/config/globex/sites/docs.json", &token)
        .await;
    assert_eq!(site.status, StatusCode::NOT_FOUND, "{site:?}");
    let (status, _) = browse(&server, "main--docs--globex.localhost", "/").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Neither its section nor its previews (whose pages are gone).
    let (_, dashboard) = browse(&server, "localhost", "/").await;
    assert!(!dashboard.contains("site-globex-docs"), "{dashboard}");
    assert!(!dashboard.contains("globex/docs (main)"), "{dashboard}");
    assert!(dashboard.contains("acme/website (main)") || dashboard.contains("No preview yet"));
}
