//! A site document's parts, by JSON sub-path (`access.json`, `code.json`,
//! `content.json`, `public.json`, `secrets…`): what each one reads and writes.

use std::collections::HashMap;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::access::check_access_change;
use super::{ConfigStore, load_json, save_json, secrets, stamp};
use crate::api::body::{parse_body, parse_json, parse_value};
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, DOCUMENT_METHODS, read_json_body};
use crate::sites::{onboarding, without_managed};
use crate::store::{keys, transact};
use siteops_config::model::api::{PublicConfig, SiteConfig};
use siteops_config::rules;
use siteops_config::schema::SchemaKind;

/// A sub-path of a site's configuration: `<segment>/…/<segment>.json`, each segment a
/// property name (letters, digits, `-`, `_`); 404 for anything else.
pub(super) fn sub_path(path: &str) -> Result<Vec<&str>, ApiError> {
    let segments: Option<Vec<&str>> = path
        .strip_suffix(".json")
        .map(|stem| stem.split('/').collect());
    match segments {
        Some(segments)
            if segments.iter().all(|segment| {
                !segment.is_empty()
                    && segment
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            }) =>
        {
            Ok(segments)
        }
        _ => Err(ApiError::missing(format!(
            "no such sub-resource `{path}` (expected <name>[/<name>…].json)"
        ))),
    }
}

/// A site's sub-resource, by its sub-path: `public`, `secrets`, `secrets/<id>`, or a
/// field of the site document.
pub(crate) async fn sub_resource(
    State(config): State<ConfigStore>,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let path = params.get("path").map(String::as_str).unwrap_or_default();
    let segments = sub_path(path)?;
    let segments = match segments.as_slice() {
        ["public"] => return public(&config, authorized, method, &headers, body).await,
        ["secrets"] => return secrets::list(&config, &authorized?, method).await,
        ["secrets", id] => {
            return secrets::secret(&config, authorized, id, method, &headers, body).await;
        }
        ["public", ..] | ["secrets", ..] => {
            return Err(ApiError::missing(format!("no such sub-resource `{path}`")));
        }
        segments => segments,
    };
    document_part(&config, authorized, segments, method, &headers, body).await
}

/// The part of a site document at `segments` (`access`, `access/admin`, `cdn/prod`, …):
/// GET reads it; POST writes it and DELETE removes it, and the document so changed is
/// checked whole (schema and rules, who may change access, which code is selectable)
/// and written in one transaction, or not at all.
async fn document_part(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    segments: &[&str],
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let pointer: String = segments.iter().map(|s| format!("/{s}")).collect();
    match method {
        Method::GET | Method::HEAD => {
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let part = authorized.document.json.pointer(&pointer).cloned();
            let part = part.ok_or_else(|| {
                ApiError::missing(format!("{org}/{site} has no `{pointer}` configuration"))
            })?;
            Ok(Json(part).into_response())
        }
        Method::POST | Method::DELETE => {
            let new = if method == Method::POST {
                let bytes = read_json_body(headers, body).await?;
                Some(parse_json(&bytes)?)
            } else {
                None
            };
            // After the body, as every write (see `save_site`).
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let touches_code = segments.first() == Some(&"code");
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            let (authorized, new) = (&authorized, &new);
            transact(&config.store, move |view| {
                Box::pin(async move {
                    let store = view.as_ref();
                    let existing = authorized.reread(store).await?;
                    let mut document = without_managed(existing.json.clone());
                    set_part(&mut document, segments, new.clone())?;
                    let changed = parse_value::<SiteConfig>(
                        document,
                        SchemaKind::ApiSite,
                        rules::site_config,
                    )?;
                    check_access_change(
                        |old, action| authorized.permit(old, action),
                        (org, site),
                        existing.access(),
                        changed.typed.access.as_ref(),
                        "/access",
                    )?;
                    let code = changed.typed.code.as_ref();
                    if touches_code {
                        onboarding::check_selectable(config.store.as_ref(), org, site, code)
                            .await?;
                    }
                    let mut document = changed.json;
                    stamp(&mut document, Some(&existing.json));
                    save_json(store, &keys::site(org, site), &document).await?;
                    if touches_code {
                        onboarding::register(config.store.as_ref(), org, site, code).await?;
                    }
                    Ok(match new {
                        Some(value) => Json(value.clone()).into_response(),
                        None => StatusCode::NO_CONTENT.into_response(),
                    })
                })
            })
            .await
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// Sets (`Some`) or removes (`None`) the part of `document` at `segments`, making the
/// objects on the way; 400 when one on the way is not an object.
fn set_part(document: &mut Value, segments: &[&str], new: Option<Value>) -> Result<(), ApiError> {
    let (last, parents) = segments.split_last().expect("a sub-path has a segment");
    let mut at = document;
    for segment in parents {
        let Value::Object(map) = at else {
            return Err(ApiError::bad_request(format!(
                "`{segment}`'s parent is not an object"
            )));
        };
        if new.is_none() && !map.contains_key(*segment) {
            return Ok(());
        }
        at = map
            .entry(segment.to_string())
            .or_insert_with(|| Value::Object(Default::default()));
    }
    let Value::Object(map) = at else {
        return Err(ApiError::bad_request(format!(
            "`{last}`'s parent is not an object"
        )));
    };
    match new {
        Some(value) => map.insert(last.to_string(), value),
        None => map.remove(*last),
    };
    Ok(())
}

async fn public(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let store = config.store.as_ref();
    match method {
        Method::GET | Method::HEAD => {
            let AuthorizedSite { org, site, .. } = &authorized?;
            let key = keys::public(org, site);
            let document = load_json(store, &key).await?.ok_or_else(|| {
                ApiError::missing(format!("{org}/{site} has no public configuration"))
            })?;
            Ok(Json(document).into_response())
        }
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            let body = parse_body::<PublicConfig>(&bytes, SchemaKind::ApiPublic, rules::public)?;
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let key = keys::public(org, site);
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            let (authorized, key) = (&authorized, &key);
            transact(&config.store, move |view| {
                let mut value = body.json.clone();
                Box::pin(async move {
                    let store = view.as_ref();
                    authorized.reread(store).await?;
                    let previous = load_json(store, key).await?;
                    stamp(&mut value, previous.as_ref());
                    save_json(store, key, &value).await?;
                    Ok(Json(value).into_response())
                })
            })
            .await
        }
        Method::DELETE => {
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            authorized.reread(store).await?;
            store.delete(&keys::public(org, site)).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}
