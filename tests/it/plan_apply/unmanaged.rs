//! A plan without `--prune` says what is live but not in the repository (issue 45): the
//! sites, profiles and documents that the same plan with `--prune` deletes, in text,
//! JSON and Markdown, without counting them as changes.

use serde_json::{Value, json};

use super::{Fixture, Run, run_siteops};

/// Sites made on the service by hand: more than the plan lists by name.
const HAND_MADE: usize = 12;

/// The examples applied, then on the service by hand: [`HAND_MADE`] sites, a profile, a
/// secret and an index configuration of a site the repository has, and a worker branch.
async fn drifted_fixture() -> Fixture {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let body = json!({
        "version": 1,
        "code": {"owner": "acme", "repo": "website", "source": {"type": "github", "url": "https://github.com/acme/website"}},
        "content": {"source": {"type": "markup", "url": "https://cms.acme.example/delivery/extra"}},
    });
    for n in 0..HAND_MADE {
        let path = format!("/admin/config/acme/sites/hand-{n:02}.json");
        let made = f.server.put(&path, &f.token, &body).await;
        assert!(made.status.is_success(), "{path}: {:?}", made.error);
    }
    let writes: [(&str, Value); 2] = [
        (
            "/admin/config/acme/profiles/by-hand.json",
            json!({"sidekick": {"project": "made by hand"}}),
        ),
        (
            "/admin/config/acme/sites/blog/secrets/by-hand.json",
            json!({"value": "by-hand-value"}),
        ),
    ];
    for (path, body) in writes {
        let made = f.server.post(path, &f.token, &body).await;
        assert!(made.status.is_success(), "{path}: {:?}", made.error);
    }
    let query = (f.server.client)
        .post(f.server.url("/admin/config/acme/sites/blog/content/query.yaml"))
        .header("x-auth-token", &f.token)
        .header("content-type", "text/yaml")
        .body("indices:\n  all:\n    include: ['/**']\n    target: /query-index.json\n    properties:\n      title:\n        select: head > title\n        value: textContent(el)\n")
        .send()
        .await
        .expect("answered");
    assert!(query.status().is_success(), "{:?}", query.headers());
    let branch = (f.server.client)
        .post(f.server.url("/transform/config/acme/website/by-hand"))
        .header("authorization", format!("token {}", f.token))
        .json(&json!([{"path": "/x/", "endpoint": "https://api.acme.example/x.json"}]))
        .send()
        .await
        .expect("answered");
    assert!(branch.status().is_success(), "{:?}", branch.headers());
    f
}

/// `siteops plan <args>` on the fixture, with the worker.
async fn plan(f: &Fixture, args: &[&str]) -> Run {
    f.siteops("plan", args).await
}

fn stable(f: &Fixture, text: &str) -> String {
    let text = text.replace(&f.server.server.addr.to_string(), "127.0.0.1:[port]");
    let fingerprint = regex::Regex::new("sha256:[0-9a-f]{64}").expect("regex");
    let text = fingerprint.replace_all(&text, "sha256:[fingerprint]");
    // The writes by hand are drift, stamped now.
    let time = regex::Regex::new(r"\d{4}-\d{2}-\d{2}T[0-9:.]+Z").expect("regex");
    time.replace_all(&text, "[time]").into_owned()
}

#[tokio::test]
async fn a_plan_without_prune_names_what_the_repository_does_not_manage() {
    let f = drifted_fixture().await;
    // No changes: the exit code of --detailed-exitcode says so (0).
    let human = plan(&f, &["--detailed-exitcode"]).await.expect(0);
    insta::assert_snapshot!("plan-unmanaged-human", stable(&f, &human.stdout));
    assert!(
        human.stdout.lines().last().unwrap().starts_with(
            "No changes. Live but not in the repository: 12 sites, 1 profile, 3 documents"
        ),
        "{}",
        human.stdout
    );
    let json = plan(&f, &["--format", "json", "--detailed-exitcode"])
        .await
        .expect(0);
    // Of the JSON document, what this adds: the bodies are the other snapshots'.
    let document: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let shown = json!({
        "settings": document["settings"],
        "summary": document["summary"],
        "unmanaged": document["unmanaged"],
    });
    let shown = serde_json::to_string_pretty(&shown).unwrap();
    insta::assert_snapshot!("plan-unmanaged-json", shown);
    let markdown = plan(&f, &["--format", "markdown", "--detailed-exitcode"])
        .await
        .expect(0);
    insta::assert_snapshot!("plan-unmanaged-markdown", stable(&f, &markdown.stdout));

    // Exactly what --prune deletes: each unmanaged site whole, the profile, the documents.
    let unmanaged = &document["unmanaged"];
    let pruned = plan(&f, &["--prune", "--format", "json", "--detailed-exitcode"])
        .await
        .expect(2);
    let pruned: Value = serde_json::from_str(&pruned.stdout).expect("JSON");
    assert!(pruned.get("unmanaged").is_none(), "with --prune, deletions");
    let deleted: Vec<&str> = (pruned["resources"].as_array().unwrap().iter())
        .filter(|r| r["action"] == "delete")
        .map(|r| r["address"].as_str().unwrap())
        .collect();
    let names = |key: &str| -> Vec<String> {
        (unmanaged[key].as_array().unwrap().iter())
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    };
    let mut expected: Vec<String> = names("documents");
    expected.extend(names("sites").iter().map(|site| {
        let (org, name) = site.split_once('/').unwrap();
        format!("{org}/sites/{name}.json")
    }));
    expected.extend(names("profiles").iter().map(|profile| {
        let (org, name) = profile.split_once('/').unwrap();
        format!("{org}/profiles/{name}.json")
    }));
    expected.sort();
    assert_eq!(deleted, expected);
}

/// A saved plan stays good when a site is made by hand between plan and apply: what the
/// plan leaves alone is not what it applies.
#[tokio::test]
async fn a_site_made_by_hand_after_a_saved_plan_does_not_stale_it() {
    let f = drifted_fixture().await;
    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    let saved = f.root.join("plan.json");
    let saved_arg = saved.display().to_string();
    plan(&f, &["--out", &saved_arg]).await.expect(0);
    let body = json!({
        "version": 1,
        "code": {"owner": "acme", "repo": "website", "source": {"type": "github", "url": "https://github.com/acme/website"}},
        "content": {"source": {"type": "markup", "url": "https://cms.acme.example/delivery/later"}},
    });
    let made = (f.server)
        .put("/admin/config/acme/sites/later.json", &f.token, &body)
        .await;
    assert!(made.status.is_success(), "{:?}", made.error);
    let root = f.root.display().to_string();
    let (admin, worker) = (f.admin_url(), f.worker_url());
    let apply = [
        "apply",
        &saved_arg,
        "--root",
        &root,
        "--admin",
        &admin,
        "--transform-url",
        &worker,
        "--yes",
    ];
    let run = run_siteops(
        apply.map(str::to_string).to_vec(),
        &[("SITEOPS_ADMIN_TOKEN", &f.token)],
    )
    .await
    .expect(0);
    assert!(run.stdout.contains("1 updated"), "{}", run.stdout);
}
