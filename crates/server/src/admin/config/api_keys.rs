//! A site's API keys: `apiKeys.json` lists the records of the keys minted for the site
//! (`apiKeys` of its document) and, on POST `{description, roles}`, mints one: a token the
//! service signs for the site alone, holding those roles, answered this once; its id
//! (`jti`) is recorded in the document, and `apiKeys/<id>.json` shows or deletes the
//! record. A key holds only while its record does: deleting it revokes the key.

use axum::Json;
use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::secrets::random_text;
use super::{ConfigStore, save_json};
use crate::api::body::parse_json;
use crate::api::error::code;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, read_json_body};
use crate::auth::{Action, Claims};
use crate::sites::Site;
use crate::store::{keys, transact};
use siteops_config::model::api::ROLE_PATTERN;

/// How long a minted key holds: a year, as the platform's keys.
const KEY_LIFETIME: u64 = 365 * 86_400;

/// The body of a POST to `apiKeys.json`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyRequest {
    #[serde(default)]
    description: Option<String>,
    roles: Vec<String>,
}

/// `apiKeys.json`: GET lists the records; POST mints a key (201, with its token).
pub(super) async fn list(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    match method {
        Method::GET | Method::HEAD => {
            let records = authorized?.document.config.api_keys.unwrap_or_default();
            Ok(Json(records).into_response())
        }
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            let request: KeyRequest = serde_json::from_value(parse_json(&bytes)?)
                .map_err(|e| ApiError::bad_request(e.to_string()).with_code(code::TYPE_INVALID))?;
            check_roles(&request.roles)?;
            let authorized = authorized?;
            // A key may carry any role, `admin` among them: minting one is granting it.
            authorized.permit(authorized.document.access(), Action::GrantAdmin)?;
            mint(config, &authorized, request).await
        }
        _ => Err(ApiError::method_not_allowed("GET, HEAD, POST")),
    }
}

/// `apiKeys/<id>.json`: GET shows the record; DELETE removes it, revoking the key.
pub(super) async fn key(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    id: &str,
    method: Method,
) -> Result<Response, ApiError> {
    let authorized = authorized?;
    let AuthorizedSite { org, site, .. } = &authorized;
    let missing = || ApiError::missing(format!("{org}/{site} has no API key `{id}`"));
    match method {
        Method::GET | Method::HEAD => {
            let keys = authorized.document.config.api_keys.as_ref();
            let record = keys.and_then(|keys| keys.0.get(id)).ok_or_else(missing)?;
            Ok(Json(record).into_response())
        }
        Method::DELETE => {
            if !authorized.document.records_key(id) {
                return Err(missing());
            }
            write(config, &authorized, id, None).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed("GET, HEAD, DELETE")),
    }
}

/// At least one role, each a role name as `admin.role` takes them.
fn check_roles(roles: &[String]) -> Result<(), ApiError> {
    let pattern = regex_lite_match(ROLE_PATTERN);
    if roles.is_empty() || !roles.iter().all(|role| pattern(role)) {
        return Err(ApiError::bad_request(format!(
            "/roles: one role or more, each matching {ROLE_PATTERN}"
        ))
        .with_code(code::TYPE_INVALID));
    }
    Ok(())
}

/// A matcher for [`ROLE_PATTERN`] (`^[a-z-_]+$`), without a regular-expression engine.
fn regex_lite_match(pattern: &str) -> impl Fn(&str) -> bool {
    debug_assert_eq!(pattern, "^[a-z-_]+$");
    |role: &str| {
        !role.is_empty()
            && role
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
    }
}

/// Mints a key for the authorised site and records it in its document.
async fn mint(
    config: &ConfigStore,
    authorized: &AuthorizedSite<Configure>,
    request: KeyRequest,
) -> Result<Response, ApiError> {
    let AuthorizedSite { org, site, .. } = authorized;
    let id = random_text(12)?;
    let now = crate::time::now_seconds();
    let claims = Claims {
        sub: format!("{org}/{site}"),
        iat: now,
        exp: now + KEY_LIFETIME,
        aud: format!("{org}/{site}"),
        jti: Some(id.clone()),
        roles: Some(request.roles.clone()),
    };
    let mut record = json!({
        "id": id,
        "subject": claims.sub,
        "created": crate::time::format_rfc3339(now, 0),
        "expiration": crate::time::format_rfc3339(claims.exp, 0),
        "roles": request.roles,
    });
    if let Some(description) = request.description {
        record["description"] = json!(description);
    }
    write(config, authorized, &id, Some(record.clone())).await?;
    record["value"] = json!(config.key.sign(&claims));
    Ok((StatusCode::CREATED, Json(record)).into_response())
}

/// Records (`Some`) or removes (`None`) API key `id` in the site's document, in one
/// transaction; what is written must read back.
async fn write(
    config: &ConfigStore,
    authorized: &AuthorizedSite<Configure>,
    id: &str,
    record: Option<Value>,
) -> Result<(), ApiError> {
    let AuthorizedSite { org, site, .. } = authorized;
    let _guard = config.locks.lock(&keys::site(org, site)).await;
    let record = &record;
    transact(&config.store, move |view| {
        Box::pin(async move {
            let store = view.as_ref();
            let mut document = authorized.reread(store).await?.json;
            let entries = super::parts::map_part(&mut document, "apiKeys")?;
            match record {
                Some(record) => entries.insert(id.to_string(), record.clone()),
                None => entries.remove(id),
            };
            let changed = Site::from_json(org, site, document)?;
            save_json(store, &keys::site(org, site), &changed.json).await?;
            Ok(())
        })
    })
    .await
}
