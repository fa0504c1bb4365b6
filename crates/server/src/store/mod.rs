//! Persistent storage for the bundled administration service: documents (configuration,
//! secrets, jobs, keys) and files (code), addressed by `/`-separated keys.
//!
//! One small interface, [`Store`], so the service does not care where bytes live. The
//! implementation here is the local file system ([`FsStore`]): a write is atomic and
//! durable when `put` returns (temporary file, fsync, rename, fsync of the directory), so
//! a crash at any moment leaves the old or the new document, never a torn one.
//! Serialising writers is the caller's job ([`KeyedLocks`]), because read-modify-write
//! spans several calls.

mod fs;
mod locks;

pub use fs::FsStore;
pub use locks::KeyedLocks;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("invalid store key `{0}`")]
    InvalidKey(String),
    #[error("storage failed for `{key}`: {source}")]
    Io {
        key: String,
        #[source]
        source: std::io::Error,
    },
}

pub trait Store: Send + Sync + 'static {
    /// The bytes under `key`, or `None`.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;
    /// Replaces the bytes under `key`; atomic, and durable once it returns.
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError>;
    /// Removes `key`; true when it existed.
    fn delete(&self, key: &str) -> Result<bool, StoreError>;
    /// The names directly under the folder `prefix` (files and folders), sorted.
    fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError>;
    /// Removes the folder `prefix` and everything under it.
    fn delete_all(&self, prefix: &str) -> Result<(), StoreError>;
}

/// Keys are `/`-separated segments of ASCII letters, digits, `.`, `_` and `-`, none empty
/// or starting with `.`: no way to leave the store's root.
pub fn check_key(key: &str) -> Result<(), StoreError> {
    let valid = !key.is_empty()
        && key.split('/').all(|segment| {
            !segment.is_empty()
                && !segment.starts_with('.')
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        });
    if valid {
        Ok(())
    } else {
        Err(StoreError::InvalidKey(key.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_escape_the_root() {
        for good in [
            "config/acme/sites/web.json",
            "a",
            "code/o/r/main/templates/x.html",
        ] {
            assert!(check_key(good).is_ok(), "{good}");
        }
        for bad in [
            "", "/a", "a/", "a//b", "../a", "a/../b", ".hidden", "a/.tmp", "a b", "a\\b",
        ] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
    }
}
