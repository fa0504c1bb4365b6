//! The bundled administration service over real HTTP: every route and status, the
//! token/role matrix, persistence across restarts, concurrent writers, repositories.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::harness::{ORG_ADMIN, TestServer};

const SITE: &str = "/admin/config/acme/sites/web.json";

fn site_body() -> Value {
    json!({
        "code": {"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}},
        "content": {"source": {"url": "https://content.acme.example/web", "type": "markup", "suffix": ".html"}},
        "access": {"admin": {"role": {"admin": ["web@acme.example"], "config_admin": ["tech@techacct.example"]}}}
    })
}

/// A site document's member as sent: without the content bus the service stamps on
/// `content` (and keeps).
fn as_sent(mut member: Value) -> Value {
    if let Some(content) = member.as_object_mut() {
        content.remove("contentBusId");
    }
    member
}

async fn with_site() -> (TestServer, String) {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    assert_eq!(
        server.put(SITE, &root, &site_body()).await.status,
        StatusCode::CREATED
    );
    (server, root)
}

#[tokio::test]
async fn site_lifecycle_put_get_post_delete() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);

    // PUT answers an empty 201, as the platform does.
    let created = server.put(SITE, &root, &site_body()).await;
    assert_eq!(created.status, StatusCode::CREATED);
    assert_eq!(created.body, Value::Null, "an empty body");

    // A PUT on an existing document: the platform's 409, empty body, code and message.
    let again = server.put(SITE, &root, &site_body()).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.error.as_deref().is_some_and(|e| e.contains("exists")));
    assert_eq!(again.code.as_deref(), Some("AEM_BACKEND_CONFIG_EXISTS"));
    assert_eq!((again.body, again.content_type), (Value::Null, None));

    let read = server.get(SITE, &root).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.body["code"], site_body()["code"]);
    assert_eq!(read.body["version"], 1, "the service stamps the version");
    let first_created = read.body["created"].clone();
    assert!(first_created.is_string() && read.body["lastModified"].is_string());

    // POST replaces; server-managed fields sent back are ignored, `created` is kept.
    let mut replacement = read.body.clone();
    replacement["content"]["source"]["suffix"] = json!(".htm");
    replacement["created"] = json!("1999-01-01T00:00:00.000Z");
    let replaced = server.post(SITE, &root, &replacement).await;
    assert_eq!(replaced.status, StatusCode::OK, "{:?}", replaced.error);
    assert_eq!(replaced.body["content"]["source"]["suffix"], ".htm");
    assert_eq!(replaced.body["created"], first_created);

    assert_eq!(
        server.delete(SITE, &root).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(server.get(SITE, &root).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        server.delete(SITE, &root).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn post_creates_a_site_too() {
    let server = TestServer::start().await;
    let answer = server
        .post(SITE, &server.token(ORG_ADMIN), &site_body())
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["version"], 1);
}

#[tokio::test]
async fn sub_resources_read_and_write_their_part() {
    let (server, root) = with_site().await;
    let base = "/admin/config/acme/sites/web";
    let bodies = [
        (
            "public",
            json!({"paths": {"mappings": ["/content/web/:/"], "includes": ["/content/web/"]}}),
        ),
        (
            "access",
            json!({"admin": {"role": {"admin": ["*"]}, "requireAuth": "auto"}}),
        ),
        (
            "code",
            json!({"owner": "acme", "repo": "web2", "source": {"type": "github", "url": "https://github.com/acme/web2"}}),
        ),
        (
            "content",
            json!({"source": {"url": "https://content.acme.example/v2", "type": "markup"}, "overlay": {"url": "https://overlay.acme.example", "type": "markup"}}),
        ),
    ];
    for (name, body) in &bodies {
        let path = format!("{base}/{name}.json");
        let written = server.post(&path, &root, body).await;
        assert_eq!(
            written.status,
            StatusCode::OK,
            "{name}: {:?}",
            written.error
        );
        let read = server.get(&path, &root).await;
        assert_eq!(read.status, StatusCode::OK, "{name}");
        for (key, value) in body.as_object().expect("object") {
            assert_eq!(&read.body[key], value, "{name}.{key}");
        }
    }
    // access, code and content are fields of the site document.
    let site = server.get(SITE, &root).await.body;
    assert_eq!(site["code"]["repo"], "web2");
    assert_eq!(site["access"]["admin"]["requireAuth"], "auto");

    for (name, _) in &bodies {
        let path = format!("{base}/{name}.json");
        assert_eq!(
            server.delete(&path, &root).await.status,
            StatusCode::NO_CONTENT,
            "{name}"
        );
        assert_eq!(
            server.get(&path, &root).await.status,
            StatusCode::NOT_FOUND,
            "{name}"
        );
    }
    assert_eq!(
        server
            .get(&format!("{base}/unknown.json"), &root)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn sub_resources_of_a_missing_site_are_404() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let bodies = [
        ("public", json!({"paths": {}})),
        ("access", json!({"admin": {"role": {"admin": ["*"]}}})),
        ("code", site_body()["code"].clone()),
        ("content", site_body()["content"].clone()),
        ("secrets/s", json!({"value": "v"})),
    ];
    for (name, body) in bodies {
        let path = format!("/admin/config/acme/sites/nowhere/{name}.json");
        let answer = server.post(&path, &root, &body).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{name}: {:?}",
            answer.error
        );
        assert!(
            answer.error.is_some_and(|e| e.contains("does not exist")),
            "{name}"
        );
    }
}

#[tokio::test]
async fn secret_values_are_write_only() {
    let (server, root) = with_site().await;
    let path = "/admin/config/acme/sites/web/secrets/git-sync.json";
    let written = server
        .post(path, &root, &json!({"value": "s3cret-value"}))
        .await;
    assert_eq!(written.status, StatusCode::OK);
    assert_eq!(written.body["id"], "git-sync");
    let read = server.get(path, &root).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.body["id"], "git-sync");
    assert!(read.body["created"].is_string() && read.body["lastModified"].is_string());
    assert!(!read.body.to_string().contains("s3cret-value"));
    assert!(read.body.get("value").is_none());
    // The listing shows each secret as GET does: no values.
    let list = "/admin/config/acme/sites/web/secrets.json";
    let listed = server.get(list, &root).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.body, json!({"git-sync": read.body}), "keyed by id");
    assert_eq!(
        server.delete(list, &root).await.status,
        StatusCode::METHOD_NOT_ALLOWED
    );
    assert_eq!(
        server.delete(path, &root).await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(server.get(path, &root).await.status, StatusCode::NOT_FOUND);
    assert_eq!(server.get(list, &root).await.body, json!({}));
    let stranger = server.token("x@y.example");
    assert_eq!(
        server.get(list, &stranger).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_org_lists_its_sites() {
    let (server, root) = with_site().await;
    let answer = server.get("/admin/config/acme/sites.json", &root).await;
    assert_eq!(answer.status, StatusCode::OK);
    let web = json!({"name": "web", "path": "/acme/sites/web/config.json"});
    assert_eq!(answer.body, json!({"sites": [web]}));
    let stranger = server
        .get(
            "/admin/config/acme/sites.json",
            &server.token("x@y.example"),
        )
        .await;
    assert_eq!(
        stranger.body,
        json!({"sites": []}),
        "only sites the caller may configure"
    );
    // An org administrator's token scoped to one site lists that site only.
    let blog = json!({"code": {"owner": "acme", "repo": "blog", "source": {"type": "github", "url": "https://github.com/acme/blog"}}});
    let created = server
        .put("/admin/config/acme/sites/blog.json", &root, &blog)
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let all = server.get("/admin/config/acme/sites.json", &root).await;
    let blog = json!({"name": "blog", "path": "/acme/sites/blog/config.json"});
    assert_eq!(all.body, json!({"sites": [blog, web]}));
    let scoped = server
        .get(
            "/admin/config/acme/sites.json",
            &server.token_with(ORG_ADMIN, "acme/web", 60),
        )
        .await;
    assert_eq!(scoped.body, json!({"sites": [web]}));
    // With details, each site's dates from its document too.
    let detailed = server
        .get("/admin/config/acme/sites.json?details=true", &root)
        .await;
    let sites = detailed.body["sites"].as_array().expect("sites").clone();
    assert_eq!(sites.len(), 2);
    assert!(
        sites
            .iter()
            .all(|site| site["created"].is_string() && site["lastModified"].is_string()),
        "{sites:?}"
    );
}

#[tokio::test]
async fn bad_requests_name_the_problem() {
    let (server, root) = with_site().await;
    let cases: Vec<(Method, &str, Vec<u8>, StatusCode, &str)> = vec![
        (Method::POST, SITE, b"{not json".to_vec(), StatusCode::BAD_REQUEST, "invalid JSON"),
        (Method::POST, SITE, br#"{"version": 1, "contnet": {}}"#.to_vec(), StatusCode::BAD_REQUEST, "unknown key `contnet`"),
        (Method::POST, SITE, br#"{"code": {"owner": "a"}}"#.to_vec(), StatusCode::BAD_REQUEST, "/code/repo: missing key `repo` in code"),
        (
            Method::POST,
            "/admin/config/acme/sites/web/content.json",
            br#"{"source": {"url": "https://x.example", "type": "markup"}, "overlay": {"url": "https://o.example", "type": "json"}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "/overlay/type: `type` cannot be \"json\"",
        ),
        (
            Method::POST,
            "/admin/config/acme/sites/web/access.json",
            br#"{"admin": {"requireAuth": "always"}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "/admin/requireAuth: `requireAuth` cannot be \"always\"",
        ),
        (Method::POST, SITE, br#"{"version": 2}"#.to_vec(), StatusCode::BAD_REQUEST, "/version: `version` cannot be 2"),
        (
            Method::POST,
            "/admin/config/acme/sites/web/public.json",
            br#"{"paths": {"mappings": ["relative:/"]}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "/paths/mappings/0",
        ),
        (Method::POST, "/admin/config/Acme/sites/web.json", b"{}".to_vec(), StatusCode::BAD_REQUEST, "invalid org name `Acme`"),
        (Method::POST, "/admin/config/acme/sites/web_site.json", b"{}".to_vec(), StatusCode::BAD_REQUEST, "invalid site name"),
        // A read of a name that cannot be one asks for what cannot exist.
        (Method::GET, "/admin/config/acme/sites/web/secrets/Bad.json", vec![], StatusCode::NOT_FOUND, "no such resource: invalid secret name"),
        (Method::GET, "/admin/config/acme/sites/..%2F..%2Fkeys.json", vec![], StatusCode::NOT_FOUND, "no such resource: invalid site name"),
        (Method::POST, SITE, vec![b' '; 1024 * 1024 + 1], StatusCode::PAYLOAD_TOO_LARGE, "larger than"),
        (Method::PATCH, SITE, vec![], StatusCode::METHOD_NOT_ALLOWED, "method not allowed"),
        (Method::PATCH, "/admin/config/acme/sites/web/public.json", vec![], StatusCode::METHOD_NOT_ALLOWED, "method not allowed"),
    ];
    for (method, path, body, status, message) in cases {
        let answer = server
            .send(method.clone(), path, Some(&root), Some(body))
            .await;
        assert_eq!(answer.status, status, "{method} {path}: {:?}", answer.error);
        let error = answer.error.unwrap_or_default();
        assert!(
            error.contains(message),
            "{method} {path}: x-error {error:?} lacks {message:?}"
        );
        // The platform's form: an empty body, the message in `x-error`.
        assert_eq!(
            (answer.content_type, answer.body),
            (None, Value::Null),
            "{method} {path}"
        );
    }
    assert_eq!(
        as_sent(server.get(SITE, &root).await.body["content"].take()),
        site_body()["content"],
        "nothing was changed"
    );
}

#[tokio::test]
async fn names_too_long_for_the_store_are_refused_naming_the_field() {
    let (server, root) = with_site().await;
    let long = "a".repeat(251);
    let longest = "a".repeat(250);
    let cases: Vec<(Method, String, Option<Value>, StatusCode, &str)> = vec![
        (
            Method::PUT,
            format!("/admin/config/acme/sites/{long}.json"),
            Some(site_body()),
            StatusCode::BAD_REQUEST,
            "invalid site name: 251 characters",
        ),
        (
            Method::GET,
            format!("/admin/config/acme/sites/{long}.json"),
            None,
            StatusCode::NOT_FOUND,
            "no such resource: invalid site name",
        ),
        (
            Method::POST,
            format!("/admin/config/acme/sites/{long}/public.json"),
            Some(json!({"paths": {}})),
            StatusCode::NOT_FOUND,
            "no such resource: invalid site name",
        ),
        (
            Method::POST,
            format!("/admin/config/acme/sites/web/secrets/{long}.json"),
            Some(json!({"value": "v"})),
            StatusCode::BAD_REQUEST,
            "invalid secret name: 251 characters",
        ),
        (
            Method::GET,
            format!("/admin/config/{long}/sites.json"),
            None,
            StatusCode::NOT_FOUND,
            "no such resource: invalid org name",
        ),
        (
            Method::POST,
            format!("/admin/code/acme/web/{long}"),
            None,
            StatusCode::BAD_REQUEST,
            "invalid branch name",
        ),
        (
            Method::GET,
            format!("/admin/job/acme/web/main/code/{long}"),
            None,
            StatusCode::NOT_FOUND,
            "no job",
        ),
        (
            Method::POST,
            format!("/transform/config/acme/web/{long}"),
            Some(json!([{"path": "/", "endpoint": "https://api.example/x.json"}])),
            StatusCode::BAD_REQUEST,
            "invalid branch name",
        ),
        (
            Method::POST,
            "/admin/config/acme/sites/web/code.json".to_string(),
            Some(
                json!({"owner": "acme", "repo": "web", "source": {"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": "https://raw.git.acme.example/acme/web", "owner": "p1", "repo": "web", "secretId": long}}),
            ),
            StatusCode::BAD_REQUEST,
            "/code/source/secretId: `secretId` has 251 characters, more than the 250 allowed",
        ),
        (
            Method::POST,
            SITE.to_string(),
            Some(
                json!({"code": {"owner": "acme", "repo": "web", "source": {"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": "https://raw.git.acme.example/acme/web", "owner": long, "repo": "web", "secretId": "sync"}}}),
            ),
            StatusCode::BAD_REQUEST,
            "/code/source/owner: `owner` has 251 characters, more than the 250 allowed",
        ),
        // The longest name still fits.
        (
            Method::POST,
            format!("/admin/config/acme/sites/web/secrets/{longest}.json"),
            Some(json!({"value": "v"})),
            StatusCode::OK,
            "",
        ),
        (
            Method::PUT,
            format!("/admin/config/acme/sites/{longest}.json"),
            Some(site_body()),
            StatusCode::CREATED,
            "",
        ),
    ];
    for (method, path, body, status, message) in cases {
        let answer = server
            .send(
                method.clone(),
                &path,
                Some(&root),
                body.map(|b| b.to_string().into_bytes()),
            )
            .await;
        assert_eq!(answer.status, status, "{method} {path}: {:?}", answer.error);
        let error = answer.error.unwrap_or_default();
        assert!(error.contains(message), "{method} {path}: {error}");
    }
}

#[tokio::test]
async fn head_answers_as_get_without_a_body() {
    let (server, root) = with_site().await;
    server
        .post(
            "/admin/config/acme/sites/web/secrets/s.json",
            &root,
            &json!({"value": "v"}),
        )
        .await;
    let cases = [
        (SITE, Some(&root), StatusCode::OK),
        (
            "/admin/config/acme/sites/web/access.json",
            Some(&root),
            StatusCode::OK,
        ),
        (
            "/admin/config/acme/sites/web/secrets/s.json",
            Some(&root),
            StatusCode::OK,
        ),
        (
            "/admin/config/acme/sites/web/secrets.json",
            Some(&root),
            StatusCode::OK,
        ),
        ("/admin/config/acme/sites.json", Some(&root), StatusCode::OK),
        (
            "/admin/config/acme/sites/web/public.json",
            Some(&root),
            StatusCode::NOT_FOUND,
        ),
        (
            "/admin/config/acme/sites/nowhere.json",
            Some(&root),
            StatusCode::NOT_FOUND,
        ),
        (SITE, None, StatusCode::UNAUTHORIZED),
    ];
    for (path, token, status) in cases {
        let head = server
            .send(Method::HEAD, path, token.map(String::as_str), None)
            .await;
        assert_eq!(head.status, status, "HEAD {path}: {:?}", head.error);
        assert_eq!(head.body, Value::Null, "HEAD {path}: no body");
        let get = server
            .send(Method::GET, path, token.map(String::as_str), None)
            .await;
        assert_eq!(get.status, status, "GET {path}");
        assert_eq!(head.content_type, get.content_type, "HEAD {path}");
    }
}

#[tokio::test]
async fn the_token_and_role_matrix() {
    let (server, root) = with_site().await;
    let admin = server.token("web@acme.example");
    let tech = server.token("tech@techacct.example");
    let stranger = server.token("stranger@elsewhere.example");
    let expired = server.token_with("web@acme.example", "*", 0);
    let other_site = server.token_with("web@acme.example", "acme/blog", 3600);
    let forged = format!("{}x", &admin[..admin.len() - 1]);

    let no_token = server.send(Method::GET, SITE, None, None).await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
    for (name, token, expected) in [
        ("org admin", &root, StatusCode::OK),
        ("site admin", &admin, StatusCode::OK),
        ("technical account", &tech, StatusCode::OK),
        ("stranger", &stranger, StatusCode::FORBIDDEN),
        ("token for another site", &other_site, StatusCode::FORBIDDEN),
        ("expired token", &expired, StatusCode::UNAUTHORIZED),
        ("forged token", &forged, StatusCode::UNAUTHORIZED),
        (
            "garbage token",
            &"garbage".to_string(),
            StatusCode::UNAUTHORIZED,
        ),
    ] {
        assert_eq!(
            server.get(SITE, token).await.status,
            expected,
            "read as {name}"
        );
        let write = server
            .post(
                "/admin/config/acme/sites/web/public.json",
                token,
                &json!({"paths": {}}),
            )
            .await;
        assert_eq!(write.status, expected, "write as {name}");
    }
    // Creating a site needs an org administrator.
    let blog = "/admin/config/acme/sites/blog.json";
    assert_eq!(
        server.put(blog, &admin, &site_body()).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server.post(blog, &admin, &site_body()).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server.put(blog, &root, &site_body()).await.status,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn only_an_admin_changes_who_is_admin() {
    let (server, root) = with_site().await;
    let tech = server.token("tech@techacct.example");
    let admin = server.token("web@acme.example");
    let access = "/admin/config/acme/sites/web/access.json";
    let roles = |admins: &[&str], config_admins: &[&str]| json!({"admin": {"role": {"admin": admins, "config_admin": config_admins}, "requireAuth": "auto"}});
    let mut raised_site = site_body();
    raised_site["access"]["admin"]["role"]["admin"] =
        json!(["web@acme.example", "tech@techacct.example"]);
    let mut site_without_access = site_body();
    site_without_access
        .as_object_mut()
        .expect("object")
        .remove("access");
    // (what, caller, method, path, body, status, part of the error)
    type Case<'a> = (
        &'a str,
        &'a String,
        Method,
        &'a str,
        Option<Value>,
        StatusCode,
        &'a str,
    );
    let cases: Vec<Case<'_>> = vec![
        (
            "config_admin raises itself",
            &tech,
            Method::POST,
            access,
            Some(roles(
                &["web@acme.example", "tech@techacct.example"],
                &["tech@techacct.example"],
            )),
            StatusCode::FORBIDDEN,
            "/admin/role/admin: only an admin of acme/web",
        ),
        (
            "config_admin grants everyone",
            &tech,
            Method::POST,
            access,
            Some(roles(&["*"], &[])),
            StatusCode::FORBIDDEN,
            "/admin/role/admin",
        ),
        (
            "config_admin removes the admins",
            &tech,
            Method::POST,
            access,
            Some(roles(&[], &["tech@techacct.example"])),
            StatusCode::FORBIDDEN,
            "/admin/role/admin",
        ),
        (
            "config_admin deletes the access block",
            &tech,
            Method::DELETE,
            access,
            None,
            StatusCode::FORBIDDEN,
            "/admin/role/admin",
        ),
        (
            "config_admin raises itself through the site",
            &tech,
            Method::POST,
            SITE,
            Some(raised_site.clone()),
            StatusCode::FORBIDDEN,
            "/access/admin/role/admin",
        ),
        (
            "config_admin drops the site's access",
            &tech,
            Method::POST,
            SITE,
            Some(site_without_access),
            StatusCode::FORBIDDEN,
            "/access/admin/role/admin",
        ),
        // Other access changes, and the same admins in another case or order, are configuration;
        // whether the site requires authentication is not.
        (
            "config_admin changes config_admin",
            &tech,
            Method::POST,
            access,
            Some(roles(
                &["WEB@acme.example"],
                &["tech@techacct.example", "ci@techacct.example"],
            )),
            StatusCode::OK,
            "",
        ),
        (
            "config_admin opens the site",
            &tech,
            Method::POST,
            access,
            Some(
                json!({"admin": {"role": {"admin": ["web@acme.example"], "config_admin": ["tech@techacct.example", "ci@techacct.example"]}}}),
            ),
            StatusCode::FORBIDDEN,
            "/admin/requireAuth: only an admin of acme/web",
        ),
        (
            "config_admin posts the site unchanged",
            &tech,
            Method::POST,
            SITE,
            Some({
                let mut unchanged = site_body();
                unchanged["access"] = roles(
                    &["web@acme.example"],
                    &["tech@techacct.example", "ci@techacct.example"],
                );
                unchanged
            }),
            StatusCode::OK,
            "",
        ),
        (
            "site admin adds an admin",
            &admin,
            Method::POST,
            SITE,
            Some(raised_site),
            StatusCode::OK,
            "",
        ),
        (
            "org admin replaces the admins",
            &root,
            Method::POST,
            access,
            Some(roles(&["web@acme.example"], &["tech@techacct.example"])),
            StatusCode::OK,
            "",
        ),
    ];
    for (name, token, method, path, body, status, message) in cases {
        let before = server.get(SITE, &root).await.body["access"].clone();
        let answer = server
            .send(
                method,
                path,
                Some(token),
                body.map(|b| b.to_string().into_bytes()),
            )
            .await;
        assert_eq!(answer.status, status, "{name}: {:?}", answer.error);
        let error = answer.error.unwrap_or_default();
        assert!(error.contains(message), "{name}: {error}");
        if status == StatusCode::FORBIDDEN {
            assert_eq!(
                server.get(SITE, &root).await.body["access"],
                before,
                "{name}: nothing changed"
            );
        }
    }
    let roles_now = server.get(access, &root).await.body;
    assert_eq!(
        roles_now["admin"]["role"]["admin"],
        json!(["web@acme.example"])
    );
}

#[tokio::test]
async fn the_token_is_read_from_cookie_header_or_authorization() {
    let (server, _) = with_site().await;
    let admin = server.token("web@acme.example");
    let url = server.url(SITE);
    // (what, the request's credential headers, status)
    type Case<'a> = (&'a str, Vec<(&'a str, String)>, StatusCode);
    let cases: Vec<Case<'_>> = vec![
        (
            "cookie",
            vec![("cookie", format!("theme=dark; auth_token={admin}"))],
            StatusCode::OK,
        ),
        (
            "x-auth-token",
            vec![("x-auth-token", admin.clone())],
            StatusCode::OK,
        ),
        (
            "authorization token",
            vec![("authorization", format!("token {admin}"))],
            StatusCode::OK,
        ),
        (
            "authorization bearer",
            vec![("authorization", format!("Bearer {admin}"))],
            StatusCode::OK,
        ),
        (
            "authorization basic",
            vec![("authorization", format!("Basic {admin}"))],
            StatusCode::UNAUTHORIZED,
        ),
        (
            "stale cookie beside a valid header",
            vec![
                ("cookie", "auth_token=stale".into()),
                ("x-auth-token", admin.clone()),
            ],
            StatusCode::OK,
        ),
        (
            "garbage header beside a valid bearer",
            vec![
                ("x-auth-token", "garbage".into()),
                ("authorization", format!("Bearer {admin}")),
            ],
            StatusCode::OK,
        ),
        (
            "only invalid credentials",
            vec![
                ("cookie", "auth_token=stale".into()),
                ("x-auth-token", "garbage".into()),
            ],
            StatusCode::UNAUTHORIZED,
        ),
    ];
    for (name, headers, expected) in cases {
        let mut request = server.client.get(&url);
        for (header, value) in headers {
            request = request.header(header, value);
        }
        let response = request.send().await.expect("answered");
        assert_eq!(response.status(), expected, "{name}");
    }
}

#[tokio::test]
async fn role_addresses_compare_case_insensitively() {
    let (server, _) = with_site().await;
    // site_body() grants admin to web@acme.example and config_admin to tech@techacct.example.
    for subject in [
        "web@acme.example",
        "WEB@Acme.Example",
        "tech@techacct.example",
        "Tech@TECHACCT.example",
        "ROOT@acme.example",
    ] {
        let answer = server.get(SITE, &server.token(subject)).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{subject}: {:?}",
            answer.error
        );
    }
}

/// A form-encoded body.
fn form(fields: &[(&str, String)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields.iter().map(|(k, v)| (*k, v.as_str())))
        .finish()
}

/// The nonce of the sign-in form at `/admin/login`.
pub(crate) async fn sign_in_nonce(server: &TestServer) -> String {
    let page = server
        .client
        .get(server.url("/admin/login"))
        .send()
        .await
        .expect("answered");
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.expect("html");
    assert!(
        html.contains("method=\"post\"") && html.contains("name=\"email\""),
        "{html}"
    );
    let (_, rest) = html
        .split_once("name=\"nonce\" value=\"")
        .expect("a nonce in the form");
    rest.split('"').next().expect("nonce").to_string()
}

#[tokio::test]
async fn signing_in_needs_the_form_nonce_and_sets_a_working_cookie() {
    let (server, _) = with_site().await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let sign_in = |fields: Vec<(&'static str, String)>| {
        let request = client
            .post(server.url("/admin/profile"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form(&fields))
            .send();
        async move { request.await.expect("answered") }
    };
    let email = || ("email", "web@acme.example".to_string());

    // GET never mints, with or without an address.
    let visit = client
        .get(server.url("/admin/profile?email=web@acme.example"))
        .send()
        .await
        .expect("answered");
    assert_eq!(visit.status(), StatusCode::SEE_OTHER, "back to sign-in");
    assert!(visit.headers().get("set-cookie").is_none());

    let nonce = sign_in_nonce(&server).await;
    let cases = [
        (
            "no nonce",
            vec![email()],
            StatusCode::FORBIDDEN,
            "`nonce` is missing",
        ),
        (
            "made-up nonce",
            vec![email(), ("nonce", "made-up".into())],
            StatusCode::FORBIDDEN,
            "`nonce` is unknown",
        ),
        (
            "invalid address",
            vec![
                ("email", "nobody".into()),
                ("nonce", sign_in_nonce(&server).await),
            ],
            StatusCode::BAD_REQUEST,
            "`email` `nobody`",
        ),
    ];
    for (name, fields, status, message) in cases {
        let response = sign_in(fields).await;
        assert_eq!(response.status(), status, "{name}");
        assert!(response.headers().get("set-cookie").is_none(), "{name}");
        let error = crate::harness::answer(response)
            .await
            .error
            .unwrap_or_default();
        assert!(error.contains(message), "{name}: {error}");
    }

    let signed_in = sign_in(vec![email(), ("nonce", nonce.clone())]).await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    let cookie = signed_in
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    assert!(
        cookie.starts_with("auth_token=") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().expect("name=value").to_string();
    let read = client
        .get(server.url(SITE))
        .header("cookie", pair.clone())
        .send()
        .await
        .expect("answered");
    assert_eq!(read.status(), StatusCode::OK);
    let profile = client
        .get(server.url("/admin/profile"))
        .header("cookie", pair)
        .send()
        .await
        .expect("answered");
    assert_eq!(profile.status(), StatusCode::OK);
    assert!(profile.headers().get("set-cookie").is_none());
    assert!(
        profile
            .text()
            .await
            .expect("html")
            .contains("web@acme.example")
    );

    // A nonce signs in once.
    let replayed = sign_in(vec![email(), ("nonce", nonce)]).await;
    assert_eq!(replayed.status(), StatusCode::FORBIDDEN);
    assert!(replayed.headers().get("set-cookie").is_none());
}

#[tokio::test]
async fn only_loopback_and_localhost_host_names_are_answered() {
    let (server, root) = with_site().await;
    let port = server.server.addr.port();
    let cases = [
        (format!("127.0.0.1:{port}"), StatusCode::OK),
        (format!("localhost:{port}"), StatusCode::OK),
        ("localhost".to_string(), StatusCode::OK),
        (format!("[::1]:{port}"), StatusCode::OK),
        (
            format!("attacker.example:{port}"),
            StatusCode::MISDIRECTED_REQUEST,
        ),
        (
            "attacker.example".to_string(),
            StatusCode::MISDIRECTED_REQUEST,
        ),
        (
            "localhost.attacker.example".to_string(),
            StatusCode::MISDIRECTED_REQUEST,
        ),
        (
            "127.0.0.1.nip.io".to_string(),
            StatusCode::MISDIRECTED_REQUEST,
        ),
    ];
    for (host, status) in cases {
        // The DNS-rebinding shape: a page of another site, its name resolving to 127.0.0.1.
        for (path, token) in [
            ("/admin/login", None),
            ("/admin/config/acme/sites/web.json", Some(&root)),
        ] {
            let mut request = server.client.get(server.url(path)).header("host", &host);
            if let Some(token) = token {
                request = request.header("x-auth-token", token);
            }
            let answer = crate::harness::answer(request.send().await.expect("answered")).await;
            assert_eq!(answer.status, status, "{host} {path}: {:?}", answer.error);
            if status == StatusCode::MISDIRECTED_REQUEST {
                let error = answer.error.unwrap_or_default();
                assert!(
                    error.contains("is not served") && error.contains("--allowed-host"),
                    "{host}: {error}"
                );
            }
        }
    }
    let minted = server
        .client
        .post(server.url("/admin/profile"))
        .header("host", "attacker.example")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[
            ("email", "root@acme.example".into()),
            ("nonce", "x".into()),
        ]))
        .send()
        .await
        .expect("answered");
    assert_eq!(minted.status(), StatusCode::MISDIRECTED_REQUEST);
    assert!(minted.headers().get("set-cookie").is_none());
}

#[tokio::test]
async fn allowed_hosts_are_answered_too() {
    let server = TestServer::start_allowing(&["siteops.internal"]).await;
    for (host, status) in [
        ("siteops.internal:8080", StatusCode::OK),
        ("SITEOPS.internal", StatusCode::OK),
        ("127.0.0.1", StatusCode::OK),
        ("other.internal", StatusCode::MISDIRECTED_REQUEST),
    ] {
        let response = server
            .client
            .get(server.url("/admin/openapi.json"))
            .header("host", host)
            .send()
            .await
            .expect("answered");
        assert_eq!(response.status(), status, "{host}");
    }
}

#[tokio::test]
async fn unverified_webhooks_get_one_answer_whatever_the_site() {
    let (server, root) = with_site().await;
    // acme/web: a hosted repository without a webhook secret; acme/docs: code that cannot
    // be synced; acme/ext: an onboarded external repository with its secret; acme/nowhere:
    // no site at all.
    let byogit = json!({"code": {"owner": "acme", "repo": "ext", "source": {"type": "byogit", "url": "https://git.acme.example/acme/ext", "raw_url": "https://raw.git.acme.example/acme/ext", "owner": "p1", "repo": "ext", "secretId": "sync"}}});
    let docs = json!({"code": {"owner": "acme", "repo": "docs", "source": {"type": "gitea", "url": "https://git.acme.example/acme/docs"}}});
    for (path, body) in [
        ("/admin/config/acme/sites/ext.json", byogit),
        ("/admin/config/acme/sites/docs.json", docs),
        (
            "/admin/config/acme/sites/ext/secrets/sync.json",
            json!({"value": "the-secret"}),
        ),
    ] {
        let answer = server.post(path, &root, &body).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}: {:?}", answer.error);
    }
    let body = json!({"ref": "refs/heads/main"}).to_string();
    let wrong = siteops_server::codesync::signature::sign(b"a guess", body.as_bytes());
    let mut answers = Vec::new();
    for site in ["web", "docs", "ext", "nowhere"] {
        for signature in [None, Some(wrong.clone())] {
            let mut request = server
                .client
                .post(server.url(&format!("/admin/webhook/code/acme/{site}")))
                .body(body.clone());
            if let Some(signature) = &signature {
                request = request.header("x-hub-signature-256", signature);
            }
            let response = request.send().await.expect("answered");
            let status = response.status();
            let error = response
                .headers()
                .get("x-error")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let text = response.text().await.expect("body");
            answers.push((site, signature.is_some(), (status, error, text)));
        }
    }
    let expected = (
        StatusCode::UNAUTHORIZED,
        Some("missing or invalid x-hub-signature-256".to_string()),
        "missing or invalid x-hub-signature-256\n".to_string(),
    );
    for (site, signed, answer) in answers {
        assert_eq!(answer, expected, "acme/{site}, signed: {signed}");
    }
    // The right signature still starts a sync.
    let good = siteops_server::codesync::signature::sign(b"the-secret", body.as_bytes());
    let response = server
        .client
        .post(server.url("/admin/webhook/code/acme/ext"))
        .header("x-hub-signature-256", good)
        .body(body)
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn the_preview_host_publishes_the_public_configuration() {
    let (server, root) = with_site().await;
    let public = json!({"paths": {"mappings": ["/content/web/:/"], "includes": ["/content/web/"]}});
    server
        .post("/admin/config/acme/sites/web/public.json", &root, &public)
        .await;
    let fetch = |token: Option<String>| {
        let server = &server;
        async move {
            server
                .preview(
                    "main--web--acme.localhost",
                    "/config.json",
                    token.as_deref(),
                )
                .await
        }
    };
    let answer = fetch(None).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, json!({"public": public}));

    // requireAuth: auto makes the preview host ask for a token.
    server
        .post(
            "/admin/config/acme/sites/web/access.json",
            &root,
            &json!({"admin": {"role": {"admin": ["web@acme.example"]}, "requireAuth": "auto"}}),
        )
        .await;
    assert_eq!(fetch(None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        fetch(Some(server.token("web@acme.example"))).await.status,
        StatusCode::OK
    );

    // A mapping to /config.json publishes a configuration page instead.
    let mapped = json!({"paths": {"mappings": ["/content/web/configuration:/config.json"]}});
    server
        .post("/admin/config/acme/sites/web/public.json", &root, &mapped)
        .await;
    let answer = fetch(Some(root.clone())).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(
        answer
            .error
            .is_some_and(|e| e.contains("/content/web/configuration"))
    );

    let unknown = server
        .preview("main--nosite--acme.localhost", "/config.json", None)
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_site_that_requires_auth_serves_only_callers_with_a_role() {
    let (server, root) = with_site().await;
    let access = json!({"admin": {"role": {"admin": ["web@acme.example"], "config_admin": ["tech@techacct.example"]}, "requireAuth": "auto"}});
    let written = server
        .post("/admin/config/acme/sites/web/access.json", &root, &access)
        .await;
    assert_eq!(written.status, StatusCode::OK, "{:?}", written.error);
    let media = "/media_0123456789abcdef0123456789abcdef01234567.png";
    let stranger = server.token("stranger@elsewhere.example");
    let cases = [
        (
            "no token",
            None,
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "garbage",
            Some("garbage".to_string()),
            StatusCode::UNAUTHORIZED,
            StatusCode::UNAUTHORIZED,
        ),
        (
            "no role",
            Some(stranger.clone()),
            StatusCode::FORBIDDEN,
            StatusCode::FORBIDDEN,
        ),
        (
            "site admin",
            Some(server.token("web@acme.example")),
            StatusCode::OK,
            StatusCode::NOT_FOUND,
        ),
        (
            "config admin",
            Some(server.token("tech@techacct.example")),
            StatusCode::OK,
            StatusCode::NOT_FOUND,
        ),
        (
            "org admin",
            Some(root.clone()),
            StatusCode::OK,
            StatusCode::NOT_FOUND,
        ),
    ];
    for (name, token, config, image) in cases {
        let answer = server
            .preview(
                "main--web--acme.localhost",
                "/config.json",
                token.as_deref(),
            )
            .await;
        assert_eq!(
            answer.status, config,
            "{name}: /config.json {:?}",
            answer.error
        );
        let answer = server
            .preview("main--web--acme.localhost", media, token.as_deref())
            .await;
        assert_eq!(answer.status, image, "{name}: media {:?}", answer.error);
    }
    let refused = server
        .preview("main--web--acme.localhost", "/index.md", Some(&stranger))
        .await;
    assert!(
        refused
            .error
            .is_some_and(|e| e.contains("stranger@elsewhere.example has no role on acme/web")),
        "the 403 says why"
    );
}

#[tokio::test]
async fn everything_survives_a_restart() {
    let (server, root) = with_site().await;
    server
        .post(
            "/admin/config/acme/sites/web/secrets/s.json",
            &root,
            &json!({"value": "v"}),
        )
        .await;
    server
        .post(
            "/admin/config/acme/sites/web/public.json",
            &root,
            &json!({"paths": {"includes": ["/x/"]}}),
        )
        .await;
    let data = server.data.clone();
    // `server` keeps the data directory alive; only its HTTP server stops.
    server.server.stop().await.expect("stops");

    let restarted = TestServer::start_on(data).await;
    // A token from before the restart is still valid: the signing key is stored.
    assert_eq!(
        restarted.get(SITE, &root).await.body["code"],
        site_body()["code"]
    );
    assert_eq!(
        restarted
            .get("/admin/config/acme/sites/web/public.json", &root)
            .await
            .body["paths"]["includes"],
        json!(["/x/"])
    );
    assert_eq!(
        restarted
            .get("/admin/config/acme/sites/web/secrets/s.json", &root)
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_no_update() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    assert_eq!(
        server.put(SITE, &root, &json!({})).await.status,
        StatusCode::CREATED
    );
    let fields = [
        ("access", json!({"admin": {"role": {"admin": ["*"]}}})),
        (
            "code",
            json!({"owner": "acme", "repo": "web", "source": {"type": "github", "url": "https://github.com/acme/web"}}),
        ),
        (
            "content",
            json!({"source": {"url": "https://c.example.com", "type": "markup"}}),
        ),
    ];
    for round in 0..10 {
        // Start every round from a site without the fields.
        assert_eq!(
            server.post(SITE, &root, &json!({})).await.status,
            StatusCode::OK
        );
        let mut writes = tokio::task::JoinSet::new();
        for (name, body) in &fields {
            let request = server
                .client
                .post(server.url(&format!("/admin/config/acme/sites/web/{name}.json")))
                .header("x-auth-token", root.clone())
                .body(body.to_string());
            writes.spawn(async move { request.send().await.map(|r| r.status()) });
        }
        let statuses: Vec<_> = writes
            .join_all()
            .await
            .into_iter()
            .map(|r| r.expect("answered"))
            .collect();
        assert!(
            statuses.iter().all(|s| *s == StatusCode::OK),
            "round {round}: {statuses:?}"
        );
        let site = server.get(SITE, &root).await.body;
        for (name, body) in &fields {
            assert_eq!(
                &as_sent(site[*name].clone()),
                body,
                "round {round}: the {name} update was lost"
            );
        }
    }
}

#[tokio::test]
async fn an_external_repository_is_selectable_once_onboarded() {
    let server = TestServer::start().await;
    let root = server.token(ORG_ADMIN);
    let code = |secret: Option<&str>| {
        let mut source = json!({"type": "byogit", "url": "https://git.acme.example/acme/web", "raw_url": "https://raw.git.acme.example/acme/web", "owner": "p1", "repo": "web"});
        if let Some(secret) = secret {
            source["secretId"] = json!(secret);
        }
        json!({"owner": "acme", "repo": "web", "source": source})
    };
    let site = |name: &str| format!("/admin/config/acme/sites/{name}.json");
    // A later site cannot select a repository nobody onboarded.
    let early = server
        .put(&site("blog"), &root, &json!({"code": code(None)}))
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert!(early.error.is_some_and(|e| e.contains("not onboarded")));
    // The first site onboards it; it is ready once its sync secret exists.
    assert_eq!(
        server
            .put(&site("web"), &root, &json!({"code": code(Some("sync"))}))
            .await
            .status,
        StatusCode::CREATED
    );
    let pending = server
        .put(&site("blog"), &root, &json!({"code": code(None)}))
        .await;
    assert_eq!(pending.status, StatusCode::CONFLICT);
    assert!(pending.error.is_some_and(|e| e.contains("not ready")));
    server
        .post(
            "/admin/config/acme/sites/web/secrets/sync.json",
            &root,
            &json!({"value": "v"}),
        )
        .await;
    assert_eq!(
        server
            .put(&site("blog"), &root, &json!({"code": code(None)}))
            .await
            .status,
        StatusCode::CREATED
    );
    // A second site may not onboard it again.
    let again = server
        .put(&site("shop"), &root, &json!({"code": code(Some("sync"))}))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(
        again
            .error
            .is_some_and(|e| e.contains("onboarded by acme/web"))
    );
}

#[tokio::test]
async fn a_damaged_stored_site_answers_500_naming_the_document() {
    let (server, root) = with_site().await;
    let stored = server.data.join("config/acme/sites/web.json");
    let damaged = |answer: &crate::harness::Answer, what: &str| {
        assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR, "{what}");
        let error = answer.error.as_deref().unwrap_or_default();
        assert!(
            error.contains("the stored document `config/acme/sites/web.json` is damaged"),
            "{what}: {error}"
        );
        error.to_string()
    };

    // Valid JSON whose access block does not read back: never taken for "no access
    // rules", neither by the configuration routes nor by the preview host.
    let mut document: Value =
        serde_json::from_slice(&std::fs::read(&stored).expect("stored")).expect("JSON");
    document["access"] = json!({"admin": {"role": "everyone"}});
    std::fs::write(&stored, serde_json::to_vec(&document).expect("JSON")).expect("write");
    let error = damaged(&server.get(SITE, &root).await, "GET of the site");
    assert!(
        error.contains("`access.admin.role`: invalid type"),
        "{error}"
    );
    damaged(
        &server
            .preview("main--web--acme.localhost", "/config.json", None)
            .await,
        "the preview host",
    );

    // A code block that does not read back fails the code routes the same way.
    document["access"] = site_body()["access"].clone();
    document["code"] = json!({"owner": "acme"});
    std::fs::write(&stored, serde_json::to_vec(&document).expect("JSON")).expect("write");
    let sync = server
        .send(Method::POST, "/admin/code/acme/web/main", Some(&root), None)
        .await;
    let error = damaged(&sync, "a code sync");
    assert!(error.contains("`code`"), "{error}");

    // Bytes that are not JSON at all.
    std::fs::write(&stored, b"{\"code\": ").expect("write");
    damaged(&server.get(SITE, &root).await, "GET of a torn document");
    // Listing the org's sites for someone whose roles are in the documents says which one
    // is damaged instead of skipping it (an org administrator's listing reads none).
    damaged(
        &server
            .get(
                "/admin/config/acme/sites.json",
                &server.token("web@acme.example"),
            )
            .await,
        "the site listing",
    );
}

#[tokio::test]
async fn a_damaged_worker_configuration_answers_500_naming_it() {
    let (server, root) = with_site().await;
    let stored = server.data.join("transform/acme/web/main.json");
    std::fs::create_dir_all(stored.parent().expect("parent")).expect("dir");
    std::fs::write(&stored, br#"[{"path": 7}]"#).expect("write");
    let answer = server.get("/transform/config/acme/web/main", &root).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    let error = answer.error.unwrap_or_default();
    assert!(
        error.contains("`transform/acme/web/main.json` is damaged"),
        "never read as null: {error}"
    );
    let page = server
        .get("/transform/acme/web/main/products/1", &root)
        .await;
    assert_eq!(
        page.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{:?}",
        page.error
    );
}

/// Issue 27, finding 15: a client that sends a whole oversized body without waiting for
/// `100 Continue` (as Python's urllib does) reads 413, every time, on every route that
/// takes a body: the server reads and drops the rest instead of resetting the connection
/// under the client's feet.
#[tokio::test]
async fn an_oversized_body_sent_whole_gets_413_every_time() {
    use std::io::{Read, Write};
    let server = TestServer::start().await;
    let addr = server.server.addr;
    let answers = tokio::task::spawn_blocking(move || {
        let body = vec![b' '; 2 * 1024 * 1024];
        let routes = [
            ("PUT", SITE, "application/json"),
            ("POST", "/transform/config/acme/web/main", "application/json"),
            ("POST", "/admin/webhook/code/acme/web", "application/json"),
            (
                "POST",
                "/admin/profile",
                "application/x-www-form-urlencoded",
            ),
        ];
        let mut answers = Vec::new();
        for (method, path, content_type) in routes {
            for _ in 0..60 {
                let mut stream = std::net::TcpStream::connect(addr).expect("connect");
                stream
                    .set_read_timeout(Some(std::time::Duration::from_secs(10)))
                    .expect("read time-out");
                stream
                    .set_write_timeout(Some(std::time::Duration::from_secs(10)))
                    .expect("write time-out");
                let head = format!(
                    "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
                    body.len()
                );
                // Past the limit, in pieces a moment apart, as a client on a real network
                // sends: the server answers before the last piece is sent.
                let (first, rest) = body.split_at(1024 * 1024);
                let sent = stream
                    .write_all(head.as_bytes())
                    .and_then(|()| stream.write_all(first))
                    .and_then(|()| {
                        rest.chunks(64 * 1024).try_for_each(|piece| {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                            stream.write_all(piece)
                        })
                    });
                let mut status = [0u8; 12];
                let read = stream.read_exact(&mut status);
                answers.push(match (sent, read) {
                    (Ok(()), Ok(())) => String::from_utf8_lossy(&status).into_owned(),
                    (sent, read) => format!("{method} {path}: {sent:?} {read:?}"),
                });
            }
        }
        answers
    })
    .await
    .expect("the client ran");
    let wrong: Vec<&String> = answers.iter().filter(|a| *a != "HTTP/1.1 413").collect();
    assert_eq!(answers.len(), 240);
    assert!(
        wrong.is_empty(),
        "{} of 240: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// Issue 27: `/readyz` answers 503 when the store takes no write (a read-only data
/// directory answered 200), and 200 again once it does.
#[tokio::test]
async fn readyz_answers_503_while_the_store_takes_no_write() {
    let server = TestServer::start().await;
    let ready = || server.text("/readyz");
    assert_eq!(ready().await, (StatusCode::OK, "ready\n".to_string()));
    // A file where the probe's folder goes: every write there fails, whoever runs the
    // test (a read-only mode would not stop root).
    let _ = std::fs::remove_dir_all(server.data.join("health"));
    std::fs::write(server.data.join("health"), "in the way").expect("write");
    assert_eq!(
        ready().await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            "the store takes no write\n".to_string()
        )
    );
    std::fs::remove_file(server.data.join("health")).expect("remove");
    assert_eq!(ready().await, (StatusCode::OK, "ready\n".to_string()));
}

/// Issue 27: a change authenticated by the cookie from another port of `localhost` (a page
/// of another local server) is refused with 403 naming why; a JSON route refuses a
/// `text/plain` body with 415 (a form can send one, never JSON); a header token from any
/// origin, and the cookie from the server's own origin, still work.
#[tokio::test]
async fn cookie_changes_from_another_origin_and_non_json_bodies_are_refused() {
    let (server, root) = with_site().await;
    let public = server.url("/admin/config/acme/sites/web/public.json");
    let own = format!("http://localhost:{}", server.server.addr.port());
    let body = r#"{"paths": {"includes": ["/forged/"]}}"#;
    let send = |origin: &str, credential: (&str, String), content_type: &str| {
        server
            .client
            .post(&public)
            .header("host", format!("localhost:{}", server.server.addr.port()))
            .header("origin", origin)
            .header(credential.0, credential.1)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    let cookie = || ("cookie", format!("auth_token={root}"));
    let answer = send("http://localhost:8080", cookie(), "application/json")
        .await
        .expect("answered");
    assert_eq!(answer.status(), StatusCode::FORBIDDEN);
    let error = answer.headers()["x-error"]
        .to_str()
        .expect("text")
        .to_string();
    assert!(error.contains("origin `http://localhost:8080`"), "{error}");
    let answer = send("http://localhost:8080", cookie(), "text/plain")
        .await
        .expect("answered");
    assert_eq!(answer.status(), StatusCode::FORBIDDEN);
    let answer = send(&own, ("x-auth-token", root.clone()), "text/plain")
        .await
        .expect("answered");
    assert_eq!(answer.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let error = answer.headers()["x-error"]
        .to_str()
        .expect("text")
        .to_string();
    assert!(error.contains("`text/plain`"), "{error}");
    let worker = server
        .client
        .post(server.url("/transform/config/acme/web/main"))
        .header("x-auth-token", &root)
        .header("content-type", "text/plain")
        .body("[]")
        .send()
        .await
        .expect("answered");
    assert_eq!(worker.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        server
            .get("/admin/config/acme/sites/web/public.json", &root)
            .await
            .status,
        StatusCode::NOT_FOUND,
        "nothing was written"
    );
    for credential in [("x-auth-token", root.clone()), cookie()] {
        let origin = if credential.0 == "cookie" {
            own.as_str()
        } else {
            "http://localhost:8080"
        };
        let answer = send(origin, credential, "application/json")
            .await
            .expect("answered");
        assert!(
            answer.status().is_success(),
            "{:?}",
            answer.headers().get("x-error")
        );
    }
}
