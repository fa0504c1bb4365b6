//! `/login` and `/profile`: the local stand-in for the identity provider. An e-mail
//! address is enough to sign in; `/profile` sets the `auth_token` cookie, a token signed
//! by the service. Local use only: the server listens on the loopback interface.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Deserialize;

use crate::app::AppState;
use crate::auth::Claims;
use crate::time::{format_rfc3339, now_seconds};

/// How long a token from the sign-in page lasts.
const SESSION_SECONDS: u64 = 12 * 3600;

pub async fn login_page() -> Html<String> {
    page(
        "Sign in",
        html! {
            p { "This is the local sign-in of siteops: an e-mail address is all it asks for." }
            form method="get" action="profile" {
                label { "E-mail " input type="email" name="email" required autofocus; }
                " "
                button type="submit" { "Sign in" }
            }
        },
    )
}

#[derive(Deserialize)]
pub struct ProfileQuery {
    email: Option<String>,
}

pub async fn profile(
    State(state): State<Arc<AppState>>,
    Query(query): Query<ProfileQuery>,
    headers: HeaderMap,
) -> Response {
    let (claims, new_token) = match query.email.map(|e| e.trim().to_string()) {
        Some(email) if is_plausible_email(&email) => {
            let now = now_seconds();
            let claims = Claims {
                sub: email,
                iat: now,
                exp: now + SESSION_SECONDS,
                aud: "*".into(),
            };
            let token = state.key.sign(&claims);
            (claims, Some(token))
        }
        Some(_) => return Redirect::to("login").into_response(),
        None => match state.caller(&headers) {
            Some(claims) => (claims, None),
            None => return Redirect::to("login").into_response(),
        },
    };
    let mut response = page(
        "Profile",
        html! {
            p {
                "Signed in as " strong { (claims.sub) } " until "
                (format_rfc3339(claims.exp, 0)) "."
            }
            @if let Some(token) = &new_token {
                p {
                    "Your token, for " code { "x-auth-token" } " or "
                    code { "Authorization: token …" } ":"
                }
                pre { (token) }
            }
            p { a href="login" { "Sign in as someone else" } }
        },
    )
    .into_response();
    if let Some(token) = new_token
        && let Ok(cookie) = HeaderValue::from_str(&format!(
            "auth_token={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}"
        ))
    {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
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
