//! What can go wrong with a request. Messages name the method and URL (never a token)
//! and the service's `x-error`.

use reqwest::StatusCode;

#[derive(Debug, Clone, thiserror::Error)]
pub enum ClientError {
    /// The service answered with an error status (after any retries).
    #[error("{method} {url}: {status}{}{}{}", message.as_ref().map(|m| format!(": {m}")).unwrap_or_default(), attempts_note(*attempts), status_hint(*status))]
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
    #[error(
        "no worker address for {0}: pass --transform-url, or set transform_url in siteops.toml"
    )]
    NoWorker(String),
}

/// What to do about a refusal, which the service's message alone does not say.
fn status_hint(status: StatusCode) -> &'static str {
    match status {
        StatusCode::UNAUTHORIZED => {
            "\n  hint: the service takes only tokens it signed: for a local `siteops serve`, mint one with `siteops token` (same --root, --data or --store as serve)"
        }
        StatusCode::FORBIDDEN => {
            "\n  hint: the token's holder has no role that allows this: a local `siteops serve` grants org administrators with `--org-admin ADDRESS`; on the platform, an admin of the org or site grants roles"
        }
        _ => "",
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(status: StatusCode) -> String {
        ClientError::Status {
            method: "GET".into(),
            url: "http://127.0.0.1:3000/admin/config/acme/sites/blog.json".into(),
            status,
            message: Some("ops@acme.example has no role on acme/blog".into()),
            attempts: 1,
        }
        .to_string()
    }

    #[test]
    fn refusals_say_what_to_do() {
        assert_eq!(
            refused(StatusCode::FORBIDDEN),
            "GET http://127.0.0.1:3000/admin/config/acme/sites/blog.json: 403 Forbidden: ops@acme.example has no role on acme/blog\n  hint: the token's holder has no role that allows this: a local `siteops serve` grants org administrators with `--org-admin ADDRESS`; on the platform, an admin of the org or site grants roles"
        );
        assert!(
            refused(StatusCode::UNAUTHORIZED)
                .contains("hint: the service takes only tokens it signed")
        );
        assert!(!refused(StatusCode::CONFLICT).contains("hint"));
    }
}
