//! The cap on the bytes a site's previews hold in the store, over real HTTP: previews within
//! it succeed, the one past it gets 507 and changes nothing, re-previews with new images
//! do not add up, and removing previews gives room back. After every step the usage the
//! service counts is what its data directory holds.

use std::path::Path;

use reqwest::StatusCode;
use siteops_server::preview::Limits;
use siteops_server::quota::Quotas;
use wiremock::matchers::path;
use wiremock::{Mock, MockServer};

use super::downloads::{image, png};
use super::{host_get, html, preview};
use crate::harness::{ORG_ADMIN, TestServer};

/// The cap of these tests' site: two pages of two 10,000-byte images fit, a third page of
/// four does not.
const CAP: u64 = 80_000;
const IMAGE: usize = 10_000;

/// The bytes of the files under `dir`, at any depth, but the usage document.
fn disk_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .map(|entry| entry.expect("entry"))
        .filter(|entry| entry.file_name() != "usage.json")
        .map(|entry| {
            let kind = entry.file_type().expect("type");
            if kind.is_dir() {
                disk_bytes(&entry.path())
            } else {
                entry.metadata().expect("metadata").len()
            }
        })
        .sum()
}

/// A page showing the images `names`, each `IMAGE` bytes filled with `fill`.
async fn mount_page(source: &MockServer, page: &str, names: &[&str], fill: u8) {
    let images: String = names
        .iter()
        .map(|name| format!("<img src=\"/{name}.png\">"))
        .collect();
    Mock::given(path(page))
        .respond_with(html(&format!(
            "<html><body><main><div><p>{images}</p></div></main></body></html>"
        )))
        .mount(source)
        .await;
    for (at, name) in names.iter().enumerate() {
        // Each image its own bytes: no two share a stored file.
        let mut fill = vec![fill; IMAGE - 24];
        fill[0] = at as u8;
        fill[1] = name.as_bytes()[0];
        Mock::given(path(format!("/{name}.png")))
            .respond_with(image(png(2, 2, &fill), "image/png"))
            .mount(source)
            .await;
    }
}

/// What the site's usage document says is stored, after checking that nothing is held and
/// that it is what the data directory holds.
async fn stored(server: &TestServer) -> u64 {
    let previews = server.server.state.previews();
    let usage = previews
        .service()
        .usage("acme", "web")
        .current()
        .await
        .expect("usage");
    assert!(usage.holds.is_empty(), "{usage:?}");
    assert_eq!(
        usage.stored,
        disk_bytes(&server.data.join("preview/acme/web")),
        "the count is what the store holds"
    );
    usage.stored
}

fn media(answer: &crate::harness::Answer) -> Vec<String> {
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.error);
    answer.body["preview"]["media"]
        .as_array()
        .expect("media")
        .iter()
        .map(|name| name.as_str().expect("a name").to_string())
        .collect()
}

#[tokio::test]
async fn a_sites_previews_stay_under_their_cap_and_give_room_back() {
    let source = MockServer::start().await;
    let quotas = Quotas {
        preview_bytes_per_site: CAP,
        ..Quotas::default()
    };
    let server = TestServer::start_with_quotas(quotas, Limits::default()).await;
    let root = server.token(ORG_ADMIN);
    let site = serde_json::json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"type": "markup", "url": source.uri()}},
    });
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &site)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    mount_page(&source, "/a", &["a1", "a2"], 1).await;
    mount_page(&source, "/b", &["b1", "b2"], 2).await;
    mount_page(&source, "/c", &["c1", "c2", "c3", "c4"], 3).await;

    // Within the cap: both stored, each byte counted.
    let a = media(&preview(&server, &root, "/a", &[]).await.0);
    let one_page = stored(&server).await;
    assert!(one_page > 2 * IMAGE as u64, "{one_page}");
    media(&preview(&server, &root, "/b", &[]).await.0);
    let two_pages = stored(&server).await;
    assert!(
        two_pages > 4 * IMAGE as u64 && two_pages < CAP,
        "{two_pages}"
    );
    assert!(
        two_pages + 4 * IMAGE as u64 > CAP,
        "the third page cannot fit"
    );

    // Past the cap: 507 naming the cap, the site and what is used; nothing stored.
    let (refused, body) = preview(&server, &root, "/c", &[]).await;
    assert_eq!(refused.status, StatusCode::INSUFFICIENT_STORAGE);
    assert!(body.is_empty(), "a preview error has an empty body");
    let message = refused.error.expect("x-error");
    let expected = format!(
        "no room for this preview: the previews of site acme/web may hold 78.1 KiB (80000 bytes) and hold {:.1} KiB ({two_pages} bytes); it needs ",
        two_pages as f64 / 1024.0
    );
    assert!(message.starts_with(&expected), "{message}");
    assert!(
        message.ends_with("more. Delete previews the site no longer needs (DELETE /admin/preview/acme/web/<branch>/<path>), or raise the cap (siteops serve --max-preview-bytes-per-site)"),
        "{message}"
    );
    assert_eq!(
        stored(&server).await,
        two_pages,
        "the images it wrote are gone"
    );
    let (status, _, _) = host_get(&server, "/c").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A page whose new version does not fit stays as it was, still served.
    source.reset().await;
    mount_page(&source, "/a", &["a1", "a2"], 1).await;
    mount_page(&source, "/b", &["b1", "b2", "b3", "b4", "b5", "b6"], 4).await;
    mount_page(&source, "/c", &["c1", "c2", "c3", "c4"], 3).await;
    let (refused, _) = preview(&server, &root, "/b", &[]).await;
    assert_eq!(
        refused.status,
        StatusCode::INSUFFICIENT_STORAGE,
        "{:?}",
        refused.error
    );
    assert_eq!(stored(&server).await, two_pages);
    let (status, _, page) = host_get(&server, "/a").await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&page).contains(&a[0]));
    let (status, _, _) = host_get(&server, &format!("/{}", a[1])).await;
    assert_eq!(status, StatusCode::OK);
    let stored_b = server.get("/admin/preview/acme/web/main/b", &root).await;
    assert_eq!(
        stored_b.body["preview"]["media"].as_array().map(Vec::len),
        Some(2)
    );

    // Re-previews with other images of the same size: what they replace goes, the count
    // stays (but for the record's few bytes of timings).
    let mut previous = a.clone();
    for fill in 5..8 {
        source.reset().await;
        mount_page(&source, "/a", &["a1", "a2"], fill).await;
        let now = media(&preview(&server, &root, "/a", &[]).await.0);
        assert!(
            now.iter().all(|name| !previous.contains(name)),
            "new images"
        );
        for gone in &previous {
            let (status, _, _) = host_get(&server, &format!("/{gone}")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{gone} was collected");
        }
        let usage = stored(&server).await;
        assert!(
            usage.abs_diff(two_pages) < 200,
            "{usage} against {two_pages}"
        );
        previous = now;
    }

    // Removing a page's preview gives its bytes back; then the third page fits.
    let before = stored(&server).await;
    let removed = server.delete("/admin/preview/acme/web/main/a", &root).await;
    assert_eq!(
        removed.status,
        StatusCode::NO_CONTENT,
        "{:?}",
        removed.error
    );
    let after = stored(&server).await;
    assert!(before - after > 2 * IMAGE as u64, "{before} then {after}");
    let gone = server.get("/admin/preview/acme/web/main/a", &root).await;
    assert_eq!(gone.body["preview"]["status"], 404);
    let (status, _, _) = host_get(&server, "/a").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = host_get(&server, &format!("/{}", previous[0])).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "its images went too");
    let again = server.delete("/admin/preview/acme/web/main/a", &root).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert_eq!(again.error.as_deref(), Some("/a has not been previewed"));
    mount_page(&source, "/c", &["c1", "c2", "c3", "c4"], 3).await;
    assert_eq!(media(&preview(&server, &root, "/c", &[]).await.0).len(), 4);
    assert!(stored(&server).await <= CAP);

    // Deleting the site removes its previews and their count.
    let deleted = server
        .delete("/admin/config/acme/sites/web.json", &root)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert!(!server.data.join("preview/acme/web").exists());
}
