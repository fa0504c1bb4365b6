//! `siteops mocks record`: pages recorded from wiremock sources (a markup source that
//! wants `Authorization`, a worker JSON endpoint, an image host), then previewed offline
//! from the written mocks with those servers gone, with the same results as online.
//!
//! The services get ordinary names (`cms.test`, `api.test`, `img.test`) that the
//! recording transport resolves to 127.0.0.1: loopback is never recorded nor mocked, so
//! the names keep them external while everything stays on this machine.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use base64::Engine as _;
use reqwest::StatusCode;
use siteops_config::model::SiteId;
use siteops_live::offline::OfflineTransport;
use siteops_live::record::{Recording, record};
use siteops_live::{Live, SERVE_SUBJECT, Target, reload};
use siteops_server::auth::Claims;
use siteops_server::preview::{ReqwestTransport, Transport};
use siteops_server::server::{RunningServer, ServerConfig, start};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SOURCE_AUTH: &str = "token SOURCE-SECRET-1f3a";
pub(crate) const API_KEY: &str = "sk-live-77c2";
/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn png() -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(PNG)
        .expect("base64")
}

struct Services {
    cms: MockServer,
    api: MockServer,
    img: MockServer,
}

impl Services {
    async fn start() -> Services {
        let (cms, api, img) = (
            MockServer::start().await,
            MockServer::start().await,
            MockServer::start().await,
        );
        let img_origin = format!("http://img.test:{}", img.address().port());
        let about = format!(
            "<html><head><title>About us</title></head><body><main><div><h1>About</h1>\
             <p>We boil water.</p><p><img src=\"/assets/team.png\" alt=\"The team\"></p>\
             <p><img src=\"{img_origin}/media/hero.png\" alt=\"Hero\"></p></div></main></body></html>"
        );
        // Only with the source's credentials: a request without them gets 401.
        Mock::given(method("GET"))
            .and(path("/delivery/web/about.html"))
            .and(query_param("tenant", "acme"))
            .and(header("authorization", SOURCE_AUTH))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_raw(about.into_bytes(), "text/html; charset=utf-8")
                    .insert_header("x-html2md-img-src", img_origin.as_str())
                    .insert_header("last-modified", "Tue, 01 Apr 2025 10:00:00 GMT")
                    .insert_header("set-cookie", "session=do-not-record"),
            )
            .mount(&cms)
            .await;
        Mock::given(path("/assets/team.png"))
            .respond_with(ResponseTemplate::new(200).set_body_raw(png(), "image/png"))
            .mount(&cms)
            .await;
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(401))
            .mount(&cms)
            .await;
        Mock::given(path("/products/7.json"))
            .and(header("x-api-version", "2"))
            .and(header("x-api-key", API_KEY))
            .respond_with(ResponseTemplate::new(200).set_body_raw(
                br#"{"name": "Kettle 7", "price": "49.90", "image": "/media/p7.png"}"#.to_vec(),
                "application/json",
            ))
            .mount(&api)
            .await;
        Mock::given(path("/media/p7.png"))
            .respond_with(ResponseTemplate::new(200).set_body_raw(png(), "image/png"))
            .mount(&img)
            .await;
        Mock::given(path("/media/hero.png"))
            .respond_with(ResponseTemplate::new(200).set_body_raw(png(), "image/png"))
            .mount(&img)
            .await;
        Services { cms, api, img }
    }

    fn port(server: &MockServer) -> u16 {
        server.address().port()
    }

    /// The real network, with the three names resolved to the wiremock servers.
    fn network(&self) -> Arc<dyn Transport> {
        let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
        Arc::new(ReqwestTransport::with_hosts(&[
            ("cms.test", local),
            ("api.test", local),
            ("img.test", local),
        ]))
    }

    /// Text with the services' ports as `[cms]`, `[api]`, `[img]`.
    fn redact(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (server, name) in [
            (&self.cms, "[cms]"),
            (&self.api, "[api]"),
            (&self.img, "[img]"),
        ] {
            text = text.replace(&format!(":{}", Services::port(server)), &format!(":{name}"));
        }
        text
    }
}

/// A repository with one site, acme/web: pages from `cms.test` (overlay: the bundled
/// worker, whose `/products/` entry reads `api.test` with an API key and puts images on
/// `img.test`).
fn repository(services: &Services) -> tempfile::TempDir {
    let origin =
        |name: &str, server: &MockServer| format!("http://{name}:{}", Services::port(server));
    site_repository(
        &origin("cms.test", &services.cms),
        &origin("api.test", &services.api),
        &origin("img.test", &services.img),
    )
}

/// The repository of [`repository`] with the three services at the given origins.
pub(crate) fn site_repository(cms: &str, api: &str, img: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = [
        (
            "siteops.toml",
            "transform_url = \"https://transform.acme.example\"\n".to_string(),
        ),
        (
            "sites/acme/web/site.toml",
            format!(
                "version = 1\n\n[code]\nowner = \"acme\"\nrepo = \"web\"\n\n[code.source]\n\
                 type = \"github\"\nurl = \"https://github.com/acme/web\"\n\n[content.source]\n\
                 url = \"{cms}/delivery/web?tenant=acme\"\ntype = \"markup\"\n\
                 suffix = \".html\"\n\n[content.overlay]\nurl = \"{{transform_url}}/acme/web/main\"\n\
                 type = \"markup\"\n"
            ),
        ),
        (
            "sites/acme/web/transform/main.toml",
            format!(
                "[[entry]]\npath = \"/products/\"\nregex = '/\\d+$/'\n\
                 endpoint = \"{api}/products/{{{{id}}}}.json\"\n\
                 template = \"/templates/product.html\"\nrelativeURLPrefix = \"{img}\"\n\
                 headers = {{ \"x-api-version\" = \"2\", \"x-api-key\" = \"{API_KEY}\" }}\n\
                 examples = [\"/products/7\"]\n"
            ),
        ),
        (
            "sites/acme/web/templates/product.html",
            "<!DOCTYPE html>\n<html><head><title>{{name}}</title></head><body><main><div>\
             <h1>{{name}}</h1><p>{{price}}</p><p><img src=\"{{image}}\" alt=\"{{name}}\"></p>\
             </div></main></body></html>\n"
                .to_string(),
        ),
    ];
    for (file, content) in files {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(path, content).expect("write");
    }
    dir
}

pub(crate) const PAGES: [&str; 2] = ["/about", "/products/7"];

fn site() -> SiteId {
    SiteId {
        org: "acme".into(),
        site: "web".into(),
    }
}

/// The bundled server with the repository at `root` applied, fetching through `transport`
/// (`None`: offline, from the repository's mocks, as `serve --offline`).
pub(crate) async fn serve(
    root: &Path,
    transport: Option<Arc<dyn Transport>>,
) -> (RunningServer, tempfile::TempDir) {
    let data = tempfile::tempdir().expect("temp dir");
    let live = Arc::new(Live::new(root.to_path_buf(), transport.is_none()));
    let mocks = live.clone();
    let transport = transport
        .unwrap_or_else(|| Arc::new(OfflineTransport::new(Arc::new(move || mocks.mocks()))));
    let server = start(ServerConfig {
        addr: "127.0.0.1:0".parse().expect("address"),
        store: siteops_server::store::StoreLocation::Dir(data.path().to_path_buf()),
        org_admins: vec![SERVE_SUBJECT.into()],
        preview_limits: Default::default(),
        preview_transport: Some(transport),
        session: None,
        allowed_hosts: Vec::new(),
        connection_limits: Default::default(),
        quotas: Default::default(),
        sign_in: Default::default(),
    })
    .await
    .expect("server starts");
    reload(&live, &Target::of(&server)).await;
    let snapshot = live.snapshot.read().expect("snapshot");
    assert_eq!(snapshot.error, None, "{}", snapshot.diagnostics);
    drop(snapshot);
    (server, data)
}

/// Each page previewed (with the source's credentials when given), then its markdown,
/// page and plain HTML as the preview host serves them, the server's port redacted.
pub(crate) async fn rendered(
    server: &RunningServer,
    authorization: Option<&str>,
) -> BTreeMap<String, String> {
    let now = siteops_server::time::now_seconds();
    let token = server.state.key.sign(&Claims {
        sub: SERVE_SUBJECT.into(),
        iat: now,
        exp: now + 600,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    });
    let client = reqwest::Client::new();
    let port = format!(":{}", server.addr.port());
    let mut out = BTreeMap::new();
    for page in PAGES {
        let mut request = client
            .post(format!(
                "http://{}/admin/preview/acme/web/main{page}",
                server.addr
            ))
            .header("x-auth-token", &token);
        if let Some(authorization) = authorization {
            request = request.header("x-content-source-authorization", authorization);
        }
        let response = request.send().await.expect("answered");
        let error = response.headers().get("x-error").cloned();
        assert_eq!(response.status(), StatusCode::OK, "{page}: {error:?}");
        for variant in [".md", "", ".plain.html"] {
            let served = client
                .get(format!("http://{}{page}{variant}", server.addr))
                .header("host", format!("main--web--acme.localhost{port}"))
                .send()
                .await
                .expect("served");
            assert_eq!(served.status(), StatusCode::OK, "{page}{variant}");
            let text = served.text().await.expect("text");
            out.insert(format!("{page}{variant}"), text.replace(&port, ":[port]"));
        }
    }
    out
}

/// Every file under `dir`, by relative path, sorted.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.file_type().expect("type").is_dir() {
                walk(&entry.path(), &format!("{name}/"), out);
            } else {
                out.insert(name, std::fs::read(entry.path()).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

#[tokio::test]
async fn recorded_pages_replay_offline_with_the_same_results() {
    let services = Services::start().await;
    let repo = repository(&services);

    let (online, online_data) = serve(repo.path(), Some(services.network())).await;
    let expected = rendered(&online, Some(SOURCE_AUTH)).await;
    online.stop().await.expect("stops");
    drop(online_data);
    assert!(
        expected["/about.md"].contains("We boil water."),
        "{expected:?}"
    );
    assert!(
        expected["/products/7.md"].contains("Kettle 7"),
        "{expected:?}"
    );

    let paths: Vec<String> = PAGES.iter().map(|p| p.to_string()).collect();
    let authorization = http::HeaderValue::from_static(SOURCE_AUTH);
    let site = site();
    let recording = Recording {
        root: repo.path(),
        site: &site,
        branch: "main",
        paths: &paths,
        authorization: Some(&authorization),
    };
    let report = record(&recording, services.network())
        .await
        .expect("recorded");
    assert!(report.all_pages_previewed(), "{:?}", report.pages);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    // The overlay is the bundled worker on 127.0.0.1: asked for both pages, not recorded.
    assert_eq!(report.local_requests, 2);
    let requests: Vec<String> = report
        .written
        .iter()
        .map(|w| format!("{} -> {}", w.request, w.status))
        .collect();
    assert_eq!(
        requests,
        [
            "GET api.test/products/7.json -> 200",
            "GET cms.test/assets/team.png -> 200",
            "GET cms.test/delivery/web/about.html?tenant=acme -> 200",
            "GET img.test/media/hero.png -> 200",
            "GET img.test/media/p7.png -> 200",
        ]
        .map(String::from),
        "{:#?}",
        report.written
    );

    let mocks = repo.path().join("sites/acme/web/mocks");
    let written = files(&mocks);
    let mut snapshot = String::new();
    for (file, content) in &written {
        assert!(!file.starts_with('.'), "a temporary file is left: {file}");
        let text = String::from_utf8_lossy(content);
        for secret in [SOURCE_AUTH, "SOURCE-SECRET", API_KEY, "do-not-record"] {
            assert!(!text.contains(secret), "{file} holds {secret}: {text}");
        }
        let shown = if file.ends_with(".png") {
            format!("<{} bytes of PNG>", content.len())
        } else {
            services.redact(&text)
        };
        snapshot.push_str(&format!("== {file}\n{shown}\n"));
    }
    insta::assert_snapshot!("recorded-mocks", snapshot);

    // Recording again overwrites the same files: nothing new appears. A hand-written
    // stub that answers a recorded request first (of equal priority, it is loaded later:
    // its file sorts after the recorded ones) is named in a warning.
    let hand = mocks.join("mappings/z-hand-written.json");
    std::fs::write(
        &hand,
        r#"{"name": "hand", "request": {"host": {"equalTo": "cms.test"}, "urlPathPattern": "/delivery/.*"}, "response": {"status": 404}}"#,
    )
    .expect("write");
    let again = record(&recording, services.network())
        .await
        .expect("recorded again");
    assert_eq!(again.written, report.written);
    let about = report
        .written
        .iter()
        .find(|w| w.request.contains("about.html"))
        .expect("the page's stub");
    assert_eq!(
        again.warnings,
        [format!(
            "GET cms.test/delivery/web/about.html?tenant=acme is answered by `hand` \
             (sites/acme/web/mocks/mappings/z-hand-written.json) before {}: delete that mapping \
             or give ours a priority",
            about.mapping
        )]
    );
    std::fs::remove_file(&hand).expect("remove");
    assert_eq!(files(&mocks), written);

    // The services are gone: every request is answered from the mocks.
    drop(services);
    let (offline, _data) = serve(repo.path(), None).await;
    let replayed = rendered(&offline, None).await;
    assert_eq!(replayed, expected);
    offline.stop().await.expect("stops");
}

fn siteops(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("SITEOPS_LOG", "warn")
        .output()
        .expect("siteops runs")
}

#[tokio::test]
async fn the_command_previews_and_reports_what_it_wrote() {
    let source = MockServer::start().await;
    Mock::given(path("/delivery/web/about.html"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            b"<html><body><main><div><p>Local</p></div></main></body></html>".to_vec(),
            "text/html",
        ))
        .mount(&source)
        .await;
    let services = Services::start().await;
    let repo = repository(&services);
    // A source on 127.0.0.1 is fetched but, like the bundled worker, not recorded.
    let site_file = repo.path().join("sites/acme/web/site.toml");
    let text = std::fs::read_to_string(&site_file).expect("read");
    let local = format!("http://127.0.0.1:{}/", source.address().port());
    let cms = format!("http://cms.test:{}/", Services::port(&services.cms));
    std::fs::write(&site_file, text.replace(&cms, &local)).expect("write");
    let root = repo.path().to_str().expect("UTF-8 path").to_string();
    let run = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            siteops(&args)
        })
    };

    let output = run(&["mocks", "record", "acme/web", "/about", "--root", &root])
        .await
        .expect("ran");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    insta::assert_snapshot!("record-local-only", stdout);
    assert!(!repo.path().join("sites/acme/web/mocks").exists());

    let unset = "SITEOPS_TEST_UNSET_VARIABLE";
    let cases: [(&[&str], &str); 4] = [
        (
            &["mocks", "record", "acme", "/about", "--root", &root],
            "`acme` is not a site: write ORG/SITE",
        ),
        (
            &["mocks", "record", "acme/nosuch", "/about", "--root", &root],
            "acme/nosuch is not a site of the repository",
        ),
        (
            &[
                "mocks",
                "record",
                "acme/web",
                "/about",
                "--root",
                &root,
                "--source-auth-env",
                unset,
            ],
            "$SITEOPS_TEST_UNSET_VARIABLE is not set",
        ),
        (&["mocks", "record", "acme/web"], "required"),
    ];
    for (args, message) in cases {
        let output = run(args).await.expect("ran");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
