//! Versions tied to commits, over real HTTP in both path families: apply names the
//! versions it writes after the repository's commit, plan says who changed a document on
//! the service since, and `siteops restore --to <sha>` brings back what a commit wrote.

use std::path::Path;
use std::process::Command;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{Fixture, run_siteops};
use crate::harness::ORG_ADMIN;

/// `git -C root ARGS`, which must succeed; what it printed, trimmed.
fn git(root: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "user.name=siteops",
            "-c",
            "user.email=ci@acme.example",
        ])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

/// Commits everything in the work tree; the commit's sha.
fn commit(root: &Path, message: &str) -> String {
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", message]);
    git(root, &["rev-parse", "HEAD"])
}

/// A plan's text with the versions' dates and API key ids, which change each run, named.
fn stable(text: &str, key: &str) -> String {
    let mut out = text.replace(key, "[key]");
    while let Some(at) = out.find(" at 20") {
        let start = at + " at ".len();
        let end = out[start..].find(' ').map_or(out.len(), |e| start + e);
        out.replace_range(start..end, "[time]");
    }
    out
}

/// The prefix of the configuration API in a family: where a site's document and its
/// versions are.
struct Paths {
    newer: bool,
}

impl Paths {
    fn site(&self, site: &str) -> String {
        if self.newer {
            format!("/api/acme/sites/{site}/config.json")
        } else {
            format!("/admin/config/acme/sites/{site}.json")
        }
    }

    fn part(&self, site: &str, part: &str) -> String {
        if self.newer {
            format!("/api/acme/sites/{site}/config/{part}.json")
        } else {
            format!("/admin/config/acme/sites/{site}/{part}.json")
        }
    }

    fn versions(&self, site: &str) -> String {
        if self.newer {
            format!("/api/acme/sites/{site}/versions.json")
        } else {
            format!("/admin/config/acme/sites/{site}/versions.json")
        }
    }

    fn version(&self, site: &str, n: u64) -> String {
        if self.newer {
            format!("/api/acme/sites/{site}/versions/{n}.json")
        } else {
            format!("/admin/config/acme/sites/{site}/versions/{n}.json")
        }
    }

    fn profile_versions(&self) -> String {
        if self.newer {
            "/api/acme/profiles/repoless/versions.json".into()
        } else {
            "/admin/config/acme/profiles/repoless/versions.json".into()
        }
    }

    fn org_versions(&self) -> String {
        if self.newer {
            "/api/acme/versions.json".into()
        } else {
            "/admin/config/acme/versions.json".into()
        }
    }
}

async fn versions_follow_commits(newer: bool) {
    let f = Fixture::start().await;
    let paths = Paths { newer };
    let admin = if newer {
        f.server.url("/api")
    } else {
        f.admin_url()
    };
    git(&f.root, &["init", "-q"]);
    let first = commit(&f.root, "first");
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);

    // Every document apply wrote has a version named after the commit, by the caller.
    let applied = format!("siteops@{first}");
    for path in [
        paths.versions("blog"),
        paths.profile_versions(),
        paths.org_versions(),
    ] {
        let listed = f.server.get(&path, &f.token).await;
        assert_eq!(listed.status, StatusCode::OK, "{path}: {:?}", listed.error);
        let newest = &listed.body["versions"][0];
        assert_eq!(newest["name"], json!(applied), "{path}: {}", listed.body);
        assert_eq!(newest["createdBy"], ORG_ADMIN, "{path}");
        assert_eq!(newest["version"], listed.body["current"], "{path}");
    }
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(
        !plan.stdout.contains("changed on the platform"),
        "{}",
        plan.stdout
    );

    // A second commit, applied.
    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    let second = commit(&f.root, "second");
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    let listed = f.server.get(&paths.versions("blog"), &f.token).await;
    assert_eq!(
        listed.body["versions"][0]["name"],
        json!(format!("siteops@{second}"))
    );

    // Someone else changes the blog's content source through the API: an API key of the
    // site, minted by the org's administrator.
    let minted = f
        .server
        .post(
            &paths.part("blog", "apiKeys"),
            &f.token,
            &json!({"description": "hotfix", "roles": ["config_admin"]}),
        )
        .await;
    assert_eq!(minted.status, StatusCode::CREATED, "{:?}", minted.error);
    let (key_id, key) = (
        minted.body["id"].as_str().expect("an id").to_string(),
        minted.body["value"].as_str().expect("a token").to_string(),
    );
    let content =
        json!({"source": {"url": "https://cms.acme.example/delivery/hotfix", "type": "markup"}});
    let path = format!("{}?versionName=hotfix", paths.part("blog", "content"));
    let body = Some(content.to_string().into_bytes());
    let hotfix = f.server.send(Method::POST, &path, Some(&key), body).await;
    assert_eq!(hotfix.status, StatusCode::OK, "{:?}", hotfix.error);

    let plan = f.siteops_at(&admin, "plan", &[]).await.expect(0);
    let family = if newer { "newer" } else { "older" };
    insta::assert_snapshot!(
        format!("plan-drift-{family}"),
        stable(&plan.stdout, &key_id)
    );
    let json = f
        .siteops_at(&admin, "plan", &["--format", "json"])
        .await
        .expect(0);
    let json: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let blog = (json["resources"].as_array().expect("resources").iter())
        .find(|r| r["address"] == "acme/sites/blog.json")
        .expect("the blog is planned");
    assert_eq!(blog["drift"]["name"], "hotfix");
    assert_eq!(
        blog["drift"]["createdBy"],
        json!(format!("acme/blog (API key {key_id})"))
    );
    assert_eq!(json["version"], 1, "the plan format is the same");

    // Back to what the first commit wrote, by its short sha.
    let restore = run_siteops(
        vec![
            "restore".into(),
            "--root".into(),
            f.root.display().to_string(),
            "--admin".into(),
            admin.clone(),
            "--org".into(),
            "acme".into(),
            "--site".into(),
            "blog".into(),
            "--to".into(),
            first[..7].to_string(),
            "--yes".into(),
        ],
        &[("SITEOPS_ADMIN_TOKEN", &f.token)],
    )
    .await
    .expect(0);
    assert!(
        restore.stdout.contains(
            "~ content.source.url: \"https://cms.acme.example/delivery/hotfix\" → \"https://cms.acme.example/delivery/blog\""
        ),
        "{}",
        restore.stdout
    );
    assert!(
        restore.stdout.ends_with("Restore: 1 restored, 0 failed.\n"),
        "{}",
        restore.stdout
    );
    let blog = f.server.get(&paths.site("blog"), &f.token).await;
    assert_eq!(
        blog.body.pointer("/content/source/url"),
        Some(&json!("https://cms.acme.example/delivery/blog"))
    );
    assert!(
        blog.body.pointer(&format!("/apiKeys/{key_id}")).is_some(),
        "a restore keeps the API keys as they are"
    );
    // The restore is that commit's write: the plan shows the repository's change, and no
    // one else's.
    let plan = f.siteops_at(&admin, "plan", &[]).await.expect(0);
    assert!(
        !plan.stdout.contains("changed on the platform"),
        "{}",
        plan.stdout
    );
    assert!(plan.stdout.contains("delivery/blog-v2"), "{}", plan.stdout);
    let listed = f.server.get(&paths.versions("blog"), &f.token).await;
    let newest = &listed.body["versions"][0];
    assert!(
        (newest["name"].as_str().unwrap_or_default())
            .starts_with(&format!("siteops@{first} (restore of ")),
        "{}",
        listed.body
    );

    // One version reads back as the document was, secret values out.
    let oldest = (listed.body["versions"].as_array().expect("versions").last())
        .and_then(|v| v["version"].as_u64())
        .expect("a version");
    let old = f.server.get(&paths.version("blog", oldest), &f.token).await;
    assert_eq!(old.status, StatusCode::OK, "{:?}", old.error);
    assert_eq!(
        old.body.pointer("/content/source/url"),
        Some(&json!("https://cms.acme.example/delivery/blog"))
    );
    let website = f.server.get(&paths.versions("website"), &f.token).await;
    let n = website.body["current"].as_u64().expect("a version");
    let old = f.server.get(&paths.version("website", n), &f.token).await;
    assert_eq!(old.status, StatusCode::OK, "{:?}", old.error);
    assert!(!old.body.to_string().contains(super::SYNC_SECRET));

    // What the routes refuse.
    let site = paths.site("blog");
    let refused = [
        (format!("{site}?restoreVersion=9999"), StatusCode::NOT_FOUND),
        (
            format!("{site}?restoreVersion=abc"),
            StatusCode::BAD_REQUEST,
        ),
        (format!("{site}?restoreVersion=0"), StatusCode::BAD_REQUEST),
    ];
    for (path, status) in refused {
        let answer = f
            .server
            .send(Method::POST, &path, Some(&f.token), None)
            .await;
        assert_eq!(answer.status, status, "{path}: {:?}", answer.error);
    }
    // A blank name names nothing (the platform's `versionName` takes any text).
    for name in ["", "%20"] {
        let path = format!("{}?versionName={name}", paths.part("blog", "content"));
        let body = Some(content.to_string().into_bytes());
        let answer = (f.server)
            .send(Method::POST, &path, Some(&f.token), body)
            .await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{name:?}: {:?}",
            answer.error
        );
        let listed = f.server.get(&paths.versions("blog"), &f.token).await;
        let newest = &listed.body["versions"][0];
        assert_eq!(newest.get("name"), None, "{name:?}: {newest}");
    }
    for name in ["x".repeat(201), "a%07b".into(), "%09".into()] {
        let path = format!("{}?versionName={name}", paths.part("blog", "content"));
        let answer = (f.server)
            .send(
                Method::POST,
                &path,
                Some(&f.token),
                Some(content.to_string().into_bytes()),
            )
            .await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{name}: {:?}",
            answer.error
        );
    }
    let missing = f.server.get(&paths.version("blog", 9999), &f.token).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    // Who may not read the document may not read its versions.
    let stranger = f.server.token("stranger@elsewhere.example");
    let denied = f.server.get(&paths.versions("blog"), &stranger).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    let denied = f.server.get(&paths.org_versions(), &stranger).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);

    if !newer {
        // The versions kept are bounded: the last 100.
        let listed = f.server.get(&paths.versions("blog"), &f.token).await;
        let current = listed.body["current"].as_u64().expect("current");
        for _ in 0..101 {
            let written = f.server.post(&site, &f.token, &blog.body).await;
            assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
        }
        let listed = f.server.get(&paths.versions("blog"), &f.token).await;
        let versions = listed.body["versions"].as_array().expect("versions");
        assert_eq!(versions.len(), 100);
        assert_eq!(listed.body["current"], json!(current + 101));
        assert_eq!(versions[99]["version"], json!(current + 2));
        let dropped = f
            .server
            .get(&paths.version("blog", current), &f.token)
            .await;
        assert_eq!(dropped.status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn versions_follow_commits_in_the_older_path_family() {
    versions_follow_commits(false).await;
}

#[tokio::test]
async fn versions_follow_commits_in_the_newer_path_family() {
    versions_follow_commits(true).await;
}
