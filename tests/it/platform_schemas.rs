//! Compiled bodies against the platform's own JSON schemas of August 2026
//! (`../shared/reference/platform/schemas-1.73.0/`, draft 2019-09): every body of the example
//! fleet, and of a generated fleet whose sites use every property siteops writes, one
//! site per CDN vendor, with an org document and a profile that use every property of
//! theirs. Each top-level part of those documents is also checked against the schema of
//! its own sub-path (`cdn.schema.json`, `headers.schema.json`, `access.schema.json`…).
//!
//! Two readings, said in the guide's fidelity page: the interface's `byogit` code source
//! is checked as the platform's `github` (the platform tells external code by its URL
//! host, its schema knows one type); and the fields the service stamps and the platform's
//! schema requires (`created`, `lastModified`, `content.contentBusId`) are added here,
//! as the service adds them when it stores the body.

use serde_json::{Value, json};
use siteops_config::compile::{Compiled, ResourceKind, Secrets, compile};
use siteops_config::repo::RepoFiles;

use crate::support::{repo, repo_root, validate_repo};

/// The platform's schema `name` (`site`, `code`…), compiled; `None` (skipped) without
/// `../shared`.
pub(crate) fn platform(name: &str) -> Option<jsonschema::Validator> {
    let path = siteops_testkit::shared(&format!(
        "reference/platform/schemas-1.73.0/{name}.schema.json"
    ))?;
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("readable"))
        .expect("the platform's schema is JSON");
    Some(jsonschema::draft201909::new(&schema).expect("the platform's schema compiles"))
}

/// A body as the service stores it: stamped, and `byogit` read as `github`.
fn as_stored(kind: &ResourceKind, body: &Value) -> Value {
    let mut body = body.clone();
    let code = match kind {
        ResourceKind::Org => {
            body["created"] = json!("2026-01-01T00:00:00Z");
            body["lastModified"] = json!("2026-01-01T00:00:00Z");
            if let Some(Value::Object(secrets)) = body.get_mut("secrets") {
                for entry in secrets.values_mut() {
                    entry["created"] = json!("2026-01-01T00:00:00Z");
                    entry["lastModified"] = json!("2026-01-01T00:00:00Z");
                }
            }
            None
        }
        ResourceKind::Site | ResourceKind::Profile => {
            body["created"] = json!("2026-01-01T00:00:00Z");
            body["lastModified"] = json!("2026-01-01T00:00:00Z");
            if body.get("content").is_some() {
                body["content"]["contentBusId"] = json!("stamped-by-the-service");
            }
            body.get_mut("code")
        }
        ResourceKind::Code => Some(&mut body),
        _ => None,
    };
    if let Some(source) = code.and_then(|code| code.get_mut("source"))
        && source["type"] == "byogit"
    {
        source["type"] = json!("github");
    }
    body
}

/// Every problem of every body that has a platform schema, as `path: error at pointer`.
fn problems(compiled: &Compiled) -> Option<Vec<String>> {
    let site = platform("site")?;
    let code = platform("code")?;
    let access = platform("access")?;
    let public = platform("public")?;
    let org = platform("org")?;
    let profile = platform("profile")?;
    let mut parts: std::collections::HashMap<&str, jsonschema::Validator> = Default::default();
    let mut found = Vec::new();
    for resource in &compiled.resources {
        let validator = match resource.kind {
            ResourceKind::Org => &org,
            ResourceKind::Profile => &profile,
            ResourceKind::Site => &site,
            ResourceKind::Code => &code,
            ResourceKind::Access => &access,
            ResourceKind::Public => &public,
            _ => continue,
        };
        let body = as_stored(&resource.kind, &resource.body);
        for error in validator.iter_errors(&body) {
            found.push(format!(
                "{}: {error} at {}",
                resource.path(),
                error.instance_path()
            ));
        }
        for (part, value) in body.as_object().into_iter().flatten() {
            let Some(name) = part_schema(&resource.kind, part) else {
                continue;
            };
            let validator = parts
                .entry(name)
                .or_insert_with(|| platform(name).expect("the part's schema"));
            for error in validator.iter_errors(value) {
                found.push(format!(
                    "{} ({name}.schema.json): {error} at {}",
                    resource.path(),
                    error.instance_path()
                ));
            }
        }
    }
    Some(found)
}

/// The platform's own schema of a top-level part of a document, which it also serves as
/// a sub-path (`cdn`, `headers`, `access`…): each part is checked against it too.
fn part_schema(kind: &ResourceKind, part: &str) -> Option<&'static str> {
    Some(match (kind, part) {
        (ResourceKind::Org, "access") => "org-access",
        (ResourceKind::Org | ResourceKind::Site | ResourceKind::Profile, _) => match part {
            "access" => "access",
            "apiKeys" => "apikeys",
            "cdn" => "cdn",
            "code" => "code",
            "content" => "content",
            "events" => "events",
            "features" => "features",
            "folders" => "folders",
            "groups" => "groups",
            "headers" => "headers",
            "limits" => "limits",
            "metadata" => "metadata",
            "public" => "public",
            "robots" => "robots",
            "secrets" => "secrets",
            "sidekick" => "sidekick",
            "tokens" => "tokens",
            "users" => "users",
            _ => return None,
        },
        _ => return None,
    })
}

fn compiled(repo: &RepoFiles) -> Compiled {
    let validation = validate_repo(repo);
    assert!(!validation.has_errors(), "{:#?}", validation.diagnostics);
    let lookup = |name: &str| Some(format!("value-of-{name}"));
    compile(&validation.fleet, &Secrets::Lookup(&lookup)).expect("compiles")
}

#[test]
fn the_example_fleet_compiles_to_bodies_the_platform_takes() {
    let compiled = compiled(&RepoFiles::load(&repo_root()).expect("repository loads"));
    let Some(problems) = problems(&compiled) else {
        return;
    };
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Each vendor's `[cdn.prod]` block, credentials by environment variable.
const VENDORS: [(&str, &str); 5] = [
    (
        "fastly",
        r#"serviceId = "svc"
authToken = { env = "FASTLY_TOKEN" }"#,
    ),
    (
        "cloudflare",
        r#"plan = "enterprise"
zoneId = "zone"
apiToken = { env = "CF_TOKEN" }"#,
    ),
    (
        "akamai",
        r#"endpoint = "akab.example"
clientSecret = { env = "AK_SECRET" }
clientToken = { env = "AK_CLIENT" }
accessToken = { env = "AK_ACCESS" }"#,
    ),
    ("managed", r#"envId = "p1-e2""#),
    (
        "cloudfront",
        r#"distributionId = "dist"
accessKeyId = "AKIA"
secretAccessKey = { env = "CF_SECRET" }
tagInvalidationEnabled = true"#,
    ),
];

/// A site that sets every property siteops writes, with `vendor`'s CDN.
fn full_site(vendor: &str, settings: &str) -> String {
    format!(
        r#"title = "Site on {vendor}"
description = "Every property"
extends = {{ profile = "shared" }}

[code]
owner = "acme"
repo = "web-{vendor}"
title = "The code"

[code.source]
type = "byogit"
url = "https://git.acme.example/acme/web-{vendor}"
raw_url = "https://raw.git.acme.example/acme/web-{vendor}"
owner = "p1"
repo = "web-{vendor}"
secretId = "git-sync"

[content]
description = "The content"

[content.source]
url = "https://content.acme.example/web"
type = "markup"
suffix = ".html"

[content.overlay]
url = "https://overlay.acme.example/web"
type = "markup"

[folders]
"/products/" = "/products/default"

[[headers."/**"]]
key = "x-frame-options"
value = "SAMEORIGIN"

[cdn.prod]
type = "{vendor}"
host = "www.{vendor}.acme.example"
route = ["/"]
{settings}

[cdn.live]
host = "main--web--live.acme.example"

[cdn.preview]
host = "main--web--page.acme.example"

[cdn.review]
host = "acme.reviews"

[groups.editors]
members = [{{ email = "ed@acme.example", name = "Ed" }}]

[sidekick]
project = "Web"
previewHost = "preview.acme.example"
trustedHosts = ["tools.acme.example"]
wordSaveDelay = 2000
specialViews = [{{ id = "json", path = "/**.json", viewer = "/tools/json.html" }}]

[[sidekick.plugins]]
id = "tagger"
title = "Tagger"
url = "https://tools.acme.example/tagger"
isPalette = true
environments = ["edit", "preview"]
titleI18n = {{ de = "Tagger" }}

[metadata]
source = ["/metadata.json"]

[robots]
txt = "User-agent: *\nDisallow: /drafts/"

[events.github]
target = "acme/events"

[features.new-nav]
enabled = true

[limits.preview]
description = "Previews per minute"
max = 100

[editor.universal-editor]
enabled = true
extensions = {{ assets = "https://assets.acme.example" }}
"#
    )
}

const FULL_ACCESS: &str = r#"[admin]
requireAuth = true
defaultRole = ["basic_author"]
apiKeyId = ["key-1"]

[admin.role]
admin = ["web@acme.example"]
author = ["*@acme.example", "editors"]
publish = ["ops@acme.example"]
config_admin = ["tech@techacct.acme.example"]

[site]
allow = ["*@acme.example"]
secretId = ["reader"]

[preview]
allow = ["editors"]

[live]
apiKeyId = ["key-1"]
"#;

const ORG: &str = r#"title = "Acme"
description = "Every property of the org"
registry = "github"
users = [{ id = "u-1", email = "ops@acme.example", name = "Ops", roles = ["admin"] }]

[access.admin]
apiKeyId = ["key-1"]

[groups.ops]
members = [{ email = "ops@acme.example" }]

[secrets.reader]
env = "ACME_READER"

[apiKeys.ci]
id = "key-1"
subject = "ci@acme.example"
created = "2026-01-01T00:00:00Z"
expiration = "2027-01-01T00:00:00Z"
roles = ["publish"]

[editor.universal-editor]
canvas = "https://canvas.acme.example"
"#;

/// A profile that sets every property of the platform's profile document that siteops
/// writes: a site's (without `extends`), its access and public blocks in the document.
fn full_profile() -> String {
    let (vendor, settings) = VENDORS[0];
    let site = full_site(vendor, settings).replace("extends = { profile = \"shared\" }\n", "");
    let access = format!("\n{FULL_ACCESS}").replace("\n[", "\n[access.");
    format!("{site}{access}\n[public.paths]\nmappings = [\"/content/web/:/\"]\n")
}

#[test]
fn a_fleet_using_every_property_compiles_to_bodies_the_platform_takes() {
    let sites: Vec<(String, String)> = VENDORS
        .iter()
        .map(|(vendor, settings)| {
            (
                format!("sites/acme/on-{vendor}"),
                full_site(vendor, settings),
            )
        })
        .collect();
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("sites/acme/org.toml".into(), ORG.into()),
        (
            "sites/acme/shared.profile.toml".into(),
            full_profile().into(),
        ),
    ];
    for (dir, site) in &sites {
        files.push((format!("{dir}/site.toml"), site.clone().into_bytes()));
        files.push((format!("{dir}/access.toml"), FULL_ACCESS.into()));
        files.push((
            format!("{dir}/secrets.toml"),
            b"[git-sync]\nenv = \"GIT_SYNC\"\n".to_vec(),
        ));
        files.push((
            format!("{dir}/public.toml"),
            b"[paths]\nmappings = [\"/content/web/:/\"]\nincludes = [\"/content/web/\"]\n".to_vec(),
        ));
    }
    let listed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_slice()))
        .collect();
    let compiled = compiled(&repo(&listed));
    let site = compiled
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::Site && r.site().is_some_and(|s| s.site == "on-fastly"))
        .expect("the fastly site");
    // Every property of the platform's site document but those the service keeps
    // (created, lastModified, apiKeys, secrets, tokens) and `public` (its own resource).
    let written: Vec<&str> = site
        .body
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        written,
        [
            "access",
            "cdn",
            "code",
            "content",
            "description",
            "editor",
            "events",
            "extends",
            "features",
            "folders",
            "groups",
            "headers",
            "limits",
            "metadata",
            "name",
            "robots",
            "sidekick",
            "title",
            "version"
        ]
    );
    assert_eq!(
        site.body["cdn"]["prod"]["authToken"],
        "value-of-FASTLY_TOKEN"
    );
    assert!(site.is_sensitive());
    // Every property of the platform's profile and org documents but those the service
    // keeps (created, lastModified; tokens, which the platform deprecates).
    let keys = |kind: ResourceKind| -> Vec<String> {
        let resource = compiled.resources.iter().find(|r| r.kind == kind);
        let body = resource
            .expect("compiled")
            .body
            .as_object()
            .expect("an object");
        body.keys().cloned().collect()
    };
    assert_eq!(
        keys(ResourceKind::Profile),
        [
            "access",
            "cdn",
            "code",
            "content",
            "description",
            "editor",
            "events",
            "features",
            "folders",
            "groups",
            "headers",
            "limits",
            "metadata",
            "public",
            "robots",
            "sidekick",
            "title",
            "version"
        ]
    );
    assert_eq!(
        keys(ResourceKind::Org),
        [
            "access",
            "apiKeys",
            "description",
            "editor",
            "groups",
            "registry",
            "secrets",
            "title",
            "users",
            "version"
        ]
    );
    let Some(problems) = problems(&compiled) else {
        return;
    };
    assert!(problems.is_empty(), "{problems:#?}");
}
