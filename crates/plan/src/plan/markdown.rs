//! A plan as a pull-request comment: the summary, then the changes as a `diff` block
//! (GitHub colours `+` and `-` lines), kept under the comment size limit by summarising
//! the changes that do not fit. Pure; bodies in the plan are already masked.

use super::render::{
    bounded_names, change_line, drift_line, effective_line, extended_by_line, family_line,
    field_name, summary_line, unchanged_drift, unmanaged_counts, unmanaged_lists,
};
use super::{Action, Change, Plan, Planned, SiteEffect};

/// GitHub's limit on the body of a comment, in characters.
pub const COMMENT_LIMIT: usize = 65_536;

/// The first line, for a workflow that updates its earlier comment instead of adding one.
pub const MARKER: &str = "<!-- siteops-plan -->";

/// Room kept for the closing fence, the "not shown" line and the notes' tail.
const RESERVE: usize = 600;

/// At most this many notes are listed.
const MAX_NOTES: usize = 20;

/// The comment, at most `limit` characters (use [`COMMENT_LIMIT`]).
pub fn markdown(plan: &Plan, limit: usize) -> String {
    let mut head = format!(
        "{MARKER}\n### siteops plan\n\n**{}**\n",
        summary_line(&plan.summary)
    );
    if let Some(counts) = unmanaged_counts(&plan.unmanaged) {
        head.push_str(&format!(
            "\nLive but not in the repository: {counts} (`siteops plan --prune` shows them as deletions; apply leaves them as they are).\n\n"
        ));
        for (_, many, names) in unmanaged_lists(&plan.unmanaged) {
            let names = bounded_names(names, escape_inline);
            head.push_str(&format!("- {many}: {names}\n"));
        }
    }
    if let Some(line) = family_line(plan) {
        head.push_str(&format!("\n{line}\n"));
    }
    let drifted: Vec<&Planned> = unchanged_drift(plan).collect();
    if !drifted.is_empty() {
        head.push('\n');
        for resource in drifted.iter().take(MAX_NOTES) {
            let line = drift_line(resource).unwrap_or_default();
            let text = format!("{}: {line}", resource.address);
            head.push_str(&format!("> **drift** {}\n", escape_inline(&text)));
        }
        if drifted.len() > MAX_NOTES {
            let more = drifted.len() - MAX_NOTES;
            head.push_str(&format!("> … and {more} more documents changed\n"));
        }
    }
    if !plan.notes.is_empty() {
        head.push('\n');
        for note in plan.notes.iter().take(MAX_NOTES) {
            head.push_str(&format!("> {}\n", escape_inline(note)));
        }
        if plan.notes.len() > MAX_NOTES {
            head.push_str(&format!(
                "> … and {} more notes\n",
                plan.notes.len() - MAX_NOTES
            ));
        }
    }
    if !plan.has_changes() {
        return head;
    }
    let budget = limit.saturating_sub(RESERVE);
    let mut used = head.chars().count();
    let mut blocks = Vec::new();
    // Each change, then each site its change reaches: a block each, so that a profile
    // that reaches many sites does not crowd the other changes out whole.
    let changes: Vec<String> = (plan.changes())
        .flat_map(|resource| {
            let effects = resource.effective.iter().map(effect_block);
            std::iter::once(block(resource)).chain(effects)
        })
        .collect();
    for block in &changes {
        let size = block.chars().count();
        if used + size > budget {
            break;
        }
        used += size;
        blocks.push(block.clone());
    }
    let body: String = blocks.concat();
    let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
    let mut out = head;
    out.push_str(&format!("\n{fence}diff\n{body}{fence}\n"));
    let omitted = changes.len() - blocks.len();
    if omitted > 0 {
        out.push_str(&format!(
            "\n_… and {omitted} more changes not shown, to stay within the comment size limit: run `siteops plan` for the full plan._\n"
        ));
    }
    out
}

/// One change: its line, and for an update the old and new value of each field.
fn block(resource: &Planned) -> String {
    let sign = match resource.action {
        Action::Create => '+',
        Action::Update => '!',
        Action::Delete => '-',
        Action::NoOp => ' ',
    };
    let word = match resource.action {
        Action::Create => "create",
        Action::Update => "update",
        Action::Delete => "delete",
        Action::NoOp => "no-op",
    };
    let mut out = format!("{sign} {word:<7} {}", resource.address);
    if let Some(reason) = &resource.reason {
        out.push_str(&format!("  ({reason})"));
    }
    out.push('\n');
    if let Some(line) = extended_by_line(resource) {
        out.push_str(&format!("        {line}\n"));
    }
    if let Some(line) = drift_line(resource) {
        out.push_str(&format!("!       {line}\n"));
    }
    if resource.action == Action::Update {
        out.push_str(&change_lines(&resource.changes, "     "));
    }
    if let Some(line) = effective_line(resource) {
        out.push_str(&format!("        {line}\n"));
    }
    out
}

/// A site a profile's change reaches: its name, and the old and new value of each field
/// of its effective configuration.
fn effect_block(effect: &SiteEffect) -> String {
    let mut out = format!("          {}\n", effect.site);
    out.push_str(&change_lines(&effect.changes, "         "));
    out
}

/// Each change as `-` and `+` lines (`!` for a value that changed unseen), indented by
/// `indent` after the sign.
fn change_lines(changes: &[Change], indent: &str) -> String {
    let mut out = String::new();
    for change in changes {
        match (&change.before, &change.after) {
            (Some(before), Some(after)) if before != after => {
                let field = field_name(&change.path);
                out.push_str(&format!("-{indent}{field}: {before}\n"));
                out.push_str(&format!("+{indent}{field}: {after}\n"));
            }
            _ => {
                // `+ field: value`, `- field: value`, `~ field: … (value changed)`.
                let line = change_line(change);
                let (sign, rest) = line.split_at(1);
                let sign = if sign == "~" { "!" } else { sign };
                out.push_str(&format!("{sign}{indent}{}\n", rest.trim_start()));
            }
        }
    }
    out
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// Text for a Markdown line: characters that would start markup are escaped.
fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
