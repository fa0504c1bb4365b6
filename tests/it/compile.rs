//! Compilation of the example sites: golden bodies, secrets, determinism.

use siteops_config::compile::{REDACTED, ResourceKind, Secrets, compile, pretty};
use siteops_config::repo::RepoFiles;

use crate::support::{compact, repo_root, validate_repo};

fn example_fleet() -> siteops_config::model::Fleet {
    let validation = validate_repo(&RepoFiles::load(&repo_root()).expect("repository loads"));
    assert!(!validation.has_errors(), "{:?}", validation.diagnostics);
    validation.fleet
}

#[test]
fn example_sites_compile_to_the_golden_bodies() {
    let compiled = compile(&example_fleet(), &Secrets::Redacted).expect("compiles");
    insta::assert_snapshot!("example-bodies", pretty(&compiled.to_json()));
}

#[test]
fn secret_values_come_from_the_lookup_and_only_go_into_their_bodies() {
    let lookup = |name: &str| Some(format!("value-of-{name}"));
    let compiled = compile(&example_fleet(), &Secrets::Lookup(&lookup)).expect("compiles");
    let secret = compiled
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::Secret("git-sync".into()))
        .expect("the base site's sync secret");
    assert_eq!(
        secret.body,
        serde_json::json!({"value": "value-of-ACME_GIT_SYNC_SECRET"})
    );
    assert!(secret.is_sensitive());
    let worker = compiled
        .resources
        .iter()
        .find(|r| r.kind == ResourceKind::Worker("main".into()))
        .expect("worker config");
    assert_eq!(
        worker.body[3]["templateApiKey"],
        "value-of-ACME_TEMPLATE_API_KEY"
    );
    for resource in compiled.resources.iter().filter(|r| !r.is_sensitive()) {
        let text = resource.body.to_string();
        assert!(
            !text.contains("value-of-"),
            "{} leaks a secret",
            resource.path()
        );
    }
    assert!(
        !format!("{compiled:?}").contains("value-of-"),
        "debug output leaks a secret"
    );
}

#[test]
fn a_missing_variable_is_an_error_that_names_it_where_it_is_declared() {
    let lookup = |name: &str| (name != "ACME_GIT_SYNC_SECRET").then(|| "x".to_string());
    let problems =
        compile(&example_fleet(), &Secrets::Lookup(&lookup)).expect_err("missing variable");
    let lines: Vec<String> = problems.iter().map(compact).collect();
    assert_eq!(
        lines,
        ["sites/acme/website/secrets.toml:6:7 error missing-secret-value"]
    );
    assert!(problems[0].message.contains("ACME_GIT_SYNC_SECRET"));
}

#[test]
fn redacted_output_needs_no_variables_and_holds_no_values() {
    let compiled = compile(&example_fleet(), &Secrets::Redacted).expect("compiles");
    let text = pretty(&compiled.to_json());
    assert_eq!(
        text.matches(REDACTED).count(),
        9,
        "the org's secret, the sync secret and the template key of each of the seven worker entries"
    );
}

#[test]
fn output_is_deterministic_with_sorted_keys() {
    let fleet = example_fleet();
    let first = pretty(
        &compile(&fleet, &Secrets::Redacted)
            .expect("compiles")
            .to_json(),
    );
    let second = pretty(
        &compile(&fleet, &Secrets::Redacted)
            .expect("compiles")
            .to_json(),
    );
    assert_eq!(first, second);
    let site = compile(&fleet, &Secrets::Redacted)
        .expect("compiles")
        .resources[0]
        .body
        .clone();
    let keys: Vec<&String> = site.as_object().expect("object").keys().collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// The primary site's index and sitemap configurations compile to YAML text: the golden
/// text, which reads back as the body, in the shape of the files' schemas (the platform's
/// index and sitemap schemas, as modelled); a site without them has none.
#[test]
fn index_and_sitemap_configurations_compile_to_yaml() {
    use siteops_config::document::Document;
    use siteops_config::schema::SchemaKind;
    use siteops_config::source::SourceFile;

    let compiled = compile(&example_fleet(), &Secrets::Redacted).expect("compiles");
    let yaml: Vec<_> = (compiled.resources.iter())
        .filter(|r| r.kind.is_yaml())
        .collect();
    let paths: Vec<String> = yaml.iter().map(|r| r.path()).collect();
    assert_eq!(
        paths,
        [
            "acme/sites/website/content/query.yaml",
            "acme/sites/website/content/sitemap.yaml"
        ]
    );
    for resource in yaml {
        let text = resource.text();
        let name = resource.path().replace('/', "__");
        insta::assert_snapshot!(name, text);
        let parsed = Document::parse_yaml(SourceFile::new("compiled.yaml", text))
            .expect("the compiled YAML parses")
            .value;
        assert_eq!(parsed, resource.body);
        assert_eq!(parsed["version"], 1);
        let schema = match resource.kind {
            ResourceKind::Query => SchemaKind::QueryFile,
            _ => SchemaKind::SitemapFile,
        };
        assert_eq!(schema.check(&parsed), [], "{}", resource.path());
    }
}
