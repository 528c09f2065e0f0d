//! When to try an HTTP request again: exponential backoff (`base × 2^(attempt−1)`, capped),
//! overridden by the server's `Retry-After` (seconds or HTTP date) or `retry-after-ms` when it
//! sends one. Pure timing arithmetic; the request loop lives in `transport`.

use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;

/// Retry schedule for one provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// Delay before the first retry.
    pub base_delay: Duration,
    /// No single wait is longer than this, whatever the server asks.
    pub max_delay: Duration,
}

impl RetryPolicy {
    /// A policy with a one-minute cap.
    pub fn new(max_retries: u32, base_delay: Duration) -> Self {
        RetryPolicy {
            max_retries,
            base_delay,
            max_delay: Duration::from_secs(60),
        }
    }

    /// The backoff before retry number `retry` (1 for the first retry).
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }

    /// The wait before retry number `retry`: what the server asked for if it asked, else the
    /// backoff; capped either way.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        retry_after.map_or_else(|| self.backoff(retry), |wait| wait.min(self.max_delay))
    }
}

/// Parses a `Retry-After` value: delay-seconds or an HTTP date (relative to `now`).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    // Not in the RFC, but some proxies send fractional seconds.
    if let Ok(secs) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(secs).ok();
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The wait a response asks for: `retry-after-ms` (OpenAI, Azure) wins over `Retry-After`.
pub fn retry_after_from(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.trim().parse::<u64>().ok()) {
        return Some(Duration::from_millis(ms));
    }
    text("retry-after").and_then(|value| parse_retry_after(value, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy::new(5, Duration::from_millis(100))
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = RetryPolicy {
            max_delay: Duration::from_millis(500),
            ..policy()
        };
        let waits: Vec<u128> = (1..=5).map(|n| p.backoff(n).as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 500, 500]);
        assert_eq!(p.backoff(200), Duration::from_millis(500));
    }

    #[test]
    fn retry_after_overrides_backoff_but_not_the_cap() {
        let p = policy();
        assert_eq!(
            p.delay(1, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert_eq!(p.delay(3, None), Duration::from_millis(400));
        assert_eq!(p.delay(1, Some(Duration::from_secs(3600))), p.max_delay);
    }

    #[test]
    fn parses_seconds_and_http_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after("0.25", now),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn retry_after_ms_header_wins() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", "5".parse().unwrap());
        let now = SystemTime::now();
        assert_eq!(
            retry_after_from(&headers, now),
            Some(Duration::from_secs(5))
        );
        headers.insert("retry-after-ms", "40".parse().unwrap());
        assert_eq!(
            retry_after_from(&headers, now),
            Some(Duration::from_millis(40))
        );
        assert_eq!(retry_after_from(&HeaderMap::new(), now), None);
    }
}
