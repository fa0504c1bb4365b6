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
            ResourceKind::Secret(_) => SchemaKind::ApiSecret,
            ResourceKind::Worker(_) => SchemaKind::ApiWorkerConfig,
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
