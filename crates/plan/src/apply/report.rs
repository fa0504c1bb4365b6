//! An apply report as text: a summary line, after a failure a table of every change
//! with what became of it, and after an interruption what was applied and what not. Pure.

use super::{ApplyReport, Outcome, Step};
use crate::plan::render::action_style;

/// `Apply complete: 2 created, 1 updated, 0 deleted.`, or what failed.
pub fn summary(report: &ApplyReport) -> String {
    let counts = report.counts();
    if report.succeeded() {
        return format!(
            "Apply complete: {} created, {} updated, {} deleted.",
            counts.created, counts.updated, counts.deleted
        );
    }
    let done = counts.created + counts.updated + counts.deleted;
    format!(
        "Apply failed: {done} of {} changes made, {} failed, {} not attempted. Run apply again once the cause is fixed: it picks up where this one stopped.",
        report.steps.len(),
        counts.failed,
        counts.skipped + counts.interrupted
    )
}

/// One row per change: result, action, resource, and why for those that did not succeed.
pub fn table(report: &ApplyReport) -> String {
    let rows: Vec<[String; 4]> = report.steps.iter().map(row).collect();
    let header = ["RESULT", "ACTION", "RESOURCE", "DETAIL"].map(str::to_string);
    let width = |column: usize| {
        rows.iter()
            .chain([&header])
            .map(|r| r[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths = [width(0), width(1), width(2)];
    let mut out = String::new();
    for row in [&header].into_iter().chain(&rows) {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn row(step: &Step) -> [String; 4] {
    let (_, action, _) = action_style(step.action);
    let (result, detail) = match &step.outcome {
        Outcome::Done => ("done", ""),
        Outcome::Failed(message) => ("FAILED", message.as_str()),
        Outcome::Skipped(why) => ("skipped", why.as_str()),
        Outcome::Interrupted => ("not started", "interrupted"),
    };
    [
        result.to_string(),
        action.to_string(),
        step.address.clone(),
        detail.to_string(),
    ]
}

/// A finished change as one plain line, for logs (CI) where no progress bar is drawn.
pub fn line(step: &Step) -> String {
    let (_, action, _) = action_style(step.action);
    match &step.outcome {
        Outcome::Done => format!("{action:<7} {}: done", step.address),
        Outcome::Failed(message) => format!("{action:<7} {}: FAILED: {message}", step.address),
        Outcome::Skipped(why) => format!("{action:<7} {}: skipped ({why})", step.address),
        Outcome::Interrupted => format!("{action:<7} {}: not started (interrupted)", step.address),
    }
}

/// What an interrupted apply made and what it did not, each change by its address as the
/// plan shows it, and how to finish:
///
/// ```text
/// interrupted: 2 of 5 changes applied, 3 not applied
/// applied:
///   create  acme/sites/blog.json
/// not applied:
///   create  acme/sites/website.json (not started)
/// ```
pub fn interrupted(report: &ApplyReport) -> String {
    let (applied, not): (Vec<&Step>, Vec<&Step>) =
        (report.steps.iter()).partition(|step| step.outcome == Outcome::Done);
    let mut out = format!(
        "interrupted: {} of {} changes applied, {} not applied\n",
        applied.len(),
        report.steps.len(),
        not.len()
    );
    for (heading, steps) in [("applied", &applied), ("not applied", &not)] {
        if steps.is_empty() {
            continue;
        }
        out.push_str(&format!("{heading}:\n"));
        for step in steps {
            let (_, action, _) = action_style(step.action);
            let why = match &step.outcome {
                Outcome::Done => String::new(),
                Outcome::Failed(message) => format!(" (FAILED: {message})"),
                Outcome::Skipped(why) => format!(" (skipped: {why})"),
                Outcome::Interrupted => " (not started)".to_string(),
            };
            out.push_str(&format!("  {action:<7} {}{why}\n", step.address));
        }
    }
    out.push_str(if !not.is_empty() {
        "Run `siteops plan` to see what remains, and `siteops apply` again to finish: it picks up where this one stopped.\n"
    } else {
        "Every change was applied.\n"
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Action;

    fn step(address: &str, action: Action, outcome: Outcome) -> Step {
        Step {
            address: address.into(),
            action,
            outcome,
        }
    }

    #[test]
    fn an_interruption_lists_what_was_applied_and_what_not() {
        let report = ApplyReport {
            steps: vec![
                step("acme.json", Action::Update, Outcome::Done),
                step("acme/sites/blog.json", Action::Create, Outcome::Done),
                step(
                    "acme/sites/shop.json",
                    Action::Create,
                    Outcome::Failed("502 Bad Gateway".into()),
                ),
                step(
                    "acme/sites/shop/public.json",
                    Action::Create,
                    Outcome::Skipped("needs acme/sites/shop.json".into()),
                ),
                step("acme/sites/old.json", Action::Delete, Outcome::Interrupted),
            ],
            interrupted: true,
        };
        assert_eq!(
            interrupted(&report),
            "interrupted: 2 of 5 changes applied, 3 not applied
applied:
  update  acme.json
  create  acme/sites/blog.json
not applied:
  create  acme/sites/shop.json (FAILED: 502 Bad Gateway)
  create  acme/sites/shop/public.json (skipped: needs acme/sites/shop.json)
  delete  acme/sites/old.json (not started)
Run `siteops plan` to see what remains, and `siteops apply` again to finish: it picks up where this one stopped.
"
        );
        assert_eq!(report.counts().interrupted, 1);
        assert_eq!(
            line(&report.steps[4]),
            "delete  acme/sites/old.json: not started (interrupted)"
        );
    }

    #[test]
    fn an_interruption_after_the_last_change_started_says_all_was_applied() {
        let report = ApplyReport {
            steps: vec![step("acme.json", Action::Update, Outcome::Done)],
            interrupted: true,
        };
        assert_eq!(
            interrupted(&report),
            "interrupted: 1 of 1 changes applied, 0 not applied\napplied:\n  update  acme.json\nEvery change was applied.\n"
        );
    }
}
