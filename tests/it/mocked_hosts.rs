//! Issue 44: one mock turned all of `serve` offline. A mock for one host made every other
//! host's request fail (`<img src="about:error">`), and the dashboard showed the page
//! green. Now the mocks stand in only for the hosts they name, the rest goes to the
//! network; `--offline` keeps every request on the mocks; the dashboard says which, and a
//! page whose images failed is a warning that names them.
//!
//! Every host stays on loopback: the "network" image host is a name the test's transport
//! resolves to a loopback server, or a loopback address itself.

use std::path::Path;
use std::sync::Arc;

use base64::Engine;
use reqwest::StatusCode;
use siteops_live::offline::Mode;
use siteops_live::{Live, Target, reload};
use siteops_server::preview::{ReqwestTransport, Transport, TransportError};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::TestServer;
use crate::serve_process::{Serve, get_on as get};
use crate::support::example_copy;

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const HOST: &str = "main--website--acme.localhost";

/// An image server on loopback, answering `/hero.png`.
async fn image_server() -> MockServer {
    let server = MockServer::start().await;
    let png = base64::engine::general_purpose::STANDARD
        .decode(PNG)
        .expect("base64");
    Mock::given(path("/hero.png"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(png, "image/png"))
        .mount(&server)
        .await;
    server
}

/// Adds the page `/hero` to acme/website (its source, `cms.acme.example`, is mocked),
/// with the image `image` and `og:image` on it.
fn add_hero_page(root: &Path, image: &str) {
    let html = format!(
        "<html><head><title>Hero</title><meta property=\"og:image\" content=\"{image}\"></head>\
         <body><main><div><h1>Hero</h1><p><img src=\"{image}\" alt=\"hero\"></p></div></main></body></html>"
    );
    let mapping = serde_json::json!({
        "name": "page-hero",
        "request": {
            "method": "GET",
            "host": {"equalTo": "cms.acme.example"},
            "url": "/delivery/website/hero.html?tenant=acme"
        },
        "response": {
            "status": 200,
            "headers": {"Content-Type": "text/html; charset=utf-8"},
            "body": html
        }
    });
    std::fs::write(
        root.join("sites/acme/website/mocks/mappings/page-hero.json"),
        serde_json::to_vec_pretty(&mapping).expect("json"),
    )
    .expect("write the mapping");
}

/// The dashboard's trace link of its newest preview.
fn newest_trace(dashboard: &str) -> String {
    let start = dashboard
        .find("href=\"/.siteops/previews/")
        .expect("a trace link")
        + "href=\"".len();
    let end = start + dashboard[start..].find('"').expect("its end");
    dashboard[start..end].to_string()
}

/// `text` from `start` to the end of the first `end` after it.
fn between<'t>(text: &'t str, start: &str, end: &str) -> &'t str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {text}"));
    let to = from + text[from..].find(end).expect("its end") + end.len();
    &text[from..to]
}

/// The `<section id="previews">` of the dashboard.
fn previews(dashboard: &str) -> &str {
    let start = dashboard.find("id=\"previews\"").expect("previews");
    let end = start + dashboard[start..].find("</section>").expect("its end");
    &dashboard[start..end]
}

/// In process, with the image host a name (`media.tealco.test`) resolved to loopback:
/// the user's case, a mock for the worker's endpoint and a real image host.
#[tokio::test]
async fn mocks_answer_their_hosts_and_the_network_the_rest() {
    let images = image_server().await;
    let port = images.address().port();
    let image = format!("http://media.tealco.test:{port}/hero.png");
    let repo = example_copy();
    add_hero_page(repo.path(), &image);
    let network: Arc<dyn Transport> = Arc::new(ReqwestTransport::with_hosts(&[(
        "media.tealco.test",
        [127, 0, 0, 1].into(),
    )]));
    for mode in [Mode::Mocks, Mode::Offline] {
        let (server, live) =
            TestServer::start_live_in(repo.path().to_path_buf(), &[], mode, network.clone()).await;
        reload(&live, &Target::of(&server.server)).await;
        let before = images.received_requests().await.expect("recorded").len();
        let own = server.server.addr.port();
        let (status, page) = get(own, HOST, "/hero").await;
        assert_eq!(status, StatusCode::OK, "{mode:?}: {page}");
        let fetched = images.received_requests().await.expect("recorded").len() - before;
        let (_, dashboard) = get(own, "localhost", "/").await;
        let (_, trace) = get(own, "localhost", &newest_trace(&dashboard)).await;
        let listed = previews(&dashboard);
        match mode {
            Mode::Mocks => {
                assert_eq!(fetched, 1, "the image came from the network");
                assert!(!page.contains("about:error"), "{page}");
                assert!(
                    dashboard.contains("<b>mocks</b> for the hosts"),
                    "{dashboard}"
                );
                assert!(
                    dashboard.contains("<code class=\"mocked\">cms.acme.example</code>"),
                    "{dashboard}"
                );
                assert!(!dashboard.contains(">media.tealco.test<"), "{dashboard}");
                assert!(listed.contains("class=\"state ok\""), "{listed}");
                insta::assert_snapshot!(
                    "mocked-hosts-outgoing",
                    between(&dashboard, "<section id=\"outgoing\">", "</section>")
                );
                // The page from its mock, the image from the network.
                assert!(
                    trace.contains(
                        "the mock `page-hero` (sites/acme/website/mocks/mappings/page-hero.json)"
                    ),
                    "{trace}"
                );
                assert!(
                    trace.contains("<td class=\"answered\">the network</td>"),
                    "{trace}"
                );
            }
            _ => {
                assert_eq!(fetched, 0, "offline, nothing goes out");
                assert!(page.contains("about:error"), "{page}");
                assert!(dashboard.contains("<b>offline</b>"), "{dashboard}");
                assert_warns(listed, &image);
                let state = between(listed, "<td class=\"state warn\">", "</td>")
                    .replace(&port.to_string(), "[port]");
                insta::assert_snapshot!("mocked-hosts-warning", state);
                assert!(trace.contains("refused: no mock matches"), "{trace}");
                assert!(trace.contains("id=\"failed-images\""), "{trace}");
            }
        }
    }
}

/// A page whose image failed is a warning on the dashboard, naming the URL and why.
fn assert_warns(previews: &str, image: &str) {
    assert!(previews.contains("class=\"state warn\""), "{previews}");
    assert!(!previews.contains("class=\"state ok\""), "{previews}");
    assert!(previews.contains("1 image failed"), "{previews}");
    assert!(
        previews.contains(&format!(
            "<code>{image}</code>: offline: no mock matches GET {image}"
        )),
        "{previews}"
    );
}

/// The real binary, in its default mode: the loopback image is fetched and the trace
/// and dashboard say where each request went.
#[tokio::test]
async fn serve_by_default_fetches_what_no_mock_names() {
    let images = image_server().await;
    let image = format!("http://127.0.0.1:{}/hero.png", images.address().port());
    let repo = example_copy();
    add_hero_page(repo.path(), &image);
    let data = tempfile::tempdir().expect("temp dir");
    let serve = Serve::start_in_default_mode(repo.path(), data.path());
    let (status, page) = get(serve.port, HOST, "/hero").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(!page.contains("about:error"), "{page}");
    assert_eq!(images.received_requests().await.expect("recorded").len(), 1);
    let (_, dashboard) = get(serve.port, "localhost", "/").await;
    assert!(
        dashboard.contains("<b>the network</b> for the rest"),
        "{dashboard}"
    );
    assert!(
        previews(&dashboard).contains("class=\"state ok\""),
        "{dashboard}"
    );
    let (_, trace) = get(serve.port, "localhost", &newest_trace(&dashboard)).await;
    assert!(trace.contains("the mock `page-hero`"), "{trace}");
    assert!(
        trace.contains("<td class=\"answered\">the network</td>"),
        "{trace}"
    );
}

/// The real binary with `--offline`: an image on a host no mock names fails without a
/// request leaving the machine, and the dashboard's page is a warning naming it.
#[tokio::test]
async fn serve_offline_fails_the_image_and_warns() {
    let image = "https://media.tealco.example/hero.jpg";
    let repo = example_copy();
    add_hero_page(repo.path(), image);
    let data = tempfile::tempdir().expect("temp dir");
    let serve = Serve::start(repo.path(), data.path());
    let (status, page) = get(serve.port, HOST, "/hero").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("<img src=\"about:error\""), "{page}");
    let (_, dashboard) = get(serve.port, "localhost", "/").await;
    assert!(dashboard.contains("<b>offline</b>"), "{dashboard}");
    assert_warns(previews(&dashboard), image);
}

/// The example sites' hosts are all mocked: `serve`'s default mode on them (the README's
/// demo) never reaches the network. Every known page of every site is previewed through a
/// network that refuses, and records, whatever is not loopback.
#[tokio::test]
async fn the_example_sites_never_leave_the_machine_by_default() {
    #[derive(Debug, Default)]
    struct Refusing {
        asked: std::sync::Mutex<Vec<String>>,
        local: ReqwestTransport,
    }
    impl Transport for Refusing {
        fn get(
            &self,
            request: siteops_server::preview::OutgoingRequest,
        ) -> siteops_server::preview::transport::BoxFuture<
            '_,
            Result<siteops_server::preview::IncomingResponse, TransportError>,
        > {
            if siteops_live::offline::is_local(&request.url) {
                return self.local.get(request);
            }
            self.asked
                .lock()
                .expect("asked")
                .push(request.url.to_string());
            Box::pin(async { Err(TransportError::Refused("the network, in a test".into())) })
        }
    }
    let repo = example_copy();
    let network = Arc::new(Refusing::default());
    let (server, live) =
        TestServer::start_live_in(repo.path().to_path_buf(), &[], Mode::Mocks, network.clone())
            .await;
    reload(&live, &Target::of(&server.server)).await;
    let own = server.server.addr.port();
    let mut previewed = 0;
    for (site, paths) in known_pages(&live) {
        let host = format!("main--{}--{}.localhost", site.site, site.org);
        for path in paths {
            get(own, &host, &path).await;
            previewed += 1;
        }
    }
    assert!(previewed > 10, "{previewed} pages");
    assert_eq!(
        *network.asked.lock().expect("asked"),
        Vec::<String>::new(),
        "requests to hosts no mock names"
    );
}

fn known_pages(live: &Live) -> Vec<(siteops_config::model::SiteId, Vec<String>)> {
    use siteops_live::pages::PageKind;
    let snapshot = live.snapshot.read().expect("snapshot");
    snapshot
        .pages
        .iter()
        .map(|(site, pages)| {
            let paths = pages
                .iter()
                .filter(|page| !matches!(page.kind, PageKind::NeedsHeaders(_)))
                .map(|page| page.path.clone())
                .collect();
            (site.clone(), paths)
        })
        .collect()
}
