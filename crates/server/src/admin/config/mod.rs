//! The configuration API in both path families: the older one under `/admin`
//! (`/config/<org>.json`, `/config/<org>/profiles/<profile>.json`,
//! `/config/<org>/sites/<site>.json`, `/config/<org>/aggregated/<site>.json`, each with
//! `…/<part>.json` sub-paths) and the newer, the platform's `api.aem.live` one, under `/api`
//! (`/<org>/config.json`, `/<org>/profiles/<profile>/config.json`,
//! `/<org>/sites/<site>/config.json`, `/<org>/aggregated/<site>/config.json`, each with
//! `…/config/<part>.json`). [`resources`] is the one routing table: each resource has one
//! method router, mounted at its path in each family.
//!
//! Storage layout (keys of the [`Store`], [`keys`]): one document each, the platform's.
//! - `config/<org>/sites/<site>.json`: a site (`version`, `code`, `content`, `access`,
//!   `public`, `secrets`, `apiKeys`, `created`, `lastModified`, …). Its parts (`access.json`,
//!   `public.json`, `secrets/<id>.json`, …) read and write a field of it ([`parts`]); secret
//!   values are sealed in it and never answered ([`secrets`]), API key records kept in it
//!   ([`api_keys`]). Stores of older siteops kept `public.json` and `secrets/<id>.json`
//!   beside it: [`sites::legacy`] folds them in when the store opens.
//! - `config/<org>/profiles/<profile>.json` and `config/<org>/org.json`: the profiles and
//!   the org's document ([`documents`]); `aggregated` ([`aggregated`]) reads a site over its
//!   profile, as the service acts on it ([`sites::load`]).
//!
//! Errors take the platform's form ([`crate::api::error::platform_form`], a layer on every
//! resource here). Every write of a document runs under that document's lock, in
//! [`transact`], so concurrent read-modify-write requests cannot lose each other's updates.

mod access;
mod aggregated;
mod api_keys;
mod documents;
mod parts;
mod robots;
mod secrets;
mod versions;
mod yaml;

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{FromRef, Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, any, get};
use serde_json::{Value, json};

use crate::api::answers::{SiteList, SiteName};
use crate::api::body::parse_body;
use crate::api::site::{Configure, DeleteSite, check_key, site_param};
use crate::api::{
    ApiError, AuthorizedSite, Caller, Family, SITE_METHODS, SiteAccess, check_names,
    check_names_for, read_json_body,
};
use crate::app::AppState;
use crate::auth::{Action, Claims, Decision, Grants, authorize_in};
use crate::sites;
use crate::sites::onboarding;
use crate::sites::versions::Versioned;
use crate::store::{KeyedLocks, Store, keys, transact};
use access::check_site_write;
use siteops_config::model::api::SiteConfig;
use siteops_config::schema::SchemaKind;
use versions::{Versioning, revision};

/// A configuration resource: its path in the older family (under `/admin`; `None`: the
/// newer family only), in the newer (under `/api`; `None`: the older only), and what
/// answers it there.
pub(crate) struct Resource {
    pub(crate) older: Option<&'static str>,
    pub(crate) newer: Option<&'static str>,
    pub(crate) methods: MethodRouter<Arc<AppState>>,
}

/// The configuration API's routing table. A sub-resource's path may nest
/// (`access/admin.json`, `secrets/<id>.json`), so both families take the rest of the path
/// whole (`{*path}`).
pub(crate) fn resources() -> Vec<Resource> {
    let platform = || axum::middleware::map_response(crate::api::error::platform_form);
    let resource = |older, newer, methods: MethodRouter<Arc<AppState>>| Resource {
        older,
        newer,
        methods: methods.layer(platform()),
    };
    vec![
        // The org: its document, its parts; the older family's `/config/<org>/<file>`
        // also lists the org's sites and profiles.
        resource(
            Some("/config/{org_json}"),
            Some("/{org}/config.json"),
            any(documents::whole::<{ documents::ORG }>),
        ),
        resource(Some("/config/{org}/{file}"), None, any(org_file)),
        resource(
            Some("/config/{org}/{part}/{*rest}"),
            None,
            any(documents::part_of::<{ documents::ORG }>),
        ),
        resource(
            None,
            Some("/{org}/config/{*path}"),
            any(documents::part_of::<{ documents::ORG }>),
        ),
        // The org document's versions.
        resource(
            Some("/config/{org}/versions.json"),
            Some("/{org}/versions.json"),
            get(versions::document_list::<{ documents::ORG }>),
        ),
        resource(
            Some("/config/{org}/versions/{version}"),
            Some("/{org}/versions/{version}"),
            get(versions::document_version::<{ documents::ORG }>),
        ),
        resource(None, Some("/{org}/sites"), get(list_sites)),
        resource(
            None,
            Some("/{org}/profiles"),
            get(documents::newer_profiles),
        ),
        // Profiles.
        resource(
            Some("/config/{org}/profiles/{profile_json}"),
            Some("/{org}/profiles/{profile}/config.json"),
            any(documents::whole::<{ documents::PROFILE }>),
        ),
        resource(
            Some("/config/{org}/profiles/{profile}/versions.json"),
            Some("/{org}/profiles/{profile}/versions.json"),
            get(versions::document_list::<{ documents::PROFILE }>),
        ),
        resource(
            Some("/config/{org}/profiles/{profile}/versions/{version}"),
            Some("/{org}/profiles/{profile}/versions/{version}"),
            get(versions::document_version::<{ documents::PROFILE }>),
        ),
        resource(
            Some("/config/{org}/profiles/{profile}/{*path}"),
            Some("/{org}/profiles/{profile}/config/{*path}"),
            any(documents::part_of::<{ documents::PROFILE }>),
        ),
        // Sites.
        resource(
            Some("/config/{org}/sites/{site_json}"),
            Some("/{org}/sites/{site}/config.json"),
            get(site)
                .delete(delete_site)
                .put(save_site)
                .post(save_site)
                .fallback(|| async { ApiError::method_not_allowed(SITE_METHODS) }),
        ),
        resource(
            Some("/config/{org}/sites/{site}/versions.json"),
            Some("/{org}/sites/{site}/versions.json"),
            get(versions::site_list),
        ),
        resource(
            Some("/config/{org}/sites/{site}/versions/{version}"),
            Some("/{org}/sites/{site}/versions/{version}"),
            get(versions::site_version),
        ),
        resource(
            Some("/config/{org}/sites/{site}/{*path}"),
            Some("/{org}/sites/{site}/config/{*path}"),
            any(parts::sub_resource),
        ),
        // A site over its profile, read only.
        resource(
            Some("/config/{org}/aggregated/{site_json}"),
            Some("/{org}/aggregated/{site}/config.json"),
            any(aggregated::document),
        ),
        resource(
            Some("/config/{org}/aggregated/{site}/{*path}"),
            Some("/{org}/aggregated/{site}/config/{*path}"),
            any(aggregated::part),
        ),
    ]
}

/// The older family's `/config/<org>/<file>`: `sites.json` and `profiles.json` list the
/// org's sites and profiles; any other name is a part of the org document.
#[allow(clippy::too_many_arguments)]
async fn org_file(
    config: State<ConfigStore>,
    access: State<SiteAccess>,
    caller: Result<Caller, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    query: Query<ListQuery>,
    method: Method,
    versioning: Versioning,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let file = params.get("file").map(String::as_str).unwrap_or_default();
    let org = params.get("org").map(String::as_str).unwrap_or_default();
    match file {
        "sites.json" | "profiles.json" if !matches!(method, Method::GET | Method::HEAD) => {
            Err(ApiError::method_not_allowed(crate::api::LIST_METHODS))
        }
        "sites.json" => list_sites(access, Family::Older, caller?, Path(params), query).await,
        "profiles.json" => {
            documents::list_profiles(&access, caller?.0, org, Family::Older, query.details).await
        }
        _ => {
            documents::part_of::<{ documents::ORG }>(
                config,
                access,
                Family::Older,
                caller,
                Path(params),
                method,
                versioning,
                headers,
                body,
            )
            .await
        }
    }
}

/// What the configuration routes write with: the store, the per-site locks, and how many
/// sites an org may have.
#[derive(Clone)]
pub(crate) struct ConfigStore {
    store: Arc<dyn Store>,
    locks: Arc<KeyedLocks>,
    sites_per_org: usize,
    /// What API keys are signed with ([`api_keys`]).
    key: crate::auth::SigningKey,
}

impl FromRef<Arc<AppState>> for ConfigStore {
    fn from_ref(state: &Arc<AppState>) -> ConfigStore {
        ConfigStore {
            store: state.store.clone(),
            locks: state.locks.clone(),
            sites_per_org: state.throttles.quotas.sites_per_org,
            key: state.key.clone(),
        }
    }
}

async fn save_json(store: &dyn Store, key: &str, value: &Value) -> Result<(), ApiError> {
    let bytes = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    Ok(store.put(key, &bytes).await?)
}

/// `value` without the members that are `null`, at any depth: a member sent as `null`
/// is stored as absent (the typed documents read the two alike, and the platform's
/// schemas take no `null`).
pub(super) fn without_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, member| !member.is_null());
            map.values_mut().for_each(without_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(without_nulls),
        _ => {}
    }
}

/// Sets `created` (kept from the previous version) and `lastModified`, and gives a
/// `content` block without a `contentBusId` the previous version's, else a new one, as
/// the platform stamps one on every content source (its schema requires it in answers).
fn stamp(value: &mut Value, previous: Option<&Value>) {
    stamp_content_bus(value, previous);
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

/// `content.contentBusId` of a document that has a content source and no id.
fn stamp_content_bus(value: &mut Value, previous: Option<&Value>) {
    const POINTER: &str = "/content/contentBusId";
    let Some(Value::Object(content)) = value.get_mut("content") else {
        return;
    };
    if content.contains_key("contentBusId") {
        return;
    }
    let kept = previous
        .and_then(|previous| previous.pointer(POINTER))
        .cloned();
    let derived = || {
        let url = content.get("source")?.get("url")?.as_str()?;
        Some(Value::String(sites::derived_content_bus_id(url)))
    };
    if let Some(id) = kept.or_else(derived) {
        content.insert("contentBusId".into(), id);
    }
}

/// `?details=true` on a listing.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct ListQuery {
    #[serde(default)]
    pub(crate) details: bool,
}

/// `GET /config/<org>/sites.json`, `GET /<org>/sites`: the sites of the org the caller may
/// configure, each with its document's path in the newer family; with `?details=true`,
/// each with its document's title, description and dates too.
pub(crate) async fn list_sites(
    State(access): State<SiteAccess>,
    family: Family,
    Caller(caller): Caller,
    Path(params): Path<HashMap<String, String>>,
    Query(query): Query<ListQuery>,
) -> Result<Response, ApiError> {
    // The newer family's `/<org>/sites` answers the platform's list: names alone.
    let older = !family.is_newer();
    let org = params.get("org").map(String::as_str).unwrap_or_default();
    check_names_for(&Method::GET, &[("org", org)])?;
    let mut sites = sites_of(&access, org, &caller, older && query.details).await?;
    if !older {
        sites = sites
            .iter()
            .map(|site| SiteName::named(&site.name))
            .collect();
    }
    Ok(Json(SiteList { sites }).into_response())
}

/// The sites of `org` that `caller` may configure: every one for an org administrator
/// (no document read unless `details` asks for them), else those whose access grants it.
async fn sites_of(
    access: &SiteAccess,
    org: &str,
    caller: &Claims,
    details: bool,
) -> Result<Vec<SiteName>, ApiError> {
    let store = access.store.as_ref();
    let org_admin = caller.roles.is_none()
        && access.org_admins.is_admin(org, &caller.sub)
        && caller.covers_org(org);
    let mut sites = Vec::new();
    for name in store.list(&keys::sites(org)).await? {
        let Some(site) = name.strip_suffix(".json") else {
            continue;
        };
        let document = if org_admin && !details {
            None
        } else {
            let Some(document) = sites::load(store, org, site).await? else {
                continue;
            };
            Some(document)
        };
        let allowed = match &document {
            _ if org_admin => true,
            None => false,
            Some(document) => {
                authorize_in(
                    Some(caller),
                    org,
                    site,
                    Grants::of_site(document),
                    &access.org_admins,
                    Action::Configure,
                ) == Decision::Allow
                    // An API key lists the sites it holds on.
                    && crate::auth::standing(store, document, caller).await?
                        == crate::auth::KeyStanding::Holds
            }
        };
        if allowed {
            let details = document.as_ref().filter(|_| details).map(|d| &d.json);
            sites.push(SiteName::of(org, site, details));
        }
    }
    Ok(sites)
}

/// `GET` of a site document.
async fn site(family: Family, authorized: AuthorizedSite<Configure>) -> Response {
    Json(family.shape(authorized.document.answer())).into_response()
}

/// `DELETE` of a site document: the site, its sub-resources and previews.
pub(crate) async fn delete_site(
    State(config): State<ConfigStore>,
    versioning: Versioning,
    authorized: AuthorizedSite<DeleteSite>,
) -> Result<Response, ApiError> {
    let AuthorizedSite { org, site, .. } = &authorized;
    let revision = &revision(&authorized.caller, versioning.name()?);
    let store = config.store.as_ref();
    let _guard = config.locks.lock(&keys::site(org, site)).await;
    let authorized = &authorized;
    transact(&config.store, move |view| {
        Box::pin(async move {
            // Under the lock: a delete that came first leaves nothing to delete (404).
            let store = view.as_ref();
            authorized.reread(store).await?;
            sites::versions::record(store, Versioned::Site { org, site }, None, revision).await?;
            store.delete(&keys::site(org, site)).await?;
            Ok::<_, ApiError>(())
        })
    })
    .await?;
    // What stores from before one document per site kept beside it goes too.
    store.delete_all(&keys::site_folder(org, site)).await?;
    // Its previews and their usage go too: a site made again starts empty.
    store.delete_all(&keys::previews(org, site)).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `PUT` (create; an empty 201, as the platform answers) and `POST` (create or replace;
/// the document as stored) of a site document.
// An axum handler: one argument per extractor.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn save_site(
    State(config): State<ConfigStore>,
    State(access): State<SiteAccess>,
    family: Family,
    caller: Result<Caller, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    method: Method,
    versioning: Versioning,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let org = params.get("org").cloned().unwrap_or_default();
    let site = site_param(&params)?;
    check_names(&[("org", &org), ("site", site)])?;
    let (bytes, caller, name) = match versioning.restore()? {
        None => {
            // The body is read before the caller is refused: a client that sends it whole
            // reads the answer, not a reset connection (and a body past the limit 413).
            let bytes = read_json_body(&headers, body).await?;
            (bytes, caller?.0, versioning.name_for(None)?)
        }
        Some(_) if method == Method::PUT => {
            return Err(ApiError::bad_request(
                "restoreVersion restores with a POST of the document",
            ));
        }
        Some(n) => {
            // Version `n`'s document, written again as a body sent would be: the site must
            // exist and the caller configure it (404 and 403 before the version's 404).
            let Caller(caller) = caller?;
            let store = access.store.as_ref();
            access
                .existing(store, &caller, (&org, site), Action::Configure)
                .await?;
            let what = format!("site {org}/{site}");
            let document = Versioned::Site { org: &org, site };
            let value = versions::restorable(store, document, n, &what).await?;
            let bytes = serde_json::to_vec(&value).expect("JSON serializes");
            (bytes.into(), caller, versioning.name_for(Some(n))?)
        }
    };
    let body = parse_body::<SiteConfig>(&bytes, SchemaKind::ApiSite, parts::document_rules)?;
    // A restore writes back what was stored, which the older family may have written
    // without the parts the newer family requires of a body: it restores in both families.
    let restoring = versioning.restore()?.is_some();
    let revision = &revision(&caller, name);
    let permit = |grants: Grants<'_>, action| access.permit(&caller, (&org, site), grants, action);
    // The org's lock first (the only place two are taken, always in this order):
    // counting the org's sites and creating one are one step.
    let _org = config.locks.lock(&keys::sites(&org)).await;
    let _guard = config.locks.lock(&keys::site(&org, site)).await;
    // Another instance may write the site meanwhile: the section runs again if so.
    let (config, org, method, body, permit) = (&config, org.as_str(), &method, &body, &permit);
    let (caller, access) = (&caller, &access);
    transact(&config.store, move |view| {
        let mut value = body.json.clone();
        Box::pin(async move {
            let store = view.as_ref();
            let previous = sites::load(store, org, site).await?;
            match &previous {
                None => {
                    permit(Grants::default(), Action::CreateSite)?;
                    check_room(config, org).await?;
                }
                Some(document) if *method == Method::PUT => {
                    check_key(store, document, caller).await?;
                    permit(Grants::of_site(document), Action::Configure)?;
                    return Err(ApiError::exists(format!(
                        "site {org}/{site} exists; POST replaces it"
                    )));
                }
                Some(document) => {
                    check_key(store, document, caller).await?;
                    permit(Grants::of_site(document), Action::Configure)?;
                }
            }
            without_nulls(&mut value);
            if !restoring {
                family.check_site(&value)?;
            }
            if let Value::Object(map) = &mut value {
                map.entry("version").or_insert(json!(1));
            }
            let code = body.typed.code.as_ref();
            onboarding::check_selectable(config.store.as_ref(), org, site, code).await?;
            let stored = previous.as_ref().map(|p| &p.json);
            keep_parts(&mut value, stored, |id| keys::secret(org, site, id))?;
            stamp(&mut value, stored);
            // Whatever the document changes, what it gives is computed and checked whole.
            if let Some(before) = &previous {
                check_site_write(store, access, caller, before, &value).await?;
            }
            // What is written reads back, or it is not written.
            let value = sites::Site::from_json(org, site, value)?.json;
            let document = Versioned::Site { org, site };
            sites::versions::record(store, document, Some(&value), revision).await?;
            save_json(store, &keys::site(org, site), &value).await?;
            onboarding::register(config.store.as_ref(), org, site, code).await?;
            Ok(if *method == Method::PUT {
                StatusCode::CREATED.into_response()
            } else {
                Json(family.shape(sites::answer_of(&value))).into_response()
            })
        })
    })
    .await
}

/// The parts of a document with resources of their own (`public`, `secrets`, `apiKeys`)
/// that a body of the whole document does not carry are kept from the stored one: a
/// client that writes the configuration (`siteops apply` among them) does not wipe them.
/// Secret values a body carries are sealed as `secrets/<id>.json` seals them (`seal_name`:
/// the name a secret of the document is sealed for).
/// `apiKeys` is never the body's: the stored records stay as they are, and a body that
/// sends a record the service does not hold as sent (a revoked key's, an invented one) is
/// refused (409, [`api_keys::check_sent`]); one sent back as answered passes.
/// Each secret entry is dated as the platform's schema wants (`created` kept from the
/// stored entry); one sent back without its value, as answered, keeps the stored value.
pub(super) fn keep_parts(
    value: &mut Value,
    previous: Option<&Value>,
    seal_name: impl Fn(&str) -> String,
) -> Result<(), ApiError> {
    let Value::Object(map) = value else {
        return Ok(());
    };
    let stored_secrets = previous
        .and_then(|p| p.get("secrets"))
        .and_then(Value::as_object);
    if let Some(Value::Object(secrets)) = map.get_mut("secrets") {
        let now = crate::time::now_rfc3339();
        for (id, entry) in secrets.iter_mut() {
            let Value::Object(entry) = entry else {
                continue;
            };
            let before = stored_secrets.and_then(|s| s.get(id));
            let kept = |field: &str| before.and_then(|b| b.get(field)).cloned();
            if let Some(Value::String(clear)) = entry.get_mut("value") {
                *clear = sites::sealed::seal_value(&seal_name(id), clear)
                    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                entry.insert("lastModified".into(), Value::String(now.clone()));
            } else {
                // Sent back as answered (a `hash`, no value): the stored value stays.
                if let Some(value) = kept("value") {
                    entry.remove("hash");
                    entry.insert("value".into(), value);
                }
                let modified = kept("lastModified").unwrap_or(Value::String(now.clone()));
                entry.insert("lastModified".into(), modified);
            }
            // Each entry carries its dates, as the platform's secrets schema requires.
            let created = kept("created").unwrap_or(Value::String(now.clone()));
            entry.insert("created".into(), created);
        }
    }
    // Key records are the service's: a key exists because it was minted, and is revoked
    // by deleting its record, so what is stored stays whatever the body says.
    let stored_keys = previous.and_then(|p| p.get("apiKeys"));
    api_keys::check_sent(map.get("apiKeys"), stored_keys)?;
    match stored_keys {
        Some(kept) => map.insert("apiKeys".to_string(), kept.clone()),
        None => map.remove("apiKeys"),
    };
    let Some(Value::Object(stored)) = previous else {
        return Ok(());
    };
    for part in ["public", "secrets"] {
        if let (false, Some(kept)) = (map.contains_key(part), stored.get(part)) {
            map.insert(part.to_string(), kept.clone());
        }
    }
    Ok(())
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
