//! What can go wrong with a request. Messages name the method and URL (never a token)
//! and the service's `x-error`.

use reqwest::StatusCode;

#[derive(Debug, Clone, thiserror::Error)]
pub enum ClientError {
    /// The service answered with an error status (after any retries).
    #[error("{method} {url}: {status}{}{}", message.as_ref().map(|m| format!(": {m}")).unwrap_or_default(), attempts_note(*attempts))]
    Status {
        method: String,
        url: String,
        status: StatusCode,
        /// The service's `x-error`.
        message: Option<String>,
        attempts: u32,
    },
    #[error("{method} {url}: {message}{}", attempts_note(*attempts))]
    Network {
        method: String,
        url: String,
        message: String,
        attempts: u32,
    },
    #[error("{method} {url}: the response is not JSON: {message}")]
    NotJson {
        method: String,
        url: String,
        message: String,
    },
    #[error("no worker address for {0}: pass --transform, or set transform_url in siteops.toml")]
    NoWorker(String),
}

fn attempts_note(attempts: u32) -> String {
    if attempts > 1 {
        format!(" (after {attempts} attempts)")
    } else {
        String::new()
    }
}

impl ClientError {
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            ClientError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}
