//! The bulk preview over real HTTP: the bundled service's route and job routes against a
//! wiremock markup source, and the client's re-preview step (one job per site, polled)
//! against a wiremock service that records when each request arrives.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use siteops_plan::apply::repreview::{self, RepreviewOptions, RepreviewOutcome};
use siteops_plan::plan::repreview::Repreview;
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Token};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::harness::TestServer;
use crate::preview::{CONFIG_BOT, SITE_ADMIN, html, preview, site};

fn page(text: &str) -> String {
    format!(
        "<html><head><title>{text}</title></head><body><main><div><p>{text}</p></div></main></body></html>"
    )
}

/// Serves `pages` (path, text) from `source`, replacing what it served.
async fn serve_pages(source: &MockServer, pages: &[(&str, &str)]) {
    source.reset().await;
    for (at, text) in pages {
        Mock::given(method("GET"))
            .and(path(format!("/content{at}")))
            .respond_with(html(&page(text)))
            .mount(source)
            .await;
    }
}

/// `POST /admin/preview/acme/web/main/*` with `body`, as `token`.
async fn bulk(server: &TestServer, token: &str, body: &Value) -> crate::harness::Answer {
    server
        .post("/admin/preview/acme/web/main/*", token, body)
        .await
}

/// Polls the job until it stops (within 30 s).
async fn stopped_job(server: &TestServer, token: &str, name: &str) -> Value {
    let start = Instant::now();
    loop {
        let job = server
            .get(&format!("/admin/job/acme/web/main/preview/{name}"), token)
            .await;
        assert_eq!(job.status, StatusCode::OK, "{:?}", job.error);
        if job.body["state"] == "stopped" {
            return job.body;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{}", job.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_bulk_preview_previews_a_folders_previewed_pages_again() {
    let source = MockServer::start().await;
    let (server, _) = site(&format!("{}/content", source.uri()), None).await;
    let token = server.token(SITE_ADMIN);
    serve_pages(
        &source,
        &[
            ("/blog/a", "Old A"),
            ("/blog/b", "Old B"),
            ("/blog/c", "Old C"),
            ("/en/x", "Old X"),
        ],
    )
    .await;
    for at in ["/blog/a", "/blog/b", "/en/x"] {
        let (answer, _) = preview(&server, &token, at, &[]).await;
        assert_eq!(answer.status, StatusCode::OK, "{at}: {:?}", answer.error);
    }
    serve_pages(
        &source,
        &[
            ("/blog/a", "New A"),
            ("/blog/b", "New B"),
            ("/blog/c", "New C"),
            ("/en/x", "New X"),
        ],
    )
    .await;

    let started = bulk(
        &server,
        &token,
        &json!({"paths": ["/blog/*", "/missing"], "forceUpdate": true}),
    )
    .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let body = &started.body;
    assert_eq!(body["status"], 202);
    assert_eq!(body["job"]["topic"], "preview");
    assert_eq!(body["job"]["state"], "created");
    assert_eq!(body["job"]["data"]["paths"], json!(["/blog/*", "/missing"]));
    let name = body["job"]["name"].as_str().expect("a name").to_string();
    assert!(name.starts_with("job-") && name.len() > 30, "{name}");
    let own = body["links"]["self"].as_str().expect("self");
    assert!(
        own.ends_with(&format!("/admin/job/acme/web/main/preview/{name}")),
        "{own}"
    );

    let job = stopped_job(&server, &token, &name).await;
    // The folder's two previewed pages (not /blog/c, never previewed), and /missing,
    // which the source does not have.
    assert_eq!(
        job["progress"],
        json!({"total": 3, "processed": 3, "failed": 1})
    );
    assert!(job.get("error").is_none(), "{job}");
    let details = server
        .get(
            &format!("/admin/job/acme/web/main/preview/{name}/details"),
            &token,
        )
        .await;
    assert_eq!(details.status, StatusCode::OK);
    let mut results: Vec<(String, u64)> = details.body["data"]["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap_or("").to_string(),
                r["status"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    results.sort();
    assert_eq!(
        results,
        [
            ("/blog/a".to_string(), 200),
            ("/blog/b".to_string(), 200),
            ("/missing".to_string(), 404),
        ]
    );
    // The new content shows on the preview host; the page outside the folder is as it was.
    let host = "main--web--acme.localhost";
    for (at, text) in [
        ("/blog/a", "New A"),
        ("/blog/b", "New B"),
        ("/en/x", "Old X"),
    ] {
        let (status, body) = host_text(&server, host, &format!("{at}.plain.html")).await;
        assert_eq!(status, StatusCode::OK, "{at}");
        assert!(body.contains(text), "{at}: {body}");
    }
    let (status, _) = host_text(&server, host, "/blog/c.plain.html").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let listed = server.get("/admin/job/acme/web/main/preview", &token).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.body["jobs"][0]["name"], name.as_str());

    // `delete` removes the folder's previews.
    let removed = bulk(
        &server,
        &token,
        &json!({"paths": ["/blog/*"], "delete": true}),
    )
    .await;
    assert_eq!(removed.status, StatusCode::ACCEPTED, "{:?}", removed.error);
    let name = removed.body["job"]["name"]
        .as_str()
        .expect("a name")
        .to_string();
    let job = stopped_job(&server, &token, &name).await;
    assert_eq!(
        job["progress"],
        json!({"total": 2, "processed": 2, "failed": 0})
    );
    let (status, _) = host_text(&server, host, "/blog/a.plain.html").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn host_text(server: &TestServer, host: &str, at: &str) -> (StatusCode, String) {
    let response = server
        .client
        .get(server.url(at))
        .header("host", host)
        .send()
        .await
        .expect("answered");
    (response.status(), response.text().await.expect("text"))
}

#[tokio::test]
async fn a_bulk_preview_is_bounded_and_authorized_as_a_preview() {
    let source = MockServer::start().await;
    let (server, _) = site(&format!("{}/content", source.uri()), None).await;
    let token = server.token(SITE_ADMIN);
    let too_many: Vec<String> = (0..=1000).map(|i| format!("/p{i}")).collect();
    for (body, why) in [
        (json!({"paths": too_many}), "1001 paths"),
        (json!({"paths": []}), "no paths"),
        (json!({"paths": ["/a/*/b"]}), "a wildcard inside"),
        (json!({"paths": ["/a/../b"]}), "a dot segment"),
        (json!({"paths": ["relative"]}), "no leading slash"),
        (json!({"paths": "/a"}), "not a list"),
        (json!({}), "no paths at all"),
    ] {
        let answer = bulk(&server, &token, &body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{why}");
        assert!(answer.error.is_some(), "{why}");
    }
    let body = json!({"paths": ["/a"]});
    let anonymous = server
        .send(
            reqwest::Method::POST,
            "/admin/preview/acme/web/main/*",
            None,
            Some(body.to_string().into_bytes()),
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    // As a single preview: no role on the site, or a token for another site, is 403.
    let bot = server.token("stranger@acme.example");
    assert_eq!(
        bulk(&server, &bot, &body).await.status,
        StatusCode::FORBIDDEN
    );
    let elsewhere = server.token_with(SITE_ADMIN, "acme/other", 60);
    assert_eq!(
        bulk(&server, &elsewhere, &body).await.status,
        StatusCode::FORBIDDEN
    );
    // A `config_admin` account may preview, as a single preview.
    let config_bot = server.token(CONFIG_BOT);
    assert_eq!(
        bulk(&server, &config_bot, &body).await.status,
        StatusCode::ACCEPTED
    );
    for route in [
        "/admin/job/acme/web/main/preview",
        "/admin/job/acme/web/main/preview/job-1",
        "/admin/job/acme/web/main/preview/job-1/details",
    ] {
        let anonymous = server.send(reqwest::Method::GET, route, None, None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{route}");
        assert_eq!(
            server.get(route, &bot).await.status,
            StatusCode::FORBIDDEN,
            "{route}"
        );
    }
    for missing in ["job-1", "job-1/details", "..%2F..%2Fx"] {
        let route = format!("/admin/job/acme/web/main/preview/{missing}");
        assert_eq!(
            server.get(&route, &token).await.status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

/// Answers as a bulk preview service: a POST starts a job (429 with `retry-after` the
/// first time), a job is running for two polls, then stopped; and records when each
/// request came, in order.
#[derive(Clone, Default)]
struct JobService {
    seen: Arc<Mutex<Vec<(Instant, String, String)>>>,
}

impl Respond for JobService {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut seen = self.seen.lock().expect("lock");
        let at = request.url.path().to_string();
        seen.push((Instant::now(), request.method.to_string(), at.clone()));
        let posts = seen.iter().filter(|(_, m, _)| m == "POST").count();
        if request.method.as_str() == "POST" {
            if posts == 1 {
                return ResponseTemplate::new(429).insert_header("retry-after", "1");
            }
            let site = at.split('/').nth(4).unwrap_or("");
            return ResponseTemplate::new(202).set_body_json(json!({
                "status": 202,
                "job": {"topic": "preview", "name": format!("job-{site}"), "state": "created"},
            }));
        }
        let polls = seen.iter().filter(|(_, _, p)| *p == at).count();
        let state = if polls < 3 { "running" } else { "stopped" };
        ResponseTemplate::new(200).set_body_json(json!({
            "state": state,
            "progress": {"total": 4, "processed": if state == "stopped" { 4 } else { 1 }, "failed": 1},
        }))
    }
}

#[tokio::test]
async fn re_previews_ask_one_job_per_site_within_the_rate() {
    let service = MockServer::start().await;
    let recorder = JobService::default();
    Mock::given(path_regex("^/admin/(preview|job)/"))
        .respond_with(recorder.clone())
        .mount(&service)
        .await;
    let options = ClientOptions {
        concurrency: 8,
        rate: Some(5.0),
        ..ClientOptions::default()
    };
    let endpoints = Endpoints {
        admin: format!("{}/admin", service.uri()),
        worker: None,
    };
    let client = Client::new(endpoints, &Token::new("t"), &options).expect("client");
    let sites: Vec<Repreview> = ["blog", "docs", "web"]
        .iter()
        .map(|site| Repreview {
            org: "acme".into(),
            site: site.to_string(),
            branch: "main".into(),
            paths: vec!["/blog/*".into(), "/en/about".into()],
        })
        .collect();
    let options = RepreviewOptions {
        deadline: Duration::from_secs(60),
        poll: Duration::from_millis(100),
        sites_at_once: 8,
    };
    let reports = repreview::run(&client, &sites, &options).await;
    for report in &reports {
        assert_eq!(
            report.outcome,
            RepreviewOutcome::Stopped {
                previewed: 3,
                failed: 1,
                error: None
            },
            "{}",
            report.repreview.site
        );
    }
    assert!(!repreview::all_previewed(&reports));
    let text = repreview::lines(&reports);
    assert!(
        text.contains("Re-preview of acme/web (main): previewed 3, failed 1."),
        "{text}"
    );

    let seen = recorder.seen.lock().expect("lock").clone();
    // One job per site (one POST answered 429 and asked again), each polled until stopped,
    // and never before its job was started.
    let posts: Vec<&String> = seen
        .iter()
        .filter(|(_, m, _)| m == "POST")
        .map(|(_, _, p)| p)
        .collect();
    assert_eq!(posts.len(), 4, "{posts:?}");
    for site in ["blog", "docs", "web"] {
        let post = format!("/admin/preview/acme/{site}/main/*");
        let poll = format!("/admin/job/acme/{site}/main/preview/job-{site}");
        let first_poll = seen
            .iter()
            .position(|(_, _, p)| *p == poll)
            .expect("polled");
        let last_post = seen
            .iter()
            .rposition(|(_, _, p)| *p == post)
            .expect("posted");
        assert!(last_post < first_poll, "{site}");
        assert_eq!(
            seen.iter().filter(|(_, _, p)| *p == poll).count(),
            3,
            "{site}"
        );
    }
    // At most 5 requests start in any second (one more for the arrival's jitter), however
    // many sites ask at once.
    for (i, (start, _, _)) in seen.iter().enumerate() {
        let within = seen[i..]
            .iter()
            .take_while(|(at, _, _)| at.duration_since(*start) < Duration::from_secs(1))
            .count();
        assert!(
            within <= 6,
            "{within} requests within a second of request {i}"
        );
    }
}

#[tokio::test]
async fn another_instance_on_the_store_answers_a_job_and_an_interrupted_one_reads_stopped() {
    let source = MockServer::start().await;
    let (server, _) = site(&format!("{}/content", source.uri()), None).await;
    let token = server.token(SITE_ADMIN);
    serve_pages(&source, &[("/a", "A")]).await;
    let started = bulk(&server, &token, &json!({"paths": ["/a"]})).await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let name = started.body["job"]["name"]
        .as_str()
        .expect("a name")
        .to_string();
    stopped_job(&server, &token, &name).await;

    let other = TestServer::start_on(server.data.clone()).await;
    let token = other.token(SITE_ADMIN);
    let job = other
        .get(&format!("/admin/job/acme/web/main/preview/{name}"), &token)
        .await;
    assert_eq!(job.status, StatusCode::OK, "{:?}", job.error);
    assert_eq!(job.body["state"], "stopped");
    assert_eq!(
        job.body["progress"],
        json!({"total": 1, "processed": 1, "failed": 0})
    );

    // A job whose instance stopped while it ran: its record says running, and was last
    // saved long ago.
    let mut record = job.body.clone();
    record["name"] = json!("job-0000000000001-0123456789abcdef");
    record["state"] = json!("running");
    record["progress"] = json!({"total": 10, "processed": 4, "failed": 0});
    record["heartbeat"] = json!(1);
    record
        .as_object_mut()
        .expect("an object")
        .remove("stopTime");
    let folder = server.data.join("jobs/acme/web/main/preview");
    std::fs::write(
        folder.join("job-0000000000001-0123456789abcdef.json"),
        record.to_string(),
    )
    .expect("write a record");
    let job = other
        .get(
            "/admin/job/acme/web/main/preview/job-0000000000001-0123456789abcdef",
            &token,
        )
        .await;
    assert_eq!(job.body["state"], "stopped");
    let error = job.body["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with("interrupted") && error.contains("4 of 10"),
        "{error}"
    );
}
