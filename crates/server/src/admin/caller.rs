//! The caller of a request: the verified claims of its token, if it has a valid one.
//! The token is read from the `auth_token` cookie, then `x-auth-token`, then
//! `Authorization: token <jwt>`, in the reference's order.

use axum::http::HeaderMap;

use crate::auth::{Claims, SigningKey};

/// The raw token a request carries, from the first place that has one.
pub fn token_of(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, "auth_token")
        .or_else(|| headers.get("x-auth-token").and_then(|v| v.to_str().ok()))
        .or_else(|| {
            headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("token "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// The claims of the request's token, when it is valid now.
pub fn caller(headers: &HeaderMap, key: &SigningKey) -> Option<Claims> {
    let token = token_of(headers)?;
    match key.verify(token, crate::time::now_seconds()) {
        Ok(claims) => Some(claims),
        Err(error) => {
            tracing::debug!(%error, "token refused");
            None
        }
    }
}

fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all("cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_cookie_comes_first_then_the_headers() {
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
        assert_eq!(token_of(&headers), Some("from-cookie"));
        let mut bearer = HeaderMap::new();
        bearer.insert("authorization", HeaderValue::from_static("Bearer x"));
        assert_eq!(token_of(&bearer), None);
    }
}
