//! Rendered outputs against stored snapshots, and the report `siteops test` prints. Pure.

use std::collections::BTreeMap;

use super::diff;
use super::output::Output;
use super::snapshot::{self, Snapshot};
use super::{GOLDEN_DIR, SNAPSHOTS_DIR};

/// What became of one rendered output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Matches,
    /// The stored snapshot differs; the unified diff from it to the rendered output.
    Differs {
        diff: String,
    },
    /// No snapshot is stored for it yet.
    New,
}

#[derive(Debug, Clone)]
pub struct Checked {
    pub output: Output,
    pub verdict: Verdict,
}

/// One case compared.
#[derive(Debug, Clone)]
pub struct CaseCheck {
    pub case: String,
    /// `org/site branch`.
    pub target: String,
    pub pages: usize,
    pub outputs: Vec<Checked>,
    /// Stored snapshots that no page of the case renders any more.
    pub stale: Vec<String>,
}

impl CaseCheck {
    /// Snapshots that differ, are new or are stale.
    pub fn differences(&self) -> usize {
        self.outputs
            .iter()
            .filter(|c| c.verdict != Verdict::Matches)
            .count()
            + self.stale.len()
    }

    fn path_of(&self, name: &str) -> String {
        format!(
            "{GOLDEN_DIR}/{}/{SNAPSHOTS_DIR}/{}",
            self.case,
            snapshot::file_name(name)
        )
    }
}

/// Compares a case's rendered `outputs` with its `stored` snapshots.
pub fn compare(
    case: &str,
    target: String,
    pages: usize,
    outputs: Vec<Output>,
    stored: &BTreeMap<String, Snapshot>,
) -> CaseCheck {
    let stale = stored
        .keys()
        .filter(|name| !outputs.iter().any(|o| &o.name == *name))
        .cloned()
        .collect();
    let mut check = CaseCheck {
        case: case.to_string(),
        target,
        pages,
        outputs: Vec::new(),
        stale,
    };
    for output in outputs {
        let verdict = match stored.get(&output.name) {
            None => Verdict::New,
            Some(snapshot) if snapshot::matches(&snapshot.contents, &output.text) => {
                Verdict::Matches
            }
            Some(snapshot) => Verdict::Differs {
                diff: diff::unified(
                    &format!("{} (stored)", check.path_of(&output.name)),
                    &format!("{} (rendered)", output.expression),
                    &snapshot::normalize(&snapshot.contents),
                    &snapshot::normalize(&output.text),
                ),
            },
        };
        check.outputs.push(Checked { output, verdict });
    }
    check
}

/// The report: one line per case, each difference (with its diff), and the summary.
/// `updated`: the differences were written (`--update`), so they are listed, not diffed.
pub fn report(checks: &[CaseCheck], updated: bool) -> String {
    let mut out: String = checks.iter().map(|c| report_case(c, updated)).collect();
    out.push('\n');
    out.push_str(&summary(checks, updated));
    out.push('\n');
    out
}

/// One case's part of the report: its line, then each difference.
pub fn report_case(check: &CaseCheck, updated: bool) -> String {
    let mut out = String::new();
    {
        let snapshots = check.outputs.len();
        let differences = check.differences();
        let state = match (differences, updated) {
            (0, _) => "all match".to_string(),
            (n, true) => format!("{n} updated"),
            (n, false) => format!("{n} differ"),
        };
        out.push_str(&format!(
            "{} ({}): {} {}, {snapshots} snapshots, {state}\n",
            check.case,
            check.target,
            check.pages,
            plural(check.pages, "page", "pages"),
        ));
        for checked in &check.outputs {
            let path = check.path_of(&checked.output.name);
            match (&checked.verdict, updated) {
                (Verdict::Matches, _) => {}
                (Verdict::New, true) => out.push_str(&format!("  written  {path}\n")),
                (Verdict::Differs { .. }, true) => out.push_str(&format!("  updated  {path}\n")),
                (Verdict::New, false) => out.push_str(&format!(
                    "  new      {path}: {} of {} has no stored snapshot\n",
                    checked.output.kind.extension(),
                    checked.output.page
                )),
                (Verdict::Differs { diff }, false) => {
                    out.push_str(&format!(
                        "  differs  {path}: {} of {}\n\n",
                        checked.output.kind.extension(),
                        checked.output.page
                    ));
                    out.push_str(diff);
                    out.push('\n');
                }
            }
        }
        for name in &check.stale {
            let path = check.path_of(name);
            out.push_str(&if updated {
                format!("  removed  {path}\n")
            } else {
                format!("  stale    {path}: no page of the case renders it\n")
            });
        }
    }
    out
}

/// `N cases, M pages: all match`, or how many snapshots differ (or were updated).
pub fn summary(checks: &[CaseCheck], updated: bool) -> String {
    let cases = checks.len();
    let pages: usize = checks.iter().map(|c| c.pages).sum();
    let snapshots: usize = checks.iter().map(|c| c.outputs.len()).sum();
    let differences: usize = checks.iter().map(CaseCheck::differences).sum();
    let head = format!(
        "{cases} {}, {pages} {}",
        plural(cases, "case", "cases"),
        plural(pages, "page", "pages")
    );
    match (differences, updated) {
        (0, _) => format!("{head}: all match"),
        (n, true) => format!("{head}: {n} of {snapshots} snapshots updated"),
        (n, false) => format!(
            "{head}: {n} of {snapshots} snapshots differ\nrun `siteops test --update` to accept the rendered outputs, then review the changed files (git diff)"
        ),
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::output::OutputKind;

    fn output(name: &str, text: &str) -> Output {
        Output {
            page: "/a".into(),
            kind: OutputKind::Html,
            name: name.into(),
            expression: "preview host GET /a".into(),
            text: text.into(),
        }
    }

    fn stored(pairs: &[(&str, &str)]) -> BTreeMap<String, Snapshot> {
        pairs
            .iter()
            .map(|(name, contents)| {
                (
                    name.to_string(),
                    Snapshot {
                        source: None,
                        expression: None,
                        contents: contents.to_string(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn verdicts_and_stale_snapshots() {
        let check = compare(
            "c",
            "acme/web main".into(),
            1,
            vec![
                output("a.html", "x\ny\n"),
                output("a.md", "m"),
                output("a.trace", "t"),
            ],
            &stored(&[("a.html", "x\nz"), ("a.md", "m"), ("old.md", "o")]),
        );
        let verdicts: Vec<&Verdict> = check.outputs.iter().map(|c| &c.verdict).collect();
        assert_eq!(
            verdicts,
            [
                &Verdict::Differs {
                    diff: "--- golden/c/snapshots/a.html.snap (stored)\n+++ preview host GET /a (rendered)\n@@ -1,2 +1,2 @@\n x\n-z\n+y\n".into()
                },
                &Verdict::Matches,
                &Verdict::New
            ]
        );
        assert_eq!(check.stale, ["old.md"]);
        assert_eq!(check.differences(), 3);
        let text = report(std::slice::from_ref(&check), false);
        assert!(text.starts_with("c (acme/web main): 1 page, 3 snapshots, 3 differ\n  differs  golden/c/snapshots/a.html.snap: html of /a\n\n--- "), "{text}");
        assert!(text.contains("  new      golden/c/snapshots/a.trace.snap: html of /a has no stored snapshot\n  stale    golden/c/snapshots/old.md.snap: no page of the case renders it\n"), "{text}");
        assert!(text.ends_with("\n1 case, 1 page: 3 of 3 snapshots differ\nrun `siteops test --update` to accept the rendered outputs, then review the changed files (git diff)\n"), "{text}");
        let text = report(&[check], true);
        assert!(text.contains("  updated  golden/c/snapshots/a.html.snap\n  written  golden/c/snapshots/a.trace.snap\n  removed  golden/c/snapshots/old.md.snap\n"), "{text}");
        assert!(
            text.ends_with("\n1 case, 1 page: 3 of 3 snapshots updated\n"),
            "{text}"
        );
    }

    #[test]
    fn all_match() {
        let check = compare(
            "c",
            "o/s main".into(),
            2,
            vec![output("a.html", "x")],
            &stored(&[("a.html", "x\n")]),
        );
        assert_eq!(check.differences(), 0);
        assert_eq!(
            summary(&[check.clone(), check], false),
            "2 cases, 4 pages: all match"
        );
    }
}
