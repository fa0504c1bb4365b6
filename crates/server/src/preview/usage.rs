//! The bytes each site's previews hold in the store, kept under a cap
//! ([`crate::quota::Quotas::preview_bytes_per_site`]): one preview of a page with 200
//! images of 2 MiB adds 400 MB, and no site may fill a shared service's disk or bucket.
//!
//! One document a site, `preview/<org>/<site>/usage.json` ([`Usage`]), changed only through
//! [`transact`], so that instances sharing a bucket agree on it:
//! - `stored`: the bytes of the files under `preview/<org>/<site>/` (the pages and images of
//!   every branch), as last counted from a listing, plus what was written and less what was
//!   removed since;
//! - `holds`: room set aside by the previews running now, each until a time.
//!
//! Used is stored plus holds, and a preview that would take it past the cap is refused
//! ([`NoRoom`]) before it writes. The count may be over what the store holds; it is never
//! under it for good, since that would let the store grow past the cap:
//! - a preview holds room before it writes ([`Room::take`]) and turns what it wrote into
//!   stored bytes when it ends ([`Room::finish`]); a crash leaves the hold, which expires;
//! - a removed file's bytes come off only in the section that removed it, which reads the
//!   document first: when two instances remove one image, the second to write finds the
//!   document changed, runs its section again, finds the image gone and takes nothing off
//!   (so a section run again after another instance's write leaves what it removed counted:
//!   over);
//! - a page record's bytes come off when the save whose conditional write replaced it ends.
//!
//! A recount from a listing sets the count right and drops the holds that expired: when the
//! document is missing (a store from before it, or a site deleted meanwhile) and before a
//! preview is refused (at most once a minute), so over-counting never refuses a preview.
//! This instance's own sections on one site wait for each other ([`UsageLocks`]): only
//! another instance's write makes one run again.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex as AsyncMutex;

use crate::store::{Store, StoreError, keys, transact};
use crate::time::now_seconds;

/// Room a preview sets aside at a time beyond what its next file needs, so that a page of
/// many images changes the document once every few of them rather than for each. Near the
/// cap a preview holds only what it needs, so it does not refuse another for room it would
/// not use.
pub const HOLD_STEP: u64 = 8 * 1024 * 1024;

/// Least time between two recounts made before a refusal, in seconds: a site at its cap
/// is not listed again for every preview tried.
const RECOUNT_EVERY: u64 = 60;

/// A site's usage document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Bytes of the files under the site's previews.
    pub stored: u64,
    /// Room held by each preview running now, by the preview's id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub holds: BTreeMap<String, Hold>,
    /// When `stored` was last counted from a listing (seconds since the epoch).
    pub counted: u64,
}

/// Room one running preview has set aside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub bytes: u64,
    /// Seconds since the epoch; past it, a recount drops the hold (its preview ended
    /// without giving it back: what it wrote is in the listing).
    pub until: u64,
}

impl Usage {
    /// What the cap bounds: stored bytes and held room.
    pub fn used(&self) -> u64 {
        self.holds
            .values()
            .fold(self.stored, |used, hold| used.saturating_add(hold.bytes))
    }
}

/// A preview refused: its site's previews would hold more than their cap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no room for this preview: the previews of site {org}/{site} may hold {cap} and hold {used}; it needs {needed} more. Delete previews the site no longer needs (DELETE /admin/preview/{org}/{site}/<branch>/<path>), or raise the cap (siteops serve --max-preview-bytes-per-site)",
    cap = Bytes(*.cap),
    used = Bytes(*.used),
    needed = Bytes(*.needed)
)]
pub struct NoRoom {
    pub org: String,
    pub site: String,
    /// The cap, in bytes.
    pub cap: u64,
    /// Bytes used when the preview asked, but by the preview itself.
    pub used: u64,
    /// Bytes the preview asked for, with what it held already.
    pub needed: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error(transparent)]
    NoRoom(#[from] NoRoom),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A number of bytes for people: `1 GiB (1073741824 bytes)`, `512 bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        let Bytes(bytes) = *self;
        let mut unit = None;
        let mut scaled = bytes as f64;
        for name in UNITS {
            if scaled < 1024.0 {
                break;
            }
            scaled /= 1024.0;
            unit = Some(name);
        }
        match unit {
            None => write!(f, "{bytes} bytes"),
            Some(unit) if scaled.fract() == 0.0 => {
                write!(f, "{scaled} {unit} ({bytes} bytes)")
            }
            Some(unit) => write!(f, "{scaled:.1} {unit} ({bytes} bytes)"),
        }
    }
}

/// One mutex a site, for this instance's sections on the site's document (held across
/// the section's store calls, so an async one).
#[derive(Debug, Default)]
pub struct UsageLocks {
    locks: Mutex<HashMap<String, Arc<AsyncMutex<()>>>>,
}

/// Sites whose mutex is kept once nobody holds it, before the idle ones are dropped.
const LOCKS_KEPT: usize = 4096;

impl UsageLocks {
    fn of(&self, site: &str) -> Arc<AsyncMutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        if locks.len() > LOCKS_KEPT {
            // Only this map holds an idle site's mutex.
            locks.retain(|_, lock| Arc::strong_count(lock) > 1);
        }
        locks.entry(site.to_string()).or_default().clone()
    }
}

/// The usage of one site's previews, and its cap.
pub struct SiteUsage {
    store: Arc<dyn Store>,
    lock: Arc<AsyncMutex<()>>,
    org: String,
    site: String,
    /// `preview/<org>/<site>`: what the count covers.
    prefix: String,
    cap: u64,
}

impl std::fmt::Debug for SiteUsage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SiteUsage")
            .field("prefix", &self.prefix)
            .field("cap", &self.cap)
            .finish_non_exhaustive()
    }
}

impl SiteUsage {
    pub fn new(
        store: Arc<dyn Store>,
        locks: &UsageLocks,
        org: &str,
        site: &str,
        cap: u64,
    ) -> SiteUsage {
        let prefix = keys::previews(org, site);
        SiteUsage {
            store,
            lock: locks.of(&prefix),
            org: org.to_string(),
            site: site.to_string(),
            prefix,
            cap,
        }
    }

    pub fn cap(&self) -> u64 {
        self.cap
    }

    fn key(&self) -> String {
        keys::preview_usage(&self.org, &self.site)
    }

    /// The usage now: the document, or a count from a listing when there is none (which
    /// is not stored: only previews write the document).
    pub async fn current(&self) -> Result<Usage, StoreError> {
        let store = self.store.as_ref();
        match self.read(store).await? {
            (Some(usage), _) => Ok(usage),
            (None, length) => self.recount(store, None, length, now_seconds()).await,
        }
    }

    /// Room for one preview, whose hold lasts `ttl` past its last growth (past the
    /// preview's deadline, so that only a preview that stopped loses it).
    pub fn room(&self, ttl: Duration) -> Room<'_> {
        Room {
            usage: self,
            id: format!("{:016x}", fastrand::u64(..)),
            ttl: ttl.as_secs().max(1),
            ledger: Mutex::default(),
            turn: AsyncMutex::default(),
        }
    }

    /// The document, when it reads back, and its length (0 when missing). One that does
    /// not read back is counted again, and replaced.
    async fn read(&self, store: &dyn Store) -> Result<(Option<Usage>, u64), StoreError> {
        let key = self.key();
        let Some(bytes) = store.get(&key).await? else {
            return Ok((None, 0));
        };
        let length = bytes.len() as u64;
        match serde_json::from_slice(&bytes) {
            Ok(usage) => Ok((Some(usage), length)),
            Err(error) => {
                tracing::error!(%key, %error, "a preview usage document does not parse: counting again");
                Ok((None, length))
            }
        }
    }

    /// The site's files counted from a listing (less the document, `document` bytes), with
    /// the holds of `previous` that have not expired: their previews may still write.
    async fn recount(
        &self,
        store: &dyn Store,
        previous: Option<Usage>,
        document: u64,
        now: u64,
    ) -> Result<Usage, StoreError> {
        let listed = store
            .total_size(&self.prefix)
            .await?
            .saturating_sub(document);
        let mut holds = previous.map(|usage| usage.holds).unwrap_or_default();
        holds.retain(|_, hold| hold.until > now);
        Ok(Usage {
            stored: listed,
            holds,
            counted: now,
        })
    }

    async fn write(&self, store: &dyn Store, usage: &Usage) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(usage).expect("usage serializes");
        store.put(&self.key(), &bytes).await
    }

    /// Sets room aside for preview `id`, held until `until`: `wanted` bytes when they fit,
    /// else the `needed` ones; returns the bytes set aside, or [`NoRoom`] when not even
    /// `needed` fit.
    ///
    /// Runs on a fresh view of the store while its writes meet changes, with this
    /// instance's other sections on the site waiting.
    pub async fn hold(
        &self,
        id: &str,
        needed: u64,
        wanted: u64,
        until: u64,
    ) -> Result<u64, UsageError> {
        let _alone = self.lock.lock().await;
        transact(&self.store, |view| {
            Box::pin(async move { self.hold_in(view.as_ref(), id, needed, wanted, until).await })
        })
        .await
    }

    async fn hold_in(
        &self,
        view: &dyn Store,
        id: &str,
        needed: u64,
        wanted: u64,
        until: u64,
    ) -> Result<u64, UsageError> {
        {
            let now = now_seconds();
            let (read, length) = self.read(view).await?;
            let mut recounted = read.is_none();
            let mut usage = match read {
                Some(usage) => usage,
                None => self.recount(view, None, length, now).await?,
            };
            let room = |usage: &Usage| self.cap.saturating_sub(usage.used());
            if room(&usage) < needed && !recounted && usage.counted + RECOUNT_EVERY <= now {
                // Before refusing, the truth: what crashes and retried sections left counted
                // goes, and so do the holds of previews that stopped.
                usage = self.recount(view, Some(usage), length, now).await?;
                recounted = true;
            }
            if room(&usage) < needed {
                if recounted {
                    self.write(view, &usage).await?;
                }
                // Told as the others' use and all this preview asked for.
                let own = usage.holds.get(id).map_or(0, |hold| hold.bytes);
                return Err(NoRoom {
                    org: self.org.clone(),
                    site: self.site.clone(),
                    cap: self.cap,
                    used: usage.used().saturating_sub(own),
                    needed: needed.saturating_add(own),
                }
                .into());
            }
            let granted = if room(&usage) >= wanted.max(needed) {
                wanted.max(needed)
            } else {
                needed
            };
            let hold = usage.holds.entry(id.to_string()).or_default();
            hold.bytes = hold.bytes.saturating_add(granted);
            hold.until = until;
            self.write(view, &usage).await?;
            Ok(granted)
        }
    }

    /// Ends preview `id`'s hold: the `written` bytes it wrote are stored now, the
    /// `replaced` bytes it overwrote are not, and the files `removals` are removed and their
    /// bytes taken off.
    pub(crate) async fn settle(
        &self,
        id: &str,
        written: u64,
        replaced: u64,
        removals: &[String],
    ) -> Result<(), StoreError> {
        let _alone = self.lock.lock().await;
        transact(&self.store, |view| {
            Box::pin(async move {
                self.settle_in(view.as_ref(), id, written, replaced, removals)
                    .await
            })
        })
        .await
    }

    async fn settle_in(
        &self,
        view: &dyn Store,
        id: &str,
        written: u64,
        replaced: u64,
        removals: &[String],
    ) -> Result<(), StoreError> {
        {
            // The document before the removals: what this run removes counts only if no
            // other write came between this read and the write below (see the module).
            let (read, _) = self.read(view).await?;
            let mut removed = 0u64;
            for key in removals {
                removed = removed.saturating_add(view.remove(key).await?.unwrap_or(0));
            }
            // Without a document the next preview counts from a listing, which sees all this.
            let Some(mut usage) = read else {
                return Ok(());
            };
            usage.stored = usage
                .stored
                .saturating_add(written)
                .saturating_sub(replaced.saturating_add(removed));
            usage.holds.remove(id);
            self.write(view, &usage).await
        }
    }
}

/// One preview's share of its site's usage: the room it holds and has taken, what it
/// replaced, the images it created (which a failed preview removes again), and the files
/// it leaves to remove when it ends.
pub struct Room<'a> {
    usage: &'a SiteUsage,
    id: String,
    /// Seconds a hold lasts past its last growth.
    ttl: u64,
    ledger: Mutex<Ledger>,
    /// Held by [`Room::take`] while it asks the document: one preview's downloads take
    /// room in turn.
    turn: AsyncMutex<()>,
}

#[derive(Debug, Default)]
struct Ledger {
    /// Room held in the document.
    held: u64,
    /// Of that, bytes written or being written.
    taken: u64,
    /// Bytes of files overwritten.
    replaced: u64,
    /// Images this preview created, by name.
    created: Vec<String>,
    /// Files to remove when the preview ends, and folders to clear after them.
    removals: Vec<String>,
    folders: Vec<String>,
    refused: Option<NoRoom>,
}

impl std::fmt::Debug for Room<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room")
            .field("site", &self.usage.prefix)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl Room<'_> {
    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Room for `bytes` about to be written, held from the site's usage when what this
    /// preview holds does not cover them. A refusal is also kept ([`Room::refusal`]).
    pub async fn take(&self, bytes: u64) -> Result<(), UsageError> {
        let _turn = self.turn.lock().await;
        let free = {
            let ledger = self.ledger();
            ledger.held.saturating_sub(ledger.taken)
        };
        if free < bytes {
            let needed = bytes - free;
            let until = now_seconds().saturating_add(self.ttl);
            match self
                .usage
                .hold(&self.id, needed, needed.max(HOLD_STEP), until)
                .await
            {
                Ok(granted) => {
                    let mut ledger = self.ledger();
                    ledger.held = ledger.held.saturating_add(granted);
                }
                Err(UsageError::NoRoom(refused)) => {
                    self.ledger().refused = Some(refused.clone());
                    return Err(refused.into());
                }
                Err(error) => return Err(error),
            }
        }
        self.ledger().taken += bytes;
        Ok(())
    }

    /// `bytes` taken were not written after all (another writer had stored them).
    pub(crate) fn give_back(&self, bytes: u64) {
        let mut ledger = self.ledger();
        ledger.taken = ledger.taken.saturating_sub(bytes);
    }

    /// The image `name` did not exist and this preview is writing it.
    pub fn created(&self, name: &str) {
        self.ledger().created.push(name.to_string());
    }

    /// The image `name` was not written by this preview after all (another had stored it).
    pub(crate) fn not_created(&self, name: &str) {
        let mut ledger = self.ledger();
        if let Some(at) = ledger.created.iter().rposition(|created| created == name) {
            ledger.created.remove(at);
        }
    }

    /// The images this preview created.
    pub(crate) fn created_images(&self) -> Vec<String> {
        self.ledger().created.clone()
    }

    /// A file of `bytes` was overwritten by this preview.
    pub fn replaced(&self, bytes: u64) {
        let mut ledger = self.ledger();
        ledger.replaced = ledger.replaced.saturating_add(bytes);
    }

    /// Files to remove when the preview ends, in this order.
    pub(crate) fn remove_later(&self, keys: impl IntoIterator<Item = String>) {
        self.ledger().removals.extend(keys);
    }

    /// A folder to clear once its files are removed (a file system keeps empty folders).
    pub(crate) fn clear_later(&self, folder: String) {
        self.ledger().folders.push(folder);
    }

    /// Why the site refused this preview room, if it did.
    pub fn refusal(&self) -> Option<NoRoom> {
        self.ledger().refused.clone()
    }

    /// Ends the preview: removes what it left to remove and settles its hold. A preview
    /// that held nothing and removes nothing (a view of an unchanged page) writes nothing.
    pub async fn finish(self) -> Result<(), StoreError> {
        let usage = self.usage;
        let ledger = self.ledger.into_inner().unwrap_or_else(|p| p.into_inner());
        if ledger.held == 0 && ledger.replaced == 0 && ledger.removals.is_empty() {
            return Ok(());
        }
        usage
            .settle(&self.id, ledger.taken, ledger.replaced, &ledger.removals)
            .await?;
        for folder in &ledger.folders {
            // Only a stray file a crash left is still there: it goes uncounted (over).
            usage.store.delete_all(folder).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::FsStore;
    use futures_util::future::BoxFuture;

    fn site(cap: u64) -> (tempfile::TempDir, Arc<dyn Store>, SiteUsage) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(FsStore::open(dir.path()).expect("store"));
        let usage = SiteUsage::new(store.clone(), &UsageLocks::default(), "acme", "web", cap);
        (dir, store, usage)
    }

    async fn stored(store: &Arc<dyn Store>) -> Usage {
        let bytes = store
            .get("preview/acme/web/usage.json")
            .await
            .expect("get")
            .expect("a usage document");
        serde_json::from_slice(&bytes).expect("parses")
    }

    const HOUR: Duration = Duration::from_secs(3600);

    #[tokio::test]
    async fn a_missing_document_is_counted_from_the_files() {
        let (_dir, store, usage) = site(1 << 20);
        store
            .put("preview/acme/web/main/media/media_a.png", &[0; 1000])
            .await
            .expect("put");
        store
            .put("preview/acme/web/dev/pages/p.json", &[0; 24])
            .await
            .expect("put");
        // Another site's files are not this one's.
        store
            .put("preview/acme/blog/main/media/media_b.png", &[0; 99])
            .await
            .expect("put");
        assert_eq!(usage.current().await.expect("usage").stored, 1024);
        assert!(
            store
                .get("preview/acme/web/usage.json")
                .await
                .expect("get")
                .is_none()
        );
        let room = usage.room(HOUR);
        room.take(10).await.expect("room");
        let document = stored(&store).await;
        assert_eq!(document.stored, 1024, "counted when first held");
        assert_eq!(document.holds.len(), 1);
        assert_eq!(
            document.used(),
            1024 + 10,
            "a step does not fit: only what is needed"
        );
    }

    #[tokio::test]
    async fn holds_become_stored_bytes_and_unused_room_is_given_back() {
        let (_dir, store, usage) = site(1 << 30);
        let room = usage.room(HOUR);
        room.take(3000).await.expect("room");
        room.take(5000).await.expect("room");
        room.take(700).await.expect("room");
        room.give_back(700);
        let held = stored(&store).await;
        assert_eq!(held.stored, 0);
        assert_eq!(held.holds.values().next().map(|h| h.bytes), Some(HOLD_STEP));
        room.replaced(1000);
        room.finish().await.expect("settled");
        let settled = stored(&store).await;
        assert_eq!((settled.stored, settled.holds.len()), (7000, 0));
    }

    #[tokio::test]
    async fn past_the_cap_a_preview_is_refused_and_told_why() {
        let (_dir, store, usage) = site(10_000);
        store
            .put("preview/acme/web/main/media/media_a.png", &[0; 6000])
            .await
            .expect("put");
        let first = usage.room(HOUR);
        first.take(3000).await.expect("fits");
        assert_eq!(
            stored(&store).await.used(),
            9000,
            "near the cap, a preview holds what it needs, not a step"
        );
        let second = usage.room(HOUR);
        second.take(500).await.expect("fits");
        let refused = second.take(1000).await.expect_err("over the cap");
        let UsageError::NoRoom(refused) = refused else {
            panic!("a refusal: {refused:?}");
        };
        assert_eq!(
            (refused.cap, refused.used, refused.needed),
            (10_000, 9000, 1500),
            "the others' use, and all this preview asked for"
        );
        assert_eq!(second.refusal(), Some(refused.clone()));
        assert_eq!(
            refused.to_string(),
            "no room for this preview: the previews of site acme/web may hold 9.8 KiB (10000 bytes) and hold 8.8 KiB (9000 bytes); it needs 1.5 KiB (1500 bytes) more. Delete previews the site no longer needs (DELETE /admin/preview/acme/web/<branch>/<path>), or raise the cap (siteops serve --max-preview-bytes-per-site)"
        );
        // The first gives back what it did not write: then the second fits.
        first.give_back(2000);
        first.finish().await.expect("settled");
        assert_eq!(stored(&store).await.stored, 7000);
        second.take(1000).await.expect("fits now");
    }

    #[tokio::test]
    async fn a_refusal_counts_again_first_and_drops_expired_holds() {
        let (_dir, store, usage) = site(10_000);
        // A preview that stopped (a crash) left its hold; one that runs holds some too.
        let document = Usage {
            stored: 5000,
            holds: BTreeMap::from([
                (
                    "stopped".into(),
                    Hold {
                        bytes: 4000,
                        until: 1,
                    },
                ),
                (
                    "running".into(),
                    Hold {
                        bytes: 1000,
                        until: u64::MAX,
                    },
                ),
            ]),
            counted: 0,
        };
        store
            .put(
                "preview/acme/web/usage.json",
                &serde_json::to_vec(&document).expect("json"),
            )
            .await
            .expect("put");
        store
            .put("preview/acme/web/main/media/media_a.png", &[0; 2000])
            .await
            .expect("put");
        let room = usage.room(HOUR);
        room.take(3000).await.expect("fits once counted again");
        let now = stored(&store).await;
        assert_eq!(now.stored, 2000);
        let mut holds: Vec<&str> = now.holds.keys().map(String::as_str).collect();
        holds.sort_by_key(|id| *id != "running");
        assert_eq!(holds, ["running", room.id.as_str()]);
        // Counted a moment ago: a refusal now does not list the files again.
        store
            .put("preview/acme/web/main/media/media_b.png", &[0; 100])
            .await
            .expect("put");
        let refused = usage.room(HOUR).take(5000).await.expect_err("over");
        assert!(
            matches!(
                refused,
                UsageError::NoRoom(NoRoom {
                    used: 6000,
                    needed: 5000,
                    ..
                })
            ),
            "{refused:?}"
        );
        assert_eq!(stored(&store).await.stored, 2000);
    }

    #[tokio::test]
    async fn removed_files_come_off_once() {
        let (_dir, store, usage) = site(1 << 30);
        for (name, size) in [("a", 300), ("b", 500)] {
            let room = usage.room(HOUR);
            room.take(size).await.expect("room");
            store
                .put(
                    &format!("preview/acme/web/main/media/media_{name}.png"),
                    &vec![0; size as usize],
                )
                .await
                .expect("put");
            room.finish().await.expect("settled");
        }
        assert_eq!(stored(&store).await.stored, 800);
        let keys = vec!["preview/acme/web/main/media/media_a.png".to_string()];
        // Two previews remove the same image: it comes off once.
        for _ in 0..2 {
            let room = usage.room(HOUR);
            room.remove_later(keys.clone());
            room.finish().await.expect("settled");
        }
        assert_eq!(stored(&store).await.stored, 500);
        assert_eq!(store.size(&keys[0]).await.expect("size"), None);
    }

    #[tokio::test]
    async fn a_room_that_did_nothing_writes_nothing() {
        let (_dir, store, usage) = site(1 << 30);
        usage.room(HOUR).finish().await.expect("nothing to do");
        assert!(
            store
                .get("preview/acme/web/usage.json")
                .await
                .expect("get")
                .is_none()
        );
    }

    /// A store on which another instance acts at the first removal of this one's: `race`
    /// runs between this instance's look at the file and its delete, as two deletes of one
    /// object meet on a bucket (both see it, both delete, both succeed).
    /// What another instance does, once.
    type Race = Box<dyn FnOnce() -> BoxFuture<'static, ()> + Send>;

    struct Racing {
        inner: Arc<dyn Store>,
        race: Mutex<Option<Race>>,
    }

    #[crate::store::async_trait]
    impl Store for Racing {
        async fn get_versioned(
            &self,
            key: &str,
        ) -> Result<Option<crate::store::Versioned>, StoreError> {
            self.inner.get_versioned(key).await
        }
        async fn put_if(
            &self,
            key: &str,
            bytes: &[u8],
            condition: crate::store::Precondition,
        ) -> Result<(), StoreError> {
            self.inner.put_if(key, bytes, condition).await
        }
        async fn delete(&self, key: &str) -> Result<bool, StoreError> {
            self.inner.delete(key).await
        }
        async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
            let race = self.race.lock().expect("race").take();
            match race {
                Some(race) => {
                    let size = self.inner.size(key).await?;
                    race().await;
                    self.inner.remove(key).await?;
                    Ok(size)
                }
                None => self.inner.remove(key).await,
            }
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

    /// Two instances, this one seeing `race` at its first removal; 400 bytes stored in
    /// the image `KEY`.
    async fn two_instances(
        race: impl for<'u> FnOnce(&'u SiteUsage) -> BoxFuture<'u, ()> + Send + 'static,
    ) -> (tempfile::TempDir, Arc<dyn Store>, SiteUsage) {
        let (dir, store, other) = site(1 << 30);
        let room = other.room(HOUR);
        room.take(400).await.expect("room");
        store.put(KEY, &[0; 400]).await.expect("put");
        room.finish().await.expect("settled");
        let racing: Arc<dyn Store> = Arc::new(Racing {
            inner: store.clone(),
            race: Mutex::new(Some(Box::new(move || {
                Box::pin(async move { race(&other).await })
            }))),
        });
        let this = SiteUsage::new(racing, &UsageLocks::default(), "acme", "web", 1 << 30);
        (dir, store, this)
    }

    const KEY: &str = "preview/acme/web/main/media/media_a.png";

    #[tokio::test]
    async fn an_image_two_instances_remove_at_once_comes_off_once() {
        let (_dir, store, this) = two_instances(|other| {
            Box::pin(async move {
                let room = other.room(HOUR);
                room.remove_later([KEY.to_string()]);
                room.finish().await.expect("the other removes it first");
            })
        })
        .await;
        let room = this.room(HOUR);
        room.remove_later([KEY.to_string()]);
        room.finish().await.expect("settled");
        assert_eq!(stored(&store).await.stored, 0, "not taken off twice");
        assert_eq!(store.size(KEY).await.expect("size"), None);
    }

    #[tokio::test]
    async fn a_removal_that_met_another_write_stays_counted() {
        // Over, never under: run again, the section finds the image gone.
        let (_dir, store, this) = two_instances(|other| {
            Box::pin(async move {
                other
                    .room(HOUR)
                    .take(10)
                    .await
                    .expect("another preview holds room");
            })
        })
        .await;
        let room = this.room(HOUR);
        room.remove_later([KEY.to_string()]);
        room.finish().await.expect("settled");
        assert_eq!(stored(&store).await.stored, 400);
        assert_eq!(store.size(KEY).await.expect("size"), None);
    }

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(1 << 30).to_string(), "1 GiB (1073741824 bytes)");
        assert_eq!(Bytes(3 << 19).to_string(), "1.5 MiB (1572864 bytes)");
    }
}
