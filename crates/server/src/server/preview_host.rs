//! The site preview hosts, `<branch>--<site>--<org>.localhost[:port]`:
//! - pages as the platform delivers them, at the view ([`crate::preview::delivery`]): a
//!   path without extension and `.plain.html` (the stored markdown rendered with the
//!   site's configuration and sheets of now, folder mappings, redirects, `404.html`), a
//!   code `.html`, a sheet's `.json`, `/robots.txt`, `/sitemap.xml`, `/sitemap-index.xml`;
//! - `/config.json`: the public configuration, or the previewed page a mapping points there;
//! - `<path>.md`: the stored markdown;
//! - the branch's images, `…/media_<hash>.<ext>` at any depth;
//! - every other file (`/styles/styles.css`, `/blocks/hero/hero.js`) from the site's code
//!   ([`super::code_files`]).
//!
//! A site with `requireAuth` answers 401 without a valid token, and 403 to a token
//! without a role on the site (site admin, `config_admin` or org administrator).
//!
//! Each answer has its CSP nonce, chosen here ([`new_nonce`]): the delivery puts it where
//! the page's code asks for one, and [`super::page_policy`] uses it for the host's own
//! policy and scripts.
//!
//! In `serve` (a live session is running) a page is previewed when it is viewed, so an
//! open page shows the repository's current state; HTML pages carry the reload script;
//! `requireAuth` is not asked of the local browser (the session's own identity is used);
//! and the preview host answers the reload events too.

use super::code_files;
use axum::Json;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::api::ApiError;
use crate::app::AppState;
use crate::effective::path_mappings;
use crate::preview::PreviewHost;
use crate::preview::delivery::{
    self, DEFAULT_METADATA, Pipe, SiteBuses, new_nonce, pipeline_config, prefetch,
};
use crate::preview::images::media::{content_type_of, is_media_name};
use crate::preview::store::{self, BranchPreviews, PreviewRecord};
use crate::preview::url::{PagePath, Requested, Variant, requested};
use crate::sites;
use siteops_config::model::api::PublicConfig;
use siteops_delivery::{DeliveryRequest, Partition};

/// The CSP nonce of the answer to a preview host request, in the request's extensions
/// for the live session, which adds its reload script with it.
#[derive(Debug, Clone)]
pub struct Nonce(pub String);

/// What a preview host is asked.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
    /// The answer's CSP nonce.
    pub nonce: &'a str,
}

pub(super) async fn handle(state: &AppState, host: &PreviewHost, mut request: Request) -> Response {
    let path = request.uri().path().to_string();
    let content_only = path.ends_with(".plain.html");
    // Through a site port, the code's own nonce: a proxy in front puts the code's head back.
    let nonce = match request.extensions().get::<super::site_port::ViaSitePort>() {
        Some(_) => super::site_port::CODE_NONCE.to_string(),
        None => new_nonce(),
    };
    let response = if let Some(session) = &state.session {
        request.extensions_mut().insert(Nonce(nonce.clone()));
        session.clone().preview_host(state, host, request).await
    } else {
        let asked = Asked {
            uri: request.uri(),
            headers: request.headers(),
            nonce: &nonce,
        };
        match serve(state, host, &asked).await {
            Ok(response) => response,
            Err(error) => error.into_response(),
        }
    };
    super::page_policy::apply(response, &path, content_only, &nonce).await
}

/// A preview host's stored files, as the platform serves them (no session involved).
///
/// Every answer needs the site document (does the site exist, may the caller read it),
/// and most need one more document or object: each is read together with the site
/// document, so a view costs one round trip to the store, and none on a repeated view of
/// what never changes (a revision's files, an image), which comes from the store's cache.
/// Only after both reads is the site checked: nothing read is answered before that.
/// A page adds the records of the sheets every page reads (redirects, metadata) to that
/// round, and reads its code's `head.html` after it.
///
/// Why two mutable reads and not one: the page's record says which revision is current,
/// the site document who may read it; both change independently (a preview, a change of
/// `access`), and a copy of the one in the other would be stale until the next preview.
/// Reading both at once costs one round trip, not two, and every acknowledged write of
/// either is seen on the next view, on every instance.
pub async fn serve(
    state: &AppState,
    host: &PreviewHost,
    asked: &Asked<'_>,
) -> Result<Response, ApiError> {
    let store = state.store.as_ref();
    let path = asked.uri.path();
    let headers = asked.headers;
    let PreviewHost { org, site, branch } = host;
    let previews = BranchPreviews::new(store, org, site, branch);
    let existing = async |document: Result<Option<sites::Site>, sites::SiteError>| {
        let document = document?
            .ok_or_else(|| ApiError::not_found(format!("site {org}/{site} does not exist")))?;
        state.check_content_access(headers, &document).await?;
        Ok::<_, ApiError>(document)
    };
    let code_file = async |document: &sites::Site| {
        code_files::respond(
            &state.code,
            org,
            document.code_repo().as_ref(),
            branch,
            path,
            headers,
        )
        .await
    };
    if path == CONFIG_JSON {
        let (document, public) = tokio::join!(
            sites::load(store, org, site),
            sites::public(store, org, site)
        );
        let document = existing(document).await?;
        let public = public?;
        let mappings = path_mappings(&state.code, &document, branch, public.clone())
            .await
            .map(|m| m.value)
            .unwrap_or_default();
        return config_json(&previews, public, &mappings).await;
    }
    if let Some(pipe) = Pipe::of(path) {
        // Parsed before the reads, answered after the site's checks, as a missing site wins.
        let checked = match pipe {
            Pipe::Html | Pipe::Json => requested(path)
                .map(|_| ())
                .map_err(|e| ApiError::bad_request(e.to_string())),
            Pipe::Robots | Pipe::Sitemap => Ok(()),
        };
        let first = pipe.first_records(path, &[DEFAULT_METADATA.to_owned()]);
        let (document, prefetched) = tokio::join!(
            sites::load(store, org, site),
            prefetch(store, (org, site, branch), &first)
        );
        let document = existing(document).await?;
        checked?;
        let request = delivery_request(host, asked)?;
        let config = pipeline_config(&state.code, &document, host).await;
        let buses = SiteBuses::new(
            state.store.clone(),
            state.code.clone(),
            (org, site, branch),
            document.code_repo(),
            prefetched?,
        );
        return Ok(answer(
            delivery::deliver(pipe, request, config, buses, &state.renders).await,
        ));
    }
    if is_code_path(path) {
        let document = existing(sites::load(store, org, site).await).await?;
        return code_file(&document).await;
    }
    let not_found = || ApiError::not_found(format!("{path} has not been previewed"));
    // Parsed before the reads, answered after the site's checks, as a missing site wins.
    let requested = requested(path).map_err(|e| ApiError::bad_request(e.to_string()));
    match requested {
        Ok(Requested::Media(name)) => {
            let (document, bytes) =
                tokio::join!(sites::load(store, org, site), previews.media(&name));
            existing(document).await?;
            let bytes = bytes?.ok_or_else(not_found)?;
            let extension = name.rsplit('.').next().unwrap_or("");
            Ok(typed(
                bytes,
                content_type_of(extension).unwrap_or("application/octet-stream"),
            ))
        }
        Ok(Requested::Page(page, variant)) => {
            let web_path = page.web_path();
            let (document, record) =
                tokio::join!(sites::load(store, org, site), previews.load(&web_path));
            existing(document).await?;
            page_file(&previews, &web_path, record?, variant)
                .await?
                .ok_or_else(not_found)
        }
        Err(error) => {
            existing(sites::load(store, org, site).await).await?;
            Err(error)
        }
    }
}

/// The delivery's request: the URL as asked on the host (the `Host` as sent, as a
/// browser sends it, port included), the `Origin`, the answer's nonce.
fn delivery_request(host: &PreviewHost, asked: &Asked<'_>) -> Result<DeliveryRequest, ApiError> {
    let origin = match asked
        .headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
    {
        Some(authority) => format!("http://{authority}"),
        None => host.origin(None),
    };
    let path_and_query = asked
        .uri
        .path_and_query()
        .map_or(asked.uri.path(), |p| p.as_str());
    let url = url::Url::parse(&format!("{origin}{path_and_query}"))
        .map_err(|e| ApiError::bad_request(format!("the request's URL is not usable: {e}")))?;
    Ok(DeliveryRequest {
        url,
        partition: Partition::Preview,
        origin: asked
            .headers
            .get(header::ORIGIN)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned),
        forwarded_host: asked
            .headers
            .get("x-forwarded-host")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned),
        nonce: asked.nonce.to_owned(),
    })
}

/// The delivery's answer as HTTP; a header that HTTP cannot carry is left out (logged).
fn answer(delivered: siteops_delivery::Response) -> Response {
    let status =
        StatusCode::from_u16(delivered.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, delivered.body).into_response();
    let headers = response.headers_mut();
    for (name, value) in delivered.headers {
        match (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value.replace(['\r', '\n'], " ")),
        ) {
            (Ok(name), Ok(value)) => {
                headers.insert(name, value);
            }
            _ => tracing::warn!(%name, "a delivered header HTTP cannot carry is left out"),
        }
    }
    response
}

/// Whether a request path is the code's: a file name with an extension, other than the
/// content's own (`.md`, `.plain.html`, sheets' `.json`) and the branch's images.
pub(super) fn is_code_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    if is_media_name(name) || path.ends_with(".plain.html") || path.ends_with(".md") {
        return false;
    }
    matches!(name.rsplit_once('.'), Some((stem, extension)) if !stem.is_empty() && extension != "json")
}

/// A stored page in the variant asked for, from its record (read as `record`); a sheet
/// only as itself.
async fn page_file(
    previews: &BranchPreviews<'_>,
    web_path: &str,
    record: Option<PreviewRecord>,
    variant: Variant,
) -> Result<Option<Response>, ApiError> {
    let Some(record) = record else {
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
        .file_of(web_path, record, file)
        .await?
        .map(|(_, bytes)| typed(bytes, content_type)))
}

/// A stored page in the variant asked for, its record read first.
async fn stored_page(
    previews: &BranchPreviews<'_>,
    page: &PagePath,
    variant: Variant,
) -> Result<Option<Response>, ApiError> {
    let web_path = page.web_path();
    let record = previews.load(&web_path).await?;
    page_file(previews, &web_path, record, variant).await
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
async fn config_json(
    previews: &BranchPreviews<'_>,
    public: Option<PublicConfig>,
    mappings: &[String],
) -> Result<Response, ApiError> {
    if let Some(source) = config_page(mappings) {
        // The page as mapped, or the sheet it became (`<source>.json`).
        let mut served = None;
        if let Ok(page) = PagePath::parse(source) {
            served = stored_page(previews, &page, Variant::Html).await?;
            if served.is_none()
                && let Ok(sheet) = PagePath::parse(&page.resource_path(true))
            {
                served = stored_page(previews, &sheet, Variant::Html).await?;
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
