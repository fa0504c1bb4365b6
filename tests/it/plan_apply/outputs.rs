//! What plan prints: snapshots of the human, JSON and Markdown forms of one plan with
//! every kind of change, and the rule that no secret value appears in any output.

use siteops_config::compile::{Compiled, Owner, Resource, ResourceKind};
use siteops_config::model::SiteId;
use siteops_plan::plan::markdown::{COMMENT_LIMIT, markdown};
use siteops_plan::plan::{LiveState, PlanSettings, diff};

use super::{Fixture, PARTNER_SECRET, Run, SYNC_SECRET, TEMPLATE_KEY, run_siteops};

const ROTATED_KEY: &str = "template-key-rotated-93e1";

/// Applies the examples, then changes the copy so that a plan holds a create, updates
/// (a field, a worker entry, a rotated worker key, a replaced secret) and deletions.
async fn changed_fixture() -> Fixture {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    f.edit(
        "sites/acme/website/transform/main.toml",
        "\"x-api-version\" = \"2\"",
        "\"x-api-version\" = \"3\"",
    );
    std::fs::remove_dir_all(f.root.join("sites/acme/legacy")).expect("remove a site");
    std::fs::write(
        f.root.join("sites/globex/docs/public.toml"),
        "[paths]\nmappings = [\"/docs/:/\"]\n",
    )
    .expect("write");
    f
}

/// A plan of the changed fixture in `format`, with the rotated worker key.
async fn plan(f: &Fixture, extra: &[&str]) -> Run {
    let mut args: Vec<String> = [
        "plan",
        "--root",
        &f.root.display().to_string(),
        "--admin",
        &f.admin_url(),
        "--transform-url",
        &f.worker_url(),
        "--prune",
        "--replace-secret",
        "acme/website/git-sync",
        "--detailed-exitcode",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    let env = [
        ("SITEOPS_ADMIN_TOKEN", f.token.as_str()),
        ("ACME_TEMPLATE_API_KEY", ROTATED_KEY),
    ];
    run_siteops(args, &env).await.expect(2)
}

/// Ports and fingerprints vary between runs.
fn stable(f: &Fixture, text: &str) -> String {
    let text = text.replace(&f.server.server.addr.to_string(), "127.0.0.1:[port]");
    let fingerprint = regex::Regex::new("sha256:[0-9a-f]{64}").expect("regex");
    fingerprint
        .replace_all(&text, "sha256:[fingerprint]")
        .into_owned()
}

#[tokio::test]
async fn plan_outputs() {
    let f = changed_fixture().await;
    let human = plan(&f, &[]).await;
    insta::assert_snapshot!("plan-human", stable(&f, &human.stdout));
    let json = plan(&f, &["--format", "json"]).await;
    let document: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(document["version"], 1);
    assert!(json.stdout.starts_with("{\n  \"version\": 1,"));
    insta::assert_snapshot!("plan-json", stable(&f, &json.stdout));
    let markdown = plan(&f, &["--format", "markdown"]).await;
    insta::assert_snapshot!("plan-markdown", stable(&f, &markdown.stdout));
}

#[tokio::test]
async fn colour_only_when_asked_for() {
    let f = changed_fixture().await;
    let human = plan(&f, &[]).await;
    assert!(!human.stdout.contains('\x1b'), "piped output has no colour");
}

#[tokio::test]
async fn no_secret_value_appears_in_any_output() {
    let f = changed_fixture().await;
    let saved = f.root.join("plan.json");
    let saved_arg = saved.display().to_string();
    let mut outputs = Vec::new();
    for format in ["human", "json", "markdown"] {
        let run = plan(&f, &["--format", format, "--out", &saved_arg]).await;
        outputs.push(run.stdout);
        outputs.push(run.stderr);
        outputs.push(std::fs::read_to_string(&saved).expect("saved plan"));
    }
    let env_args = [
        "--prune",
        "--replace-secret",
        "git-sync",
        "--yes",
        "--concurrency",
        "2",
    ];
    let apply = f.siteops("apply", &env_args).await.expect(0);
    outputs.push(apply.stdout);
    outputs.push(apply.stderr);
    let values = [SYNC_SECRET, TEMPLATE_KEY, ROTATED_KEY, PARTNER_SECRET];
    for output in &outputs {
        for value in values {
            assert!(!output.contains(value), "{value} printed in:\n{output}");
        }
    }
    // The outputs did show the resources that hold those values, masked.
    assert!(outputs[0].contains("~ update  acme/sites/website/secrets/git-sync.json"));
    assert!(outputs[0].contains("[3].templateApiKey: (sensitive) (value changed)"));
}

#[tokio::test]
async fn github_actions_masks_secret_values_first() {
    let f = Fixture::start().await;
    let args: Vec<String> = [
        "plan",
        "--root",
        &f.root.display().to_string(),
        "--admin",
        &f.admin_url(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let env = [
        ("SITEOPS_ADMIN_TOKEN", f.token.as_str()),
        ("GITHUB_ACTIONS", "true"),
    ];
    let run = run_siteops(args, &env).await;
    let first: Vec<&str> = run.stdout.lines().take(3).collect();
    assert_eq!(
        first,
        [
            format!("::add-mask::{PARTNER_SECRET}"),
            format!("::add-mask::{SYNC_SECRET}"),
            format!("::add-mask::{TEMPLATE_KEY}")
        ]
    );
}

#[test]
fn a_large_plan_stays_within_the_comment_limit() {
    let resources = (0..3000)
        .map(|n| Resource {
            owner: Owner::Site(SiteId {
                org: "org".into(),
                site: format!("site-{n:04}"),
            }),
            kind: ResourceKind::Site,
            body: serde_json::json!({"version": 1, "content": {"source": {
                "type": "markup", "url": format!("https://content.example/site-{n:04}")}}}),
        })
        .collect();
    let plan = diff(
        &Compiled { resources },
        &LiveState::default(),
        &PlanSettings::default(),
    )
    .expect("plan");
    let comment = markdown(&plan, COMMENT_LIMIT);
    assert!(
        comment.chars().count() <= COMMENT_LIMIT,
        "{}",
        comment.len()
    );
    assert!(comment.contains("**Plan: 3000 to create, 0 to update, 0 to delete.**"));
    let shown = comment
        .lines()
        .filter(|l| l.starts_with("+ create"))
        .count();
    assert!(shown > 1000, "as many as fit: {shown}");
    assert!(comment.contains(&format!("… and {} more changes not shown", 3000 - shown)));
    // A small plan is shown whole.
    let small = markdown(&plan, usize::MAX);
    assert_eq!(
        small.lines().filter(|l| l.starts_with("+ create")).count(),
        3000
    );
}
