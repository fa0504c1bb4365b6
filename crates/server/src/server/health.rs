//! `GET /healthz` (the process answers) and `GET /readyz` (and its store answers), for a
//! load balancer or an orchestrator. Both answer whatever the `Host`, and say nothing
//! beyond up or not.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::admin::SIGNING_KEY;
use crate::app::AppState;

/// The paths, answered before the `Host` check.
pub const PATHS: [&str; 2] = ["/healthz", "/readyz"];

pub async fn healthz() -> Response {
    (StatusCode::OK, "ok\n").into_response()
}

pub async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    let store = state.store.clone();
    // A read the service makes on every start: the store is reachable and readable.
    let read = tokio::task::spawn_blocking(move || store.get(SIGNING_KEY).map(|_| ())).await;
    match read {
        Ok(Ok(())) => (StatusCode::OK, "ready\n").into_response(),
        Ok(Err(error)) => {
            tracing::warn!(%error, "not ready: the store does not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the store does not answer\n",
            )
                .into_response()
        }
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "not ready\n").into_response(),
    }
}
