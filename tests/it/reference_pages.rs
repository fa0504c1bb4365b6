//! Pages checked against the reference implementations' outputs, through `siteops ingest`
//! as a user runs it: the markdown exactly (after trimming; a page the reference rejects
//! must be rejected), `.plain.html` and the page (for `https://www.example.com/NAME`) with
//! white-space runs collapsed and white space between tags removed, as
//! `shared/conformance/realworld/check.py` compares them.
//!
//! `realworld.rs` runs the shared real-world corpus; `differential.rs` the minimal cases
//! the differential generator (`cargo xtask diff-fuzz`) found.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One page and what the reference made of it (`None`: no reference of that kind).
pub(crate) struct Case {
    pub name: String,
    pub input: PathBuf,
    pub md: Option<Expected>,
    pub plain: Option<String>,
    pub html: Option<String>,
}

pub(crate) enum Expected {
    Text(String),
    /// The reference rejects the page.
    Rejected,
}

impl Case {
    /// The case whose input is `dir/NAME.html` and whose reference outputs are
    /// `refs/NAME.md` (or `NAME.error`), `NAME.plain.html` and `NAME.html`.
    pub(crate) fn from_files(name: &str, dir: &Path, refs: &Path) -> Case {
        let read =
            |suffix: &str| std::fs::read_to_string(refs.join(format!("{name}{suffix}"))).ok();
        let md = if refs.join(format!("{name}.error")).exists() {
            Some(Expected::Rejected)
        } else {
            read(".md").map(Expected::Text)
        };
        Case {
            name: name.to_owned(),
            input: dir.join(format!("{name}.html")),
            md,
            plain: read(".plain.html"),
            html: read(".html"),
        }
    }
}

/// Runs every case through `siteops ingest` (in `scratch`) and returns a description of
/// each difference.
pub(crate) fn check(cases: &[Case], scratch: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for (kind, suffix) in [("md", ".md"), ("plain", ".plain.html")] {
        let todo: Vec<&Case> = cases
            .iter()
            .filter(|c| {
                if kind == "md" {
                    c.md.is_some()
                } else {
                    c.plain.is_some()
                }
            })
            .collect();
        if todo.is_empty() {
            continue;
        }
        let out = scratch.join(kind);
        let mut args = vec!["ingest".to_owned(), "--format".into(), kind.into()];
        args.extend(todo.iter().map(|c| c.input.display().to_string()));
        args.extend(["--out".into(), out.display().to_string()]);
        run(&args);
        for case in todo {
            let got = std::fs::read_to_string(out.join(format!("{}{suffix}", case.name))).ok();
            let problem = match (&case.md, &case.plain) {
                (Some(Expected::Rejected), _) if kind == "md" => {
                    got.map(|_| "the reference rejects this page; siteops converted it".to_owned())
                }
                (Some(Expected::Text(want)), _) if kind == "md" => {
                    compare(got, |got| differs(want.trim(), got.trim()))
                }
                (_, Some(want)) => compare(got, |got| differs(&normalise(want), &normalise(got))),
                _ => None,
            };
            if let Some(problem) = problem {
                failures.push(format!("{kind} differs: {}\n    {problem}", case.name));
            }
        }
    }
    let out = scratch.join("html");
    for case in cases.iter().filter(|c| c.html.is_some()) {
        run(&[
            "ingest".into(),
            "--format".into(),
            "html".into(),
            "--url".into(),
            format!("https://www.example.com/{}", case.name),
            case.input.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ]);
        let got = std::fs::read_to_string(out.join(format!("{}.html", case.name))).ok();
        let want = case.html.as_deref().unwrap_or_default();
        let problem = compare(got, |got| differs(&normalise(want), &normalise(got)));
        if let Some(problem) = problem {
            failures.push(format!("html differs: {}\n    {problem}", case.name));
        }
    }
    failures
}

/// A missing output is a difference of its own.
fn compare(got: Option<String>, differ: impl FnOnce(&str) -> Option<String>) -> Option<String> {
    match got {
        None => Some("siteops rejected it or wrote nothing".to_owned()),
        Some(got) => differ(&got),
    }
}

fn run(args: &[String]) {
    let output = Command::new(env!("CARGO_BIN_EXE_siteops"))
        .args(args)
        // Some real pages are over the preview's 1 MiB page limit, the command's default:
        // the reference converts them, and the conversion is what is compared here.
        .args(["--max-input-size", "16777216"])
        .output()
        .expect("siteops runs");
    // A rejected page is a finding (no output file), not a failure of the run itself.
    assert!(
        output.status.code().is_some(),
        "siteops was killed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// White-space runs collapsed, white space between tags removed.
pub(crate) fn normalise(html: &str) -> String {
    let mut collapsed = String::with_capacity(html.len());
    let mut space = false;
    for c in html.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            collapsed.push(' ');
            space = false;
        }
        collapsed.push(c);
    }
    collapsed.replace("> <", "><").trim().to_owned()
}

/// `None` when equal, else where they part, with context.
pub(crate) fn differs(want: &str, got: &str) -> Option<String> {
    if want == got {
        return None;
    }
    let at = want
        .char_indices()
        .zip(got.chars())
        .find(|((_, a), b)| a != b)
        .map_or(want.len().min(got.len()), |((i, _), _)| i);
    let around = |s: &str| {
        let mut start = at.saturating_sub(80).min(s.len());
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 80).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        format!("{:?}", &s[start..end])
    };
    Some(format!(
        "reference …{}\n    siteops   …{}",
        around(want),
        around(got)
    ))
}

#[test]
fn comparison_normalises_white_space_only() {
    assert_eq!(
        normalise("<p>\n  a  b\n</p>\n<p>c</p>"),
        "<p> a b </p><p>c</p>"
    );
    assert!(differs(&normalise("<p>a</p>"), &normalise("<p>\n a\n</p>")).is_some());
    let report = differs("<p>one</p>", "<p>two</p>").unwrap();
    assert!(report.contains("one") && report.contains("two"), "{report}");
}
