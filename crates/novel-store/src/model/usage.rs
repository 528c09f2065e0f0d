//! Token usage, cost, latency and the answering model per LLM role for one tick, stored with
//! the tick record (so the timeline shows which model did what and what it cost). All sums
//! saturate: a server may report any number, and a count is not worth a panic.

use std::collections::BTreeMap;

use novel_llm::{Completion, Prices};
use serde::{Deserialize, Serialize};

use crate::config::Role;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleUsage {
    pub calls: u32,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// Of `prompt_tokens`, those the server read from its prompt cache.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub cached_tokens: u32,
    /// Of `prompt_tokens`, those written to the server's cache (Anthropic).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub cache_write_tokens: u32,
    /// The server's own prompt-reading time, summed over the calls that reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill_ms: Option<u32>,
    /// True when any call's numbers were counted locally because the server sent none.
    pub estimated: bool,
    // Milliseconds of one tick's calls fit a JS number; specta refuses u64 without being told.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub latency_ms: u64,
    /// The model that answered, as the server named it (the last call's, cleaned of control
    /// characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// What the calls cost at the profile's prices; 0 for a profile without prices.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cost: f64,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// Longest model name kept: a server may send anything.
const MODEL_NAME_CHARS: usize = 120;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TickUsage {
    /// Keyed by role name, as stored: a record naming a role this build does not know fails
    /// to read, like any other malformed record.
    pub roles: BTreeMap<Role, RoleUsage>,
}

impl TickUsage {
    /// Adds one call of `role`, priced at `prices` (the role's model's, if it has any).
    pub fn record(&mut self, role: Role, c: &Completion, prices: Option<Prices>) {
        let r = self.roles.entry(role).or_default();
        if let Some(p) = prices {
            let cost = p.cost_of(&c.usage);
            if cost.is_finite() {
                r.cost += cost;
            }
        }
        let name: String = crate::text::clean_line(&c.model)
            .chars()
            .take(MODEL_NAME_CHARS)
            .collect();
        if !name.is_empty() {
            r.model = Some(name);
        }
        // Servers report what they like; a count near u32::MAX must not overflow the sum.
        r.calls = r.calls.saturating_add(1);
        r.prompt_tokens = r.prompt_tokens.saturating_add(c.usage.prompt_tokens);
        r.completion_tokens = r
            .completion_tokens
            .saturating_add(c.usage.completion_tokens);
        r.estimated |= c.usage.estimated;
        r.cached_tokens = r.cached_tokens.saturating_add(c.usage.cached_tokens);
        r.cache_write_tokens = r
            .cache_write_tokens
            .saturating_add(c.usage.cache_write_tokens);
        if let Some(ms) = c.usage.prefill_ms {
            r.prefill_ms = Some(r.prefill_ms.unwrap_or(0).saturating_add(ms));
        }
        r.latency_ms = r.latency_ms.saturating_add(c.latency_ms);
    }

    pub fn calls(&self) -> u32 {
        self.roles
            .values()
            .fold(0u32, |sum, r| sum.saturating_add(r.calls))
    }

    /// What the tick's calls cost at their profiles' prices.
    pub fn cost(&self) -> f64 {
        self.roles.values().map(|r| r.cost).sum()
    }

    /// Each role's answering model, `planner: m1, writer: m2`, for a summary line.
    pub fn models(&self) -> String {
        self.roles
            .iter()
            .filter_map(|(role, r)| r.model.as_ref().map(|m| format!("{role}: {m}")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Prompt tokens of every call, and how many of them the servers read from their caches.
    pub fn prompt_and_cached(&self) -> (u32, u32) {
        self.roles.values().fold((0u32, 0u32), |(p, c), r| {
            (
                p.saturating_add(r.prompt_tokens),
                c.saturating_add(r.cached_tokens),
            )
        })
    }

    pub fn total_tokens(&self) -> u32 {
        self.roles.values().fold(0u32, |sum, r| {
            sum.saturating_add(r.prompt_tokens)
                .saturating_add(r.completion_tokens)
        })
    }
}

#[cfg(test)]
mod tests {
    use novel_llm::{Completion, FinishReason, Usage};

    use super::*;

    fn completion(prompt: u32, completion: u32) -> Completion {
        Completion {
            text: String::new(),
            usage: Usage {
                prompt_tokens: prompt,
                completion_tokens: completion,
                estimated: false,
                ..Usage::default()
            },
            finish_reason: FinishReason::Stop,
            model: "m".into(),
            latency_ms: u64::MAX,
        }
    }

    #[test]
    fn huge_counts_saturate_instead_of_overflowing() {
        let mut usage = TickUsage::default();
        usage.record(Role::Writer, &completion(u32::MAX, u32::MAX), None);
        usage.record(Role::Writer, &completion(u32::MAX, 5), None);
        usage.record(Role::Planner, &completion(u32::MAX, 1), None);
        assert_eq!(usage.total_tokens(), u32::MAX);
        assert_eq!(usage.roles[&Role::Writer].prompt_tokens, u32::MAX);
        assert_eq!(usage.roles[&Role::Writer].latency_ms, u64::MAX);
        assert_eq!(usage.calls(), 3);
    }

    #[test]
    fn cost_follows_the_prices_and_the_answering_model_is_kept_clean() {
        let prices = Prices {
            prompt_per_million: 2.0,
            completion_per_million: 10.0,
            ..Prices::default()
        };
        let mut usage = TickUsage::default();
        let mut c = completion(1_000_000, 100_000);
        c.model = "qwen\u{1b}[31m-7b".into();
        usage.record(Role::Planner, &c, Some(prices));
        usage.record(Role::Writer, &completion(500, 500), None);
        assert!((usage.cost() - 3.0).abs() < 1e-9, "{}", usage.cost());
        assert_eq!(usage.roles[&Role::Writer].cost, 0.0);
        assert_eq!(
            usage.roles[&Role::Planner].model.as_deref(),
            Some("qwen-7b")
        );
        assert_eq!(usage.models(), "planner: qwen-7b, writer: m");
    }

    #[test]
    fn cached_prompt_tokens_are_summed_and_priced_at_the_cached_rate() {
        let prices = Prices {
            prompt_per_million: 2.0,
            completion_per_million: 10.0,
            cached_prompt_per_million: Some(0.5),
            cache_write_per_million: None,
        };
        let mut usage = TickUsage::default();
        let mut c = completion(1_000_000, 0);
        c.usage.cached_tokens = 800_000;
        c.usage.prefill_ms = Some(1200);
        usage.record(Role::Planner, &c, Some(prices));
        usage.record(Role::Planner, &c, Some(prices));
        let planner = &usage.roles[&Role::Planner];
        assert_eq!(
            (planner.prompt_tokens, planner.cached_tokens),
            (2_000_000, 1_600_000)
        );
        assert_eq!(planner.prefill_ms, Some(2400));
        assert_eq!(usage.prompt_and_cached(), (2_000_000, 1_600_000));
        // 200k fresh at 2.0 plus 800k cached at 0.5, twice.
        assert!((usage.cost() - 1.6).abs() < 1e-9, "{}", usage.cost());
    }
}
