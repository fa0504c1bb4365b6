//! The checked-in schemas are the generated ones, and compiled bodies satisfy them.

use siteops_config::compile::{ResourceKind, Secrets, compile, pretty};
use siteops_config::repo::RepoFiles;
use siteops_config::schema::SchemaKind;

use crate::support::{read, repo_root, validate_repo};

#[test]
fn checked_in_schemas_are_up_to_date() {
    let mut stale = Vec::new();
    for (file, document) in siteops::published::documents() {
        let path = repo_root().join("schemas").join(file);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != pretty(&document) {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "stale schemas {stale:?}: run `cargo xtask schema`"
    );
}

#[test]
fn every_compiled_body_satisfies_its_api_schema() {
    let validation = validate_repo(&RepoFiles::load(&repo_root()).expect("repository loads"));
    let compiled = compile(&validation.fleet, &Secrets::Redacted).expect("compiles");
    for resource in &compiled.resources {
        let kind = match resource.kind {
            ResourceKind::Org => SchemaKind::ApiOrg,
            ResourceKind::Profile => SchemaKind::ApiProfile,
            ResourceKind::Site => SchemaKind::ApiSite,
            ResourceKind::Public => SchemaKind::ApiPublic,
            ResourceKind::Access => SchemaKind::ApiAccess,
            ResourceKind::Code => SchemaKind::ApiCode,
            // What the service makes is asked for, not sent: no body of the platform's.
            _ if resource.is_made() => continue,
            ResourceKind::Secret(_) => SchemaKind::ApiSecret,
            ResourceKind::ApiKey(_) => continue,
            ResourceKind::Worker(_) => SchemaKind::ApiWorkerConfig,
            // The files are the bodies as is: the compiled YAML parses to their shape.
            ResourceKind::Query => SchemaKind::QueryFile,
            ResourceKind::Sitemap => SchemaKind::SitemapFile,
        };
        let problems = kind.check(&resource.body);
        assert!(problems.is_empty(), "{}: {problems:?}", resource.path());
    }
}

#[test]
fn a_schema_error_in_a_request_body_names_the_field() {
    let body = serde_json::json!({"source": {"url": "https://x.example", "type": "markup", "suffx": ".html"}});
    let problems = SchemaKind::ApiContent.check(&body);
    let lines: Vec<String> = problems.iter().map(|d| d.headline()).collect();
    assert_eq!(lines, ["/source/suffx: unknown key `suffx` in source"]);
}

#[test]
fn example_files_declare_their_schema_for_editors() {
    let site = read(&repo_root().join("sites/acme/website/site.toml"));
    assert!(site.starts_with("#:schema ../../../schemas/files/site.toml.schema.json"));
}

/// Taplo, the TOML tool editors use, checks the example files against the schemas their
/// `#:schema` lines name, and flags a value outside a closed set: a content source of type
/// `markdown`, a `requireAuth` of `always`, a role that does not exist.
#[test]
fn taplo_checks_files_against_the_schemas() {
    let taplo = std::process::Command::new("taplo")
        .arg("--version")
        .output();
    let installed = taplo.is_ok_and(|o| o.status.success()).then_some(());
    if siteops_testkit::or_skip(installed, "taplo (pip install taplo; .ci/run installs it)")
        .is_none()
    {
        return;
    }
    let lint = |dir: &std::path::Path, files: &[&str]| {
        std::process::Command::new("taplo")
            .arg("lint")
            .args(files)
            .current_dir(dir)
            .env("RUST_LOG", "error")
            .output()
            .expect("taplo runs")
    };
    let root = repo_root();
    let examples = lint(
        &root,
        &[
            "sites/*/*.toml",
            "sites/*/*/*.toml",
            "sites/*/*/transform/*.toml",
        ],
    );
    assert!(
        examples.status.success(),
        "{}",
        String::from_utf8_lossy(&examples.stderr)
    );

    // An example file with one value changed, its schema named by absolute path.
    let scratch = tempfile::tempdir().unwrap();
    let flag = |example: &str, from: &str, to: &str, message: &str| {
        let text = read(&root.join("sites/acme/website").join(example));
        assert!(text.contains(from), "{example} has no {from}");
        let text = text
            .replace(
                "#:schema ../../../schemas",
                &format!("#:schema {}/schemas", root.display()),
            )
            .replacen(from, to, 1);
        std::fs::write(scratch.path().join(example), text).unwrap();
        let flagged = lint(scratch.path(), &[example]);
        let report = String::from_utf8_lossy(&flagged.stderr);
        assert!(!flagged.status.success(), "{example}: {report}");
        assert!(report.contains(message), "{example}: {report}");
    };
    flag(
        "site.toml",
        "type = \"markup\"",
        "type = \"markdown\"",
        r#""markdown" is not one of ["markup","onedrive","google"]"#,
    );
    flag(
        "access.toml",
        "requireAuth = \"auto\"",
        "requireAuth = \"always\"",
        r#""always" is not one of [true,false,"auto"]"#,
    );
    // Roles are an open map, as on the platform, of names matching `^[a-z-_]+$`.
    flag(
        "access.toml",
        "config_admin = ",
        "Config-Admin = ",
        "Additional properties are not allowed ('Config-Admin' was unexpected)",
    );
}

/// One rule the schemas state: the schema, the field the validator names, a body that
/// breaks the rule and one that meets it, and the code of the semantic rule that checks
/// the same (`None`: the schema's alone, said by `SchemaKind::check`).
struct Stated {
    kind: SchemaKind,
    field: &'static str,
    breaks: serde_json::Value,
    meets: serde_json::Value,
    rule: Option<&'static str>,
}

/// Every rule moved into the schemas (issue 30), a row each.
#[rustfmt::skip]
fn stated_rules() -> Vec<Stated> {
    use SchemaKind::*;
    use serde_json::{Value, json};
    let code = |source: Value| json!({"owner": "acme", "repo": "web", "source": source});
    let github = |url: &str| json!({"type": "github", "url": url});
    let github_with = |key: &str, value: Value| json!({"type": "github", "url": "https://github.com/a/b", key: value});
    let content = |source: Value| json!({"source": source});
    let markup = |url: &str| json!({"type": "markup", "url": url});
    let source = |kind: &str, key: &str, value: Value| json!({"source": {"type": kind, "url": "https://c.example", key: value}});
    let entry = |extra: Value| {
        let mut entry = json!({"path": "/products/", "endpoint": "https://api.example.com/p.json"});
        for (key, value) in extra.as_object().into_iter().flatten() {
            entry[key] = value.clone();
        }
        json!([entry])
    };
    let roles = |role: &str, holder: &str| json!({"admin": {"role": {role: [holder]}}});
    let byogit = json!({"type": "byogit", "url": "https://git.example.com/acme/web",
        "raw_url": "https://raw.example.com/acme/web", "owner": "p1", "repo": "r1"});
    let without = |key: &str| {
        let mut source = byogit.clone();
        source.as_object_mut().expect("an object").remove(key);
        code(source)
    };
    let row = |kind, field, breaks, meets, rule| Stated { kind, field, breaks, meets, rule };
    vec![
        row(ApiCode, "/source/url", code(github("")), code(github("https://github.com/acme/web")), Some("invalid-url")),
        row(ApiCode, "/source/url", code(github("github.com/acme/web")), code(github("HTTP://127.0.0.1:8080/web")), Some("invalid-url")),
        row(ApiCode, "/source/raw_url", code(github_with("raw_url", json!("ftp://raw.example.com"))), code(github_with("raw_url", json!("https://raw.example.com:443/a"))), Some("invalid-url")),
        row(ApiCode, "/source/raw_url", without("raw_url"), code(byogit.clone()), Some("byogit-incomplete")),
        row(ApiCode, "/source/owner", without("owner"), code(byogit.clone()), Some("byogit-incomplete")),
        row(ApiCode, "/source/repo", without("repo"), code(byogit.clone()), Some("byogit-incomplete")),
        row(ApiCode, "/source/secretId", code(github_with("secretId", json!("Sync_Secret"))), code(github_with("secretId", json!("sync-secret"))), Some("invalid-name")),
        // The service's bound on the names it keys its store by.
        row(ApiCode, "/source/owner", code(github_with("owner", json!("o".repeat(251)))), code(github_with("owner", json!("o".repeat(250)))), None),
        row(ApiContent, "/source/url", content(markup("X")), content(markup("https://content.example.com/acme/web?ref=main")), Some("invalid-url")),
        row(ApiContent, "/source/url", content(markup("https://xn--a.example")), content(markup("https://a-b_c.example/x")), Some("invalid-url")),
        row(ApiContent, "/overlay/url", json!({"source": markup("https://c.example"), "overlay": markup("")}), json!({"source": markup("https://c.example"), "overlay": markup("https://worker.example.com/acme/web/main")}), Some("invalid-url")),
        row(ApiContent, "/source/suffix", source("markup", "suffix", json!("html")), source("markup", "suffix", json!(".plain.html")), Some("invalid-suffix")),
        row(ApiContent, "/source/id", source("markup", "id", json!("folder")), source("markup", "id", json!(null)), Some("foreign-source-key")),
        row(ApiContent, "/source/suffix", source("onedrive", "suffix", json!(".html")), source("onedrive", "tenantId", json!("t")), Some("foreign-source-key")),
        // The platform's: a google source names its folder.
        row(ApiContent, "/source/id", source("google", "id", json!(null)), source("google", "id", json!("folder")), None),
        row(ApiAccess, "/admin/role/author/0", roles("author", "someone at acme"), roles("author", "*@acme.example"), Some("invalid-access-entry")),
        row(ApiAccess, "/admin/role/admin/0", roles("admin", "a@b"), roles("admin", "editors"), Some("invalid-access-entry")),
        // The platform's group references and user lists; a path under `/groups/` is one.
        row(ApiAccess, "/admin/role/author/0", roles("author", "/groups/editors"), roles("author", "/groups/editors.json"), Some("invalid-access-entry")),
        row(ApiAccess, "/admin/role/view/0", roles("view", "/groups/a b.json"), roles("view", "/users.json"), Some("invalid-access-entry")),
        row(ApiAccess, "/admin/role/config_admin/0", roles("config_admin", "tech account"), roles("config_admin", "1A2B@techacct"), Some("invalid-access-entry")),
        row(ApiPublic, "/paths/mappings/0", json!({"paths": {"mappings": [""]}}), json!({"paths": {"mappings": ["/content/web/:/"]}}), Some("invalid-mapping")),
        row(ApiPublic, "/paths/includes/0", json!({"paths": {"includes": ["content/web/"]}}), json!({"paths": {"includes": ["/content/web/"]}}), Some("invalid-include")),
        row(ApiSite, "/code/source/url", json!({"code": code(github(""))}), json!({"code": code(github("https://github.com/a/b"))}), Some("invalid-url")),
        row(ApiSite, "/public/paths/mappings/0", json!({"public": {"paths": {"mappings": ["/a"]}}}), json!({"public": {"paths": {"mappings": ["/a:/b"]}}}), Some("invalid-mapping")),
        // A format is an assertion (the platform's `hostname`).
        row(ApiSite, "/sidekick/host", json!({"sidekick": {"host": ""}}), json!({"sidekick": {"host": "www.acme.example"}}), None),
        row(ApiWorkerConfig, "/0/path", entry(json!({"path": "products/"})), entry(json!({})), Some("invalid-worker-path")),
        row(ApiWorkerConfig, "/0/relativeURLPrefix", entry(json!({"relativeURLPrefix": "https://media.example.com/"})), entry(json!({"relativeURLPrefix": "https://media.example.com"})), Some("invalid-url-prefix")),
        row(ApiWorkerConfig, "/0/template", entry(json!({"template": "templates/p.html"})), entry(json!({"template": "/templates/p.html"})), Some("invalid-value")),
        row(ApiWorkerConfig, "/0/headers", entry(json!({"headers": {"x api": "1"}})), entry(json!({"headers": {"x-api": "1\t2"}})), Some("invalid-header")),
        row(ApiWorkerConfig, "/0/headers/x-api", entry(json!({"headers": {"x-api": "1\n2"}})), entry(json!({"headers": {"x-api": "1"}})), Some("invalid-header")),
        row(ApiWorkerConfig, "/0/forwardHeaders/0", entry(json!({"forwardHeaders": ["x:tenant"]})), entry(json!({"forwardHeaders": ["x-tenant"]})), Some("invalid-header")),
        row(ApiWorkerConfig, "/0/pathKey", entry(json!({"arrayKey": "items"})), entry(json!({"arrayKey": "items", "pathKey": "path"})), Some("invalid-listing")),
        row(ApiWorkerConfig, "/0/regex", entry(json!({"arrayKey": "items", "pathKey": "path", "regex": "/x/"})), entry(json!({"regex": "/x/"})), Some("invalid-listing")),
        row(ApiWorkerConfig, "/0/arrayKey", entry(json!({"pathKey": "path"})), entry(json!({})), Some("invalid-listing")),
        // The files carry the same rules for editors; a site's content URL may start with
        // the `{transform_url}` variable there.
        row(SiteFile, "/content/source/url", json!({"content": content(markup("content.example.com"))}), json!({"content": content(markup("{transform_url}/acme/web/main"))}), Some("invalid-url")),
        row(SettingsFile, "/transform_url", json!({"transform_url": "worker.example.com"}), json!({"transform_url": "https://worker.example.com"}), Some("invalid-url")),
        row(AccessFile, "/admin/role/publish/0", roles("publish", "a@b..c"), roles("publish", "a@b.c"), Some("invalid-access-entry")),
        row(QueryFile, "/indices/default/target", json!({"indices": {"default": {"target": "query-index.json", "properties": {"title": {"select": "h1", "value": "textContent(el)"}}}}}), json!({"indices": {"default": {"target": "/query-index.json", "properties": {"title": {"select": "h1", "value": "textContent(el)"}}}}}), Some("invalid-path")),
        row(QueryFile, "/indices/default/include/0", json!({"indices": {"default": {"include": ["/my blog/**"], "target": "/q.json", "properties": {"t": {"select": "h1", "value": "x"}}}}}), json!({"indices": {"default": {"include": ["blog/**"], "target": "/q.json", "properties": {"t": {"select": "h1", "value": "x"}}}}}), Some("invalid-path")),
        row(QueryFile, "/indices/default/exclude/0", json!({"indices": {"default": {"exclude": [""], "target": "/q.json", "properties": {"t": {"select": "h1", "value": "x"}}}}}), json!({"indices": {"default": {"exclude": ["**/drafts/**"], "target": "/q.json", "properties": {"t": {"select": "h1", "value": "x"}}}}}), Some("invalid-path")),
        row(SitemapFile, "/sitemaps/web/origin", json!({"sitemaps": {"web": {"origin": "www.acme.example", "source": "/q.json", "destination": "/sitemap.xml"}}}), json!({"sitemaps": {"web": {"origin": "https://www.acme.example", "source": "/q.json", "destination": "/sitemap.xml"}}}), Some("invalid-url")),
        row(SitemapFile, "/sitemaps/web/destination", json!({"sitemaps": {"web": {"source": "/q.json", "destination": "sitemap.xml"}}}), json!({"sitemaps": {"web": {"source": "/q.json", "destination": "/sitemap.xml"}}}), Some("invalid-path")),
        row(SitemapFile, "/sitemaps/web/extension", json!({"sitemaps": {"web": {"source": "/q.json", "destination": "/s.xml", "extension": "html"}}}), json!({"sitemaps": {"web": {"source": "/q.json", "destination": "/s.xml", "extension": ".html"}}}), None),
        row(TransformFile, "/entry/0/path", json!({"entry": [{"path": "", "endpoint": "https://x.example"}]}), json!({"entry": [{"path": "/", "endpoint": "https://x.example"}]}), Some("invalid-worker-path")),
    ]
}

/// The rules of the service's (and `validate`'s) semantic checks over one API body.
fn semantic_rules(
    kind: SchemaKind,
    body: &serde_json::Value,
) -> Option<Vec<siteops_config::diagnostic::Diagnostic>> {
    use siteops_config::model::api;
    use siteops_config::rules;
    Some(match kind {
        SchemaKind::ApiSite => {
            let site: api::SiteConfig = serde_json::from_value(body.clone()).ok()?;
            let mut found = rules::site_config(&site);
            if let Some(public) = &site.public {
                found.extend(
                    rules::public(public)
                        .into_iter()
                        .map(|d| d.under("/public")),
                );
            }
            found
        }
        SchemaKind::ApiCode => rules::code(&serde_json::from_value(body.clone()).ok()?),
        SchemaKind::ApiContent => rules::content(&serde_json::from_value(body.clone()).ok()?),
        SchemaKind::ApiAccess => rules::access(&serde_json::from_value(body.clone()).ok()?),
        SchemaKind::ApiPublic => rules::public(&serde_json::from_value(body.clone()).ok()?),
        SchemaKind::ApiWorkerConfig => {
            let entries: Vec<api::WorkerEntry> = serde_json::from_value(body.clone()).ok()?;
            rules::worker_entries(&entries)
        }
        SchemaKind::QueryFile => rules::query(&serde_json::from_value(body.clone()).ok()?),
        SchemaKind::SitemapFile => rules::sitemap(&serde_json::from_value(body.clone()).ok()?),
        // Files: `tests/cases/validate/` holds their rules' diagnostics.
        _ => return None,
    })
}

/// Issue 30: each rule moved into the schemas is in them. A body that breaks it is refused
/// by the compiled validator (`SchemaKind::validator`, which the service and `validate`
/// check bodies and files with) naming the field, and one that meets it passes. Where a
/// semantic rule checks the same, the schema's constraint names that rule, the rule
/// refuses the same body at that field and passes the other (one verdict), and
/// `SchemaKind::check` leaves the report to the rule, so it comes once.
#[test]
fn the_rules_the_schemas_state_refuse_what_the_rules_refuse() {
    let mut failures = Vec::new();
    for (index, row) in stated_rules().iter().enumerate() {
        let case = format!(
            "row {index} ({:?} {}, {})",
            row.kind,
            row.field,
            row.rule.unwrap_or("schema")
        );
        let schema = row.kind.generate();
        let validator = row.kind.validator();
        let errors: Vec<_> = validator.iter_errors(&row.breaks).collect();
        let named = |error: &jsonschema::ValidationError<'_>| {
            let at = error.instance_path().as_str().to_string();
            match error.kind() {
                jsonschema::error::ValidationErrorKind::Required { property } => {
                    format!("{at}/{}", property.as_str().unwrap_or_default())
                }
                _ => at,
            }
        };
        if errors.is_empty() {
            failures.push(format!("{case}: the schema takes {}", row.breaks));
        }
        for error in &errors {
            if named(error) != row.field {
                failures.push(format!("{case}: `{error}` at {}", named(error)));
            }
            let ruled = siteops_config::schema::ruled_by(error, &schema);
            if ruled != row.rule {
                failures.push(format!("{case}: `{error}` is left to {ruled:?}"));
            }
        }
        if let Some(error) = validator.iter_errors(&row.meets).next() {
            failures.push(format!("{case}: the schema refuses {}: {error}", row.meets));
        }
        let checked = row.kind.check(&row.breaks);
        match row.rule {
            Some(_) if !checked.is_empty() => {
                failures.push(format!("{case}: reported by the schema too: {checked:?}"));
            }
            None if !checked
                .iter()
                .any(|d| d.pointer.as_deref() == Some(row.field)) =>
            {
                failures.push(format!("{case}: check says {checked:?}"));
            }
            _ => {}
        }
        let (Some(code), Some(found)) = (row.rule, semantic_rules(row.kind, &row.breaks)) else {
            continue;
        };
        // The rule speaks of the field, of its table, or of the key beside it that needs it.
        let parent = |pointer: &str| {
            pointer
                .rsplit_once('/')
                .map(|(parent, _)| parent.to_string())
        };
        let at_field = |d: &siteops_config::diagnostic::Diagnostic| {
            let pointer = d.pointer.as_deref().unwrap_or_default();
            d.is_error()
                && d.code.as_str() == code
                && (pointer.starts_with(row.field)
                    || row.field.starts_with(pointer)
                    || parent(pointer) == parent(row.field))
        };
        if !found.iter().any(at_field) {
            failures.push(format!("{case}: the rule does not refuse it: {found:?}"));
        }
        let passed = semantic_rules(row.kind, &row.meets).unwrap_or_default();
        if passed.iter().any(|d| d.is_error()) {
            failures.push(format!(
                "{case}: the rule refuses {}: {passed:?}",
                row.meets
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every rule a schema names has a row above, and names a diagnostic code.
#[test]
fn every_rule_a_schema_names_is_tested() {
    fn named(value: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(code) = map
                    .get(siteops_config::schema::RULE_KEYWORD)
                    .and_then(|c| c.as_str())
                {
                    out.insert(code.to_string());
                }
                map.values().for_each(|v| named(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| named(v, out)),
            _ => {}
        }
    }
    let mut codes = std::collections::BTreeSet::new();
    for kind in SchemaKind::ALL {
        named(&kind.generate(), &mut codes);
    }
    let tested: std::collections::BTreeSet<String> = stated_rules()
        .iter()
        .filter_map(|row| row.rule.map(str::to_string))
        .collect();
    assert_eq!(codes, tested);
    for code in &codes {
        assert!(
            siteops_config::diagnostic::Code::ALL
                .iter()
                .any(|c| c.as_str() == code),
            "{code} is no diagnostic code"
        );
    }
}
