//! Token usage and latency per LLM role for one tick, stored with the tick record.

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
        r.calls += 1;
        r.prompt_tokens += c.usage.prompt_tokens;
        r.completion_tokens += c.usage.completion_tokens;
        r.estimated |= c.usage.estimated;
        r.latency_ms += c.latency_ms;
    }

    pub fn calls(&self) -> u32 {
        self.roles.values().map(|r| r.calls).sum()
    }

    pub fn total_tokens(&self) -> u32 {
        self.roles
            .values()
            .map(|r| r.prompt_tokens + r.completion_tokens)
            .sum()
    }
}
