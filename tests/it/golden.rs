//! The golden cases of `golden/<case>/`: every page rendered through the real pipeline (the
//! repository applied to an in-process server, outgoing requests answered from the sites'
//! and the case's mocks) and compared with its snapshots in `golden/<case>/snapshots/`, so
//! that a template, configuration or mock change shows as a snapshot diff in review.
//! `siteops test` (tests in `golden_cli.rs`) reads and writes the same files.

use std::collections::BTreeSet;

use siteops::golden::{Harness, load};

use crate::support::repo_root;

#[tokio::test]
async fn every_golden_case_renders_as_its_snapshots() {
    let root = repo_root();
    let cases = load::cases(&root, &[]).expect("the golden cases load");
    let harness = Harness::start(&root)
        .await
        .expect("the repository applies to the in-process server");
    let mut failed_previews = 0;
    for case in &cases {
        let outputs = harness
            .render(case)
            .await
            .unwrap_or_else(|e| panic!("case {}: {e}", case.name));
        for output in &outputs {
            insta::with_settings!({
                snapshot_path => case.snapshot_dir(),
                prepend_module_to_snapshot => false,
            }, {
                insta::assert_snapshot!(output.name.as_str(), &output.text, output.expression.as_str());
            });
        }
        failed_previews += outputs
            .iter()
            .filter(|o| o.text.starts_with("{\n  \"error\""))
            .count();
        // A page removed from a case must not leave its snapshots behind.
        let rendered: BTreeSet<&str> = outputs.iter().map(|o| o.name.as_str()).collect();
        let stored = load::stored(case).expect("the snapshots read");
        let stale: Vec<&String> = stored
            .keys()
            .filter(|name| !rendered.contains(name.as_str()))
            .collect();
        assert!(
            stale.is_empty(),
            "case {}: stale snapshots {stale:?} (siteops test --update removes them)",
            case.name
        );
    }
    harness.stop().await;
    // Exactly the one page meant to fail (acme-campaigns-overlay's /missing) fails: a broken
    // mock cannot hide as a recorded failure.
    assert_eq!(failed_previews, 1);
}

#[test]
fn every_example_site_has_a_case() {
    let root = repo_root();
    let cases = load::cases(&root, &[]).expect("the golden cases load");
    let covered: BTreeSet<String> = cases.iter().map(|c| c.spec.site.to_string()).collect();
    let mut sites = BTreeSet::new();
    for org in std::fs::read_dir(root.join("sites")).expect("sites/") {
        let org = org.expect("entry").path();
        for site in std::fs::read_dir(&org).expect("org dir") {
            let site = site.expect("entry").path();
            // Sites are the directories; the org's own files (org.toml, profiles) are not.
            if !site.is_dir() {
                continue;
            }
            sites.insert(format!(
                "{}/{}",
                org.file_name().expect("name").to_string_lossy(),
                site.file_name().expect("name").to_string_lossy()
            ));
        }
    }
    assert_eq!(covered, sites);
}
