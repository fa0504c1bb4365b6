//! When to try a request again, and how long to wait first. Pure.

use std::time::{Duration, SystemTime};

/// Retries for 429, 5xx and network errors: exponential backoff from `base`, at most
/// `cap` per wait, at most `attempts` tries in all. A 429's `retry-after` is honoured up to
/// `max_retry_after`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub attempts: u32,
    pub base: Duration,
    pub cap: Duration,
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 6,
            base: Duration::from_millis(250),
            cap: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt number `attempt` (1-based): base, 2·base, 4·base, …
    /// up to the cap. No jitter: requests are already spread by the concurrency bound and
    /// the rate limit, and a deterministic wait is testable.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// The wait a 429 asks for (falling back to the backoff), within the policy's bound.
    pub fn after_429(&self, attempt: u32, retry_after: Option<&str>, now: SystemTime) -> Duration {
        retry_after
            .and_then(|value| parse_retry_after(value, now))
            .unwrap_or_else(|| self.backoff(attempt))
            .min(self.max_retry_after)
    }
}

/// `retry-after`: delta-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`).
/// A date in the past means no wait.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    // IMF-fixdate, the form HTTP requires senders to use (and the two obsolete forms).
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let policy = RetryPolicy {
            attempts: 10,
            base: Duration::from_millis(100),
            cap: Duration::from_millis(1000),
            max_retry_after: Duration::from_secs(5),
        };
        let waits: Vec<u128> = (1..=6).map(|a| policy.backoff(a).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(policy.backoff(200), Duration::from_millis(1000));
    }

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        let now = UNIX_EPOCH + Duration::from_secs(1_445_412_470); // 2015-10-21 07:27:50
        let check = |value: &str| parse_retry_after(value, now);
        assert_eq!(check("3"), Some(Duration::from_secs(3)));
        assert_eq!(check(" 0 "), Some(Duration::ZERO));
        assert_eq!(
            check("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::from_secs(10))
        );
        assert_eq!(check("Wed, 21 Oct 2015 07:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(check("soon"), None);
        assert_eq!(check("Wed, 32 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(
            check("Wednesday, 21-Oct-15 07:28:00 GMT"),
            Some(Duration::from_secs(10))
        );
        assert_eq!(check("-1"), None);
    }

    #[test]
    fn a_429_wait_is_bounded() {
        let policy = RetryPolicy::default();
        let now = SystemTime::now();
        assert_eq!(policy.after_429(1, Some("2"), now), Duration::from_secs(2));
        assert_eq!(
            policy.after_429(1, Some("99999"), now),
            policy.max_retry_after
        );
        assert_eq!(policy.after_429(3, None, now), policy.backoff(3));
    }
}
