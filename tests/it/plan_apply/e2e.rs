//! The binary against the bundled service on 127.0.0.1:0, on a copy of the example sites.

use serde_json::{Value, json};
use siteops_config::compile::ResourceKind;
use siteops_plan::remote::{Location, Service};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use super::{Fixture, Run, SYNC_SECRET, TEMPLATE_KEY};

impl Fixture {
    /// GETs a resource from the service, as the plan reads it.
    async fn live(&self, location: &Location) -> crate::harness::Answer {
        let url = match location.service {
            Service::Admin => format!("{}/{}", self.admin_url(), location.path),
            Service::Worker => self.server.url(&format!("/transform/{}", location.path)),
        };
        let request = self
            .server
            .client
            .get(url)
            .header("x-auth-token", &self.token);
        crate::harness::answer(request.send().await.expect("answered")).await
    }
}

/// What a plan without changes prints, in the older family.
const NO_CHANGES: &str = "API: older path family (`config/<org>/sites/<site>.json`)\nNo changes.\n";

fn without_dates(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        map.remove("created");
        map.remove("lastModified");
    }
    value
}

#[tokio::test]
async fn the_example_sites_apply_into_an_empty_service_then_nothing_changes() {
    let f = Fixture::start().await;
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    assert!(
        plan.stdout
            .ends_with("\nPlan: 14 to create, 0 to update, 0 to delete.\n"),
        "{}",
        plan.stdout
    );
    let apply = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("\nApply complete: 14 created, 0 updated, 0 deleted.\n"),
        "{}",
        apply.stdout
    );
    assert_eq!(
        apply.stderr.lines().count(),
        14,
        "one line per change in CI"
    );

    // The service holds exactly the compiled bodies; secrets exist, without values.
    for resource in f.compiled(&f.worker_url()).resources {
        let answer = f.live(&Location::of(&resource.owner, &resource.kind)).await;
        assert_eq!(answer.status, 200, "{}", resource.path());
        match resource.kind {
            ResourceKind::Secret(id) => assert_eq!(
                answer
                    .body
                    .as_object()
                    .map(|o| o.keys().cloned().collect::<Vec<_>>()),
                Some(vec!["created".into(), "id".into(), "lastModified".into()]),
                "{id}"
            ),
            // The service keeps one document per site: the site's answer holds its public
            // configuration and secrets too, each also a resource of its own.
            // The org's secrets are kept, their values never answered.
            ResourceKind::Org => {
                let mut expected = resource.body.clone();
                let mut document = without_dates(answer.body);
                for (id, entry) in expected["secrets"].as_object_mut().expect("secrets") {
                    entry.as_object_mut().expect("an entry").remove("value");
                    let mut stored = without_dates(document["secrets"][id].take());
                    let hash = stored.as_object_mut().expect("an entry").remove("hash");
                    assert!(hash.is_some(), "a kept secret is answered with its hash");
                    document["secrets"][id] = stored;
                }
                assert_eq!(document, expected, "{}", resource.path());
                assert!(f.opens_campaigns(super::PARTNER_SECRET).await);
            }
            ResourceKind::Site => {
                let mut document = without_dates(answer.body);
                for part in ["public", "secrets"] {
                    document.as_object_mut().expect("an object").remove(part);
                }
                // The service stamps a content bus on a site that has content, as the
                // platform does: 40 hex digits.
                if let Some(content) = document.get_mut("content") {
                    let id = content
                        .as_object_mut()
                        .expect("content")
                        .remove("contentBusId");
                    let id = id.and_then(|id| id.as_str().map(str::to_owned));
                    assert!(
                        id.as_ref().is_some_and(
                            |id| id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit())
                        ),
                        "{}: contentBusId {id:?}",
                        resource.path()
                    );
                }
                assert_eq!(document, resource.body, "{}", resource.path());
            }
            // Kept as YAML: `index_and_sitemap_configurations_apply_as_yaml`.
            ref kind if kind.is_yaml() => {}
            _ => assert_eq!(
                without_dates(answer.body),
                resource.body,
                "{}",
                resource.path()
            ),
        }
    }

    let again = f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    assert_eq!(again.stdout, NO_CHANGES);
    let site = Location::of_site(&site_id("acme", "website"), &ResourceKind::Site);
    let stamped = f.live(&site).await.body["lastModified"].clone();
    let second = f.siteops("apply", &["--yes"]).await.expect(0);
    assert_eq!(second.stdout, NO_CHANGES);
    assert_eq!(
        f.live(&site).await.body["lastModified"],
        stamped,
        "nothing was written"
    );
}

impl Fixture {
    /// The text the service answers for a YAML document, and its content type.
    async fn yaml_text(&self, kind: &ResourceKind) -> (reqwest::StatusCode, String, String) {
        let location = Location::of_site(&site_id("acme", "website"), kind);
        let url = format!("{}/{}", self.admin_url(), location.path);
        let response = (self.server.client.get(url))
            .header("x-auth-token", &self.token)
            .send()
            .await
            .expect("answered");
        let status = response.status();
        let content_type = (response.headers().get("content-type"))
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        (status, content_type, response.text().await.expect("text"))
    }
}

/// The primary site's `query.toml` and `sitemap.toml` become the YAML the service keeps:
/// read back, it is the compiled text; the service's formatting is not a change, an edit
/// is exactly one, and a removed file goes only with `--prune`.
#[tokio::test]
async fn index_and_sitemap_configurations_apply_as_yaml() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let compiled = f.compiled(&f.worker_url());
    for kind in [ResourceKind::Query, ResourceKind::Sitemap] {
        let resource = (compiled.resources.iter())
            .find(|r| r.kind == kind && r.site() == Some(&site_id("acme", "website")))
            .expect("compiled");
        let (status, content_type, text) = f.yaml_text(&kind).await;
        assert_eq!(status, 200, "{kind:?}");
        assert!(content_type.starts_with("text/yaml"), "{content_type}");
        assert_eq!(text, resource.text(), "{kind:?}");
        assert!(text.starts_with(if kind == ResourceKind::Query {
            "indices:\n"
        } else {
            "sitemaps:\n"
        }));
    }
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);

    // The same data written otherwise (flow style, other order, a comment) is no change.
    let query = Location::of_site(&site_id("acme", "website"), &ResourceKind::Query);
    let (_, _, text) = f.yaml_text(&ResourceKind::Query).await;
    let data = siteops_config::document::Document::parse_yaml(
        siteops_config::source::SourceFile::new("q.yaml", text),
    )
    .expect("parses")
    .value;
    let reformatted = format!("# kept by hand\nversion: 1\nindices: {}\n", data["indices"]);
    let written = (f
        .server
        .client
        .post(format!("{}/{}", f.admin_url(), query.path)))
    .header("x-auth-token", &f.token)
    .header("content-type", "text/yaml")
    .body(reformatted.clone())
    .send()
    .await
    .expect("answered");
    assert_eq!(written.status(), 200);
    assert_eq!(f.yaml_text(&ResourceKind::Query).await.2, reformatted);
    let same = f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    assert_eq!(same.stdout, NO_CHANGES);

    f.edit(
        "sites/acme/website/query.toml",
        "target = \"/news/query-index.json\"",
        "target = \"/news/index.json\"",
    );
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    assert_eq!(
        plan.stdout,
        "~ update  acme/sites/website/content/query.yaml\n      \
         ~ indices.news.target: \"/news/query-index.json\" → \"/news/index.json\"\n\
         \nAPI: older path family (`config/<org>/sites/<site>.json`)\nPlan: 0 to create, 1 to update, 0 to delete.\n"
    );
    let apply = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("Apply complete: 0 created, 1 updated, 0 deleted.\n"),
        "{}",
        apply.stdout
    );
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);

    std::fs::remove_file(f.root.join("sites/acme/website/sitemap.toml")).expect("remove");
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    let prune = f
        .siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(2);
    assert_eq!(
        prune.stdout,
        "- delete  acme/sites/website/content/sitemap.yaml  (the repository no longer has it)\n\
         \nAPI: older path family (`config/<org>/sites/<site>.json`)\nPlan: 0 to create, 0 to update, 1 to delete.\n"
    );
    f.siteops("apply", &["--prune", "--yes"]).await.expect(0);
    assert_eq!(f.yaml_text(&ResourceKind::Sitemap).await.0, 404);
    f.siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(0);
}

#[tokio::test]
async fn one_changed_value_is_exactly_one_update() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    assert_eq!(
        plan.stdout,
        "~ update  acme/sites/blog.json\n      \
         ~ content.source.url: \"https://cms.acme.example/delivery/blog\" → \"https://cms.acme.example/delivery/blog-v2\"\n\
         \nAPI: older path family (`config/<org>/sites/<site>.json`)\nPlan: 0 to create, 1 to update, 0 to delete.\n"
    );
    // Without --detailed-exitcode, changes are a success.
    f.siteops("plan", &[]).await.expect(0);
    let apply = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("Apply complete: 0 created, 1 updated, 0 deleted.\n")
    );
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
}

#[tokio::test]
async fn prune_deletes_what_the_repository_no_longer_has() {
    let f = Fixture::start().await;
    let transform = f.root.join("sites/acme/website/transform");
    std::fs::copy(transform.join("main.toml"), transform.join("dev.toml")).expect("a branch");
    f.siteops("apply", &["--yes"]).await.expect(0);
    std::fs::remove_dir_all(f.root.join("sites/acme/legacy")).expect("remove a site");
    std::fs::remove_file(f.root.join("sites/acme/website-prod/public.toml")).expect("remove");
    std::fs::remove_file(transform.join("dev.toml")).expect("remove a branch");

    let plain = f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    // Nothing is deleted without --prune: what it would delete is named.
    assert_eq!(
        plain.stdout,
        "not in the repository: site: acme/legacy\n\
         not in the repository: documents: acme/sites/website-prod/public.json, transform/acme/website/dev.json\n\
         API: older path family (`config/<org>/sites/<site>.json`)\n\
         No changes. Live but not in the repository: 1 site, 2 documents (`siteops plan --prune` shows them as deletions).\n"
    );
    let plan = f
        .siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(2);
    assert_eq!(
        plan.stdout,
        "- delete  acme/sites/legacy.json  (the repository no longer has this site)\n\
         - delete  acme/sites/website-prod/public.json  (the repository no longer has it)\n\
         - delete  transform/acme/website/dev.json  (the repository no longer has it)\n\
         \nAPI: older path family (`config/<org>/sites/<site>.json`)\nPlan: 0 to create, 0 to update, 3 to delete.\n"
    );
    let apply = f.siteops("apply", &["--prune", "--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("Apply complete: 0 created, 0 updated, 3 deleted.\n")
    );
    let website = site_id("acme", "website");
    let dev = Location::of_site(&website, &ResourceKind::Worker("dev".into()));
    assert_eq!(f.live(&dev).await.status, 404);
    let main = Location::of_site(&website, &ResourceKind::Worker("main".into()));
    assert_eq!(f.live(&main).await.status, 200);
    let legacy = Location::of_site(&site_id("acme", "legacy"), &ResourceKind::Site);
    assert_eq!(f.live(&legacy).await.status, 404);
    let docs = Location::of_site(&site_id("globex", "docs"), &ResourceKind::Site);
    assert_eq!(f.live(&docs).await.status, 200);
    f.siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(0);
}

#[tokio::test]
async fn prune_refuses_to_delete_everything() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    std::fs::remove_dir_all(f.root.join("sites")).expect("remove");
    std::fs::create_dir(f.root.join("sites")).expect("create");
    let refused = f
        .siteops("plan", &["--prune", "--site", "acme/website"])
        .await
        .expect(1);
    assert!(
        refused.stderr.contains("refusing to prune"),
        "{}",
        refused.stderr
    );
    // Without --site, an empty repository has no orgs, so nothing is in scope.
    let plan = f
        .siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(0);
    assert_eq!(plan.stdout, NO_CHANGES);
}

#[tokio::test]
async fn a_saved_plan_applies_as_made_and_is_refused_once_stale() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    f.edit(
        "sites/acme/blog/site.toml",
        "delivery/blog\"",
        "delivery/blog-v2\"",
    );
    let saved = f.root.join("plan.json");
    let saved_arg = saved.display().to_string();
    f.siteops("plan", &["--out", &saved_arg]).await.expect(0);

    // Someone changes the live state in between.
    let answer = f
        .server
        .post(
            "/admin/config/globex/sites/docs/public.json",
            &f.token,
            &json!({"paths": {"includes": ["/x/"]}}),
        )
        .await;
    assert_eq!(answer.status, 200);
    let stale = f.siteops("apply", &[&saved_arg]).await.expect(1);
    assert!(
        stale
            .stderr
            .contains("the live state changed since the plan was made"),
        "{}",
        stale.stderr
    );
    assert!(!stale.stdout.contains("Apply complete"));

    // A fresh plan applies without a prompt, by the command plan prints.
    let planned = f.siteops("plan", &["--out", &saved_arg]).await.expect(0);
    let command = planned
        .stderr
        .split('`')
        .nth(1)
        .expect("plan --out names the command");
    let words: Vec<String> = command.split(' ').map(String::from).collect();
    assert_eq!(
        words[..3],
        ["siteops", "apply", saved_arg.as_str()],
        "{command}"
    );
    let applied = super::run_siteops(
        words[1..].to_vec(),
        &[("SITEOPS_ADMIN_TOKEN", f.token.as_str())],
    )
    .await
    .expect(0);
    assert!(
        applied
            .stdout
            .ends_with("Apply complete: 0 created, 1 updated, 0 deleted.\n")
    );

    // So is a plan made before the repository changed.
    f.siteops("plan", &["--out", &saved_arg]).await.expect(0);
    f.edit("sites/acme/blog/site.toml", "blog-v2", "blog-v3");
    let changed = f.siteops("apply", &[&saved_arg]).await.expect(1);
    assert!(
        changed
            .stderr
            .contains("the repository changed since the plan was made")
    );
}

/// `--site` compiles only the named sites: another site's secrets are not needed.
#[tokio::test]
async fn a_plan_of_one_site_needs_only_that_sites_secrets() {
    let f = Fixture::start().await;
    let unset = ["ACME_GIT_SYNC_SECRET", "ACME_TEMPLATE_API_KEY"];
    let run = f
        .siteops_unsetting("plan", &["--site", "globex/docs"], &unset)
        .await
        .expect(0);
    assert!(
        run.stdout.contains("globex/sites/docs.json"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("acme/"), "{}", run.stdout);
    // acme/website's own plan still needs them, and says how to provide them.
    let run = f
        .siteops_unsetting("plan", &["--site", "acme/website"], &unset)
        .await
        .expect(1);
    assert!(
        run.stderr
            .contains("environment variable `ACME_GIT_SYNC_SECRET` is not set"),
        "{}",
        run.stderr
    );
}

/// A saved plan applied twice: the second time the live state is what changed (the plan's
/// own writes), also when the plan's only change was a secret, created or replaced.
#[tokio::test]
async fn a_used_plan_is_refused_because_the_live_state_changed() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let deleted = f
        .server
        .delete(
            "/admin/config/acme/sites/website/secrets/git-sync.json",
            &f.token,
        )
        .await;
    assert_eq!(deleted.status, 204, "{:?}", deleted.error);
    let saved = f.root.join("plan.json");
    let saved_arg = saved.display().to_string();
    let planned = f.siteops("plan", &["--out", &saved_arg]).await.expect(0);
    assert!(
        planned
            .stdout
            .contains("1 to create, 0 to update, 0 to delete"),
        "{}",
        planned.stdout
    );
    f.siteops("apply", &[&saved_arg]).await.expect(0);
    let again = f.siteops("apply", &[&saved_arg]).await.expect(1);
    assert!(
        again
            .stderr
            .contains("the live state changed since the plan was made"),
        "{}",
        again.stderr
    );
    // A secret replaced on purpose: its listing may not change, but the plan was used.
    let replace = [
        "--replace-secret",
        "acme/website/git-sync",
        "--out",
        &saved_arg,
    ];
    f.siteops("plan", &replace).await.expect(0);
    f.siteops("apply", &[&saved_arg]).await.expect(0);
    let again = f.siteops("apply", &[&saved_arg]).await.expect(1);
    assert!(
        again
            .stderr
            .contains("the live state changed since the plan was made"),
        "{}",
        again.stderr
    );
}

#[tokio::test]
async fn apply_needs_a_token_and_a_confirmation() {
    let f = Fixture::start().await;
    let unconfirmed = f.siteops("apply", &[]).await.expect(1);
    assert!(
        unconfirmed.stderr.contains("pass --yes"),
        "{}",
        unconfirmed.stderr
    );
    let no_token = f
        .siteops("plan", &["--token-env", "SITEOPS_NO_SUCH_TOKEN"])
        .await
        .expect(1);
    assert!(
        no_token
            .stderr
            .contains("no token: set SITEOPS_NO_SUCH_TOKEN")
    );
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
}

/// Answers 400 with the entries of the request body that hold a key in `x-error`, as a
/// careless service might.
struct EchoBody;

impl Respond for EchoBody {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let keyed: Vec<&Value> = body
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e.get("templateApiKey").is_some())
            .collect();
        let echo = serde_json::to_string(&keyed).expect("JSON");
        ResponseTemplate::new(400).insert_header("x-error", format!("bad body {echo}").as_str())
    }
}

#[tokio::test]
async fn a_failure_part_way_is_reported_and_a_rerun_converges() {
    let f = Fixture::start().await;
    let worker = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&worker)
        .await;
    Mock::given(method("POST"))
        .respond_with(EchoBody)
        .mount(&worker)
        .await;
    // The first apply sends everything to a worker that refuses its configuration (the
    // site's overlay then names that worker too, `{transform_url}` being one address).
    let failing = format!("{}/transform", worker.uri());
    let root = f.root.display().to_string();
    let first = super::run_siteops(
        [
            "apply",
            "--root",
            &root,
            "--admin",
            &f.admin_url(),
            "--transform",
            &failing,
            "--yes",
        ]
        .map(String::from)
        .to_vec(),
        &[("SITEOPS_ADMIN_TOKEN", &f.token)],
    )
    .await
    .expect(1);
    assert!(
        first.stderr.contains("--transform is deprecated"),
        "{}",
        first.stderr
    );
    let table = first.stdout.split_once("RESULT").expect("a result table").1;
    let row = |address: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().nth(2) == Some(address))
            .unwrap_or_else(|| panic!("no row for {address}:\n{table}"))
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("acme/sites/website.json"), "done create");
    assert_eq!(row("transform/acme/website/main.json"), "FAILED create");
    let row = table
        .lines()
        .find(|l| l.contains("transform/acme/website/main.json"))
        .expect("a row for the worker configuration");
    assert!(row.contains("400 Bad Request: bad body"), "{row}");
    assert!(
        row.contains("\"templateApiKey\":\"(sensitive)\""),
        "the echo is scrubbed: {row}"
    );
    assert!(!first.stdout.contains(TEMPLATE_KEY) && !first.stderr.contains(TEMPLATE_KEY));
    assert!(!first.stdout.contains(SYNC_SECRET) && !first.stderr.contains(SYNC_SECRET));
    assert!(first.stdout.ends_with(
        "Apply failed: 13 of 14 changes made, 1 failed, 0 not attempted. Run apply again once the cause is fixed: it picks up where this one stopped.\n"
    ), "{}", first.stdout);

    // The rerun, against the working worker, creates the worker configuration and points
    // the overlay at that worker.
    let rerun = f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(
        rerun
            .stdout
            .contains("+ create  transform/acme/website/main.json\n"),
        "{}",
        rerun.stdout
    );
    assert!(
        rerun
            .stdout
            .ends_with("Apply complete: 1 created, 1 updated, 0 deleted.\n"),
        "{}",
        rerun.stdout
    );
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
}

fn site_id(org: &str, site: &str) -> siteops_config::model::SiteId {
    siteops_config::model::SiteId {
        org: org.into(),
        site: site.into(),
    }
}

/// `--shard K/N`: the shards of a CI matrix plan and apply every site once between them,
/// and with `--prune` exactly one shard deletes a site the repository no longer has.
#[tokio::test]
async fn shards_split_the_fleet_and_its_deletions() {
    let f = Fixture::start().await;
    let changes = |run: &Run| -> Vec<String> {
        run.stdout
            .lines()
            .filter(|line| {
                line.starts_with("+ ") || line.starts_with("- ") || line.starts_with("~ ")
            })
            .map(str::to_string)
            .collect()
    };
    let whole = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    let mut expected = changes(&whole);
    expected.sort();
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let plan = f.siteops("plan", &["--shard", shard]).await.expect(0);
        seen.extend(changes(&plan));
    }
    seen.sort();
    assert_eq!(seen, expected);
    for shard in ["1/2", "2/2"] {
        f.siteops("apply", &["--shard", shard, "--yes"])
            .await
            .expect(0);
    }
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);

    std::fs::remove_dir_all(f.root.join("sites/acme/legacy")).expect("remove a site");
    let mut deleting = Vec::new();
    for shard in ["1/2", "2/2"] {
        let plan = f
            .siteops("plan", &["--prune", "--shard", shard])
            .await
            .expect(0);
        if plan.stdout.contains("- delete  acme/sites/legacy.json") {
            deleting.push(shard);
        }
        f.siteops("apply", &["--prune", "--shard", shard, "--yes"])
            .await
            .expect(0);
    }
    assert_eq!(deleting.len(), 1, "{deleting:?}");
    f.siteops("plan", &["--prune", "--detailed-exitcode"])
        .await
        .expect(0);
}

/// The org's document and its profiles, planned and applied like a site's documents
/// in the bundled service: a changed
/// profile names the sites that extend it, an org secret is rewritten only on request,
/// and an unlisted profile goes only with `--prune`.
#[tokio::test]
async fn the_org_and_its_profiles_are_planned_and_applied() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    assert!(
        f.document("acme.json").await.is_some(),
        "the org's document"
    );
    assert!(f.opens_campaigns(super::PARTNER_SECRET).await);
    assert!(!f.opens_campaigns("not-the-secret").await);
    assert_eq!(
        f.document("acme/profiles/repoless.json")
            .await
            .expect("the profile")["sidekick"],
        json!({"project": "Acme content sites"})
    );

    f.edit(
        "sites/acme/repoless.profile.toml",
        "project = \"Acme content sites\"",
        "project = \"Acme sites\"",
    );
    std::fs::write(
        f.root.join("sites/acme/spare.profile.toml"),
        "[robots]\ntxt = \"\"\n",
    )
    .expect("write");
    let plan = f.siteops("plan", &["--detailed-exitcode"]).await.expect(2);
    insta::assert_snapshot!("plan-profile-change", plan.stdout);
    f.siteops("apply", &["--yes"]).await.expect(0);
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);

    // An org secret's value is write-only: rewritten on request only.
    let replace = [
        "--replace-secret",
        "acme/partner-preview",
        "--detailed-exitcode",
    ];
    let plan = f.siteops("plan", &replace).await.expect(2);
    assert_eq!(
        plan.stdout,
        "~ update  acme.json  (--replace-secret: the stored value is replaced)\n      \
         ~ secrets.partner-preview.value: (sensitive) (value changed)\n\
         \nnote: acme: writing acme.json purges the configuration cache of every site in the org (5 sites)\n\
         API: older path family (`config/<org>/sites/<site>.json`)\nPlan: 0 to create, 1 to update, 0 to delete.\n"
    );

    std::fs::remove_file(f.root.join("sites/acme/spare.profile.toml")).expect("remove");
    f.siteops("plan", &["--detailed-exitcode"]).await.expect(0);
    let prune = f.siteops("apply", &["--yes", "--prune"]).await.expect(0);
    assert!(
        prune.stdout.contains(
            "- delete  acme/profiles/spare.json  (the repository no longer has this profile)\n"
        ),
        "{}",
        prune.stdout
    );
    assert!(f.document("acme/profiles/spare.json").await.is_none());
    assert!(
        f.document("acme.json").await.is_some(),
        "the org's document stays"
    );
}
