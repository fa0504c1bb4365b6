//! What a profile's change reaches: the effective configuration of every site that
//! extends it, of the repository or live only, shown by plan and never written by apply;
//! and the purge of the org's configuration cache, in both path families.

use serde_json::{Value, json};

use super::Fixture;

const OLDER: &str = "API: older path family (`config/<org>/sites/<site>.json`)";
const NEWER: &str = "API: newer path family (`<org>/sites/<site>/config.json`)";

/// acme/shop: a site of the service that the repository does not have, on the profile
/// that acme/blog and acme/campaigns extend.
async fn add_live_only_site(f: &Fixture) {
    let shop = json!({
        "version": 1,
        "extends": {"profile": "repoless"},
        "code": {"owner": "acme", "repo": "website", "source": {
            "type": "github", "url": "https://github.com/acme/website"}},
        "content": {"source": {"url": "https://cms.acme.example/delivery/shop", "type": "markup"}},
    });
    let answer = (f.server)
        .post("/admin/config/acme/sites/shop.json", &f.token, &shop)
        .await;
    assert!(answer.status.is_success(), "{:?}", answer.error);
}

/// The service's `lastModified` of each site of acme's.
async fn stamps(f: &Fixture) -> Vec<Value> {
    let mut out = Vec::new();
    for site in ["blog", "campaigns", "shop"] {
        let document = f
            .document(&format!("acme/sites/{site}.json"))
            .await
            .expect("the site");
        out.push(document["lastModified"].clone());
    }
    out
}

async fn reaches(newer: bool) {
    let f = Fixture::start().await;
    let (admin, line) = if newer {
        (f.server.url("/api"), NEWER)
    } else {
        (f.admin_url(), OLDER)
    };
    f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    add_live_only_site(&f).await;
    // Nothing written, nothing reached.
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert_eq!(plan.stdout, unmanaged_shop(line));

    f.edit(
        "sites/acme/repoless.profile.toml",
        "project = \"Acme content sites\"",
        "project = \"Acme sites\"",
    );
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(2);
    let name = if newer {
        "plan-reach-newer"
    } else {
        "plan-reach-older"
    };
    insta::assert_snapshot!(name, plan.stdout);

    let json = f
        .siteops_at(&admin, "plan", &["--format", "json"])
        .await
        .expect(0);
    let json: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(json["summary"]["update"], 1);
    assert_eq!(json["summary"]["effective"], 3);
    let profile = (json["resources"].as_array().expect("resources").iter())
        .find(|r| r["address"] == "acme/profiles/repoless.json")
        .expect("the profile");
    let sites: Vec<&str> = (profile["effective"].as_array().expect("effective").iter())
        .map(|e| e["site"].as_str().expect("a site"))
        .collect();
    assert_eq!(sites, ["acme/blog", "acme/campaigns", "acme/shop"]);
    assert_eq!(
        profile["effective"][2]["changes"],
        json!([{"path": "/sidekick/project", "before": "Acme content sites", "after": "Acme sites"}])
    );
    assert_eq!(
        json["notes"],
        json!([
            "acme: writing acme/profiles/repoless.json purges the configuration cache of every site in the org (6 sites)"
        ])
    );

    let comment = f
        .siteops_at(&admin, "plan", &["--format", "markdown"])
        .await
        .expect(0);
    for line in [
        "**Plan: 0 to create, 1 to update, 0 to delete; 3 sites' effective configuration changes.**",
        "> acme: writing acme/profiles/repoless.json purges the configuration cache of every site in the org (6 sites)",
        "        effective configuration changes on 3 sites (not written):\n          acme/blog\n",
        "          acme/shop\n-         sidekick.project: \"Acme content sites\"\n+         sidekick.project: \"Acme sites\"\n",
    ] {
        assert!(comment.stdout.contains(line), "{line}\n{}", comment.stdout);
    }

    // Apply writes the profile alone; the sites see it through it.
    let before = stamps(&f).await;
    let apply = f.siteops_at(&admin, "apply", &["--yes"]).await.expect(0);
    assert!(
        apply
            .stdout
            .ends_with("Apply complete: 0 created, 1 updated, 0 deleted.\n"),
        "{}",
        apply.stdout
    );
    assert_eq!(stamps(&f).await, before, "no site document is written");
    let shop = (f.server)
        .get("/admin/config/acme/aggregated/shop.json", &f.token)
        .await;
    assert_eq!(
        shop.body.pointer("/sidekick/project"),
        Some(&json!("Acme sites"))
    );
    let plan = f
        .siteops_at(&admin, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert_eq!(plan.stdout, unmanaged_shop(line));
}

#[tokio::test]
async fn a_profile_change_plans_the_effective_diff_of_its_sites_older_family() {
    reaches(false).await;
}

#[tokio::test]
async fn a_profile_change_plans_the_effective_diff_of_its_sites_newer_family() {
    reaches(true).await;
}

/// A plan without changes, with acme/shop live but not in the repository.
fn unmanaged_shop(line: &str) -> String {
    format!(
        "not in the repository: site: acme/shop\n{line}\n\
         No changes. Live but not in the repository: 1 site (`siteops plan --prune` shows them as deletions).\n"
    )
}
