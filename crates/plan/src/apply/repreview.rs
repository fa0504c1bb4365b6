//! Previews again what an apply made stale ([`crate::plan::repreview`]): one bulk preview
//! job per site (`POST preview/<org>/<site>/<branch>/*` with the paths), then its status
//! polled (`GET job/<org>/<site>/<branch>/preview/<name>`) until it stops or the deadline
//! passes. Every request goes through the [`Client`], so the rate limit, the concurrency
//! bound and 429's `retry-after` hold for these as for the changes; sites are asked for in
//! turn, and polls wait between them ([`RepreviewOptions::poll`], doubling to eight
//! times that), so a fleet's re-previews cost one request per site and a few polls each.
//!
//! The bulk preview is the older path family's route (`{admin_url}/preview/…`); a client
//! speaking the newer family reports each site skipped. Never prints.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};

use super::{ApplyReport, Outcome};
use crate::plan::repreview::{Repreview, affected};
use crate::plan::{Action, Plan};
use crate::remote::{Client, Location, PathFamily, Service};

/// How long to wait for the jobs, and how often to ask.
#[derive(Debug, Clone, Copy)]
pub struct RepreviewOptions {
    /// The latest a site's job is asked about, from when the re-previews start.
    pub deadline: Duration,
    /// The first wait between two asks of one job.
    pub poll: Duration,
    /// Sites whose jobs are followed at once.
    pub sites_at_once: usize,
}

impl Default for RepreviewOptions {
    fn default() -> Self {
        RepreviewOptions {
            deadline: Duration::from_secs(300),
            poll: Duration::from_secs(1),
            sites_at_once: 8,
        }
    }
}

/// What became of one site's re-preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepreviewReport {
    pub repreview: Repreview,
    /// The job's name, once the service started one.
    pub job: Option<String>,
    pub outcome: RepreviewOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RepreviewOutcome {
    /// The job stopped: pages previewed and failed (and why it stopped early, if it did).
    Stopped {
        previewed: usize,
        failed: usize,
        error: Option<String>,
    },
    /// Still running at the deadline: how far it got.
    Running { processed: usize, total: usize },
    /// No job: why.
    Failed(String),
}

/// The re-previews of the changes of `plan` that `report` says were made: a site whose
/// change failed or was skipped is not previewed for it.
pub fn applied(plan: &Plan, report: &ApplyReport) -> Vec<Repreview> {
    let done: std::collections::BTreeSet<&str> = (report.steps.iter())
        .filter(|step| step.outcome == Outcome::Done)
        .map(|step| step.address.as_str())
        .collect();
    let mut made = plan.clone();
    for resource in &mut made.resources {
        if !done.contains(resource.address.as_str()) {
            resource.action = Action::NoOp;
        }
    }
    affected(&made)
}

/// Starts and follows each site's job; reports in the order of `repreviews`.
pub async fn run(
    client: &Client,
    repreviews: &[Repreview],
    options: &RepreviewOptions,
) -> Vec<RepreviewReport> {
    let deadline = tokio::time::Instant::now() + options.deadline;
    futures_util::stream::iter(repreviews.iter().map(|r| one(client, r, options, deadline)))
        .buffered(options.sites_at_once.max(1))
        .collect()
        .await
}

async fn one(
    client: &Client,
    repreview: &Repreview,
    options: &RepreviewOptions,
    deadline: tokio::time::Instant,
) -> RepreviewReport {
    let report = |job: Option<String>, outcome| RepreviewReport {
        repreview: repreview.clone(),
        job,
        outcome,
    };
    if client.family() != PathFamily::Older {
        return report(
            None,
            RepreviewOutcome::Failed(
                "not asked: the bulk preview is a route of the older path family (--api-family older)"
                    .into(),
            ),
        );
    }
    let Repreview {
        org, site, branch, ..
    } = repreview;
    let start = Location {
        service: Service::Admin,
        path: format!("preview/{org}/{site}/{branch}/*"),
    };
    let body = json!({"paths": repreview.paths, "forceUpdate": true, "delete": false});
    let answer = match client.post_for_answer(&start, &body).await {
        Ok(answer) => answer,
        Err(error) => return report(None, RepreviewOutcome::Failed(error.to_string())),
    };
    let Some(name) = answer
        .pointer("/job/name")
        .and_then(Value::as_str)
        .filter(|name| is_job_name(name))
    else {
        return report(
            None,
            RepreviewOutcome::Failed(format!(
                "{}: the answer names no job",
                client.url(&start).unwrap_or_default()
            )),
        );
    };
    let status = Location {
        service: Service::Admin,
        path: format!("job/{org}/{site}/{branch}/preview/{name}"),
    };
    let mut wait = options.poll;
    let mut last = answer.get("job").cloned().unwrap_or(Value::Null);
    loop {
        if let Some(outcome) = stopped(&last) {
            return report(Some(name.to_string()), outcome);
        }
        if tokio::time::Instant::now() + wait > deadline {
            let count = |field: &str| {
                last.pointer(&format!("/progress/{field}"))
                    .and_then(Value::as_u64)
                    .unwrap_or(0) as usize
            };
            let outcome = RepreviewOutcome::Running {
                processed: count("processed"),
                total: count("total"),
            };
            return report(Some(name.to_string()), outcome);
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(options.poll * 8);
        match client.get(&status).await {
            Ok(Some(job)) => last = job,
            Ok(None) => {
                return report(
                    Some(name.to_string()),
                    RepreviewOutcome::Failed("the job is gone (404)".into()),
                );
            }
            Err(error) => {
                return report(
                    Some(name.to_string()),
                    RepreviewOutcome::Failed(error.to_string()),
                );
            }
        }
    }
}

/// A job record that says it stopped, as an outcome.
fn stopped(job: &Value) -> Option<RepreviewOutcome> {
    if job.get("state").and_then(Value::as_str) != Some("stopped") {
        return None;
    }
    let count = |field: &str| {
        job.pointer(&format!("/progress/{field}"))
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize
    };
    let failed = count("failed");
    Some(RepreviewOutcome::Stopped {
        previewed: count("processed").saturating_sub(failed),
        failed,
        error: job.get("error").and_then(Value::as_str).map(str::to_string),
    })
}

/// A job name the service may answer: letters, digits and `-`, which go into a path as
/// they are.
fn is_job_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 250
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// One line per site: `acme/website (main): 12 previewed, 1 failed`.
pub fn lines(reports: &[RepreviewReport]) -> String {
    let mut out = String::new();
    for report in reports {
        let r = &report.repreview;
        let head = format!("Re-preview of {} ({})", r.site_id(), r.branch);
        let line = match &report.outcome {
            RepreviewOutcome::Stopped {
                previewed,
                failed,
                error: None,
            } => format!("{head}: previewed {previewed}, failed {failed}."),
            RepreviewOutcome::Stopped {
                previewed,
                failed,
                error: Some(error),
            } => {
                format!("{head}: previewed {previewed}, failed {failed}; the job stopped: {error}")
            }
            RepreviewOutcome::Running { processed, total } => format!(
                "{head}: still running at the deadline, {processed} of {total} pages done (job {})",
                report.job.as_deref().unwrap_or("?")
            ),
            RepreviewOutcome::Failed(why) => format!("{head}: not done: {why}"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Whether every site's pages were all previewed.
pub fn all_previewed(reports: &[RepreviewReport]) -> bool {
    reports.iter().all(|r| {
        matches!(
            r.outcome,
            RepreviewOutcome::Stopped {
                failed: 0,
                error: None,
                ..
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_job_counts_its_pages() {
        let job =
            json!({"state": "stopped", "progress": {"total": 5, "processed": 5, "failed": 2}});
        assert_eq!(
            stopped(&job),
            Some(RepreviewOutcome::Stopped {
                previewed: 3,
                failed: 2,
                error: None
            })
        );
        assert_eq!(stopped(&json!({"state": "running"})), None);
        assert!(is_job_name("job-0000000000001-ab12"));
        assert!(!is_job_name("../x") && !is_job_name("a b") && !is_job_name(""));
    }
}
