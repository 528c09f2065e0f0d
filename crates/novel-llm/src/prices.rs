//! What a model's calls cost: [`Prices`] per million tokens, with cached prompt reads and cache
//! writes at their own rates. A profile carries them, a model reports them and a budget
//! ([`crate::metered`]) charges by them; a model without prices is free (a local server).

use serde::{Deserialize, Serialize};

use crate::types::Usage;

/// What a profile's calls cost, per million tokens (in the provider's currency, usually US
/// dollars). A profile without prices is counted as free: a local server.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prices {
    /// Per million prompt (input) tokens.
    pub prompt_per_million: f64,
    /// Per million completion (output) tokens.
    pub completion_per_million: f64,
    /// Per million prompt tokens read from the server's cache; unset means the prompt price
    /// (a server that bills no discount, or one we were not told of).
    #[serde(default)]
    pub cached_prompt_per_million: Option<f64>,
    /// Per million prompt tokens written to the cache (Anthropic bills these above the input
    /// price); unset means the prompt price.
    #[serde(default)]
    pub cache_write_per_million: Option<f64>,
}

impl Prices {
    /// The cost of `prompt` and `completion` tokens, none of them cached.
    pub fn cost(&self, prompt: u64, completion: u64) -> f64 {
        (prompt as f64 * self.prompt_per_million + completion as f64 * self.completion_per_million)
            / 1_000_000.0
    }

    /// The cost of one call: cached reads and cache writes at their own rates, the rest of the
    /// prompt at the prompt price.
    pub fn cost_of(&self, usage: &Usage) -> f64 {
        let cached = u64::from(usage.cached_tokens.min(usage.prompt_tokens));
        let written = u64::from(
            usage
                .cache_write_tokens
                .min(usage.prompt_tokens.saturating_sub(usage.cached_tokens)),
        );
        let fresh = u64::from(usage.prompt_tokens) - cached - written;
        let cached_rate = self
            .cached_prompt_per_million
            .unwrap_or(self.prompt_per_million);
        let write_rate = self
            .cache_write_per_million
            .unwrap_or(self.prompt_per_million);
        self.cost(fresh, u64::from(usage.completion_tokens))
            + (cached as f64 * cached_rate + written as f64 * write_rate) / 1_000_000.0
    }

    /// Every price is finite and not negative.
    pub fn is_valid(&self) -> bool {
        [
            Some(self.prompt_per_million),
            Some(self.completion_per_million),
            self.cached_prompt_per_million,
            self.cache_write_per_million,
        ]
        .iter()
        .flatten()
        .all(|p| p.is_finite() && *p >= 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_per_million_tokens() {
        let prices = Prices {
            prompt_per_million: 3.0,
            completion_per_million: 15.0,
            ..Default::default()
        };
        let cost = prices.cost(2_000, 1_000);
        assert!((cost - 0.021).abs() < 1e-12, "{cost}");
        assert!(
            !Prices {
                prompt_per_million: -1.0,
                ..prices
            }
            .is_valid()
        );
        assert!(
            !Prices {
                completion_per_million: f64::NAN,
                ..prices
            }
            .is_valid()
        );
    }
}
