//! Secrets and API keys the service makes (`made = "service"`, `[apiKeys.<name>]`): plan
//! shows them masked, apply has the service make each once and writes its value to
//! `--secrets-out` (a new file, mode 0600) and nowhere else, in both path families.

use std::path::Path;

use super::{Fixture, Run};

/// The declarations added to the example fleet: a made secret of acme/website and an API
/// key of acme/blog.
pub(crate) fn declare(f: &Fixture) {
    let append = |file: &str, text: &str| {
        let path = f.root.join(file);
        let mut body = std::fs::read_to_string(&path).expect("read");
        body.push_str(text);
        std::fs::write(&path, body).expect("write");
    };
    append(
        "sites/acme/website/secrets.toml",
        "\n# Made by the service, answered once to apply.\n[partner-token]\nmade = \"service\"\n",
    );
    append(
        "sites/acme/blog/site.toml",
        "\n[apiKeys.ci-publish]\nmade = \"service\"\nroles = [\"config_admin\"]\n",
    );
}

/// `NAME=value` lines of a `--secrets-out` file.
pub(crate) fn kept(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("the file");
    assert!(text.starts_with("# "), "a comment first: {text}");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (name, value) = line.split_once('=').expect("NAME=value");
            (name.to_string(), value.to_string())
        })
        .collect()
}

fn assert_never_shown(runs: &[&Run], values: &[&str]) {
    for run in runs {
        for value in values {
            assert!(!run.stdout.contains(value), "stdout holds a made value");
            assert!(!run.stderr.contains(value), "stderr holds a made value");
        }
    }
}

/// The plan's blocks that name what the service makes.
fn made_blocks(plan: &str) -> String {
    let mut out = String::new();
    let mut keep = false;
    for line in plan.lines() {
        if !line.starts_with(' ') {
            keep = line.contains("partner-token") || line.contains("apiKeys/");
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

async fn made_once(newer: bool) {
    let f = Fixture::start().await;
    declare(&f);
    let admin = if newer {
        f.server.url("/api")
    } else {
        f.admin_url()
    };
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    assert!(
        plan.stdout.contains("Plan: 16 to create, 0 to update"),
        "{}",
        plan.stdout
    );
    if !newer {
        insta::assert_snapshot!("made_by_the_service", made_blocks(&plan.stdout));
    }

    // Without a place for the values, nothing is applied.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("made.env");
    let refused = f.siteops_at(&admin, "apply", &["--yes"]).await.expect(1);
    assert!(
        refused.stderr.contains("pass --secrets-out FILE"),
        "{}",
        refused.stderr
    );
    let site = f
        .server
        .get("/admin/config/acme/sites/blog.json", &f.token)
        .await;
    assert_eq!(site.status, 404, "nothing was written");

    // An existing file is refused too, before anything is applied.
    std::fs::write(&out, "OTHER=1\n").expect("write");
    let out_arg = out.display().to_string();
    let exists = ["--yes", "--secrets-out", &out_arg];
    let refused_file = f.siteops_at(&admin, "apply", &exists).await.expect(1);
    assert!(
        refused_file.stderr.contains("exists"),
        "{}",
        refused_file.stderr
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "OTHER=1\n");
    std::fs::remove_file(&out).expect("remove");
    let site = f
        .server
        .get("/admin/config/acme/sites/blog.json", &f.token)
        .await;
    assert_eq!(site.status, 404, "nothing was written");

    let apply = f
        .siteops_at(&admin, "apply", &["--yes", "--secrets-out", &out_arg])
        .await
        .expect(0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out)
            .expect("the file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "only its owner reads it");
    }
    let values = kept(&out);
    let names: Vec<&str> = values.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>(),
        ["ACME_BLOG_APIKEY_CI_PUBLISH", "ACME_WEBSITE_PARTNER_TOKEN"].into(),
        "{values:?}"
    );
    assert!(
        apply.stdout.contains("Kept 2 values the service made in"),
        "{}",
        apply.stdout
    );
    let value = |name: &str| {
        values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .expect("kept")
    };
    let (key, secret) = (
        value("ACME_BLOG_APIKEY_CI_PUBLISH"),
        value("ACME_WEBSITE_PARTNER_TOKEN"),
    );
    assert!(key.len() > 40 && secret.len() > 40, "strong values");

    // The key works: it reads the site it was minted for.
    let read = f
        .server
        .get("/admin/config/acme/sites/blog.json", &key)
        .await;
    assert_eq!(read.status, 200, "{:?}", read.error);
    let records = f
        .server
        .get("/admin/config/acme/sites/blog/apiKeys.json", &f.token)
        .await;
    let record = (records.body.as_object().into_iter().flatten())
        .map(|(_, record)| record)
        .find(|record| record["description"] == "ci-publish")
        .expect("the key's record");
    assert_eq!(record["roles"], serde_json::json!(["config_admin"]));
    // The secret is kept under its id, as one the service made.
    let website = f
        .server
        .get("/admin/config/acme/sites/website.json", &f.token)
        .await;
    assert_eq!(website.body["secrets"]["partner-token"]["type"], "hashed");

    let again = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(again.stdout.ends_with("No changes.\n"), "{}", again.stdout);
    // Applying again makes nothing, so the file (still there) is no obstacle.
    let rerun = f
        .siteops_at(&admin, "apply", &["--yes", "--secrets-out", &out_arg])
        .await
        .expect(0);
    let json = f
        .siteops_at(&admin, "plan", &["--format", "json"])
        .await
        .expect(0);

    // Made again only when asked: a new key replaces the old one.
    let replace = ["--yes", "--replace-secret", "ci-publish", "--secrets-out"];
    let second = dir.path().join("again.env");
    let second_arg = second.display().to_string();
    let mut args = replace.to_vec();
    args.push(&second_arg);
    let replaced = f.siteops_at(&admin, "apply", &args).await.expect(0);
    let new_key = kept(&second)
        .into_iter()
        .find(|(name, _)| name == "ACME_BLOG_APIKEY_CI_PUBLISH")
        .map(|(_, value)| value)
        .expect("a new key");
    assert_ne!(new_key, key);
    let old = f
        .server
        .get("/admin/config/acme/sites/blog.json", &key)
        .await;
    assert_eq!(old.status, 401, "the old key is revoked");
    let new = f
        .server
        .get("/admin/config/acme/sites/blog.json", &new_key)
        .await;
    assert_eq!(new.status, 200, "{:?}", new.error);
    f.siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);

    assert_never_shown(
        &[
            &plan,
            &refused,
            &refused_file,
            &apply,
            &again,
            &rerun,
            &json,
            &replaced,
        ],
        &[&key, &secret, &new_key],
    );
}

#[tokio::test]
async fn made_secrets_and_keys_go_to_the_secrets_file_once_in_the_older_family() {
    made_once(false).await;
}

#[tokio::test]
async fn made_secrets_and_keys_go_to_the_secrets_file_once_in_the_newer_family() {
    made_once(true).await;
}
