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
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::api::answers::{SecretList, SecretView, SiteList, SiteName};
use crate::api::body::{parse_body, typed};
use crate::api::caller::why_unauthenticated;
use crate::api::{
    ApiError, DOCUMENT_METHODS, LIST_METHODS, SITE_METHODS, check_names, read_json_body,
};
use crate::app::{AppState, check_access, existing_site, existing_site_in};
use crate::auth::{Action, Claims, Decision, authorize};
use crate::sites::onboarding;
use crate::sites::{self, Site};
use crate::store::{Store, keys, transact};
use serde::Deserialize;
use siteops_config::diagnostic::Diagnostic;
use siteops_config::model::api::{AccessConfig, CodeConfig};
use siteops_config::rules;
use siteops_config::schema::SchemaKind;

async fn load_json(store: &dyn Store, key: &str) -> Result<Option<Value>, ApiError> {
    Ok(sites::read(store, key).await?)
}

async fn save_json(store: &dyn Store, key: &str, value: &Value) -> Result<(), ApiError> {
    let bytes = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    Ok(store.put(key, &bytes).await?)
}

fn strip_json<'a>(file: &'a str, what: &str) -> Result<&'a str, ApiError> {
    file.strip_suffix(".json").ok_or_else(|| {
        ApiError::not_found(format!("no such {what}: `{file}` (expected <name>.json)"))
    })
}

/// The code block of a validated body, typed once for the onboarding rules
/// ([`onboarding`]); validation has checked it, so an error here is that validation's bug,
/// answered as a bad request rather than ignored.
fn code_block(code: Option<&Value>) -> Result<Option<CodeConfig>, ApiError> {
    code.filter(|code| !code.is_null())
        .map(CodeConfig::deserialize)
        .transpose()
        .map_err(|error| ApiError::bad_request(format!("`code`: {error}")))
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
        .and_then(|a| a.admin.as_ref())
        .and_then(|a| a.role.as_ref())
        .and_then(|r| r.admin.as_ref())
        .into_iter()
        .flatten()
        .map(|entry| entry.trim().to_ascii_lowercase())
        .collect()
}

/// Whether an access configuration makes the site require authentication (`requireAuth`
/// `auto` or `true`), as [`Site::requires_auth`] reads it.
fn protects(access: Option<&AccessConfig>) -> bool {
    access
        .and_then(|a| a.admin.as_ref())
        .and_then(|a| a.require_auth.as_deref())
        .is_some_and(|mode| mode == "auto" || mode == "true")
}

/// A write of a site's access block (`new` replacing `old`; `None`: no access block) that
/// changes who is `admin` ([`Action::GrantAdmin`]) or stops the site requiring
/// authentication ([`Action::DropAuthentication`]) needs an admin of the site or of the
/// org: a `config_admin` may not raise anyone (itself included) nor open a protected site
/// (protecting one is configuration).
/// 403 naming the field, under `at` (the access block's pointer in the body).
fn check_access_change(
    state: &AppState,
    headers: &HeaderMap,
    (org, site): (&str, &str),
    old: Option<&AccessConfig>,
    new: Option<&Value>,
    at: &str,
) -> Result<(), ApiError> {
    let new: Option<AccessConfig> = new
        .filter(|v| !v.is_null())
        .map(|v| serde_json::from_value(v.clone()))
        .transpose()
        .map_err(|e| ApiError::bad_request(format!("{at}: {e}")))?;
    let guarded = [
        (
            admin_grants(old) != admin_grants(new.as_ref()),
            Action::GrantAdmin,
            "admin/role/admin",
            "change who is admin",
        ),
        (
            protects(old) && !protects(new.as_ref()),
            Action::DropAuthentication,
            "admin/requireAuth",
            "stop the site requiring authentication",
        ),
    ];
    for (changed, action, field, what) in guarded {
        if !changed {
            continue;
        }
        check_access(state, headers, org, site, old, action).map_err(|error| {
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
pub async fn list_sites(
    State(state): State<Arc<AppState>>,
    Path((org, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if file != "sites.json" {
        return Err(ApiError::not_found(format!("no such resource `{file}`")));
    }
    check_names(&[("org", &org)])?;
    let Some(caller) = state.caller(&headers) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            why_unauthenticated(&headers, &state.key),
        ));
    };
    let sites = sites_of(&state, &org, &caller).await?;
    Ok(Json(SiteList { sites }).into_response())
}

/// The sites of `org` that `caller` may configure: every one for an org administrator
/// (no document read), else those whose access grants it.
async fn sites_of(state: &AppState, org: &str, caller: &Claims) -> Result<Vec<SiteName>, ApiError> {
    let store = state.store.as_ref();
    let org_admin = state.org_admins.is_admin(org, &caller.sub) && caller.covers_org(org);
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
                &state.org_admins,
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

/// `/config/<org>/sites/<site>.json`.
pub async fn site(
    State(state): State<Arc<AppState>>,
    Path((org, file)): Path<(String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let site = strip_json(&file, "site")?;
    check_names(&[("org", &org), ("site", site)])?;
    let store = state.store.as_ref();
    match method {
        Method::GET | Method::HEAD => Ok(Json(
            existing_site(&state, &headers, &org, site, Action::Configure)
                .await?
                .json,
        )
        .into_response()),
        Method::DELETE => {
            let _guard = state.locks.lock(&keys::site(&org, site)).await;
            existing_site(&state, &headers, &org, site, Action::DeleteSite).await?;
            store.delete(&keys::site(&org, site)).await?;
            store.delete_all(&keys::site_folder(&org, site)).await?;
            // Its previews and their usage go too: a site made again starts empty.
            store.delete_all(&keys::previews(&org, site)).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        Method::PUT | Method::POST => {
            let bytes = read_json_body(&headers, body).await?;
            let value = parse_body(&bytes, SchemaKind::ApiSite, |v| {
                typed(v, rules::site_config)
            })?;
            let code = code_block(value.get("code"))?;
            // The org's lock first (the only place two are taken, always in this order):
            // counting the org's sites and creating one are one step.
            let _org = state.locks.lock(&keys::sites(&org)).await;
            let _guard = state.locks.lock(&keys::site(&org, site)).await;
            // Another instance may write the site meanwhile: the section runs again if so.
            let (state, headers, org, method, code) =
                (&*state, &headers, org.as_str(), &method, &code);
            transact(&state.store, move |view| {
                let mut value = value.clone();
                Box::pin(async move {
                    let store = view.as_ref();
                    let previous = sites::load(store, org, site).await?;
                    match &previous {
                        None => {
                            check_access(state, headers, org, site, None, Action::CreateSite)?;
                            check_room(state, org).await?;
                        }
                        Some(_) if *method == Method::PUT => {
                            check_access(
                                state,
                                headers,
                                org,
                                site,
                                previous.as_ref().and_then(Site::access),
                                Action::Configure,
                            )?;
                            return Err(ApiError::new(
                                StatusCode::CONFLICT,
                                format!("site {org}/{site} exists; POST replaces it"),
                            ));
                        }
                        Some(document) => {
                            check_access(
                                state,
                                headers,
                                org,
                                site,
                                document.access(),
                                Action::Configure,
                            )?;
                            check_access_change(
                                state,
                                headers,
                                (org, site),
                                document.access(),
                                value.get("access"),
                                "/access",
                            )?;
                        }
                    }
                    if let Value::Object(map) = &mut value {
                        map.entry("version").or_insert(json!(1));
                    }
                    onboarding::check_selectable(state.store.as_ref(), org, site, code.as_ref())
                        .await?;
                    stamp(&mut value, previous.as_ref().map(|p| &p.json));
                    save_json(store, &keys::site(org, site), &value).await?;
                    onboarding::register(state.store.as_ref(), org, site, code.as_ref()).await?;
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
        _ => Err(ApiError::method_not_allowed(SITE_METHODS)),
    }
}

/// A new site must fit the org's quota ([`crate::quota::Quotas::sites_per_org`]): 409
/// beyond it.
async fn check_room(state: &AppState, org: &str) -> Result<(), ApiError> {
    let most = state.throttles.quotas.sites_per_org;
    let sites = state
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

/// `/config/<org>/sites/<site>/<field>.json`: `public`, or a field of the site document.
pub async fn sub_resource(
    State(state): State<Arc<AppState>>,
    Path((org, site, file)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site)])?;
    let name = strip_json(&file, "sub-resource")?;
    if name == "public" {
        return public(state, &org, &site, method, &headers, body).await;
    }
    if name == "secrets" {
        return list_secrets(&state, &org, &site, method, &headers).await;
    }
    let (schema, rule): (SchemaKind, fn(&Value) -> Vec<Diagnostic>) = match name {
        "access" => (SchemaKind::ApiAccess, |v| typed(v, rules::access)),
        "code" => (SchemaKind::ApiCode, |v| typed(v, rules::code)),
        "content" => (SchemaKind::ApiContent, |v| typed(v, rules::content)),
        _ => {
            return Err(ApiError::not_found(format!(
                "no such sub-resource `{file}`"
            )));
        }
    };
    match method {
        Method::GET | Method::HEAD => {
            let document = existing_site(&state, &headers, &org, &site, Action::Configure).await?;
            let field = document.json.get(name).cloned().ok_or_else(|| {
                ApiError::not_found(format!("{org}/{site} has no {name} configuration"))
            })?;
            Ok(Json(field).into_response())
        }
        Method::POST | Method::DELETE => {
            let bytes = if method == Method::POST {
                Some(read_json_body(&headers, body).await?)
            } else {
                None
            };
            let value = bytes.map(|b| parse_body(&b, schema, rule)).transpose()?;
            let code = match name {
                "code" => code_block(value.as_ref())?,
                _ => None,
            };
            let _guard = state.locks.lock(&keys::site(&org, &site)).await;
            let (state, headers, org, site, value, code) = (
                &*state,
                &headers,
                org.as_str(),
                site.as_str(),
                &value,
                &code,
            );
            transact(&state.store, move |view| {
                Box::pin(async move {
                    let store = view.as_ref();
                    let existing =
                        existing_site_in(store, state, headers, org, site, Action::Configure)
                            .await?;
                    if name == "access" {
                        check_access_change(
                            state,
                            headers,
                            (org, site),
                            existing.access(),
                            value.as_ref(),
                            "",
                        )?;
                    }
                    let mut document = existing.json;
                    if name == "code" {
                        onboarding::check_selectable(
                            state.store.as_ref(),
                            org,
                            site,
                            code.as_ref(),
                        )
                        .await?;
                    }
                    let previous = document.clone();
                    let Value::Object(map) = &mut document else {
                        return Err(ApiError::new(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            "a stored document is damaged",
                        ));
                    };
                    match &value {
                        Some(value) => map.insert(name.to_string(), value.clone()),
                        None => map.remove(name),
                    };
                    stamp(&mut document, Some(&previous));
                    save_json(store, &keys::site(org, site), &document).await?;
                    if name == "code" {
                        onboarding::register(state.store.as_ref(), org, site, code.as_ref())
                            .await?;
                    }
                    Ok(match value.clone() {
                        Some(value) => Json(value).into_response(),
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
    state: Arc<AppState>,
    org: &str,
    site: &str,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let store = state.store.as_ref();
    let key = keys::public(org, site);
    match method {
        Method::GET | Method::HEAD => {
            existing_site(&state, headers, org, site, Action::Configure).await?;
            let document = load_json(store, &key).await?.ok_or_else(|| {
                ApiError::not_found(format!("{org}/{site} has no public configuration"))
            })?;
            Ok(Json(document).into_response())
        }
        Method::POST => {
            let bytes = read_json_body(headers, body).await?;
            let value = parse_body(&bytes, SchemaKind::ApiPublic, |v| typed(v, rules::public))?;
            let _guard = state.locks.lock(&keys::site(org, site)).await;
            let (state, key) = (&*state, &key);
            transact(&state.store, move |view| {
                let mut value = value.clone();
                Box::pin(async move {
                    let store = view.as_ref();
                    existing_site_in(store, state, headers, org, site, Action::Configure).await?;
                    let previous = load_json(store, key).await?;
                    stamp(&mut value, previous.as_ref());
                    save_json(store, key, &value).await?;
                    Ok(Json(value).into_response())
                })
            })
            .await
        }
        Method::DELETE => {
            let _guard = state.locks.lock(&keys::site(org, site)).await;
            existing_site(&state, headers, org, site, Action::Configure).await?;
            store.delete(&key).await?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// `/config/<org>/sites/<site>/secrets/<id>.json`. Values are write-only.
pub async fn secret(
    State(state): State<Arc<AppState>>,
    Path((org, site, file)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    check_names(&[("org", &org), ("site", &site)])?;
    let id = strip_json(&file, "secret")?;
    check_names(&[("secret", id)])?;
    let store = state.store.as_ref();
    let key = keys::secret(&org, &site, id);
    match method {
        Method::GET | Method::HEAD => {
            existing_site(&state, &headers, &org, &site, Action::Configure).await?;
            let stored = load_json(store, &key)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("{org}/{site} has no secret `{id}`")))?;
            Ok(Json(secret_view(id, &stored)).into_response())
        }
        Method::POST => {
            let bytes = read_json_body(&headers, body).await?;
            let value = parse_body(&bytes, SchemaKind::ApiSecret, |_| Vec::new())?;
            let _guard = state.locks.lock(&keys::site(&org, &site)).await;
            let (state, headers, org, site, key) =
                (&*state, &headers, org.as_str(), site.as_str(), &key);
            transact(&state.store, move |view| {
                let mut value = value.clone();
                Box::pin(async move {
                    let store = view.as_ref();
                    let document =
                        existing_site_in(store, state, headers, org, site, Action::Configure)
                            .await?;
                    let previous = load_json(store, key).await?;
                    stamp(&mut value, previous.as_ref());
                    // The value is issued for where the code block points now; code sync sends
                    // it there and nowhere else, whatever the code block says later.
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
        Method::DELETE => {
            let _guard = state.locks.lock(&keys::site(&org, &site)).await;
            existing_site(&state, &headers, &org, &site, Action::Configure).await?;
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
    state: &AppState,
    org: &str,
    site: &str,
    method: Method,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    if !matches!(method, Method::GET | Method::HEAD) {
        return Err(ApiError::method_not_allowed(LIST_METHODS));
    }
    existing_site(state, headers, org, site, Action::Configure).await?;
    let store = state.store.as_ref();
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
