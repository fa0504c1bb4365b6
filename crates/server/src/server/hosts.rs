//! Which `Host` names `serve` answers: loopback addresses, `localhost` and its subdomains
//! (the preview hosts), and the names given with `--allowed-host`. Any other name is
//! refused (421) before routing, so a page of another site whose name was made to
//! resolve to 127.0.0.1 (DNS rebinding) cannot use the service, its sign-in included.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;
use crate::app::AppState;

/// The name of a `Host` value (or an authority), without the port, lower-cased, without
/// a trailing dot; IPv6 literals without their brackets.
pub(crate) fn host_name(host: &str) -> &str {
    let host = host.trim();
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split_once(']').map_or(rest, |(name, _)| name)
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    name.strip_suffix('.').unwrap_or(name)
}

/// Whether `host` (a `Host` value) is loopback, `localhost`, a subdomain of it, or one of
/// `allowed` (host names, compared without port and case).
pub(crate) fn is_allowed(host: &str, allowed: &[String]) -> bool {
    let name = host_name(host).to_ascii_lowercase();
    if name.is_empty() {
        return false;
    }
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
        || allowed
            .iter()
            .any(|a| host_name(a).eq_ignore_ascii_case(&name))
}

/// The middleware: 421 for a request whose `Host` is not allowed.
pub async fn check(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    // A load balancer asks for these by the instance's address; they tell nothing else.
    if super::health::PATHS.contains(&request.uri().path()) {
        return next.run(request).await;
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    match host {
        Some(host) if is_allowed(&host, &state.allowed_hosts) => next.run(request).await,
        Some(host) => {
            let name = host_name(&host).to_string();
            ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "Host `{name}` is not served: siteops serve answers loopback addresses, localhost and *.localhost; start it with --allowed-host {name} to allow this name"
                ),
            )
            .into_response()
        }
        None => ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "the request has no Host: siteops serve answers loopback addresses, localhost and *.localhost",
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_localhost_and_allowed_names_only() {
        let allowed = ["siteops.internal".to_string(), "Dev.Box:8080".to_string()];
        for good in [
            "127.0.0.1:3000",
            "127.0.0.1",
            "127.1.2.3:80",
            "[::1]:3000",
            "[::1]",
            "localhost",
            "LOCALHOST:3000",
            "localhost.",
            "main--web--acme.localhost:3000",
            "siteops.internal:3000",
            "dev.box",
        ] {
            assert!(is_allowed(good, &allowed), "{good}");
        }
        for bad in [
            "attacker.example",
            "attacker.example:3000",
            "localhost.attacker.example",
            "127.0.0.1.nip.io",
            "evil-localhost",
            "10.0.0.1:3000",
            "0.0.0.0:3000",
            "[::ffff:10.0.0.1]:3000",
            "",
            ":3000",
        ] {
            assert!(!is_allowed(bad, &allowed), "{bad}");
        }
    }
}
