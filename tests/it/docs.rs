//! Documentation that must stay true to the code.

use siteops::diagnostic::Code;

use crate::support::{read, repo_root};

#[test]
fn readme_lists_every_diagnostic_code() {
    let readme = read(&repo_root().join("README.md"));
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|code| code.as_str())
        .filter(|name| !readme.contains(&format!("| `{name}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's code table lacks {missing:?}"
    );
}
