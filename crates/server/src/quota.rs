//! What one org, client or site may take of a shared server: sites per org, previews (in
//! all and per org) and code sync jobs running at once, sign-ins per client address and webhook deliveries per
//! site per minute, and the bytes a site's previews hold in the store. [`Quotas`] are the
//! settings (`serve`'s flags); [`Throttles`] hold the counters the routes ask (the bytes
//! stored are counted in the store itself: [`crate::preview::usage`]). Rates are token
//! buckets (`governor`), keyed, pruned as they grow.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The settings, with the defaults of `siteops serve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotas {
    /// Sites one org may have; creating one more gets 409.
    pub sites_per_org: usize,
    /// Previews running at once (a preview host page seen for the first time is one);
    /// further ones wait their turn, and the wait counts against their deadline (504 when
    /// it runs out; 503 if not even a turn came).
    pub concurrent_previews: usize,
    /// Of those, previews one org may run at once: an org whose sources stall holds at most
    /// this many turns, and the other orgs' previews still get theirs.
    pub previews_per_org: usize,
    /// Code sync jobs running at once, over every site; further ones wait their turn.
    pub concurrent_sync_jobs: usize,
    /// Sign-ins (`POST /admin/profile` with a good nonce) per client address per minute: a
    /// burst of that many, then one every `60 / n` seconds; beyond, 429.
    pub sign_ins_per_minute: u32,
    /// Signed webhook deliveries per site per minute: a burst of that many, then one every
    /// `60 / n` seconds; beyond, 429.
    pub webhooks_per_minute: u32,
    /// Bytes the previews of one site may hold in the store, every branch's pages and
    /// images; a preview that would pass it gets 507 and stores nothing.
    pub preview_bytes_per_site: u64,
}

/// The default of [`Quotas::preview_bytes_per_site`]: 1 GiB. Hundreds of pages with a few
/// MiB of images each fit, and two previews of a page of 200 images of 2 MiB; a hundred
/// sites then hold at most 100 GiB. One page at the image limits (200 of 20 MiB) does not
/// fit: a service that previews such pages raises the cap.
pub const PREVIEW_BYTES_PER_SITE: u64 = 1 << 30;

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            sites_per_org: 10_000,
            concurrent_previews: 16,
            previews_per_org: 4,
            concurrent_sync_jobs: 4,
            sign_ins_per_minute: 10,
            webhooks_per_minute: 60,
            preview_bytes_per_site: PREVIEW_BYTES_PER_SITE,
        }
    }
}

/// Keys kept by a rate limiter before the idle ones are dropped; looked at once every
/// [`PRUNE_EVERY`] checks, so a map of that many live keys is not scanned on each.
const PRUNE_ABOVE: usize = 4096;
const PRUNE_EVERY: usize = 1024;

/// A request over its rate: try again after this long (`Retry-After`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds, at least one, for the header.
    pub fn seconds(self) -> u64 {
        (self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0)).max(1)
    }
}

/// A turn to run a preview: one of its org's share and one of all; given back on drop.
#[derive(Debug)]
pub struct PreviewTurn {
    _org: OwnedSemaphorePermit,
    _all: OwnedSemaphorePermit,
}

/// The counters behind [`Quotas`], shared by the routes.
pub struct Throttles {
    pub quotas: Quotas,
    previews: Arc<Semaphore>,
    /// Each org's share of the turns; an org's entry goes once none of its turns is held.
    org_previews: std::sync::Mutex<HashMap<String, Arc<Semaphore>>>,
    sign_ins: DefaultKeyedRateLimiter<IpAddr>,
    webhooks: DefaultKeyedRateLimiter<String>,
    checks: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for Throttles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttles")
            .field("quotas", &self.quotas)
            .finish_non_exhaustive()
    }
}

fn per_minute(count: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(count).unwrap_or(NonZeroU32::MIN))
}

impl Throttles {
    pub fn new(quotas: Quotas) -> Throttles {
        Throttles {
            previews: Arc::new(Semaphore::new(quotas.concurrent_previews.max(1))),
            org_previews: std::sync::Mutex::default(),
            sign_ins: DefaultKeyedRateLimiter::keyed(per_minute(quotas.sign_ins_per_minute)),
            webhooks: DefaultKeyedRateLimiter::keyed(per_minute(quotas.webhooks_per_minute)),
            checks: std::sync::atomic::AtomicUsize::new(0),
            quotas,
        }
    }

    /// A turn for `org` to run a preview, waiting at most `wait`; `None` when none came.
    /// The org's share is taken first, so an org waiting on its own share holds none of
    /// the turns the other orgs need.
    pub(crate) async fn preview_slot(&self, org: &str, wait: Duration) -> Option<PreviewTurn> {
        let share = self.org_share(org);
        let turn = async {
            let org = share.acquire_owned().await.ok()?;
            let all = self.previews.clone().acquire_owned().await.ok()?;
            Some(PreviewTurn {
                _org: org,
                _all: all,
            })
        };
        tokio::time::timeout(wait, turn).await.ok()?
    }

    fn org_share(&self, org: &str) -> Arc<Semaphore> {
        let mut shares = self.org_previews.lock().unwrap_or_else(|p| p.into_inner());
        if shares.len() > PRUNE_ABOVE {
            // Only this map holds an idle org's share: nobody runs or waits with it.
            shares.retain(|_, share| Arc::strong_count(share) > 1);
        }
        shares
            .entry(org.to_owned())
            .or_insert_with(|| Arc::new(Semaphore::new(self.quotas.previews_per_org.max(1))))
            .clone()
    }

    /// Counts a sign-in from `client` (all unknown clients share one bucket).
    pub fn sign_in(&self, client: Option<IpAddr>) -> Result<(), RetryAfter> {
        let client = client.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        self.check(&self.sign_ins, &client)
    }

    fn check<K>(&self, limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> Result<(), RetryAfter>
    where
        K: Clone + Eq + std::hash::Hash,
    {
        let checks = self
            .checks
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if checks.is_multiple_of(PRUNE_EVERY) && limiter.len() > PRUNE_ABOVE {
            limiter.retain_recent();
        }
        limiter.check_key(key).map_err(|not_until| {
            RetryAfter(not_until.wait_time_from(DefaultClock::default().now()))
        })
    }

    /// Counts a webhook delivery for `org/site`.
    pub fn webhook(&self, org: &str, site: &str) -> Result<(), RetryAfter> {
        self.check(&self.webhooks, &format!("{org}/{site}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_its_rate_waits_and_others_do_not() {
        let throttles = Throttles::new(Quotas {
            sign_ins_per_minute: 3,
            ..Quotas::default()
        });
        let one = Some(IpAddr::from([127, 0, 0, 1]));
        let other = Some(IpAddr::from([127, 0, 0, 2]));
        for _ in 0..3 {
            assert_eq!(throttles.sign_in(one), Ok(()));
        }
        let retry = throttles.sign_in(one).expect_err("the fourth is over");
        assert!((1..=20).contains(&retry.seconds()), "{retry:?}");
        assert_eq!(throttles.sign_in(other), Ok(()), "a bucket per client");
    }

    #[test]
    fn webhooks_count_per_site() {
        let throttles = Throttles::new(Quotas {
            webhooks_per_minute: 1,
            ..Quotas::default()
        });
        assert_eq!(throttles.webhook("acme", "web"), Ok(()));
        assert!(throttles.webhook("acme", "web").is_err());
        assert_eq!(throttles.webhook("acme", "blog"), Ok(()));
    }

    #[tokio::test]
    async fn a_preview_waits_for_a_turn_within_its_deadline() {
        let throttles = Throttles::new(Quotas {
            concurrent_previews: 1,
            ..Quotas::default()
        });
        let first = throttles
            .preview_slot("acme", Duration::from_millis(10))
            .await;
        assert!(first.is_some());
        assert!(
            throttles
                .preview_slot("acme", Duration::from_millis(20))
                .await
                .is_none(),
            "no turn while the first runs"
        );
        drop(first);
        assert!(
            throttles
                .preview_slot("acme", Duration::from_millis(10))
                .await
                .is_some()
        );
    }

    #[tokio::test]
    async fn an_org_holds_at_most_its_share_of_the_preview_turns() {
        let throttles = Throttles::new(Quotas {
            concurrent_previews: 3,
            previews_per_org: 2,
            ..Quotas::default()
        });
        let wait = Duration::from_millis(20);
        let slow = [
            throttles.preview_slot("slow", wait).await,
            throttles.preview_slot("slow", wait).await,
        ];
        assert!(slow.iter().all(Option::is_some));
        assert!(
            throttles.preview_slot("slow", wait).await.is_none(),
            "a third turn is over the org's share"
        );
        let other = throttles.preview_slot("other", wait).await;
        assert!(other.is_some(), "the turn left is another org's");
        drop(slow);
        assert_eq!(
            throttles.org_previews.lock().unwrap()["slow"].available_permits(),
            2,
            "turns given back"
        );
    }
}
