//! Which instance runs a code sync job: a lease object beside the job record
//! (`leases/jobs/…/<name>.json`: the holder and when its claim ends), taken and renewed by
//! conditional writes. The holder renews it while the job waits and runs; an instance that
//! finds a job unfinished and its lease ended (its holder died) takes the lease and runs
//! the job again, so a job survives the death of the instance that ran it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::job::Job;
use crate::store::{Precondition, Store, StoreError, Version};

#[derive(Debug, Clone, Serialize, Deserialize)]
struct LeaseRecord {
    holder: String,
    /// Seconds since the Unix epoch.
    expires: u64,
}

/// A lease this instance holds, at the version it last wrote.
#[derive(Debug, Clone)]
pub struct Held {
    key: String,
    version: Version,
}

pub fn key(job: &Job) -> String {
    crate::store::keys::code_job_lease(&job.org, &job.site, &job.branch, &job.name)
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn record(holder: &str, ttl: Duration) -> Vec<u8> {
    serde_json::to_vec(&LeaseRecord {
        holder: holder.to_string(),
        expires: now() + ttl.as_secs().max(1),
    })
    .expect("leases serialize")
}

/// Takes the job's lease for `holder` if it is free (none, ended, or unreadable: written
/// by a crash); `None` when another holds it (or took it first).
pub async fn claim(
    store: &dyn Store,
    job: &Job,
    holder: &str,
    ttl: Duration,
) -> Result<Option<Held>, StoreError> {
    let key = key(job);
    let read = store.get_versioned(&key).await?;
    let free = read.as_ref().is_none_or(|r| {
        serde_json::from_slice::<LeaseRecord>(&r.bytes).map_or(true, |l| l.expires <= now())
    });
    if !free {
        return Ok(None);
    }
    write(
        store,
        &key,
        holder,
        ttl,
        Precondition::unchanged(read.as_ref()),
    )
    .await
}

/// Extends a held lease; `None` when it was taken meanwhile (this instance was too slow).
pub(crate) async fn renew(
    store: &dyn Store,
    held: &Held,
    holder: &str,
    ttl: Duration,
) -> Result<Option<Held>, StoreError> {
    write(
        store,
        &held.key,
        holder,
        ttl,
        Precondition::At(held.version.clone()),
    )
    .await
}

async fn write(
    store: &dyn Store,
    key: &str,
    holder: &str,
    ttl: Duration,
    condition: Precondition,
) -> Result<Option<Held>, StoreError> {
    match store.put_if(key, &record(holder, ttl), condition).await {
        Ok(()) => {}
        Err(StoreError::Conflict { .. }) => return Ok(None),
        Err(error) => return Err(error),
    }
    // The version just written, for the next renewal (another holder cannot have written
    // since: the lease is ours until it ends).
    Ok(store.get_versioned(key).await?.and_then(|read| {
        serde_json::from_slice::<LeaseRecord>(&read.bytes)
            .ok()
            .filter(|lease| lease.holder == holder)
            .map(|_| Held {
                key: key.to_string(),
                version: read.version,
            })
    }))
}

/// Gives the lease up once the job has stopped.
pub async fn release(store: &dyn Store, held: &Held) -> Result<(), StoreError> {
    store.delete(&held.key).await.map(|_| ())
}
