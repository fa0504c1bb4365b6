//! The service's token signing key: made once per store, kept sealed at rest.

use crate::auth::SigningKey;
use crate::store::{Precondition, Store, StoreError};

/// Where the service keeps its token signing key.
pub const SIGNING_KEY: &str = "keys/token-signing.key";

/// Loads the signing key from the store, creating it on first use: created only if absent,
/// so that instances starting together on one store agree on one key. With
/// `SITEOPS_SECRETS_KEY` it is stored sealed ([`crate::sites::sealed`]): a key found in the
/// clear (from before the secrets key was set) is sealed in place. Its file is readable by
/// its owner only (0600 on Unix), tightened if an older one was not.
pub async fn signing_key(store: &dyn Store) -> anyhow::Result<SigningKey> {
    use crate::sites::sealed;
    let open = |bytes: Vec<u8>| {
        sealed::open_bytes(SIGNING_KEY, bytes)
            .map(SigningKey::from_bytes)
            .map_err(|reason| anyhow::anyhow!("the token signing key `{SIGNING_KEY}`: {reason}"))
    };
    let seal = |bytes: &[u8]| {
        sealed::seal_bytes(SIGNING_KEY, bytes)
            .map_err(|reason| anyhow::anyhow!("the token signing key cannot be sealed: {reason}"))
    };
    let key = match store.get_versioned(SIGNING_KEY).await? {
        Some(stored) => {
            let key = open(stored.bytes.clone())?;
            let sealing = sealed::key().map_err(anyhow::Error::msg)?.is_some();
            if sealing && !sealed::is_sealed(&stored.bytes) {
                let sealed = seal(key.as_bytes())?;
                match store
                    .put_if(SIGNING_KEY, &sealed, Precondition::At(stored.version))
                    .await
                {
                    // Another instance sealed it first: the same key, sealed.
                    Ok(()) | Err(StoreError::Conflict { .. }) => {}
                    Err(error) => return Err(error.into()),
                }
            }
            key
        }
        None => {
            let key = SigningKey::generate()
                .map_err(|e| anyhow::anyhow!("no randomness for a signing key: {e}"))?;
            match store
                .put_if(SIGNING_KEY, &seal(key.as_bytes())?, Precondition::Absent)
                .await
            {
                Ok(()) => key,
                // Another instance created it first: theirs is the key.
                Err(StoreError::Conflict { .. }) => {
                    let bytes = store.get(SIGNING_KEY).await?.ok_or_else(|| {
                        anyhow::anyhow!("the signing key vanished right after it was created")
                    })?;
                    open(bytes)?
                }
                Err(error) => return Err(error.into()),
            }
        }
    };
    store.make_private(SIGNING_KEY).await?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &std::path::Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .expect("key file")
            .permissions()
            .mode()
            & 0o777
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_signing_key_file_is_private_and_a_loose_one_is_tightened() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::FsStore::open(dir.path()).expect("store");
        let path = dir.path().join(SIGNING_KEY);
        let key = signing_key(&store).await.expect("created");
        assert_eq!(mode(&path), 0o600);

        // A key file left readable by others (an older version, a copy) is tightened,
        // and kept: tokens signed with it stay valid.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let again = signing_key(&store).await.expect("loaded");
        assert_eq!(again.as_bytes(), key.as_bytes());
        assert_eq!(mode(&path), 0o600);
    }

    /// Instances starting together on one store agree on one key: one that read "no key"
    /// just before another instance created it takes the other's key.
    #[tokio::test]
    async fn the_signing_key_is_created_once() {
        use crate::store::{FsStore, Precondition, StoreError, Versioned};
        use std::sync::atomic::{AtomicBool, Ordering};

        /// A store where another instance creates the key right after this one's first read.
        struct Racing {
            inner: FsStore,
            raced: AtomicBool,
        }
        #[crate::store::async_trait]
        impl Store for Racing {
            async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
                if !self.raced.swap(true, Ordering::SeqCst) {
                    self.inner.put(key, b"the other instance's key").await?;
                    return Ok(None);
                }
                self.inner.get_versioned(key).await
            }
            async fn put_if(
                &self,
                key: &str,
                bytes: &[u8],
                c: Precondition,
            ) -> Result<(), StoreError> {
                self.inner.put_if(key, bytes, c).await
            }
            async fn delete(&self, key: &str) -> Result<bool, StoreError> {
                self.inner.delete(key).await
            }
            async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
                self.inner.list(prefix).await
            }
            async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
                self.inner.delete_all(prefix).await
            }
            fn location(&self) -> String {
                self.inner.location()
            }
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let racing = Racing {
            inner: FsStore::open(dir.path()).expect("store"),
            raced: AtomicBool::new(false),
        };
        let key = signing_key(&racing).await.expect("taken");
        assert_eq!(key.as_bytes(), b"the other instance's key");
    }
}
