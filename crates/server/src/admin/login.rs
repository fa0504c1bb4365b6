//! `/login` and `/profile`: how people sign in to the service, one of three ways
//! ([`crate::auth::sign_in::SignIn`], `serve`'s flags):
//! - **through an identity provider** (`--oidc-issuer`, [`crate::auth::oidc`]): `/login` sends
//!   the browser to the provider, which returns it to `/profile`, where the token is
//!   minted for the address the provider vouches for; the service's way wherever others
//!   can reach it;
//! - **by e-mail address** (the default, for a serve only this machine reaches: `start`
//!   refuses it with `--allowed-host` or a listen address beyond loopback): the local
//!   stand-in for the provider, where an address is enough, so minting is guarded:
//!   - only hosts `serve` answers reach it (loopback, `*.localhost`; see
//!     [`crate::server::hosts`]), which stops DNS rebinding;
//!   - `GET /login` shows a form with a nonce; `POST /profile` (`email`, `nonce`) mints
//!     the token and sets the `auth_token` cookie only for a nonce this service issued,
//!     once, within [`crate::auth::sign_in::NONCE_SECONDS`]: a page of another site cannot read the form, so it
//!     cannot sign anyone in;
//! - **off** (`--no-sign-in`): no sign-in page; tokens come from `siteops token`.
//!
//! `GET /profile` without a provider's return shows who the cookie signs in, and never
//! mints.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRef, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::api::{ApiError, OptionalCaller, read_body};
use crate::app::AppState;
use crate::auth::oidc::{OidcProvider, PENDING_COOKIE, PENDING_SECONDS};
use crate::auth::sign_in::Identity;
use crate::auth::{Claims, SignInNonces, SigningKey};
use crate::quota::Throttles;
use crate::time::{format_rfc3339, now_seconds};

/// What signing in takes: how people sign in, the forms' nonces, the key tokens are
/// signed with, and the rate of sign-ins.
#[derive(Clone)]
pub(super) struct SignInState {
    identity: Arc<Identity>,
    nonces: Arc<SignInNonces>,
    key: SigningKey,
    throttles: Arc<Throttles>,
}

impl FromRef<Arc<AppState>> for SignInState {
    fn from_ref(state: &Arc<AppState>) -> SignInState {
        SignInState {
            identity: state.identity.clone(),
            nonces: state.sign_in.clone(),
            key: state.key.clone(),
            throttles: state.throttles.clone(),
        }
    }
}

/// How long a token from the sign-in page lasts.
const SESSION_SECONDS: u64 = 12 * 3600;

fn sign_in_off() -> ApiError {
    ApiError::not_found("sign-in is off on this service: tokens come from `siteops token`")
}

/// `GET /login`: to the identity provider, or the e-mail sign-in form with a fresh nonce.
pub(super) async fn login_page(
    State(state): State<SignInState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let provider = match state.identity.as_ref() {
        Identity::Email => None,
        Identity::Oidc(provider) => Some(provider),
        Identity::Off => return Err(sign_in_off()),
    };
    if let Some(provider) = provider {
        let redirect = provider.redirect_url(&request_host(&headers));
        let begun = provider
            .begin(&redirect, &state.key, now_seconds())
            .await
            .map_err(|e| ApiError::new(StatusCode::BAD_GATEWAY, e.to_string()))?;
        let secure = secure(&state, &headers);
        let mut response = Redirect::to(&begun.authorize_url).into_response();
        let answer = response.headers_mut();
        answer.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        // Lax: the provider's return is a top-level navigation from another site.
        if let Ok(cookie) = HeaderValue::from_str(&format!(
            "{PENDING_COOKIE}={}; Path=/admin/profile; HttpOnly; SameSite=Lax; Max-Age={PENDING_SECONDS}{secure}",
            begun.pending_cookie,
        )) {
            answer.insert(header::SET_COOKIE, cookie);
        }
        return Ok(response);
    }
    let nonce = state.nonces.issue(now_seconds()).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no randomness for a sign-in nonce: {e}"),
        )
    })?;
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

/// The request's `Host`, for the provider's return address.
/// `; Secure` when the browser reaches this service over TLS, else nothing. `serve` speaks
/// plain HTTP itself, so TLS is a proxy's in front: the provider's return configured at an
/// `https` address (`--oidc-redirect-url`) says so for every request, and a proxy's
/// `X-Forwarded-Proto: https` for its own. A client that sends the header falsely only
/// keeps its own cookie from plain-HTTP requests.
fn secure(state: &SignInState, headers: &HeaderMap) -> &'static str {
    let configured = match state.identity.as_ref() {
        Identity::Oidc(provider) => provider
            .settings()
            .redirect_url
            .as_deref()
            .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://")),
        _ => false,
    };
    let forwarded = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"));
    if configured || forwarded {
        "; Secure"
    } else {
        ""
    }
}

fn request_host(headers: &HeaderMap) -> String {
    headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost")
        .to_string()
}

/// `GET /profile`: the identity provider's return (`code`, `state`), which signs in; else
/// who the request's token signs in; the sign-in page without one.
pub(super) async fn profile(
    State(state): State<SignInState>,
    OptionalCaller(caller): OptionalCaller,
    headers: HeaderMap,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Result<Response, ApiError> {
    let parameter = |name: &str| {
        url::form_urlencoded::parse(query.as_deref().unwrap_or_default().as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    if let Identity::Oidc(provider) = state.identity.as_ref() {
        if let Some(error) = parameter("error") {
            let description = parameter("error_description").unwrap_or_default();
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("the identity provider refused the sign-in: {error} {description}")
                    .trim_end()
                    .to_string(),
            ));
        }
        if let (Some(code), Some(returned_state)) = (parameter("code"), parameter("state")) {
            return provider_return(&state, provider, &headers, &code, &returned_state).await;
        }
    }
    Ok(match caller {
        Some(claims) => profile_page(&claims, None).into_response(),
        None => Redirect::to("login").into_response(),
    })
}

/// The provider's return: the address it vouches for gets a token and the cookie.
async fn provider_return(
    state: &SignInState,
    provider: &OidcProvider,
    headers: &HeaderMap,
    code: &str,
    returned_state: &str,
) -> Result<Response, ApiError> {
    let now = now_seconds();
    let pending = crate::api::caller::cookies(headers, PENDING_COOKIE).next();
    let redirect = provider.redirect_url(&request_host(headers));
    let email = provider
        .finish(code, returned_state, pending, &redirect, &state.key, now)
        .await
        .map_err(|error| {
            let status = if error.is_callers() {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::BAD_GATEWAY
            };
            ApiError::new(status, error.to_string())
        })?;
    let secure = secure(state, headers);
    let mut response = signed_in(state, email, now, secure);
    // The pending state is used up.
    if let Ok(cookie) = HeaderValue::from_str(&format!(
        "{PENDING_COOKIE}=; Path=/admin/profile; HttpOnly; SameSite=Lax; Max-Age=0{secure}"
    )) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// Mints `email`'s token, and answers the profile page that shows it with the cookie set
/// (`secure`: the cookie's `; Secure`, or nothing).
fn signed_in(state: &SignInState, email: String, now: u64, secure: &str) -> Response {
    let claims = Claims {
        sub: email,
        iat: now,
        exp: now + SESSION_SECONDS,
        aud: "*".into(),
        jti: None,
        roles: None,
        profile: None,
    };
    let token = state.key.sign(&claims);
    let mut response = profile_page(&claims, Some(&token)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(cookie) = HeaderValue::from_str(&format!(
        "auth_token={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}{secure}"
    )) {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

/// `POST /profile` with `email` and `nonce` (form-encoded, from the sign-in form): mints a
/// token, sets the cookie and shows the token.
pub(super) async fn sign_in(
    State(state): State<SignInState>,
    extensions: axum::http::Extensions,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    match state.identity.as_ref() {
        Identity::Email => {}
        Identity::Oidc(_) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "this service signs people in through its identity provider: start at /admin/login",
            ));
        }
        Identity::Off => return Err(sign_in_off()),
    }
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
    if !state.nonces.consume(&nonce, now) {
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
    Ok(signed_in(&state, email, now, secure(&state, &headers)))
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
