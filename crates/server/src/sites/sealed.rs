//! Secrets at rest: with `SITEOPS_SECRETS_KEY` set (32 bytes, base64), a secret's value is
//! stored sealed with AES-256-GCM (ring's, the tree's one crypto library) under a fresh
//! random nonce, bound to the secret's own store key, so the store (a bucket, a backup)
//! holds no secret in the clear and a sealed value cannot be moved to another secret.
//! Without the variable, values are stored as before, and the service says so at start.
//!
//! Stored forms: `{"value": "…"}` (clear) or `{"sealed": "v1:<base64 nonce ‖ ciphertext>"}`.
//! A clear value is still read with the key set (stores from before), and sealed when the
//! secret is next written.

use std::sync::OnceLock;

use base64::Engine as _;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use serde_json::{Map, Value};

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
    pub fn seal(&self, store_key: &str, value: &str) -> Result<String, String> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| format!("no randomness for a nonce: {e}"))?;
        let mut sealed = value.as_bytes().to_vec();
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
        String::from_utf8(clear.to_vec()).map_err(|_| "the value is not UTF-8".to_string())
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

/// A secret document to store: its `value` sealed when the environment has a key.
pub fn seal_document(store_key: &str, document: Value) -> Result<Value, String> {
    seal_with(key()?, store_key, document)
}

/// A stored secret document's value, opened if sealed.
pub fn value_of(store_key: &str, document: &Map<String, Value>) -> Result<Option<String>, String> {
    open_with(key()?, store_key, document)
}

fn seal_with(key: Option<&Key>, store_key: &str, mut document: Value) -> Result<Value, String> {
    let Some(key) = key else {
        return Ok(document);
    };
    if let Value::Object(map) = &mut document
        && let Some(Value::String(value)) = map.remove("value")
    {
        map.insert("sealed".into(), Value::String(key.seal(store_key, &value)?));
    }
    Ok(document)
}

fn open_with(
    key: Option<&Key>,
    store_key: &str,
    document: &Map<String, Value>,
) -> Result<Option<String>, String> {
    if let Some(Value::String(value)) = document.get("value") {
        return Ok(Some(value.clone()));
    }
    let Some(Value::String(sealed)) = document.get("sealed") else {
        return Ok(None);
    };
    match key {
        Some(key) => key.open(store_key, sealed).map(Some),
        None => Err(format!(
            "the secret is sealed and ${KEY_VARIABLE} is not set: start the service with the key it was sealed with"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_sealed_with_a_key_and_read_either_way() {
        let key = Key::parse("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=").expect("a key");
        let at = "config/a/sites/b/secrets/s.json";
        let document = serde_json::json!({"value": "hunter2", "created": "2026-11-26"});
        let sealed = seal_with(Some(&key), at, document.clone()).expect("sealed");
        assert!(!sealed.to_string().contains("hunter2"), "{sealed}");
        assert_eq!(sealed["created"], "2026-11-26");
        let map = |v: &Value| v.as_object().expect("an object").clone();
        assert_eq!(
            open_with(Some(&key), at, &map(&sealed)),
            Ok(Some("hunter2".into()))
        );
        // Without a key: stored as is; a sealed one does not read.
        assert_eq!(seal_with(None, at, document.clone()), Ok(document.clone()));
        assert!(open_with(None, at, &map(&sealed)).is_err());
        // A clear one from before reads with the key set.
        assert_eq!(
            open_with(Some(&key), at, &map(&document)),
            Ok(Some("hunter2".into()))
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
