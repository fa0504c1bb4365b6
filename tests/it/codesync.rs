//! Code sync over real HTTP: jobs fetch from a wiremock raw host with the sync secret,
//! store the files, record progress and errors; push notifications must be signed.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_server::codesync::signature;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{ORG_ADMIN, TestServer};

const SECRET: &str = "sync-secret";

/// A server with acme/web onboarding an external repository whose raw host is `raw`,
/// and acme/blog sharing it.
async fn setup(raw: &MockServer) -> (TestServer, String) {
    setup_with(raw, siteops_server::quota::Quotas::default()).await
}

/// As [`setup`], on a server with these quotas.
async fn setup_with(
    raw: &MockServer,
    quotas: siteops_server::quota::Quotas,
) -> (TestServer, String) {
    let server =
        TestServer::start_with_quotas(quotas, siteops_server::preview::Limits::default()).await;
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
    for _ in 0..500 {
        let job = server.get(link, token).await.body;
        if job["state"] == "stopped" {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the job at {link} did not stop");
}

/// Starts a sync of acme/web's main branch as `token` and waits for the job to stop.
async fn sync_main(server: &TestServer, token: &str) -> Value {
    let started = server
        .send(
            reqwest::Method::POST,
            "/admin/code/acme/web/main",
            Some(token),
            None,
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let link = started.body["links"]["self"].as_str().expect("a link");
    finished(server, token, link).await
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
    let stored = async |file: &str| {
        store
            .get(&format!("code/acme/acme/web/main/{file}"))
            .await
            .expect("store")
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    assert_eq!(stored("styles/site.css").await.as_deref(), Some("body{}"));
    assert!(
        stored("fstab.yaml")
            .await
            .is_some_and(|t| t.contains("mountpoints"))
    );
    assert_eq!(stored("paths.yaml").await, None);

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

/// As the platform's code sync: what the repository's `.hlxignore` names is not stored,
/// and a copy an earlier sync stored is taken out.
#[tokio::test]
async fn what_hlxignore_names_is_left_out_of_the_code_store() {
    let raw = MockServer::start().await;
    mount_file(&raw, ".hlxignore", "drafts/\n*.md\n").await;
    mount_file(
        &raw,
        "siteops-files.txt",
        "styles/site.css\ndrafts/page.css\nREADME.md\n",
    )
    .await;
    for (file, body) in [
        ("styles/site.css", "body{}"),
        ("drafts/page.css", "draft"),
        ("README.md", "readme"),
    ] {
        mount_file(&raw, file, body).await;
    }
    let (server, _) = setup(&raw).await;
    let admin = server.token("web@acme.example");
    let store = server.server.state.store.clone();
    let key = |file: &str| format!("code/acme/acme/web/main/{file}");
    store
        .put(&key("README.md"), b"from an earlier sync")
        .await
        .expect("put");

    let job = sync_main(&server, &admin).await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
    let stored = async |file: &str| store.get(&key(file)).await.expect("store");
    assert_eq!(
        stored("styles/site.css").await.as_deref(),
        Some(&b"body{}"[..])
    );
    assert_eq!(stored("drafts/page.css").await, None);
    assert_eq!(stored("README.md").await, None);
}

#[tokio::test]
async fn sync_and_jobs_need_a_role_that_operates() {
    let raw = MockServer::start().await;
    let (server, _) = setup(&raw).await;
    let tech = server.token("tech@techacct.example");
    let stranger = server.token("stranger@acme.example");
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
        trigger(Some(stranger.clone())).await,
        StatusCode::FORBIDDEN,
        "no role on the site"
    );
    assert_eq!(
        server
            .get("/admin/job/acme/web/main/code", &stranger)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // The platform's config_admin holds publish's permissions: code and jobs included.
    assert_eq!(trigger(Some(tech.clone())).await, StatusCode::ACCEPTED);
    assert_eq!(
        server
            .get("/admin/job/acme/web/main/code", &tech)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        trigger(Some(server.token("web@acme.example"))).await,
        StatusCode::ACCEPTED
    );
}

/// Issue 14, finding 9: triggers coalesce. One job runs, at most one waits, and every
/// trigger meanwhile joins the waiting one (which has not started, so it fetches what the
/// trigger announced).
#[tokio::test]
async fn triggers_meanwhile_join_the_waiting_job() {
    let raw = MockServer::start().await;
    // A slow raw host keeps the first job running while more triggers arrive.
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404).set_delay(Duration::from_millis(400)))
        .mount(&raw)
        .await;
    let (server, root) = setup(&raw).await;
    let mut answers = Vec::new();
    for _ in 0..6 {
        let answer = server
            .send(
                reqwest::Method::POST,
                "/admin/code/acme/web/main",
                Some(&root),
                None,
            )
            .await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{:?}", answer.error);
        answers.push(answer.body);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let names: Vec<&str> = answers
        .iter()
        .map(|a| a["job"]["name"].as_str().expect("a name"))
        .collect();
    assert_ne!(
        names[0], names[1],
        "the second trigger makes the waiting job"
    );
    assert!(names[2..].iter().all(|n| *n == names[1]), "{names:?}");
    assert_eq!(answers[0].get("coalesced"), None);
    assert!(answers[2..].iter().all(|a| a["coalesced"] == true));
    let link = answers[1]["links"]["self"].as_str().expect("a link");
    finished(&server, &root, link).await;
    let jobs = server
        .get("/admin/job/acme/web/main/code", &root)
        .await
        .body;
    assert_eq!(jobs["jobs"].as_array().map(Vec::len), Some(2), "{jobs:#}");
}

/// Issue 14, finding 9: a valid delivery received again is ignored (it was replayed 508
/// times in 10 s, leaving 515 job files).
#[tokio::test]
async fn a_delivery_received_again_is_ignored() {
    let raw = MockServer::start().await;
    let (server, root) = setup(&raw).await;
    let push = |body: String| {
        let signed = signature::sign(SECRET.as_bytes(), body.as_bytes());
        let request = server
            .client
            .post(server.url("/admin/webhook/code/acme/web"))
            .header("x-hub-signature-256", signed)
            .body(body);
        async move {
            let response = request.send().await.expect("answered");
            let status = response.status();
            (status, response.json::<Value>().await.expect("JSON"))
        }
    };
    let body = json!({"ref": "refs/heads/main", "after": "abc123"}).to_string();
    let (status, first) = push(body.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let link = first["links"]["self"].as_str().expect("a job").to_string();
    for _ in 0..50 {
        let (status, again) = push(body.clone()).await;
        assert_eq!(status, StatusCode::ACCEPTED);
        assert_eq!(
            again,
            json!({"ignored": "this delivery was already received"})
        );
    }
    finished(&server, &root, &link).await;
    let jobs = server
        .get("/admin/job/acme/web/main/code", &root)
        .await
        .body;
    assert_eq!(jobs["jobs"].as_array().map(Vec::len), Some(1), "{jobs:#}");
    // The next push is a new delivery.
    let next = json!({"ref": "refs/heads/main", "after": "def456"}).to_string();
    let (status, answer) = push(next).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert!(answer["job"]["name"].is_string(), "{answer}");
}

/// Signed deliveries past the site's rate get 429 with `Retry-After`; unsigned ones never
/// count (they cannot use up a site's allowance), and each site has its own.
#[tokio::test]
async fn signed_deliveries_over_the_rate_get_429() {
    let raw = MockServer::start().await;
    let quotas = siteops_server::quota::Quotas {
        webhooks_per_minute: 2,
        ..Default::default()
    };
    let (server, _root) = setup_with(&raw, quotas).await;
    let push = |site: &'static str, n: usize, signed: bool| {
        let body = json!({"ref": "refs/heads/main", "after": format!("{site}-{n}")}).to_string();
        let signature = if signed {
            signature::sign(SECRET.as_bytes(), body.as_bytes())
        } else {
            "sha256=00".to_string()
        };
        let request = server
            .client
            .post(server.url(&format!("/admin/webhook/code/acme/{site}")))
            .header("x-hub-signature-256", signature)
            .body(body);
        async move { request.send().await.expect("answered") }
    };
    for n in 0..5 {
        assert_eq!(
            push("web", n, false).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(push("web", 10, true).await.status(), StatusCode::ACCEPTED);
    assert_eq!(push("web", 11, true).await.status(), StatusCode::ACCEPTED);
    let over = push("web", 12, true).await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = over.headers()["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!((1..=30).contains(&retry), "{retry}");
    // Still unsigned ones get their 401, as before the rate was reached.
    assert_eq!(
        push("web", 13, false).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

/// With one sync job at a time (`--max-sync-jobs 1`), jobs of two branches run one after
/// the other: the second starts when the first has stopped.
#[tokio::test]
async fn sync_jobs_beyond_the_cap_wait_their_turn() {
    let raw = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404).set_delay(Duration::from_millis(150)))
        .mount(&raw)
        .await;
    let quotas = siteops_server::quota::Quotas {
        concurrent_sync_jobs: 1,
        ..Default::default()
    };
    let (server, root) = setup_with(&raw, quotas).await;
    let trigger = |branch: &'static str| {
        let server = &server;
        let root = &root;
        async move {
            let path = format!("/admin/code/acme/web/{branch}");
            let started = server
                .send(reqwest::Method::POST, &path, Some(root), None)
                .await;
            assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
            started.body["links"]["self"]
                .as_str()
                .expect("a link")
                .to_string()
        }
    };
    let (main, feature) = tokio::join!(trigger("main"), trigger("feature"));
    let main = finished(&server, &root, &main).await;
    let feature = finished(&server, &root, &feature).await;
    let time = |job: &Value, field: &str| job[field].as_str().expect(field).to_string();
    let (first, second) = if time(&main, "startTime") <= time(&feature, "startTime") {
        (main, feature)
    } else {
        (feature, main)
    };
    assert!(
        time(&second, "startTime") >= time(&first, "stopTime"),
        "the jobs overlapped: {first:#} {second:#}"
    );
}

/// Issue 14, finding 9: stopped job records expire: a branch keeps the newest ones.
#[tokio::test]
async fn a_branch_keeps_only_its_newest_job_records() {
    let raw = MockServer::start().await;
    let (server, root) = setup(&raw).await;
    let kept = siteops_server::codesync::runner::KEPT_STOPPED;
    let mut names = Vec::new();
    for _ in 0..kept + 5 {
        names.push(sync_main(&server, &root).await["name"].clone());
    }
    let jobs = server
        .get("/admin/job/acme/web/main/code", &root)
        .await
        .body;
    let listed: Vec<Value> = jobs["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|j| j["name"].clone())
        .collect();
    let newest: Vec<Value> = names.iter().rev().take(kept).cloned().collect();
    assert_eq!(listed, newest);
}

/// A job a killed server left running (its lease gone with it) is taken over and run
/// again from its first file by the server that starts next on the same data.
#[tokio::test]
async fn jobs_of_a_killed_server_are_run_again_on_restart() {
    let raw = MockServer::start().await;
    mount_file(&raw, "head.html", "<meta name=\"x\">").await;
    let (server, root) = setup(&raw).await;
    let record = json!({"topic": "code", "name": "job-0000000000001-0000", "state": "running",
        "org": "acme", "site": "web", "branch": "main", "trigger": "manual",
        "createTime": "2026-11-25T00:00:00Z", "startTime": "2026-11-25T00:00:01Z",
        "progress": {"total": 4, "processed": 1, "failed": 0}, "errors": []});
    let key = "jobs/acme/web/main/code/job-0000000000001-0000.json";
    server
        .server
        .state
        .store
        .put(key, record.to_string().as_bytes())
        .await
        .expect("put");
    let restarted = TestServer::start_on(server.data.clone()).await;
    let job = finished(
        &restarted,
        &root,
        "/admin/job/acme/web/main/code/job-0000000000001-0000",
    )
    .await;
    assert_eq!(job["error"], Value::Null, "{job}");
    assert_eq!(job["progress"]["failed"], 0, "{job}");
    assert_eq!(
        job["progress"]["processed"], job["progress"]["total"],
        "{job}"
    );
    let head = restarted
        .server
        .state
        .store
        .get("code/acme/acme/web/main/head.html")
        .await
        .expect("store");
    assert_eq!(head.as_deref(), Some(&b"<meta name=\"x\">"[..]));
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
    assert_eq!(answer.status, StatusCode::CONFLICT);
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
    sync_main(&server, &root).await;
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
    sync_main(&server, &root).await;

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

/// Issue 14, finding 3: code sync goes out the way previews do. A redirect is followed by
/// hand: the sync secret stays with the raw host's origin, and a hop to a refused address
/// (here the cloud metadata address, refused before any connection) fails that file.
#[tokio::test]
async fn code_sync_follows_redirects_by_hand_through_the_address_guard() {
    let raw = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/acme/web/main/head.html"))
        .respond_with(
            ResponseTemplate::new(302)
                .insert_header("location", format!("{}/moved/head.html", elsewhere.uri())),
        )
        .mount(&raw)
        .await;
    Mock::given(method("GET"))
        .and(path("/moved/head.html"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<meta name=\"moved\">"))
        .mount(&elsewhere)
        .await;
    Mock::given(method("GET"))
        .and(path("/acme/web/main/fstab.yaml"))
        .respond_with(
            ResponseTemplate::new(301)
                .insert_header("location", "http://169.254.169.254/latest/meta-data"),
        )
        .mount(&raw)
        .await;
    let (server, _) = setup(&raw).await;
    let admin = server.token("web@acme.example");
    let job = sync_main(&server, &admin).await;

    let errors = job["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{job:#}");
    assert_eq!(errors[0]["path"], "fstab.yaml");
    let error = errors[0]["error"].as_str().expect("text");
    assert!(
        error.contains("refused address: 169.254.169.254"),
        "{error}"
    );
    let stored = server
        .server
        .state
        .store
        .get("code/acme/acme/web/main/head.html")
        .await
        .expect("store");
    assert_eq!(stored.as_deref(), Some(&b"<meta name=\"moved\">"[..]));
    let received = elsewhere.received_requests().await.expect("recorded");
    assert_eq!(received.len(), 1);
    assert!(
        !received[0].headers.contains_key("authorization"),
        "the sync secret crossed to another origin"
    );
    let asked = raw.received_requests().await.expect("recorded");
    assert!(
        asked
            .iter()
            .all(|r| r.headers.contains_key("authorization"))
    );
}

/// The unspecified address is refused as a raw host.
#[tokio::test]
async fn code_sync_refuses_the_unspecified_address() {
    let raw = MockServer::start().await;
    let (server, root) = setup(&raw).await;
    let port = raw.address().port();
    let code = json!({"owner": "acme", "repo": "web", "source": {"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": format!("http://0.0.0.0:{port}/acme/web"), "owner": "p1", "repo": "web", "secretId": "sync"}});
    let changed = server
        .post("/admin/config/acme/sites/web/code.json", &root, &code)
        .await;
    assert!(changed.status.is_success(), "{changed:?}");
    // The secret issued for the new origin, so that the address guard is what refuses.
    let issued = server
        .post(
            "/admin/config/acme/sites/web/secrets/sync.json",
            &root,
            &json!({"value": SECRET}),
        )
        .await;
    assert!(issued.status.is_success(), "{issued:?}");
    let admin = server.token("web@acme.example");
    let job = sync_main(&server, &admin).await;
    let errors = job["errors"].as_array().expect("errors");
    assert!(!errors.is_empty(), "{job:#}");
    for error in errors {
        let text = error["error"].as_str().expect("text");
        assert!(text.contains("refused address: 0.0.0.0"), "{text}");
    }
    assert!(raw.received_requests().await.expect("recorded").is_empty());
}
