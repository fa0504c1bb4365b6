//! An apply report as text: a summary line, and after a failure a table of every change
//! with what became of it. Pure.

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
        counts.skipped
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
    }
}
