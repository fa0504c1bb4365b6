//! The unified diff (`@@ -a,b +c,d @@`, three lines of context) of a stored snapshot and
//! the rendered output, through `similar` (the diff library insta already brings). Pure.
//!
//! Lines are compared without their line endings, so a missing final newline is not a
//! difference: snapshots are normalized before they get here.

use similar::TextDiff;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The unified diff of `old` and `new` under `---`/`+++` headers; empty when the texts
/// have the same lines.
pub fn unified(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_slices(&old, &new);
    if diff
        .ops()
        .iter()
        .all(|op| matches!(op, similar::DiffOp::Equal { .. }))
    {
        return String::new();
    }
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    for hunk in diff.unified_diff().context_radius(CONTEXT).iter_hunks() {
        out.push_str(&format!("{}\n", hunk.header()));
        for change in hunk.iter_changes() {
            out.push_str(&format!("{}{}\n", change.tag(), change.value()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a", "b", "x\ny\n", "x\ny"), "");
        assert_eq!(unified("a", "b", "", ""), "");
    }

    #[test]
    fn one_changed_line_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        assert_eq!(
            unified("old", "new", old, new),
            "--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn distant_changes_make_two_hunks_and_close_ones_one() {
        let text = |changed: &[u32]| -> String {
            (1..=20)
                .map(|n| match changed.contains(&n) {
                    true => format!("changed {n}\n"),
                    false => format!("{n}\n"),
                })
                .collect()
        };
        let old = text(&[]);
        let diff = unified("o", "n", &old, &text(&[2, 19]));
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
        assert!(
            diff.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+changed 2\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n"),
            "{diff}"
        );
        // Changes seven lines apart share their context: one hunk.
        assert_eq!(
            unified("o", "n", &old, &text(&[5, 12]))
                .matches("@@ -")
                .count(),
            1
        );
        assert_eq!(
            unified("o", "n", &old, &text(&[5, 13]))
                .matches("@@ -")
                .count(),
            2
        );
    }

    #[test]
    fn insertions_deletions_and_empty_sides() {
        assert_eq!(
            unified("o", "n", "", "a\nb\n"),
            "--- o\n+++ n\n@@ -0,0 +1,2 @@\n+a\n+b\n"
        );
        assert_eq!(
            unified("o", "n", "a\nb\nc\n", "a\nc\n"),
            "--- o\n+++ n\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"
        );
    }
}
