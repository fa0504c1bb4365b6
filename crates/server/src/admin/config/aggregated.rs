//! A site's aggregated configuration, read only: its document over its profile
//! (`extends.profile`, else the profile `default` when it exists), merged by the config
//! crate's one rule (objects key by key, other values replaced: siteops's rule, the
//! platform's is not public). Older family `/config/<org>/aggregated/<site>.json` and
//! `…/<site>/<part>.json`; newer `/<org>/aggregated/<site>/config.json` and
//! `…/config/<part>.json`. Who may read it: whoever may read the site's configuration.

use std::collections::HashMap;

use axum::Json;
use axum::extract::Path;
use axum::http::Method;
use axum::response::{IntoResponse, Response};

use super::parts::{Part, sub_path};
use super::robots;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, Family, LIST_METHODS};

/// The whole aggregated document.
pub(super) async fn document(
    method: Method,
    family: Family,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
) -> Result<Response, ApiError> {
    read_only(&method)?;
    let answer = family.shape(authorized?.document.aggregated_answer());
    Ok(Json(answer).into_response())
}

/// A part of the aggregated document, by sub-path.
pub(super) async fn part(
    method: Method,
    family: Family,
    Path(params): Path<HashMap<String, String>>,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
) -> Result<Response, ApiError> {
    read_only(&method)?;
    let path = params.get("path").map(String::as_str).unwrap_or_default();
    // `robots.txt`: the text of the aggregated `robots` part (the platform's
    // `AggregatedHandler.handleRobots`).
    let (segments, text) = match path {
        robots::PATH => (robots::PART.to_vec(), true),
        _ => (sub_path(path)?, false),
    };
    let part = Part::of(&segments, text);
    let authorized = authorized?;
    let pointer: String = part.segments().iter().map(|s| format!("/{s}")).collect();
    let answer = family.shape(authorized.document.aggregated_answer());
    part.answer(answer.pointer(&pointer), || {
        let AuthorizedSite { org, site, .. } = &authorized;
        ApiError::missing(format!(
            "{org}/{site}'s aggregated configuration has no `{pointer}`"
        ))
    })
}

/// Only GET and HEAD (405 otherwise).
fn read_only(method: &Method) -> Result<(), ApiError> {
    match *method {
        Method::GET | Method::HEAD => Ok(()),
        _ => Err(ApiError::method_not_allowed(LIST_METHODS)),
    }
}
