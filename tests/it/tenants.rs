//! Two orgs on one shared service: neither reaches the other's code, secrets, protected
//! pages or worker data, through any route; a sync secret goes only to the origin it was
//! issued for; a `config_admin` cannot delete a site or open a protected one.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::TestServer;

const ACME: &str = "ops@acme.example";
const EVIL: &str = "mallory@evil.example";
const ACME_SECRET: &str = "acme-sync-secret";

/// A raw code host whose every file under `/<repo>/main/` answers `body(file)`.
async fn raw_host(repo: &str, head: &str) -> MockServer {
    let raw = MockServer::start().await;
    for (file, body) in [
        ("head.html", head.to_string()),
        ("siteops-files.txt", "scripts/app.js\n".to_string()),
        ("scripts/app.js", format!("/* {head} */")),
    ] {
        Mock::given(method("GET"))
            .and(path(format!("/{repo}/main/{file}")))
            .respond_with(ResponseTemplate::new(200).set_body_string(body))
            .mount(&raw)
            .await;
    }
    raw
}

/// Runs a sync of `org/site`'s main branch as `token`; the stopped job.
async fn sync(server: &TestServer, token: &str, org: &str, site: &str) -> Value {
    let started = server
        .send(
            reqwest::Method::POST,
            &format!("/admin/code/{org}/{site}/main"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let link = started.body["links"]["self"]
        .as_str()
        .expect("a link")
        .to_string();
    for _ in 0..250 {
        let job = server.get(&link, token).await.body;
        if job["state"] == "stopped" {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the job at {link} did not stop");
}

fn byogit(raw: &MockServer, secret: bool) -> Value {
    let mut source = json!({"type": "byogit", "url": "https://git.acme.example/acme/blog", "raw_url": format!("{}/acme/blog", raw.uri()), "owner": "p1", "repo": "blog"});
    if secret {
        source["secretId"] = json!("sync");
    }
    json!({"owner": "acme", "repo": "blog", "source": source})
}

/// Whether any request `raw` received carried `secret`.
async fn received_secret(raw: &MockServer, secret: &str) -> bool {
    raw.received_requests()
        .await
        .expect("recorded")
        .iter()
        .any(|r| {
            r.headers
                .get_all("authorization")
                .iter()
                .any(|v| v.to_str().is_ok_and(|v| v.contains(secret)))
        })
}

/// acme onboards p1/blog for acme/blog (protected, `config_admin` tech@…), with its sync
/// secret and a worker entry whose header holds an API key; evil has an org of its own.
async fn two_orgs(acme_raw: &MockServer) -> TestServer {
    let temp = tempfile::tempdir().expect("temp dir");
    let config = TestServer::config(
        temp.path().to_path_buf(),
        &[&format!("acme:{ACME}"), &format!("evil:{EVIL}")],
        siteops::preview::Limits::default(),
    );
    let mut server = TestServer::start_config(config).await;
    server.keep(temp);
    let acme = server.token(ACME);
    let access = json!({"admin": {"role": {"admin": [ACME], "config_admin": ["tech@acme.example"]}, "requireAuth": "auto"}});
    let created = server
        .put(
            "/admin/config/acme/sites/blog.json",
            &acme,
            &json!({"code": byogit(acme_raw, true), "access": access}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let secret = server
        .post(
            "/admin/config/acme/sites/blog/secrets/sync.json",
            &acme,
            &json!({"value": ACME_SECRET}),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{:?}", secret.error);
    let worker = server
        .client
        .post(server.url("/transform/config/acme/blog/main"))
        .header("authorization", format!("token {acme}"))
        .header("content-type", "application/json")
        .body(json!([{"path": "/products/", "endpoint": "https://api.acme.example/products/{{id}}", "regex": "/[0-9]+$/", "headers": {"x-api-key": "acme-api-key"}}]).to_string())
        .send()
        .await
        .expect("answered");
    assert_eq!(worker.status(), StatusCode::OK);
    let job = sync(&server, &acme, "acme", "blog").await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
    server
}

#[tokio::test]
async fn one_org_reaches_none_of_another_orgs_code_secrets_pages_or_worker_data() {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    let evil_raw = raw_host("acme/blog", "<script>stolen()</script>").await;
    let server = two_orgs(&acme_raw).await;
    let evil = server.token(EVIL);

    // evil names acme's repository as its code, with a raw host of its own, and syncs:
    // what it syncs lands in evil's own code store.
    let mut hijack = byogit(&evil_raw, false);
    hijack["source"] = json!({"type": "github", "url": "https://github.com/acme/blog", "raw_url": format!("{}/acme/blog", evil_raw.uri())});
    let created = server
        .put(
            "/admin/config/evil/sites/blog.json",
            &evil,
            &json!({"code": hijack, "access": {"admin": {"role": {"admin": [EVIL]}}}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let job = sync(&server, &evil, "evil", "blog").await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
    let code_file = |host: &'static str, token: String| {
        let server = &server;
        async move {
            server
                .client
                .get(server.url("/scripts/app.js"))
                .header("host", host)
                .header("authorization", format!("token {token}"))
                .send()
                .await
                .expect("answered")
                .text()
                .await
                .expect("body")
        }
    };
    assert_eq!(
        code_file("main--blog--acme.localhost", server.token(ACME)).await,
        "/* <meta name=\"acme\"> */",
        "acme's code is acme's"
    );
    assert_eq!(
        code_file("main--blog--evil.localhost", evil.clone()).await,
        "/* <script>stolen()</script> */",
        "evil reads its own copy, never acme's"
    );

    // evil cannot select acme's onboarded repository (and so never gets its secret).
    let selected = server
        .put(
            "/admin/config/evil/sites/thief.json",
            &evil,
            &json!({"code": byogit(&evil_raw, false)}),
        )
        .await;
    assert_eq!(
        selected.status,
        StatusCode::CONFLICT,
        "{:?}",
        selected.error
    );

    // Nothing of acme's through any route with evil's token.
    for (method, path) in [
        (reqwest::Method::GET, "/admin/config/acme/sites/blog.json"),
        (
            reqwest::Method::GET,
            "/admin/config/acme/sites/blog/code.json",
        ),
        (
            reqwest::Method::GET,
            "/admin/config/acme/sites/blog/access.json",
        ),
        (
            reqwest::Method::GET,
            "/admin/config/acme/sites/blog/secrets.json",
        ),
        (
            reqwest::Method::GET,
            "/admin/config/acme/sites/blog/secrets/sync.json",
        ),
        (reqwest::Method::GET, "/transform/config/acme/blog/main"),
        (reqwest::Method::GET, "/transform/config/acme/blog"),
        (reqwest::Method::GET, "/admin/job/acme/blog/main/code"),
        (reqwest::Method::GET, "/admin/status/acme/blog/main"),
        (reqwest::Method::POST, "/admin/code/acme/blog/main"),
        (reqwest::Method::POST, "/admin/preview/acme/blog/main/index"),
        (
            reqwest::Method::DELETE,
            "/admin/config/acme/sites/blog.json",
        ),
        (
            reqwest::Method::DELETE,
            "/admin/config/acme/sites/blog/secrets/sync.json",
        ),
    ] {
        let answer = server
            .client
            .request(method.clone(), server.url(path))
            .header("authorization", format!("token {evil}"))
            .send()
            .await
            .expect("answered");
        assert_eq!(answer.status(), StatusCode::FORBIDDEN, "{method} {path}");
        let body = answer.text().await.expect("body");
        assert!(
            !body.contains(ACME_SECRET) && !body.contains("acme-api-key"),
            "{method} {path}: {body}"
        );
    }
    let creating = server
        .put(
            "/admin/config/acme/sites/new.json",
            &evil,
            &json!({"code": {"owner": "acme", "repo": "new", "source": {"type": "github", "url": "https://github.com/acme/new"}}}),
        )
        .await;
    assert_eq!(creating.status, StatusCode::FORBIDDEN);
    // acme's protected pages and files on its preview host.
    let page = server
        .preview("main--blog--acme.localhost", "/scripts/app.js", Some(&evil))
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);

    // Through all of it, evil's host never saw acme's secret.
    assert!(!received_secret(&evil_raw, ACME_SECRET).await);
    assert!(received_secret(&acme_raw, ACME_SECRET).await);
}

#[tokio::test]
async fn a_sync_secret_goes_only_to_the_origin_it_was_issued_for() {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    let elsewhere = raw_host("acme/blog", "<meta name=\"elsewhere\">").await;
    let server = two_orgs(&acme_raw).await;
    let acme = server.token(ACME);

    // A second site of the org selecting the repository at another origin: refused.
    let other_origin = server
        .put(
            "/admin/config/acme/sites/shop.json",
            &acme,
            &json!({"code": byogit(&elsewhere, false)}),
        )
        .await;
    assert_eq!(other_origin.status, StatusCode::CONFLICT);
    assert!(
        other_origin
            .error
            .as_deref()
            .is_some_and(|e| e.contains("was not issued for")),
        "{:?}",
        other_origin.error
    );
    // At the same origin: selected, and synced with the onboarding site's secret.
    let same_origin = server
        .put(
            "/admin/config/acme/sites/shop.json",
            &acme,
            &json!({"code": byogit(&acme_raw, false)}),
        )
        .await;
    assert_eq!(
        same_origin.status,
        StatusCode::CREATED,
        "{:?}",
        same_origin.error
    );

    // The config_admin moves the onboarding site's raw_url, keeping secretId: the next
    // sync does not send the secret there, and says why.
    let tech = server.token("tech@acme.example");
    let moved = server
        .post(
            "/admin/config/acme/sites/blog/code.json",
            &tech,
            &byogit(&elsewhere, true),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.error);
    let job = sync(&server, &acme, "acme", "blog").await;
    assert!(
        job["error"]
            .as_str()
            .is_some_and(|e| e.contains("was issued for")),
        "{job:#}"
    );
    assert!(!received_secret(&elsewhere, ACME_SECRET).await);
    assert_eq!(
        elsewhere.received_requests().await.expect("recorded").len(),
        0
    );

    // The secret written again, now for the new origin: it goes there.
    let rewritten = server
        .post(
            "/admin/config/acme/sites/blog/secrets/sync.json",
            &acme,
            &json!({"value": "new-secret"}),
        )
        .await;
    assert_eq!(rewritten.status, StatusCode::OK);
    let job = sync(&server, &acme, "acme", "blog").await;
    assert_eq!(job["error"], Value::Null, "{job:#}");
    assert!(received_secret(&elsewhere, "new-secret").await);
}

#[tokio::test]
async fn a_config_admin_cannot_delete_a_site_or_open_a_protected_one() {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    let server = two_orgs(&acme_raw).await;
    let tech = server.token("tech@acme.example");
    let deleted = server
        .delete("/admin/config/acme/sites/blog.json", &tech)
        .await;
    assert_eq!(deleted.status, StatusCode::FORBIDDEN);
    let open = json!({"admin": {"role": {"admin": [ACME], "config_admin": ["tech@acme.example"]}}});
    let opened = server
        .post("/admin/config/acme/sites/blog/access.json", &tech, &open)
        .await;
    assert_eq!(opened.status, StatusCode::FORBIDDEN);
    assert!(
        opened
            .error
            .as_deref()
            .is_some_and(|e| e.contains("/admin/requireAuth")),
        "{:?}",
        opened.error
    );
    let dropped = server
        .delete("/admin/config/acme/sites/blog/access.json", &tech)
        .await;
    assert_eq!(dropped.status, StatusCode::FORBIDDEN);
    // Everything else of the configuration stays the config_admin's to change.
    let content = server
        .post(
            "/admin/config/acme/sites/blog/content.json",
            &tech,
            &json!({"source": {"url": "https://content.acme.example/blog", "type": "markup"}}),
        )
        .await;
    assert_eq!(content.status, StatusCode::OK, "{:?}", content.error);
    // The site's admin may do both.
    let acme = server.token(ACME);
    let opened = server
        .post("/admin/config/acme/sites/blog/access.json", &acme, &open)
        .await;
    assert_eq!(opened.status, StatusCode::OK, "{:?}", opened.error);
    let deleted = server
        .delete("/admin/config/acme/sites/blog.json", &acme)
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
}
