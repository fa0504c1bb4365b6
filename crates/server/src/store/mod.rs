//! Persistent storage for the bundled administration service: documents (configuration,
//! secrets, jobs, keys) and files (code), addressed by `/`-separated keys.
//!
//! One small interface, [`Store`], so the service does not care where bytes live:
//! - the local file system ([`FsStore`], `--data DIR` or `--store file://DIR`): a write is
//!   atomic and durable when `put` returns (temporary file, fsync, rename, fsync of the
//!   directory), so a crash at any moment leaves the old or the new document;
//! - object storage ([`ObjectStoreBackend`], `--store s3://…`, `gs://…`, `az://…`), where
//!   every write is atomic by the store's own guarantee.
//!
//! Every call is async: on object storage it is a round trip, which holds no thread while
//! it waits, and independent reads go out together (`tokio::join!`). The file store does
//! its file work on tokio's blocking threads. Synchronous code calls in through
//! [`block_on`].
//!
//! Read-modify-write goes through versions: [`Store::get_versioned`] gives a document with
//! its version, [`Store::put_if`] writes only if the document is still at that version (or
//! still absent), and [`transact`] runs a whole section of reads and writes again when one of its writes met
//! a change. That is what keeps two instances on one bucket from losing each other's
//! updates; [`KeyedLocks`] only spares one instance's own requests the retries.
//!
//! Every key and lock name is made in [`keys`]. Objects that never change once written
//! ([`ImmutableKey`]) are read with [`Store::get_immutable`], which object storage answers
//! from memory when it can ([`CachedStore`]); documents that change are always read from
//! the store, so every instance sees every acknowledged write at its next request.

mod cache;
#[cfg(test)]
pub mod counting;
mod fs;
pub mod keys;
mod locks;
mod object;
mod tracked;

pub use cache::{CachedStore, DEFAULT_BYTES as CACHE_BYTES, ImmutableCache};
pub use fs::{DirLock, FsStore, LockError};
pub use keys::ImmutableKey;
pub use locks::KeyedLocks;
pub use object::ObjectStoreBackend;
pub use tracked::{Tracked, transact};

use std::path::PathBuf;
use std::sync::Arc;

pub use async_trait::async_trait;

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
    #[error("storage failed for `{key}`: {source}")]
    Object {
        key: String,
        #[source]
        source: object_store::Error,
    },
    /// A conditional write found the document changed (or created) since it was read.
    #[error("`{key}` changed while it was being written; try again")]
    Conflict { key: String },
    #[error("`{key}` kept changing: gave up after {attempts} attempts")]
    TooBusy { key: String, attempts: usize },
}

/// Which version of a document a [`Store::get_versioned`] read: an entity tag (object
/// stores) or a content hash (files). Opaque: only compared by the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub(crate) e_tag: Option<String>,
    pub(crate) version: Option<String>,
}

/// A document and the version it was read at.
#[derive(Debug, Clone)]
pub struct Versioned {
    pub bytes: Vec<u8>,
    pub version: Version,
}

/// When [`Store::put_if`] writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// Always (create or replace).
    Always,
    /// Only if nothing is stored under the key.
    Absent,
    /// Only if the stored document is still at this version.
    At(Version),
}

impl Precondition {
    /// The precondition that a document read as `read` is unchanged.
    pub fn unchanged(read: Option<&Versioned>) -> Precondition {
        match read {
            None => Precondition::Absent,
            Some(versioned) => Precondition::At(versioned.version.clone()),
        }
    }
}

/// Every method is async: on object storage each call is a network round trip, which must
/// not hold a runtime thread, and independent calls can be in flight together
/// (`tokio::join!`). Object-safe through `async-trait` (boxed futures), so the service
/// keeps one `Arc<dyn Store>`.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// The bytes under `key`, or `None`.
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.get_versioned(key).await?.map(|v| v.bytes))
    }
    /// The bytes under `key` with their version, or `None`.
    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError>;
    /// The bytes of an object that never changes once written ([`ImmutableKey`]); a store
    /// may answer from its [`ImmutableCache`].
    async fn get_immutable(&self, key: &ImmutableKey) -> Result<Option<Vec<u8>>, StoreError> {
        self.get(key.as_str()).await
    }
    /// Replaces the bytes under `key`; atomic, and durable once it returns.
    async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.put_if(key, bytes, Precondition::Always).await
    }
    /// [`Store::put`] if `condition` holds, [`StoreError::Conflict`] otherwise; the check
    /// and the write are one atomic step.
    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError>;
    /// Removes `key`; true when it existed.
    async fn delete(&self, key: &str) -> Result<bool, StoreError>;
    /// The size in bytes of what is stored under `key`, or `None`; without reading it
    /// where the store can tell (a file's metadata, an object's head).
    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.get(key).await?.map(|bytes| bytes.len() as u64))
    }
    /// Removes `key`; the size it had, when it existed.
    async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let size = self.size(key).await?;
        Ok(if self.delete(key).await? {
            size.or(Some(0))
        } else {
            None
        })
    }
    /// The names directly under the folder `prefix` (files and folders), sorted.
    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError>;
    /// The bytes of every file under the folder `prefix`, at any depth.
    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        let mut total = 0;
        for name in self.list(prefix).await? {
            let key = format!("{prefix}/{name}");
            total += match self.size(&key).await? {
                Some(size) => size,
                None => self.total_size(&key).await?,
            };
        }
        Ok(total)
    }
    /// Removes the folder `prefix` and everything under it.
    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError>;
    /// Where the store is, for messages (`file:///…`, `s3://bucket/prefix`).
    fn location(&self) -> String;
    /// Keeps `key` from other local users where that means something (a file's mode).
    async fn make_private(&self, key: &str) -> Result<(), StoreError> {
        check_key(key)
    }
}

/// The one way synchronous code (a CLI command) calls the store: runs `work` on a runtime
/// of its own on this thread, and waits. Refused on a runtime's thread, which must
/// `.await` instead (blocking there would stall its other tasks).
pub fn block_on<T>(work: impl std::future::Future<Output = T>) -> std::io::Result<T> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(std::io::Error::other(
            "the store is called synchronously from async code: await it instead",
        ));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(runtime.block_on(work))
}

/// Where the service keeps its state: `--data DIR` (the default) or `--store URL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// A directory on this machine (`file://DIR` means the same).
    Dir(PathBuf),
    /// Object storage: `s3://bucket/prefix`, `gs://bucket/prefix`, `az://container/prefix`,
    /// with credentials from each cloud's usual environment variables.
    Url(url::Url),
}

impl StoreLocation {
    /// A `--store` value: `file://`, `s3://`, `s3a://`, `gs://`, `az://`, `abfs://`, or
    /// `azure://`.
    pub fn parse(text: &str) -> Result<StoreLocation, String> {
        let url = url::Url::parse(text)
            .map_err(|error| format!("`{text}` is not a store URL: {error}"))?;
        match url.scheme() {
            "file" => url
                .to_file_path()
                .map(StoreLocation::Dir)
                .map_err(|()| format!("`{text}` is not a local directory")),
            "s3" | "s3a" | "gs" | "az" | "abfs" | "azure" => Ok(StoreLocation::Url(url)),
            other => Err(format!(
                "`{text}`: no store for `{other}://` (use file://, s3://, gs:// or az://)"
            )),
        }
    }

    /// For a directory, its [`DirLock`], which one instance holds while it runs; object
    /// storage is shared by design (conditional writes), so it needs none.
    pub fn lock(&self) -> Result<Option<DirLock>, LockError> {
        match self {
            StoreLocation::Dir(dir) => DirLock::acquire(dir).map(Some),
            StoreLocation::Url(_) => Ok(None),
        }
    }

    /// Opens the store, creating what a new one needs.
    pub fn open(&self) -> anyhow::Result<Arc<dyn Store>> {
        use anyhow::Context as _;
        Ok(match self {
            StoreLocation::Dir(dir) => Arc::new(
                FsStore::open(dir)
                    .with_context(|| format!("cannot open the data directory {}", dir.display()))?,
            ),
            // Each read of object storage is a round trip: immutable objects are kept.
            StoreLocation::Url(url) => Arc::new(CachedStore::new(
                Arc::new(
                    ObjectStoreBackend::open(url)
                        .with_context(|| format!("cannot open the store {url}"))?,
                ),
                cache::DEFAULT_BYTES,
            )),
        })
    }
}

impl std::fmt::Display for StoreLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreLocation::Dir(dir) => write!(f, "{}", dir.display()),
            StoreLocation::Url(url) => write!(f, "{url}"),
        }
    }
}

/// Keys are `/`-separated segments of ASCII letters, digits, `.`, `_` and `-`, none empty
/// or starting with `.`: no way to leave the store's root.
pub(crate) fn check_key(key: &str) -> Result<(), StoreError> {
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
    fn synchronous_code_calls_in_once_and_async_code_is_told_to_await() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = FsStore::open(dir.path()).expect("store");
        block_on(store.put("a", b"1"))
            .expect("a runtime")
            .expect("put");
        let read = block_on(store.get("a")).expect("a runtime").expect("get");
        assert_eq!(read.as_deref(), Some(&b"1"[..]));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let refused = runtime.block_on(async { block_on(store.get("a")).map(|_| ()) });
        assert!(refused.is_err_and(|e| e.to_string().contains("await")));
    }

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
