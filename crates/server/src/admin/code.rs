//! Code sync routes:
//! - `POST /code/<org>/<site>/<branch>`: start a sync of a branch (the console's action);
//! - `POST /webhook/code/<org>/<site>`: a signed push notification from the git service;
//! - `GET /job/<org>/<site>/<branch>/code[/<name>]`: the jobs, or one job.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::api::answers::{Ignored, JobLinks, JobList, JobStarted, JobSummary};
use crate::api::site::Operate;
use crate::api::{ApiError, AuthorizedSite, check_names, read_body};
use crate::app::AppState;
use crate::codesync::job::{self, Trigger};
use crate::codesync::runner::{CodeSync, EnqueueError, Enqueued};
use crate::codesync::signature;
use crate::quota::Throttles;
use crate::sites::{self, Site};
use crate::store::Store;
use siteops_config::model::api::CodeConfig;

/// What the code sync routes use: the store (sites, secrets, jobs), the sync jobs, and the
/// webhook's rate.
#[derive(Clone)]
pub(super) struct CodeJobs {
    store: Arc<dyn Store>,
    code_sync: Arc<CodeSync>,
    throttles: Arc<Throttles>,
}

impl FromRef<Arc<AppState>> for CodeJobs {
    fn from_ref(state: &Arc<AppState>) -> CodeJobs {
        CodeJobs {
            store: state.store.clone(),
            code_sync: state.code_sync.clone(),
            throttles: state.throttles.clone(),
        }
    }
}

/// The site's code block, which must name a repository that code jobs can read: an
/// external one (`byogit`) or a hosted one (`github`).
fn synced_code(site: &Site) -> Result<CodeConfig, ApiError> {
    let (org, name) = (&site.org, &site.name);
    let code = site.code().cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::CONFLICT,
            format!("{org}/{name} has no code configuration"),
        )
    })?;
    if code.raw_base().is_none() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "{org}/{name}'s code source (`{}`) cannot be synced: code jobs read `github` repositories and `byogit` ones with a `raw_url`",
                code.source.kind
            ),
        ));
    }
    Ok(code)
}

fn started(Enqueued { job, coalesced }: Enqueued) -> Response {
    let body = JobStarted {
        links: JobLinks {
            own: job.link(),
            list: format!("/admin/job/{}/{}/{}/code", job.org, job.site, job.branch),
        },
        job: JobSummary {
            topic: job.topic,
            name: job.name,
            state: job.state,
        },
        coalesced: coalesced.then_some(true),
    };
    (StatusCode::ACCEPTED, Json(body)).into_response()
}

fn ignored(why: &str) -> Response {
    let body = Ignored {
        ignored: why.to_string(),
    };
    (StatusCode::ACCEPTED, Json(body)).into_response()
}

async fn enqueue(
    jobs: &CodeJobs,
    org: &str,
    site: &str,
    branch: &str,
    trigger: Trigger,
) -> Result<Response, ApiError> {
    match jobs.code_sync.enqueue(org, site, branch, trigger).await {
        Ok(enqueued) => Ok(started(enqueued)),
        Err(EnqueueError::Store(error)) => Err(error.into()),
    }
}

/// `POST /code/<org>/<site>/<branch>`.
pub(super) async fn trigger(
    State(jobs): State<CodeJobs>,
    authorized: AuthorizedSite<Operate>,
    Path((_, _, branch)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    synced_code(&authorized.document)?;
    let AuthorizedSite { org, site, .. } = &authorized;
    enqueue(&jobs, org, site, &branch, Trigger::Manual).await
}

/// `POST /webhook/code/<org>/<site>`: authenticated by its signature, not by a token.
/// Until the signature is verified the answer does not depend on the site: a missing
/// site, one whose code is not synced, one without a secret, and a wrong or missing
/// signature all get the same 401.
pub(super) async fn webhook(
    State(jobs): State<CodeJobs>,
    Path((org, site)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site)])?;
    let bytes = read_body(body).await?;
    let unverified = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing or invalid x-hub-signature-256",
        )
    };
    let header = headers
        .get(signature::HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(unverified)?;
    let secret = webhook_secret(jobs.store.as_ref(), &org, &site).await;
    if !secret.is_some_and(|secret| signature::verify(secret.as_bytes(), &bytes, header)) {
        return Err(unverified());
    }
    // Counted once verified: unsigned deliveries cannot use up a site's allowance (they
    // cost one HMAC each, within the body's size and time limits), and only real sites
    // become keys.
    jobs.throttles.webhook(&org, &site).map_err(|retry| {
        ApiError::too_many(retry, "too many deliveries for this site: try again later")
    })?;
    let payload: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("invalid JSON: {e}")))?;
    let Some(branch) = payload
        .get("ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("refs/heads/"))
    else {
        return Ok(ignored("not a branch push"));
    };
    check_names(&[("branch", branch)])?;
    if !jobs.code_sync.first_delivery(&bytes) {
        return Ok(ignored("this delivery was already received"));
    }
    enqueue(&jobs, &org, &site, branch, Trigger::Webhook).await
}

/// The webhook secret of `org/site`'s synced repository; `None` when there is none to
/// verify with, whatever the reason (no such site, code that is not synced, no secret,
/// a stored document that does not read), which is logged, never answered.
async fn webhook_secret(store: &dyn Store, org: &str, site: &str) -> Option<String> {
    let found = async {
        let document = sites::load(store, org, site)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("site {org}/{site} does not exist")))?;
        let code = synced_code(&document)?;
        Ok::<_, ApiError>(
            sites::repos::sync_secret(store, org, site, &code)
                .await?
                .map(|secret| secret.value),
        )
    }
    .await;
    match found {
        Ok(secret) => secret,
        Err(error) => {
            tracing::info!(%org, %site, error = %error.message, "webhook cannot be verified");
            None
        }
    }
}

/// `GET /job/<org>/<site>/<branch>/code`.
pub(super) async fn list(
    State(jobs): State<CodeJobs>,
    AuthorizedSite { org, site, .. }: AuthorizedSite<Operate>,
    Path((_, _, branch)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    let jobs = job::list(jobs.store.as_ref(), &org, &site, &branch).await?;
    Ok(Json(JobList { jobs }).into_response())
}

/// `GET /job/<org>/<site>/<branch>/code/<name>`.
pub(super) async fn one(
    State(jobs): State<CodeJobs>,
    AuthorizedSite { org, site, .. }: AuthorizedSite<Operate>,
    Path((_, _, branch, name)): Path<(String, String, String, String)>,
) -> Result<Response, ApiError> {
    let valid = name.len() <= crate::api::MAX_NAME_LEN
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let found = if valid {
        job::load(jobs.store.as_ref(), &org, &site, &branch, &name).await?
    } else {
        None
    };
    let job = found.ok_or_else(|| ApiError::not_found(format!("no job `{name}`")))?;
    Ok(Json(job).into_response())
}
