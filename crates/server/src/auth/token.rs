//! Tokens: JWTs signed with HMAC-SHA256 by a key only the service holds.
//!
//! A JWT is three base64url parts: header, claims, signature. Only `HS256` is accepted:
//! the header's `alg` is checked, so a token cannot downgrade itself to `none`. The
//! signature is compared in constant time.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

const HEADER: &str = r#"{"alg":"HS256","typ":"JWT"}"#;

/// What a token says about its holder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The holder: an e-mail address, or a technical account identifier.
    pub sub: String,
    /// Issued at, seconds since the epoch.
    pub iat: u64,
    /// Expires at, seconds since the epoch.
    pub exp: u64,
    /// The sites the token is good for: `org/site`, `org/*` or `*`.
    #[serde(default = "any_site")]
    pub aud: String,
    /// An API key's id (`jti`): the key holds only while the document it was minted for
    /// records it (`apiKeys.<id>`: its site's, the org's, or its profile's, see
    /// [`Claims::key_holder`]), so deleting the record revokes it. People's tokens have
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jti: Option<String>,
    /// An API key's roles on the sites it is for (`aud`), which stand for the roles the
    /// site's access configuration would give; people's tokens have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<Vec<String>>,
    /// A profile's API key: the profile (of the org of `aud`, `<org>/*`) whose document
    /// records it; it holds on the sites that extend that profile only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
}

/// The document that records an API key, which holds only while it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyHolder<'a> {
    /// The one site of `aud` (`<org>/<site>`).
    Site,
    /// The org of `aud` (`<org>/*`): every site of the org.
    Org,
    /// A profile of the org of `aud`: the sites that extend it.
    Profile(&'a str),
}

fn any_site() -> String {
    "*".to_string()
}

impl Claims {
    /// An API key's id and the document that records it; `None` for people's tokens.
    pub fn key_holder(&self) -> Option<(&str, KeyHolder<'_>)> {
        let id = self.jti.as_deref()?;
        let holder = match (&self.profile, self.aud.split_once('/')) {
            (Some(profile), _) => KeyHolder::Profile(profile),
            (None, Some((_, "*"))) => KeyHolder::Org,
            (None, _) => KeyHolder::Site,
        };
        Some((id, holder))
    }

    /// Whether the token is good for every site of `org`.
    pub(crate) fn covers_org(&self, org: &str) -> bool {
        self.aud == "*" || self.aud.split_once('/') == Some((org, "*"))
    }

    /// Whether the token may be used for `org/site` at all (roles, and for an API key
    /// the document that records it, decide the rest).
    pub(crate) fn covers(&self, org: &str, site: &str) -> bool {
        match self.aud.split_once('/') {
            _ if self.aud == "*" => true,
            Some((o, "*")) => o == org,
            Some((o, s)) => o == org && s == site,
            None => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the token is not a JWT")]
    Malformed,
    #[error("the token is not signed with HS256")]
    UnsupportedAlgorithm,
    #[error("the token's signature is invalid")]
    BadSignature,
    #[error("the token has expired")]
    Expired,
}

/// The service's secret signing key; cloned for each request that verifies a token, so
/// shared, not copied.
#[derive(Clone)]
pub struct SigningKey(std::sync::Arc<[u8]>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(…)")
    }
}

impl SigningKey {
    pub fn from_bytes(bytes: Vec<u8>) -> SigningKey {
        SigningKey(bytes.into())
    }

    /// A fresh random 256-bit key.
    pub fn generate() -> Result<SigningKey, getrandom::Error> {
        let mut bytes = vec![0; 32];
        getrandom::fill(&mut bytes)?;
        Ok(SigningKey(bytes.into()))
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.0).expect("HMAC takes keys of any length")
    }

    /// A key for another purpose, derived from this one (HMAC of the purpose): what it
    /// signs never verifies under this key, so a sign-in's pending state can never pass
    /// for a token.
    pub fn derive(&self, purpose: &str) -> SigningKey {
        let mut mac = self.mac();
        mac.update(purpose.as_bytes());
        SigningKey(mac.finalize().into_bytes().to_vec().into())
    }

    pub fn sign(&self, claims: &Claims) -> String {
        self.sign_json(claims)
    }

    /// `value` as a JWT signed with this key.
    pub(crate) fn sign_json<T: Serialize>(&self, value: &T) -> String {
        let header = URL_SAFE_NO_PAD.encode(HEADER);
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).expect("values serialize"));
        let signing_input = format!("{header}.{payload}");
        let mut mac = self.mac();
        mac.update(signing_input.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        format!("{signing_input}.{signature}")
    }

    /// Verifies `token` at time `now` (seconds since the epoch).
    pub fn verify(&self, token: &str, now: u64) -> Result<Claims, TokenError> {
        let claims: Claims = self.verify_json(token)?;
        if claims.exp <= now {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }

    /// The payload of a JWT this key signed (its expiry is the caller's to check).
    pub(crate) fn verify_json<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
    ) -> Result<T, TokenError> {
        let mut parts = token.trim().split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(TokenError::Malformed);
        };
        let parsed_header: serde_json::Value = decode_json(header)?;
        if parsed_header.get("alg").and_then(|a| a.as_str()) != Some("HS256") {
            return Err(TokenError::UnsupportedAlgorithm);
        }
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| TokenError::Malformed)?;
        let mut mac = self.mac();
        mac.update(format!("{header}.{payload}").as_bytes());
        mac.verify_slice(&signature)
            .map_err(|_| TokenError::BadSignature)?;
        decode_json(payload)
    }
}

fn decode_json<T: serde::de::DeserializeOwned>(part: &str) -> Result<T, TokenError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| TokenError::Malformed)?;
    serde_json::from_slice(&bytes).map_err(|_| TokenError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(aud: &str, exp: u64) -> Claims {
        Claims {
            sub: "ops@acme.example".into(),
            iat: 100,
            exp,
            aud: aud.into(),
            jti: None,
            roles: None,
            profile: None,
        }
    }

    #[test]
    fn a_signed_token_verifies_until_it_expires() {
        let key = SigningKey::from_bytes(b"k".to_vec());
        let token = key.sign(&claims("*", 200));
        assert_eq!(key.verify(&token, 150), Ok(claims("*", 200)));
        assert_eq!(key.verify(&token, 200), Err(TokenError::Expired));
    }

    #[test]
    fn tampering_and_other_keys_and_algorithms_are_refused() {
        let key = SigningKey::from_bytes(b"k".to_vec());
        let token = key.sign(&claims("*", 200));
        let other = SigningKey::from_bytes(b"other".to_vec());
        assert_eq!(other.verify(&token, 150), Err(TokenError::BadSignature));

        let forged_claims =
            URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims("*", 9_999)).expect("json"));
        let mut parts: Vec<&str> = token.split('.').collect();
        parts[1] = &forged_claims;
        assert_eq!(
            key.verify(&parts.join("."), 150),
            Err(TokenError::BadSignature)
        );

        let none_header = URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#);
        let unsigned = format!(
            "{none_header}.{}.",
            token.split('.').nth(1).unwrap_or_default()
        );
        assert_eq!(
            key.verify(&unsigned, 150),
            Err(TokenError::UnsupportedAlgorithm)
        );

        for garbage in ["", "a.b", "a.b.c.d", "!!.!!.!!"] {
            assert_eq!(
                key.verify(garbage, 150),
                Err(TokenError::Malformed),
                "{garbage}"
            );
        }
    }

    #[test]
    fn audience_limits_the_sites() {
        assert!(claims("*", 1).covers("acme", "web"));
        assert!(claims("acme/*", 1).covers("acme", "web"));
        assert!(!claims("acme/*", 1).covers("globex", "web"));
        assert!(claims("acme/web", 1).covers("acme", "web"));
        assert!(!claims("acme/web", 1).covers("acme", "blog"));
        assert!(!claims("acme", 1).covers("acme", "web"));
    }
}
