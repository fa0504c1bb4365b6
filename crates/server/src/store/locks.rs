//! One async mutex per key, created on first use: writers of one site queue up, writers of
//! different sites do not wait for each other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

#[derive(Debug, Default)]
pub struct KeyedLocks {
    locks: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

impl KeyedLocks {
    /// Waits for the lock of `key`; it is released when the guard drops.
    pub async fn lock(&self, key: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self
                .locks
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            locks.entry(key.to_string()).or_default().clone()
        };
        lock.lock_owned().await
    }
}
