//! Both path families of the administration API (the older `/admin/config/…`, the newer
//! `/api/<org>/…`), and what plan and apply own of a document: only the parts the
//! repository declares.

use reqwest::Method;
use serde_json::{Value, json};
use siteops_plan::apply::{self, ApplyOptions, Outcome};
use siteops_plan::plan::{PlanSettings, diff};
use siteops_plan::remote::{Client, ClientOptions, Endpoints, Token, live};

use super::Fixture;

const OLDER: &str = "API: older path family (`config/<org>/sites/<site>.json`)";
const NEWER: &str = "API: newer path family (`<org>/sites/<site>/config.json`)";

/// The base address of a family on the bundled service, its name and the line a plan
/// prints for it.
fn family(f: &Fixture, newer: bool) -> (String, &'static str, &'static str) {
    if newer {
        (f.server.url("/api"), "newer", NEWER)
    } else {
        (f.admin_url(), "older", OLDER)
    }
}

/// The example fleet applies, a second plan finds nothing, one edit is exactly one
/// change; `--api-family auto` tells the family from the address alone.
async fn converges(newer: bool) {
    let f = Fixture::start().await;
    let (admin, name, line) = family(&f, newer);
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    assert!(
        plan.stdout.ends_with(&format!(
            "\n{line}\nPlan: 14 to create, 0 to update, 0 to delete.\n"
        )),
        "{}",
        plan.stdout
    );
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    let no_changes = format!("{line}\nNo changes.\n");
    let again = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert_eq!(again.stdout, no_changes);
    let explicit = ["--detailed-exitcode", "--api-family", name];
    let again = f.siteops_at(&admin, "plan", &explicit).await.expect(0);
    assert_eq!(again.stdout, no_changes);
    let json = f
        .siteops_at(&admin, "plan", &["--format", "json"])
        .await
        .expect(0);
    let json: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(json["pathFamily"], name);

    if newer {
        // The newer family answers the repository's `byogit` as `github`, which is no
        // change.
        let blog = f
            .server
            .get("/api/acme/sites/blog/config.json", &f.token)
            .await;
        assert_eq!(
            blog.body.pointer("/code/source/type"),
            Some(&json!("github"))
        );
    }

    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    assert_eq!(
        plan.stdout,
        format!(
            "~ update  acme/sites/blog.json\n      \
             ~ content.source.url: \"https://cms.acme.example/delivery/blog\" → \"https://cms.acme.example/delivery/blog-v2\"\n\
             \n{line}\nPlan: 0 to create, 1 to update, 0 to delete.\n"
        )
    );
    let apply = f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("Apply complete: 0 created, 1 updated, 0 deleted.\n"),
        "{}",
        apply.stdout
    );
    let stored = f
        .server
        .get("/admin/config/acme/sites/blog.json", &f.token)
        .await;
    assert_eq!(
        stored.body.pointer("/code/source/type"),
        Some(&json!("byogit")),
        "what compile produced is written"
    );
    let again = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert_eq!(again.stdout, no_changes);
}

#[tokio::test]
async fn the_example_fleet_converges_in_the_older_path_family() {
    converges(false).await;
}

#[tokio::test]
async fn the_example_fleet_converges_in_the_newer_path_family() {
    converges(true).await;
}

/// globex/docs' document, as the older family answers it.
const DOCS: &str = "/admin/config/globex/sites/docs";

/// What the platform and its people add to a site document beside the repository: a CDN
/// block, a minted API key, a role the repository does not list (globex/docs lists only
/// `admin`), and a secret the service made. Returns the secret's id.
async fn add_unmanaged_parts(f: &Fixture) -> String {
    let token = &f.token;
    let cdn = json!({"prod": {"host": "docs.globex.example"}});
    let answer = f
        .server
        .post(&format!("{DOCS}/cdn.json"), token, &cdn)
        .await;
    assert_eq!(answer.status, 200, "{:?}", answer.error);
    let key = json!({"description": "deploys", "roles": ["publish"]});
    let answer = f
        .server
        .post(&format!("{DOCS}/apiKeys.json"), token, &key)
        .await;
    assert!(answer.status.is_success(), "{:?}", answer.error);
    let author = json!(["writer@globex.example"]);
    let path = format!("{DOCS}/access/admin/role/author.json");
    let answer = f.server.post(&path, token, &author).await;
    assert_eq!(answer.status, 200, "{:?}", answer.error);
    let path = format!("{DOCS}/secrets.json");
    let made = f.server.send(Method::POST, &path, Some(token), None).await;
    assert_eq!(made.status, 201, "{:?}", made.error);
    made.body["id"].as_str().expect("an id").to_string()
}

/// `text` without its one line that starts with `drift` and says the org's administrator
/// changed the document (the line's time changes each run).
fn without_drift(text: &str, drift: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let said: Vec<&&str> = lines.iter().filter(|l| l.starts_with(drift)).collect();
    assert_eq!(said.len(), 1, "{text}");
    assert!(
        said[0].trim_end().ends_with(" by root@acme.example"),
        "{text}"
    );
    lines
        .into_iter()
        .filter(|l| !l.starts_with(drift))
        .collect()
}

/// The four unmanaged parts are in `document`.
fn assert_kept(document: &Value, before: &Value, secret: &str) {
    assert_eq!(
        document.pointer("/cdn/prod/host"),
        Some(&json!("docs.globex.example"))
    );
    assert_eq!(
        document.pointer("/access/admin/role/author"),
        Some(&json!(["writer@globex.example"]))
    );
    let keys = document.get("apiKeys").and_then(Value::as_object);
    assert!(keys.is_some_and(|keys| keys.len() == 1), "{document:#}");
    assert_eq!(document.get("apiKeys"), before.get("apiKeys"));
    assert!(
        document.pointer(&format!("/secrets/{secret}")).is_some(),
        "{document:#}"
    );
}

/// Apply changes only what the repository declares of a document, in either family.
async fn keeps_what_it_does_not_manage(newer: bool) {
    let f = Fixture::start().await;
    let (admin, _, line) = family(&f, newer);
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    let secret = add_unmanaged_parts(&f).await;
    let before = f.server.get(&format!("{DOCS}.json"), &f.token).await.body;

    // None of them is a change to plan; the plan says who changed the document since.
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    let drift = "drift: globex/sites/docs.json: changed on the platform since the last apply: ";
    // The secret made on the service is named, not planned (`--prune` would delete it).
    assert_eq!(
        without_drift(&plan.stdout, drift),
        format!(
            "not in the repository: document: globex/sites/docs/secrets/{secret}.json\n{line}\n\
             No changes. Live but not in the repository: 1 document (`siteops plan --prune` shows them as deletions).\n"
        )
    );

    f.edit(
        "sites/globex/docs/site.toml",
        "content.globex.example/docs\"",
        "content.globex.example/docs-v2\"",
    );
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    assert_eq!(
        without_drift(
            &plan.stdout,
            "      changed on the platform since the last apply: "
        ),
        format!(
            "~ update  globex/sites/docs.json\n      \
             ~ content.source.url: \"https://content.globex.example/docs\" → \"https://content.globex.example/docs-v2\"\n\
             \nnot in the repository: document: globex/sites/docs/secrets/{secret}.json\n\
             {line}\nPlan: 0 to create, 1 to update, 0 to delete. \
             Live but not in the repository: 1 document (`siteops plan --prune` shows them as deletions).\n"
        )
    );
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    let after = f.server.get(&format!("{DOCS}.json"), &f.token).await.body;
    assert_eq!(
        after.pointer("/content/source/url"),
        Some(&json!("https://content.globex.example/docs-v2"))
    );
    assert_kept(&after, &before, &secret);
    f.siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);

    // Without ownership, apply would POST the compiled body whole, as it did before: the
    // bundled service keeps `apiKeys` and `secrets` of its own accord, but the CDN block
    // and the extra role would go (and on the platform, all four).
    let compiled = f.compiled(&f.worker_url());
    let body = compiled
        .resources
        .iter()
        .find(|r| r.path() == "globex/sites/docs.json")
        .expect("globex/docs")
        .body
        .clone();
    let whole = f
        .server
        .post(&format!("{DOCS}.json"), &f.token, &body)
        .await;
    assert_eq!(whole.status, 200, "{:?}", whole.error);
    let dropped = f.server.get(&format!("{DOCS}.json"), &f.token).await.body;
    assert_eq!(dropped.get("cdn"), None);
    assert_eq!(dropped.pointer("/access/admin/role/author"), None);
}

#[tokio::test]
async fn apply_keeps_the_parts_the_repository_does_not_declare_older_family() {
    keeps_what_it_does_not_manage(false).await;
}

#[tokio::test]
async fn apply_keeps_the_parts_the_repository_does_not_declare_newer_family() {
    keeps_what_it_does_not_manage(true).await;
}

/// Apply reads a document again before writing it, and writes nothing when it is not what
/// the plan read.
#[tokio::test]
async fn apply_refuses_a_document_changed_since_the_plan_read_it() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    f.edit(
        "sites/globex/docs/site.toml",
        "content.globex.example/docs\"",
        "content.globex.example/docs-v2\"",
    );
    let compiled = f.compiled(&f.worker_url());
    let endpoints = Endpoints {
        admin: f.admin_url(),
        worker: Some(f.worker_url()),
    };
    let client =
        Client::new(endpoints, &Token::new(&f.token), &ClientOptions::default()).expect("a client");
    let state = live::read(&client, &compiled, None, 4).await.expect("read");
    let plan = diff(&compiled, &state, &PlanSettings::default()).expect("a plan");
    assert_eq!(plan.summary.changes(), 1);

    // Meanwhile, someone adds a CDN block.
    let cdn = json!({"prod": {"host": "docs.globex.example"}});
    let answer = f
        .server
        .post(&format!("{DOCS}/cdn.json"), &f.token, &cdn)
        .await;
    assert_eq!(answer.status, 200, "{:?}", answer.error);

    let report = apply::run(&client, &plan, &ApplyOptions::default())
        .await
        .expect("runs");
    let [step] = report.steps.as_slice() else {
        panic!("{report:?}");
    };
    assert_eq!(
        step.outcome,
        Outcome::Failed(
            "globex/sites/docs.json: the document changed on the service since the plan read it; nothing was written: run `siteops plan` again".into()
        )
    );
    let stored = f.server.get(&format!("{DOCS}.json"), &f.token).await.body;
    assert_eq!(
        stored.pointer("/content/source/url"),
        Some(&json!("https://content.globex.example/docs"))
    );
    assert_eq!(stored.pointer("/cdn"), Some(&cdn));

    // Planned again, it applies, and keeps the block.
    f.siteops("apply", &["--yes"]).await.expect(0);
    let stored = f.server.get(&format!("{DOCS}.json"), &f.token).await.body;
    assert_eq!(
        stored.pointer("/content/source/url"),
        Some(&json!("https://content.globex.example/docs-v2"))
    );
    assert_eq!(stored.pointer("/cdn"), Some(&cdn));
}
