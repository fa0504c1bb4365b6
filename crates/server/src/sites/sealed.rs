//! Secrets at rest: with `SITEOPS_SECRETS_KEY` set (32 bytes, base64), everything secret
//! the service stores is sealed with AES-256-GCM (ring's, the tree's one crypto library)
//! under a fresh random nonce, bound to its own store key, so the store (a bucket, a
//! backup) holds nothing secret in the clear and a sealed value cannot be moved elsewhere:
//! - a secret's value (`secrets.<id>.value` of its site's document, `v1:…` in place of
//!   the value: [`seal_value`], [`open_value`]);
//! - whole documents that hold credentials: the token signing key and the worker
//!   configurations (header values, `templateApiKey`), stored as `{"sealed": …}`
//!   ([`seal_bytes`], [`open_bytes`]);
//! - a key check value ([`check_key`]): a start with another key, or with none, on a store
//!   sealed with a key is refused, so nothing is ever sealed under two keys.
//!
//! Without the variable (allowed on a local directory only: [`crate::server::start`]),
//! values are stored as before, and the service says so at start.
//!
//! Stored forms: a value in the clear, or `v1:<base64 nonce ‖ ciphertext>`; a document
//! `{"sealed": "v1:…"}`. A clear one is still read with the key set (stores from before),
//! and sealed when it is next written.

use std::sync::OnceLock;

use base64::Engine as _;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use serde_json::Value;

/// The environment variable that holds the key.
pub const KEY_VARIABLE: &str = "SITEOPS_SECRETS_KEY";

const PREFIX: &str = "v1:";

/// The process's sealing key, read once from the environment.
static KEY: OnceLock<Result<Option<Key>, String>> = OnceLock::new();

pub struct Key(LessSafeKey);

impl Key {
    /// A key from its base64 text (32 bytes).
    pub fn parse(text: &str) -> Result<Key, String> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|e| format!("${KEY_VARIABLE} is not base64: {e}"))?;
        let unbound = UnboundKey::new(&AES_256_GCM, &bytes).map_err(|_| {
            format!(
                "${KEY_VARIABLE} must be 32 bytes in base64 (`openssl rand -base64 32`), not {}",
                bytes.len()
            )
        })?;
        Ok(Key(LessSafeKey::new(unbound)))
    }

    /// `value` sealed for the secret stored at `store_key`.
    pub(crate) fn seal(&self, store_key: &str, value: &str) -> Result<String, String> {
        self.seal_raw(store_key, value.as_bytes())
    }

    /// `bytes` sealed for the document stored at `store_key`.
    fn seal_raw(&self, store_key: &str, bytes: &[u8]) -> Result<String, String> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| format!("no randomness for a nonce: {e}"))?;
        let mut sealed = bytes.to_vec();
        self.0
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(store_key.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| "the secret could not be sealed".to_string())?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::STANDARD.encode(out)
        ))
    }

    /// The value sealed for `store_key`; an error when it was sealed with another key or
    /// for another secret, or is damaged.
    pub fn open(&self, store_key: &str, sealed: &str) -> Result<String, String> {
        String::from_utf8(self.open_raw(store_key, sealed)?)
            .map_err(|_| "the value is not UTF-8".to_string())
    }

    /// The bytes sealed for `store_key`.
    fn open_raw(&self, store_key: &str, sealed: &str) -> Result<Vec<u8>, String> {
        let bytes = sealed
            .strip_prefix(PREFIX)
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .filter(|b| b.len() >= NONCE_LEN)
            .ok_or("the sealed value is damaged")?;
        let (nonce, rest) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| "a bad nonce")?;
        let mut buffer = rest.to_vec();
        let clear = self
            .0
            .open_in_place(nonce, Aad::from(store_key.as_bytes()), &mut buffer)
            .map_err(|_| format!("it does not open with ${KEY_VARIABLE} (another key?)"))?;
        Ok(clear.to_vec())
    }
}

/// The key from the environment, read once: `None` without the variable.
pub fn key() -> Result<Option<&'static Key>, String> {
    KEY.get_or_init(|| match std::env::var(KEY_VARIABLE) {
        Ok(text) => Key::parse(&text).map(Some),
        Err(_) => Ok(None),
    })
    .as_ref()
    .map(Option::as_ref)
    .map_err(Clone::clone)
}

/// A secret's value as a site document keeps it (`secrets.<id>.value`): sealed for `name`
/// when the environment has a key, else the value itself.
pub(crate) fn seal_value(name: &str, value: &str) -> Result<String, String> {
    seal_value_with(key()?, name, value)
}

fn seal_value_with(key: Option<&Key>, name: &str, value: &str) -> Result<String, String> {
    match key {
        Some(key) => key.seal(name, value),
        None => Ok(value.to_string()),
    }
}

/// A secret's value from a site document, opened when sealed. With a key, a value that is
/// not in the sealed form was written in the clear before the key was set, and is read as
/// it is (sealed when next written); without one, a sealed value cannot be read.
pub(crate) fn open_value(name: &str, stored: &str) -> Result<String, String> {
    open_value_with(key()?, name, stored)
}

fn open_value_with(key: Option<&Key>, name: &str, stored: &str) -> Result<String, String> {
    match (key, stored.strip_prefix(PREFIX)) {
        (Some(key), Some(_)) => key.open(name, stored),
        (None, Some(_)) => Err(format!(
            "it is sealed and ${KEY_VARIABLE} is not set: start the service with the key it was sealed with"
        )),
        (_, None) => Ok(stored.to_string()),
    }
}

/// A document to store at `store_key` (its bytes as they would be stored in the clear):
/// `{"sealed": …}` when the environment has a key, else the bytes themselves.
pub(crate) fn seal_bytes(store_key: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    seal_bytes_with(key()?, store_key, bytes)
}

/// The clear bytes of a document stored at `store_key`, opened if sealed. A document that
/// is not `{"sealed": …}` is read as it is (stored in the clear, before a key was set).
pub(crate) fn open_bytes(store_key: &str, stored: Vec<u8>) -> Result<Vec<u8>, String> {
    open_bytes_with(key()?, store_key, stored)
}

/// Whether stored bytes are a sealed document.
pub(crate) fn is_sealed(stored: &[u8]) -> bool {
    sealed_text(stored).is_some()
}

fn sealed_text(stored: &[u8]) -> Option<String> {
    // A sealed document is small JSON starting with `{`; anything else (a raw key, an
    // array of worker entries) is not one.
    if stored.first() != Some(&b'{') {
        return None;
    }
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(stored) else {
        return None;
    };
    match (map.len(), map.get("sealed")) {
        (1, Some(Value::String(sealed))) => Some(sealed.clone()),
        _ => None,
    }
}

fn seal_bytes_with(key: Option<&Key>, store_key: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let Some(key) = key else {
        return Ok(bytes.to_vec());
    };
    let sealed = key.seal_raw(store_key, bytes)?;
    Ok(serde_json::to_vec(&serde_json::json!({ "sealed": sealed })).expect("JSON serializes"))
}

fn open_bytes_with(key: Option<&Key>, store_key: &str, stored: Vec<u8>) -> Result<Vec<u8>, String> {
    let Some(sealed) = sealed_text(&stored) else {
        return Ok(stored);
    };
    match key {
        Some(key) => key.open_raw(store_key, &sealed),
        None => Err(format!(
            "it is sealed and ${KEY_VARIABLE} is not set: start the service with the key it was sealed with"
        )),
    }
}

/// Where the key check value is stored: a known text sealed with the store's key.
pub const CHECK_KEY: &str = crate::store::keys::SECRETS_KEY_CHECK;
const CHECK_TEXT: &[u8] = b"siteops secrets key check v1";

/// Why a store and the environment's key do not go together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyCheckError {
    #[error(
        "${KEY_VARIABLE} is not the key this store was sealed with: start with that key (the store's sealed secrets would not open, and new ones would be sealed under another key)"
    )]
    WrongKey,
    #[error(
        "this store's secrets are sealed: start with ${KEY_VARIABLE} set to the key they were sealed with"
    )]
    NoKey,
    #[error("the key check value `{CHECK_KEY}` is damaged: {0}")]
    Damaged(String),
    #[error("cannot check the secrets key: {0}")]
    Store(String),
}

/// Checks the environment's key against the store's key check value, writing one when a
/// key is set and the store has none yet (only if absent: instances starting together
/// agree on one).
pub(crate) async fn check_key(store: &dyn crate::store::Store) -> Result<(), KeyCheckError> {
    let key = key().map_err(KeyCheckError::Damaged)?;
    check_key_with(key, store).await
}

async fn check_key_with(
    key: Option<&Key>,
    store: &dyn crate::store::Store,
) -> Result<(), KeyCheckError> {
    use crate::store::{Precondition, StoreError};
    let stored = store
        .get(CHECK_KEY)
        .await
        .map_err(|e| KeyCheckError::Store(e.to_string()))?;
    match (key, stored) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(KeyCheckError::NoKey),
        (Some(key), Some(stored)) => {
            let sealed = sealed_text(&stored)
                .ok_or_else(|| KeyCheckError::Damaged("not a sealed document".into()))?;
            match key.open_raw(CHECK_KEY, &sealed) {
                Ok(text) if text == CHECK_TEXT => Ok(()),
                Ok(_) => Err(KeyCheckError::Damaged("an unknown text".into())),
                Err(_) => Err(KeyCheckError::WrongKey),
            }
        }
        (Some(key), None) => {
            let sealed = seal_bytes_with(Some(key), CHECK_KEY, CHECK_TEXT)
                .map_err(KeyCheckError::Damaged)?;
            match store.put_if(CHECK_KEY, &sealed, Precondition::Absent).await {
                Ok(()) => Ok(()),
                // Another instance wrote one first: it must open with this key too.
                Err(StoreError::Conflict { .. }) => {
                    Box::pin(check_key_with(Some(key), store)).await
                }
                Err(error) => Err(KeyCheckError::Store(error.to_string())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_sealed_with_a_key_and_read_either_way() {
        let key = Key::parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").expect("a key");
        let at = "config/a/sites/b/secrets/s.json";
        let sealed = seal_value_with(Some(&key), at, "hunter2").expect("sealed");
        assert!(sealed.starts_with(PREFIX) && !sealed.contains("hunter2"));
        assert_eq!(
            open_value_with(Some(&key), at, &sealed),
            Ok("hunter2".into())
        );
        assert!(open_value_with(Some(&key), "config/a/sites/b/secrets/t.json", &sealed).is_err());
        // Without a key: stored as is; a sealed one does not read.
        assert_eq!(seal_value_with(None, at, "hunter2"), Ok("hunter2".into()));
        assert!(open_value_with(None, at, &sealed).is_err());
        // A clear one from before reads with the key set.
        assert_eq!(
            open_value_with(Some(&key), at, "hunter2"),
            Ok("hunter2".into())
        );
    }

    #[test]
    fn documents_are_sealed_whole_and_read_in_the_clear_from_before() {
        let key = Key::parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").expect("a key");
        let at = "transform/acme/web/main.json";
        let clear = br#"[{"path":"/","headers":{"x-api-key":"hunter2"}}]"#;
        let sealed = seal_bytes_with(Some(&key), at, clear).expect("sealed");
        assert!(is_sealed(&sealed));
        assert!(!String::from_utf8_lossy(&sealed).contains("hunter2"));
        assert_eq!(
            open_bytes_with(Some(&key), at, sealed.clone()).as_deref(),
            Ok(&clear[..])
        );
        // Bound to its place: not readable as another document.
        assert!(
            open_bytes_with(Some(&key), "transform/acme/web/dev.json", sealed.clone()).is_err()
        );
        // Without a key a sealed document does not read; a clear one reads either way.
        assert!(open_bytes_with(None, at, sealed).is_err());
        assert_eq!(
            open_bytes_with(Some(&key), at, clear.to_vec()).as_deref(),
            Ok(&clear[..])
        );
        assert_eq!(seal_bytes_with(None, at, clear).as_deref(), Ok(&clear[..]));
        // A raw signing key is no sealed document, even one that starts with `{`.
        assert!(!is_sealed(b"{\x00\x01 raw key bytes"));
        assert!(!is_sealed(br#"{"sealed": "v1:x", "other": 1}"#));
    }

    #[tokio::test]
    async fn the_key_check_value_refuses_another_key_and_no_key() {
        use crate::store::Store as _;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::FsStore::open(dir.path()).expect("store");
        let key = Key::parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").expect("a key");
        let other = Key::parse("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=").expect("a key");
        // No key, no check value: a clear store.
        assert_eq!(check_key_with(None, &store).await, Ok(()));
        // The first start with a key writes the check value; later starts check it.
        assert_eq!(check_key_with(Some(&key), &store).await, Ok(()));
        assert!(is_sealed(
            &store.get(CHECK_KEY).await.expect("get").expect("written")
        ));
        assert_eq!(check_key_with(Some(&key), &store).await, Ok(()));
        assert_eq!(
            check_key_with(Some(&other), &store).await,
            Err(KeyCheckError::WrongKey)
        );
        assert_eq!(
            check_key_with(None, &store).await,
            Err(KeyCheckError::NoKey)
        );
    }

    #[test]
    fn sealed_values_open_only_for_their_secret_and_key() {
        let key = Key::parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").expect("a key");
        let sealed = key
            .seal("config/a/sites/b/secrets/s.json", "hunter2")
            .expect("sealed");
        assert!(sealed.starts_with("v1:") && !sealed.contains("hunter2"));
        // A fresh nonce each time.
        assert_ne!(
            sealed,
            key.seal("config/a/sites/b/secrets/s.json", "hunter2")
                .expect("sealed")
        );
        assert_eq!(
            key.open("config/a/sites/b/secrets/s.json", &sealed)
                .as_deref(),
            Ok("hunter2")
        );
        assert!(
            key.open("config/a/sites/b/secrets/t.json", &sealed)
                .is_err()
        );
        let other = Key::parse("ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=").expect("a key");
        assert!(
            other
                .open("config/a/sites/b/secrets/s.json", &sealed)
                .is_err()
        );
        assert!(
            key.open("config/a/sites/b/secrets/s.json", "v1:AAAA")
                .is_err()
        );
        assert_eq!(
            Key::parse("c2hvcnQ=").err().as_deref(),
            Some(
                "$SITEOPS_SECRETS_KEY must be 32 bytes in base64 (`openssl rand -base64 32`), not 5"
            )
        );
    }
}
