//! API keys of a site, of the org and of a profile, one code path for the three: the
//! document's `apiKeys.json` lists the records of the keys minted for it (`apiKeys` of the
//! document) and, on POST `{description, roles}`, mints one: a token the service signs,
//! holding those roles, answered this once; its id (`jti`) is recorded in the document,
//! and `apiKeys/<id>.json` shows or deletes the record. A key holds only while its record
//! does: deleting it revokes the key ([`crate::auth::standing`]).
//!
//! What a key is good for: a site's, that site ([`Site`]); the org's, every site of the
//! org; a profile's, every site that extends the profile. Each is a [`KeyDocument`].

use axum::Json;
use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::secrets::random_text;
use super::{ConfigStore, save_json};
use crate::api::answers::MadeApiKey;
use crate::api::body::{KeyRequest, parse_json};
use crate::api::error::code;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, read_json_body};
use crate::auth::permissions::{self, Permission};
use crate::auth::{Action, Claims};
use crate::sites::Site;
use crate::store::{keys, transact};
use siteops_config::model::api::{ApiKey, ApiKeys, ROLE_PATTERN};

/// How long a minted key holds: a year, as the platform's keys.
const KEY_LIFETIME: u64 = 365 * 86_400;

/// The body of a POST, checked: at least one role, each a role name.
pub(super) fn parse_request(value: Value) -> Result<KeyRequest, ApiError> {
    let request: KeyRequest = serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(e.to_string()).with_code(code::TYPE_INVALID))?;
    check_roles(&request.roles)?;
    Ok(request)
}

/// Whether a key with `request`'s roles could change who administers a site
/// (`admin:acl`): minting one is granting that.
pub(super) fn grants_admin(request: &KeyRequest) -> bool {
    request
        .roles
        .iter()
        .any(|role| permissions::of_role(role).contains(&Permission::AdminAcl))
}

/// A document API keys are minted for and recorded in: a site's, the org's, a profile's.
pub(super) trait KeyDocument {
    /// The document, for messages: `acme/web`, `the org acme`, `profile acme/shared`.
    fn what(&self) -> String;
    /// The claims of a key `id` minted now (`iat`), before its roles: its subject and
    /// audience (and profile), the sites it is good for.
    fn claims(&self, id: &str, now: u64) -> Claims;
    /// The records the document holds now.
    async fn records(&self) -> Result<Option<ApiKeys>, ApiError>;
    /// Records (`Some`) or removes (`None`) key `id` in the document, in one transaction;
    /// what is written must read back.
    async fn write(&self, id: &str, record: Option<Value>) -> Result<(), ApiError>;
}

/// `GET apiKeys.json`: the records, as the platform's `apikeys` schema has them.
pub(super) async fn list(document: &impl KeyDocument) -> Result<Response, ApiError> {
    Ok(Json(document.records().await?.unwrap_or_default()).into_response())
}

/// `apiKeys/<id>.json`: GET shows the record; DELETE removes it, revoking the key.
pub(super) async fn key(
    document: &impl KeyDocument,
    id: &str,
    method: Method,
) -> Result<Response, ApiError> {
    if !matches!(method, Method::GET | Method::HEAD | Method::DELETE) {
        return Err(ApiError::method_not_allowed("GET, HEAD, DELETE"));
    }
    let missing = || ApiError::missing(format!("{} has no API key `{id}`", document.what()));
    let records = document.records().await?;
    let record = records.as_ref().and_then(|keys| keys.0.get(id));
    match method {
        Method::GET | Method::HEAD => Ok(Json(record.ok_or_else(missing)?).into_response()),
        Method::DELETE => {
            record.ok_or_else(missing)?;
            document.write(id, None).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed("GET, HEAD, DELETE")),
    }
}

/// Mints a key for `document` and records it there: 201, the record with the token
/// (`value`), answered this once.
pub(super) async fn mint(
    config: &ConfigStore,
    document: &impl KeyDocument,
    request: KeyRequest,
) -> Result<Response, ApiError> {
    let id = random_text(12)?;
    let now = crate::time::now_seconds();
    let claims = Claims {
        roles: Some(request.roles.clone()),
        ..document.claims(&id, now)
    };
    let record = ApiKey {
        id: id.clone(),
        subject: claims.sub.clone(),
        created: crate::time::format_rfc3339(now, 0),
        expiration: crate::time::format_rfc3339(claims.exp, 0),
        roles: request.roles,
        description: request.description,
    };
    let stored = serde_json::to_value(&record).expect("records serialize");
    document.write(&id, Some(stored)).await?;
    let value = config.key.sign(&claims);
    Ok((StatusCode::CREATED, Json(MadeApiKey { record, value })).into_response())
}

/// The claims every key shares: its id, its dates; `sub` and `aud` are the document's.
pub(super) fn claims(sub: String, aud: String, id: &str, now: u64) -> Claims {
    Claims {
        sub,
        iat: now,
        exp: now + KEY_LIFETIME,
        aud,
        jti: Some(id.to_string()),
        roles: None,
        profile: None,
    }
}

/// Checks the `apiKeys` a whole-document write sends (`sent`) against the records the
/// document holds (`stored`): each record sent must be a live key's, as the service
/// answers it (so GET then POST of a document passes); a revoked key's record, or one the
/// service never minted, is refused (409, naming `/apiKeys/<id>`): a key is made by
/// minting it, never by writing its record, and a revoked one stays revoked.
pub(super) fn check_sent(sent: Option<&Value>, stored: Option<&Value>) -> Result<(), ApiError> {
    let Some(Value::Object(sent)) = sent else {
        return match sent {
            None | Some(Value::Null) => Ok(()),
            Some(_) => {
                Err(ApiError::bad_request("/apiKeys: expected an object")
                    .with_code(code::TYPE_INVALID))
            }
        };
    };
    let stored = stored.and_then(Value::as_object);
    match sent
        .iter()
        .find(|(id, record)| stored.and_then(|s| s.get(id.as_str())) != Some(*record))
    {
        None => Ok(()),
        Some((id, _)) => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "/apiKeys/{id}: not a live API key of this document as recorded (revoked, \
                 or never minted); keys are minted with POST apiKeys.json, and their \
                 records are the service's"
            ),
        )),
    }
}

/// Sets (`Some`) or removes (`None`) record `id` in `document`'s `apiKeys`.
pub(super) fn set_record(
    document: &mut Value,
    id: &str,
    record: Option<&Value>,
) -> Result<(), ApiError> {
    let entries = super::parts::map_part(document, "apiKeys")?;
    match record {
        Some(record) => entries.insert(id.to_string(), record.clone()),
        None => entries.remove(id),
    };
    Ok(())
}

/// A site's `apiKeys.json`: GET lists the records; POST mints a key (201, with its
/// token), which needs the site's `admin` (a key may carry any role: minting one is
/// granting it).
pub(super) async fn site_list(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    match method {
        Method::GET | Method::HEAD => list(&SiteKeys(config, &authorized?)).await,
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            let request = parse_request(parse_json(&bytes)?)?;
            let authorized = authorized?;
            authorized.permit(Action::GrantAdmin)?;
            mint(config, &SiteKeys(config, &authorized), request).await
        }
        _ => Err(ApiError::method_not_allowed("GET, HEAD, POST")),
    }
}

/// A site's `apiKeys/<id>.json`.
pub(super) async fn site_key(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    id: &str,
    method: Method,
) -> Result<Response, ApiError> {
    key(&SiteKeys(config, &authorized?), id, method).await
}

/// A site's document, as API keys see it: a key for that site alone.
struct SiteKeys<'a>(&'a ConfigStore, &'a AuthorizedSite<Configure>);

impl KeyDocument for SiteKeys<'_> {
    fn what(&self) -> String {
        format!("{}/{}", self.1.org, self.1.site)
    }

    fn claims(&self, id: &str, now: u64) -> Claims {
        let names = format!("{}/{}", self.1.org, self.1.site);
        claims(names.clone(), names, id, now)
    }

    async fn records(&self) -> Result<Option<ApiKeys>, ApiError> {
        Ok(self.1.document.config.api_keys.clone())
    }

    async fn write(&self, id: &str, record: Option<Value>) -> Result<(), ApiError> {
        let SiteKeys(config, authorized) = self;
        let AuthorizedSite { org, site, .. } = authorized;
        let _guard = config.locks.lock(&keys::site(org, site)).await;
        let record = &record;
        transact(&config.store, move |view| {
            Box::pin(async move {
                let store = view.as_ref();
                let mut document = authorized.reread(store).await?.json;
                set_record(&mut document, id, record.as_ref())?;
                let changed = Site::from_json(org, site, document)?;
                let revision = super::versions::revision(&authorized.caller, None);
                let versioned = crate::sites::versions::Versioned::Site { org, site };
                crate::sites::versions::record(store, versioned, Some(&changed.json), &revision)
                    .await?;
                save_json(store, &keys::site(org, site), &changed.json).await?;
                Ok(())
            })
        })
        .await
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
