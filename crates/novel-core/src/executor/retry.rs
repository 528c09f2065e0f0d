//! The retry policy: how many attempts an action gets and how long to wait
//! between them (`backoff × 2^(attempt − 1)`).

use std::time::Duration;

/// Attempts and backoff for transient failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts, the first one included; must be at least 1.
    pub max_attempts: u32,
    /// Base delay before the first retry.
    pub backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 3,
            backoff: Duration::from_millis(100),
        }
    }
}

impl RetryPolicy {
    /// The wait after the 1-indexed `failed_attempt`: 100 ms, 200 ms, 400 ms … for the default.
    /// Saturates rather than overflowing, since a huge policy should wait long, not panic.
    pub fn delay_after(&self, failed_attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(failed_attempt.saturating_sub(1));
        self.backoff.saturating_mul(factor)
    }

    /// Whether `attempt` (1-indexed) used up the budget.
    pub fn exhausted(&self, attempt: u32) -> bool {
        attempt >= self.max_attempts
    }
}
