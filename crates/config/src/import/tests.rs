use serde_json::{Value, json};

use super::*;
use crate::compile::{Owner, ResourceKind, Secrets, compile};
use crate::repo::RepoFiles;
use crate::validate::{Options, validate};

#[test]
fn env_names_are_upper_case_with_underscores() {
    assert_eq!(env_name(&["acme", "website", "sync"]), "ACME_WEBSITE_SYNC");
    assert_eq!(
        env_name(&["acme", "web-site", "git.sync"]),
        "ACME_WEB_SITE_GIT_SYNC"
    );
    assert_eq!(env_name(&["1org", "x"]), "_1ORG_X");
}

/// acme/website as the service answers it: stamped, with its public configuration,
/// access and secrets inside, a CDN credential answered.
fn website() -> SiteSnapshot {
    SiteSnapshot {
        document: json!({
            "version": 1,
            "name": "website",
            "created": "2026-01-05T09:00:00Z",
            "lastModified": "2026-01-06T09:00:00Z",
            "title": "Acme website",
            "extends": {"profile": "repoless"},
            "code": {
                "owner": "acme", "repo": "website",
                "source": {
                    "type": "byogit",
                    "url": "https://git.acme.example/acme/website",
                    "raw_url": "https://raw.git.acme.example/acme/website",
                    "owner": "p130360", "repo": "website", "secretId": "git-sync"
                }
            },
            "content": {
                "contentBusId": "0123456789abcdef0123456789abcdef01234567",
                "source": {
                    "url": "https://cms.acme.example/delivery/website?tenant=acme",
                    "type": "markup", "suffix": ".html"
                }
            },
            "cdn": {
                "prod": {
                    "type": "fastly", "host": "www.acme.example",
                    "serviceId": "SU1Z0isxPaozGVKXdv0eY", "authToken": "t0ken-value"
                },
                "preview": {"host": "main--website--page.acme.example"}
            },
            "headers": {"/**": [{"key": "x-frame-options", "value": "SAMEORIGIN"}]},
            "access": {
                "admin": {
                    "requireAuth": "auto",
                    "role": {"admin": ["web-team@acme.example"], "author": ["/groups/authors.json"]}
                }
            },
            "public": {"paths": {"includes": ["/content/website/"]}},
            "secrets": {
                "git-sync": {"id": "git-sync", "type": "key", "created": "2026-01-05T09:00:00Z"},
                "partner": {"id": "partner", "type": "hashed", "hash": "abc"}
            },
            "apiKeys": {
                "k": {"id": "k", "created": "2026-01-05T09:00:00Z",
                    "expiration": "2027-01-05T09:00:00Z", "roles": ["publish"],
                    "subject": "acme/website", "description": "ci-publish"},
                "k2": {"id": "k2", "created": "2026-01-05T09:00:00Z",
                    "expiration": "2027-01-05T09:00:00Z", "roles": ["publish"],
                    "subject": "acme/website", "description": "made by hand"}
            }
        }),
        public: None,
        workers: [(
            "main".to_string(),
            json!([{
                "path": "/products/", "regex": "/\\d+$/",
                "endpoint": "https://api.acme.example/products/{{id}}.json",
                "template": "/templates/product.html", "templateApiKey": "k3y-value"
            }, {
                "path": "/docs/", "endpoint": "https://docs.acme.example/{{id}}",
                "regex": "/[^/]+$/", "templateApiKey": "other-k3y"
            }]),
        )]
        .into(),
        secrets: Some(vec!["git-sync".into(), "partner".into()]),
        query: Some(json!({
            "version": 1,
            "indices": {"default": {
                "include": ["/**"], "target": "/query-index.json",
                "properties": {"title": {
                    "select": "head > meta[property=\"og:title\"]",
                    "value": "attribute(el, \"content\")"
                }}
            }}
        })),
        sitemap: Some(json!({
            "version": 1,
            "sitemaps": {"website": {
                "origin": "https://www.acme.example",
                "source": "/query-index.json", "destination": "/sitemap.xml"
            }}
        })),
    }
}

fn acme() -> OrgSnapshot {
    let blog = SiteSnapshot {
        document: json!({
            "version": 1,
            "code": {"owner": "acme", "repo": "website", "source": {
                "type": "byogit",
                "url": "https://git.acme.example/acme/website",
                "raw_url": "https://raw.git.acme.example/acme/website",
                "owner": "p130360", "repo": "website"
            }},
            "content": {"source": {"url": "https://cms.acme.example/delivery/blog", "type": "markup"}}
        }),
        ..SiteSnapshot::default()
    };
    OrgSnapshot {
        org: "acme".into(),
        document: Some(json!({
            "version": 1,
            "created": "2026-01-05T09:00:00Z",
            "title": "Acme",
            "groups": {"authors": {"members": [{"email": "ana@acme.example", "name": "Ana"}]}},
            "secrets": {
                "partner-preview": {"id": "partner-preview", "type": "key", "created": "x", "hash": "abc"},
                "made": {"id": "made", "type": "hashed", "hash": "def"}
            },
            "apiKeys": {"ci": {"id": "k-2026-ci", "subject": "ci@acme.example",
                "created": "2026-01-05T09:00:00Z", "expiration": "2027-01-05T09:00:00Z",
                "roles": ["publish"]}}
        })),
        profiles: [(
            "repoless".to_string(),
            json!({"created": "x", "sidekick": {"project": "Acme content sites"},
                   "robots": {"txt": "User-agent: *\nAllow: /\n"}}),
        )]
        .into(),
        sites: [
            ("website".to_string(), website()),
            ("blog".to_string(), blog),
        ]
        .into(),
    }
}

fn file<'a>(imported: &'a Imported, path: &str) -> &'a str {
    let found = imported.files.iter().find(|f| f.path == path);
    &found.unwrap_or_else(|| panic!("no {path}")).text
}

#[test]
fn a_site_becomes_its_files() {
    let imported = import(&acme()).unwrap();
    let paths: Vec<&str> = imported.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "sites/acme/blog/site.toml",
            "sites/acme/org.toml",
            "sites/acme/repoless.profile.toml",
            "sites/acme/website/access.toml",
            "sites/acme/website/public.toml",
            "sites/acme/website/query.toml",
            "sites/acme/website/secrets.toml",
            "sites/acme/website/site.toml",
            "sites/acme/website/sitemap.toml",
            "sites/acme/website/transform/main.toml",
        ]
    );
    let templates: Vec<&str> = imported.templates.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(templates, ["sites/acme/website/templates/product.html"]);
    for path in paths {
        let name = path.trim_start_matches("sites/acme/").replace('/', "__");
        insta::assert_snapshot!(name, file(&imported, path));
    }
    assert_eq!(
        imported.notes,
        [
            "config/acme.json: secret `made` is hashed (made on the service): not written; its value cannot be read back",
            "config/acme/sites/website.json: API key `k2` is not written: its description does not name it (letters, digits, `-`, `_`) or it has no roles",
        ]
    );
    // No secret value, no stamp.
    for f in &imported.files {
        for never in [
            "t0ken-value",
            "k3y-value",
            "contentBusId",
            "created = \"x\"",
            "abc",
            "lastModified",
        ] {
            assert!(!f.text.contains(never), "{}: {never}", f.path);
        }
    }
}

/// The files validate and compile to the bodies the service answered, less what it
/// stamps: what makes a plan of the import say "no changes".
#[test]
fn the_files_compile_to_the_documents_they_came_from() {
    let snapshot = acme();
    let imported = import(&snapshot).unwrap();
    let mut repo = RepoFiles::new();
    repo.insert("siteops.toml", settings_file());
    for f in &imported.files {
        repo.insert(f.path.clone(), f.text.clone());
    }
    // The templates come from the site's code, copied in by hand.
    for template in &imported.templates {
        repo.insert(template.path.clone(), "<main>{{title}}</main>".to_string());
    }
    let validation = validate(&repo, &Options::default());
    assert!(!validation.has_errors(), "{:#?}", validation.diagnostics);
    let lookup = |name: &str| Some(format!("value of {name}"));
    let compiled = compile(&validation.fleet, &Secrets::Lookup(&lookup)).unwrap();
    let body = |owner: Owner, kind: ResourceKind| {
        let found = compiled
            .resources
            .iter()
            .find(|r| r.owner == owner && r.kind == kind);
        found
            .unwrap_or_else(|| panic!("no {owner} {kind:?}"))
            .body
            .clone()
    };
    let site = |name: &str| {
        Owner::Site(crate::model::SiteId {
            org: "acme".into(),
            site: name.into(),
        })
    };
    let mut expected = snapshot.sites["website"].document.clone();
    let map = expected.as_object_mut().unwrap();
    for stamped in ["created", "lastModified", "public", "secrets", "apiKeys"] {
        map.remove(stamped);
    }
    map["content"]
        .as_object_mut()
        .unwrap()
        .remove("contentBusId");
    map["cdn"]["prod"]["authToken"] = json!("value of ACME_WEBSITE_CDN_AUTHTOKEN");
    assert_eq!(body(site("website"), ResourceKind::Site), expected);
    assert_eq!(
        body(site("website"), ResourceKind::Public),
        snapshot.sites["website"].document["public"]
    );
    assert_eq!(
        body(site("website"), ResourceKind::Query),
        snapshot.sites["website"].query.clone().unwrap()
    );
    assert_eq!(
        body(site("website"), ResourceKind::Secret("git-sync".into())),
        json!({"value": "value of ACME_WEBSITE_GIT_SYNC"})
    );
    assert_eq!(
        body(site("website"), ResourceKind::Secret("partner".into())),
        crate::compile::made_secret()
    );
    assert_eq!(
        body(site("website"), ResourceKind::ApiKey("ci-publish".into())),
        json!({"description": "ci-publish", "roles": ["publish"]})
    );
    let mut worker = snapshot.sites["website"].workers["main"].clone();
    worker[0]["templateApiKey"] = json!("value of ACME_WEBSITE_TEMPLATE_API_KEY");
    worker[1]["templateApiKey"] = json!("value of ACME_WEBSITE_TEMPLATE_API_KEY_2");
    assert_eq!(
        body(site("website"), ResourceKind::Worker("main".into())),
        worker
    );
    // Compilation names the site in its document, as the service does.
    let mut expected = snapshot.sites["blog"].document.clone();
    expected["name"] = json!("blog");
    assert_eq!(body(site("blog"), ResourceKind::Site), expected);
    let org = body(Owner::Org("acme".into()), ResourceKind::Org);
    assert_eq!(
        org["secrets"],
        json!({"partner-preview": {"id": "partner-preview", "type": "key",
            "value": "value of ACME_PARTNER_PREVIEW"}})
    );
    assert_eq!(
        org["apiKeys"],
        snapshot.document.as_ref().unwrap()["apiKeys"]
    );
    let profile = Owner::Profile {
        org: "acme".into(),
        name: "repoless".into(),
    };
    let mut expected = snapshot.profiles["repoless"].clone();
    expected.as_object_mut().unwrap().remove("created");
    expected["version"] = json!(1);
    assert_eq!(body(profile, ResourceKind::Profile), expected);
}

#[test]
fn bad_documents_are_named_with_their_field() {
    let mut snapshot = acme();
    let site = snapshot.sites.get_mut("blog").unwrap();
    site.document["content"]["source"]["type"] = json!(3);
    let error = import(&snapshot).unwrap_err();
    assert_eq!(
        (error.document.as_str(), error.field.as_str()),
        ("config/acme/sites/blog.json", "content")
    );

    let mut snapshot = acme();
    snapshot.sites.get_mut("blog").unwrap().document["surprise"] = json!(true);
    let error = import(&snapshot).unwrap_err();
    assert_eq!(
        error.to_string(),
        "config/acme/sites/blog.json: `surprise`: not a field of a site document that siteops writes"
    );

    let mut snapshot = acme();
    snapshot.document = Some(json!({"secrets": {"x": {"id": "x", "type": "odd"}}}));
    let error = import(&snapshot).unwrap_err();
    assert_eq!(
        (error.document.as_str(), error.field.as_str()),
        ("config/acme.json", "secrets.x.type")
    );

    let mut snapshot = acme();
    snapshot
        .profiles
        .insert("p".into(), Value::Array(Vec::new()));
    let error = import(&snapshot).unwrap_err();
    assert_eq!(
        error.to_string(),
        "config/acme/profiles/p.json: `(document)`: expected an object, found an array"
    );
}

/// Issue 43: a name that becomes a path is a name of its kind, wherever the snapshot
/// holds it; one that is not gives no file and names its listing, field and the name.
#[test]
fn names_that_are_not_names_become_no_path() {
    let hostile = [
        "../../../x",
        "a/b",
        "..",
        "%2e%2e",
        "",
        "UPPER",
        &"a".repeat(251),
    ];
    for bad in hostile {
        let mut profile = acme();
        profile.profiles.insert(bad.to_string(), json!({}));
        let mut site = acme();
        site.sites
            .insert(bad.to_string(), acme().sites["blog"].clone());
        let mut branch = acme();
        let workers = &mut branch.sites.get_mut("website").unwrap().workers;
        workers.insert(bad.to_string(), json!([]));
        let mut org = acme();
        org.org = bad.to_string();
        let cases = [
            (profile, "config/acme/profiles.json", "profiles", "profile"),
            (site, "config/acme/sites.json", "sites", "site"),
            (
                branch,
                "transform: config/acme/website",
                "branches",
                "branch",
            ),
            (org, &*crate::api_path::sites(bad), "(org)", "org"),
        ];
        for (snapshot, document, field, what) in cases {
            if what == "profile" && bad == "UPPER" {
                // The platform's profile names take upper case.
                assert!(import(&snapshot).is_ok());
                continue;
            }
            let error = import(&snapshot).expect_err(&format!("{what} {bad:?}"));
            assert_eq!(
                (error.document.as_str(), error.field.as_str()),
                (document, field),
                "{what} {bad:?}"
            );
            let shown: String = bad.chars().take(40).collect();
            let named = format!("invalid {what} name {shown:?}");
            assert!(error.message.starts_with(&named), "{error}");
        }
    }
}

/// A worker entry's template outside the site's directory is no file to copy there.
#[test]
fn templates_outside_the_site_are_not_listed() {
    let mut snapshot = acme();
    let workers = &mut snapshot.sites.get_mut("website").unwrap().workers;
    workers.get_mut("main").unwrap()[0]["template"] = json!("/../../../../etc/passwd");
    let imported = import(&snapshot).unwrap();
    assert_eq!(imported.templates, Vec::<TemplateFile>::new());
    let imported = import(&acme()).unwrap();
    assert_eq!(
        imported.templates,
        [TemplateFile {
            path: "sites/acme/website/templates/product.html".into(),
            site: "website".into(),
            branch: "main".into(),
            template: "/templates/product.html".into(),
        }]
    );
}

/// A site whose code is another's without `secretId` is written as sharing it; one with
/// an index of its own, or a code of its own, keeps its `[code]`.
#[test]
fn a_repoless_site_is_written_as_one() {
    let imported = import(&acme()).unwrap();
    let blog = file(&imported, "sites/acme/blog/site.toml");
    assert!(blog.contains("\nbase = \"website\"\n"), "{blog}");
    assert!(!blog.contains("[code"), "{blog}");
    assert!(file(&imported, "sites/acme/website/site.toml").contains("[code.source]"));

    let mut own = acme();
    let blog = own.sites.get_mut("blog").unwrap();
    blog.query = Some(json!({"version": 1, "indices": {}}));
    let imported = import(&own).unwrap();
    assert!(file(&imported, "sites/acme/blog/site.toml").contains("[code.source]"));

    let mut other = acme();
    other.sites.get_mut("blog").unwrap().document["code"]["repo"] = json!("blog");
    let imported = import(&other).unwrap();
    assert!(!file(&imported, "sites/acme/blog/site.toml").contains("base ="));

    // Without a secret, the site named as the repository is the base.
    let mut github = acme();
    for site in github.sites.values_mut() {
        site.document["code"] = json!({"owner": "acme", "repo": "website",
            "source": {"type": "github", "url": "https://github.com/acme/website"}});
        site.query = None;
        site.sitemap = None;
    }
    let imported = import(&github).unwrap();
    assert!(file(&imported, "sites/acme/blog/site.toml").contains("base = \"website\""));
    assert!(!file(&imported, "sites/acme/website/site.toml").contains("base ="));
}

/// Each `#:schema` line names a file the import writes.
#[test]
fn every_schema_line_names_a_schema_written_beside_it() {
    let imported = import(&acme()).unwrap();
    let mut files = imported.files.clone();
    files.push(ImportedFile {
        path: "siteops.toml".into(),
        text: settings_file(),
    });
    let schemas = schema_files(&files);
    let paths: Vec<&str> = schemas.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
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
            "schemas/files/transform.toml.schema.json",
        ]
    );
    let site = schemas
        .iter()
        .find(|f| f.path.ends_with("/site.toml.schema.json"));
    let generated = crate::compile::pretty(&crate::schema::SchemaKind::SiteFile.generate());
    assert_eq!(site.unwrap().text, generated);
    assert_eq!(
        resolve("sites/a/b/site.toml", "../../../x/y.json").as_deref(),
        Some("x/y.json")
    );
    assert_eq!(resolve("sites/site.toml", "../../../x.json"), None);
    assert_eq!(resolve("a.toml", "https://x/y.json"), None);
}
