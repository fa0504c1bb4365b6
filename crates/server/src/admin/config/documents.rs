//! The org's own documents, one each, in both path families: the org document (older
//! `/config/<org>.json`, newer `/<org>/config.json`) and its profiles (older
//! `/config/<org>/profiles/<profile>.json`, newer `/<org>/profiles/<profile>/config.json`),
//! answered as site documents are: GET reads, PUT creates (an empty 201; 409
//! `AEM_BACKEND_CONFIG_EXISTS` when it exists), POST creates or replaces, DELETE removes;
//! `created`/`lastModified` stamped; sub-paths (`…/<part>[/<part>…].json`) read and write
//! a part, the document checked whole; `secrets` as a site's (a value the service makes is
//! answered once; values are stored sealed and never read back); `apiKeys` as a site's
//! ([`api_keys`]: the org's key holds on every site of the org, a profile's on every site
//! that extends it).
//!
//! Who may: an org administrator, or a user of the org document whose role carries the
//! permission ([`crate::auth::authorize_org`]: `config_admin` reads and writes; changing
//! the org's `users`, or minting a key whose roles administer sites, needs `admin`).

use std::collections::{BTreeMap, HashMap};

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::access::{OrgLayer, check_org_layer_write};
use super::parts::{Part, map_part, restore, set_part, sub_path, take_service_parts};
use super::versions::{Versioning, restorable, revision};
use super::{ConfigStore, ListQuery, keep_parts, save_json, secrets, stamp, without_nulls};
use super::{api_keys, robots};
use crate::api::answers::{ProfileList, SecretList, SiteName};
use crate::api::body::{parse_json, parse_value};
use crate::api::{
    ApiError, Caller, DOCUMENT_METHODS, Family, SITE_METHODS, SiteAccess, check_existing_names,
    check_names, check_names_for, read_json_body, strip_json,
};
use crate::auth::{Claims, Decision, OrgAction, authorize_org};
use crate::sites::versions::{self as stored_versions, Revision, Versioned};
use crate::sites::{self, OrgDocument, Profile, answer_of, without_managed};
use crate::store::{Store as _, keys, transact};
use siteops_config::diagnostic::Diagnostic;
use siteops_config::model::api::{ApiKeys, OrgConfig, ProfileConfig, SecretEntries, User};
use siteops_config::rules;
use siteops_config::schema::SchemaKind;

/// Which of the org's documents a request is about.
pub(super) enum Doc {
    Org { org: String },
    Profile { org: String, name: String },
}

impl Doc {
    /// The document of a matched path: `org` (or `org_json`, the older family's
    /// `<org>.json`), and `profile` (or `profile_json`) for a profile. A name that cannot
    /// be one is 404 where the document must exist (a read, a delete, a part), else 400.
    pub(super) fn of(
        params: &HashMap<String, String>,
        must_exist: bool,
        profile: bool,
    ) -> Result<Doc, ApiError> {
        let name = |plain: &str, json: &str| -> Result<String, ApiError> {
            Ok(match (params.get(plain), params.get(json)) {
                (Some(name), _) => name.clone(),
                (None, Some(file)) => strip_json(file, plain)?.to_string(),
                (None, None) => String::new(),
            })
        };
        let org = name("org", "org_json")?;
        let names = [("org", org.as_str())];
        if must_exist {
            check_existing_names(&names)?;
        } else {
            check_names(&names)?;
        }
        if !profile {
            return Ok(Doc::Org { org });
        }
        let name = name("profile", "profile_json")?;
        if !rules::is_profile_name(&name) || name.len() > crate::api::MAX_NAME_LEN {
            let error = format!("invalid profile name `{name}`: names are [0-9a-zA-Z-_]+");
            return Err(if must_exist {
                ApiError::missing(error)
            } else {
                ApiError::bad_request(error)
            });
        }
        Ok(Doc::Profile { org, name })
    }

    pub(super) fn org(&self) -> &str {
        match self {
            Doc::Org { org } | Doc::Profile { org, .. } => org,
        }
    }

    fn key(&self) -> String {
        match self {
            Doc::Org { org } => keys::org_document(org),
            Doc::Profile { org, name } => keys::profile(org, name),
        }
    }

    /// The name secret `id` of the document is sealed for.
    fn seal_name(&self, id: &str) -> String {
        match self {
            Doc::Org { org } => keys::org_secret(org, id),
            Doc::Profile { org, name } => keys::profile_secret(org, name, id),
        }
    }

    /// The document's answer as `family` gives it.
    pub(super) fn shape(&self, family: Family, answer: Value) -> Value {
        match self {
            Doc::Org { .. } => family.shape(answer),
            Doc::Profile { .. } => family.shape_profile(answer),
        }
    }

    /// Whose versions the document's are.
    pub(super) fn versioned(&self) -> Versioned<'_> {
        match self {
            Doc::Org { org } => Versioned::Org { org },
            Doc::Profile { org, name } => Versioned::Profile { org, name },
        }
    }

    pub(super) fn what(&self) -> String {
        match self {
            Doc::Org { org } => format!("the org {org}"),
            Doc::Profile { org, name } => format!("profile {org}/{name}"),
        }
    }

    /// `document` (without the service's fields) checked whole: its schema and rules.
    fn check(&self, document: Value) -> Result<(), ApiError> {
        match self {
            Doc::Org { .. } => {
                parse_value::<OrgConfig>(document, SchemaKind::ApiOrg, |_| Vec::new())?;
            }
            Doc::Profile { .. } => {
                parse_value::<ProfileConfig>(document, SchemaKind::ApiProfile, profile_rules)?;
            }
        }
        Ok(())
    }

    /// The stored document's secrets, typed (it reads back, or it is damaged: 500).
    fn secrets(&self, json: Value) -> Result<Option<SecretEntries>, ApiError> {
        Ok(match self {
            Doc::Org { org } => OrgDocument::from_json(org, json)?.config.secrets,
            Doc::Profile { org, name } => Profile::from_json(org, name, json)?.config.secrets,
        })
    }

    /// The stored document's API key records, typed (500 when it is damaged).
    fn api_keys(&self, json: Value) -> Result<Option<ApiKeys>, ApiError> {
        Ok(match self {
            Doc::Org { org } => OrgDocument::from_json(org, json)?.config.api_keys,
            Doc::Profile { org, name } => Profile::from_json(org, name, json)?.config.api_keys,
        })
    }

    /// What is written must read back.
    fn reads_back(&self, json: Value) -> Result<Value, ApiError> {
        Ok(match self {
            Doc::Org { org } => OrgDocument::from_json(org, json)?.json,
            Doc::Profile { org, name } => Profile::from_json(org, name, json)?.json,
        })
    }
}

/// The methods a whole document answers ([`SITE_METHODS`]).
const DOCUMENT_VERBS: [Method; 5] = [
    Method::GET,
    Method::HEAD,
    Method::PUT,
    Method::POST,
    Method::DELETE,
];

/// Whether a request of `method` to a whole document needs it to exist (a read, a delete).
fn reads(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::DELETE)
}

/// The rules of a profile document: its code, content, access and public blocks', as a
/// site's.
fn profile_rules(config: &ProfileConfig) -> Vec<Diagnostic> {
    rules::parts(
        config.code.as_ref(),
        config.content.as_ref(),
        config.access.as_ref(),
        config.public.as_ref(),
    )
}

/// Who is asking, and the org's users they may hold roles as.
pub(super) struct Gate<'a> {
    access: &'a SiteAccess,
    caller: Claims,
    users: Vec<User>,
}

impl Gate<'_> {
    /// The caller allowed `action` on `org`'s documents (403 otherwise); the org's users
    /// read from its document.
    pub(super) async fn open<'a>(
        access: &'a SiteAccess,
        caller: Claims,
        org: &str,
        action: OrgAction,
    ) -> Result<Gate<'a>, ApiError> {
        let users = sites::load_org(access.store.as_ref(), org)
            .await?
            .map(|document| document.users().to_vec())
            .unwrap_or_default();
        let gate = Gate {
            access,
            caller,
            users,
        };
        gate.permit(org, action)?;
        Ok(gate)
    }

    fn permit(&self, org: &str, action: OrgAction) -> Result<(), ApiError> {
        match authorize_org(
            Some(&self.caller),
            org,
            &self.users,
            &self.access.org_admins,
            action,
        ) {
            Decision::Allow => Ok(()),
            Decision::Forbidden(reason) => Err(ApiError::new(StatusCode::FORBIDDEN, reason)),
            Decision::Unauthenticated => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "authentication required: send a token",
            )),
        }
    }

    /// A write of a profile or of the org's document (`new`; `None`, a delete) that
    /// changes, on a site that uses it, who is admin or whether the site is protected:
    /// an org administrator, or an admin of each such site ([`check_org_layer_write`]).
    /// Only what sites take from the document is compared: a profile's `access` and
    /// `groups`, the org's `groups`.
    async fn check_reach(
        &self,
        store: &dyn crate::store::Store,
        doc: &Doc,
        old: Option<&Value>,
        new: Option<&Value>,
    ) -> Result<(), ApiError> {
        let taken: &[&str] = match doc {
            Doc::Profile { .. } => &["access", "groups"],
            Doc::Org { .. } => &["groups"],
        };
        let parts = |document: Option<&Value>| {
            taken
                .iter()
                .map(|part| document.and_then(|d| d.get(*part)).cloned())
                .collect::<Vec<_>>()
        };
        if parts(old) == parts(new) {
            return Ok(());
        }
        let org_admin = self.permit(doc.org(), OrgAction::GrantAdmin).is_ok();
        let (profile, org_document);
        let layer = match doc {
            Doc::Profile { org, name } => {
                profile = new
                    .map(|json| Profile::from_json(org, name, json.clone()))
                    .transpose()?;
                OrgLayer::Profile(name, profile.as_ref())
            }
            Doc::Org { org } => {
                org_document = new
                    .map(|json| OrgDocument::from_json(org, json.clone()))
                    .transpose()?;
                OrgLayer::Org(org_document.as_ref())
            }
        };
        let caller = &self.caller;
        check_org_layer_write(store, self.access, caller, doc.org(), layer, org_admin).await
    }

    /// A write of the org document that changes its `users` needs an admin.
    fn check_users_change(
        &self,
        doc: &Doc,
        old: Option<&Value>,
        new: &Value,
    ) -> Result<(), ApiError> {
        let users = |document: Option<&Value>| document.and_then(|d| d.get("users")).cloned();
        if matches!(doc, Doc::Org { .. }) && users(old) != users(Some(new)) {
            self.permit(doc.org(), OrgAction::GrantAdmin)
                .map_err(|error| {
                    if error.status == StatusCode::FORBIDDEN {
                        ApiError::new(
                            StatusCode::FORBIDDEN,
                            format!(
                                "/users: only an admin of the org {} may change its users",
                                doc.org()
                            ),
                        )
                    } else {
                        error
                    }
                })?;
        }
        Ok(())
    }
}

/// Which documents a route of [`whole`] or [`part_of`] addresses: the org's own
/// (`/config/<org>.json`, `/<org>/config.json`) or a profile
/// (`/config/<org>/profiles/<profile>.json`, `/<org>/profiles/<profile>/config.json`).
pub(super) const ORG: bool = false;
pub(super) const PROFILE: bool = true;

/// A whole org document (`IS_PROFILE` = [`ORG`]) or profile document ([`PROFILE`]).
// An axum handler: one argument per extractor.
#[allow(clippy::too_many_arguments)]
pub(super) async fn whole<const IS_PROFILE: bool>(
    config: State<ConfigStore>,
    access: State<SiteAccess>,
    family: Family,
    caller: Result<Caller, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    method: Method,
    versioning: Versioning,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    if !DOCUMENT_VERBS.contains(&method) {
        return Err(ApiError::method_not_allowed(SITE_METHODS));
    }
    let doc = Doc::of(&params, reads(&method), IS_PROFILE)?;
    let request = (method, &headers, body);
    document(&config, &access, caller, doc, family, &versioning, request).await
}

/// A part of the org document (`/<org>/config/<path>`, and the older family's
/// `/config/<org>/<part>.json`, which also lists the org's sites and profiles) or of a
/// profile document (`/<org>/profiles/<profile>/config/<path>`,
/// `/config/<org>/profiles/<profile>/<path>`).
// An axum handler: one argument per extractor.
#[allow(clippy::too_many_arguments)]
pub(super) async fn part_of<const IS_PROFILE: bool>(
    config: State<ConfigStore>,
    access: State<SiteAccess>,
    family: Family,
    caller: Result<Caller, ApiError>,
    Path(params): Path<HashMap<String, String>>,
    method: Method,
    versioning: Versioning,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let doc = Doc::of(&params, true, IS_PROFILE)?;
    let request = (method, &versioning, &headers, body);
    part(&config, &access, caller, doc, family, &params, request).await
}

/// `GET /config/<org>/profiles.json`, `GET /<org>/profiles`: the org's profiles. The
/// newer family answers the platform's list (`{"profiles": [{"name"}]}`); the older, as
/// its list of sites, each with its document's path and, with `?details=true`, its title,
/// description and dates.
pub(super) async fn list_profiles(
    access: &SiteAccess,
    caller: Claims,
    org: &str,
    family: Family,
    details: bool,
) -> Result<Response, ApiError> {
    check_names_for(&Method::GET, &[("org", org)])?;
    Gate::open(access, caller, org, OrgAction::Read).await?;
    let store = access.store.as_ref();
    let mut profiles = Vec::new();
    for name in sites::documents::profile_names(store, org).await? {
        if family.is_newer() {
            profiles.push(SiteName::named(&name));
            continue;
        }
        let document = if details {
            sites::load_profile(store, org, &name)
                .await?
                .map(|p| p.json)
        } else {
            None
        };
        let path = format!("/{org}/profiles/{name}/config.json");
        profiles.push(SiteName::at(&name, path, document.as_ref()));
    }
    Ok(Json(ProfileList { profiles }).into_response())
}

/// The newer family's `/<org>/profiles`.
pub(super) async fn newer_profiles(
    State(access): State<SiteAccess>,
    Caller(caller): Caller,
    Path(org): Path<String>,
    Query(query): Query<ListQuery>,
) -> Result<Response, ApiError> {
    list_profiles(&access, caller, &org, Family::Newer, query.details).await
}

/// A whole document. A POST with `?restoreVersion=<n>` writes version `n`'s document
/// again, as a body sent would be (no body is read).
async fn document(
    config: &ConfigStore,
    access: &SiteAccess,
    caller: Result<Caller, ApiError>,
    doc: Doc,
    family: Family,
    versioning: &Versioning,
    (method, headers, body): (Method, &HeaderMap, Body),
) -> Result<Response, ApiError> {
    match method {
        Method::GET | Method::HEAD => {
            Gate::open(access, caller?.0, doc.org(), OrgAction::Read).await?;
            let stored = read(config, &doc).await?;
            Ok(Json(doc.shape(family, answer_of(&stored))).into_response())
        }
        Method::PUT | Method::POST => {
            let (value, gate, name) = match versioning.restore()? {
                None => {
                    // The body is read before the caller is refused, as every write.
                    let bytes = read_json_body(headers, body).await?;
                    let value = parse_json(&bytes)?;
                    let gate = Gate::open(access, caller?.0, doc.org(), OrgAction::Write);
                    (value, gate.await?, versioning.name_for(None)?)
                }
                Some(_) if method == Method::PUT => {
                    return Err(ApiError::bad_request(
                        "restoreVersion restores with a POST of the document",
                    ));
                }
                Some(n) => {
                    let gate = Gate::open(access, caller?.0, doc.org(), OrgAction::Write).await?;
                    let what = doc.what();
                    let store = config.store.as_ref();
                    let value = restorable(store, doc.versioned(), n, &what).await?;
                    (value, gate, versioning.name_for(Some(n))?)
                }
            };
            // The body as sent: the service's fields too must be what the schema says.
            doc.check(value.clone())?;
            // A restore writes back what was stored, in either family (as a site's does).
            if versioning.restore()?.is_none() {
                family.check_profile(&value)?;
            }
            let revision = revision(&gate.caller, name);
            let create = method == Method::PUT;
            let (doc_ref, value) = (&doc, &value);
            let written = write(config, &doc, &gate, &revision, move |previous| {
                if let (true, Some(_)) = (create, previous) {
                    return Err(ApiError::exists(format!(
                        "{} has a document; POST replaces it",
                        doc_ref.what()
                    )));
                }
                let mut value = value.clone();
                if let Value::Object(map) = &mut value {
                    map.entry("version").or_insert(serde_json::json!(1));
                }
                keep_parts(&mut value, previous, |id| doc_ref.seal_name(id))?;
                Ok(value)
            })
            .await?;
            Ok(if create {
                StatusCode::CREATED.into_response()
            } else {
                Json(doc.shape(family, answer_of(&written))).into_response()
            })
        }
        Method::DELETE => {
            let gate = Gate::open(access, caller?.0, doc.org(), OrgAction::Write).await?;
            let revision = revision(&gate.caller, versioning.name()?);
            let _guard = config.locks.lock(&doc.key()).await;
            let (key, doc, revision, gate) = (&doc.key(), &doc, &revision, &gate);
            transact(&config.store, move |view| {
                Box::pin(async move {
                    let store = view.as_ref();
                    let Some(previous) = sites::read::<Value>(store, key).await? else {
                        return Err(ApiError::missing(format!("{} has no document", doc.what())));
                    };
                    gate.check_reach(store, doc, Some(&previous), None).await?;
                    stored_versions::record(store, doc.versioned(), None, revision).await?;
                    store.delete(key).await?;
                    Ok(StatusCode::NO_CONTENT.into_response())
                })
            })
            .await
        }
        _ => Err(ApiError::method_not_allowed(SITE_METHODS)),
    }
}

/// 404: `doc` has no document.
fn doc_missing(doc: &Doc) -> ApiError {
    ApiError::missing(format!("{} has no document", doc.what()))
}

/// The stored document; 404 when there is none.
async fn read(config: &ConfigStore, doc: &Doc) -> Result<Value, ApiError> {
    sites::read::<Value>(config.store.as_ref(), &doc.key())
        .await?
        .ok_or_else(|| ApiError::missing(format!("{} has no document", doc.what())))
}

/// Writes `doc` under its lock in one transaction: `change` makes the new document from
/// the stored one (`None`: there is none); the result, without `null` members, is checked
/// whole (schema and rules), stamped, read back and written, or nothing is.
async fn write(
    config: &ConfigStore,
    doc: &Doc,
    gate: &Gate<'_>,
    revision: &Revision,
    change: impl Fn(Option<&Value>) -> Result<Value, ApiError> + Send + Sync,
) -> Result<Value, ApiError> {
    let key = doc.key();
    let _guard = config.locks.lock(&key).await;
    let (key, change) = (&key, &change);
    transact(&config.store, move |view| {
        Box::pin(async move {
            let store = view.as_ref();
            let previous = sites::read::<Value>(store, key).await?;
            let mut new = change(previous.as_ref())?;
            without_nulls(&mut new);
            doc.check(without_managed(new.clone()))?;
            gate.check_users_change(doc, previous.as_ref(), &new)?;
            stamp(&mut new, previous.as_ref());
            let new = doc.reads_back(new)?;
            gate.check_reach(store, doc, previous.as_ref(), Some(&new))
                .await?;
            stored_versions::record(store, doc.versioned(), Some(&new), revision).await?;
            save_json(store, key, &new).await?;
            Ok(new)
        })
    })
    .await
}

/// A part of a document, by sub-path.
async fn part(
    config: &ConfigStore,
    access: &SiteAccess,
    caller: Result<Caller, ApiError>,
    doc: Doc,
    family: Family,
    params: &HashMap<String, String>,
    (method, versioning, headers, body): (Method, &Versioning, &HeaderMap, Body),
) -> Result<Response, ApiError> {
    // The newer family's `{*path}`; the older's `{file}`, or `{part}/{*rest}` nested.
    let path = match (params.get("part"), params.get("rest")) {
        (Some(part), Some(rest)) => format!("{part}/{rest}"),
        _ => params
            .get("path")
            .or_else(|| params.get("file"))
            .cloned()
            .unwrap_or_default(),
    };
    let path = path.as_str();
    // A profile's `robots.txt` is the text of its `robots` part, as a site's.
    let (segments, text) = match path {
        robots::PATH => (robots::PART.to_vec(), true),
        _ => (sub_path(path)?, false),
    };
    let part = Part::of(&segments, text);
    // A body is read before the caller is refused, as every write.
    // (`secrets.json` takes none: the service makes the secret; nor does a key's record,
    // which a POST does not write: 405.)
    let sent = match method {
        Method::POST if segments != ["secrets"] && !matches!(segments[..], ["apiKeys", _]) => {
            Some(part.read(headers, body).await?)
        }
        _ => None,
    };
    let action = match method {
        Method::GET | Method::HEAD => OrgAction::Read,
        _ => OrgAction::Write,
    };
    let gate = Gate::open(access, caller?.0, doc.org(), action).await?;
    match (segments.as_slice(), method.clone()) {
        (["secrets"], Method::GET | Method::HEAD) => {
            let entries = doc.secrets(read(config, &doc).await?)?;
            let list: BTreeMap<_, _> = entries
                .iter()
                .flat_map(|entries| entries.0.keys())
                .filter_map(|id| Some((id.clone(), secrets::view(entries.as_ref(), id)?)))
                .collect();
            Ok(Json(SecretList { secrets: list }).into_response())
        }
        (["secrets"], Method::POST) => {
            let (id, value) = secrets::made()?;
            let made = Some((value.as_str(), true));
            let written = set_secret(config, &doc, &gate, &id, made, None).await?;
            let view = secrets::view(doc.secrets(written)?.as_ref(), &id);
            let view = view.ok_or_else(|| ApiError::missing("the secret was not kept"))?;
            Ok(secrets::made_answer(id, value, view))
        }
        (["secrets"], _) => Err(ApiError::method_not_allowed("GET, HEAD, POST")),
        (["secrets", id], _) => {
            check_names_for(&method, &[("secret", id)])?;
            let missing = || ApiError::missing(format!("{} has no secret `{id}`", doc.what()));
            match method {
                Method::GET | Method::HEAD => {
                    let entries = doc.secrets(read(config, &doc).await?)?;
                    let view = secrets::view(entries.as_ref(), id).ok_or_else(missing)?;
                    Ok(Json(view).into_response())
                }
                Method::POST => {
                    let body: siteops_config::model::api::SecretBody =
                        parse_value(sent.unwrap_or_default(), SchemaKind::ApiSecret, |_| {
                            Vec::new()
                        })?
                        .typed;
                    let name = versioning.name()?;
                    let sent = Some((body.value.as_str(), false));
                    let written = set_secret(config, &doc, &gate, id, sent, name).await?;
                    let view = secrets::view(doc.secrets(written)?.as_ref(), id);
                    Ok(Json(view.ok_or_else(missing)?).into_response())
                }
                Method::DELETE => {
                    let entries = doc.secrets(read(config, &doc).await?)?;
                    if secrets::view(entries.as_ref(), id).is_none() {
                        return Err(missing());
                    }
                    set_secret(config, &doc, &gate, id, None, versioning.name()?).await?;
                    Ok(StatusCode::NO_CONTENT.into_response())
                }
                _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
            }
        }
        (["apiKeys"], Method::GET | Method::HEAD) => {
            api_keys::list(&DocKeys(config, &doc, &gate)).await
        }
        (["apiKeys"], Method::POST) => {
            let request = api_keys::parse_request(sent.unwrap_or_default())?;
            // A key that could change who administers a site needs an admin to mint it,
            // as changing the org's users does: a `config_admin` cannot raise anyone.
            if api_keys::grants_admin(&request) {
                gate.permit(doc.org(), OrgAction::GrantAdmin)
                    .map_err(|error| match error.status {
                        StatusCode::FORBIDDEN => ApiError::new(
                            StatusCode::FORBIDDEN,
                            format!(
                                "/roles: only an admin of the org {} may mint a key that \
                                 administers sites",
                                doc.org()
                            ),
                        ),
                        _ => error,
                    })?;
            }
            api_keys::mint(config, &DocKeys(config, &doc, &gate), request).await
        }
        (["apiKeys"], _) => Err(ApiError::method_not_allowed("GET, HEAD, POST")),
        (["apiKeys", id], _) => api_keys::key(&DocKeys(config, &doc, &gate), id, method).await,
        ([first, ..], Method::POST | Method::DELETE)
            if *first == "secrets" || *first == "apiKeys" =>
        {
            Err(ApiError::method_not_allowed("GET, HEAD"))
        }
        (segments, Method::GET | Method::HEAD) => {
            let pointer: String = segments.iter().map(|s| format!("/{s}")).collect();
            let answer = doc.shape(family, answer_of(&read(config, &doc).await?));
            part.answer(answer.pointer(&pointer), || {
                ApiError::missing(format!("{} has no `{pointer}` configuration", doc.what()))
            })
        }
        (segments, Method::POST | Method::DELETE) => {
            if sent.as_ref().is_some_and(Value::is_null) {
                return Err(ApiError::bad_request(format!(
                    "the body of `{path}` is null: send the part, or DELETE it"
                )));
            }
            let missing = || ApiError::missing(format!("{} has no document", doc.what()));
            let named = revision(&gate.caller, versioning.name()?);
            write(config, &doc, &gate, &named, |previous| {
                let mut document = without_managed(previous.cloned().ok_or_else(missing)?);
                let kept = take_service_parts(&mut document);
                set_part(&mut document, segments, sent.clone())?;
                family.check_profile(&document)?;
                restore(&mut document, kept);
                Ok(document)
            })
            .await?;
            match sent {
                Some(value) => part.answer(Some(&value), || doc_missing(&doc)),
                None => Ok(StatusCode::NO_CONTENT.into_response()),
            }
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// Sets (`Some`) or deletes (`None`) secret `id` of `doc`, its value sealed for the
/// secret's name, as a version named `version`; the document as written.
async fn set_secret(
    config: &ConfigStore,
    doc: &Doc,
    gate: &Gate<'_>,
    id: &str,
    value: Option<(&str, bool)>,
    version: Option<String>,
) -> Result<Value, ApiError> {
    let name = doc.seal_name(id);
    write(
        config,
        doc,
        gate,
        &revision(&gate.caller, version),
        |previous| {
            let mut document = previous
                .cloned()
                .ok_or_else(|| ApiError::missing(format!("{} has no document", doc.what())))?;
            let entries = map_part(&mut document, "secrets")?;
            let old = entries.remove(id);
            if let Some((value, made)) = value {
                entries.insert(
                    id.to_string(),
                    secrets::entry(old.as_ref(), id, &name, value, made)?,
                );
            }
            Ok(document)
        },
    )
    .await
}

/// The org's or a profile's document, as API keys see it: the org's key holds on every
/// site of the org, a profile's on every site that extends it.
struct DocKeys<'a>(&'a ConfigStore, &'a Doc, &'a Gate<'a>);

impl api_keys::KeyDocument for DocKeys<'_> {
    fn what(&self) -> String {
        self.1.what()
    }

    fn claims(&self, id: &str, now: u64) -> Claims {
        let every_site = format!("{}/*", self.1.org());
        match self.1 {
            Doc::Org { org } => api_keys::claims(org.clone(), every_site, id, now),
            Doc::Profile { org, name } => Claims {
                profile: Some(name.clone()),
                ..api_keys::claims(format!("{org}/profiles/{name}"), every_site, id, now)
            },
        }
    }

    async fn records(&self) -> Result<Option<ApiKeys>, ApiError> {
        self.1.api_keys(read(self.0, self.1).await?)
    }

    async fn write(&self, id: &str, record: Option<Value>) -> Result<(), ApiError> {
        let DocKeys(config, doc, gate) = self;
        let record = &record;
        write(
            config,
            doc,
            gate,
            &revision(&gate.caller, None),
            |previous| {
                let mut document = previous
                    .cloned()
                    .ok_or_else(|| ApiError::missing(format!("{} has no document", doc.what())))?;
                api_keys::set_record(&mut document, id, record.as_ref())?;
                Ok(document)
            },
        )
        .await?;
        Ok(())
    }
}
