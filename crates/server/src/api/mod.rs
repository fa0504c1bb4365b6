//! The HTTP plumbing every route family shares: errors as responses ([`ApiError`]), request
//! bodies read within their limits and parsed once into validated types ([`body`]), names
//! from request paths checked, the caller and the authorised site as extractors
//! ([`caller`], [`site`]), the JSON answers as types ([`answers`]) and the OpenAPI
//! document made from them ([`openapi`]). Below the routes and above the domain: it names no route module and
//! not the application state; extractors reach the state through `FromRef` sub-states.

pub mod answers;
pub mod body;
pub mod caller;
pub mod error;
pub mod family;
pub mod openapi;
pub mod site;

use axum::body::Body;
use axum::http::StatusCode;

pub use crate::sites::{MAX_NAME_LEN, is_name};
pub use caller::{Caller, OptionalCaller};
pub use error::{ApiError, X_ERROR_CODE};
pub use family::Family;
pub use site::{AuthorizedSite, SiteAccess};

/// The methods of a document resource: read, write, delete.
pub const DOCUMENT_METHODS: &str = "GET, HEAD, POST, DELETE";
/// The methods of a site: as a document's, and PUT to create one.
pub const SITE_METHODS: &str = "GET, HEAD, PUT, POST, DELETE";
/// The methods of a list.
pub const LIST_METHODS: &str = "GET, HEAD";

/// Largest request body accepted (413 beyond).
pub const BODY_LIMIT: usize = 1024 * 1024;

/// Largest `robots.txt` a site or profile takes (413 beyond): search engines read no more
/// than 500 KiB of one (Google's documented limit), so a larger file only grows the
/// document.
pub const ROBOTS_LIMIT: usize = 500 * 1024;

/// Checks org, site, branch and secret names from a request path: `[a-z0-9][a-z0-9-]*`
/// (no path traversal, no surprises), at most [`MAX_NAME_LEN`] characters, 400 otherwise,
/// before anything touches the store. Each pair is (what, name).
pub fn check_names(names: &[(&str, &str)]) -> Result<(), ApiError> {
    for (what, name) in names {
        if name.len() > MAX_NAME_LEN {
            return Err(ApiError::bad_request(format!(
                "invalid {what} name: {} characters, longer than the {MAX_NAME_LEN} allowed",
                name.len()
            )));
        }
        if !siteops_config::rules::is_id(name) {
            return Err(ApiError::bad_request(format!(
                "invalid {what} name `{name}`: names are [a-z0-9][a-z0-9-]*"
            )));
        }
    }
    Ok(())
}

/// [`check_names`] for a request of `method`: a read or a delete of a name that cannot be
/// one asks for what cannot exist, so it is 404 (as the platform answers a document it
/// does not have); a write of one is 400 (it cannot be made).
pub fn check_names_for(
    method: &axum::http::Method,
    names: &[(&str, &str)],
) -> Result<(), ApiError> {
    use axum::http::Method;
    if matches!(*method, Method::GET | Method::HEAD | Method::DELETE) {
        check_existing_names(names)
    } else {
        check_names(names)
    }
}

/// [`check_names`] for a request about a document that must exist (a read, a delete, a
/// write of a part of it): 404 for a name that cannot be one, as for any document that
/// does not exist.
pub fn check_existing_names(names: &[(&str, &str)]) -> Result<(), ApiError> {
    check_names(names)
        .map_err(|error| ApiError::missing(format!("no such resource: {}", error.message)))
}

/// The name of a `<name>.json` resource of a request path; 404 for anything else.
pub(crate) fn strip_json<'a>(file: &'a str, what: &str) -> Result<&'a str, ApiError> {
    file.strip_suffix(".json").ok_or_else(|| {
        ApiError::not_found(format!("no such {what}: `{file}` (expected <name>.json)"))
    })
}

/// Longest a request body may take to arrive (408 beyond): a client that sends its body a
/// byte a second holds nothing for long.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Reads a request body of at most [`BODY_LIMIT`] bytes, arriving within [`BODY_TIMEOUT`].
pub(crate) async fn read_body(body: Body) -> Result<axum::body::Bytes, ApiError> {
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, BODY_LIMIT)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {BODY_LIMIT} bytes (or could not be read)"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Reads a JSON request body as [`read_body`] does, refusing one whose `Content-Type` is
/// not JSON (415): a browser's cross-site form can send `text/plain`, never JSON, so a body
/// that says it is something else is never taken for a configuration. A body without a
/// `Content-Type` is read (scripts and CLIs).
pub(crate) async fn read_json_body(
    headers: &axum::http::HeaderMap,
    body: Body,
) -> Result<axum::body::Bytes, ApiError> {
    if let Some(value) = headers.get(axum::http::header::CONTENT_TYPE)
        && !is_json(value.to_str().unwrap_or_default())
    {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "the request body is `{}`: send JSON, with content-type: application/json",
                String::from_utf8_lossy(value.as_bytes())
            ),
        )
        .with_code(error::code::TYPE_MISSING));
    }
    read_body(body).await
}

/// `application/json` or `application/<something>+json`, parameters aside.
fn is_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|subtype| subtype.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_content_types() {
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
            "application/merge-patch+json",
        ] {
            assert!(is_json(json), "{json}");
        }
        for other in [
            "text/plain",
            "text/plain; charset=application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "",
        ] {
            assert!(!is_json(other), "{other}");
        }
    }
}
