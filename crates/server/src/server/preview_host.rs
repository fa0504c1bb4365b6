//! The site preview hosts, `<branch>--<site>--<org>.localhost[:port]`:
//! - `/config.json`: the public configuration, or the previewed page a mapping points there;
//! - previewed pages from the store: `<path>` (the rendered page, or a sheet's JSON),
//!   `<path>.md`, `<path>.plain.html`;
//! - the branch's images, `…/media_<hash>.<ext>` at any depth;
//! - every other file (`/styles/styles.css`, `/blocks/hero/hero.js`, `/404.html`) from the
//!   site's code ([`super::code_files`]).
//!
//! A site with `requireAuth` answers 401 without a valid token, and 403 to a token
//! without a role on the site (site admin, `config_admin` or org administrator).
//!
//! In `serve` (a live session is running) a page is previewed when it is viewed, so an
//! open page shows the repository's current state; HTML pages carry the reload script;
//! `requireAuth` is not asked of the local browser (the session's own identity is used);
//! and the preview host answers the reload events too.

use super::code_files;
use axum::Json;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::api::ApiError;
use crate::app::AppState;
use crate::effective::path_mappings;
use crate::preview::PreviewHost;
use crate::preview::images::media::{content_type_of, is_media_name};
use crate::preview::store::{self, BranchPreviews};
use crate::preview::url::{PagePath, Requested, Variant, requested};
use crate::sites;
use siteops_config::model::api::PublicConfig;

pub async fn handle(state: &AppState, host: &PreviewHost, request: Request) -> Response {
    let path = request.uri().path().to_string();
    let content_only = path.ends_with(".plain.html");
    let response = if let Some(session) = &state.session {
        session.clone().preview_host(state, host, request).await
    } else {
        match serve(state, host, request.uri().path(), request.headers()) {
            Ok(response) => response,
            Err(error) => error.into_response(),
        }
    };
    super::page_policy::apply(response, &path, content_only).await
}

/// A preview host's stored files, as the platform serves them (no session involved).
pub fn serve(
    state: &AppState,
    host: &PreviewHost,
    path: &str,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let store = state.store.as_ref();
    let PreviewHost { org, site, .. } = host;
    let document = sites::load(store, org, site)?
        .ok_or_else(|| ApiError::not_found(format!("site {org}/{site} does not exist")))?;
    state.check_content_access(headers, &document)?;
    let previews = BranchPreviews::new(store, org, site, &host.branch);
    match path {
        CONFIG_JSON => {
            let mappings = path_mappings(store, &state.code, &document, &host.branch)?
                .map(|m| m.value)
                .unwrap_or_default();
            config_json(&previews, sites::public(store, org, site)?, &mappings)
        }
        path if is_code_path(path) => code_files::respond(
            &state.code,
            org,
            document.code_repo().as_ref(),
            &host.branch,
            path,
            headers,
        ),
        path => {
            let not_found = || ApiError::not_found(format!("{path} has not been previewed"));
            match requested(path).map_err(|e| ApiError::bad_request(e.to_string()))? {
                Requested::Media(name) => {
                    let bytes = previews.media(&name)?.ok_or_else(not_found)?;
                    let extension = name.rsplit('.').next().unwrap_or("");
                    Ok(typed(
                        bytes,
                        content_type_of(extension).unwrap_or("application/octet-stream"),
                    ))
                }
                Requested::Page(page, variant) => match page_file(&previews, &page, variant)? {
                    Some(response) => Ok(response),
                    // A JSON file that is no previewed sheet may be the code's.
                    None if path.ends_with(".json") => code_files::respond(
                        &state.code,
                        org,
                        document.code_repo().as_ref(),
                        &host.branch,
                        path,
                        headers,
                    ),
                    None => Err(not_found()),
                },
            }
        }
    }
}

/// Whether a request path is the code's: a file name with an extension, other than the
/// content's own (`.md`, `.plain.html`, sheets' `.json`) and the branch's images.
pub fn is_code_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    if is_media_name(name) || path.ends_with(".plain.html") || path.ends_with(".md") {
        return false;
    }
    matches!(name.rsplit_once('.'), Some((stem, extension)) if !stem.is_empty() && extension != "json")
}

/// A stored page in the variant asked for; a sheet only as itself.
fn page_file(
    previews: &BranchPreviews<'_>,
    page: &PagePath,
    variant: Variant,
) -> Result<Option<Response>, ApiError> {
    let web_path = page.web_path();
    let Some(record) = previews.load(&web_path)? else {
        return Ok(None);
    };
    let (file, content_type) = match (record.is_json(), variant) {
        (true, Variant::Html) => (store::JSON, "application/json"),
        (true, _) => return Ok(None),
        (false, Variant::Html) => (store::PAGE, "text/html; charset=utf-8"),
        (false, Variant::Markdown) => (store::MARKDOWN, "text/markdown; charset=utf-8"),
        (false, Variant::Plain) => (store::PLAIN, "text/html; charset=utf-8"),
    };
    Ok(previews
        .file(&web_path, file)?
        .map(|(_, bytes)| typed(bytes, content_type)))
}

fn typed(bytes: Vec<u8>, content_type: &'static str) -> Response {
    let mut response = bytes.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// Where a preview host serves a site's configuration.
pub const CONFIG_JSON: &str = "/config.json";

/// The configuration page that a path mapping (`<source>:/config.json`) publishes at
/// [`CONFIG_JSON`], when one does.
pub fn config_page(mappings: &[String]) -> Option<&str> {
    mappings.iter().find_map(|m| {
        m.split_once(':')
            .filter(|(_, to)| *to == CONFIG_JSON)
            .map(|(from, _)| from)
    })
}

/// `/config.json`: the public configuration, unless a path mapping (the public one, or the
/// legacy `paths.yaml` of the site's code) publishes a configuration page there, which is
/// served once it has been previewed.
fn config_json(
    previews: &BranchPreviews<'_>,
    public: Option<PublicConfig>,
    mappings: &[String],
) -> Result<Response, ApiError> {
    if let Some(source) = config_page(mappings) {
        // The page as mapped, or the sheet it became (`<source>.json`).
        let mut served = None;
        if let Ok(page) = PagePath::parse(source) {
            served = page_file(previews, &page, Variant::Html)?;
            if served.is_none()
                && let Ok(sheet) = PagePath::parse(&page.resource_path(true))
            {
                served = page_file(previews, &sheet, Variant::Html)?;
            }
        }
        return served.ok_or_else(|| {
            ApiError::not_found(format!(
                "/config.json is mapped to the configuration page {source}, which has not been previewed"
            ))
        });
    }
    Ok(Json(json!({ "public": public.unwrap_or_default() })).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_paths_are_files_that_are_not_content() {
        for code in [
            "/styles/styles.css",
            "/blocks/hero/hero.js",
            "/404.html",
            "/favicon.ico",
            "/icons/search.svg",
            "/fonts/roboto.woff2",
        ] {
            assert!(is_code_path(code), "{code}");
        }
        for content in [
            "/",
            "/products/1234",
            "/products/1234.md",
            "/products/1234.plain.html",
            "/query-index.json",
            "/products/media_0123456789abcdef0123456789abcdef01234567.png",
            "/.hlxignore",
        ] {
            assert!(!is_code_path(content), "{content}");
        }
    }
}
