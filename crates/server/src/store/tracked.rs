//! Optimistic read-modify-write over several documents: a [`Tracked`] view remembers the
//! version of every document read through it, and writes a document it read only if that
//! document is still at that version. [`transact`] runs a section of code on a fresh view
//! and runs it again when one of its writes met a change, so a section written as plain
//! reads and writes (`load`, check, `save`) never overwrites another instance's update.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;

use super::{ImmutableKey, Precondition, Store, StoreError, Versioned, async_trait};

/// How many times [`transact`] runs a section whose write met a change.
const ATTEMPTS: usize = 32;

/// The longest pause between two runs of a section.
const MAX_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

pub struct Tracked {
    store: Arc<dyn Store>,
    /// Each key read, and what it was then (`None`: absent).
    seen: Mutex<HashMap<String, Option<Versioned>>>,
    conflicted: AtomicBool,
}

impl Tracked {
    pub fn new(store: Arc<dyn Store>) -> Tracked {
        Tracked {
            store,
            seen: Mutex::default(),
            conflicted: AtomicBool::new(false),
        }
    }

    /// Whether a write met a change since its document was read.
    pub(crate) fn conflicted(&self) -> bool {
        self.conflicted.load(Ordering::Relaxed)
    }
}

#[async_trait]
impl Store for Tracked {
    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        let read = self.store.get_versioned(key).await?;
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        // The first read is the one the section's decisions rest on.
        seen.entry(key.to_string()).or_insert_with(|| read.clone());
        Ok(read)
    }

    async fn get_immutable(&self, key: &ImmutableKey) -> Result<Option<Vec<u8>>, StoreError> {
        // Never changes: nothing to track.
        self.store.get_immutable(key).await
    }

    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError> {
        let condition = match condition {
            Precondition::Always => {
                let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
                match seen.get(key) {
                    Some(read) => Precondition::unchanged(read.as_ref()),
                    None => Precondition::Always,
                }
            }
            other => other,
        };
        let written = self.store.put_if(key, bytes, condition).await;
        if let Err(StoreError::Conflict { .. }) = &written {
            self.conflicted.store(true, Ordering::Relaxed);
        }
        if written.is_ok() {
            // A second write in the same section follows its own first one.
            let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
            seen.remove(key);
        }
        written
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        self.store.delete(key).await
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        self.store.size(key).await
    }

    async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        self.store.remove(key).await
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        self.store.list(prefix).await
    }

    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        self.store.total_size(prefix).await
    }

    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        self.store.delete_all(prefix).await
    }

    fn location(&self) -> String {
        self.store.location()
    }

    async fn make_private(&self, key: &str) -> Result<(), StoreError> {
        self.store.make_private(key).await
    }
}

/// Runs `section` on a [`Tracked`] view of `store`, again (on a fresh view) while one of
/// its writes met a change, up to a limit; returns its last result. A section is a closure
/// that returns its work boxed (`move |view| Box::pin(async move { … })`); the work owns
/// its view and may borrow what outlives the call (`'a`).
pub async fn transact<'a, T, E>(
    store: &Arc<dyn Store>,
    mut section: impl FnMut(Arc<Tracked>) -> BoxFuture<'a, Result<T, E>>,
) -> Result<T, E> {
    let mut attempt = 0;
    loop {
        let view = Arc::new(Tracked::new(store.clone()));
        let started = std::time::Instant::now();
        let outcome = section(view.clone()).await;
        attempt += 1;
        if !view.conflicted() || attempt == ATTEMPTS {
            return outcome;
        }
        // Another writer won this round. The next round's writers are spread apart over a
        // window that grows with the attempts and is measured in runs of this section (a
        // bucket's round trips, not a directory's): a pause of a few milliseconds against
        // a section of tens let the same writers meet again until the attempts ran out.
        let run = started.elapsed().max(std::time::Duration::from_millis(1));
        let window = (run * (1 << attempt.min(5))).min(MAX_PAUSE);
        tokio::time::sleep(window.mul_f64(fastrand::f64())).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::FsStore;

    #[tokio::test]
    async fn a_section_runs_again_when_its_document_changed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        store.put("doc", b"a").await.expect("put");
        let mut runs = 0;
        let other = &store;
        let result = transact(&store, |view| {
            runs += 1;
            let runs = runs;
            Box::pin(async move {
                let read = view.get("doc").await?.unwrap_or_default();
                if runs == 1 {
                    // Another instance writes between this section's read and its write.
                    other.put("doc", b"b").await?;
                }
                view.put("doc", &[read, b"+".to_vec()].concat()).await?;
                // A second write of the same document follows the first.
                let again = view.get("doc").await?.unwrap_or_default();
                view.put("doc", &[again, b"!".to_vec()].concat()).await?;
                Ok::<_, StoreError>(runs)
            })
        })
        .await;
        assert_eq!(result.expect("written"), 2);
        assert_eq!(
            store.get("doc").await.expect("get").as_deref(),
            Some(&b"b+!"[..])
        );
        // A document the section did not read is written as is.
        transact(&store, |view| {
            Box::pin(async move { view.put("other", b"x").await })
        })
        .await
        .expect("written");
        assert_eq!(
            store.get("other").await.expect("get").as_deref(),
            Some(&b"x"[..])
        );
    }

    /// Many writers of one document at once, none serialised by a lock (as instances on
    /// one bucket are not), each section as slow as a bucket's round trips: every change
    /// is made, none lost, none given up on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn contended_writers_all_make_their_change() {
        const WRITERS: usize = 48;
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let writers = (0..WRITERS).map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                transact(&store, |view| {
                    Box::pin(async move {
                        let read = view.get("count").await?.unwrap_or_default();
                        let count: usize = String::from_utf8_lossy(&read).parse().unwrap_or(0);
                        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                        view.put("count", (count + 1).to_string().as_bytes()).await
                    })
                })
                .await
            })
        });
        let outcomes = futures_util::future::join_all(writers).await;
        let failed: Vec<String> = outcomes
            .into_iter()
            .filter_map(|o| o.expect("joined").err().map(|e| e.to_string()))
            .collect();
        assert_eq!(failed, Vec::<String>::new());
        assert_eq!(
            store.get("count").await.expect("get").as_deref(),
            Some(WRITERS.to_string().as_bytes())
        );
    }
}
