//! How many round trips to object storage a view of a stored preview costs: two
//! instances on one in-memory object store (what a bucket does, conditional writes and
//! all), the first one's calls counted and held round by round
//! ([`crate::store::counting`]); and what the first one answers after changes made
//! through the second.

use std::sync::Arc;
use std::time::Duration;

use object_store::memory::InMemory;
use url::Url;

use super::{RunningServer, ServerConfig, start_on};
use crate::auth::Claims;
use crate::preview::Trace;
use crate::preview::store::PreviewRecord;
use crate::store::counting::Counting;
use crate::store::{CACHE_BYTES, CachedStore, ObjectStoreBackend, Store, StoreLocation, keys};

const ADMIN: &str = "admin@acme.example";
const HOST: &str = "main--web--acme.localhost";
const MEDIA: &str = "media_0123456789abcdef0123456789abcdef01234567.png";
/// Long enough for the calls made together to have all arrived.
const SETTLE: Duration = Duration::from_millis(40);

fn config(url: &Url) -> ServerConfig {
    ServerConfig::on_loopback(StoreLocation::Url(url.clone()), vec![ADMIN.to_string()])
}

/// Stores revision `revision` of the page `/` (its markdown says `text`) as a save does.
async fn store_page(store: &dyn Store, revision: &str, text: &str) {
    let page = keys::preview_page("acme", "web", "main", "/");
    let markdown = format!("{text}\n\n![](./{MEDIA})\n");
    store
        .put(page.file(revision, "page.md").as_str(), markdown.as_bytes())
        .await
        .expect("the page's file");
    let record = PreviewRecord {
        web_path: "/".into(),
        resource_path: "/index.md".into(),
        kind: "page".into(),
        revision: revision.into(),
        files: vec!["page.md".into()],
        source: "primary".into(),
        source_url: "https://content.example/index".into(),
        source_last_modified: None,
        last_modified: "2026-01-01T00:00:00Z".into(),
        content_bus_id: "0".repeat(40),
        media: vec![MEDIA.into()],
        trace: Trace::default(),
        warnings: Vec::new(),
    };
    let bytes = serde_json::to_vec(&record).expect("a record");
    store.put(&page.record(), &bytes).await.expect("the record");
}

/// The rounds of a view: without the calls of the instance's own background work (its
/// look for code sync jobs to take over, at start and then now and then).
fn of_view(rounds: Vec<Vec<String>>) -> Vec<Vec<String>> {
    rounds
        .into_iter()
        .map(|round| {
            round
                .into_iter()
                .filter(|call| call != "list jobs")
                .collect::<Vec<_>>()
        })
        .filter(|round| !round.is_empty())
        .collect()
}

struct Views {
    client: reqwest::Client,
}

impl Views {
    async fn get(&self, server: &RunningServer, path: &str) -> (u16, String) {
        let response = self
            .client
            .get(format!("http://{}{path}", server.addr))
            .header("host", HOST)
            .send()
            .await
            .expect("answered");
        let status = response.status().as_u16();
        (status, response.text().await.expect("a body"))
    }

    async fn admin(
        &self,
        server: &RunningServer,
        method: reqwest::Method,
        path: &str,
        body: &str,
    ) -> u16 {
        let now = crate::time::now_seconds();
        let token = server.state.key.sign(&Claims {
            sub: ADMIN.into(),
            iat: now,
            exp: now + 600,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        });
        let mut request = self
            .client
            .request(method, format!("http://{}/admin{path}", server.addr))
            .header("x-auth-token", token);
        if !body.is_empty() {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        request.send().await.expect("answered").status().as_u16()
    }
}

#[tokio::test]
async fn a_repeated_view_of_a_stored_page_is_one_round_trip_and_sees_every_change() {
    let bucket: Arc<InMemory> = Arc::new(InMemory::new());
    let url = Url::parse("s3://bucket/shared").expect("a URL");
    let backend =
        || -> Arc<dyn Store> { Arc::new(ObjectStoreBackend::new(bucket.clone(), url.clone())) };
    let counting = Arc::new(Counting::new(backend()));
    let counted: Arc<dyn Store> = Arc::new(CachedStore::new(counting.clone(), CACHE_BYTES));
    let other: Arc<dyn Store> = Arc::new(CachedStore::new(backend(), CACHE_BYTES));
    let a = start_on(config(&url), counted)
        .await
        .expect("the first instance");
    let b = start_on(config(&url), other.clone())
        .await
        .expect("the second instance");
    let views = Views {
        client: reqwest::Client::new(),
    };
    other
        .put(&keys::site("acme", "web"), br#"{"version":1}"#)
        .await
        .expect("the site");
    store_page(other.as_ref(), "r1", "one").await;
    other
        .put(
            keys::preview_media("acme", "web", "main", MEDIA).as_str(),
            b"\x89PNG",
        )
        .await
        .expect("an image");

    let site = format!("get {}", keys::site("acme", "web"));
    // The site's profile `default` is read with its document, in the same round (the
    // site takes it when it exists).
    let profile = format!("get {}", keys::profile("acme", "default"));
    let record = format!(
        "get {}",
        keys::preview_page("acme", "web", "main", "/").record()
    );
    let file = format!(
        "get {}",
        keys::preview_page("acme", "web", "main", "/").file("r1", "page.md")
    );
    // The records of the sheets every page reads (none previewed here), read with the
    // page's: the page is rendered at the view, with the site's sheets of now.
    let sheet = |path: &str| {
        format!(
            "get {}",
            keys::preview_page("acme", "web", "main", path).record()
        )
    };
    let mut first_round = vec![
        profile.clone(),
        site.clone(),
        record.clone(),
        sheet("/metadata.json"),
        sheet("/redirects.json"),
    ];
    first_round.sort();
    // The first view: the site (and its profile) and the records together, then the
    // revision's markdown.
    let ((status, body), rounds) = counting.rounds_of(views.get(&a, "/"), SETTLE).await;
    assert_eq!((status, body.contains("one")), (200, true), "{body}");
    assert_eq!(of_view(rounds), [first_round.clone(), vec![file]]);
    // Again: the markdown is immutable, and comes from memory.
    let ((status, body), rounds) = counting.rounds_of(views.get(&a, "/"), SETTLE).await;
    assert_eq!((status, body.contains("one")), (200, true), "{body}");
    assert_eq!(of_view(rounds), [first_round]);
    // An image seen before: the site document (and its profile) only.
    views.get(&a, &format!("/{MEDIA}")).await;
    let ((status, _), rounds) = counting
        .rounds_of(views.get(&a, &format!("/{MEDIA}")), SETTLE)
        .await;
    assert_eq!(status, 200);
    assert_eq!(of_view(rounds), [vec![profile.clone(), site.clone()]]);

    // Changes through the other instance are seen at the next view.
    store_page(other.as_ref(), "r2", "two").await;
    let (status, body) = views.get(&a, "/").await;
    assert_eq!((status, body.contains("two")), (200, true), "{body}");
    let deleted = views
        .admin(&b, reqwest::Method::DELETE, "/preview/acme/web/main/", "")
        .await;
    assert_eq!(deleted, 204);
    assert_eq!(views.get(&a, "/").await.0, 404);
    store_page(other.as_ref(), "r3", "three").await;
    assert_eq!(views.get(&a, "/").await.0, 200);
    let protected = views
        .admin(
            &b,
            reqwest::Method::POST,
            "/config/acme/sites/web/access.json",
            r#"{"admin":{"requireAuth":true}}"#,
        )
        .await;
    assert_eq!(protected, 200);
    assert_eq!(views.get(&a, "/").await.0, 401);
    assert_eq!(views.get(&a, &format!("/{MEDIA}")).await.0, 401);
    a.stop().await.expect("stopped");
    b.stop().await.expect("stopped");
}
