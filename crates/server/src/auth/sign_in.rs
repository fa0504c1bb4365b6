//! How people sign in to a running service ([`SignIn`], `serve`'s flags; [`Identity`], what
//! the running service offers) and the single-use nonces of the e-mail sign-in form. The
//! routes that use them are the administration API's `/login` and `/profile`.

use std::collections::HashMap;
use std::sync::Mutex;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::oidc::{OidcProvider, OidcSettings};

/// How long a sign-in form's nonce may be used.
pub const NONCE_SECONDS: u64 = 10 * 60;
/// Nonces kept at most; beyond, the oldest go first.
const NONCES_KEPT: usize = 1024;

/// How people sign in (`serve`'s flags).
#[derive(Debug, Clone, Default)]
pub enum SignIn {
    /// An e-mail address is all it asks: only for a serve that only loopback reaches.
    #[default]
    Email,
    /// Through an OpenID Connect provider.
    Oidc(OidcSettings),
    /// No sign-in page: tokens come from `siteops token`.
    Off,
}

impl SignIn {
    /// Whether anyone who reaches the sign-in page can sign in as anyone.
    pub(crate) fn trusts_any_address(&self) -> bool {
        matches!(self, SignIn::Email)
    }
}

/// The sign-in a running service offers (its provider, with the discovery cached).
#[derive(Debug)]
pub enum Identity {
    Email,
    Oidc(Box<OidcProvider>),
    Off,
}

impl Identity {
    pub fn new(sign_in: &SignIn) -> Identity {
        match sign_in {
            SignIn::Email => Identity::Email,
            SignIn::Oidc(settings) => Identity::Oidc(Box::new(OidcProvider::new(settings.clone()))),
            SignIn::Off => Identity::Off,
        }
    }
}

/// The nonces of the sign-in forms shown and not used yet, with their expiry.
#[derive(Debug, Default)]
pub struct SignInNonces(Mutex<HashMap<String, u64>>);

impl SignInNonces {
    /// A fresh nonce, good once until `now + NONCE_SECONDS`.
    pub fn issue(&self, now: u64) -> Result<String, getrandom::Error> {
        let mut bytes = [0u8; 24];
        getrandom::fill(&mut bytes)?;
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
    pub(crate) fn consume(&self, nonce: &str, now: u64) -> bool {
        let mut nonces = self.0.lock().unwrap_or_else(|p| p.into_inner());
        nonces.remove(nonce).is_some_and(|expires| expires > now)
    }
}

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
