//! The platform's documents of August 2026 (schema 1.73.0), end to end: `editor` (an open
//! map) in a site, a profile and the org, CloudFront's `tagInvalidationEnabled`, and an
//! index glob from any depth (`**/drafts/**`) are taken by the bundled service, imported
//! into files that validate, and planned as no change; one edit is one change.

use serde_json::{Value, json};

use crate::plan_apply::{Fixture, Run, run_siteops};
use crate::support::read;

const EDITOR: &str = r#"{"universal-editor": {"enabled": true, "extensions": {"assets": "https://assets.acme.example"}}}"#;

/// The index configuration of the new site: globs as the platform's indexer takes them.
const QUERY: &str = "version: 1\nindices:\n  default:\n    include: ['blog/**']\n    exclude: ['**/drafts/**']\n    target: /query-index.json\n    properties:\n      title:\n        select: h1\n        value: textContent(el)\n";

async fn write(f: &Fixture, method: reqwest::Method, path: &str, body: &Value) {
    let answer = (f.server)
        .send(
            method.clone(),
            path,
            Some(&f.token),
            Some(body.to_string().into_bytes()),
        )
        .await;
    assert!(
        answer.status.is_success(),
        "{method} {path}: {:?}",
        answer.error
    );
}

/// `siteops <command>` on `root` against the fixture's service, with every variable the
/// imported files name set (the CDN secret to the value the service holds).
async fn on(f: &Fixture, root: &std::path::Path, command: &str, args: &[&str]) -> Run {
    let mut full = vec![
        command.to_string(),
        "--root".into(),
        root.display().to_string(),
    ];
    if command != "validate" {
        full.extend(["--admin".into(), f.admin_url()]);
        full.extend(["--transform-url".into(), f.worker_url()]);
    }
    full.extend(args.iter().map(|a| a.to_string()));
    let env = [
        ("SITEOPS_ADMIN_TOKEN", f.token.as_str()),
        ("ACME_WEBSITE_GIT_SYNC", "any-value"),
        ("ACME_PARTNER_PREVIEW", "any-value"),
        ("ACME_UE_CDN_SECRETACCESSKEY", "cloudfront-secret"),
    ];
    run_siteops(full, &env).await
}

#[tokio::test]
async fn documents_of_schema_1_73_are_taken_imported_and_planned_as_no_change() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let editor: Value = serde_json::from_str(EDITOR).expect("JSON");
    let site = json!({
        "version": 1,
        "name": "ue",
        "code": {"owner": "acme", "repo": "ue", "source": {"type": "github", "url": "https://github.com/acme/ue"}},
        "content": {"source": {"type": "markup", "url": "https://content.acme.example/ue"}},
        "cdn": {"prod": {
            "type": "cloudfront", "host": "www.ue.acme.example", "distributionId": "E2QWRUHAPOMQZL",
            "accessKeyId": "AKIAIOSFODNN7EXAMPLE", "secretAccessKey": "cloudfront-secret",
            "tagInvalidationEnabled": true
        }},
        "editor": editor,
    });
    write(
        &f,
        reqwest::Method::PUT,
        "/admin/config/acme/sites/ue.json",
        &site,
    )
    .await;
    let profile =
        json!({"editor": {"universal-editor": {"canvas": "https://canvas.acme.example"}}});
    write(
        &f,
        reqwest::Method::PUT,
        "/api/acme/profiles/ue/config.json",
        &profile,
    )
    .await;
    let mut org = f.document("acme.json").await.expect("the org document");
    org["editor"] = json!({"ue": {"enabled": false}});
    write(&f, reqwest::Method::POST, "/admin/config/acme.json", &org).await;
    let answer = (f.server.client)
        .post(f.server.url("/api/acme/sites/ue/config/content/query.yaml"))
        .header("authorization", format!("token {}", f.token))
        .header("content-type", "text/yaml")
        .body(QUERY)
        .send()
        .await
        .expect("answered");
    assert!(answer.status().is_success(), "{:?}", answer.headers());

    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    f.import_into(&root, &[]).await.expect(0);
    let site_toml = read(&root.join("sites/acme/ue/site.toml"));
    for written in [
        "tagInvalidationEnabled = true",
        "[editor.universal-editor]\nenabled = true",
        "[cdn.prod.secretAccessKey]\nenv = \"ACME_UE_CDN_SECRETACCESSKEY\"",
    ] {
        assert!(site_toml.contains(written), "{written}: {site_toml}");
    }
    let profile_toml = read(&root.join("sites/acme/ue.profile.toml"));
    assert!(
        profile_toml.contains("[editor.universal-editor]\ncanvas ="),
        "{profile_toml}"
    );
    let org_toml = read(&root.join("sites/acme/org.toml"));
    assert!(
        org_toml.contains("[editor.ue]\nenabled = false"),
        "{org_toml}"
    );
    let query_toml = read(&root.join("sites/acme/ue/query.toml"));
    assert!(
        query_toml.contains("exclude = [\"**/drafts/**\"]"),
        "{query_toml}"
    );

    on(&f, &root, "validate", &[]).await.expect(0);
    let plan = on(&f, &root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(plan.stdout.contains("\nNo changes."), "{}", plan.stdout);

    // One edit of the open map, one change.
    let path = root.join("sites/acme/ue/site.toml");
    std::fs::write(
        &path,
        site_toml.replace("enabled = true", "enabled = false"),
    )
    .expect("edit");
    let plan = on(&f, &root, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    assert!(
        plan.stdout.contains("~ update  acme/sites/ue.json")
            && plan
                .stdout
                .contains("editor.universal-editor.enabled: true → false")
            && plan
                .stdout
                .contains("Plan: 0 to create, 1 to update, 0 to delete."),
        "{}",
        plan.stdout
    );
}
