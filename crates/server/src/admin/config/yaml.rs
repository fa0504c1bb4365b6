//! A site's index and sitemap configuration, YAML as the platform keeps it:
//! `…/sites/<site>/content/query.yaml` and `…/content/sitemap.yaml` in the older family,
//! `…/sites/<site>/config/content/query.yaml` in the newer. POST (`content-type:
//! text/yaml`) stores the text as sent, once it parses as the platform parses it (anchors,
//! aliases and merge keys taken; an alias bomb refused: 400 naming where); PUT does the same
//! for a site that has none yet (409 otherwise, as the platform's `createIndexConfig`); GET
//! answers the text, anchors and all (`text/yaml`); DELETE removes it. Stored beside the
//! site's document, deleted with the site.

use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ConfigStore;
use crate::api::site::Configure;
use crate::api::{ApiError, AuthorizedSite, DOCUMENT_METHODS, read_body};
use crate::store::{Precondition, StoreError, keys};
use siteops_config::document::Document;
use siteops_config::source::SourceFile;

/// The YAML files a site's configuration has, by sub-path.
pub(super) fn name_of(path: &str) -> Option<&'static str> {
    match path {
        "content/query.yaml" => Some("query"),
        "content/sitemap.yaml" => Some("sitemap"),
        _ => None,
    }
}

/// Largest YAML file taken (413 beyond): an index or sitemap configuration is a few
/// kilobytes.
pub(crate) const YAML_LIMIT: usize = 256 * 1024;

/// `content/<name>.yaml` of the authorised site.
pub(super) async fn resource(
    config: &ConfigStore,
    authorized: Result<AuthorizedSite<Configure>, ApiError>,
    name: &str,
    method: Method,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    // The body is read before the caller is refused, as every write.
    let text = match method {
        Method::POST | Method::PUT => Some(read_yaml(headers, body).await?),
        _ => None,
    };
    let authorized = authorized?;
    let AuthorizedSite { org, site, .. } = &authorized;
    let key = keys::site_yaml(org, site, name);
    let missing = || ApiError::missing(format!("{org}/{site} has no `content/{name}.yaml`"));
    match method {
        Method::GET | Method::HEAD => {
            let bytes = config.store.get(&key).await?.ok_or_else(missing)?;
            Ok(([(header::CONTENT_TYPE, "text/yaml; charset=utf-8")], bytes).into_response())
        }
        Method::POST => {
            let text = text.unwrap_or_default();
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            // The site may have gone meanwhile: nothing is kept for a site that is not.
            authorized.reread(config.store.as_ref()).await?;
            config.store.put(&key, text.as_bytes()).await?;
            Ok(([(header::CONTENT_TYPE, "text/yaml; charset=utf-8")], text).into_response())
        }
        Method::PUT => {
            let text = text.unwrap_or_default();
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            authorized.reread(config.store.as_ref()).await?;
            let created = config
                .store
                .put_if(&key, text.as_bytes(), Precondition::Absent)
                .await;
            match created {
                Err(StoreError::Conflict { .. }) => Err(ApiError::exists(format!(
                    "{org}/{site} already has a `content/{name}.yaml`: POST replaces it"
                ))),
                Err(error) => Err(error.into()),
                Ok(()) => Ok((
                    StatusCode::CREATED,
                    [(header::CONTENT_TYPE, "text/yaml; charset=utf-8")],
                    text,
                )
                    .into_response()),
            }
        }
        Method::DELETE => {
            let _guard = config.locks.lock(&keys::site(org, site)).await;
            if !config.store.delete(&key).await? {
                return Err(missing());
            }
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        _ => Err(ApiError::method_not_allowed(DOCUMENT_METHODS)),
    }
}

/// A YAML body: sent as YAML (415 otherwise), at most [`YAML_LIMIT`] bytes (413), UTF-8
/// text that parses (400 naming where it does not).
async fn read_yaml(headers: &HeaderMap, body: Body) -> Result<String, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let yaml = [
        "text/yaml",
        "application/yaml",
        "application/x-yaml",
        "text/x-yaml",
    ];
    if !yaml.iter().any(|kind| essence.eq_ignore_ascii_case(kind)) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "the request body is `{content_type}`: send YAML, with content-type: text/yaml"
            ),
        ));
    }
    let bytes = read_body(body).await?;
    if bytes.len() > YAML_LIMIT {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the YAML body is larger than {YAML_LIMIT} bytes"),
        ));
    }
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::bad_request("the YAML body is not UTF-8"))?;
    if let Err(problems) = Document::parse_yaml(SourceFile::new("body.yaml", text.clone())) {
        let first = problems
            .first()
            .map(|problem| {
                let at = problem.location.as_ref().and_then(|l| l.span.as_ref());
                match at {
                    Some(span) => format!(
                        "line {}, column {}: {} ({})",
                        span.start.line,
                        span.start.column,
                        problem.headline(),
                        problem.code.as_str()
                    ),
                    None => problem.headline(),
                }
            })
            .unwrap_or_else(|| "it does not parse".into());
        return Err(ApiError::bad_request(format!(
            "the YAML body does not parse: {first}"
        )));
    }
    Ok(text)
}
