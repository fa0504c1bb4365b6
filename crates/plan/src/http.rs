//! Outgoing HTTP: one client configuration for every request siteops makes (code sync now;
//! content sources and image hosts with the preview pipeline), and bounded body reads.

use std::sync::Once;
use std::time::Duration;

/// Installs the process-wide TLS crypto provider rustls needs (ring, the one built in),
/// once. Every reqwest client siteops builds calls this first.
pub fn install_crypto_provider() {
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A client with a total `timeout` per request and at most five redirects.
pub fn client(timeout: Duration) -> reqwest::Client {
    install_crypto_provider();
    reqwest::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::limited(5))
        .user_agent(concat!("siteops/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the HTTP client configuration is valid")
}

#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    #[error(transparent)]
    Http(#[from] reqwest::Error),
}

/// Reads a response body, stopping (with an error) as soon as it passes `limit` bytes:
/// an unbounded response is never buffered.
pub async fn read_limited(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, BodyError> {
    if response
        .content_length()
        .is_some_and(|length| length > limit as u64)
    {
        return Err(BodyError::TooLarge(limit));
    }
    // Room for the whole body when its length is announced, and for the padding a JSON
    // parser appends, so neither growing nor parsing copies it again.
    let announced = response.content_length().unwrap_or(0) as usize;
    let mut body = Vec::with_capacity(announced.saturating_add(64));
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
