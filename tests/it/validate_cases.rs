//! Every validation rule, driven by the case files in `tests/cases/validate/`.
//!
//! A case file is a comment, then sections: `== <path>` starts a repository file, and
//! `== expect` lists the expected diagnostics in order, one per line, as
//! `file:line:col severity code` (`file severity code` for a whole file). A case with an
//! empty `expect` section must validate cleanly. All cases run; all failures are reported.

use std::fs;

use crate::support::{check, read, repo_root};

struct Case {
    files: Vec<(String, Vec<u8>)>,
    expected: Vec<String>,
}

fn parse_case(text: &str) -> Case {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut expected = Vec::new();
    let mut in_expect = false;
    for line in text.lines() {
        if let Some(header) = line.strip_prefix("== ") {
            in_expect = header.trim() == "expect";
            if !in_expect {
                files.push((header.trim().to_string(), Vec::new()));
            }
        } else if in_expect {
            if !line.trim().is_empty() {
                expected.push(line.trim().to_string());
            }
        } else if let Some((_, content)) = files.last_mut() {
            content.extend_from_slice(line.as_bytes());
            content.push(b'\n');
        }
    }
    Case { files, expected }
}

#[test]
fn validation_cases() {
    let dir = repo_root().join("tests/cases/validate");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("case directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "case"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 40, "only {} cases found", paths.len());
    let mut failures = Vec::new();
    for path in &paths {
        let case = parse_case(&read(path));
        let files: Vec<(&str, &[u8])> = case
            .files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_slice()))
            .collect();
        if let Some(difference) = check(&files, &case.expected) {
            failures.push(format!(
                "{}\n{difference}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}

#[test]
fn invalid_utf8_is_located_at_the_first_bad_byte() {
    let site = b"[code]\nowner = \"a\xff\"\n";
    let expected = vec!["sites/acme/web/site.toml:2:11 error invalid-utf8".to_string()];
    assert_eq!(
        check(&[("sites/acme/web/site.toml", site)], &expected),
        None
    );
}

#[test]
fn the_example_sites_are_valid() {
    let repo = siteops_config::repo::RepoFiles::load(&repo_root()).expect("repository loads");
    let validation = crate::support::validate_repo(&repo);
    let problems: Vec<String> = validation
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", crate::support::compact(d), d.message))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(validation.fleet.sites.len(), 6);
    assert_eq!(validation.explanations.len(), 8, "every example resolves");
}
