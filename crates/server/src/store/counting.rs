//! Test-only: a [`Store`] that records the calls made through it and, while gated, holds
//! each call until the test releases the calls waiting together, so that a test sees how
//! many round trips a request makes one after another (the calls in flight together are
//! one round).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use super::{ImmutableKey, Precondition, Store, StoreError, Versioned, async_trait};

pub struct Counting {
    inner: Arc<dyn Store>,
    gated: AtomicBool,
    /// The calls waiting for their release: what each is (`get key`), and its release.
    waiting: Mutex<Vec<(String, oneshot::Sender<()>)>>,
}

impl Counting {
    pub fn new(inner: Arc<dyn Store>) -> Counting {
        Counting {
            inner,
            gated: AtomicBool::new(false),
            waiting: Mutex::default(),
        }
    }

    /// Whether calls wait for [`Counting::rounds_of`] to release them.
    pub(crate) fn gate(&self, on: bool) {
        self.gated.store(on, Ordering::SeqCst);
    }

    async fn call(&self, what: String) {
        if !self.gated.load(Ordering::SeqCst) {
            return;
        }
        let (release, released) = oneshot::channel();
        self.waiting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((what, release));
        let _ = released.await;
    }

    /// Runs `work` with every call gated, releasing the calls that wait together as one
    /// round once no more join them (for `settle`); the calls of each round, in order.
    pub(crate) async fn rounds_of<T>(
        &self,
        work: impl std::future::Future<Output = T>,
        settle: Duration,
    ) -> (T, Vec<Vec<String>>) {
        self.gate(true);
        let mut rounds = Vec::new();
        let mut work = std::pin::pin!(work);
        // Calls join a round until the waiting ones stay the same for `settle`.
        let mut seen = 0;
        let outcome = loop {
            tokio::select! {
                outcome = &mut work => break outcome,
                () = tokio::time::sleep(settle) => {
                    let mut waiting = self.waiting.lock().unwrap_or_else(|p| p.into_inner());
                    if waiting.is_empty() || waiting.len() != seen {
                        seen = waiting.len();
                        continue;
                    }
                    let batch = std::mem::take(&mut *waiting);
                    seen = 0;
                    let mut calls = Vec::new();
                    for (what, release) in batch {
                        calls.push(what);
                        let _ = release.send(());
                    }
                    calls.sort();
                    rounds.push(calls);
                }
            }
        };
        self.gate(false);
        (outcome, rounds)
    }
}

#[async_trait]
impl Store for Counting {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.call(format!("get {key}")).await;
        self.inner.get(key).await
    }

    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        self.call(format!("get {key}")).await;
        self.inner.get_versioned(key).await
    }

    async fn get_immutable(&self, key: &ImmutableKey) -> Result<Option<Vec<u8>>, StoreError> {
        self.call(format!("get {key}")).await;
        self.inner.get_immutable(key).await
    }

    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError> {
        self.call(format!("put {key}")).await;
        self.inner.put_if(key, bytes, condition).await
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        self.call(format!("delete {key}")).await;
        self.inner.delete(key).await
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        self.call(format!("size {key}")).await;
        self.inner.size(key).await
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        self.call(format!("list {prefix}")).await;
        self.inner.list(prefix).await
    }

    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        self.call(format!("list {prefix}")).await;
        self.inner.total_size(prefix).await
    }

    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        self.call(format!("delete {prefix}")).await;
        self.inner.delete_all(prefix).await
    }

    fn location(&self) -> String {
        self.inner.location()
    }
}
