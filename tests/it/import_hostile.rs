//! Issue 43, finding 9: `siteops import` against a hostile service, one started here on
//! loopback that answers its listings with names that are no names (`../../../X`, `a/b`,
//! `..`, `%2e%2e`, empty, upper case, too long). Each name becomes a file path and a
//! request URL, so the import refuses it before either: nothing is written (not under the
//! root, not beside it), no request leaves the org's prefix (which is where the token
//! goes), and the error names the listing and the name.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::plan_apply::run_siteops;

/// Which listing holds the hostile name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listing {
    Profiles,
    Sites,
    Branches,
}

/// What the hostile service answers: every listing names `good` names, and `listing` also
/// `bad`. It records the path of every request it gets, as it got it.
#[derive(Clone)]
struct Hostile {
    listing: Option<(Listing, String)>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Hostile {
    /// The names `of` lists: `good`, and the bad name when this is its listing.
    fn names(&self, of: Listing, good: &str) -> Vec<String> {
        let bad = (self.listing.iter())
            .filter(|(listing, _)| *listing == of)
            .map(|(_, bad)| bad.clone());
        std::iter::once(good.to_string()).chain(bad).collect()
    }

    /// `{"<array>": [{"name": …}]}`, as the admin's listings are.
    fn listing(&self, of: Listing, array: &str, good: &str) -> Value {
        let names = self.names(of, good);
        let items: Vec<Value> = names.iter().map(|name| json!({"name": name})).collect();
        json!({ array: items })
    }
}

/// A site document the import writes as files (and a profile takes as well).
fn document() -> Value {
    json!({
        "version": 1,
        "code": {"owner": "acme", "repo": "website", "source": {
            "type": "byogit",
            "url": "https://git.acme.example/acme/website",
            "raw_url": "https://raw.git.acme.example/acme/website",
            "owner": "acme", "repo": "website"
        }},
        "content": {"source": {"url": "https://cms.acme.example/delivery", "type": "markup"}}
    })
}

/// Answers as a service would to whatever path it is asked, so that an import which
/// follows a bad name reads a document there and writes it.
async fn answer(State(hostile): State<Hostile>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    hostile
        .seen
        .lock()
        .expect("not poisoned")
        .push(path.clone());
    let json = |value: Value| axum::Json(value).into_response();
    match path.as_str() {
        "/admin/config/acme/profiles.json" => {
            json(hostile.listing(Listing::Profiles, "profiles", "Shared_2"))
        }
        "/admin/config/acme/sites.json" => json(hostile.listing(Listing::Sites, "sites", "web")),
        // The worker's listing is of names alone.
        "/transform/config/acme/web" => {
            json(json!({"branches": hostile.names(Listing::Branches, "main")}))
        }
        "/admin/config/acme.json" => StatusCode::NOT_FOUND.into_response(),
        other if other.ends_with(".yaml") || other.ends_with("/secrets.json") => {
            StatusCode::NOT_FOUND.into_response()
        }
        other if other.ends_with("/public.json") => json(json!({})),
        other if other.ends_with(".json") => json(document()),
        // A branch's worker entries.
        _ => json(json!([{"path": "/", "endpoint": "https://api.acme.example/{{id}}"}])),
    }
}

/// The hostile service on loopback: its address and the paths it got.
async fn start(listing: Option<(Listing, String)>) -> (String, Arc<Mutex<Vec<String>>>) {
    let hostile = Hostile {
        listing,
        seen: Arc::default(),
    };
    let seen = hostile.seen.clone();
    let app = Router::new().fallback(answer).with_state(hostile);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move { axum::serve(listener, app).await });
    (address, seen)
}

/// `siteops import` of org acme from the service at `address` into `root`.
async fn import(address: &str, root: &Path) -> crate::plan_apply::Run {
    import_org(address, root, "acme").await
}

/// `siteops import --org <org>` from the service at `address` into `root`.
async fn import_org(address: &str, root: &Path, org: &str) -> crate::plan_apply::Run {
    let args = [
        "import",
        "--root",
        &root.display().to_string(),
        "--admin",
        &format!("{address}/admin"),
        "--api-family",
        "older",
        "--transform-url",
        &format!("{address}/transform"),
        "--org",
        org,
    ];
    let args = args.iter().map(|arg| arg.to_string()).collect();
    run_siteops(args, &[("SITEOPS_ADMIN_TOKEN", "token-of-acme")]).await
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("under the directory");
                found.push(relative.display().to_string());
            }
        }
    }
    found.sort();
    found
}

/// Whether a request path stays within the org's: its document, or under its prefix on
/// either service.
fn within_org(path: &str) -> bool {
    path == "/admin/config/acme.json"
        || path.starts_with("/admin/config/acme/")
        || path.starts_with("/transform/config/acme/")
}

/// The paths an import asks the service for when every name is good: a refused import
/// asks for some of these, and for nothing else.
async fn good_requests() -> BTreeSet<String> {
    let (address, seen) = start(None).await;
    let dir = tempfile::tempdir().expect("temp dir");
    import(&address, &dir.path().join("root")).await.expect(0);
    seen.lock().expect("not poisoned").iter().cloned().collect()
}

/// The service as a hostile one answers, with good names only: the import writes under
/// the root and asks within the org. The cases below differ from it by one name.
#[tokio::test]
async fn good_names_import_under_the_root() {
    let (address, seen) = start(None).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("root");
    let run = import(&address, &root).await.expect(0);
    assert_eq!(
        files_under(dir.path()),
        [
            "root/schemas/files/profile.toml.schema.json",
            "root/schemas/files/public.toml.schema.json",
            "root/schemas/files/site.toml.schema.json",
            "root/schemas/files/siteops.toml.schema.json",
            "root/schemas/files/transform.toml.schema.json",
            "root/siteops.toml",
            "root/sites/acme/Shared_2.profile.toml",
            "root/sites/acme/web/public.toml",
            "root/sites/acme/web/site.toml",
            "root/sites/acme/web/transform/main.toml",
        ],
        "{}",
        run.stdout
    );
    let seen = seen.lock().expect("not poisoned");
    assert!(seen.iter().all(|path| within_org(path)), "{seen:?}");
}

#[tokio::test]
async fn names_that_are_no_names_are_refused_before_any_path_or_request() {
    let long = "a".repeat(300);
    // `../` enough times to leave the root from where each listing's name is joined:
    // `sites/acme/<profile>.profile.toml`, `sites/acme/<site>/…`,
    // `sites/acme/web/transform/<branch>.toml`.
    let cases: Vec<(Listing, &str)> = [
        (Listing::Profiles, "../../../X"),
        (Listing::Sites, "../../../X"),
        (Listing::Branches, "../../../../../X"),
    ]
    .into_iter()
    .chain(
        [Listing::Profiles, Listing::Sites, Listing::Branches]
            .into_iter()
            .flat_map(|listing| {
                let names = ["a/b", "..", "%2e%2e", "", "UPPER", &long];
                // The platform's profile names take upper case.
                let names = names
                    .into_iter()
                    .filter(move |name| !(listing == Listing::Profiles && *name == "UPPER"));
                names.map(move |name| (listing, name))
            }),
    )
    .collect();
    let good = good_requests().await;
    let mut failed = Vec::new();
    for (listing, bad) in cases {
        let problems = refusal_problems(listing, bad, &good).await;
        if !problems.is_empty() {
            failed.push(format!("{listing:?} {bad:?}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// What went otherwise than a refusal when `listing` names `bad`: each problem a line.
async fn refusal_problems(listing: Listing, bad: &str, good: &BTreeSet<String>) -> Vec<String> {
    let (address, seen) = start(Some((listing, bad.to_string()))).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("root");
    let run = import(&address, &root).await;
    let seen = seen.lock().expect("not poisoned").clone();
    let mut problems = Vec::new();
    if run.code != Some(1) {
        problems.push(format!("exit code {:?}, not 1", run.code));
    }
    // Nothing written, beside the root or in it.
    let written = files_under(dir.path());
    let (inside, outside): (Vec<&String>, Vec<&String>) =
        written.iter().partition(|path| path.starts_with("root/"));
    if !outside.is_empty() {
        problems.push(format!("wrote outside the root: {outside:?}"));
    }
    if !inside.is_empty() {
        problems.push(format!("wrote under the root: {inside:?}"));
    }
    // No request outside the org (the token goes with each), none for the bad name.
    let escaped: Vec<&String> = seen.iter().filter(|path| !within_org(path)).collect();
    if !escaped.is_empty() {
        problems.push(format!("asked outside the org: {escaped:?}"));
    }
    let followed: Vec<&String> = seen.iter().filter(|path| !good.contains(*path)).collect();
    if !followed.is_empty() {
        problems.push(format!("asked for what no good name gives: {followed:?}"));
    }
    let (url, what) = match listing {
        Listing::Profiles => ("/admin/config/acme/profiles.json", "profile"),
        Listing::Sites => ("/admin/config/acme/sites.json", "site"),
        Listing::Branches => ("/transform/config/acme/web", "branch"),
    };
    // The error names the listing, by the URL asked, and the name, quoted.
    let shown: String = bad.chars().take(40).collect();
    let expected = [
        format!("{address}{url} names what is no {what} name"),
        format!("invalid {what} name {shown:?}"),
    ];
    for expected in expected {
        if !run.stderr.contains(&expected) {
            problems.push(format!("stderr lacks `{expected}`: {}", run.stderr.trim()));
        }
    }
    problems
}

/// The org is the first segment of every path and URL too: one that is no org name is
/// refused before any request.
#[tokio::test]
async fn an_org_that_is_no_org_name_asks_nothing() {
    let (address, seen) = start(None).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let run = import_org(&address, &dir.path().join("root"), "../acme")
        .await
        .expect(1);
    assert!(
        run.stderr.contains("--org: invalid org name \"../acme\""),
        "{}",
        run.stderr
    );
    assert_eq!(*seen.lock().expect("not poisoned"), Vec::<String>::new());
    assert_eq!(files_under(dir.path()), Vec::<String>::new());
}
