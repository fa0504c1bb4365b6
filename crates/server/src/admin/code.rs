//! Code sync routes:
//! - `POST /code/<org>/<site>/<branch>`: start a sync of a branch (the console's action);
//! - `POST /webhook/code/<org>/<site>`: a signed push notification from the git service;
//! - `GET /job/<org>/<site>/<branch>/code[/<name>]`: the jobs, or one job.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::api::answers::{Ignored, JobLinks, JobList, JobStarted, JobSummary};

use crate::api::{ApiError, check_names, read_body};
use crate::app::{AppState, existing_site};
use crate::auth::Action;
use crate::codesync::job::{self, Trigger};
use crate::codesync::runner::{EnqueueError, Enqueued};
use crate::codesync::signature;
use crate::sites::{self, Site};
use siteops_config::model::api::CodeConfig;

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
    state: &AppState,
    org: &str,
    site: &str,
    branch: &str,
    trigger: Trigger,
) -> Result<Response, ApiError> {
    match state.code_sync.enqueue(org, site, branch, trigger).await {
        Ok(enqueued) => Ok(started(enqueued)),
        Err(EnqueueError::Store(error)) => Err(error.into()),
    }
}

/// `POST /code/<org>/<site>/<branch>`.
pub(super) async fn trigger(
    State(state): State<Arc<AppState>>,
    Path((org, site, branch)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    let document = existing_site(&state, &headers, &org, &site, Action::Operate).await?;
    synced_code(&document)?;
    enqueue(&state, &org, &site, &branch, Trigger::Manual).await
}

/// `POST /webhook/code/<org>/<site>`: authenticated by its signature, not by a token.
/// Until the signature is verified the answer does not depend on the site: a missing
/// site, one whose code is not synced, one without a secret, and a wrong or missing
/// signature all get the same 401.
pub(super) async fn webhook(
    State(state): State<Arc<AppState>>,
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
    let secret = webhook_secret(&state, &org, &site).await;
    if !secret.is_some_and(|secret| signature::verify(secret.as_bytes(), &bytes, header)) {
        return Err(unverified());
    }
    // Counted once verified: unsigned deliveries cannot use up a site's allowance (they
    // cost one HMAC each, within the body's size and time limits), and only real sites
    // become keys.
    state.throttles.webhook(&org, &site).map_err(|retry| {
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
    if !state.code_sync.first_delivery(&bytes) {
        return Ok(ignored("this delivery was already received"));
    }
    enqueue(&state, &org, &site, branch, Trigger::Webhook).await
}

/// The webhook secret of `org/site`'s synced repository; `None` when there is none to
/// verify with, whatever the reason (no such site, code that is not synced, no secret,
/// a stored document that does not read), which is logged, never answered.
async fn webhook_secret(state: &AppState, org: &str, site: &str) -> Option<String> {
    let store = state.store.as_ref();
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
    State(state): State<Arc<AppState>>,
    Path((org, site, branch)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    existing_site(&state, &headers, &org, &site, Action::Operate).await?;
    let jobs = job::list(state.store.as_ref(), &org, &site, &branch).await?;
    Ok(Json(JobList { jobs }).into_response())
}

/// `GET /job/<org>/<site>/<branch>/code/<name>`.
pub(super) async fn one(
    State(state): State<Arc<AppState>>,
    Path((org, site, branch, name)): Path<(String, String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    existing_site(&state, &headers, &org, &site, Action::Operate).await?;
    let valid = name.len() <= crate::api::MAX_NAME_LEN
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let found = if valid {
        job::load(state.store.as_ref(), &org, &site, &branch, &name).await?
    } else {
        None
    };
    let job = found.ok_or_else(|| ApiError::not_found(format!("no job `{name}`")))?;
    Ok(Json(job).into_response())
}
