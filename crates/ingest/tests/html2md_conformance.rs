//! The reference converter's fixtures (`shared/conformance/html2md/fixtures`): every
//! applicable pair is converted and compared with the expected markdown, exactly and
//! structurally (sections, tables with their rows and cells, paragraphs, links and images
//! with their URLs, metadata). Structural equality is required on every pair; the exact
//! count is asserted so that it cannot regress.
//!
//! See the counts with `cargo test --test it html2md_conformance -- --nocapture`.

use std::path::{Path, PathBuf};

use siteops_ingest::{IngestError, IngestOptions, ingest};
use url::Url;

/// The fixtures, read in place; `None` (the test says it is skipped) without `../shared`.
fn fixtures() -> Option<PathBuf> {
    siteops_testkit::shared("conformance/html2md/fixtures")
}

/// Pairs that belong to other tests of the reference (image size limits, list tightening).
const NOT_APPLICABLE: &[&str] = &["image-large", "images-large", "unspread"];

/// Pairs that match byte for byte (after trimming, as the reference's test compares).
const EXPECTED_EXACT: usize = 24;

fn fixture(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

fn convert(name: &str, html: &str) -> Result<String, IngestError> {
    let mut options = IngestOptions::default();
    if name == "json-ld-too-large" {
        options.max_metadata_size = 256_000;
    }
    let mut doc = ingest(html, &options)?;
    if name == "images" {
        // The reference test's media handler returns every URL unchanged.
        let page = Url::parse("https://api.aem.live/org/sites/site/source/document.html").unwrap();
        doc.map_images(&page, |url| url.to_string());
    }
    Ok(doc.to_markdown())
}

#[test]
fn fixtures_match_the_reference() {
    let Some(dir) = fixtures() else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the conformance fixtures read")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".html").map(str::to_owned)
        })
        .filter(|n| !NOT_APPLICABLE.contains(&n.as_str()))
        .filter(|n| fixture(&dir, &format!("{n}.md")).exists())
        .collect();
    names.sort();
    let (mut exact, mut structural) = (0, 0);
    let mut failures = Vec::new();
    for name in &names {
        let html = std::fs::read_to_string(fixture(&dir, &format!("{name}.html"))).unwrap();
        let expected = std::fs::read_to_string(fixture(&dir, &format!("{name}.md"))).unwrap();
        let actual = match convert(name, &html) {
            Ok(md) => md,
            Err(e) => {
                failures.push(format!("{name}: failed: {e}"));
                continue;
            }
        };
        if actual.trim() == expected.trim() {
            exact += 1;
        }
        if structure(&actual) == structure(&expected) {
            structural += 1;
        } else {
            failures.push(format!(
                "{name}: structure differs\n--- expected\n{:#?}\n--- actual\n{:#?}",
                structure(&expected),
                structure(&actual)
            ));
        }
    }
    println!(
        "html2md conformance: {exact} of {} pairs match exactly, {structural} structurally",
        names.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(structural, names.len());
    assert_eq!(exact, EXPECTED_EXACT, "exact matches changed");
}

/// Further pairs made with the reference converter for inputs the shared fixtures do not
/// cover (`tests/fixtures/html2md-extra/README.md`): all must match exactly.
#[test]
fn extra_pairs_match_the_reference_exactly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/html2md-extra");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    names.sort();
    assert!(names.len() >= 6);
    for html_path in names {
        let html = std::fs::read_to_string(&html_path).unwrap();
        let expected = std::fs::read_to_string(html_path.with_extension("md")).unwrap();
        let actual = ingest(&html, &IngestOptions::default())
            .unwrap()
            .to_markdown();
        assert_eq!(actual, expected, "{}", html_path.display());
    }
}

#[test]
fn metadata_limits_and_invalid_json_ld_fail_as_the_reference() {
    let Some(dir) = fixtures() else {
        return;
    };
    let large = std::fs::read_to_string(fixture(&dir, "json-ld-too-large.html")).unwrap();
    let error = ingest(&large, &IngestOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), "metadata size limit exceeded");
    assert!(
        matches!(error, IngestError::MetadataTooLarge { ref field, limit: 128_000, .. } if field == "json-ld")
    );

    let invalid = std::fs::read_to_string(fixture(&dir, "json-ld-invalid.html")).unwrap();
    let error = ingest(&invalid, &IngestOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), "invalid json-ld");
}

#[test]
fn the_structure_check_can_fail() {
    let a = "# A\n\n+---+\n| X |\n+---+\n| 1 |\n+---+\n";
    assert_ne!(
        structure(a),
        structure("# A\n\n+---+\n| X |\n+---+\n| 2 |\n+---+\n")
    );
    assert_ne!(
        structure(a),
        structure("# A\n\n---\n\n+---+\n| X |\n+---+\n| 1 |\n+---+\n")
    );
    assert_eq!(
        structure(a),
        structure("# A\n\n+-----+\n| X   |\n+-----+\n| 1   |\n+-----+\n")
    );
}

/// A layout-free dump of a markdown document: sections, tables (rows of cells), other
/// paragraphs; texts with white space collapsed and escapes removed; images resolved to
/// their URLs.
fn structure(md: &str) -> Vec<String> {
    let mut definitions = std::collections::HashMap::new();
    for line in md.lines() {
        if let Some(rest) = line.strip_prefix("[image")
            && let Some((id, url)) = rest.split_once("]: ")
        {
            definitions.insert(format!("[image{id}]"), url.to_owned());
        }
    }
    let resolve = |text: &str| {
        let mut out = text.to_owned();
        for (id, url) in &definitions {
            out = out.replace(&format!("]{id}"), &format!("]({url})"));
        }
        normalise(&out)
    };
    let lines: Vec<&str> = md.lines().filter(|l| !l.starts_with("[image")).collect();
    let mut out = Vec::new();
    let mut paragraph = String::new();
    let mut i = 0;
    let flush = |paragraph: &mut String, out: &mut Vec<String>| {
        if !paragraph.trim().is_empty() {
            out.push(format!("text: {}", resolve(paragraph)));
        }
        paragraph.clear();
    };
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with('+') && line.ends_with('+') && line.len() > 1 {
            flush(&mut paragraph, &mut out);
            let start = i;
            while i < lines.len() && (lines[i].starts_with('+') || lines[i].starts_with('|')) {
                i += 1;
            }
            for row in table_rows(&lines[start..i]) {
                let cells: Vec<String> = row.iter().map(|c| resolve(c)).collect();
                out.push(format!("row: {}", cells.join(" ‖ ")));
            }
            out.push("end table".into());
            continue;
        }
        if line == "---" {
            flush(&mut paragraph, &mut out);
            out.push("section".into());
        } else if line.trim().is_empty() {
            flush(&mut paragraph, &mut out);
        } else {
            paragraph.push_str(line);
            paragraph.push('\n');
        }
        i += 1;
    }
    flush(&mut paragraph, &mut out);
    out
}

/// Rows of a grid table: the cell boundaries come from the border line above each row.
fn table_rows(lines: &[&str]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut bounds: Vec<usize> = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    for line in lines {
        let chars: Vec<char> = line.chars().collect();
        if line.starts_with('+') {
            if !cells.is_empty() {
                rows.push(std::mem::take(&mut cells));
            }
            bounds = chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '+')
                .map(|(i, _)| i)
                .collect();
            continue;
        }
        let cuts: Vec<usize> = bounds
            .iter()
            .copied()
            .filter(|b| chars.get(*b) == Some(&'|'))
            .collect();
        let parts: Vec<String> = cuts
            .windows(2)
            .map(|w| chars[w[0] + 1..w[1]].iter().collect::<String>())
            .collect();
        if cells.len() < parts.len() {
            cells.resize(parts.len(), String::new());
        }
        for (cell, part) in cells.iter_mut().zip(parts) {
            cell.push(' ');
            cell.push_str(&part);
        }
    }
    if !cells.is_empty() {
        rows.push(cells);
    }
    rows
}

/// White space collapsed, backslash escapes and character references decoded.
fn normalise(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(chars.next().unwrap());
        } else if c == '&' && chars.peek() == Some(&'#') {
            let rest: String = chars.clone().take_while(|c| *c != ';').collect();
            match rest
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
            {
                Some(decoded) => {
                    out.push(decoded);
                    for _ in 0..=rest.len() {
                        chars.next();
                    }
                }
                None => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
