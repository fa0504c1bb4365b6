//! The page of a site's code sync jobs on one branch in `serve`, newest first: what the
//! administration API's `GET /admin/job/<org>/<site>/<branch>/code` answers, for the local
//! browser, which has no token for that API but is the session's operator here.

use maud::html;

use super::dashboard::{Addresses, layout};
use siteops_config::model::SiteId;
use siteops_server::codesync::job::{Job, JobState, Trigger};

pub fn page(site: &SiteId, branch: &str, jobs: &[Job], addresses: &Addresses) -> String {
    let header = html! {
        h1 { a href="/" { "siteops serve" } " · code jobs" }
        span.meta { (site.org) "/" (site.site) " (" (branch) ")" }
    };
    let main = html! {
        section #jobs {
            h2 { "Code sync jobs" }
            @if jobs.is_empty() {
                p {
                    "No code sync job yet. A job copies the branch of the site's code repository into the code store; start one with "
                    code { "POST /admin/code/" (site.org) "/" (site.site) "/" (branch) }
                    " and a token (" code { "siteops token" } ")."
                }
            } @else {
                table {
                    tr {
                        th { "job" } th { "state" } th { "trigger" } th { "created" }
                        th { "stopped" } th { "files" } th { "errors" }
                    }
                    @for job in jobs {
                        tr.job {
                            td { (job.name) }
                            td class=(state_class(job)) { (state(job.state)) }
                            td { (trigger(job.trigger)) }
                            td { (job.create_time) }
                            td { (job.stop_time.as_deref().unwrap_or("")) }
                            td {
                                (job.progress.processed) " of " (job.progress.total)
                                @if job.progress.failed > 0 { ", " (job.progress.failed) " failed" }
                            }
                            td {
                                @if let Some(error) = &job.error { (error) }
                                @for file in &job.errors {
                                    div { code { (file.path) } ": " (file.error) }
                                }
                            }
                        }
                    }
                }
            }
            p {
                a href={ (addresses.preview_host(site, branch)) "/" } { "the branch's preview host" }
            }
        }
    };
    layout("Code jobs", header, main).into_string()
}

fn state(state: JobState) -> &'static str {
    match state {
        JobState::Created => "created",
        JobState::Running => "running",
        JobState::Stopped => "stopped",
    }
}

fn trigger(trigger: Trigger) -> &'static str {
    match trigger {
        Trigger::Manual => "manual",
        Trigger::Webhook => "webhook",
    }
}

fn state_class(job: &Job) -> &'static str {
    let failed = job.error.is_some() || !job.errors.is_empty();
    if job.state == JobState::Stopped && failed {
        "bad"
    } else {
        "ok"
    }
}
