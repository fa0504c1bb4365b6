//! The shared real-world corpus (`shared/conformance/realworld`: 181 news and blog pages with
//! the reference implementations' outputs), every page in all three kinds, on every run
//! (about 20 s in a debug build; `check.py` there does the same on a release build).
//! Skipped, with a message, where the corpus is not beside the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::reference_pages::{Case, check};

fn corpus() -> Option<PathBuf> {
    siteops_testkit::shared("conformance/realworld/pages.tar.gz")
        .and_then(|archive| archive.parent().map(Path::to_path_buf))
}

/// The corpus unpacked into `scratch`: its pages and references.
fn unpack(corpus: &Path, scratch: &Path) -> Vec<String> {
    for archive in ["pages.tar.gz", "references.tar.gz"] {
        let status = Command::new("tar")
            .arg("-xzf")
            .arg(corpus.join(archive))
            .arg("-C")
            .arg(scratch)
            .status()
            .expect("tar runs");
        assert!(status.success(), "cannot unpack {archive}");
    }
    let mut names: Vec<String> = std::fs::read_dir(scratch.join("pages"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".html").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_real_page_renders_as_the_reference() {
    let Some(corpus) = corpus() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let names = unpack(&corpus, scratch.path());
    assert_eq!(names.len(), 181, "the corpus has 181 pages");
    let cases: Vec<Case> = names
        .iter()
        .map(|name| {
            Case::from_files(
                name,
                &scratch.path().join("pages"),
                &scratch.path().join("references"),
            )
        })
        .collect();
    let failures = check(&cases, scratch.path());
    println!(
        "real-world pages: {} checked, {} differences",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The parser's fast path builds html5ever's tree on every real page it takes, whole and
/// up to `main`; and it takes nearly all of them (the rest use `object` or need foster
/// parenting), which is what makes ingestion fast.
#[test]
fn the_parsers_fast_path_builds_html5evers_tree_on_real_pages() {
    let Some(corpus) = corpus() else { return };
    let scratch = tempfile::tempdir().unwrap();
    let names = unpack(&corpus, scratch.path());
    let mut taken = 0;
    for name in &names {
        let bytes = std::fs::read(scratch.path().join("pages").join(format!("{name}.html")))
            .expect("a page");
        match siteops_ingest::fuzzing::fast_path_agrees(&siteops_ingest::decode_page(&bytes)) {
            Ok(true) => taken += 1,
            Ok(false) => {}
            Err(difference) => panic!("{name}: {difference}"),
        }
    }
    println!("the fast path took {taken} of {} pages", names.len());
    assert!(
        taken >= 178,
        "the fast path took only {taken} of {} pages",
        names.len()
    );
}
