//! Golden renders of every worker entry of the example sites: the repository is compiled,
//! the site and its worker configuration go to the bundled service, the templates into its
//! code store, and each entry's `examples` are rendered from the JSON of the site's mocks
//! (`sites/<org>/<site>/mocks/mappings/*.json`, WireMock stub mappings), one mock server
//! per mocked host. A template, entry or mock change shows as a snapshot diff.

use std::collections::BTreeMap;
use std::path::Path;

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops::codesync::code_key;
use siteops::compile::{ResourceKind, Secrets, compile};
use siteops::repo::RepoFiles;
use siteops::validate::{Options, validate};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::support::repo_root;

/// Headers the example requests send, for entries that forward them.
const REQUEST_HEADERS: &[(&str, &str)] = &[("tenant", "acme-eu"), ("x-market", "ch")];

#[tokio::test]
async fn every_example_entry_renders_as_recorded() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let repo = RepoFiles::load(&repo_root()).expect("repository loads");
    let validation = validate(&repo, &Options::default());
    assert!(!validation.has_errors(), "{:?}", validation.diagnostics);
    // The worker key is a token for the site, so the template of an entry of a site that
    // requires authentication can be read; other secrets get fixed test values.
    let key = server.token_with("worker@acme.example", "acme/website", 3600);
    let lookup = move |name: &str| {
        Some(match name {
            "ACME_TEMPLATE_API_KEY" => key.clone(),
            other => format!("test-value-of-{other}"),
        })
    };
    let compiled = compile(&validation.fleet, &Secrets::Lookup(&lookup)).expect("compiles");

    let mut rendered = 0;
    for resource in &compiled.resources {
        let ResourceKind::Worker(branch) = &resource.kind else {
            continue;
        };
        let (org, site) = (&resource.site.org, &resource.site.site);
        let site_dir = repo_root().join("sites").join(org).join(site);
        let mocks = MockHosts::start(&site_dir.join("mocks/mappings")).await;

        let site_body = compiled
            .resources
            .iter()
            .find(|r| r.site == resource.site && r.kind == ResourceKind::Site)
            .expect("the site of a worker configuration is compiled")
            .body
            .clone();
        let created = server
            .post(
                &format!("/admin/config/{org}/sites/{site}.json"),
                &root,
                &site_body,
            )
            .await;
        assert_eq!(created.status, StatusCode::OK, "{:?}", created.error);
        // The site's other documents (secrets, access, code, public mappings) after it.
        for document in compiled.resources.iter().filter(|r| {
            r.site == resource.site
                && !matches!(r.kind, ResourceKind::Site | ResourceKind::Worker(_))
        }) {
            let posted = server
                .post(
                    &format!("/admin/config/{}", document.path()),
                    &root,
                    &document.body,
                )
                .await;
            assert_eq!(
                posted.status,
                StatusCode::OK,
                "{}: {:?}",
                document.path(),
                posted.error
            );
        }
        let code = &site_body["code"];
        let (owner, repo_name) = (
            code["owner"].as_str().expect("owner"),
            code["repo"].as_str().expect("repo"),
        );
        for template in std::fs::read_dir(site_dir.join("templates")).expect("templates") {
            let template = template.expect("entry").path();
            let name = template.file_name().and_then(|n| n.to_str()).expect("name");
            let text = std::fs::read(&template).expect("template");
            let key = code_key(owner, repo_name, branch, &format!("templates/{name}"));
            server.server.state.store.put(&key, &text).expect("stored");
        }

        let entries = mocks.redirect(&resource.body);
        let posted = server
            .client
            .post(server.url(&format!("/transform/config/{org}/{site}/{branch}")))
            .header("authorization", format!("token {root}"))
            .body(entries.to_string())
            .send()
            .await
            .expect("answered");
        assert_eq!(posted.status(), StatusCode::OK);

        let model = validation
            .fleet
            .sites
            .iter()
            .find(|s| s.id == resource.site)
            .expect("the site is modelled");
        for entry in &model.transform[branch] {
            assert!(
                !entry.examples.is_empty(),
                "{} has no example",
                entry.entry.path
            );
            for page in &entry.examples {
                let mut request = server
                    .client
                    .get(server.url(&format!("/transform/{org}/{site}/{branch}{page}")));
                for (name, value) in REQUEST_HEADERS {
                    request = request.header(*name, *value);
                }
                let response = request.send().await.expect("answered");
                let status = response.status();
                let error = response.headers().get("x-error").cloned();
                let html = response.text().await.expect("body");
                assert_eq!(status, StatusCode::OK, "{page}: {error:?}");
                let name = format!("{org}_{site}_{branch}{}", page.replace('/', "_"));
                insta::assert_snapshot!(name, html);
                rendered += 1;
            }
        }
    }
    // Every entry of the acme/website example has at least one example.
    assert!(rendered >= 8, "only {rendered} pages rendered");
}

/// One mock server per host named by a site's stub mappings.
struct MockHosts {
    servers: BTreeMap<String, MockServer>,
}

impl MockHosts {
    async fn start(mappings: &Path) -> MockHosts {
        let mut servers: BTreeMap<String, MockServer> = BTreeMap::new();
        let mut files: Vec<_> = std::fs::read_dir(mappings)
            .expect("mock mappings")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let stub: Value =
                serde_json::from_slice(&std::fs::read(&file).expect("mapping")).expect("JSON");
            let request = &stub["request"];
            let host = request["host"]["equalTo"]
                .as_str()
                .expect("a host")
                .to_string();
            let url = request["url"].as_str().expect("a url");
            let (url_path, query) = url.split_once('?').unwrap_or((url, ""));
            let mut mock = Mock::given(method(request["method"].as_str().unwrap_or("GET")))
                .and(path(url_path));
            for (name, value) in query.split('&').filter_map(|p| p.split_once('=')) {
                mock = mock.and(query_param(name, value));
            }
            for (name, matcher) in request["headers"].as_object().into_iter().flatten() {
                let value = matcher["equalTo"].as_str().expect("equalTo");
                mock = mock.and(header(name.as_str(), value));
            }
            let response = &stub["response"];
            let status = response["status"].as_u64().unwrap_or(200) as u16;
            let server = match servers.get(&host) {
                Some(server) => server,
                None => servers.entry(host).or_insert(MockServer::start().await),
            };
            mock.respond_with(ResponseTemplate::new(status).set_body_json(&response["jsonBody"]))
                .mount(server)
                .await;
        }
        MockHosts { servers }
    }

    /// The worker entries with every `https://<mocked host>` replaced by its mock server.
    fn redirect(&self, entries: &Value) -> Value {
        let mut text = entries.to_string();
        for (host, server) in &self.servers {
            text = text.replace(&format!("https://{host}"), &server.uri());
        }
        let redirected: Value = serde_json::from_str(&text).expect("still JSON");
        assert_ne!(redirected, json!(null));
        redirected
    }
}
