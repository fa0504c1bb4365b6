//! `/config/<org>/sites/…`: the site configuration and its sub-resources.
//!
//! Storage layout (keys of the [`Store`]):
//! - `config/<org>/sites/<site>.json`: the site document (`version`, `code`, `content`,
//!   `access`, `created`, `lastModified`). `access.json`, `code.json` and `content.json`
//!   read and write one field of it, as the hosted service does.
//! - `config/<org>/sites/<site>/public.json`: the public configuration.
//! - `config/<org>/sites/<site>/secrets/<id>.json`: `{value, created, lastModified}`, and
//!   `origin` when the site's code block names the secret (what the value was issued for:
//!   [`sites::secret_origin`]); the value is never returned. `secrets.json` lists them without values.
//!
//! Every write of a site runs under that site's lock, so concurrent read-modify-write
//! requests cannot lose each other's updates.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use crate::api::answers::{SecretList, SecretView, SiteList, SiteName};
use crate::api::body::parse_body;
use crate::api::site::{Configure, DeleteSite};
use crate::api::{
    ApiError, AuthorizedSite, Caller, DOCUMENT_METHODS, LIST_METHODS, SiteAccess, check_names,
    read_json_body, strip_json,
};
use crate::app::AppState;
use crate::auth::{Action, Claims, Decision, authorize};
use crate::sites;
use crate::sites::onboarding;
use crate::store::{KeyedLocks, Store, keys, transact};
use siteops_config::model::api::{
    AccessConfig, CodeConfig, ContentConfig, PublicConfig, SiteConfig,
};
use siteops_config::rules;
use siteops_config::schema::SchemaKind;

/// What the configuration routes write with: the store, the per-site locks, and how many
/// sites an org may have.
#[derive(Clone)]
pub struct ConfigStore {
    store: Arc<dyn Store>,
    locks: Arc<KeyedLocks>,
    sites_per_org: usize,
}

impl FromRef<Arc<AppState>> for ConfigStore {
    fn from_ref(state: &Arc<AppState>) -> ConfigStore {
        ConfigStore {
            store: state.store.clone(),
            locks: state.locks.clone(),
            sites_per_org: state.throttles.quotas.sites_per_org,
        }
    }
}

async fn load_json(store: &dyn Store, key: &str) -> Result<Option<Value>, ApiError> {
    Ok(sites::read(store, key).await?)
}

async fn save_json(store: &dyn Store, key: &str, value: &Value) -> Result<(), ApiError> {
    let bytes = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    Ok(store.put(key, &bytes).await?)
}

/// Sets `created` (kept from the previous version) and `lastModified`.
fn stamp(value: &mut Value, previous: Option<&Value>) {
    let now = crate::time::now_rfc3339();
    let created = previous
        .and_then(|p| p.get("created"))
        .cloned()
        .unwrap_or_else(|| Value::String(now.clone()));
    if let Value::Object(map) = value {
        map.insert("created".into(), created);
        map.insert("lastModified".into(), Value::String(now));
    }
}

/// The addresses an access configuration makes `admin`, compared as addresses are.
fn admin_grants(access: Option<&AccessConfig>) -> BTreeSet<String> {
    access
        .and_then(|a| a.holders("admin"))
        .into_iter()
        .flatten()
        .map(|entry| entry.trim().to_ascii_lowercase())
        .collect()
}

/// Whether an access configuration makes the site require authentication (`requireAuth`
/// `auto` or `true`), as [`Site::requires_auth`] reads it.
fn protects(access: Option<&AccessConfig>) -> bool {
    access.is_some_and(AccessConfig::requires_auth)
}

/// A write of a site's access block (`new` replacing `old`; `None`: no access block) that
/// changes who is `admin` ([`Action::GrantAdmin`]) or stops the site requiring
/// authentication ([`Action::DropAuthentication`]) needs an admin of the site or of the
/// org: a `config_admin` may not raise anyone (itself included) nor open a protected site
/// (protecting one is configuration). `permit` asks whether the caller may do an action
/// with the old access block. 403 naming the field, under `at` (the access block's pointer
/// in the body).
fn check_access_change(
    permit: impl Fn(Option<&AccessConfig>, Action) -> Result<(), ApiError>,
    (org, site): (&str, &str),
    old: Option<&AccessConfig>,
    new: Option<&AccessConfig>,
    at: &str,
) -> Result<(), ApiError> {
    let guarded = [
        (
            admin_grants(old) != admin_grants(new),
            Action::GrantAdmin,
            "admin/role/admin",
            "change who is admin",
        ),
        (
            protects(old) && !protects(new),
            Action::DropAuthentication,
            "admin/requireAuth",
            "stop the site requiring authentication",
        ),
    ];
    for (changed, action, field, what) in guarded {
        if !changed {
            continue;
        }
        permit(old, action).map_err(|error| {
            if error.status == StatusCode::FORBIDDEN {
                ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!(
                        "{at}/{field}: only an admin of {org}/{site} (or an org administrator) may {what}"
                    ),
                )
            } else {
                error
            }
        })?;
    }
    Ok(())
}

/// `GET /config/<org>/sites.json`: the sites of the org the caller may configure.
pub(crate) async fn list_sites(
    State(access): State<SiteAccess>,
    Caller(caller): Caller,
    Path((org, file)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if file != "sites.json" {
        return Err(ApiError::not_found(format!("no such resource `{file}`")));
    }
    check_names(&[("org", &org)])?;
    let sites = sites_of(&access, &org, &caller).await?;
    Ok(Json(SiteList { sites }).into_response())
}

/// The sites of `org` that `caller` may configure: every one for an org administrator
/// (no document read), else those whose access grants it.
async fn sites_of(
    access: &SiteAccess,
    org: &str,
    caller: &Claims,
) -> Result<Vec<SiteName>, ApiError> {
    let store = access.store.as_ref();
    let org_admin = access.org_admins.is_admin(org, &caller.sub) && caller.covers_org(org);
    let mut sites = Vec::new();
    for name in store.list(&keys::sites(org)).await? {
        let Some(site) = name.strip_suffix(".json") else {
            continue;
        };
        let allowed = org_admin || {
            let Some(document) = sites::load(store, org, site).await? else {
                continue;
            };
            authorize(
                Some(caller),
                org,
                site,
                document.access(),
                &access.org_admins,
                Action::Configure,
            ) == Decision::Allow
        };
        if allowed {
            sites.push(SiteName {
                name: site.to_string(),
            });
        }
    }
    Ok(sites)
}

/// `GET /config/<org>/sites/<site>.json`.
pub async fn site(authorized: AuthorizedSite<Configure>) -> Response {
    Json(authorized.document.json).into_response()
}

/// `DELETE /config/<org>/sites/<site>.json`: the site, its sub-resources and previews.
pub(crate) async fn delete_site(
    State(config): State<ConfigStore>,
    authorized: AuthorizedSite<DeleteSite>,
) -> Result<Response, ApiError> {
    let AuthorizedSite { org, site, .. } = &authorized;
    let store = config.store.as_ref();
    let _guard = config.locks.lock(&keys::site(org, site)).await;
    // Under the lock: a delete that came first leaves nothing to delete (404).
    authorized.reread(store).await?;
    store.delete(&keys::site(org, site)).await?;
    store.delete_all(&keys::site_folder(org, site)).await?;
    // Its previews and their usage go too: a site made again starts empty.
    store.delete_all(&keys::previews(org, site)).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `PUT` (create) and `POST` (create or replace) `/config/<org>/sites/<site>.json`.
pub(crate) async fn save_site(
    State(config): State<ConfigStore>,
    State(access): State<SiteAccess>,
    caller: Result<Caller, ApiError>,
    Path((org, file)): Path<(String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let site = strip_json(&file, "site")?;
    check_names(&[("org", &org), ("site", site)])?;
    // The body is read before the caller is refused: a client that sends it whole reads
    // the answer, not a reset connection (and a body past the limit reads 413).
    let bytes = read_json_body(&headers, body).await?;
    let body = parse_body::<SiteConfig>(&bytes, SchemaKind::ApiSite, rules::site_config)?;
    let Caller(caller) = caller?;
    let permit = |access_block: Option<&AccessConfig>, action| {
        access.permit(&caller, (&org, site), access_block, action)
    };
    // The org's lock first (the only place two are taken, always in this order):
    // counting the org's sites and creating one are one step.
    let _org = config.locks.lock(&keys::sites(&org)).await;
    let _guard = config.locks.lock(&keys::site(&org, site)).await;
    // Another instance may write the site meanwhile: the section runs again if so.
    let (config, org, method, body, permit) = (&config, org.as_str(), &method, &body, &permit);
    transact(&config.store, move |view| {
        let mut value = body.json.clone();
        Box::pin(async move {
            let store = view.as_ref();
            let previous = sites::load(store, org, site).await?;
            match &previous {
                None => {
                    permit(None, Action::CreateSite)?;
                    check_room(config, org).await?;
                }
                Some(document) if *method == Method::PUT => {
                    permit(document.access(), Action::Configure)?;
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        format!("site {org}/{site} exists; POST replaces it"),
                    ));
                }
                Some(document) => {
                    permit(document.access(), Action::Configure)?;
                    check_access_change(
                        permit,
                        (org, site),
                        document.access(),
                        body.typed.access.as_ref(),
                        "/access",
                    )?;
                }
            }
            if let Value::Object(map) = &mut value {
                map.entry("version").or_insert(json!(1));
            }
            let code = body.typed.code.as_ref();
            onboarding::check_selectable(config.store.as_ref(), org, site, code).await?;
            stamp(&mut value, previous.as_ref().map(|p| &p.json));
            save_json(store, &keys::site(org, site), &value).await?;
            onboarding::register(config.store.as_ref(), org, site, code).await?;
            let status = if previous.is_none() && *method == Method::PUT {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            Ok((status, Json(value)).into_response())
        })
    })
    .await
}

/// A new site must fit the org's quota ([`crate::quota::Quotas::sites_per_org`]): 409
/// beyond it.
async fn check_room(config: &ConfigStore, org: &str) -> Result<(), ApiError> {
    let most = config.sites_per_org;
    let sites = config
        .store
        .list(&keys::sites(org))
        .await?
        .iter()
        .filter(|name| name.ends_with(".json"))
        .count();
    if sites >= most {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("{org} has {sites} sites, the most one org may have ({most})"),
        ));
    }
    Ok(())
}

/// A new value of a field of the site document, typed for what its write checks.
enum FieldBody {
    Access(AccessConfig),
    Code(CodeConfig),
    Content,
}

/// Reads and validates the body of a `POST` to the field `name`'s resource.
async fn field_body(
    name: &str,
    headers: &HeaderMap,
    body: Body,
) -> Result<(Value, FieldBody), ApiError> {
    let bytes = read_json_body(headers, body).await?;
    Ok(match name {
        "access" => {
            let body = parse_body(&bytes, SchemaKind::ApiAccess, rules::access)?;
            (body.json, FieldBody::Access(body.typed))
        }
        "code" => {
            let body = parse_body(&bytes, SchemaKind::ApiCode, rules::code)?;
            (body.json, FieldBody::Code(body.typed))
        }
        _ => {
            let body = parse_body::<ContentConfig>(&bytes, SchemaKind::ApiContent, rules::content)?;
            (body.json, FieldBody::Content)
        }
    })
}

/// `/config/<org>/sites/<site>/<field>.json`: `public`, or a field of the site document.
pub(crate) async fn sub_resource(
    State(config): State<ConfigStore>,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    Path((_, _, file)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let name = strip_json(&file, "sub-resource")?;
    if name == "public" {
        return public(&config, authorized, method, &headers, body).await;
    }
    if name == "secrets" {
        return list_secrets(&config, &authorized?, method).await;
    }
    if !matches!(name, "access" | "code" | "content") {
        return Err(ApiError::not_found(format!(
            "no such sub-resource `{file}`"
        )));
    }
    match method {
        Method::GET | Method::HEAD => {
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let field = authorized.document.json.get(name).cloned().ok_or_else(|| {
                ApiError::not_found(format!("{org}/{site} has no {name} configuration"))
            })?;
            Ok(Json(field).into_response())
        }
        Method::POST | Method::DELETE => {
            let new = if method == Method::POST {
                Some(field_body(name, &headers, body).await?)
            } else {
                None
            };
            // After the body, as every write (see `save_site`).
            let authorized = authorized?;
            let AuthorizedSite { org, site, .. } = &authorized;
            let (access, code) = match &new {
                Some((_, FieldBody::Access(access))) => (Some(access), None),
                Some((_, FieldBody::Code(code))) => (None, Some(code)),
                Some((_, FieldBody::Content)) | None => (None, None),
            };
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            let (config, authorized, new) = (&config, &authorized, &new);
            transact(&config.store, move |view| {
                Box::pin(async move {
                    let store = view.as_ref();
                    let existing = authorized.reread(store).await?;
                    if name == "access" {
                        check_access_change(
                            |old, action| authorized.permit(old, action),
                            (org, site),
                            existing.access(),
                            access,
                            "",
                        )?;
                    }
                    let mut document = existing.json;
                    if name == "code" {
                        onboarding::check_selectable(config.store.as_ref(), org, site, code)
                            .await?;
                    }
                    let previous = document.clone();
                    let Value::Object(map) = &mut document else {
                        return Err(ApiError::new(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            "a stored document is damaged",
                        ));
                    };
                    match new {
                        Some((value, _)) => map.insert(name.to_string(), value.clone()),
                        None => map.remove(name),
                    };
                    stamp(&mut document, Some(&previous));
                    save_json(store, &keys::site(org, site), &document).await?;
                    if name == "code" {
                        onboarding::register(config.store.as_ref(), org, site, code).await?;
                    }
                    Ok(match new {
                        Some((value, _)) => Json(value.clone()).into_response(),
                        None => StatusCode::NO_CONTENT.into_response(),
                    })
                })
            })
            .await
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
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
                ApiError::not_found(format!("{org}/{site} has no public configuration"))
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

/// `/config/<org>/sites/<site>/secrets/<id>.json`. Values are write-only.
pub async fn secret(
    State(config): State<ConfigStore>,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    Path((_, _, file)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let id = strip_json(&file, "secret")?;
    check_names(&[("secret", id)])?;
    // A body is read before the caller is refused, as every write (see `save_site`).
    let parsed = match method {
        Method::POST => {
            let bytes = read_json_body(&headers, body).await?;
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
                .ok_or_else(|| ApiError::not_found(format!("{org}/{site} has no secret `{id}`")))?;
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

/// `GET /config/<org>/sites/<site>/secrets.json`: the site's secrets as GET shows each
/// (id and dates, never a value), sorted by id. `siteops plan` reads it to learn which
/// secrets exist, and which `--prune` may delete, in one request per site.
async fn list_secrets(
    config: &ConfigStore,
    authorized: &AuthorizedSite<Configure>,
    method: Method,
) -> Result<Response, ApiError> {
    if !matches!(method, Method::GET | Method::HEAD) {
        return Err(ApiError::method_not_allowed(LIST_METHODS));
    }
    let AuthorizedSite { org, site, .. } = authorized;
    let store = config.store.as_ref();
    let mut secrets = Vec::new();
    for name in store.list(&keys::secrets(org, site)).await? {
        let Some(id) = name.strip_suffix(".json") else {
            continue;
        };
        if let Some(stored) = load_json(store, &keys::secret(org, site, id)).await? {
            secrets.push(secret_view(id, &stored));
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
