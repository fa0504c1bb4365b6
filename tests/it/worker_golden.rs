//! Golden renders of every worker entry of the example sites: the repository applied to
//! the bundled service as `siteops serve --offline` applies it (sites, worker
//! configuration, templates into the code store), each entry's `examples` rendered from
//! the JSON of the site's mocks (`sites/<org>/<site>/mocks/`, WireMock stub mappings).
//! A template, entry or mock change shows as a snapshot diff.

use reqwest::StatusCode;

use crate::harness::TestServer;
use crate::support::repo_root;

/// Headers the example requests send, for entries that forward them.
const REQUEST_HEADERS: &[(&str, &str)] = &[("tenant", "acme-eu"), ("x-market", "ch")];

#[tokio::test]
async fn every_example_entry_renders_as_recorded() {
    // The session stays alive for the whole test: its mocks answer the worker.
    let (server, _live) = TestServer::start_live(repo_root()).await;
    let repo = siteops_config::repo::RepoFiles::load(&repo_root()).expect("repository loads");
    let validation = siteops_config::validate::validate(&repo, &Default::default());
    let mut rendered = 0;
    for site in &validation.fleet.sites {
        for (branch, entries) in &site.transform {
            for entry in entries {
                assert!(
                    !entry.examples.is_empty(),
                    "{} has no example",
                    entry.entry.path
                );
                for page in &entry.examples {
                    let (org, name) = (&site.id.org, &site.id.site);
                    let mut request = server
                        .client
                        .get(server.url(&format!("/transform/{org}/{name}/{branch}{page}")));
                    for (header, value) in REQUEST_HEADERS {
                        request = request.header(*header, *value);
                    }
                    let response = request.send().await.expect("answered");
                    let status = response.status();
                    let error = response.headers().get("x-error").cloned();
                    let html = response.text().await.expect("body");
                    assert_eq!(status, StatusCode::OK, "{page}: {error:?}");
                    let snapshot = format!("{org}_{name}_{branch}{}", page.replace('/', "_"));
                    insta::assert_snapshot!(snapshot, html);
                    rendered += 1;
                }
            }
        }
    }
    assert!(rendered >= 8, "only {rendered} pages rendered");
}
