//! A line diff in unified style (`@@ -a,b +c,d @@`, three lines of context), from a
//! longest common subsequence. Pure.
//!
//! The common prefix and suffix are taken off first, so the quadratic table covers only
//! the changed middle; a middle too large for it (over [`TABLE_LIMIT`] cells) is shown as
//! removed, then added, which is still a correct diff.

/// Largest LCS table (lines removed × lines added) computed.
pub const TABLE_LIMIT: usize = 4_000_000;

/// Lines of context around each change.
const CONTEXT: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// The edit script from `old` to `new`, line by line.
pub fn lines<'a>(old: &'a str, new: &'a str) -> Vec<Line<'a>> {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut script: Vec<Line> = old[..prefix].iter().map(|l| Line::Same(l)).collect();
    script.extend(middle(a, b));
    script.extend(old[old.len() - suffix..].iter().map(|l| Line::Same(l)));
    script
}

fn middle<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Line<'a>> {
    if a.is_empty() || b.is_empty() || a.len().saturating_mul(b.len()) > TABLE_LIMIT {
        let mut script: Vec<Line> = a.iter().map(|l| Line::Removed(l)).collect();
        script.extend(b.iter().map(|l| Line::Added(l)));
        return script;
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat table.
    let width = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * width + j] = if a[i] == b[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut script = Vec::with_capacity(a.len() + b.len());
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            script.push(Line::Same(a[i]));
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * width + j] >= lcs[i * width + j + 1] {
            script.push(Line::Removed(a[i]));
            i += 1;
        } else {
            script.push(Line::Added(b[j]));
            j += 1;
        }
    }
    script.extend(a[i..].iter().map(|l| Line::Removed(l)));
    script.extend(b[j..].iter().map(|l| Line::Added(l)));
    script
}

/// The unified diff of `old` and `new` under `---`/`+++` headers; empty when the texts
/// have the same lines.
pub fn unified(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    let script = lines(old, new);
    let changed: Vec<usize> = script
        .iter()
        .enumerate()
        .filter(|(_, line)| !matches!(line, Line::Same(_)))
        .map(|(i, _)| i)
        .collect();
    if changed.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    // Hunks: runs of changes closer than two contexts apart, with their context.
    let mut start = 0;
    while start < changed.len() {
        let mut end = start;
        while end + 1 < changed.len() && changed[end + 1] - changed[end] <= 2 * CONTEXT + 1 {
            end += 1;
        }
        let from = changed[start].saturating_sub(CONTEXT);
        let to = (changed[end] + CONTEXT + 1).min(script.len());
        hunk(&mut out, &script, from, to);
        start = end + 1;
    }
    out
}

fn hunk(out: &mut String, script: &[Line], from: usize, to: usize) {
    // Line numbers (1-based) where the hunk starts in each text.
    let (mut old_line, mut new_line) = (1, 1);
    for line in &script[..from] {
        match line {
            Line::Same(_) => {
                old_line += 1;
                new_line += 1;
            }
            Line::Removed(_) => old_line += 1,
            Line::Added(_) => new_line += 1,
        }
    }
    let part = &script[from..to];
    let old_count = part.iter().filter(|l| !matches!(l, Line::Added(_))).count();
    let new_count = part
        .iter()
        .filter(|l| !matches!(l, Line::Removed(_)))
        .count();
    // As diff -u: an empty range starts at the line before it.
    let range = |start: usize, count: usize| {
        let start = if count == 0 { start - 1 } else { start };
        if count == 1 {
            format!("{start}")
        } else {
            format!("{start},{count}")
        }
    };
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        range(old_line, old_count),
        range(new_line, new_count)
    ));
    for line in part {
        let (mark, text) = match line {
            Line::Same(text) => (' ', text),
            Line::Removed(text) => ('-', text),
            Line::Added(text) => ('+', text),
        };
        out.push(mark);
        out.push_str(text);
        out.push('\n');
    }
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

    #[test]
    fn the_script_is_a_longest_common_subsequence() {
        let script = lines("a\nb\nc\nd\ne", "b\nx\nd\ne\ny");
        assert_eq!(
            script,
            [
                Line::Removed("a"),
                Line::Same("b"),
                Line::Removed("c"),
                Line::Added("x"),
                Line::Same("d"),
                Line::Same("e"),
                Line::Added("y"),
            ]
        );
    }
}
