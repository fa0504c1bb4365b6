//! Plans as text: the human form (one line per change, field-level diffs, a summary
//! line) and the versioned JSON document. Pure functions of the [`Plan`]; bodies in it
//! are already masked.

use serde_json::Value;

use super::{Action, Change, Plan, Planned, Summary, Unmanaged};
use siteops_config::compile::REDACTED;

const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RED: &str = "\x1b[31m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// `Plan: 2 to create, 1 to update, 0 to delete.`, or `No changes.`; with `; 100 sites'
/// effective configuration changes` before the stop when a profile's change reaches sites.
pub fn summary_line(summary: &Summary) -> String {
    if summary.changes() == 0 && summary.effective == 0 {
        return "No changes.".to_string();
    }
    let effective = match summary.effective {
        0 => String::new(),
        1 => "; 1 site's effective configuration changes".to_string(),
        n => format!("; {n} sites' effective configuration changes"),
    };
    format!(
        "Plan: {} to create, {} to update, {} to delete{effective}.",
        summary.create, summary.update, summary.delete
    )
}

/// At most this many names of each kind of unmanaged resource are listed.
pub const MAX_UNMANAGED_NAMES: usize = 10;

/// [`summary_line`], then what is live but not in the repository, when anything is:
/// `No changes. Live but not in the repository: 5 sites, 1 profile (`siteops plan
/// --prune` shows them as deletions).`
pub fn plan_summary(plan: &Plan) -> String {
    let mut line = summary_line(&plan.summary);
    if let Some(counts) = unmanaged_counts(&plan.unmanaged) {
        line.push_str(&format!(
            " Live but not in the repository: {counts} (`siteops plan --prune` shows them as deletions)."
        ));
    }
    line
}

/// `5 sites, 1 profile, 2 documents`: how many of each are live but not in the
/// repository; `None` when nothing is.
pub fn unmanaged_counts(unmanaged: &Unmanaged) -> Option<String> {
    let counts: Vec<String> = unmanaged_lists(unmanaged)
        .into_iter()
        .map(|(one, many, names)| {
            let word = if names.len() == 1 { one } else { many };
            format!("{} {word}", names.len())
        })
        .collect();
    (!counts.is_empty()).then(|| counts.join(", "))
}

/// Each kind that has names: its word (one, many) and the names.
pub fn unmanaged_lists(unmanaged: &Unmanaged) -> Vec<(&'static str, &'static str, &[String])> {
    [
        ("site", "sites", unmanaged.sites.as_slice()),
        ("profile", "profiles", unmanaged.profiles.as_slice()),
        ("document", "documents", unmanaged.documents.as_slice()),
    ]
    .into_iter()
    .filter(|(_, _, names)| !names.is_empty())
    .collect()
}

/// The first [`MAX_UNMANAGED_NAMES`] names, `, `-joined, with `… and 3 more` after.
pub fn bounded_names(names: &[String], show: impl Fn(&str) -> String) -> String {
    let mut text = (names.iter().take(MAX_UNMANAGED_NAMES))
        .map(|name| show(name))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_UNMANAGED_NAMES {
        text.push_str(&format!(
            " … and {} more",
            names.len() - MAX_UNMANAGED_NAMES
        ));
    }
    text
}

/// The human form: each change, its field-level diff for an update, notes, the summary.
/// `styled` adds ANSI colours (for a terminal without NO_COLOR).
pub fn human(plan: &Plan, styled: bool) -> String {
    let paint = |colour: &str, text: &str| {
        if styled {
            format!("{colour}{text}{RESET}")
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    for resource in plan.changes() {
        let (sign, word, colour) = action_style(resource.action);
        out.push_str(&paint(colour, &format!("{sign} {word:<7}")));
        out.push(' ');
        out.push_str(&resource.address);
        if let Some(reason) = &resource.reason {
            out.push_str(&format!("  ({reason})"));
        }
        out.push('\n');
        if let Some(line) = extended_by_line(resource) {
            out.push_str("      ");
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(line) = drift_line(resource) {
            out.push_str("      ");
            out.push_str(&paint(YELLOW, &line));
            out.push('\n');
        }
        if resource.action == Action::Update {
            for change in &resource.changes {
                out.push_str("      ");
                out.push_str(&paint(change_colour(change), &change_line(change)));
                out.push('\n');
            }
        }
        if let Some(line) = effective_line(resource) {
            out.push_str(&format!("      {line}\n"));
        }
        for effect in &resource.effective {
            out.push_str(&format!("        {}\n", effect.site));
            for change in &effect.changes {
                out.push_str("          ");
                out.push_str(&paint(change_colour(change), &change_line(change)));
                out.push('\n');
            }
        }
    }
    if plan.has_changes() {
        out.push('\n');
    }
    for resource in unchanged_drift(plan) {
        let line = drift_line(resource).unwrap_or_default();
        out.push_str(&format!("drift: {}: {line}\n", resource.address));
    }
    for note in &plan.notes {
        out.push_str(&format!("note: {note}\n"));
    }
    for (one, many, names) in unmanaged_lists(&plan.unmanaged) {
        let word = if names.len() == 1 { one } else { many };
        let names = bounded_names(names, str::to_string);
        out.push_str(&format!("not in the repository: {word}: {names}\n"));
    }
    if let Some(line) = family_line(plan) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&paint(BOLD, &plan_summary(plan)));
    out.push('\n');
    out
}

/// What apply previews again once its changes are made ([`super::repreview`]): one line
/// per site, `Apply will re-preview /blog/*, /en/about on main of acme/website.`; empty
/// when nothing.
pub fn repreview_lines(repreviews: &[super::repreview::Repreview]) -> String {
    let mut out = String::new();
    for repreview in repreviews {
        out.push_str(&format!(
            "Apply will re-preview {} on {} of {}.\n",
            repreview.paths.join(", "),
            repreview.branch,
            repreview.site_id()
        ));
    }
    out
}

/// `` API: older path family (`config/<org>/sites/<site>.json`) ``: which of the
/// administration API's path families the live state was read in, when the plan says.
pub fn family_line(plan: &Plan) -> Option<String> {
    let family = plan.path_family.as_deref()?;
    let example = match family {
        "newer" => "<org>/sites/<site>/config.json",
        _ => "config/<org>/sites/<site>.json",
    };
    Some(format!("API: {family} path family (`{example}`)"))
}

/// Of a profile that changes: `extended by acme/blog, acme/campaigns`, the sites whose
/// effective configuration changes with it.
pub fn extended_by_line(resource: &Planned) -> Option<String> {
    (!resource.extended_by.is_empty())
        .then(|| format!("extended by {}", resource.extended_by.join(", ")))
}

/// Of a profile whose change reaches sites: `effective configuration changes on 3 sites
/// (not written; 1 unaffected):`, the line above their diffs.
pub fn effective_line(resource: &Planned) -> Option<String> {
    let (sites, unaffected) = (resource.effective.len(), resource.unaffected);
    if sites == 0 && unaffected == 0 {
        return None;
    }
    let plural = |n: usize| if n == 1 { "site" } else { "sites" };
    let unaffected = match unaffected {
        0 => String::new(),
        n => format!("; {n} unaffected"),
    };
    Some(format!(
        "effective configuration changes on {sites} {} (not written{unaffected}){}",
        plural(sites),
        if sites == 0 { "" } else { ":" }
    ))
}

/// Of a document whose newest version apply did not write: `changed on the platform since
/// the last apply: version 3 at 2026-11-28T10:00:00Z by ops@acme.example`.
pub fn drift_line(resource: &Planned) -> Option<String> {
    let version = resource.drift.as_ref()?;
    Some(format!(
        "changed on the platform since the last apply: {}",
        crate::versions::describe(version)
    ))
}

/// The documents that changed on the platform since the last apply and that the plan
/// leaves as they are (those it changes say so in their own lines).
pub fn unchanged_drift(plan: &Plan) -> impl Iterator<Item = &Planned> {
    (plan.resources.iter()).filter(|r| r.action == Action::NoOp && r.drift.is_some())
}

/// The sign, word and colour of an action.
pub fn action_style(action: Action) -> (char, &'static str, &'static str) {
    match action {
        Action::Create => ('+', "create", GREEN),
        Action::Update => ('~', "update", YELLOW),
        Action::Delete => ('-', "delete", RED),
        Action::NoOp => (' ', "no-op", ""),
    }
}

/// Green for an added field, red for a removed one, yellow for a changed one.
fn change_colour(change: &Change) -> &'static str {
    match (&change.before, &change.after) {
        (None, _) => GREEN,
        (_, None) => RED,
        _ => YELLOW,
    }
}

/// `~ content.source.url: "a" → "b"`, `+ field: value`, `- field: value`.
pub fn change_line(change: &Change) -> String {
    let field = field_name(&change.path);
    match (&change.before, &change.after) {
        (Some(before), Some(after)) if before == after => {
            format!("~ {field}: {} (value changed)", show(after))
        }
        (Some(before), Some(after)) => format!("~ {field}: {} → {}", show(before), show(after)),
        (None, Some(after)) => format!("+ {field}: {}", show(after)),
        (Some(before), None) => format!("- {field}: {}", show(before)),
        (None, None) => format!("~ {field}"),
    }
}

/// A JSON pointer as a reader writes a field: `content.source.url`, `[3].templateApiKey`.
pub fn field_name(pointer: &str) -> String {
    let mut out = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.parse::<usize>().is_ok() {
            out.push_str(&format!("[{segment}]"));
        } else if segment.is_empty() || segment.contains(['.', ' ', '[', ']', '"']) {
            out.push_str(&format!("[{}]", Value::String(segment)));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        }
    }
    if out.is_empty() { "(body)".into() } else { out }
}

/// A value as compact JSON; a masked value as `(sensitive)`, unquoted.
fn show(value: &Value) -> String {
    match value {
        Value::String(s) if s == REDACTED => REDACTED.to_string(),
        other => other.to_string(),
    }
}

/// The versioned JSON document (what `--out` saves), pretty, with a final newline.
pub fn json(plan: &Plan) -> String {
    // Straight from the struct, so `version` comes first; bodies' keys are sorted.
    let mut text = serde_json::to_string_pretty(plan).expect("plans serialize");
    text.push('\n');
    text
}

/// A resource's one-line form, as the human output and the apply report print it.
pub fn resource_line(resource: &Planned) -> String {
    let (sign, word, _) = action_style(resource.action);
    format!("{sign} {word:<7} {}", resource.address)
}
