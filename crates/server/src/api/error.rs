//! Errors of the HTTP routes (the administration API, the worker, the preview hosts): a status, `text/plain`, and the message in the
//! `x-error` header (and the body, for people reading a browser tab). The configuration
//! routes answer errors as the platform does ([`platform_form`]): an empty body, the
//! message in `x-error` and the platform's code in `x-error-code` ([`code`]).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;
use siteops_config::diagnostic::Diagnostic;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// The methods the resource answers, sent as `Allow` with a 405.
    pub allow: Option<&'static str>,
    /// Seconds to wait, sent as `Retry-After` with a 429 or 503.
    pub retry_after: Option<u64>,
    /// The platform's error code ([`code`]), sent as `x-error-code`.
    pub code: Option<&'static str>,
}

/// The platform's error codes of its configuration API (`x-error-code`), as its admin
/// service names them (see `../shared/reference/platform/SOURCE`).
pub mod code {
    /// A PUT of a document that exists.
    pub const EXISTS: &str = "AEM_BACKEND_CONFIG_EXISTS";
    /// No JSON body, or not sent as JSON.
    pub const TYPE_MISSING: &str = "AEM_BACKEND_CONFIG_TYPE_MISSING";
    /// A body the document's schema or rules refuse.
    pub const TYPE_INVALID: &str = "AEM_BACKEND_CONFIG_TYPE_INVALID";
    /// No such document, or no such part of one.
    pub const MISSING: &str = "AEM_BACKEND_CONFIG_MISSING";
    /// The store failed a read, create, update or delete.
    pub const READ: &str = "AEM_BACKEND_CONFIG_READ";
    pub const CREATE: &str = "AEM_BACKEND_CONFIG_CREATE";
    pub const UPDATE: &str = "AEM_BACKEND_CONFIG_UPDATE";
    pub const DELETE: &str = "AEM_BACKEND_CONFIG_DELETE";
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            allow: None,
            retry_after: None,
            code: None,
        }
    }

    /// The same error with the platform's code `code` ([`code`]).
    pub(crate) fn with_code(self, code: &'static str) -> ApiError {
        ApiError {
            code: Some(code),
            ..self
        }
    }

    /// 409: a PUT of a document that exists (POST replaces).
    pub(crate) fn exists(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message).with_code(code::EXISTS)
    }

    /// 404: no such configuration document, or no such part of one.
    pub(crate) fn missing(message: impl Into<String>) -> ApiError {
        ApiError::not_found(message).with_code(code::MISSING)
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 429: over a rate ([`crate::quota`]); try again after the time given.
    pub fn too_many(retry: crate::quota::RetryAfter, message: impl Into<String>) -> ApiError {
        ApiError {
            retry_after: Some(retry.seconds()),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }

    /// 503: the server is busy; try again in a second.
    pub(crate) fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    /// 405 with the methods the resource answers (`GET, HEAD, POST`) in `Allow`.
    pub(crate) fn method_not_allowed(allow: &'static str) -> ApiError {
        ApiError {
            allow: Some(allow),
            ..ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("method not allowed: {allow}"),
            )
        }
    }

    /// A 400 naming each problem of a request body: `pointer: message; …`.
    pub(crate) fn invalid_body(problems: &[Diagnostic]) -> ApiError {
        let messages: Vec<String> = problems.iter().map(Diagnostic::headline).collect();
        ApiError::bad_request(messages.join("; ")).with_code(code::TYPE_INVALID)
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            // Writers of one document on several instances: the retries ran out.
            StoreError::Conflict { .. } => ApiError::new(StatusCode::CONFLICT, error.to_string()),
            StoreError::TooBusy { .. } => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, error.to_string())
            }
            error => {
                tracing::error!(%error, "store failure");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "storage failure")
            }
        }
    }
}

impl From<crate::preview::usage::NoRoom> for ApiError {
    fn from(refused: crate::preview::usage::NoRoom) -> ApiError {
        ApiError::new(StatusCode::INSUFFICIENT_STORAGE, refused.to_string())
    }
}

impl From<crate::preview::usage::UsageError> for ApiError {
    fn from(error: crate::preview::usage::UsageError) -> ApiError {
        match error {
            crate::preview::usage::UsageError::NoRoom(refused) => refused.into(),
            crate::preview::usage::UsageError::Store(error) => error.into(),
        }
    }
}

impl From<crate::sites::SiteError> for ApiError {
    fn from(error: crate::sites::SiteError) -> ApiError {
        match error {
            crate::sites::SiteError::Store(error) => error.into(),
            damaged => {
                tracing::error!(error = %damaged, "stored document does not read back");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, damaged.to_string())
            }
        }
    }
}

impl From<crate::preview::PreviewError> for ApiError {
    fn from(error: crate::preview::PreviewError) -> ApiError {
        ApiError::new(preview_status(error.failure), error.message)
    }
}

/// The status a failed preview is answered with. A source's own answer maps as the
/// reference maps it: 404 and 403 to 404, 401 stays, 429 to 503 (the service's rule for
/// rate limits), other 4xx as they are, 5xx and anything else to 502.
pub(crate) fn preview_status(failure: crate::preview::FailureKind) -> StatusCode {
    use crate::preview::FailureKind;
    match failure {
        FailureKind::Unreadable => StatusCode::BAD_REQUEST,
        FailureKind::NoSource => StatusCode::NOT_FOUND,
        FailureKind::SourceAnswered(404 | 403) => StatusCode::NOT_FOUND,
        FailureKind::SourceAnswered(401) => StatusCode::UNAUTHORIZED,
        FailureKind::SourceAnswered(429) => StatusCode::SERVICE_UNAVAILABLE,
        FailureKind::SourceAnswered(status @ 400..=499) => {
            StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY)
        }
        FailureKind::SourceAnswered(_) | FailureKind::SourceFailed => StatusCode::BAD_GATEWAY,
        FailureKind::Refused => StatusCode::CONFLICT,
        FailureKind::TimedOut => StatusCode::GATEWAY_TIMEOUT,
        FailureKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<crate::preview::service::ServiceError> for ApiError {
    fn from(error: crate::preview::service::ServiceError) -> ApiError {
        use crate::preview::service::ServiceError;
        match error {
            ServiceError::Preview(error) => error.into(),
            ServiceError::NoContentSource { .. } => ApiError::not_found(error.to_string()),
            ServiceError::Busy { .. } => ApiError::busy(error.to_string()),
            ServiceError::Usage(error) => error.into(),
            ServiceError::Store(error) => error.into(),
        }
    }
}

impl From<crate::sites::onboarding::OnboardingError> for ApiError {
    fn from(error: crate::sites::onboarding::OnboardingError) -> ApiError {
        use crate::sites::onboarding::OnboardingError;
        match error {
            OnboardingError::Site(error) => error.into(),
            OnboardingError::NameTooLong { .. } => ApiError::bad_request(error.to_string()),
            refused => ApiError::new(StatusCode::CONFLICT, refused.to_string()),
        }
    }
}

impl ApiError {
    /// The response with an empty body: the message only in `x-error` (the preview API's
    /// error form).
    pub(crate) fn without_body(self) -> Response {
        let mut response = self.into_response();
        *response.body_mut() = axum::body::Body::empty();
        response.headers_mut().remove(header::CONTENT_TYPE);
        response
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let header_value = HeaderValue::from_str(&header_safe(&self.message))
            .unwrap_or_else(|_| HeaderValue::from_static("error"));
        let mut response = (self.status, format!("{}\n", self.message)).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        headers.insert("x-error", header_value);
        if let Some(allow) = self.allow {
            headers.insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let Some(code) = self.code {
            headers.insert(X_ERROR_CODE, HeaderValue::from_static(code));
        }
        response
    }
}

/// The header of the platform's error code.
pub const X_ERROR_CODE: &str = "x-error-code";

/// An error answer of the configuration routes in the platform's form: the body dropped
/// (the message is in `x-error`), and a failure of the store named by what the request
/// did (`AEM_BACKEND_CONFIG_READ` for a read, …) when nothing closer named it. A layer
/// on those routes, so an extractor's refusal takes the same form as a handler's.
pub(crate) async fn platform_form(method: axum::http::Method, mut response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    *response.body_mut() = axum::body::Body::empty();
    let headers = response.headers_mut();
    headers.remove(header::CONTENT_TYPE);
    if status == StatusCode::INTERNAL_SERVER_ERROR && !headers.contains_key(X_ERROR_CODE) {
        let code = match method {
            axum::http::Method::PUT => code::CREATE,
            axum::http::Method::POST => code::UPDATE,
            axum::http::Method::DELETE => code::DELETE,
            _ => code::READ,
        };
        headers.insert(X_ERROR_CODE, HeaderValue::from_static(code));
    }
    response
}

/// Header values are visible ASCII: anything else becomes `?`, and the length is bounded.
fn header_safe(message: &str) -> String {
    message
        .chars()
        .take(1000)
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preview::FailureKind;

    #[test]
    fn source_statuses_map_as_the_reference_does() {
        let cases = [
            (404, 404),
            (401, 401),
            (403, 404),
            (400, 400),
            (410, 410),
            (451, 451),
            (429, 503),
            (500, 502),
            (503, 502),
            (304, 502),
            (302, 502),
            (100, 502),
        ];
        for (source, preview) in cases {
            let status = preview_status(FailureKind::SourceAnswered(source));
            assert_eq!(status.as_u16(), preview, "{source}");
        }
    }
}
