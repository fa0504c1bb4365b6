//! A read cache of immutable objects ([`ImmutableKey`]: a stored preview's files under
//! their revision, a branch's images by content hash) in front of a store: a view of a
//! stored page then reads its files from memory, not over the network.
//!
//! Nothing it answers can be stale: the keys it takes are content-addressed, so the bytes
//! under one never change, and a mutable document cannot be put through it (its key is a
//! `String`, and [`ImmutableKey`] is made only by [`super::keys`]). An object removed from
//! the store (an image no page names any more) may still be answered from another
//! instance's cache, with the bytes it had; this instance forgets what it removes.
//!
//! Bounded in bytes: `quick_cache` (concurrent shards, a weight per entry, an eviction
//! policy that keeps what is read again over what was read once). It sits in front of
//! object storage only ([`super::StoreLocation::open`]): a file store's reads are served
//! by the operating system's page cache already, and a second copy would only cost memory.

use std::sync::Arc;

use super::{ImmutableKey, Precondition, Store, StoreError, Versioned, async_trait};

/// The default bound of the cache, in bytes.
pub const DEFAULT_BYTES: u64 = 64 * 1024 * 1024;

/// The cache's entries weigh their bytes (and their key).
#[derive(Debug, Clone, Copy, Default)]
struct ByBytes;

impl quick_cache::Weighter<String, Arc<[u8]>> for ByBytes {
    fn weight(&self, key: &String, bytes: &Arc<[u8]>) -> u64 {
        (key.len() + bytes.len()) as u64
    }
}

/// Immutable objects by key, at most a number of bytes.
pub struct ImmutableCache {
    entries: quick_cache::sync::Cache<String, Arc<[u8]>, ByBytes>,
}

impl std::fmt::Debug for ImmutableCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImmutableCache")
            .field("bytes", &self.entries.weight())
            .finish()
    }
}

impl ImmutableCache {
    /// A cache of at most `bytes` (objects larger than a shard's share are not kept).
    pub fn new(bytes: u64) -> ImmutableCache {
        // A guess at the number of entries (a page's files are some KiB), for sizing only.
        let items = (bytes / (16 * 1024)).clamp(16, 1 << 20) as usize;
        ImmutableCache {
            entries: quick_cache::sync::Cache::with_weighter(items, bytes, ByBytes),
        }
    }

    fn get(&self, key: &ImmutableKey) -> Option<Arc<[u8]>> {
        self.entries.get(key.as_str())
    }

    fn insert(&self, key: &ImmutableKey, bytes: &[u8]) {
        self.entries.insert(key.as_str().to_string(), bytes.into());
    }

    fn forget(&self, key: &str) {
        self.entries.remove(key);
    }

    /// The bytes the cache holds now.
    pub fn weight(&self) -> u64 {
        self.entries.weight()
    }
}

/// A store with an [`ImmutableCache`] in front of its immutable reads; every other call
/// goes to the store as it is.
pub struct CachedStore {
    inner: Arc<dyn Store>,
    cache: ImmutableCache,
}

impl CachedStore {
    pub fn new(inner: Arc<dyn Store>, bytes: u64) -> CachedStore {
        CachedStore {
            inner,
            cache: ImmutableCache::new(bytes),
        }
    }

    pub fn cache(&self) -> &ImmutableCache {
        &self.cache
    }
}

#[async_trait]
impl Store for CachedStore {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key).await
    }

    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        self.inner.get_versioned(key).await
    }

    async fn get_immutable(&self, key: &ImmutableKey) -> Result<Option<Vec<u8>>, StoreError> {
        if let Some(bytes) = self.cache.get(key) {
            return Ok(Some(bytes.to_vec()));
        }
        let read = self.inner.get_immutable(key).await?;
        if let Some(bytes) = &read {
            self.cache.insert(key, bytes);
        }
        Ok(read)
    }

    async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.inner.put(key, bytes).await
    }

    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError> {
        self.inner.put_if(key, bytes, condition).await
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        self.cache.forget(key);
        self.inner.delete(key).await
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        self.inner.size(key).await
    }

    async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        self.cache.forget(key);
        self.inner.remove(key).await
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        self.inner.list(prefix).await
    }

    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        self.inner.total_size(prefix).await
    }

    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        self.inner.delete_all(prefix).await
    }

    fn location(&self) -> String {
        self.inner.location()
    }

    async fn make_private(&self, key: &str) -> Result<(), StoreError> {
        self.inner.make_private(key).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{FsStore, keys};

    #[tokio::test]
    async fn immutable_reads_are_answered_from_memory_within_the_bound() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fs: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let store = CachedStore::new(fs.clone(), 1 << 20);
        let media = keys::preview_media("acme", "web", "main", "media_1.png");
        assert_eq!(store.get_immutable(&media).await.expect("read"), None);
        store.put(media.as_str(), b"png").await.expect("put");
        assert_eq!(
            store.get_immutable(&media).await.expect("read").as_deref(),
            Some(&b"png"[..])
        );
        // Behind the cache's back (as only a test can), yet the same bytes come back.
        std::fs::remove_file(dir.path().join(media.as_str())).expect("removed");
        assert_eq!(
            store
                .get_immutable(&media)
                .await
                .expect("cached")
                .as_deref(),
            Some(&b"png"[..])
        );
        // What this instance removes, it forgets.
        store.put(media.as_str(), b"png").await.expect("put");
        assert_eq!(
            store.remove(media.as_str()).await.expect("removed"),
            Some(3)
        );
        assert_eq!(store.get_immutable(&media).await.expect("read"), None);
        // A mutable document is read from the store every time.
        store
            .put("config/acme/sites/web.json", b"1")
            .await
            .expect("put");
        fs.put("config/acme/sites/web.json", b"2")
            .await
            .expect("put");
        assert_eq!(
            store
                .get("config/acme/sites/web.json")
                .await
                .expect("get")
                .as_deref(),
            Some(&b"2"[..])
        );
        // The bound holds.
        let small = CachedStore::new(fs.clone(), 64 * 1024);
        for n in 0..64 {
            let key = keys::preview_media("acme", "web", "main", &format!("media_{n}.png"));
            fs.put(key.as_str(), &[0; 4096]).await.expect("put");
            small.get_immutable(&key).await.expect("read");
        }
        assert!(
            small.cache().weight() <= 64 * 1024,
            "{}",
            small.cache().weight()
        );
    }
}
