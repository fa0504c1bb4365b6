//! YAML as the platform reads it, driven by `tests/cases/yaml/`: each `NAME.yaml` parses to
//! the JSON of `NAME.json`, or is refused as `NAME.error` says (`line:col code`). Where node
//! and helix-shared-config are installed (`support::platform_config_modules`),
//! `platform.mjs` runs the platform's own parse over every case: it
//! must give the same JSON, and refuse what siteops refuses. Then the same through `serve`
//! (stored as sent, anchors and all; an alias bomb refused, located), and through the plan's
//! and import's reading of the live YAML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use siteops_config::document::Document;
use siteops_config::source::SourceFile;

use crate::harness::{ORG_ADMIN, TestServer};
use crate::plan_apply::{Fixture, run_siteops};
use crate::support::{read, repo_root};

fn cases() -> Vec<PathBuf> {
    let dir = repo_root().join("tests/cases/yaml");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("case directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
}

/// What a case expects: the JSON, or the first error as `line:col code`.
enum Expected {
    Value(Value),
    Error(String),
}

fn expected(case: &Path) -> Expected {
    let json = case.with_extension("json");
    if json.exists() {
        Expected::Value(serde_json::from_str(&read(&json)).expect("the expected JSON"))
    } else {
        Expected::Error(read(&case.with_extension("error")).trim().to_string())
    }
}

#[test]
fn each_case_parses_to_its_json_or_is_refused_where_it_says() {
    let cases = cases();
    assert!(cases.len() >= 5, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        let parsed = Document::parse_yaml(SourceFile::new(name.to_string(), read(case)));
        let actual = match parsed {
            Ok(document) => Expected::Value(document.value),
            Err(problems) => Expected::Error(
                problems
                    .first()
                    .map(|p| {
                        let span = p.location.as_ref().and_then(|l| l.span.as_ref());
                        let (line, column) =
                            span.map_or((0, 0), |s| (s.start.line, s.start.column));
                        format!("{line}:{column} {}", p.code)
                    })
                    .unwrap_or_default(),
            ),
        };
        match (expected(case), actual) {
            (Expected::Value(want), Expected::Value(got)) if want == got => {}
            (Expected::Error(want), Expected::Error(got)) if want == got => {}
            (Expected::Value(want), Expected::Value(got)) => {
                failures.push(format!("{name}: expected {want}\n  got {got}"));
            }
            (Expected::Value(_), Expected::Error(got)) => {
                failures.push(format!("{name}: refused ({got})"));
            }
            (Expected::Error(want), Expected::Value(_)) => {
                failures.push(format!("{name}: accepted, expected {want}"));
            }
            (Expected::Error(want), Expected::Error(got)) => {
                failures.push(format!("{name}: expected {want}, got {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_platform_parses_each_case_to_the_same_json_and_refuses_the_same() {
    let Some(modules) = crate::support::platform_config_modules() else {
        return;
    };
    let cases = cases();
    let script = repo_root().join("tests/cases/yaml/platform.mjs");
    let output = Command::new("node")
        .arg(&script)
        .arg(&modules)
        .args(&cases)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: BTreeMap<String, Value> =
        serde_json::from_slice(&output.stdout).expect("the script's JSON");
    let mut failures = Vec::new();
    for case in &cases {
        let answer = &answers[&case.to_string_lossy().to_string()];
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        match expected(case) {
            Expected::Value(want) if answer.get("value") != Some(&want) => {
                failures.push(format!("{name}: the platform reads {answer}"));
            }
            Expected::Error(_) if answer.get("error").is_none() => {
                failures.push(format!("{name}: the platform accepts it: {answer}"));
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Sends `body` as YAML with `method` to `path` of `server`, as the org's admin: the status,
/// `x-error` and the text answered.
async fn send_yaml(
    server: &TestServer,
    token: &str,
    method: Method,
    path: &str,
    body: &str,
) -> (StatusCode, String, String) {
    let response = (server.client)
        .request(method, server.url(path))
        .header("authorization", format!("token {token}"))
        .header("content-type", "text/yaml")
        .body(body.to_string())
        .send()
        .await
        .expect("answered");
    let status = response.status();
    let error = response
        .headers()
        .get("x-error")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, error, response.text().await.expect("text"))
}

/// A sitemap configuration with an anchor, an alias and a merge key.
const SITEMAP: &str = "\
sitemaps:
  website: &site
    origin: https://www.acme.example
    lastmod: YYYY-MM-DD
    source: /query-index.json
    destination: /sitemap.xml
  news:
    <<: *site
    source: /news/query-index.json
    destination: /sitemap-news.xml
";

#[tokio::test]
async fn serve_keeps_yaml_with_anchors_as_sent_and_refuses_an_alias_bomb_where_it_is() {
    let server = TestServer::start().await;
    let token = server.token(ORG_ADMIN);
    let site = json!({"code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}}, "content": {"source": {"type": "markup", "url": "https://content.example.com/web"}}});
    let made = server
        .put("/admin/config/acme/sites/web.json", &token, &site)
        .await;
    assert!(made.status.is_success(), "{:?}", made.error);
    let query = read(&repo_root().join("tests/cases/yaml/indexing-languages.yaml"));
    let families = [
        (
            "/admin/config/acme/sites/web/content",
            "/api/acme/sites/web/config/content",
        ),
        (
            "/api/acme/sites/web/config/content",
            "/admin/config/acme/sites/web/content",
        ),
    ];
    for (write, read_back) in families {
        for (name, text) in [("query", query.as_str()), ("sitemap", SITEMAP)] {
            let (at, back) = (
                format!("{write}/{name}.yaml"),
                format!("{read_back}/{name}.yaml"),
            );
            // PUT creates, once; POST replaces; each keeps the text as sent.
            let (status, error, _) = send_yaml(&server, &token, Method::PUT, &at, text).await;
            assert_eq!(status, StatusCode::CREATED, "PUT {at}: {error}");
            let (status, _, _) = send_yaml(&server, &token, Method::PUT, &at, text).await;
            assert_eq!(status, StatusCode::CONFLICT, "a second PUT {at}");
            let (status, error, _) = send_yaml(&server, &token, Method::POST, &at, text).await;
            assert_eq!(status, StatusCode::OK, "POST {at}: {error}");
            let (status, _, stored) = send_yaml(&server, &token, Method::GET, &back, "").await;
            assert_eq!(
                (status, stored.as_str()),
                (StatusCode::OK, text),
                "GET {back}"
            );
            let (status, _, _) = send_yaml(&server, &token, Method::DELETE, &back, "").await;
            assert_eq!(status, StatusCode::NO_CONTENT);
        }
    }
    let bomb = read(&repo_root().join("tests/cases/yaml/alias-bomb.yaml"));
    for at in [
        "/admin/config/acme/sites/web/content/query.yaml",
        "/api/acme/sites/web/config/content/sitemap.yaml",
    ] {
        for method in [Method::POST, Method::PUT] {
            let (status, error, _) = send_yaml(&server, &token, method.clone(), at, &bomb).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {at}");
            assert!(
                error.starts_with("the YAML body does not parse: line 8, column 8: the alias `*e`")
                    && error.contains("alias bomb")
                    && error.ends_with("(yaml-alias)"),
                "{error}"
            );
        }
    }
}

/// The website's index configuration of the example repository, written with anchors,
/// aliases and merge keys: the same data as `sites/acme/website/query.toml`.
const WEBSITE_QUERY: &str = r#"version: 1
indices:
  default:
    include: ['/**']
    exclude: ['/de/**', '/drafts/**', '/fragments/**']
    target: /query-index.json
    properties:
      title: &title
        select: head > meta[property="og:title"]
        value: attribute(el, "content")
      description:
        <<: *title
        select: head > meta[name="description"]
      image:
        select: head > meta[property="og:image"]
        value: match(attribute(el, "content"), "https://[^/]+(/.*)")
      lastModified: &lastModified
        select: none
        value: parseTimestamp(headers["last-modified"], "ddd, DD MMM YYYY hh:mm:ss GMT")
      robots: &robots
        <<: *title
        select: head > meta[name="robots"]
  de:
    include: ['/de/**']
    target: /de/query-index.json
    properties:
      title: *title
      lastModified: *lastModified
      robots: *robots
  news:
    include: ['/news/**']
    target: /news/query-index.json
    properties:
      title:
        selectFirst: main h1
        value: textContent(el)
      date:
        select: head > meta[name="publication-date"]
        value: parseTimestamp(attribute(el, "content"), "YYYY-MM-DD")
      tags:
        select: head > meta[property="article:tag"]
        values: attribute(el, "content")
        faceted: true
"#;

#[tokio::test]
async fn plan_and_import_read_live_yaml_with_anchors_as_its_data() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let at = "/admin/config/acme/sites/website/content/query.yaml";
    let (status, error, _) = send_yaml(&f.server, &f.token, Method::POST, at, WEBSITE_QUERY).await;
    assert_eq!(status, StatusCode::OK, "{error}");
    // The plan reads the live text as data: the same as the repository's, no change.
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    assert!(plan.stdout.ends_with("\nNo changes.\n"), "{}", plan.stdout);

    // Import writes the data, expanded; the imported repository plans no change either.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    f.import_into(&root, &["--site", "website"]).await.expect(0);
    let imported = read(&root.join("sites/acme/website/query.toml"));
    let robots = "[indices.de.properties.robots]\nselect = 'head > meta[name=\"robots\"]'\nvalue = 'attribute(el, \"content\")'";
    assert!(imported.contains(robots), "{imported}");
    let plan = [
        "plan",
        "--root",
        &root.display().to_string(),
        "--admin",
        &f.admin_url(),
        "--transform-url",
        &f.worker_url(),
        "--site",
        "acme/website",
        "--detailed-exitcode",
    ]
    .map(String::from)
    .to_vec();
    let env = [
        ("SITEOPS_ADMIN_TOKEN", f.token.as_str()),
        ("ACME_WEBSITE_GIT_SYNC", "any-value"),
        ("ACME_PARTNER_PREVIEW", "any-value"),
    ];
    // Exit code 0 with --detailed-exitcode: no change (the worker branches it did not
    // import are live but not managed).
    let plan = run_siteops(plan, &env).await.expect(0);
    assert!(plan.stdout.contains("\nNo changes."), "{}", plan.stdout);
}
