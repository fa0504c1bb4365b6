//! `siteops import`: the example fleet applied to the bundled service, imported into an
//! empty directory, then validated and planned against the same service: no changes.

use std::path::Path;

use crate::plan_apply::{Fixture, Run, run_siteops};

/// The variables the imported files name, each set (a plan compiles secret values; the
/// service never answers them, so any value plans as no change).
const IMPORTED_SECRETS: [&str; 2] = ["ACME_WEBSITE_GIT_SYNC", "ACME_PARTNER_PREVIEW"];

impl Fixture {
    /// `siteops import --org acme` into `root`, with `args`.
    async fn import(&self, root: &Path, args: &[&str]) -> Run {
        let mut full: Vec<String> = vec![
            "import".into(),
            "--root".into(),
            root.display().to_string(),
            "--admin".into(),
            self.admin_url(),
            "--org".into(),
            "acme".into(),
        ];
        full.extend(args.iter().map(|a| a.to_string()));
        run_siteops(full, &[("SITEOPS_ADMIN_TOKEN", &self.token)]).await
    }

    /// `siteops <command>` on the repository at `root`, against the service.
    async fn on(&self, root: &Path, command: &str, args: &[&str]) -> Run {
        let mut full: Vec<String> =
            vec![command.into(), "--root".into(), root.display().to_string()];
        if command != "validate" {
            full.extend(["--admin".into(), self.admin_url()]);
            full.extend(["--transform-url".into(), self.worker_url()]);
        }
        full.extend(args.iter().map(|a| a.to_string()));
        let mut env = vec![("SITEOPS_ADMIN_TOKEN", self.token.as_str())];
        env.extend(IMPORTED_SECRETS.iter().map(|name| (*name, "any-value")));
        run_siteops(full, &env).await
    }
}

/// Each `#:schema` line of the TOML files under `root` names a file that exists, relative
/// to the file that names it, under `root`: what an editor resolves offline.
fn every_schema_line_resolves(root: &Path) {
    let mut seen = 0;
    for file in files_under(root).iter().filter(|f| f.ends_with(".toml")) {
        let text = std::fs::read_to_string(root.join(file)).expect("a file");
        let Some(target) = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("#:schema "))
        else {
            continue;
        };
        let named = root.join(file).parent().unwrap().join(target.trim());
        let named = named
            .canonicalize()
            .unwrap_or_else(|_| panic!("{file}: {target} is missing"));
        let root = root.canonicalize().unwrap();
        assert!(
            named.starts_with(&root),
            "{file}: {target} leaves the repository"
        );
        seen += 1;
    }
    assert!(seen > 0, "no #:schema line under {}", root.display());
}

fn files_under(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).expect("under the root");
                found.push(relative.display().to_string().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

#[tokio::test]
async fn an_imported_org_validates_and_plans_no_changes() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");

    let dry = f.import(&root, &["--dry-run"]).await.expect(0);
    assert!(!root.exists(), "a dry run writes nothing");
    assert!(
        dry.stdout
            .contains("Would write sites/acme/website/site.toml\n"),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout.contains("Dry run, nothing written"),
        "{}",
        dry.stdout
    );

    let run = f.import(&root, &[]).await.expect(0);
    let stdout = run.stdout.replace(&root.display().to_string(), "[root]");
    insta::assert_snapshot!("import-stdout", stdout);
    assert_eq!(
        files_under(&root),
        [
            "schemas/files/access.toml.schema.json",
            "schemas/files/org.toml.schema.json",
            "schemas/files/profile.toml.schema.json",
            "schemas/files/public.toml.schema.json",
            "schemas/files/query.toml.schema.json",
            "schemas/files/secrets.toml.schema.json",
            "schemas/files/site.toml.schema.json",
            "schemas/files/sitemap.toml.schema.json",
            "schemas/files/siteops.toml.schema.json",
            "siteops.toml",
            "sites/acme/blog/site.toml",
            "sites/acme/campaigns/access.toml",
            "sites/acme/campaigns/site.toml",
            "sites/acme/legacy/site.toml",
            "sites/acme/org.toml",
            "sites/acme/repoless.profile.toml",
            "sites/acme/website-prod/access.toml",
            "sites/acme/website-prod/public.toml",
            "sites/acme/website-prod/site.toml",
            "sites/acme/website/access.toml",
            "sites/acme/website/public.toml",
            "sites/acme/website/query.toml",
            "sites/acme/website/secrets.toml",
            "sites/acme/website/site.toml",
            "sites/acme/website/sitemap.toml",
        ],
        "{}",
        run.stdout
    );
    let secrets = std::fs::read_to_string(root.join("sites/acme/website/secrets.toml")).unwrap();
    assert!(
        secrets.contains("env = \"ACME_WEBSITE_GIT_SYNC\""),
        "{secrets}"
    );
    for file in files_under(&root).iter().filter(|f| f.ends_with(".toml")) {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for value in [
            crate::plan_apply::SYNC_SECRET,
            crate::plan_apply::PARTNER_SECRET,
        ] {
            assert!(!text.contains(value), "{file} holds a secret value");
        }
        for stamped in ["contentBusId", "lastModified =", "hash ="] {
            assert!(!text.contains(stamped), "{file} holds `{stamped}`");
        }
    }

    every_schema_line_resolves(&root);
    // The sites that share acme/website's code are written as sharing it.
    for site in ["blog", "campaigns", "legacy", "website-prod"] {
        let text = std::fs::read_to_string(root.join(format!("sites/acme/{site}/site.toml")))
            .expect("site.toml");
        assert!(text.contains("\nbase = \"website\"\n"), "{site}: {text}");
        assert!(!text.contains("[code"), "{site}: {text}");
    }
    let blog = std::fs::read_to_string(root.join("sites/acme/blog/site.toml")).unwrap();
    insta::assert_snapshot!("import-repoless-blog", blog);

    f.on(&root, "validate", &[]).await.expect(0);
    let plan = f
        .on(&root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    // Imported without --transform-url, the repository does not manage the worker's
    // configuration, which the plan (with the worker) names.
    assert!(
        plan.stdout.ends_with(
            "not in the repository: document: transform/acme/website/main.json\n\
             API: older path family (`config/<org>/sites/<site>.json`)\n\
             No changes. Live but not in the repository: 1 document (`siteops plan --prune` shows them as deletions).\n"
        ),
        "{}",
        plan.stdout
    );

    // A second import refuses to overwrite, and writes nothing; --force overwrites.
    let again = f.import(&root, &[]).await.expect(1);
    assert!(
        again.stderr.contains("refused: these files exist"),
        "{}",
        again.stderr
    );
    assert!(
        again.stderr.contains("sites/acme/org.toml"),
        "{}",
        again.stderr
    );
    f.import(&root, &["--force"]).await.expect(0);
    f.on(&root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
}

#[tokio::test]
async fn sites_are_selected_by_name_and_glob() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    f.import(&root, &["--site", "website*", "--site", "blog"])
        .await
        .expect(0);
    let mut sites: Vec<String> = files_under(&root.join("sites/acme"))
        .into_iter()
        .filter_map(|f| f.strip_suffix("/site.toml").map(str::to_string))
        .collect();
    sites.sort();
    assert_eq!(sites, ["blog", "website", "website-prod"]);
    assert!(root.join("sites/acme/org.toml").is_file());
    f.on(&root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);

    let unknown = f
        .import(&dir.path().join("other"), &["--site", "nope*"])
        .await
        .expect(1);
    assert!(
        unknown
            .stderr
            .contains("--site nope*: the service has no such site in org `acme`"),
        "{}",
        unknown.stderr
    );
    assert!(!dir.path().join("other").exists());
}

#[tokio::test]
async fn an_org_imported_from_the_newer_family_plans_no_changes_on_either() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    let (root_arg, newer, worker) = (
        root.display().to_string(),
        f.server.url("/api"),
        f.worker_url(),
    );
    let mut env = vec![("SITEOPS_ADMIN_TOKEN", f.token.as_str())];
    let import = [
        "import", "--root", &root_arg, "--admin", &newer, "--org", "acme",
    ];
    run_siteops(import.map(str::to_string).to_vec(), &env)
        .await
        .expect(0);
    // The newer family answers the external repository as `github`; it reads back as the
    // interface's `byogit`.
    let site = std::fs::read_to_string(root.join("sites/acme/website/site.toml")).unwrap();
    assert!(site.contains("type = \"byogit\""), "{site}");

    f.on(&root, "validate", &[]).await.expect(0);
    // No changes on the older family, nor on the newer one.
    f.on(&root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    let plan = [
        "plan",
        "--root",
        &root_arg,
        "--admin",
        &newer,
        "--transform-url",
        &worker,
        "--detailed-exitcode",
    ];
    env.extend(IMPORTED_SECRETS.iter().map(|name| (*name, "any-value")));
    let run = run_siteops(plan.map(str::to_string).to_vec(), &env)
        .await
        .expect(0);
    assert!(run.stdout.contains("newer path family"), "{}", run.stdout);
}

/// What the service made (a secret, an API key) is imported as made, and the worker's
/// configurations with `--transform-url`: with the templates of the site's code copied
/// in, the imported repository validates and plans no changes.
#[tokio::test]
async fn made_values_and_worker_configurations_round_trip() {
    let f = Fixture::start().await;
    crate::plan_apply::made::declare(&f);
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("made.env");
    let out_arg = out.display().to_string();
    f.siteops("apply", &["--yes", "--secrets-out", &out_arg])
        .await
        .expect(0);
    let values: Vec<String> = crate::plan_apply::made::kept(&out)
        .into_iter()
        .map(|(_, value)| value)
        .collect();
    let root = dir.path().join("imported");
    // The site's code on the service: its templates, as a code sync stores them.
    let templates = f.root.join("sites/acme/website/templates");
    let store = f.server.server.state.store.as_ref();
    let repo = siteops_server::code::CodeRepo::new("acme", "website");
    for entry in std::fs::read_dir(&templates).expect("templates") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let key = siteops_server::store::keys::code_file(
            "acme",
            &repo,
            "main",
            &format!("templates/{name}"),
        );
        let bytes = std::fs::read(entry.path()).expect("template");
        store.put(&key, &bytes).await.expect("put");
    }
    let run = f
        .import(&root, &["--transform-url", &f.worker_url()])
        .await
        .expect(0);
    assert!(!run.stderr.contains("copy them here"), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Wrote sites/acme/website/templates/product.html\n"),
        "{}",
        run.stdout
    );
    every_schema_line_resolves(&root);
    let read = |file: &str| std::fs::read_to_string(root.join(file)).expect(file);
    let secrets = read("sites/acme/website/secrets.toml");
    assert!(
        secrets.contains("[partner-token]\nmade = \"service\"\n"),
        "{secrets}"
    );
    let blog = read("sites/acme/blog/site.toml");
    assert!(
        blog.contains("[apiKeys.ci-publish]\nmade = \"service\"\nroles = [\"config_admin\"]\n"),
        "{blog}"
    );
    let worker = read("sites/acme/website/transform/main.toml");
    assert!(
        worker.contains("templateApiKey = { env = \"ACME_WEBSITE_TEMPLATE_API_KEY\" }")
            || worker.contains("env = \"ACME_WEBSITE_TEMPLATE_API_KEY\""),
        "{worker}"
    );
    for file in files_under(&root) {
        let text = read(&file);
        for value in values
            .iter()
            .map(String::as_str)
            .chain([crate::plan_apply::TEMPLATE_KEY])
        {
            assert!(!text.contains(value), "{file} holds a secret value");
        }
    }
    for file in files_under(&templates) {
        let copied = root.join("sites/acme/website/templates").join(&file);
        assert_eq!(
            std::fs::read(&copied).expect("a copied template"),
            std::fs::read(templates.join(&file)).unwrap(),
            "{file}"
        );
    }
    f.on(&root, "validate", &[]).await.expect(0);
    let root_arg = root.display().to_string();
    let (admin, worker) = (f.admin_url(), f.worker_url());
    let plan = [
        "plan",
        "--root",
        &root_arg,
        "--admin",
        &admin,
        "--transform-url",
        &worker,
        "--detailed-exitcode",
    ];
    let mut env = vec![("SITEOPS_ADMIN_TOKEN", f.token.as_str())];
    env.extend(IMPORTED_SECRETS.iter().map(|name| (*name, "any-value")));
    env.push((
        "ACME_WEBSITE_TEMPLATE_API_KEY",
        crate::plan_apply::TEMPLATE_KEY,
    ));
    let run = run_siteops(plan.map(str::to_string).to_vec(), &env)
        .await
        .expect(0);
    assert!(run.stdout.ends_with("\nNo changes.\n"), "{}", run.stdout);
}

/// Issue 43, finding 3 (c): the routine loop that revived a leaked key. The org mints a
/// key; `siteops import` writes its record into `org.toml` (a note); the org revokes the
/// key (401); the next plan proposes no `+ apiKeys` and names the record as revoked, and
/// apply writes nothing back: the key stays 401.
#[tokio::test]
async fn a_revoked_org_key_stays_revoked_through_import_plan_and_apply() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let minted = f
        .server
        .post(
            "/admin/config/acme/apiKeys.json",
            &f.token,
            &serde_json::json!({"description": "leaked", "roles": ["config_admin"]}),
        )
        .await;
    assert!(minted.status.is_success(), "{:?}", minted.error);
    let id = minted.body["id"].as_str().expect("an id").to_string();
    let key = minted.body["value"]
        .as_str()
        .expect("its token")
        .to_string();
    let read = |token: String| {
        let server = &f.server;
        async move {
            server
                .get("/admin/config/acme/sites/website.json", &token)
                .await
                .status
        }
    };
    assert_eq!(read(key.clone()).await, 200);

    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    f.import(&root, &[]).await.expect(0);
    let org = std::fs::read_to_string(root.join("sites/acme/org.toml")).unwrap();
    assert!(org.contains(&format!("id = \"{id}\"")), "{org}");

    let revoked = f
        .server
        .send(
            reqwest::Method::DELETE,
            &format!("/admin/config/acme/apiKeys/{id}.json"),
            Some(&f.token),
            None,
        )
        .await;
    assert_eq!(revoked.status, 204, "{:?}", revoked.error);
    assert_eq!(read(key.clone()).await, 401);

    let plan = f
        .on(&root, "plan", &["--detailed-exitcode"])
        .await
        .expect(0);
    assert!(!plan.stdout.contains("+ apiKeys"), "{}", plan.stdout);
    assert!(
        plan.stdout.contains(&format!(
            "records key `{id}`, which the service does not hold"
        )),
        "{}",
        plan.stdout
    );
    f.on(&root, "apply", &["--yes"]).await.expect(0);
    assert_eq!(read(key).await, 401);
    let stored = f.server.get("/admin/config/acme.json", &f.token).await;
    assert!(stored.body["apiKeys"].get(&id).is_none(), "{}", stored.body);
}

/// With `--code OWNER/REPO=DIR`, the templates come from the checkout, whatever the
/// service holds; without either, the note names what to copy.
#[tokio::test]
async fn templates_come_from_a_checkout() {
    let f = Fixture::start().await;
    f.siteops("apply", &["--yes"]).await.expect(0);
    let dir = tempfile::tempdir().expect("temp dir");
    let bare = dir.path().join("bare");
    let run = f
        .import(&bare, &["--transform-url", &f.worker_url()])
        .await
        .expect(0);
    assert!(
        run.stderr.contains(
            "could not be read (pass --code OWNER/REPO=DIR to copy them from a checkout); copy them here for `siteops validate`: sites/acme/website/templates/article.html (the preview host of acme/website answered 404 Not Found)"
        ),
        "{}",
        run.stderr
    );

    let root = dir.path().join("imported");
    let checkout = f.root.join("sites/acme/website");
    let code = format!("acme/website={}", checkout.display());
    let run = f
        .import(
            &root,
            &["--transform-url", &f.worker_url(), "--code", &code],
        )
        .await
        .expect(0);
    assert!(!run.stderr.contains("copy them here"), "{}", run.stderr);
    let copied = std::fs::read(root.join("sites/acme/website/templates/store.html"))
        .expect("copied from the checkout");
    assert_eq!(
        copied,
        std::fs::read(checkout.join("templates/store.html")).unwrap()
    );
    f.on(&root, "validate", &[]).await.expect(0);
}
