//! Token usage and latency per LLM role for one tick, stored with the tick record. All sums
//! saturate: a server may report any number, and a count is not worth a panic.

use std::collections::BTreeMap;

use novel_llm::Completion;
use serde::{Deserialize, Serialize};

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleUsage {
    pub calls: u32,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// True when any call's numbers were counted locally because the server sent none.
    pub estimated: bool,
    // Milliseconds of one tick's calls fit a JS number; specta refuses u64 without being told.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub latency_ms: u64,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TickUsage {
    pub roles: BTreeMap<String, RoleUsage>,
}

impl TickUsage {
    pub fn record(&mut self, role: &str, c: &Completion) {
        let r = self.roles.entry(role.to_string()).or_default();
        // Servers report what they like; a count near u32::MAX must not overflow the sum.
        r.calls = r.calls.saturating_add(1);
        r.prompt_tokens = r.prompt_tokens.saturating_add(c.usage.prompt_tokens);
        r.completion_tokens = r
            .completion_tokens
            .saturating_add(c.usage.completion_tokens);
        r.estimated |= c.usage.estimated;
        r.latency_ms = r.latency_ms.saturating_add(c.latency_ms);
    }

    pub fn calls(&self) -> u32 {
        self.roles
            .values()
            .fold(0u32, |sum, r| sum.saturating_add(r.calls))
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
            },
            finish_reason: FinishReason::Stop,
            model: "m".into(),
            latency_ms: u64::MAX,
        }
    }

    #[test]
    fn huge_counts_saturate_instead_of_overflowing() {
        let mut usage = TickUsage::default();
        usage.record("writer", &completion(u32::MAX, u32::MAX));
        usage.record("writer", &completion(u32::MAX, 5));
        usage.record("planner", &completion(u32::MAX, 1));
        assert_eq!(usage.total_tokens(), u32::MAX);
        assert_eq!(usage.roles["writer"].prompt_tokens, u32::MAX);
        assert_eq!(usage.roles["writer"].latency_ms, u64::MAX);
        assert_eq!(usage.calls(), 3);
    }
}
