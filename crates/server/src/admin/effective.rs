//! `GET /status/<org>/<site>/<branch>`: what a site actually uses on a branch (see
//! [`crate::effective`]), with where each part comes from.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::api::answers::Status;
use crate::app::{AppState, existing_site};
use crate::auth::Action;
use crate::effective::{content_source, path_mappings};

/// `GET /status/<org>/<site>/<branch>`.
pub(super) async fn status(
    State(state): State<Arc<AppState>>,
    Path((org, site, branch)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    crate::api::check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    let document = existing_site(&state, &headers, &org, &site, Action::Operate).await?;
    let public = crate::sites::public(state.store.as_ref(), &org, &site).await?;
    let body = Status {
        content: content_source(&state.code, &document, &branch).await,
        mappings: path_mappings(&state.code, &document, &branch, public).await,
    };
    Ok(Json(body).into_response())
}
