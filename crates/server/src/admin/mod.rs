//! The bundled administration service, mounted under `/admin`: configuration API, sign-in,
//! and (through [`crate::server`]) the preview hosts' public configuration. The
//! configuration API is mounted under `/api` too, in the platform's newer path family
//! ([`api_router`]), from the same routing table ([`config::resources`]).

mod bulk;
mod code;
pub(crate) mod config;
mod effective;
mod login;
pub mod preview;

use std::sync::Arc;

use axum::Router;
use axum::routing::{any, get, post};

use crate::api::ApiError;
use crate::app::AppState;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    // Resources whose methods depend on the name (`public.json`, `secrets.json`) take
    // every method, and answer 405 with their own `Allow`.
    let mut router = Router::new()
        .route("/openapi.json", get(openapi))
        .route("/login", get(login::login_page))
        .route("/profile", get(login::profile).post(login::sign_in));
    for resource in config::resources() {
        if let Some(path) = resource.older {
            router = router.route(path, resource.methods);
        }
    }
    router
        .route("/code/{org}/{site}/{branch}", post(code::trigger))
        .route("/webhook/code/{org}/{site}", post(code::webhook))
        .route("/job/{org}/{site}/{branch}/code", get(code::list))
        .route("/job/{org}/{site}/{branch}/code/{name}", get(code::one))
        .route("/job/{org}/{site}/{branch}/preview", get(bulk::list))
        .route("/job/{org}/{site}/{branch}/preview/{name}", get(bulk::one))
        .route(
            "/job/{org}/{site}/{branch}/preview/{name}/details",
            get(bulk::details),
        )
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

/// The configuration API in the platform's newer path family, mounted under `/api`: the
/// same resources as under `/admin/config/…`, at the platform's paths.
pub(crate) fn api_router(state: Arc<AppState>) -> Router {
    let mut router = Router::new();
    for resource in config::resources() {
        if let Some(path) = resource.newer {
            router = router.route(path, resource.methods);
        }
    }
    router
        .fallback(|| async {
            crate::api::error::platform_form(
                axum::http::Method::GET,
                axum::response::IntoResponse::into_response(ApiError::missing(
                    "no such configuration resource",
                )),
            )
            .await
        })
        .layer(axum::Extension(crate::api::Family::Newer))
        .with_state(state)
}

/// `GET /admin/openapi.json`: the document of this service ([`crate::api::openapi`]).
async fn openapi() -> axum::Json<&'static serde_json::Value> {
    static DOCUMENT: std::sync::LazyLock<serde_json::Value> =
        std::sync::LazyLock::new(crate::api::openapi::document);
    axum::Json(&DOCUMENT)
}
