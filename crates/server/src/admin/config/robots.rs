//! `robots.txt` of a site or a profile, as the platform's configuration service keeps it:
//! the `txt` of the document's `robots` part (`{"robots": {"txt": "User-agent: *…"}}`),
//! read and written as plain text. Older family `…/sites/<site>/robots.txt` and
//! `…/profiles/<profile>/robots.txt`; newer `…/sites/<site>/config/robots.txt` and
//! `…/profiles/<profile>/config/robots.txt` (the platform's `BaseHandler.handleRobots`);
//! the aggregated site's `…/aggregated/<site>/config/robots.txt` reads it over the
//! profile's. POST (`text/plain`) stores the text as sent and answers it; GET answers it
//! (`text/plain`, 404 when the document has none); DELETE removes the part. The delivery
//! serves it as the site's `/robots.txt` (`siteops_delivery::robots`).

use axum::body::Body;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::api::{ApiError, ROBOTS_LIMIT, read_body};

/// The sub-path of a document's `robots.txt`.
pub(super) const PATH: &str = "robots.txt";

/// The document part the text is kept in.
pub(super) const PART: [&str; 1] = ["robots"];

const TEXT: &str = "text/plain; charset=utf-8";

/// A `robots.txt` body as the part it is stored as, `{"txt": <text>}`: sent as
/// `text/plain` or without a content type (415 otherwise), at most [`ROBOTS_LIMIT`] bytes
/// (413), UTF-8 (400), not empty (400 `missing body`, as the platform answers).
pub(super) async fn read_part(headers: &HeaderMap, body: Body) -> Result<Value, ApiError> {
    if let Some(value) = headers.get(header::CONTENT_TYPE) {
        let content_type = String::from_utf8_lossy(value.as_bytes()).into_owned();
        let essence = content_type.split(';').next().unwrap_or_default().trim();
        if !essence.eq_ignore_ascii_case("text/plain") {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "the request body is `{content_type}`: send robots.txt as text, with \
                     content-type: text/plain"
                ),
            ));
        }
    }
    let bytes = read_body(body).await?;
    if bytes.len() > ROBOTS_LIMIT {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("robots.txt is larger than {ROBOTS_LIMIT} bytes"),
        ));
    }
    if bytes.is_empty() {
        return Err(ApiError::bad_request("missing body"));
    }
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::bad_request("robots.txt is not UTF-8 text"))?;
    Ok(json!({ "txt": text }))
}

/// The answer for the stored (or just written) part: its text, `text/plain`; 404
/// (`missing`) when there is none.
pub(super) fn answer(part: Option<&Value>, missing: impl FnOnce() -> ApiError) -> Response {
    match part
        .and_then(|part| part.get("txt"))
        .and_then(Value::as_str)
    {
        Some(text) => ([(header::CONTENT_TYPE, TEXT)], text.to_string()).into_response(),
        None => missing().into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(content_type: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = content_type {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(value));
        }
        headers
    }

    async fn read(content_type: Option<&'static str>, body: Vec<u8>) -> Result<Value, ApiError> {
        read_part(&headers(content_type), Body::from(body)).await
    }

    #[tokio::test]
    async fn text_is_taken_as_sent_and_anything_else_refused() {
        let text = "User-agent: *\nDisallow: /drafts/\n";
        for content_type in [Some("text/plain"), Some("Text/Plain; charset=utf-8"), None] {
            let part = read(content_type, text.into()).await.expect("taken");
            assert_eq!(part, json!({"txt": text}));
        }
        let status = |result: Result<Value, ApiError>| result.expect_err("refused").status;
        let json = read(Some("application/json"), b"{}".to_vec()).await;
        assert_eq!(status(json), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let empty = read(Some("text/plain"), Vec::new()).await;
        assert_eq!(status(empty), StatusCode::BAD_REQUEST);
        let binary = read(Some("text/plain"), vec![0xff, 0xfe]).await;
        assert_eq!(status(binary), StatusCode::BAD_REQUEST);
        let large = read(Some("text/plain"), vec![b'#'; ROBOTS_LIMIT + 1]).await;
        assert_eq!(status(large), StatusCode::PAYLOAD_TOO_LARGE);
        let largest = read(Some("text/plain"), vec![b'#'; ROBOTS_LIMIT]).await;
        assert!(largest.is_ok());
    }
}
