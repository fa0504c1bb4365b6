//! A port per site (`serve --site-port acme/website=3001`): `http://127.0.0.1:3001/`
//! answers as the site's preview host, for tools that cannot reach a `*.localhost` name
//! (Node's and Python's resolvers ask the system's, which on many Linux systems does not
//! resolve them) and that send their own `Host` (a proxy such as `aem up` sends the
//! upstream's). Each request is handed to the whole application with the preview host's
//! `Host`, so it is answered exactly as that host answers, and marked [`ViaSitePort`].
//!
//! The one difference: the answers' CSP nonce is the code's own, [`CODE_NONCE`], not a
//! random one. A proxy in front of a development server puts the code's `head.html` back
//! into every page (`aem up` replaces the served head with the local file, `nonce="aem"`
//! and `'nonce-aem'` as written) and drops the answer's policy headers; a random nonce on
//! the scripts it keeps (serve's reload script) would then be refused by the page's own
//! policy. The nonce is unpredictable nowhere a tool is in front, and the policy still
//! refuses every script without it (`javascript:` links, inline handlers).

use std::net::SocketAddr;

use anyhow::Context;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use tokio::net::TcpListener;

use crate::preview::PreviewHost;

/// The nonce a site's code asks the platform to replace (`nonce="aem"`, `'nonce-aem'`),
/// and the one answers through a site port keep.
pub const CODE_NONCE: &str = "aem";

/// Marks a request that came through a site port (in its extensions).
#[derive(Debug, Clone, Copy)]
pub struct ViaSitePort;

impl super::RunningServer {
    /// Answers `addr` as `host`'s preview host (of this server, on its port) until the
    /// server stops; returns the address bound (its port chosen when `addr`'s is 0).
    pub async fn open_site_port(
        &self,
        host: &PreviewHost,
        addr: SocketAddr,
    ) -> anyhow::Result<SocketAddr> {
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr} for {}", host.origin(None)))?;
        let bound = listener.local_addr()?;
        let name = host
            .origin(Some(self.addr.port()))
            .trim_start_matches("http://")
            .to_string();
        let value = HeaderValue::from_str(&name).context("a preview host name")?;
        let app = super::app(self.state.clone()).layer(middleware::from_fn(
            move |request: Request, next: Next| as_host(value.clone(), request, next),
        ));
        let mut closed = self.closed.clone();
        let limits = self.limits.clone();
        tokio::spawn(async move {
            // The sender goes when the server's task ends: then this port stops too.
            let stop = async move { while closed.changed().await.is_ok() {} };
            if let Err(error) = super::listen::serve(listener, app, limits, stop).await {
                tracing::warn!(%error, %bound, "site port stopped");
            }
        });
        Ok(bound)
    }
}

async fn as_host(host: HeaderValue, mut request: Request, next: Next) -> Response {
    request.headers_mut().insert(header::HOST, host);
    request.extensions_mut().insert(ViaSitePort);
    next.run(request).await
}
