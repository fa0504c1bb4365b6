//! Two orgs on one shared service: neither reaches the other's code, secrets, protected
//! pages or worker data, through any route; a sync secret goes only to the origin it was
//! issued for; a `config_admin` cannot delete a site or open a protected one.
//!
//! Each scenario runs on two set-ups: one server on a data directory, and the shared
//! service itself: two `siteops serve` processes on one S3 bucket (moto, see
//! [`crate::object_store`]), acme's people talking to the first and evil's to the second.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{Answer, TestServer, answer};
use crate::object_store::{self, Process, bucket_contents, moto_or_skip, s3};

const ACME: &str = "ops@acme.example";
const TECH: &str = "tech@acme.example";
const EVIL: &str = "mallory@evil.example";
const ACME_SECRET: &str = "acme-sync-secret";
const ACME_API_KEY: &str = "acme-api-key";

/// The service under test, as its users reach it.
struct Service {
    client: reqwest::Client,
    /// Base URLs: acme's people use the first, evil's the last.
    instances: Vec<String>,
    tokens: Tokens,
}

enum Tokens {
    /// Signed by the in-process server (which the service keeps running).
    InProcess(TestServer),
    /// From `siteops token` on the bucket, once per holder.
    Bucket {
        bucket: Bucket,
        minted: Mutex<HashMap<String, String>>,
        _instances: Vec<Process>,
    },
}

/// The S3 bucket of the shared set-up.
struct Bucket {
    moto: PathBuf,
    endpoint: String,
    _server: Process,
}

const BUCKET: &str = "tenants";
const STORE: &str = "s3://tenants/shared";

impl Service {
    async fn on_a_directory() -> Service {
        let temp = tempfile::tempdir().expect("temp dir");
        let config = TestServer::config(
            temp.path().to_path_buf(),
            &[&format!("acme:{ACME}"), &format!("evil:{EVIL}")],
            siteops_server::preview::Limits::default(),
        );
        let mut server = TestServer::start_config(config).await;
        server.keep(temp);
        Service {
            client: reqwest::Client::new(),
            instances: vec![server.url("")],
            tokens: Tokens::InProcess(server),
        }
    }

    async fn on_a_shared_bucket(moto: &Path) -> Service {
        let (server, endpoint) = s3(moto, BUCKET).await;
        let admins = [format!("acme:{ACME}"), format!("evil:{EVIL}")];
        let admins: Vec<&str> = admins.iter().map(String::as_str).collect();
        let (first, first_port) = object_store::serve(STORE, &endpoint, &admins, &[]);
        let (second, second_port) = object_store::serve(STORE, &endpoint, &admins, &[]);
        Service {
            client: reqwest::Client::new(),
            instances: [first_port, second_port]
                .map(|port| format!("http://127.0.0.1:{port}"))
                .to_vec(),
            tokens: Tokens::Bucket {
                bucket: Bucket {
                    moto: moto.to_path_buf(),
                    endpoint,
                    _server: server,
                },
                minted: Mutex::default(),
                _instances: vec![first, second],
            },
        }
    }

    /// Someone signed in as `subject`, talking to their org's instance.
    fn as_(&self, subject: &str) -> Caller<'_> {
        let token = match &self.tokens {
            Tokens::InProcess(server) => server.token(subject),
            Tokens::Bucket { bucket, minted, .. } => minted
                .lock()
                .expect("not poisoned")
                .entry(subject.to_string())
                .or_insert_with(|| object_store::token(STORE, &bucket.endpoint, subject))
                .clone(),
        };
        let base = if subject == EVIL {
            self.instances.last()
        } else {
            self.instances.first()
        };
        Caller {
            client: &self.client,
            base: base.expect("an instance"),
            token,
        }
    }

    /// Every object of the shared bucket, or `None` on a directory.
    fn objects(&self) -> Option<Vec<(String, Vec<u8>)>> {
        match &self.tokens {
            Tokens::InProcess(_) => None,
            Tokens::Bucket { bucket, .. } => {
                Some(bucket_contents(&bucket.moto, &bucket.endpoint, BUCKET))
            }
        }
    }
}

/// One person's requests, with their token as `Authorization: token …`.
struct Caller<'a> {
    client: &'a reqwest::Client,
    base: &'a str,
    token: String,
}

impl Caller<'_> {
    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .header("authorization", format!("token {}", self.token))
    }

    async fn send(&self, method: Method, path: &str, body: Option<&Value>) -> Answer {
        let mut request = self.request(method, path);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        answer(request.send().await.expect("answered")).await
    }

    async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    async fn put(&self, path: &str, body: &Value) -> Answer {
        self.send(Method::PUT, path, Some(body)).await
    }

    async fn post(&self, path: &str, body: &Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }

    async fn delete(&self, path: &str) -> Answer {
        self.send(Method::DELETE, path, None).await
    }

    /// A GET on the preview host `host`: its status and body.
    async fn preview(&self, host: &str, path: &str) -> (StatusCode, String) {
        let response = self
            .request(Method::GET, path)
            .header("host", host)
            .send()
            .await
            .expect("answered");
        (response.status(), response.text().await.expect("a body"))
    }
}

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

/// Runs a sync of `org/site`'s main branch as `caller`; the stopped job.
async fn sync(caller: &Caller<'_>, org: &str, site: &str) -> Value {
    let started = caller
        .send(
            Method::POST,
            &format!("/admin/code/{org}/{site}/main"),
            None,
        )
        .await;
    assert_eq!(started.status, StatusCode::ACCEPTED, "{:?}", started.error);
    let link = started.body["links"]["self"]
        .as_str()
        .expect("a link")
        .to_string();
    // The link is absolute, on whichever instance answered.
    let link = link
        .find("/admin/")
        .map_or(link.as_str(), |at| &link[at..])
        .to_string();
    for _ in 0..250 {
        let job = caller.get(&link).await.body;
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
/// secret and a worker entry whose header holds an API key, and syncs it; evil has an org
/// of its own.
async fn acme_onboards(service: &Service, acme_raw: &MockServer) {
    let acme = service.as_(ACME);
    let access = json!({"admin": {"role": {"admin": [ACME], "config_admin": [TECH]}, "requireAuth": "auto"}});
    let created = acme
        .put(
            "/admin/config/acme/sites/blog.json",
            &json!({"code": byogit(acme_raw, true), "access": access}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let secret = acme
        .post(
            "/admin/config/acme/sites/blog/secrets/sync.json",
            &json!({"value": ACME_SECRET}),
        )
        .await;
    assert_eq!(secret.status, StatusCode::OK, "{:?}", secret.error);
    let worker = acme
        .post(
            "/transform/config/acme/blog/main",
            &json!([{"path": "/products/", "endpoint": "https://api.acme.example/products/{{id}}", "regex": "/[0-9]+$/", "headers": {"x-api-key": ACME_API_KEY}}]),
        )
        .await;
    assert_eq!(worker.status, StatusCode::OK, "{:?}", worker.error);
    let job = sync(&acme, "acme", "blog").await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
}

async fn one_org_reaches_none_of_anothers(service: &Service) {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    let evil_raw = raw_host("acme/blog", "<script>stolen()</script>").await;
    acme_onboards(service, &acme_raw).await;
    let evil = service.as_(EVIL);

    // evil names acme's repository as its code, with a raw host of its own, and syncs:
    // what it syncs lands in evil's own code store.
    let mut hijack = byogit(&evil_raw, false);
    hijack["source"] = json!({"type": "github", "url": "https://github.com/acme/blog", "raw_url": format!("{}/acme/blog", evil_raw.uri())});
    let created = evil
        .put(
            "/admin/config/evil/sites/blog.json",
            &json!({"code": hijack, "access": {"admin": {"role": {"admin": [EVIL]}}}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);
    let job = sync(&evil, "evil", "blog").await;
    assert_eq!(job["progress"]["failed"], 0, "{job:#}");
    assert_eq!(
        service
            .as_(ACME)
            .preview("main--blog--acme.localhost", "/scripts/app.js")
            .await,
        (StatusCode::OK, "/* <meta name=\"acme\"> */".to_string()),
        "acme's code is acme's"
    );
    assert_eq!(
        evil.preview("main--blog--evil.localhost", "/scripts/app.js")
            .await,
        (
            StatusCode::OK,
            "/* <script>stolen()</script> */".to_string()
        ),
        "evil reads its own copy, never acme's"
    );

    // evil cannot select acme's onboarded repository (and so never gets its secret).
    let selected = evil
        .put(
            "/admin/config/evil/sites/thief.json",
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
        (Method::GET, "/admin/config/acme/sites/blog.json"),
        (Method::GET, "/admin/config/acme/sites/blog/code.json"),
        (Method::GET, "/admin/config/acme/sites/blog/access.json"),
        (Method::GET, "/admin/config/acme/sites/blog/secrets.json"),
        (
            Method::GET,
            "/admin/config/acme/sites/blog/secrets/sync.json",
        ),
        (Method::GET, "/transform/config/acme/blog/main"),
        (Method::GET, "/transform/config/acme/blog"),
        (Method::GET, "/admin/job/acme/blog/main/code"),
        (Method::GET, "/admin/status/acme/blog/main"),
        (Method::POST, "/admin/code/acme/blog/main"),
        (Method::POST, "/admin/preview/acme/blog/main/index"),
        (Method::DELETE, "/admin/config/acme/sites/blog.json"),
        (
            Method::DELETE,
            "/admin/config/acme/sites/blog/secrets/sync.json",
        ),
    ] {
        let answer = evil.send(method.clone(), path, None).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{method} {path}");
        let body = answer.body.to_string();
        assert!(
            !body.contains(ACME_SECRET) && !body.contains(ACME_API_KEY),
            "{method} {path}: {body}"
        );
    }
    let creating = evil
        .put(
            "/admin/config/acme/sites/new.json",
            &json!({"code": {"owner": "acme", "repo": "new", "source": {"type": "github", "url": "https://github.com/acme/new"}}}),
        )
        .await;
    assert_eq!(creating.status, StatusCode::FORBIDDEN);
    // acme's protected pages, files and worker data.
    for path in ["/scripts/app.js", "/products/1"] {
        let (status, _) = evil.preview("main--blog--acme.localhost", path).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
    }
    let worker = evil.get("/transform/acme/blog/main/products/1").await;
    assert_eq!(worker.status, StatusCode::FORBIDDEN, "{:?}", worker.error);

    // Through all of it, evil's host never saw acme's secret.
    assert!(!received_secret(&evil_raw, ACME_SECRET).await);
    assert!(received_secret(&acme_raw, ACME_SECRET).await);

    // On the bucket: each org's code under its own prefix, no secret as it is.
    if let Some(objects) = service.objects() {
        let object = |key: &str| {
            objects
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, body)| String::from_utf8_lossy(body).into_owned())
        };
        assert_eq!(
            object("shared/code/acme/acme/blog/main/scripts/app.js").as_deref(),
            Some("/* <meta name=\"acme\"> */")
        );
        assert_eq!(
            object("shared/code/evil/acme/blog/main/scripts/app.js").as_deref(),
            Some("/* <script>stolen()</script> */")
        );
        for (key, body) in &objects {
            let text = String::from_utf8_lossy(body);
            assert!(
                !text.contains(ACME_SECRET) && !text.contains(ACME_API_KEY),
                "{key} holds a secret as it is"
            );
        }
    }
}

async fn a_sync_secret_goes_only_to_its_origin(service: &Service) {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    let elsewhere = raw_host("acme/blog", "<meta name=\"elsewhere\">").await;
    acme_onboards(service, &acme_raw).await;
    let acme = service.as_(ACME);

    // A second site of the org selecting the repository at another origin: refused.
    let other_origin = acme
        .put(
            "/admin/config/acme/sites/shop.json",
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
    let same_origin = acme
        .put(
            "/admin/config/acme/sites/shop.json",
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
    let moved = service
        .as_(TECH)
        .post(
            "/admin/config/acme/sites/blog/code.json",
            &byogit(&elsewhere, true),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.error);
    let job = sync(&acme, "acme", "blog").await;
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
    let rewritten = acme
        .post(
            "/admin/config/acme/sites/blog/secrets/sync.json",
            &json!({"value": "new-secret"}),
        )
        .await;
    assert_eq!(rewritten.status, StatusCode::OK);
    let job = sync(&acme, "acme", "blog").await;
    assert_eq!(job["error"], Value::Null, "{job:#}");
    assert!(received_secret(&elsewhere, "new-secret").await);
}

async fn a_config_admin_cannot_delete_or_open(service: &Service) {
    let acme_raw = raw_host("acme/blog", "<meta name=\"acme\">").await;
    acme_onboards(service, &acme_raw).await;
    let tech = service.as_(TECH);
    let deleted = tech.delete("/admin/config/acme/sites/blog.json").await;
    assert_eq!(deleted.status, StatusCode::FORBIDDEN);
    let open = json!({"admin": {"role": {"admin": [ACME], "config_admin": [TECH]}}});
    let opened = tech
        .post("/admin/config/acme/sites/blog/access.json", &open)
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
    let dropped = tech
        .delete("/admin/config/acme/sites/blog/access.json")
        .await;
    assert_eq!(dropped.status, StatusCode::FORBIDDEN);
    // Everything else of the configuration stays the config_admin's to change.
    let content = tech
        .post(
            "/admin/config/acme/sites/blog/content.json",
            &json!({"source": {"url": "https://content.acme.example/blog", "type": "markup"}}),
        )
        .await;
    assert_eq!(content.status, StatusCode::OK, "{:?}", content.error);
    // The site's admin may do both.
    let acme = service.as_(ACME);
    let opened = acme
        .post("/admin/config/acme/sites/blog/access.json", &open)
        .await;
    assert_eq!(opened.status, StatusCode::OK, "{:?}", opened.error);
    let deleted = acme.delete("/admin/config/acme/sites/blog.json").await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
}

/// Runs `scenario` on a data directory, then on two instances sharing an S3 bucket.
macro_rules! on_both_setups {
    ($($name:ident: $scenario:ident;)*) => {
        mod on_a_directory {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$scenario(&super::Service::on_a_directory().await).await;
                }
            )*
        }
        mod on_a_shared_bucket {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(moto) = super::moto_or_skip() else {
                        return;
                    };
                    super::$scenario(&super::Service::on_a_shared_bucket(&moto).await).await;
                }
            )*
        }
    };
}

on_both_setups! {
    one_org_reaches_none_of_another_orgs_code_secrets_pages_or_worker_data: one_org_reaches_none_of_anothers;
    a_sync_secret_goes_only_to_the_origin_it_was_issued_for: a_sync_secret_goes_only_to_its_origin;
    a_config_admin_cannot_delete_a_site_or_open_a_protected_one: a_config_admin_cannot_delete_or_open;
}
