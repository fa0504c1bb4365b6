//! What a site actually uses on a branch, where configuration and code both have a say:
//! - the content source: the site's `content`, else the `/` mountpoint of `fstab.yaml` in
//!   its code;
//! - the path mappings: the public configuration's, else the legacy `paths.yaml` of its
//!   code (ignored as soon as public mappings are configured).
//!
//! `GET /status/<org>/<site>/<branch>` shows both with their origin.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::{existing_site, public_config};
use super::error::ApiError;
use crate::app::AppState;
use crate::auth::Action;
use crate::code::{CodeRepo, SiteCode};
use crate::sites::{self, SiteError};
use crate::store::Store;
use siteops_config::document::Document;
use siteops_config::model::api::ContentConfig;
use siteops_config::model::files::{FstabFile, LegacyPaths};
use siteops_config::source::SourceFile;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Effective<T> {
    pub value: T,
    /// Where it comes from: `config`, `public.json`, `fstab.yaml` or `paths.yaml`.
    pub origin: &'static str,
}

/// A code file of the site's repository on `branch`, parsed as YAML into `T`. A file
/// that does not parse counts as absent, as on the platform; the log says why.
fn code_yaml<T: serde::de::DeserializeOwned>(
    code: &SiteCode,
    site: &Value,
    branch: &str,
    file: &str,
) -> Option<T> {
    let text = code.text(&CodeRepo::of_site(site)?, branch, file)?;
    let parsed = Document::parse_yaml(SourceFile::new(file, text))
        .map_err(|e| format!("{e:?}"))
        .and_then(|document| serde_json::from_value(document.value).map_err(|e| e.to_string()));
    parsed
        .inspect_err(|error| tracing::warn!(%file, %branch, %error, "ignoring a code file"))
        .ok()
}

/// The content source of `org/site` (its stored `document`) on `branch`.
pub fn content_source(
    code: &SiteCode,
    org: &str,
    site: &str,
    document: &Value,
    branch: &str,
) -> Result<Option<Effective<ContentConfig>>, SiteError> {
    if let Some(content) = sites::content(org, site, document)? {
        return Ok(Some(Effective {
            value: content,
            origin: "config",
        }));
    }
    let from_fstab = || {
        let fstab: FstabFile = code_yaml(code, document, branch, "fstab.yaml")?;
        Some(Effective {
            value: ContentConfig {
                source: fstab.root_source()?,
                overlay: None,
            },
            origin: "fstab.yaml",
        })
    };
    Ok(from_fstab())
}

pub fn path_mappings(
    store: &dyn Store,
    code: &SiteCode,
    org: &str,
    site_name: &str,
    site: &Value,
    branch: &str,
) -> Result<Option<Effective<Vec<String>>>, ApiError> {
    let public = public_config(store, org, site_name)?;
    let configured = public
        .as_ref()
        .and_then(|p| p.pointer("/paths/mappings"))
        .map(Vec::<String>::deserialize)
        .transpose()
        .map_err(|error| SiteError::Damaged {
            key: sites::public_key(org, site_name),
            reason: format!("`paths.mappings`: {error}"),
        })?;
    if let Some(mappings) = configured {
        return Ok(Some(Effective {
            value: mappings,
            origin: "public.json",
        }));
    }
    Ok(
        code_yaml::<LegacyPaths>(code, site, branch, "paths.yaml").map(|legacy| Effective {
            value: legacy.mappings,
            origin: "paths.yaml",
        }),
    )
}

/// `GET /status/<org>/<site>/<branch>`.
pub async fn status(
    State(state): State<Arc<AppState>>,
    Path((org, site, branch)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    super::check_names(&[("org", &org), ("site", &site), ("branch", &branch)])?;
    let document = existing_site(&state, &headers, &org, &site, Action::Operate)?;
    let store = state.store.as_ref();
    let body = serde_json::json!({
        "content": content_source(&state.code, &org, &site, &document, &branch)?,
        "mappings": path_mappings(store, &state.code, &org, &site, &document, &branch)?,
    });
    Ok(Json(body).into_response())
}
