//! The worker's configuration: per org/site/branch, a non-empty array of entries, stored
//! at `transform/<org>/<site>/<branch>.json`, sealed with the service's secrets key (its
//! header values and `templateApiKey` are credentials). A branch without its own uses
//! `main`'s.
//!
//! `GET` and `POST /transform/config/<org>/<site>/<branch>`: POST replaces the whole array
//! (no merge); `DELETE` removes the branch's own entries (204, also when it had none).
//! `GET /transform/config/<org>/<site>` lists the branches that have entries, so that
//! `siteops apply --prune` can find a branch the repository no longer configures. The
//! token (`Authorization: token …`) must allow configuring the site.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::api::answers::BranchList;
use crate::api::body::parse_body;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, DOCUMENT_METHODS, LIST_METHODS, read_json_body};
use crate::store::{KeyedLocks, Store, keys};
use siteops_config::model::api::WorkerEntry;
use siteops_config::rules;
use siteops_config::schema::SchemaKind;

/// The entries that serve `branch`: its own, else `main`'s; with the branch they come from.
pub(crate) async fn load_effective(
    store: &dyn Store,
    org: &str,
    site: &str,
    branch: &str,
) -> Result<Option<(Vec<WorkerEntry>, String)>, ApiError> {
    for candidate in [branch, "main"] {
        if let Some(entries) =
            crate::sites::read_sealed(store, &keys::worker_config(org, site, candidate)).await?
        {
            return Ok(Some((entries, candidate.to_string())));
        }
    }
    Ok(None)
}

/// What the configuration routes take: the store and the sites' locks (a write holds its
/// site's, as the site's own configuration writes do).
#[derive(Clone)]
pub(crate) struct WorkerConfigs {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) locks: Arc<KeyedLocks>,
}

pub(crate) async fn handle(
    State(state): State<WorkerConfigs>,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    Path((_, _, branch)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    // The body is read before the caller is refused: a client that sends it whole reads
    // the answer, not a reset connection (and a body past the limit reads 413).
    let parsed = match method {
        Method::POST => {
            let bytes = read_json_body(&headers, body).await?;
            Some(parse_body::<Vec<WorkerEntry>>(
                &bytes,
                SchemaKind::ApiWorkerConfig,
                |entries| rules::worker_entries(entries),
            )?)
        }
        _ => None,
    };
    let authorized = authorized?;
    let AuthorizedSite { org, site, .. } = &authorized;
    let store = state.store.as_ref();
    let key = keys::worker_config(org, site, &branch);
    match (method, parsed) {
        (Method::GET | Method::HEAD, _) => {
            // Read typed: a damaged document answers 500 naming it, never `null`.
            let entries: Vec<WorkerEntry> = crate::sites::read_sealed(store, &key)
                .await?
                .ok_or_else(|| {
                    ApiError::not_found(format!(
                        "{org}/{site} has no worker configuration for branch {branch}"
                    ))
                })?;
            Ok(Json(entries).into_response())
        }
        (Method::POST, Some(body)) => {
            let _guard = state.locks.lock(&keys::site(org, site)).await;
            authorized.reread(store).await?;
            crate::sites::write_sealed(store, &key, &body.json).await?;
            Ok(Json(body.json).into_response())
        }
        (Method::DELETE, _) => {
            let _guard = state.locks.lock(&keys::site(org, site)).await;
            authorized.reread(store).await?;
            store.delete(&key).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// `GET /transform/config/<org>/<site>`: `{"branches": [...]}`, sorted.
pub(crate) async fn branches(
    State(state): State<WorkerConfigs>,
    authorized: AuthorizedSite<Configure>,
    method: Method,
) -> Result<Response, ApiError> {
    if !matches!(method, Method::GET | Method::HEAD) {
        return Err(ApiError::method_not_allowed(LIST_METHODS));
    }
    let AuthorizedSite { org, site, .. } = &authorized;
    let branches: Vec<String> = state
        .store
        .list(&keys::worker_configs(org, site))
        .await?
        .into_iter()
        .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
        .collect();
    Ok(Json(BranchList { branches }).into_response())
}
