//! A site's secrets: `secrets.json` lists them (ids and dates, keyed by id, never a
//! value), `secrets/<id>.json` sets, shows (never the value) and deletes one.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::IgnoredAny;
use serde_json::Value;

use super::{ConfigStore, load_json, save_json, stamp};
use crate::api::answers::{SecretList, SecretView};
use crate::api::body::parse_body;
use crate::api::site::Configure;
use crate::api::{
    ApiError, AuthorizedSite, DOCUMENT_METHODS, LIST_METHODS, check_names, read_json_body,
};
use crate::sites;
use crate::store::{keys, transact};
use siteops_config::schema::SchemaKind;

/// `secrets/<id>.json`. Values are write-only.
pub(super) async fn secret(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    id: &str,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    check_names(&[("secret", id)])?;
    // A body is read before the caller is refused, as every write (see `save_site`).
    let parsed = match method {
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            Some(parse_body::<IgnoredAny>(
                &bytes,
                SchemaKind::ApiSecret,
                |_| Vec::new(),
            )?)
        }
        _ => None,
    };
    let authorized = authorized?;
    let AuthorizedSite { org, site, .. } = &authorized;
    let store = config.store.as_ref();
    let key = keys::secret(org, site, id);
    match (method, parsed) {
        (Method::GET | Method::HEAD, _) => {
            let stored = load_json(store, &key)
                .await?
                .ok_or_else(|| ApiError::missing(format!("{org}/{site} has no secret `{id}`")))?;
            Ok(Json(secret_view(id, &stored)).into_response())
        }
        (Method::POST, Some(body)) => {
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            let (authorized, key) = (&authorized, &key);
            transact(&config.store, move |view| {
                let mut value = body.json.clone();
                Box::pin(async move {
                    let store = view.as_ref();
                    let document = authorized.reread(store).await?;
                    let previous = load_json(store, key).await?;
                    stamp(&mut value, previous.as_ref());
                    // The value is issued for where the code block points now; code sync
                    // sends it there and nowhere else, whatever the code block says later.
                    if let (Value::Object(map), Some(origin)) =
                        (&mut value, sites::secret_origin(&document, id))
                    {
                        map.insert(sites::SECRET_ORIGIN.into(), Value::String(origin));
                    }
                    let sealed = sites::sealed::seal_document(key, value.clone())
                        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                    save_json(store, key, &sealed).await?;
                    Ok(Json(secret_view(id, &value)).into_response())
                })
            })
            .await
        }
        (Method::DELETE, _) => {
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            authorized.reread(store).await?;
            store.delete(&key).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// `GET secrets.json`: the site's secrets as GET shows each (id and dates, never a
/// value), keyed by id. `siteops plan` reads it to learn which secrets exist, and which
/// `--prune` may delete, in one request per site.
pub(super) async fn list(
    config: &ConfigStore,
    authorized: &AuthorizedSite<Configure>,
    method: Method,
) -> Result<Response, ApiError> {
    if !matches!(method, Method::GET | Method::HEAD) {
        return Err(ApiError::method_not_allowed(LIST_METHODS));
    }
    let AuthorizedSite { org, site, .. } = authorized;
    let store = config.store.as_ref();
    let mut secrets = BTreeMap::new();
    for name in store.list(&keys::secrets(org, site)).await? {
        let Some(id) = name.strip_suffix(".json") else {
            continue;
        };
        if let Some(stored) = load_json(store, &keys::secret(org, site, id)).await? {
            secrets.insert(id.to_string(), secret_view(id, &stored));
        }
    }
    Ok(Json(SecretList { secrets }).into_response())
}

/// A secret as GET shows it: its id and dates, never its value.
fn secret_view(id: &str, stored: &Value) -> SecretView {
    let date = |field: &str| {
        stored
            .get(field)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    SecretView {
        id: id.to_string(),
        created: date("created"),
        last_modified: date("lastModified"),
    }
}
