//! The bundled administration service, mounted under `/admin`: configuration API, sign-in,
//! and (through [`crate::server`]) the preview hosts' public configuration.

mod code;
pub mod config;
mod effective;
mod login;
pub mod preview;

use std::sync::Arc;

use axum::Router;
use axum::routing::{any, get, post};

use crate::api::{ApiError, SITE_METHODS};
use crate::app::AppState;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    // Resources whose methods depend on the name (`public.json`, `secrets.json`) take
    // every method, and answer 405 with their own `Allow`.
    Router::new()
        .route("/openapi.json", get(openapi))
        .route("/login", get(login::login_page))
        .route("/profile", get(login::profile).post(login::sign_in))
        .route("/config/{org}/{file}", get(config::list_sites))
        .route(
            "/config/{org}/sites/{site_json}",
            get(config::site)
                .delete(config::delete_site)
                .put(config::save_site)
                .post(config::save_site)
                .fallback(|| async { ApiError::method_not_allowed(SITE_METHODS) }),
        )
        .route(
            "/config/{org}/sites/{site}/{file}",
            any(config::sub_resource),
        )
        .route(
            "/config/{org}/sites/{site}/secrets/{file}",
            any(config::secret),
        )
        .route("/code/{org}/{site}/{branch}", post(code::trigger))
        .route("/webhook/code/{org}/{site}", post(code::webhook))
        .route("/job/{org}/{site}/{branch}/code", get(code::list))
        .route("/job/{org}/{site}/{branch}/code/{name}", get(code::one))
        .route("/status/{org}/{site}/{branch}", get(effective::status))
        .route("/preview/{org}/{site}/{branch}", any(preview::handle))
        .route("/preview/{org}/{site}/{branch}/", any(preview::handle))
        .route(
            "/preview/{org}/{site}/{branch}/{*path}",
            any(preview::handle),
        )
        .fallback(|| async { ApiError::not_found("no such administration resource") })
        .with_state(state)
}

/// `GET /admin/openapi.json`: the document of this service ([`crate::api::openapi`]).
async fn openapi() -> axum::Json<&'static serde_json::Value> {
    static DOCUMENT: std::sync::LazyLock<serde_json::Value> =
        std::sync::LazyLock::new(crate::api::openapi::document);
    axum::Json(&DOCUMENT)
}
