//! A site document's parts, by JSON sub-path (`access.json`, `access/admin.json`,
//! `public.json`, `cdn/prod.json`, `secrets…`): what each one reads and writes, all of
//! them in the one stored document.

use std::collections::HashMap;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::access::check_site_write;
use super::versions::{Versioning, revision};
use super::{ConfigStore, api_keys, robots, save_json, secrets, stamp};
use crate::api::body::{parse_json, parse_value};
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, DOCUMENT_METHODS, Family, read_json_body};
use crate::sites::versions::{self, Versioned};
use crate::sites::{onboarding, without_managed};
use crate::store::{keys, transact};
use siteops_config::model::api::SiteConfig;
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
// An axum handler: one argument per extractor.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn sub_resource(
    State(config): State<ConfigStore>,
    family: Family,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    method: Method,
    versioning: Versioning,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let path = params.get("path").map(String::as_str).unwrap_or_default();
    if let Some(name) = super::yaml::name_of(path) {
        return super::yaml::resource(&config, authorized, name, method, &headers, body).await;
    }
    if path == robots::PATH {
        let request = (method, &headers, body);
        let part = Part::Text(&robots::PART);
        return document_part(&config, authorized, family, part, &versioning, request).await;
    }
    let segments = sub_path(path)?;
    let segments = match segments.as_slice() {
        ["secrets"] => return secrets::list(&config, authorized, method, &headers, body).await,
        ["secrets", id] => {
            let request = (method, &versioning, &headers, body);
            return secrets::secret(&config, authorized, id, request).await;
        }
        ["apiKeys"] => {
            return api_keys::site_list(&config, authorized, method, &headers, body).await;
        }
        ["apiKeys", id] => return api_keys::site_key(&config, authorized, id, method).await,
        ["secrets", ..] | ["apiKeys", ..] => {
            return Err(ApiError::missing(format!("no such sub-resource `{path}`")));
        }
        segments => segments,
    };
    let request = (method, &headers, body);
    document_part(
        &config,
        authorized,
        family,
        Part::Json(segments),
        &versioning,
        request,
    )
    .await
}

/// A part of a document as a request names it: by its JSON sub-path, or as a text file
/// kept in a part (`robots.txt`, the `txt` of `robots`: [`robots`]).
#[derive(Clone, Copy)]
pub(super) enum Part<'a> {
    Json(&'a [&'a str]),
    Text(&'a [&'a str]),
}

impl<'a> Part<'a> {
    /// The part at `segments`, the text file kept in it when `text`.
    pub(super) fn of(segments: &'a [&'a str], text: bool) -> Part<'a> {
        if text {
            Part::Text(segments)
        } else {
            Part::Json(segments)
        }
    }

    pub(super) fn segments(self) -> &'a [&'a str] {
        match self {
            Part::Json(segments) | Part::Text(segments) => segments,
        }
    }

    /// The part a POST sends: JSON, or the text file as its part.
    pub(super) async fn read(self, headers: &HeaderMap, body: Body) -> Result<Value, ApiError> {
        match self {
            Part::Json(_) => parse_json(&read_json_body(headers, body).await?),
            Part::Text(_) => robots::read_part(headers, body).await,
        }
    }

    /// The answer with the part (`None`: the document has none, `missing`).
    pub(super) fn answer(
        self,
        part: Option<&Value>,
        missing: impl FnOnce() -> ApiError,
    ) -> Result<Response, ApiError> {
        match self {
            Part::Json(_) => Ok(Json(part.ok_or_else(missing)?.clone()).into_response()),
            Part::Text(_) => Ok(robots::answer(part, missing)),
        }
    }
}

/// The part of a site document at `segments` (`access`, `access/admin`, `cdn/prod`, …):
/// GET reads it; POST writes it and DELETE removes it, and the document so changed is
/// checked whole (schema and rules, who may change access, which code is selectable)
/// and written in one transaction, or not at all.
async fn document_part(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    family: Family,
    part: Part<'_>,
    versioning: &Versioning,
    (method, headers, body): (Method, &HeaderMap, Body),
) -> Result<Response, ApiError> {
    let segments = part.segments();
    let pointer: String = segments.iter().map(|s| format!("/{s}")).collect();
    match method {
        Method::GET | Method::HEAD => {
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let answer = family.shape(authorized.document.answer());
            part.answer(answer.pointer(&pointer), || {
                ApiError::missing(format!("{org}/{site} has no `{pointer}` configuration"))
            })
        }
        Method::POST | Method::DELETE => {
            let new = if method == Method::POST {
                let value = part.read(headers, body).await?;
                // `null` would read as the part being absent: removing is DELETE's.
                if value.is_null() {
                    return Err(ApiError::bad_request(format!(
                        "the body of `{pointer}` is null: send the part, or DELETE it"
                    )));
                }
                Some(value)
            } else {
                None
            };
            // After the body, as every write (see `save_site`).
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let revision = &revision(&authorized.caller, versioning.name()?);
            let touches_code = segments.first() == Some(&"code");
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            let (authorized, new) = (&authorized, &new);
            transact(&config.store, move |view| {
                Box::pin(async move {
                    let store = view.as_ref();
                    let existing = authorized.reread(store).await?;
                    let mut document = without_managed(existing.json.clone());
                    // Secrets and API keys have their own routes, and their stored form
                    // (sealed values, origins) is the service's: they are kept as they are.
                    let kept = take_service_parts(&mut document);
                    set_part(&mut document, segments, new.clone())?;
                    let changed =
                        parse_value::<SiteConfig>(document, SchemaKind::ApiSite, document_rules)?;
                    // A part written may not take away what the family requires of a site
                    // (a site that lacked it before, written by the older family, keeps
                    // taking writes of its other parts).
                    if family.check_site(&existing.json).is_ok() {
                        family.check_site(&changed.json)?;
                    }
                    let code = changed.typed.code.as_ref();
                    if touches_code {
                        onboarding::check_selectable(config.store.as_ref(), org, site, code)
                            .await?;
                    }
                    let mut document = changed.json;
                    restore(&mut document, kept);
                    stamp(&mut document, Some(&existing.json));
                    // What the site gives, computed over the document as it will be.
                    let (access, caller) = (authorized.access(), &authorized.caller);
                    check_site_write(store, access, caller, &existing, &document).await?;
                    let versioned = Versioned::Site { org, site };
                    versions::record(store, versioned, Some(&document), revision).await?;
                    save_json(store, &keys::site(org, site), &document).await?;
                    if touches_code {
                        onboarding::register(config.store.as_ref(), org, site, code).await?;
                    }
                    match new {
                        Some(value) => {
                            part.answer(Some(value), || ApiError::missing("nothing was written"))
                        }
                        None => Ok(StatusCode::NO_CONTENT.into_response()),
                    }
                })
            })
            .await
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// The rules of a site document: its parts' (`code`, `content`, `access`, `public`).
pub(super) fn document_rules(config: &SiteConfig) -> Vec<siteops_config::diagnostic::Diagnostic> {
    rules::parts(
        config.code.as_ref(),
        config.content.as_ref(),
        config.access.as_ref(),
        config.public.as_ref(),
    )
}

/// The parts of a stored site document only the service writes (`secrets`, `apiKeys`),
/// taken out of it.
pub(super) fn take_service_parts(document: &mut Value) -> Vec<(&'static str, Value)> {
    let Value::Object(map) = document else {
        return Vec::new();
    };
    ["secrets", "apiKeys"]
        .into_iter()
        .filter_map(|part| Some((part, map.remove(part)?)))
        .collect()
}

/// Puts back what [`take_service_parts`] took.
pub(super) fn restore(document: &mut Value, parts: Vec<(&'static str, Value)>) {
    if let Value::Object(map) = document {
        for (part, value) in parts {
            map.insert(part.to_string(), value);
        }
    }
}

/// Sets (`Some`) or removes (`None`) the part of `document` at `segments`, making the
/// objects on the way; 400 when one on the way is not an object.
pub(super) fn set_part(
    document: &mut Value,
    segments: &[&str],
    new: Option<Value>,
) -> Result<(), ApiError> {
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

/// The map `part` of a stored site document (`secrets`, `apiKeys`), made if absent; a
/// stored `null` (a whole-document write may send one) reads as empty. 500 for a document
/// that is no object, which no write stores.
pub(super) fn map_part<'d>(
    document: &'d mut Value,
    part: &str,
) -> Result<&'d mut serde_json::Map<String, Value>, ApiError> {
    let slot = document
        .as_object_mut()
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the stored site document is not an object",
            )
        })?
        .entry(part)
        .or_insert(Value::Null);
    if !slot.is_object() {
        *slot = Value::Object(serde_json::Map::new());
    }
    slot.as_object_mut().ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("`{part}` of the stored site document is not an object"),
        )
    })
}
