//! A site's secrets, entries of its one document (`secrets.<id>`): `secrets.json` lists
//! them (ids and dates, keyed by id, never a value) and, on POST, makes a secret whose
//! value the service chooses and answers once (its id the service's too, or the `id` the
//! body names: a made secret that a code block or access block names; it is then made
//! anew, replacing one of that id). A made secret is kept as `hashed`, the platform's
//! type for what the service made, so that an import tells it from a set one; `secrets/<id>.json` sets a value a client
//! sends, shows an entry (never its value) and deletes one. Values are stored sealed
//! ([`sites::sealed::seal_value`]) and never read back through the API.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::json;

use super::versions::Versioning;
use super::{ConfigStore, save_json};
use crate::api::answers::{MadeSecret, SecretList, SecretView};
use crate::api::body::parse_body;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, DOCUMENT_METHODS, check_names_for, read_json_body};
use crate::sites::{self, Site};
use crate::store::{keys, transact};
use siteops_config::model::api::SecretBody;
use siteops_config::schema::SchemaKind;

/// `secrets/<id>.json`. Values are write-only.
pub(super) async fn secret(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    id: &str,
    (method, versioning, headers, body): (Method, &Versioning, &HeaderMap, Body),
) -> Result<Response, ApiError> {
    check_names_for(&method, &[("secret", id)])?;
    // A body is read before the caller is refused, as every write (see `save_site`).
    let value = match method {
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            let body = parse_body::<SecretBody>(&bytes, SchemaKind::ApiSecret, |_| Vec::new())?;
            Some(body.typed.value)
        }
        _ => None,
    };
    let authorized = authorized?;
    let name = versioning.name()?;
    match (method, value) {
        (Method::GET | Method::HEAD, _) => {
            let view = view_of(&authorized.document, id).ok_or_else(|| {
                let AuthorizedSite { org, site, .. } = &authorized;
                ApiError::missing(format!("{org}/{site} has no secret `{id}`"))
            })?;
            Ok(Json(view).into_response())
        }
        (Method::POST, Some(value)) => {
            let view = write(config, &authorized, id, Some(&value), false, name).await?;
            Ok(Json(view).into_response())
        }
        (Method::DELETE, _) => {
            write(config, &authorized, id, None, false, name).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// `secrets.json`: GET lists the site's secrets as GET shows each (id and dates, never a
/// value), keyed by id (`siteops plan` reads it to learn which secrets exist, and which
/// `--prune` may delete, in one request per site); POST makes a secret with a value the
/// service chooses, and answers that value, once (201).
pub(super) async fn list(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    // A body is read before the caller is refused, as every write.
    let named = match method {
        Method::POST => made_id(headers, body).await?,
        _ => None,
    };
    let authorized = authorized?;
    match method {
        Method::GET | Method::HEAD => {
            let ids = authorized.document.config.secrets.iter();
            let secrets: BTreeMap<String, SecretView> = ids
                .flat_map(|secrets| secrets.0.keys())
                .filter_map(|id| Some((id.clone(), view_of(&authorized.document, id)?)))
                .collect();
            Ok(Json(SecretList { secrets }).into_response())
        }
        Method::POST => {
            let (id, value) = made()?;
            let id = named.unwrap_or(id);
            let view = write(config, &authorized, &id, Some(&value), true, None).await?;
            Ok(made_answer(id, value, view))
        }
        _ => Err(ApiError::method_not_allowed("GET, HEAD, POST")),
    }
}

/// The id a request to make a secret names: its body `{"id": "<id>"}`; none for an empty
/// body, `null` or `{}`.
async fn made_id(headers: &HeaderMap, body: Body) -> Result<Option<String>, ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct MakeRequest {
        id: Option<String>,
    }
    let bytes = read_json_body(headers, body).await?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let request: Option<MakeRequest> = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("a secret to make: {e}")))?;
    let id = request.and_then(|request| request.id);
    if let Some(id) = &id {
        check_names_for(&Method::POST, &[("secret", id)])?;
    }
    Ok(id)
}

/// A stored secret entry: `value` sealed for `name` (the secret's own name, so that it
/// opens only as that secret's), `created` kept from the `previous` entry; `hashed` when
/// the service `made` the value, else `key`.
pub(super) fn entry(
    previous: Option<&serde_json::Value>,
    id: &str,
    name: &str,
    value: &str,
    made: bool,
) -> Result<serde_json::Value, ApiError> {
    let now = crate::time::now_rfc3339();
    let created = previous
        .and_then(|p| p.get("created"))
        .cloned()
        .unwrap_or_else(|| json!(now));
    let sealed = sites::sealed::seal_value(name, value)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    let kind = if made { "hashed" } else { "key" };
    Ok(json!({
        "id": id, "type": kind, "value": sealed,
        "created": created, "lastModified": now,
    }))
}

/// A new secret's id and value, both the service's choice.
pub(super) fn made() -> Result<(String, String), ApiError> {
    let id = format!(
        "s-{}",
        random_text(9)?.to_ascii_lowercase().replace('_', "-")
    );
    Ok((id, random_text(32)?))
}

/// The answer to the POST that made secret `id` (201): its value, this once, and the
/// dates it was kept with.
pub(super) fn made_answer(id: String, value: String, kept: SecretView) -> Response {
    let answer = MadeSecret {
        id,
        value,
        created: kept.created.unwrap_or_default(),
        last_modified: kept.last_modified.unwrap_or_default(),
    };
    (StatusCode::CREATED, Json(answer)).into_response()
}

/// Secret `id` of a document's `secrets` as GET shows it: its id and dates.
pub(super) fn view(
    secrets: Option<&siteops_config::model::api::SecretEntries>,
    id: &str,
) -> Option<SecretView> {
    let entry = secrets?.0.get(id)?;
    Some(SecretView {
        id: id.to_string(),
        created: entry.created.clone(),
        last_modified: entry.last_modified.clone(),
    })
}

/// `bytes` random bytes as base64url text.
pub(super) fn random_text(bytes: usize) -> Result<String, ApiError> {
    let mut random = vec![0u8; bytes];
    getrandom::fill(&mut random).map_err(|error| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no randomness: {error}"),
        )
    })?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random))
}

/// Sets (`Some`) or deletes (`None`) secret `id` of the authorised site, in one
/// transaction over its document, as a version named `name`; the entry as GET shows it.
async fn write(
    config: &ConfigStore,
    authorized: &AuthorizedSite<Configure>,
    id: &str,
    value: Option<&str>,
    made: bool,
    name: Option<String>,
) -> Result<SecretView, ApiError> {
    let AuthorizedSite { org, site, .. } = authorized;
    let revision = &super::versions::revision(&authorized.caller, name);
    let _guard = config.locks.lock(&keys::site(org, site)).await;
    transact(&config.store, move |view| {
        Box::pin(async move {
            let store = view.as_ref();
            let existing = authorized.reread(store).await?;
            let mut document = existing.json.clone();
            let entries = super::parts::map_part(&mut document, "secrets")?;
            let previous = entries.remove(id);
            if let Some(value) = value {
                let name = keys::secret(org, site, id);
                let mut entry = entry(previous.as_ref(), id, &name, value, made)?;
                // The value is issued for where the code block points now; code sync
                // sends it there and nowhere else, whatever the code block says later.
                if let Some(origin) = sites::secret_origin(&existing, id) {
                    entry[sites::SECRET_ORIGIN] = json!(origin);
                }
                entries.insert(id.to_string(), entry);
            }
            // What is written reads back, or it is not written.
            let changed = Site::from_json(org, site, document)?;
            let versioned = crate::sites::versions::Versioned::Site { org, site };
            crate::sites::versions::record(store, versioned, Some(&changed.json), revision).await?;
            save_json(store, &keys::site(org, site), &changed.json).await?;
            Ok(view_of(&changed, id).unwrap_or_else(|| SecretView {
                id: id.to_string(),
                created: None,
                last_modified: None,
            }))
        })
    })
    .await
}

/// Secret `id` as GET shows it: its id and dates, never its value.
fn view_of(document: &Site, id: &str) -> Option<SecretView> {
    view(document.config.secrets.as_ref(), id)
}
