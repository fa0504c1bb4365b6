//! `siteops import --from-repo`: a git-era site written for these tests
//! (`tests/fixtures/git-era/site/`: fstab.yaml with mountpoints and folders,
//! helix-query.yaml and helix-sitemap.yaml with YAML anchors and merge keys, paths.json,
//! robots.txt, a headers and a redirects sheet, head.html, 404.html, .hlxignore) migrated
//! by the real binary, validated, and served offline: its folder mapping delivers, what
//! its `.hlxignore` names answers 404 from the preview host, and its index and sitemap
//! configurations equal what the platform's own parser (helix-shared-config) reads from
//! the original files: stored beside the fixture, and checked again by running the parser
//! where it is installed (`support::platform_config_modules`). A repository with what cannot be
//! carried over is reported with file, line and column, and nothing is written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::plan_apply::run_siteops;
use crate::serve_process::{Serve, get_on as get};
use crate::support::{copy_dir, repo_root};

const HOST: &str = "main--legacy--acme.localhost";

fn fixture(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures/git-era").join(name)
}

/// `siteops ARGS` in `dir`.
fn siteops(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_siteops"))
        .current_dir(dir)
        .args(args)
        .env_remove("SITEOPS_ADMIN_URL")
        .env("NO_COLOR", "1")
        .output()
        .expect("siteops runs")
}

/// Standard output, then standard error, as one text.
fn printed(output: &Output) -> String {
    format!(
        "{}--- stderr ---\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A scratch directory with the fixture `name` copied in as `repo` (the git-era
/// repository) and the site migrated into `ops` by `siteops import --from-repo`.
fn migrated(name: &str) -> (tempfile::TempDir, Output) {
    let scratch = tempfile::tempdir().expect("scratch");
    copy_dir(&fixture(name), &scratch.path().join("repo"));
    let output = siteops(
        scratch.path(),
        &[
            "import",
            "--from-repo",
            "repo",
            "--org",
            "acme",
            "--site",
            "legacy",
            "--root",
            "ops",
        ],
    );
    (scratch, output)
}

/// A page of the content source (`content.da.live`), answered by a mock of the site.
fn mock_page(ops: &Path, path: &str, heading: &str) {
    let name = path.trim_start_matches('/').replace('/', "-");
    let mapping = json!({
        "name": name,
        "request": {
            "method": "GET",
            "host": {"equalTo": "content.da.live"},
            "url": format!("/acme/legacy{path}")
        },
        "response": {
            "status": 200,
            "headers": {"Content-Type": "text/html; charset=utf-8"},
            "body": format!("<html><head><title>{heading}</title></head><body><main><div><h1>{heading}</h1></div></main></body></html>")
        }
    });
    let dir = ops.join("sites/acme/legacy/mocks/mappings");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join(format!("{name}.json")),
        serde_json::to_vec_pretty(&mapping).expect("json"),
    )
    .expect("write the mapping");
}

/// Every other page of the content source is not found, as the source answers.
fn mock_not_found(ops: &Path) {
    let mapping = json!({
        "name": "not-found",
        "priority": 10,
        "request": {
            "method": "GET",
            "host": {"equalTo": "content.da.live"},
            "urlPattern": "/acme/legacy/.*"
        },
        "response": {"status": 404}
    });
    std::fs::write(
        ops.join("sites/acme/legacy/mocks/mappings/not-found.json"),
        serde_json::to_vec_pretty(&mapping).expect("json"),
    )
    .expect("write the mapping");
}

#[tokio::test]
async fn a_git_era_site_is_migrated_validated_and_served() {
    let (scratch, output) = migrated("site");
    assert!(output.status.success(), "{}", printed(&output));
    insta::assert_snapshot!("git-era-import", printed(&output));
    let ops = scratch.path().join("ops");
    let validated = siteops(&ops, &["validate"]);
    assert!(validated.status.success(), "{}", printed(&validated));
    // robots.txt is the site's configuration now (a preview host answers the platform's
    // default robots.txt, whatever the site's is; production hosts answer this one).
    let site: toml::Value = toml::from_str(&crate::support::read(
        &ops.join("sites/acme/legacy/site.toml"),
    ))
    .expect("TOML");
    assert_eq!(
        site.get("robots")
            .and_then(|r| r.get("txt"))
            .and_then(toml::Value::as_str),
        Some(crate::support::read(&fixture("site").join("robots.txt")).as_str())
    );

    mock_page(&ops, "/products/default", "Every product");
    mock_not_found(&ops);
    let data = tempfile::tempdir().expect("data");
    let serve = Serve::start(&ops, data.path());
    let port = serve.port;

    // The folder mapping of fstab.yaml: a product the content does not have is served by
    // the folder's page.
    let (status, page) = get(port, HOST, "/products/kettle").await;
    assert_eq!(status, StatusCode::OK, "{page}\n{:?}", serve.log());
    assert!(page.contains("Every product"), "{page}");
    // The code is the repository's checkout, less what its .hlxignore leaves out.
    let (status, script) = get(port, HOST, "/scripts/scripts.js").await;
    assert_eq!(status, StatusCode::OK, "{script}");
    for ignored in ["/package.json", "/README.md"] {
        let (status, body) = get(port, HOST, ignored).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{ignored}: {body}");
        assert!(!body.contains("eslint"), "{ignored}: {body}");
    }
}

/// The platform's parse of an index (`query`) or sitemap (`sitemap`) configuration file,
/// as JSON: helix-shared-config's `IndexConfig` / `SitemapConfig`, run by node.
fn platform_parse(modules: &Path, kind: &str, file: &Path) -> Value {
    let output = Command::new("node")
        .arg(repo_root().join("tests/fixtures/git-era/platform-parse.mjs"))
        .arg(modules)
        .arg(kind)
        .arg(file)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{kind} {}: {}",
        file.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// What the platform parses from the fixture's `helix-<kind>.yaml`, as stored beside it
/// (`platform-<kind>.json`, written by `platform-parse.mjs`, checked again where node is).
fn stored_platform_parse(kind: &str) -> Value {
    let path = fixture(&format!("platform-{kind}.json"));
    serde_json::from_str(&crate::support::read(&path)).expect("JSON")
}

/// The body siteops sends for `query.toml` (`content/query.yaml`) and `sitemap.toml` is the
/// data the platform parsed from the original files: compared as JSON with the stored
/// parse, and, where the platform's parser runs, with its parse of both.
#[test]
fn the_migrated_index_and_sitemap_equal_the_platforms_parse() {
    let (scratch, output) = migrated("site");
    assert!(output.status.success(), "{}", printed(&output));
    let ops = scratch.path().join("ops");
    let compiled = siteops(&ops, &["compile", "--redact", "--out", "bodies"]);
    assert!(compiled.status.success(), "{}", printed(&compiled));
    let parser = crate::support::platform_config_modules();
    for kind in ["query", "sitemap"] {
        let platform = stored_platform_parse(kind);
        // Not vacuous: the entries merged with `<<: *…` are there.
        let merged = match kind {
            "query" => platform.pointer("/indices/french/properties/title"),
            _ => platform.pointer("/sitemaps/site/languages/fr/hreflang"),
        };
        assert!(merged.is_some(), "{kind}: {platform}");
        let sent = ops.join(format!("bodies/acme/sites/legacy/content/{kind}.yaml"));
        let text = crate::support::read(&sent);
        let source = siteops_config::source::SourceFile::new(format!("{kind}.yaml"), text);
        let body = siteops_config::document::Document::parse_yaml(source)
            .expect("the body is YAML")
            .value;
        assert_eq!(
            body, platform,
            "{kind}: the body sent is other data than the platform parsed from the original"
        );
        if let Some(modules) = &parser {
            let original = fixture("site").join(format!("helix-{kind}.yaml"));
            assert_eq!(
                platform_parse(modules, kind, &original),
                platform,
                "{kind}: the stored parse is stale: run tests/fixtures/git-era/platform-parse.mjs"
            );
            assert_eq!(
                platform_parse(modules, kind, &sent),
                platform,
                "{kind}: the platform parses the body sent to other data"
            );
        }
    }
}

#[test]
fn what_cannot_be_carried_over_is_reported_with_its_place() {
    let (scratch, output) = migrated("unmigratable");
    assert!(!output.status.success(), "{}", printed(&output));
    insta::assert_snapshot!("git-era-unmigratable", printed(&output));
    assert!(
        !scratch.path().join("ops/sites").exists(),
        "nothing is written"
    );
}

/// Then plan and apply take the site to the configuration service: applied, it plans no
/// changes, and the index configuration the service keeps parses (on the platform's
/// parser, where it is at hand) to what the original helix-query.yaml does.
#[tokio::test]
async fn the_migrated_site_applies_and_then_plans_no_changes() {
    let (scratch, output) = migrated("site");
    assert!(output.status.success(), "{}", printed(&output));
    let ops = scratch.path().join("ops").display().to_string();
    let server = TestServer::start().await;
    let token = server.token(ORG_ADMIN);
    let admin = server.url("/admin");
    let env = [("SITEOPS_ADMIN_TOKEN", token.as_str())];
    let run = |command: &str, flag: &str| {
        let args = [command, "--root", &ops, "--admin", &admin, flag];
        run_siteops(args.iter().map(|a| a.to_string()).collect(), &env)
    };
    run("apply", "--yes").await.expect(0);
    run("plan", "--detailed-exitcode").await.expect(0);

    let stored = (server.client)
        .get(format!(
            "{admin}/config/acme/sites/legacy/content/query.yaml"
        ))
        .header("x-auth-token", &token)
        .send()
        .await
        .expect("answered");
    assert_eq!(stored.status(), StatusCode::OK);
    let text = stored.text().await.expect("text");
    assert!(text.contains("/fr/query-index.json"), "{text}");
    let source = siteops_config::source::SourceFile::new("query.yaml", text);
    let kept = siteops_config::document::Document::parse_yaml(source)
        .expect("YAML")
        .value;
    assert_eq!(kept, stored_platform_parse("query"));
}
