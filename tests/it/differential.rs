//! The minimal cases the differential generator found (`cargo xtask diff-fuzz`), and those
//! found by hand, each a directory of `tests/fixtures/differential/`: `input.html` and the
//! references' outputs (`reference.md` or `reference.error`, `reference.plain.html`,
//! `reference.html`, for `https://www.example.com/NAME`). Checked without node: the outputs
//! are stored. A case of the renderer alone has `input.md` instead (stored markdown, as the
//! pipeline reads it) and no `reference.md`: its outputs are `md2html.mjs` of
//! `shared/anchors` (`--plain NAME.md`, and `NAME.md` for the page).
//!
//! A case with a `known-difference` file is an open difference: skipped, and it must be
//! listed, by name, in `docs/src/fidelity.md`.

use std::path::Path;

use super::reference_pages::{Case, Expected, check};

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/differential");

#[test]
fn every_found_difference_stays_fixed() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(CASES)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no cases in {CASES}");
    let fidelity =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/fidelity.md"))
            .unwrap();
    let (known, names): (Vec<String>, Vec<String>) = names.into_iter().partition(|name| {
        Path::new(CASES)
            .join(name)
            .join("known-difference")
            .exists()
    });
    let unlisted: Vec<&String> = known
        .iter()
        .filter(|name| !fidelity.contains(&format!("### `{name}`")))
        .collect();
    assert!(
        unlisted.is_empty(),
        "open differences missing from docs/src/fidelity.md: {unlisted:?}"
    );
    let cases: Vec<Case> = names
        .iter()
        .map(|name| {
            let dir = Path::new(CASES).join(name);
            let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
            // The input goes under the case's name: output files are named after it.
            let kind = if dir.join("input.md").exists() {
                "md"
            } else {
                "html"
            };
            let page = input.join(format!("{name}.{kind}"));
            std::fs::copy(dir.join(format!("input.{kind}")), &page).unwrap();
            Case {
                name: name.clone(),
                input: page,
                md: if dir.join("reference.error").exists() {
                    Some(Expected::Rejected)
                } else {
                    read("reference.md").map(Expected::Text)
                },
                plain: read("reference.plain.html"),
                html: read("reference.html"),
            }
        })
        .collect();
    let failures = check(&cases, scratch.path());
    println!(
        "differential cases: {} checked, {} differ, {} open (docs/src/fidelity.md)",
        cases.len(),
        failures.len(),
        known.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
