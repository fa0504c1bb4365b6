//! The transformation worker: JSON from an endpoint, through a Mustache template, to a
//! markup page. [`html`] holds the pure post-processing the worker applies to a render
//! (media URL prefixes, `article:tag` metadata, path mappings) and the generic page it
//! produces when no template can be fetched; [`config`] the per-branch configuration
//! routes; [`render`] the page route; [`bound`] how many pages hold an endpoint document at
//! once.

pub mod bound;
pub mod cache;
pub mod config;
pub mod html;
pub mod render;

use std::sync::Arc;

use axum::Router;
use axum::extract::FromRef;
use axum::routing::{any, get};

use crate::api::{ApiError, SiteAccess};
use crate::app::AppState;
use cache::WorkerCache;

/// The worker's state: the server's, and its own cache of compiled templates and regexes
/// (a sub-state, so that the server's state names nothing of the worker).
#[derive(Clone)]
struct WorkerState {
    app: Arc<AppState>,
    cache: Arc<WorkerCache>,
    parses: Arc<bound::ParseBound>,
}

impl FromRef<WorkerState> for Arc<AppState> {
    fn from_ref(state: &WorkerState) -> Arc<AppState> {
        state.app.clone()
    }
}

impl FromRef<WorkerState> for SiteAccess {
    fn from_ref(state: &WorkerState) -> SiteAccess {
        SiteAccess::from_ref(&state.app)
    }
}

impl FromRef<WorkerState> for config::WorkerConfigs {
    fn from_ref(state: &WorkerState) -> config::WorkerConfigs {
        config::WorkerConfigs {
            store: state.app.store.clone(),
            locks: state.app.locks.clone(),
        }
    }
}

impl FromRef<WorkerState> for Arc<bound::ParseBound> {
    fn from_ref(state: &WorkerState) -> Arc<bound::ParseBound> {
        state.parses.clone()
    }
}

impl FromRef<WorkerState> for Arc<WorkerCache> {
    fn from_ref(state: &WorkerState) -> Arc<WorkerCache> {
        state.cache.clone()
    }
}

/// The worker, mounted under `/transform` (`{transform_url}`).
pub(crate) fn router(state: Arc<AppState>) -> Router {
    let state = WorkerState {
        app: state,
        cache: Arc::default(),
        parses: Arc::default(),
    };
    Router::new()
        .route("/config/{org}/{site}", any(config::branches))
        .route("/config/{org}/{site}/{branch}", any(config::handle))
        .route("/{org}/{site}/{branch}/{*path}", get(render::handle))
        .fallback(|| async { ApiError::not_found("no such worker resource") })
        .with_state(state)
}
