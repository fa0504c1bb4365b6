//! `/login` and `/profile`: the local stand-in for the identity provider. An e-mail
//! address is enough to sign in, so minting is guarded:
//! - only hosts `serve` answers reach it (loopback, `*.localhost`, `--allowed-host`; see
//!   [`crate::server::hosts`]), which stops DNS rebinding;
//! - `GET /login` shows a form with a nonce; `POST /profile` (`email`, `nonce`) mints the
//!   token and sets the `auth_token` cookie only for a nonce this service issued, once,
//!   within [`NONCE_SECONDS`]: a page of another site cannot read the form, so it cannot
//!   sign anyone in;
//! - `GET /profile` shows who the cookie signs in, and never mints.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::{ApiError, read_body};
use crate::app::AppState;
use crate::auth::Claims;
use crate::time::{format_rfc3339, now_seconds};

/// How long a token from the sign-in page lasts.
const SESSION_SECONDS: u64 = 12 * 3600;
/// How long a sign-in form's nonce may be used.
pub const NONCE_SECONDS: u64 = 10 * 60;
/// Nonces kept at most; beyond, the oldest go first.
const NONCES_KEPT: usize = 1024;

/// The nonces of the sign-in forms shown and not used yet, with their expiry.
#[derive(Debug, Default)]
pub struct SignInNonces(Mutex<HashMap<String, u64>>);

impl SignInNonces {
    /// A fresh nonce, good once until `now + NONCE_SECONDS`.
    pub fn issue(&self, now: u64) -> Result<String, ApiError> {
        let mut bytes = [0u8; 24];
        getrandom::fill(&mut bytes).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("no randomness for a sign-in nonce: {e}"),
            )
        })?;
        let nonce = URL_SAFE_NO_PAD.encode(bytes);
        let mut nonces = self.0.lock().unwrap_or_else(|p| p.into_inner());
        nonces.retain(|_, expires| *expires > now);
        while nonces.len() >= NONCES_KEPT {
            let Some(oldest) = nonces
                .iter()
                .min_by_key(|(_, expires)| **expires)
                .map(|(n, _)| n.clone())
            else {
                break;
            };
            nonces.remove(&oldest);
        }
        nonces.insert(nonce.clone(), now + NONCE_SECONDS);
        Ok(nonce)
    }

    /// Uses `nonce`: true when it was issued, unused and unexpired; it is gone after.
    pub fn consume(&self, nonce: &str, now: u64) -> bool {
        let mut nonces = self.0.lock().unwrap_or_else(|p| p.into_inner());
        nonces.remove(nonce).is_some_and(|expires| expires > now)
    }
}

/// `GET /login`: the sign-in form, with a fresh nonce.
pub async fn login_page(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let nonce = state.sign_in.issue(now_seconds())?;
    let mut response = page(
        "Sign in",
        html! {
            p { "This is the local sign-in of siteops: an e-mail address is all it asks for." }
            form method="post" action="profile" {
                input type="hidden" name="nonce" value=(nonce);
                label { "E-mail " input type="email" name="email" required autofocus; }
                " "
                button type="submit" { "Sign in" }
            }
        },
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /profile`: who the request's token signs in; the sign-in page without one.
pub async fn profile(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    match state.caller(&headers) {
        Some(claims) => profile_page(&claims, None).into_response(),
        None => Redirect::to("login").into_response(),
    }
}

/// `POST /profile` with `email` and `nonce` (form-encoded, from the sign-in form): mints a
/// token, sets the cookie and shows the token.
pub async fn sign_in(
    State(state): State<Arc<AppState>>,
    extensions: axum::http::Extensions,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(body).await?;
    let field = |name: &str| {
        url::form_urlencoded::parse(&bytes)
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim().to_string())
    };
    let now = now_seconds();
    let nonce = field("nonce").unwrap_or_default();
    if nonce.is_empty() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "`nonce` is missing: sign in with the form of /admin/login",
        ));
    }
    // Used up even when the e-mail address is refused: a form signs in once.
    if !state.sign_in.consume(&nonce, now) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "`nonce` is unknown, expired or already used: sign in again from /admin/login",
        ));
    }
    // Counted once the nonce is good: only a client that read the form (same origin: the
    // Host check stops rebinding) can use up an address's sign-ins.
    let client = extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|info| info.0.ip());
    state.throttles.sign_in(client).map_err(|retry| {
        ApiError::too_many(
            retry,
            "too many sign-ins from this address: try again later",
        )
    })?;
    let email = field("email").unwrap_or_default();
    if !is_plausible_email(&email) {
        return Err(ApiError::bad_request(format!(
            "`email` `{email}` is not an e-mail address"
        )));
    }
    let claims = Claims {
        sub: email,
        iat: now,
        exp: now + SESSION_SECONDS,
        aud: "*".into(),
    };
    let token = state.key.sign(&claims);
    let mut response = profile_page(&claims, Some(&token)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(cookie) = HeaderValue::from_str(&format!(
        "auth_token={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}"
    )) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

fn profile_page(claims: &Claims, new_token: Option<&str>) -> Html<String> {
    page(
        "Profile",
        html! {
            p {
                "Signed in as " strong { (claims.sub) } " until "
                (format_rfc3339(claims.exp, 0)) "."
            }
            @if let Some(token) = new_token {
                p {
                    "Your token, for " code { "x-auth-token" } " or "
                    code { "Authorization: token …" } ":"
                }
                pre { (token) }
            }
            p { a href="login" { "Sign in as someone else" } }
        },
    )
}

fn is_plausible_email(text: &str) -> bool {
    text.split_once('@')
        .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'))
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn page(title: &str, body: Markup) -> Html<String> {
    Html(
        html! {
            (DOCTYPE)
            html {
                head {
                    meta charset="utf-8";
                    title { (title) " · siteops" }
                    style { (PreEscaped(STYLE)) }
                }
                body { h1 { (title) } (body) }
            }
        }
        .into_string(),
    )
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}\
pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_good_once_and_not_after_it_expires() {
        let nonces = SignInNonces::default();
        let first = nonces.issue(100).expect("nonce");
        let second = nonces.issue(100).expect("nonce");
        assert_ne!(first, second);
        assert!(nonces.consume(&first, 101));
        assert!(!nonces.consume(&first, 102), "single use");
        assert!(!nonces.consume(&second, 100 + NONCE_SECONDS), "expired");
        assert!(!nonces.consume("made-up", 101));
    }

    #[test]
    fn the_nonces_kept_are_bounded() {
        let nonces = SignInNonces::default();
        let first = nonces.issue(1).expect("nonce");
        for _ in 0..NONCES_KEPT {
            nonces.issue(2).expect("nonce");
        }
        assert_eq!(
            nonces.0.lock().expect("lock").len(),
            NONCES_KEPT,
            "no more than the bound"
        );
        assert!(!nonces.consume(&first, 3), "the oldest went first");
    }
}
