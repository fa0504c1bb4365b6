//! The site's code on its preview host: every request that is not a page, a sheet, an
//! image or `/config.json` is answered from the site's code for the branch
//! ([`crate::code::SiteCode`]: a mapped checkout, else the code store).
//!
//! - The content type follows the extension ([`crate::code::media_type`]).
//! - `cache-control: no-cache` with a strong `etag`: the browser keeps the file but asks
//!   again each time, so an edit shows on the next load, as a code sync purges the
//!   platform's cache; an unchanged file costs a `304`.
//! - A file the code does not have is answered with the code's `404.html` (status 404,
//!   as the platform does), else a plain 404.
//! - Paths that are hidden, `node_modules`, or leave the code's root are never served
//!   ([`crate::code::CodePath`], [`crate::code::Checkout`]).

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::api::ApiError;
use crate::code::{CodeError, CodeFile, CodePath, CodeRepo, Origin, SiteCode, media_type};

/// Answers `path` from `repo`'s code on `branch`, for a site of `org`.
pub async fn respond(
    code: &SiteCode,
    org: &str,
    repo: Option<&CodeRepo>,
    branch: &str,
    path: &str,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let not_found = async |why: String| -> Result<Response, ApiError> {
        let page = match (repo, CodePath::new("404.html")) {
            (Some(repo), Ok(page)) => read(code, org, repo, branch, &page).await,
            _ => None,
        };
        match page {
            Some(Ok(page)) => Ok(with_status(
                StatusCode::NOT_FOUND,
                page.bytes,
                "text/html; charset=utf-8",
            )),
            Some(Err(error)) => Err(error),
            None => Err(ApiError::not_found(why)),
        }
    };
    let Some(repo) = repo else {
        return not_found("the site has no code".to_string()).await;
    };
    let code_path = match CodePath::from_request(path) {
        Ok(code_path) => code_path,
        Err(refused) => return not_found(refused.to_string()).await,
    };
    let file = match read(code, org, repo, branch, &code_path).await {
        Some(file) => file?,
        None => {
            return not_found(format!("{path} is not in the code of {repo} ({branch})")).await;
        }
    };
    let etag = etag(&file.bytes);
    let mut response = if none_match(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let content_type = media_type::content_type(code_path.extension().as_deref());
        with_status(StatusCode::OK, file.bytes, &content_type)
    };
    let response_headers = response.headers_mut();
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        response_headers.insert(header::ETAG, value);
    }
    let origin = match &file.origin {
        Origin::Checkout => "checkout".to_string(),
        Origin::Store { branch } => format!("store {branch}"),
    };
    if let Ok(value) = HeaderValue::from_str(&origin) {
        response_headers.insert("x-siteops-code", value);
    }
    Ok(response)
}

async fn read(
    code: &SiteCode,
    org: &str,
    repo: &CodeRepo,
    branch: &str,
    path: &CodePath,
) -> Option<Result<CodeFile, ApiError>> {
    match code.read(org, repo, branch, path).await {
        Ok(file) => file.map(Ok),
        Err(error) => Some(Err(code_error(error))),
    }
}

fn code_error(error: CodeError) -> ApiError {
    match error {
        CodeError::Store(error) => error.into(),
        CodeError::Checkout(error) => {
            tracing::error!(%error, "cannot read the code checkout");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
        }
    }
}

fn with_status(status: StatusCode, bytes: Vec<u8>, content_type: &str) -> Response {
    let mut response = (status, bytes).into_response();
    if let Ok(value) = HeaderValue::from_str(content_type) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    response
}

/// A strong validator: the first 128 bits of the SHA-256 of the bytes.
fn etag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

/// Whether `If-None-Match` names `etag` (or is `*`).
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_lists_are_read() {
        let tag = etag(b"body{}");
        let mut headers = HeaderMap::new();
        assert!(!none_match(&headers, &tag));
        headers.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"x\", W/{tag}")).expect("value"),
        );
        assert!(none_match(&headers, &tag));
        assert!(!none_match(&headers, &etag(b"body{color:red}")));
    }
}
