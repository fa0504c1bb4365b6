//! Code sync over real HTTP: jobs fetch from a wiremock raw host with the sync secret,
//! store the files, record progress and errors; push notifications must be signed.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops::codesync::signature;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{ORG_ADMIN, TestServer};

const SECRET: &str = "sync-secret";

/// A server with acme/web onboarding an external repository whose raw host is `raw`,
/// and acme/blog sharing it.
async fn setup(raw: &MockServer) -> (TestServer, String) {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let code = |secret: bool| {
        let mut source = json!({"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": format!("{}/acme/web", raw.uri()), "owner": "p1", "repo": "web"});
        if secret {
            source["secretId"] = json!("sync");
        }
        json!({"owner": "acme", "repo": "web", "source": source})
    };
    let access = json!({"admin": {"role": {"admin": ["web@acme.example"], "config_admin": ["tech@techacct.example"]}}});
    let web = server
        .put(
            "/admin/config/acme/sites/web.json",
            &root,
            &json!({"code": code(true), "access": access}),
        )
        .await;
    assert_eq!(web.status, StatusCode::CREATED, "{:?}", web.error);
    server
        .post(
            "/admin/config/acme/sites/web/secrets/sync.json",
            &root,
            &json!({"value": SECRET}),
        )
        .await;
    let blog = server
        .put(
            "/admin/config/acme/sites/blog.json",
            &root,
            &json!({"code": code(false), "access": access}),
        )
        .await;
    assert_eq!(blog.status, StatusCode::CREATED, "{:?}", blog.error);
    (server, root)
}

async fn mount_file(raw: &MockServer, file: &str, body: &str) {
    Mock::given(method("GET"))
        .and(path(format!("/acme/web/main/{file}")))
        .and(header("authorization", format!("token {SECRET}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_string(body))
        .mount(raw)
        .await;
}

/// Polls a job until it stops.
async fn finished(server: &TestServer, token: &str, link: &str) -> Value {
    for _ in 0..200 {
        let job = server.get(link, token).await.body;
        if job["state"] == "stopped" {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the job at {link} did not stop");
}

#[tokio::test]
async fn a_sync_job_fetches_the_branch_into_the_shared_code_store() {
    let raw = MockServer::start().await;
    mount_file(
        &raw,
        "fstab.yaml",
        "mountpoints:\n  /: https://content.example.com/x\n",
    )
    .await;
    mount_file(&raw, "head.html", "<meta name=\"viewport\">").await;
    mount_file(
        &raw,
        "siteops-files.txt",
        "# extra\nstyles/site.css\nmissing/file.js\n",
    )
    .await;
    mount_file(&raw, "styles/site.css", "body{}").await;
    let (server, _) = setup(&raw).await;
    let admin = server.token("web@acme.example");

    // The second site syncs with the onboarding site's secret.
    let started = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/blog/main",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    assert_eq!(started.body["job"]["topic"], "code");
    let link = started.body["links"]["self"]
        .as_str()
        .expect("a link")
        .to_string();
    let job = finished(&server, &admin, &link).await;

    // fstab.yaml, paths.yaml (absent: fine), head.html, the manifest, its two files.
    assert_eq!(
        job["progress"],
        json!({"total": 6, "processed": 6, "failed": 1}),
        "{job:#}"
    );
    assert_eq!(
        job["errors"],
        json!([{"path": "missing/file.js", "error": "not found (404)"}])
    );
    assert!(job["startTime"].is_string() && job["stopTime"].is_string());
    let store = server.server.state.store.clone();
    let stored = |file: &str| {
        store
            .get(&format!("code/acme/web/main/{file}"))
            .expect("store")
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    assert_eq!(stored("styles/site.css").as_deref(), Some("body{}"));
    assert!(stored("fstab.yaml").is_some_and(|t| t.contains("mountpoints")));
    assert_eq!(stored("paths.yaml"), None);

    let list = server.get("/admin/job/acme/blog/main/code", &admin).await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.body["jobs"][0]["name"], job["name"]);
    assert_eq!(
        server
            .get("/admin/job/acme/blog/main/code/job-nope", &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn sync_and_jobs_need_an_administrator() {
    let raw = MockServer::start().await;
    let (server, _) = setup(&raw).await;
    let tech = server.token("tech@techacct.example");
    let trigger = |token: Option<String>| {
        let server = &server;
        async move {
            server
                .send(
                    reqwest::Method::POST,
                    "/admin/code/acme/web/main",
                    token.as_deref(),
                    None,
                )
                .await
                .status
        }
    };
    assert_eq!(trigger(None).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        trigger(Some(tech.clone())).await,
        StatusCode::FORBIDDEN,
        "configuration accounts do not operate"
    );
    assert_eq!(
        server
            .get("/admin/job/acme/web/main/code", &tech)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        trigger(Some(server.token("web@acme.example"))).await,
        StatusCode::ACCEPTED
    );
}

#[tokio::test]
async fn too_many_queued_jobs_are_refused() {
    let raw = MockServer::start().await;
    // A slow raw host keeps the first job running while more are queued.
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404).set_delay(Duration::from_millis(400)))
        .mount(&raw)
        .await;
    let (server, root) = setup(&raw).await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(
            server
                .send(
                    reqwest::Method::POST,
                    "/admin/code/acme/web/main",
                    Some(&root),
                    None,
                )
                .await
                .status,
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        &statuses[..4],
        [StatusCode::ACCEPTED; 4],
        "one running and three queued"
    );
    assert!(
        statuses[4..].iter().all(|s| *s == StatusCode::CONFLICT),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn push_notifications_must_be_signed_with_the_repository_secret() {
    let raw = MockServer::start().await;
    let (server, root) = setup(&raw).await;
    let body = json!({"ref": "refs/heads/main", "after": "abc123"}).to_string();
    let push = |signature: Option<String>, body: String| {
        let mut request = server
            .client
            .post(server.url("/admin/webhook/code/acme/web"))
            .body(body);
        if let Some(signature) = signature {
            request = request.header("x-hub-signature-256", signature);
        }
        async move { request.send().await.expect("answered").status() }
    };
    let good = signature::sign(SECRET.as_bytes(), body.as_bytes());
    let wrong_secret = signature::sign(b"not-the-secret", body.as_bytes());
    let changed_body = json!({"ref": "refs/heads/main", "after": "evil"}).to_string();

    assert_eq!(
        push(None, body.clone()).await,
        StatusCode::UNAUTHORIZED,
        "missing signature"
    );
    assert_eq!(
        push(Some(wrong_secret), body.clone()).await,
        StatusCode::UNAUTHORIZED,
        "bad signature"
    );
    assert_eq!(
        push(Some(good.clone()), changed_body).await,
        StatusCode::UNAUTHORIZED,
        "replayed signature, changed body"
    );
    assert_eq!(
        server
            .get("/admin/job/acme/web/main/code", &root)
            .await
            .body["jobs"],
        json!([]),
        "nothing was synced"
    );

    assert_eq!(push(Some(good), body).await, StatusCode::ACCEPTED);
    let jobs = server
        .get("/admin/job/acme/web/main/code", &root)
        .await
        .body;
    assert_eq!(jobs["jobs"][0]["trigger"], "webhook");
    // The second site's notifications are verified with the repository's secret too.
    let blog_body = json!({"ref": "refs/heads/feature"}).to_string();
    let signed = signature::sign(SECRET.as_bytes(), blog_body.as_bytes());
    let response = server
        .client
        .post(server.url("/admin/webhook/code/acme/blog"))
        .header("x-hub-signature-256", signed)
        .body(blog_body)
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn a_hosted_repository_is_synced_anonymously_and_its_files_served_by_the_preview_host() {
    let raw = MockServer::start().await;
    // A public hosted repository: read without credentials.
    let file = |name: &str, body: &str| {
        Mock::given(method("GET"))
            .and(path(format!("/acme/docs/main/{name}")))
            .respond_with(ResponseTemplate::new(200).set_body_string(body.to_string()))
    };
    file(
        "siteops-files.txt",
        "styles/styles.css
",
    )
    .mount(&raw)
    .await;
    file("styles/styles.css", "main { color: teal; }")
        .mount(&raw)
        .await;
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let site = json!({"code": {"owner": "acme", "repo": "docs", "source": {"type": "github", "url": "https://github.com/acme/docs", "raw_url": format!("{}/acme/docs", raw.uri())}}});
    let created = server
        .put("/admin/config/acme/sites/docs.json", &root, &site)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let started = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/docs/main",
            Some(&root),
            None,
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let link = started.body["links"]["self"]
        .as_str()
        .expect("link")
        .to_string();
    let job = finished(&server, &root, &link).await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
    let requests = raw.received_requests().await.expect("recorded");
    assert!(
        requests
            .iter()
            .all(|r| !r.headers.contains_key("authorization")),
        "a public repository is read without credentials"
    );

    // With no local checkout, the preview host serves what the sync stored.
    let styles = server
        .client
        .get(server.url("/styles/styles.css"))
        .header("host", "main--docs--acme.localhost")
        .send()
        .await
        .expect("answered");
    assert_eq!(styles.status(), StatusCode::OK);
    assert_eq!(
        styles.headers()["x-siteops-code"].to_str().expect("ascii"),
        "store main"
    );
    assert_eq!(styles.text().await.expect("body"), "main { color: teal; }");
}

#[tokio::test]
async fn a_source_without_a_raw_host_is_not_synced() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let site = json!({"code": {"owner": "acme", "repo": "docs", "source": {"type": "gitea", "url": "https://git.acme.example/acme/docs"}}});
    server
        .put("/admin/config/acme/sites/docs.json", &root, &site)
        .await;
    let answer = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/docs/main",
            Some(&root),
            None,
        )
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(
        answer
            .error
            .as_deref()
            .is_some_and(|e| e.contains("cannot be synced")),
        "{:?}",
        answer.error
    );
}

#[tokio::test]
async fn a_synced_fstab_with_yaml_aliases_is_ignored_not_expanded() {
    let raw = MockServer::start().await;
    // Six levels expand to half a million nodes; the nine killed the server.
    let fstab =
        crate::support::alias_bomb("mountpoints:\n  /: https://content.example.com/web\n", 6);
    mount_file(&raw, "fstab.yaml", &fstab).await;
    let (server, root) = setup(&raw).await;
    let started = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/web/main",
            Some(&root),
            None,
        )
        .await;
    finished(
        &server,
        &root,
        started.body["links"]["self"].as_str().expect("link"),
    )
    .await;
    let status = server.get("/admin/status/acme/web/main", &root).await;
    assert_eq!(status.status, StatusCode::OK, "{:?}", status.error);
    // A code file that does not parse counts as absent, as on the platform.
    assert_eq!(status.body["content"], Value::Null, "{}", status.body);
}

#[tokio::test]
async fn a_site_without_content_reads_its_code_and_public_mappings_win_over_paths_yaml() {
    let raw = MockServer::start().await;
    mount_file(&raw, "fstab.yaml", "mountpoints:\n  /:\n    url: https://content.example.com/web\n    type: markup\n    suffix: .html\n").await;
    mount_file(
        &raw,
        "paths.yaml",
        "mappings:\n  - /content/web/configuration:/config.json\n",
    )
    .await;
    let (server, root) = setup(&raw).await;
    let started = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/web/main",
            Some(&root),
            None,
        )
        .await;
    finished(
        &server,
        &root,
        started.body["links"]["self"].as_str().expect("link"),
    )
    .await;

    let status = server.get("/admin/status/acme/web/main", &root).await;
    assert_eq!(status.status, StatusCode::OK, "{:?}", status.error);
    assert_eq!(status.body["content"]["origin"], "fstab.yaml");
    assert_eq!(
        status.body["content"]["value"]["source"],
        json!({"url": "https://content.example.com/web", "type": "markup", "suffix": ".html"})
    );
    assert_eq!(
        status.body["mappings"],
        json!({"value": ["/content/web/configuration:/config.json"], "origin": "paths.yaml"})
    );
    // The legacy mapping publishes a configuration page at /config.json…
    let config = server
        .preview("main--web--acme.localhost", "/config.json", None)
        .await;
    assert_eq!(config.status, StatusCode::NOT_FOUND);

    // …until public mappings are configured: then paths.yaml is ignored.
    server
        .post(
            "/admin/config/acme/sites/web/public.json",
            &root,
            &json!({"paths": {"mappings": ["/content/web/:/"]}}),
        )
        .await;
    let status = server.get("/admin/status/acme/web/main", &root).await;
    assert_eq!(
        status.body["mappings"],
        json!({"value": ["/content/web/:/"], "origin": "public.json"})
    );
    let config = server
        .preview("main--web--acme.localhost", "/config.json", None)
        .await;
    assert_eq!(config.status, StatusCode::OK);

    // A content block in the configuration takes precedence over fstab.yaml.
    server
        .post(
            "/admin/config/acme/sites/web/content.json",
            &root,
            &json!({"source": {"url": "https://cms.example.com/web", "type": "markup"}}),
        )
        .await;
    assert_eq!(
        server.get("/admin/status/acme/web/main", &root).await.body["content"]["origin"],
        "config"
    );
}
