//! What one org, client or site may take of a shared server (issue 14): sites per org,
//! previews at once, the sign-in rate, over real HTTP (the webhook rate: `codesync`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use siteops_server::preview::Limits;
use siteops_server::quota::Quotas;

use crate::admin::sign_in_nonce;
use crate::harness::{ORG_ADMIN, TestServer};

fn site(content_url: &str) -> serde_json::Value {
    json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": content_url, "type": "markup"}},
    })
}

fn retry_after(response: &reqwest::Response) -> Option<u64> {
    response
        .headers()
        .get("retry-after")?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

#[tokio::test]
async fn an_org_holds_at_most_its_quota_of_sites() {
    let quotas = Quotas {
        sites_per_org: 2,
        ..Quotas::default()
    };
    let server = TestServer::start_with_quotas(quotas, Limits::default()).await;
    let root = server.token(ORG_ADMIN);
    let body = site("https://content.acme.example/web");
    for name in ["one", "two"] {
        let path = format!("/admin/config/acme/sites/{name}.json");
        assert_eq!(
            server.put(&path, &root, &body).await.status,
            StatusCode::CREATED
        );
    }
    let third = server
        .put("/admin/config/acme/sites/three.json", &root, &body)
        .await;
    assert_eq!(third.status, StatusCode::CONFLICT);
    assert_eq!(
        third.error.as_deref(),
        Some("acme has 2 sites, the most one org may have (2)")
    );
    let by_post = server
        .post("/admin/config/acme/sites/three.json", &root, &body)
        .await;
    assert_eq!(by_post.status, StatusCode::CONFLICT, "POST creates too");
    // Replacing a site is no new site; another org has its own quota.
    let replaced = server
        .post("/admin/config/acme/sites/one.json", &root, &body)
        .await;
    assert_eq!(replaced.status, StatusCode::OK);
    let other = server
        .put("/admin/config/globex/sites/one.json", &root, &body)
        .await;
    assert_eq!(other.status, StatusCode::CREATED);
}

#[tokio::test]
async fn sign_ins_over_the_rate_get_429_per_client_address() {
    let quotas = Quotas {
        sign_ins_per_minute: 2,
        ..Quotas::default()
    };
    let server = TestServer::start_with_quotas(quotas, Limits::default()).await;
    let sign_in = |client: reqwest::Client, nonce: String| {
        let request = client
            .post(server.url("/admin/profile"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("email=a%40acme.example&nonce={nonce}"));
        async move { request.send().await.expect("answered") }
    };
    // Forged nonces are refused and do not count.
    for _ in 0..4 {
        let forged = sign_in(server.client.clone(), "forged".into()).await;
        assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    }
    for _ in 0..2 {
        let nonce = sign_in_nonce(&server).await;
        assert_eq!(
            sign_in(server.client.clone(), nonce).await.status(),
            StatusCode::OK
        );
    }
    let nonce = sign_in_nonce(&server).await;
    let over = sign_in(server.client.clone(), nonce).await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&over).is_some_and(|s| (1..=30).contains(&s)));
    // Another client address (127.0.0.2 is loopback too) has its own allowance.
    let other = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
        .build()
        .expect("client");
    let nonce = sign_in_nonce(&server).await;
    assert_eq!(sign_in(other, nonce).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn concurrent_creations_do_not_pass_the_org_quota() {
    let quotas = Quotas {
        sites_per_org: 3,
        ..Quotas::default()
    };
    let server = TestServer::start_with_quotas(quotas, Limits::default()).await;
    let root = server.token(ORG_ADMIN);
    let body = site("https://content.acme.example/web");
    let creations = (0..12).map(|n| {
        let path = format!("/admin/config/acme/sites/site-{n}.json");
        let (server, root, body) = (&server, &root, &body);
        async move { server.put(&path, root, body).await.status }
    });
    let statuses = futures_util::future::join_all(creations).await;
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((created, refused), (3, 9), "{statuses:?}");
}

/// A source that accepts and never answers, counting the connections it got: its port.
async fn stalled_source() -> (u16, Arc<AtomicUsize>) {
    let stalled = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = stalled.local_addr().expect("address").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counted = accepted.clone();
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = stalled.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            open.push(stream);
        }
    });
    (port, accepted)
}

#[tokio::test]
async fn previews_beyond_the_concurrency_wait_for_a_turn_within_their_deadline() {
    let (port, accepted) = stalled_source().await;
    let quotas = Quotas {
        concurrent_previews: 1,
        ..Quotas::default()
    };
    let limits = Limits {
        preview_deadline: Duration::from_millis(1000),
        ..Limits::default()
    };
    let server = TestServer::start_with_quotas(quotas, limits).await;
    let root = server.token(ORG_ADMIN);
    let body = site(&format!("http://127.0.0.1:{port}/content"));
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &body)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let preview = |page: &'static str| {
        let request = server
            .client
            .post(server.url(&format!("/admin/preview/acme/web/main/{page}")))
            .header("x-auth-token", &root);
        async move { request.send().await.expect("answered") }
    };
    let second = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let sent = std::time::Instant::now();
        (preview("b").await, sent.elapsed())
    };
    let watch = async {
        tokio::time::sleep(Duration::from_millis(400)).await;
        accepted.load(Ordering::SeqCst)
    };
    let (first, (second, second_took), while_both_wait) = tokio::join!(preview("a"), second, watch);
    assert_eq!(
        while_both_wait, 1,
        "one preview runs, the other waits its turn"
    );
    assert_eq!(
        first.status(),
        StatusCode::GATEWAY_TIMEOUT,
        "the stalled source"
    );
    // The second ran when the first ended, with what was left of its deadline: it ends
    // about one deadline after it was sent (two, were the wait not counted).
    assert_eq!(second.status(), StatusCode::GATEWAY_TIMEOUT);
    assert!(second_took < Duration::from_millis(1500), "{second_took:?}");
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_org_whose_source_stalls_leaves_preview_turns_to_the_other_orgs() {
    let (port, accepted) = stalled_source().await;
    let healthy = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::any())
        .respond_with(crate::preview::html(crate::preview::PAGE))
        .mount(&healthy)
        .await;
    let quotas = Quotas {
        concurrent_previews: 4,
        previews_per_org: 2,
        ..Quotas::default()
    };
    let limits = Limits {
        preview_deadline: Duration::from_millis(2000),
        ..Limits::default()
    };
    let server = TestServer::start_with_quotas(quotas, limits).await;
    let root = server.token(ORG_ADMIN);
    for (org, url) in [
        ("slow", format!("http://127.0.0.1:{port}/content")),
        ("fast", healthy.uri()),
    ] {
        let created = server
            .put(
                &format!("/admin/config/{org}/sites/web.json"),
                &root,
                &site(&url),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    }
    let preview = |org: &'static str, page: String| {
        let request = server
            .client
            .post(server.url(&format!("/admin/preview/{org}/web/main/{page}")))
            .header("x-auth-token", &root);
        async move { request.send().await.expect("answered").status() }
    };
    // Twice as many stalled previews as there are turns, all asked first: without a share
    // per org they take every turn, the first four and then the next four.
    let stalled = futures_util::future::join_all((0..8).map(|n| preview("slow", format!("s{n}"))));
    let others = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let held = accepted.load(Ordering::SeqCst);
        let statuses =
            futures_util::future::join_all((0..4).map(|n| preview("fast", format!("f{n}")))).await;
        (held, statuses)
    };
    let (stalled, (held, others)) = tokio::join!(stalled, others);
    assert_eq!(
        held, 2,
        "the stalled org runs its share of previews, no more"
    );
    assert_eq!(
        others,
        vec![StatusCode::OK; 4],
        "the other org's previews run"
    );
    assert!(
        stalled
            .iter()
            .all(|s| *s == StatusCode::GATEWAY_TIMEOUT || *s == StatusCode::SERVICE_UNAVAILABLE),
        "{stalled:?}"
    );
}
