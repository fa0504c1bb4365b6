//! `GET /status/<org>/<site>/<branch>`: what a site actually uses on a branch (see
//! [`crate::effective`]), with where each part comes from.

use std::sync::Arc;

use axum::Json;
use axum::extract::{FromRef, Path, State};
use axum::response::{IntoResponse, Response};

use crate::api::answers::Status;
use crate::api::site::Operate;
use crate::api::{ApiError, AuthorizedSite};
use crate::app::AppState;
use crate::code::SiteCode;
use crate::effective::{content_source, path_mappings};
use crate::store::Store;

/// What the status route reads: the store and every site's code.
#[derive(Clone)]
pub(super) struct SiteSources {
    store: Arc<dyn Store>,
    code: Arc<SiteCode>,
}

impl FromRef<Arc<AppState>> for SiteSources {
    fn from_ref(state: &Arc<AppState>) -> SiteSources {
        SiteSources {
            store: state.store.clone(),
            code: state.code.clone(),
        }
    }
}

/// `GET /status/<org>/<site>/<branch>`.
pub(super) async fn status(
    State(sources): State<SiteSources>,
    authorized: AuthorizedSite<Operate>,
    Path((_, _, branch)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    let AuthorizedSite {
        org,
        site,
        document,
        ..
    } = &authorized;
    let public = crate::sites::public(sources.store.as_ref(), org, site).await?;
    let body = Status {
        content: content_source(&sources.code, document, &branch).await,
        mappings: path_mappings(&sources.code, document, &branch, public).await,
    };
    Ok(Json(body).into_response())
}
