//! Role holders as the platform stores them: a group reference (`/groups/<id>.json`), a
//! user list (a sheet of the site's content, `/users.json`) and the role `view` (the
//! platform's schema of 1.73.0). Written through both path families and their access
//! sub-paths, read back as sent; resolved when the bundled service authorises (a group's
//! member holds the role, a user list's addresses hold it once its sheet is previewed);
//! imported to the repository's readable form and planned back without a change.

use reqwest::StatusCode;
use serde_json::{Value, json};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::{ORG_ADMIN, TestServer};
use crate::plan_apply::{Fixture, run_siteops};
use crate::preview::{PAGE, html, preview};

const SITE_ADMIN: &str = "web@acme.example";
const EDITOR: &str = "ed@acme.example";
const READER: &str = "rea@acme.example";
const STRANGER: &str = "eve@acme.example";

/// The org's document: the groups the sites' roles reference.
fn org_document() -> Value {
    json!({"groups": {
        "editors": {"members": [{"email": EDITOR, "name": "Ed"}]},
        "readers": {"members": [{"email": READER}]}
    }})
}

/// The access block of the sites below, as the platform stores it.
fn access() -> Value {
    json!({
        "admin": {
            "role": {
                "admin": [SITE_ADMIN],
                "author": ["/groups/editors.json"],
                "publish": ["/users.json"],
                "view": ["/groups/readers.json"]
            },
            "defaultRole": ["view"],
            "requireAuth": true
        },
        "preview": {"allow": ["/groups/readers.json"]}
    })
}

/// A site document on the markup source `source`, with [`access`].
fn site_document(source: &str) -> Value {
    json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"type": "markup", "url": source}},
        "access": access(),
    })
}

/// A sheet answer of the markup source listing `emails`.
fn users_sheet(emails: &[&str]) -> ResponseTemplate {
    let data: Vec<Value> = emails.iter().map(|e| json!({"email": e})).collect();
    let body = json!({"total": data.len(), "offset": 0, "limit": data.len(), "data": data, ":type": "sheet"});
    ResponseTemplate::new(200).set_body_raw(body.to_string().into_bytes(), "application/json")
}

/// A server whose org defines the groups, and a markup source with a page at `/` (its
/// `/index`) and the
/// user list `/users.json` listing `users`; the server, an org administrator's token, the
/// source.
async fn service(users: &[&str]) -> (TestServer, String, MockServer) {
    let source = MockServer::start().await;
    Mock::given(path("/index"))
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    Mock::given(path("/users.json"))
        .respond_with(users_sheet(users))
        .mount(&source)
        .await;
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let org = server
        .post("/admin/config/acme.json", &root, &org_document())
        .await;
    assert_eq!(org.status, StatusCode::OK, "{:?}", org.error);
    (server, root, source)
}

#[tokio::test]
async fn group_references_and_user_lists_are_stored_as_sent_on_both_families() {
    let (server, root, source) = service(&[]).await;
    // One site written through each family, PUT (create) then POST (replace).
    for (name, document) in [
        ("web", "/admin/config/acme/sites/web.json"),
        ("shop", "/api/acme/sites/shop/config.json"),
    ] {
        let sent = site_document(&source.uri());
        let created = server.put(document, &root, &sent).await;
        assert_eq!(
            created.status,
            StatusCode::CREATED,
            "{name}: {:?}",
            created.error
        );
        let replaced = server.post(document, &root, &sent).await;
        assert_eq!(
            replaced.status,
            StatusCode::OK,
            "{name}: {:?}",
            replaced.error
        );
        for read in [
            format!("/admin/config/acme/sites/{name}.json"),
            format!("/api/acme/sites/{name}/config.json"),
        ] {
            let answer = server.get(&read, &root).await;
            assert_eq!(answer.status, StatusCode::OK, "{read}: {:?}", answer.error);
            assert_eq!(answer.body["access"], access(), "{read}");
        }
    }
    // The access sub-paths, on both families: written and read as parts of the document.
    let role = json!({
        "author": ["/groups/editors.json", "/authors.json"],
        "view": ["/groups/readers.json", "*@partner.example"]
    });
    for (part, read) in [
        (
            "/admin/config/acme/sites/web/access/admin/role.json",
            "/api/acme/sites/web/config/access/admin/role.json",
        ),
        (
            "/api/acme/sites/shop/config/access/admin/role.json",
            "/admin/config/acme/sites/shop/access/admin/role.json",
        ),
    ] {
        let written = server.post(part, &root, &role).await;
        assert_eq!(
            written.status,
            StatusCode::OK,
            "{part}: {:?}",
            written.error
        );
        assert_eq!(server.get(read, &root).await.body, role, "{read}");
    }
    let allow = server
        .get("/api/acme/sites/web/config/access/preview.json", &root)
        .await;
    assert_eq!(allow.body, json!({"allow": ["/groups/readers.json"]}));
    // A reference that is not `/groups/<id>.json` is refused, naming the field.
    let mut bad = site_document(&source.uri());
    bad["access"]["admin"]["role"]["author"] = json!(["/groups/editors"]);
    let refused = server
        .post("/api/acme/sites/web/config.json", &root, &bad)
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let error = refused.error.unwrap_or_default();
    assert!(
        error.contains("/access/admin/role/author/0") && error.contains("/groups/editors"),
        "{error}"
    );
}

/// The status of `GET /` on acme/web's preview host for `who` (signed in), or no one.
async fn reads(server: &TestServer, who: Option<&str>) -> StatusCode {
    let token = who.map(|who| server.token(who));
    server
        .preview("main--web--acme.localhost", "/", token.as_deref())
        .await
        .status
}

/// The status of a preview of `page` by `who`.
async fn previews(server: &TestServer, who: &str, page: &str) -> StatusCode {
    preview(server, &server.token(who), page, &[])
        .await
        .0
        .status
}

#[tokio::test]
async fn a_member_of_a_referenced_group_holds_the_role_and_view_reads() {
    let (server, root, source) = service(&[]).await;
    // Only the roles say who reads: no default role, no `allow` list.
    let mut document = site_document(&source.uri());
    let access = document["access"].as_object_mut().expect("access");
    access.remove("preview");
    access["admin"]
        .as_object_mut()
        .expect("admin")
        .remove("defaultRole");
    let created = server
        .put("/api/acme/sites/web/config.json", &root, &document)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);

    // `author` by the org's group `editors`: its member previews, no one else does.
    assert_eq!(previews(&server, EDITOR, "/").await, StatusCode::OK);
    for who in [STRANGER, READER] {
        assert_eq!(
            previews(&server, who, "/").await,
            StatusCode::FORBIDDEN,
            "{who}"
        );
    }
    // `view` (by `/groups/readers.json`) reads the protected content and does nothing
    // more: no preview, no configuration.
    assert_eq!(reads(&server, Some(READER)).await, StatusCode::OK);
    assert_eq!(reads(&server, Some(EDITOR)).await, StatusCode::OK);
    assert_eq!(reads(&server, Some(STRANGER)).await, StatusCode::FORBIDDEN);
    assert_eq!(reads(&server, None).await, StatusCode::UNAUTHORIZED);
    let config = server
        .get("/api/acme/sites/web/config.json", &server.token(READER))
        .await;
    assert_eq!(config.status, StatusCode::FORBIDDEN);

    // Leaving the group is losing the role.
    let mut moved = org_document();
    moved["groups"]["editors"]["members"] = json!([{"email": STRANGER}]);
    let written = server.post("/admin/config/acme.json", &root, &moved).await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    assert_eq!(previews(&server, EDITOR, "/").await, StatusCode::FORBIDDEN);
    assert_eq!(previews(&server, STRANGER, "/").await, StatusCode::OK);
}

#[tokio::test]
async fn a_user_list_holds_the_addresses_of_its_previewed_sheet() {
    let (server, root, source) = service(&["ann@acme.example"]).await;
    let mut document = site_document(&source.uri());
    // The user list alone says who publishes: the default role reads, no more.
    document["access"]["admin"]["role"] =
        json!({"admin": [SITE_ADMIN], "publish": ["/users.json"]});
    let created = server
        .put("/admin/config/acme/sites/web.json", &root, &document)
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.error);

    // Not previewed yet: the list holds no one.
    assert_eq!(
        previews(&server, "ann@acme.example", "/").await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        previews(&server, SITE_ADMIN, "/users.json").await,
        StatusCode::OK
    );
    assert_eq!(
        previews(&server, "ann@acme.example", "/").await,
        StatusCode::OK
    );
    assert_eq!(
        previews(&server, "bob@acme.example", "/").await,
        StatusCode::FORBIDDEN
    );

    // The sheet changes; previewing it again changes who holds the role.
    source.reset().await;
    Mock::given(path("/index"))
        .respond_with(html(PAGE))
        .mount(&source)
        .await;
    Mock::given(path("/users.json"))
        .respond_with(users_sheet(&["bob@acme.example"]))
        .mount(&source)
        .await;
    assert_eq!(
        previews(&server, "ann@acme.example", "/").await,
        StatusCode::OK,
        "until the sheet is previewed again"
    );
    assert_eq!(
        previews(&server, SITE_ADMIN, "/users.json").await,
        StatusCode::OK
    );
    assert_eq!(
        previews(&server, "ann@acme.example", "/").await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        previews(&server, "bob@acme.example", "/").await,
        StatusCode::OK
    );
}

/// The access block of the site the import test adds to the example fleet: the org's
/// `authors` group by its id and by the platform's reference, a user list, `view`.
const TEAM_ACCESS: &str = r#"[admin]
defaultRole = ["view"]

[admin.role]
admin = ["web-team@acme.example"]
author = ["authors", "/users.json"]
view = ["/groups/authors.json", "*@partner.example"]

[preview]
allow = ["authors"]
"#;

#[tokio::test]
async fn imported_group_references_plan_no_changes_and_one_edit_is_one_change() {
    let f = Fixture::start().await;
    let team = f.root.join("sites/acme/team");
    std::fs::create_dir_all(&team).expect("a site directory");
    let blog = std::fs::read_to_string(f.root.join("sites/acme/blog/site.toml")).expect("blog");
    std::fs::write(
        team.join("site.toml"),
        blog.replace("delivery/blog", "delivery/team"),
    )
    .expect("site.toml");
    std::fs::write(team.join("access.toml"), TEAM_ACCESS).expect("access.toml");
    let validate = |root: &std::path::Path| {
        let root = root.display().to_string();
        run_siteops(vec!["validate".into(), "--root".into(), root], &[])
    };
    f.siteops("apply", &["--yes"]).await.expect(0);

    // What the service stores is the platform's form.
    let stored = f.document("acme/sites/team.json").await.expect("stored");
    assert_eq!(
        stored["access"],
        json!({
            "admin": {
                "defaultRole": ["view"],
                "role": {
                    "admin": ["web-team@acme.example"],
                    "author": ["/groups/authors.json", "/users.json"],
                    "view": ["/groups/authors.json", "*@partner.example"]
                }
            },
            "preview": {"allow": ["/groups/authors.json"]}
        })
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("imported");
    let (root_arg, admin) = (root.display().to_string(), f.admin_url());
    let env = [
        ("SITEOPS_ADMIN_TOKEN", f.token.as_str()),
        ("ACME_WEBSITE_GIT_SYNC", "any-value"),
        ("ACME_PARTNER_PREVIEW", "any-value"),
    ];
    let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    run_siteops(
        args(&[
            "import", "--root", &root_arg, "--admin", &admin, "--org", "acme",
        ]),
        &env,
    )
    .await
    .expect(0);
    let imported = std::fs::read_to_string(root.join("sites/acme/team/access.toml")).unwrap();
    assert!(
        imported.contains("author = [\"authors\", \"/users.json\"]")
            && imported.contains("view = [\"authors\", \"*@partner.example\"]")
            && imported.contains("allow = [\"authors\"]"),
        "group references are written as the ids, user lists as paths:\n{imported}"
    );
    let plan_args = |root: &str| {
        args(&[
            "plan",
            "--root",
            root,
            "--admin",
            &admin,
            "--transform-url",
            &f.worker_url(),
            "--detailed-exitcode",
        ])
    };
    validate(&root).await.expect(0);
    let plan = run_siteops(plan_args(&root_arg), &env).await.expect(0);
    assert!(plan.stdout.contains("No changes."), "{}", plan.stdout);

    // One holder more is one change, to the platform's form.
    let access = root.join("sites/acme/team/access.toml");
    std::fs::write(
        &access,
        imported.replace(
            "\"/users.json\"]",
            "\"/users.json\", \"/groups/authors.json\"]",
        ),
    )
    .expect("edit");
    let plan = run_siteops(plan_args(&root_arg), &env).await.expect(2);
    assert!(
        plan.stdout.contains("~ update  acme/sites/team.json")
            && plan.stdout.contains("access.admin.role.author")
            && plan
                .stdout
                .contains("Plan: 0 to create, 1 to update, 0 to delete."),
        "{}",
        plan.stdout
    );
}
