//! Requests another site's page makes with this server's cookie (cross-site request
//! forgery). A browser sends the `auth_token` cookie with a form or `fetch` from any page,
//! another port of `localhost` included, but it cannot add a header token, and it says
//! where the request comes from (`Origin`, `Sec-Fetch-Site`). So a state-changing request
//! (POST, PUT, PATCH, DELETE) that only a cookie can authenticate is refused (403) when it
//! comes from another origin. Requests with `x-auth-token` or `Authorization` (CLIs,
//! scripts, which send no `Origin`) are not this middleware's business.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api::ApiError;

/// Why a request is refused as cross-site, or `None` when it is not.
pub fn refusal(method: &Method, headers: &HeaderMap) -> Option<String> {
    let changes = matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    let has_header_token =
        headers.contains_key("x-auth-token") || headers.contains_key(header::AUTHORIZATION);
    let has_cookie_token =
        crate::api::caller::cookie_tokens(headers).any(|token| !token.trim().is_empty());
    if !changes || has_header_token || !has_cookie_token {
        return None;
    }
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site @ ("cross-site" | "same-site")) = text("sec-fetch-site") {
        return Some(format!(
            "a {method} authenticated by the auth_token cookie from another site (Sec-Fetch-Site: {site}) is refused; send the token in x-auth-token"
        ));
    }
    let origin = text("origin")?;
    let host = text("host").unwrap_or_default();
    if same_origin(origin, host) {
        return None;
    }
    Some(format!(
        "a {method} authenticated by the auth_token cookie from the origin `{origin}`, not this server's (`{host}`), is refused; send the token in x-auth-token"
    ))
}

/// Whether `origin` (`scheme://host[:port]`) names the server reached as `host` (a `Host`
/// value). The scheme is not compared: TLS may end at a proxy in front of the server.
fn same_origin(origin: &str, host: &str) -> bool {
    let Ok(origin) = url::Url::parse(origin) else {
        return false; // `null`, from a sandboxed frame or a file
    };
    let Some(name) = origin.host_str() else {
        return false;
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    let port = origin.port_or_known_default();
    let host_port = match host.trim().rsplit_once(':') {
        Some((_, port)) if !port.contains(']') => port.parse().ok(),
        _ => port, // no port in Host: the scheme's default, as the origin's
    };
    super::hosts::host_name(host).eq_ignore_ascii_case(name) && host_port == port
}

/// The middleware: 403 with `x-error` for a cross-site, cookie-authenticated change.
pub async fn check(request: Request, next: Next) -> Response {
    match refusal(request.method(), request.headers()) {
        None => next.run(request).await,
        Some(why) => ApiError::new(StatusCode::FORBIDDEN, why).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        headers
    }

    /// Issue 27: a cookie-authenticated change from another origin is refused; from the
    /// server's own origin, without `Origin`, or with a header token, it is not.
    #[test]
    fn cookie_changes_from_other_origins_are_refused() {
        let cookie = ("cookie", "auth_token=t");
        let host = ("host", "localhost:3000");
        let refused = [
            vec![cookie, host, ("origin", "http://localhost:8080")],
            vec![cookie, host, ("origin", "http://attacker.example")],
            vec![cookie, host, ("origin", "null")],
            vec![cookie, host, ("sec-fetch-site", "same-site")],
            vec![cookie, host, ("sec-fetch-site", "cross-site")],
            vec![
                cookie,
                ("host", "127.0.0.1:3000"),
                ("origin", "http://localhost:3000"),
            ],
        ];
        for pairs in refused {
            for method in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
                let why = refusal(&method, &headers(&pairs));
                assert!(
                    why.is_some_and(|w| w.contains("auth_token cookie")),
                    "{method} {pairs:?}"
                );
            }
        }
        let allowed = [
            vec![cookie, host, ("origin", "http://localhost:3000")],
            vec![cookie, host, ("origin", "https://localhost:3000")],
            vec![
                cookie,
                ("host", "siteops.acme.example"),
                ("origin", "https://siteops.acme.example"),
            ],
            vec![
                cookie,
                ("host", "[::1]:3000"),
                ("origin", "http://[::1]:3000"),
            ],
            vec![
                cookie,
                host,
                ("sec-fetch-site", "same-origin"),
                ("origin", "http://localhost:3000"),
            ],
            vec![cookie, host, ("sec-fetch-site", "none")],
            vec![cookie, host],
            vec![
                cookie,
                host,
                ("origin", "http://localhost:8080"),
                ("x-auth-token", "t"),
            ],
            vec![
                cookie,
                host,
                ("sec-fetch-site", "cross-site"),
                ("authorization", "token t"),
            ],
            vec![host, ("origin", "http://attacker.example")],
        ];
        for pairs in allowed {
            assert_eq!(refusal(&Method::POST, &headers(&pairs)), None, "{pairs:?}");
        }
        let cross = headers(&[cookie, host, ("origin", "http://attacker.example")]);
        for method in [Method::GET, Method::HEAD, Method::OPTIONS] {
            assert_eq!(refusal(&method, &cross), None, "{method}");
        }
    }
}
