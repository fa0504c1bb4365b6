//! How many endpoint documents the worker holds at once. One page's endpoint document is
//! bounded ([`super::render::DATA_LIMIT`]), but what it costs (the body, then its parsed
//! form, then the render: 20–40 MiB for a 16 MB array) is paid per request, and requests
//! need no token: without a bound in number, N at once cost N times that. A page takes a
//! permit before its endpoint is fetched and keeps it until its page is built; past the
//! bound it waits, for [`WAIT`] at most, then answers 503.

use std::time::Duration;

use tokio::sync::{Semaphore, SemaphorePermit};

/// Longest a page waits for a permit before it answers 503.
pub const WAIT: Duration = Duration::from_secs(10);

/// Pages whose endpoint documents may be held at once on this machine: two per core (a
/// parse and a render are CPU work; a fetch waits on the network), at least two.
pub fn parses_at_once() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (2 * cores).max(2)
}

/// The permits of [`parses_at_once`] pages.
pub struct ParseBound {
    permits: Semaphore,
    size: usize,
    wait: Duration,
}

/// Every permit was held for the whole wait.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "the worker is building {size} pages from endpoint documents already, the most it holds at \
     once, and none finished within {wait:?}; try again shortly"
)]
pub struct Busy {
    size: usize,
    wait: Duration,
}

impl ParseBound {
    pub fn new(size: usize, wait: Duration) -> ParseBound {
        ParseBound {
            permits: Semaphore::new(size),
            size,
            wait,
        }
    }

    /// A permit, once one is free within the wait.
    pub async fn enter(&self) -> Result<SemaphorePermit<'_>, Busy> {
        let busy = || Busy {
            size: self.size,
            wait: self.wait,
        };
        match tokio::time::timeout(self.wait, self.permits.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            // Timed out, or closed (never: nothing closes it).
            _ => Err(busy()),
        }
    }
}

impl Default for ParseBound {
    fn default() -> ParseBound {
        ParseBound::new(parses_at_once(), WAIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_more_than_the_bound_are_held_and_the_next_waits_then_is_refused() {
        let bound = ParseBound::new(2, Duration::from_millis(50));
        let first = bound.enter().await.expect("first");
        let second = bound.enter().await.expect("second");
        assert_eq!(
            bound.enter().await.err(),
            Some(Busy {
                size: 2,
                wait: Duration::from_millis(50)
            })
        );
        drop(first);
        let third = bound.enter().await.expect("a permit freed is taken");
        drop((second, third));
    }

    #[tokio::test]
    async fn a_waiting_page_takes_the_permit_freed_within_the_wait() {
        let bound = std::sync::Arc::new(ParseBound::new(1, Duration::from_secs(5)));
        let held = bound.enter().await.expect("held");
        let waiter = {
            let bound = bound.clone();
            tokio::spawn(async move { bound.enter().await.map(drop) })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(held);
        assert_eq!(waiter.await.expect("joined"), Ok(()));
    }

    #[test]
    fn the_bound_is_at_least_two() {
        assert!(parses_at_once() >= 2);
    }
}
