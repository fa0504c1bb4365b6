//! The caller of a request: the verified claims of its token, if it has a valid one.
//! A token may come from the `auth_token` cookie, `x-auth-token`, or `Authorization:
//! token <jwt>` (or `Bearer <jwt>`). Every credential presented is tried, in that order,
//! and the first valid one wins: a stale cookie beside a valid header does not lock the
//! caller out. Handlers take the caller as an extractor ([`Caller`], [`OptionalCaller`]).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};

use super::ApiError;
use crate::auth::{Claims, SigningKey, TokenError};

/// The values of the request's cookies called `name`, in order.
pub(crate) fn cookies<'h>(
    headers: &'h HeaderMap,
    name: &'h str,
) -> impl Iterator<Item = &'h str> + 'h {
    headers
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(move |(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// Every raw token a request carries, in the reference's order: the `auth_token`
/// cookies, `x-auth-token`, then `Authorization: token …` or `Bearer …`.
pub(crate) fn tokens_of(headers: &HeaderMap) -> Vec<&str> {
    let cookies = cookies(headers, "auth_token");
    let header = headers
        .get_all("x-auth-token")
        .iter()
        .filter_map(|v| v.to_str().ok());
    let authorization = headers
        .get_all("authorization")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            (scheme.eq_ignore_ascii_case("token") || scheme.eq_ignore_ascii_case("bearer"))
                .then_some(token)
        });
    cookies
        .chain(header)
        .chain(authorization)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect()
}

/// The `auth_token` cookies of a request: what a browser sends whichever page asks.
pub(crate) fn cookie_tokens(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    cookies(headers, "auth_token")
}

/// The first raw token a request carries (see [`tokens_of`]): what the tests look at.
#[cfg(test)]
fn token_of(headers: &HeaderMap) -> Option<&str> {
    tokens_of(headers).into_iter().next()
}

/// The claims of the first of the request's tokens that is valid now.
pub fn caller(headers: &HeaderMap, key: &SigningKey) -> Option<Claims> {
    let now = crate::time::now_seconds();
    tokens_of(headers)
        .into_iter()
        .find_map(|token| match key.verify(token, now) {
            Ok(claims) => Some(claims),
            Err(error) => {
                tracing::debug!(%error, "token refused");
                None
            }
        })
}

/// Why a request has no caller, for its 401: no token at all, or why the tokens it sent
/// were refused (a token minted from another data directory's key is the usual mistake).
pub(crate) fn why_unauthenticated(headers: &HeaderMap, key: &SigningKey) -> String {
    let now = crate::time::now_seconds();
    let Some(error) = tokens_of(headers)
        .into_iter()
        .find_map(|token| key.verify(token, now).err())
    else {
        return "authentication required: send a token".into();
    };
    let hint = match error {
        TokenError::BadSignature => {
            ": it was not signed by this server's key (`siteops token` must read the data \
             directory or store this server uses: the same --root, --data or --store)"
        }
        TokenError::Expired => ": mint a new one",
        TokenError::Malformed | TokenError::UnsupportedAlgorithm => "",
    };
    format!("authentication required: the token sent is refused, {error}{hint}")
}

/// The verified caller of a request, as an extractor: 401 (saying why) without a valid
/// token. The state gives the signing key as a sub-state (`SigningKey: FromRef<S>`), so a
/// handler that takes it depends on the key, not the whole application.
#[derive(Debug, Clone)]
pub struct Caller(pub Claims);

/// The verified caller of a request, if it has a valid token.
#[derive(Debug, Clone)]
pub struct OptionalCaller(pub Option<Claims>);

impl<S> FromRequestParts<S> for Caller
where
    S: Send + Sync,
    SigningKey: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Caller, ApiError> {
        let key = SigningKey::from_ref(state);
        caller(&parts.headers, &key).map(Caller).ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                why_unauthenticated(&parts.headers, &key),
            )
        })
    }
}

impl<S> FromRequestParts<S> for OptionalCaller
where
    S: Send + Sync,
    SigningKey: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &S,
    ) -> Result<OptionalCaller, Self::Rejection> {
        Ok(OptionalCaller(caller(
            &parts.headers,
            &SigningKey::from_ref(state),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn every_credential_is_found_cookie_first() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            HeaderValue::from_static("token from-authorization"),
        );
        assert_eq!(token_of(&headers), Some("from-authorization"));
        headers.insert("x-auth-token", HeaderValue::from_static("from-header"));
        assert_eq!(token_of(&headers), Some("from-header"));
        headers.insert(
            "cookie",
            HeaderValue::from_static("a=1; auth_token=from-cookie"),
        );
        assert_eq!(
            tokens_of(&headers),
            ["from-cookie", "from-header", "from-authorization"]
        );
        let mut bearer = HeaderMap::new();
        bearer.insert("authorization", HeaderValue::from_static("Bearer x"));
        assert_eq!(token_of(&bearer), Some("x"));
        let mut basic = HeaderMap::new();
        basic.insert("authorization", HeaderValue::from_static("Basic eDp5"));
        assert_eq!(token_of(&basic), None);
    }

    #[test]
    fn a_valid_credential_wins_over_an_invalid_one() {
        let key = SigningKey::from_bytes(b"k".to_vec());
        let claims = Claims {
            sub: "web@acme.example".into(),
            iat: 0,
            exp: u64::MAX,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        };
        let valid = key.sign(&claims);
        let mut headers = HeaderMap::new();
        headers.insert("cookie", HeaderValue::from_static("auth_token=stale"));
        headers.insert(
            "x-auth-token",
            HeaderValue::from_str(&valid).expect("header"),
        );
        assert_eq!(caller(&headers, &key), Some(claims));
        headers.remove("x-auth-token");
        assert_eq!(caller(&headers, &key), None);
    }

    #[test]
    fn a_refused_token_says_why() {
        let key = SigningKey::from_bytes(b"k".to_vec());
        let other = SigningKey::from_bytes(b"other".to_vec());
        let claims = |exp| Claims {
            sub: "web@acme.example".into(),
            iat: 0,
            exp,
            aud: "*".into(),
            jti: None,
            roles: None,
            profile: None,
        };
        assert_eq!(
            why_unauthenticated(&HeaderMap::new(), &key),
            "authentication required: send a token"
        );
        let with = |token: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(
                "x-auth-token",
                HeaderValue::from_str(token).expect("header"),
            );
            why_unauthenticated(&headers, &key)
        };
        assert_eq!(
            with(&other.sign(&claims(u64::MAX))),
            "authentication required: the token sent is refused, the token's signature is invalid: it was not signed by this server's key (`siteops token` must read the data directory or store this server uses: the same --root, --data or --store)"
        );
        assert_eq!(
            with(&key.sign(&claims(1))),
            "authentication required: the token sent is refused, the token has expired: mint a new one"
        );
        assert_eq!(
            with("not-a-jwt"),
            "authentication required: the token sent is refused, the token is not a JWT"
        );
    }
}
