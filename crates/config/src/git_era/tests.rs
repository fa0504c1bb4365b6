use std::collections::BTreeMap;

use super::*;
use crate::diagnostic::render;

fn target() -> Target {
    Target {
        org: "acme".into(),
        site: "legacy".into(),
        shown: "legacy".into(),
        checkout: Some("legacy".into()),
    }
}

fn run(files: &[(&str, &str)]) -> Migration {
    let found: BTreeMap<String, Vec<u8>> = files
        .iter()
        .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
        .collect();
    migrate(&target(), &found)
}

fn file<'m>(migration: &'m Migration, path: &str) -> &'m str {
    let found = migration.files.iter().find(|f| f.path == path);
    &found.unwrap_or_else(|| panic!("no {path}")).text
}

const FSTAB: &str = "mountpoints:\n  /: https://content.da.live/acme/legacy/\nfolders:\n  /products/: /products/default\n";

#[test]
fn the_root_mountpoint_and_the_folders_become_the_site() {
    let migration = run(&[
        ("fstab.yaml", FSTAB),
        ("robots.txt", "User-agent: *\nAllow: /\n"),
    ]);
    assert!(
        !migration.has_errors(),
        "{:?}",
        migration.report.diagnostics
    );
    let site = file(&migration, "sites/acme/legacy/site.toml");
    let parsed: SiteFile = toml::from_str(site).expect("site.toml parses");
    let content = parsed.content.expect("content");
    assert_eq!(content.source.kind, "markup");
    assert_eq!(content.source.url, "https://content.da.live/acme/legacy/");
    assert_eq!(
        parsed.parts.folders.expect("folders").0,
        BTreeMap::from([("/products/".to_string(), "/products/default".to_string())])
    );
    assert_eq!(
        parsed.parts.robots.and_then(|r| r.txt).as_deref(),
        Some("User-agent: *\nAllow: /\n")
    );
    assert_eq!(parsed.code.expect("code").repo, "legacy");
    assert!(
        migration.settings.contains("\"acme/legacy\" = \"legacy\""),
        "{}",
        migration.settings
    );
}

#[test]
fn what_cannot_be_carried_over_is_located() {
    let fstab = "mountpoints:\n  /: https://content.da.live/acme/legacy/\n  /assets: https://example.sharepoint.com/sites/x\n";
    let query = "version: 1\nindices:\n  site:\n    source: html\n    include: /**\n    target: /query-index.json\n    properties:\n      title:\n        selectFirst: h1\n        value: textContent(el)\n";
    let migration = run(&[
        ("fstab.yaml", fstab),
        ("helix-query.yaml", query),
        ("redirects.json", "{}"),
    ]);
    let rendered = render::human(&migration.report.diagnostics, &migration.report, false);
    assert!(rendered.contains("legacy/fstab.yaml:3:3"), "{rendered}");
    assert!(
        rendered.contains("legacy/helix-query.yaml:4:5"),
        "{rendered}"
    );
    assert!(rendered.contains("not-carried-over"), "{rendered}");
    assert!(!migration.has_errors(), "{rendered}");
    // The single include glob is a list, as the platform's schema coerces it.
    let query = file(&migration, "sites/acme/legacy/query.toml");
    assert!(query.contains("include = [\"/**\"]"), "{query}");
}

#[test]
fn a_bare_url_of_no_known_type_is_an_error_at_the_mountpoint() {
    let migration = run(&[("fstab.yaml", "mountpoints:\n  /: https://cms.example/x\n")]);
    assert!(migration.has_errors());
    let rendered = render::human(&migration.report.diagnostics, &migration.report, false);
    assert!(rendered.contains("legacy/fstab.yaml:2:6"), "{rendered}");
}

#[test]
fn paths_json_becomes_public_paths() {
    let paths =
        r#"{"mappings": ["/content/legacy/:/"], "includes": ["/content/legacy/"], "extra": 1}"#;
    let migration = run(&[("fstab.yaml", FSTAB), ("paths.json", paths)]);
    let public = file(&migration, "sites/acme/legacy/public.toml");
    let parsed: crate::model::api::PublicConfig = toml::from_str(public).expect("parses");
    let paths = parsed.paths.expect("paths");
    assert_eq!(paths.mappings, Some(vec!["/content/legacy/:/".to_string()]));
    assert_eq!(paths.includes, Some(vec!["/content/legacy/".to_string()]));
    let warned = &migration.report.diagnostics;
    assert!(
        warned
            .iter()
            .any(|d| d.code == Code::NotCarriedOver && d.message.contains("`extra`")),
        "{warned:?}"
    );
}

#[test]
fn a_headers_sheet_becomes_headers() {
    let sheet = r#"{"total": 2, "data": [{"URL": "/**", "Key": "x-frame-options", "Value": "SAMEORIGIN"}, {"url": "/x", "key": "", "value": "y"}]}"#;
    let migration = run(&[("fstab.yaml", FSTAB), ("headers.json", sheet)]);
    let site: SiteFile =
        toml::from_str(file(&migration, "sites/acme/legacy/site.toml")).expect("parses");
    let headers = site.parts.headers.expect("headers").0;
    assert_eq!(headers["/**"][0].key, "x-frame-options");
    assert_eq!(headers.len(), 1);
    assert_eq!(
        migration.report.diagnostics.len(),
        1,
        "{:?}",
        migration.report.diagnostics
    );
}
