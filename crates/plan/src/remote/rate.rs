//! A request rate limit: at most N request starts per second, evenly spaced (a token
//! bucket of one token, refilled every 1/N s). Even spacing keeps a hosted service's
//! per-second window from seeing a burst at its edge.
//!
//! Time is tokio's, so tests run it on paused time instead of the wall clock.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::{Instant, sleep_until};

#[derive(Debug)]
pub struct RateLimiter {
    interval: Duration,
    /// The earliest start of the next request.
    next: Mutex<Option<Instant>>,
}

impl RateLimiter {
    /// `per_second` must be positive and finite (the command line checks it).
    pub fn per_second(per_second: f64) -> RateLimiter {
        RateLimiter {
            interval: Duration::from_secs_f64(1.0 / per_second),
            next: Mutex::new(None),
        }
    }

    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Waits for this request's slot. Slots are handed out in call order, one interval
    /// apart; an idle limiter lets the next request start at once.
    pub async fn acquire(&self) {
        let slot = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            let slot = next.map_or(now, |n| n.max(now));
            *next = Some(slot + self.interval);
            slot
        };
        sleep_until(slot).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn ten_per_second_spaces_starts_a_tenth_of_a_second_apart() {
        let limiter = RateLimiter::per_second(10.0);
        let start = Instant::now();
        let mut starts = Vec::new();
        for _ in 0..21 {
            limiter.acquire().await;
            starts.push(start.elapsed());
        }
        assert_eq!(starts[0], Duration::ZERO);
        assert_eq!(starts[1], Duration::from_millis(100));
        assert_eq!(starts[20], Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn concurrent_callers_share_the_rate() {
        let limiter = std::sync::Arc::new(RateLimiter::per_second(10.0));
        let start = Instant::now();
        let tasks: Vec<_> = (0..30)
            .map(|_| {
                let limiter = limiter.clone();
                tokio::spawn(async move {
                    limiter.acquire().await;
                    start.elapsed()
                })
            })
            .collect();
        let mut ends = Vec::new();
        for task in tasks {
            ends.push(task.await.expect("task"));
        }
        ends.sort();
        // 30 requests at 10/s: the last starts 2.9 s after the first; no two share a slot.
        assert_eq!(ends.last(), Some(&Duration::from_millis(2900)));
        assert!(
            ends.windows(2)
                .all(|w| w[1] - w[0] == Duration::from_millis(100))
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_limiter_does_not_bank_a_burst() {
        let limiter = RateLimiter::per_second(10.0);
        limiter.acquire().await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        let start = Instant::now();
        limiter.acquire().await;
        limiter.acquire().await;
        assert_eq!(start.elapsed(), Duration::from_millis(100));
    }
}
