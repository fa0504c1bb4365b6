//! `GET /healthz` (the process answers) and `GET /readyz` (it can do its work: the live
//! session's first apply has finished, and its store takes a write), for a load balancer
//! or an orchestrator. Both answer whatever the `Host`, and say nothing beyond up or not.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;

/// The paths, answered before the `Host` check.
pub const PATHS: [&str; 2] = ["/healthz", "/readyz"];

/// Longest `/readyz` waits for the store; then 503.
pub const STORE_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The key `/readyz` writes and deletes: one per process, so instances sharing a store
/// never delete each other's probe.
static PROBE_KEY: LazyLock<String> =
    LazyLock::new(|| format!("health/ready-{:016x}", fastrand::u64(..)));

pub async fn healthz() -> Response {
    (StatusCode::OK, "ok\n").into_response()
}

pub async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state
        .session
        .as_ref()
        .is_some_and(|session| !session.is_ready())
    {
        return not_ready("the repository is not applied yet");
    }
    let store = state.store.as_ref();
    // A write and a delete: a store that reads but cannot write (a read-only directory,
    // credentials that only read) cannot serve.
    let probe = async {
        store.put(&PROBE_KEY, b"ready").await?;
        store.delete(&PROBE_KEY).await.map(|_| ())
    };
    match tokio::time::timeout(STORE_PROBE_TIMEOUT, probe).await {
        Ok(Ok(())) => (StatusCode::OK, "ready\n").into_response(),
        Ok(Err(error)) => {
            tracing::warn!(%error, "not ready: the store takes no write");
            not_ready("the store takes no write")
        }
        Err(_) => not_ready(&format!(
            "the store does not answer within {} s",
            STORE_PROBE_TIMEOUT.as_secs()
        )),
    }
}

fn not_ready(why: &str) -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, format!("{why}\n")).into_response()
}
