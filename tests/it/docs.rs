//! Documentation that must stay true to the code: the guide's diagnostic table names every
//! code, and every relative link of README.md and the guide (`docs/`) points at a file
//! that exists.

use std::path::Path;

use siteops::diagnostic::Code;

use crate::support::{read, repo_root};

#[test]
fn the_guide_lists_every_diagnostic_code() {
    let table = read(&repo_root().join("docs/diagnostics.md"));
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|code| code.as_str())
        .filter(|name| !table.contains(&format!("| `{name}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/diagnostics.md's code table lacks {missing:?}"
    );
}

/// The targets of `](target)` links that are neither URLs nor in-page anchors.
fn relative_links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or_default())
        .filter(|target| !target.is_empty() && !target.contains(':'))
        .collect()
}

#[test]
fn relative_links_of_the_readme_and_the_guide_resolve() {
    let root = repo_root();
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    assert!(pages.len() > 5, "{pages:?}");
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = read(page);
        let dir = page.parent().unwrap_or(Path::new("."));
        for target in relative_links(&text) {
            checked += 1;
            if !dir.join(target).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(checked > 10, "only {checked} links found");
    assert!(broken.is_empty(), "broken links: {broken:#?}");
    assert_eq!(
        relative_links("[a](x.md) [b](https://e.x) [c](#top) [d](../y.md#part)"),
        ["x.md", "../y.md"]
    );
}
