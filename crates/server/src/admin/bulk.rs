//! Bulk preview routes ([`crate::bulk`]):
//! - `POST /preview/<org>/<site>/<branch>/*` with `{"paths": […], "forceUpdate", "delete"}`:
//!   202 with the job, which runs in the background; 400 for a body that is not one (no
//!   paths, more than [`bulk::MAX_RESOURCES`], a path that is not one), 409 when the branch has
//!   too many unfinished jobs;
//! - `GET /job/<org>/<site>/<branch>/preview[/<name>[/details]]`: the branch's jobs, one
//!   job's state and progress, and each page's result.
//!
//! The same authorization as a single preview (`Action::Operate`). Each page goes through
//! the single preview's own path ([`Previews::preview_now`]: the one `Transport`, the
//! deadline, the org's turns, the site's usage), with the request's
//! `x-content-source-authorization` and caller.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use url::Url;

use super::preview::Links;
use crate::api::answers::{BulkLinks, BulkStarted, Fixed, PreviewJobList};
use crate::api::site::Operate;
use crate::api::{ApiError, AuthorizedSite, check_existing_names, check_names, read_json_body};
use crate::app::Previews;
use crate::auth::Claims;
use crate::bulk::{self, BulkError, BulkRequest, Failure, PreviewJob};
use crate::preview::PagePath;
use crate::preview::service::SiteRef;
use crate::preview::store::Rewrite;
use crate::sites::Site;

impl From<BulkError> for ApiError {
    fn from(error: BulkError) -> ApiError {
        match error {
            BulkError::Busy(_) => ApiError::new(StatusCode::CONFLICT, error.to_string()),
            BulkError::Store(error) => error.into(),
            _ => ApiError::bad_request(error.to_string()),
        }
    }
}

/// What each page of a job is previewed with: the request's, owned by the job's task.
struct Context {
    previews: Previews,
    document: Site,
    branch: String,
    caller: Claims,
    authorization: Option<HeaderValue>,
    origin: Url,
    rewrite: Rewrite,
    delete: bool,
}

impl Context {
    async fn act(&self, page: PagePath) -> Result<u16, Failure> {
        let (org, site) = (self.document.org.as_str(), self.document.name.as_str());
        let failed = |error: ApiError| Failure {
            status: error.status.as_u16(),
            message: error.message,
        };
        if self.delete {
            let service = self.previews.service();
            return match service.delete(org, site, &self.branch, &page).await {
                Ok(true) => Ok(204),
                Ok(false) => Err(failed(ApiError::not_found(format!(
                    "{} has not been previewed",
                    page.web_path()
                )))),
                Err(error) => Err(failed(error.into())),
            };
        }
        let target = SiteRef {
            org,
            site,
            branch: &self.branch,
            document: &self.document,
        };
        self.previews
            .preview_now(
                &target,
                &page,
                self.authorization.as_ref(),
                Some(&self.caller),
                &self.origin,
                self.rewrite,
            )
            .await
            .map(|_| 200)
            .map_err(failed)
    }
}

/// `POST /preview/<org>/<site>/<branch>/*`.
pub(super) async fn start(
    previews: &Previews,
    authorized: AuthorizedSite<Operate>,
    branch: &str,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    check_names(&[("branch", branch)])?;
    let bytes = read_json_body(headers, body).await?;
    let request: BulkRequest = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("invalid bulk preview body: {e}")))?;
    let targets = bulk::targets(&request)?;
    let AuthorizedSite {
        org,
        site,
        caller,
        document,
        ..
    } = authorized;
    let links = Links::new(headers, &org, &site, branch);
    let origin = Url::parse(&links.preview_host)
        .map_err(|_| ApiError::bad_request("the request's Host header is not usable"))?;
    let store = previews.store.clone();
    let mut job = PreviewJob::new(&org, &site, branch, &request);
    bulk::admit(store.as_ref(), &mut job).await?;
    let context = Arc::new(Context {
        previews: previews.clone(),
        document,
        branch: branch.to_string(),
        caller,
        authorization: headers.get("x-content-source-authorization").cloned(),
        origin,
        rewrite: if request.force_update {
            Rewrite::Always
        } else {
            Rewrite::IfChanged
        },
        delete: request.delete,
    });
    let answer = BulkStarted {
        status: Fixed,
        message_id: job.name.trim_start_matches("job-").to_string(),
        links: job_links(&links.admin, &job),
        job: job.clone(),
    };
    tokio::spawn(async move {
        bulk::run(store.as_ref(), job, targets, |page| {
            let context = context.clone();
            async move { context.act(page).await }
        })
        .await;
    });
    Ok((StatusCode::ACCEPTED, Json(answer)).into_response())
}

fn job_links(admin: &str, job: &PreviewJob) -> BulkLinks {
    let list = format!(
        "{admin}/job/{}/{}/{}/preview",
        job.org, job.site, job.branch
    );
    BulkLinks {
        own: format!("{list}/{}", job.name),
        details: format!("{list}/{}/details", job.name),
        list,
    }
}

/// `GET /job/<org>/<site>/<branch>/preview`.
pub(super) async fn list(
    State(previews): State<Previews>,
    AuthorizedSite { org, site, .. }: AuthorizedSite<Operate>,
    Path((_, _, branch)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    check_existing_names(&[("branch", &branch)])?;
    let jobs = bulk::list(previews.store.as_ref(), &org, &site, &branch).await?;
    Ok(Json(PreviewJobList { jobs }).into_response())
}

/// `GET /job/<org>/<site>/<branch>/preview/<name>`.
pub(super) async fn one(
    State(previews): State<Previews>,
    AuthorizedSite { org, site, .. }: AuthorizedSite<Operate>,
    Path((_, _, branch, name)): Path<(String, String, String, String)>,
) -> Result<Response, ApiError> {
    check_existing_names(&[("branch", &branch)])?;
    let job = bulk::load(previews.store.as_ref(), &org, &site, &branch, &name).await?;
    let job = job.ok_or_else(|| ApiError::not_found(format!("no bulk preview job `{name}`")))?;
    Ok(Json(job).into_response())
}

/// `GET /job/<org>/<site>/<branch>/preview/<name>/details`.
pub(super) async fn details(
    State(previews): State<Previews>,
    AuthorizedSite { org, site, .. }: AuthorizedSite<Operate>,
    Path((_, _, branch, name)): Path<(String, String, String, String)>,
) -> Result<Response, ApiError> {
    check_existing_names(&[("branch", &branch)])?;
    let job = bulk::details(previews.store.as_ref(), &org, &site, &branch, &name).await?;
    let job = job.ok_or_else(|| ApiError::not_found(format!("no bulk preview job `{name}`")))?;
    Ok(Json(job).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bulk::MAX_RESOURCES;

    #[test]
    fn a_refused_request_is_a_client_error() {
        let status = |error: BulkError| ApiError::from(error).status;
        assert_eq!(status(BulkError::Empty), StatusCode::BAD_REQUEST);
        assert_eq!(
            status(BulkError::TooMany(MAX_RESOURCES + 1)),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(status(BulkError::Busy(2)), StatusCode::CONFLICT);
    }
}
