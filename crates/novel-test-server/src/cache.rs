//! The prompt-cache imitation ([`crate::ServerOptions::cache_slots`]): like llama.cpp's
//! `llama-server`, the server keeps N slots, each holding the tokens (see `tokens`) of the last
//! prompt it served plus the answer it gave, and for each new prompt reports how many tokens it
//! found already there (`cache_n`) and how many it had to read (`prompt_n`).
//!
//! The slot for a request, as llama-server chooses it: the one its `id_slot` names, when in
//! range; else, among the slots holding something, the one sharing the longest common prefix
//! with the prompt, provided that prefix is more than a tenth of what the slot holds
//! (llama-server's default `--slot-prompt-similarity` of 0.1; without it every prompt would go
//! to the first slot for the few template tokens all prompts open with); else the least recently
//! used slot, the lowest-numbered among equals. The common prefix with that slot is cached,
//! except that a prompt found whole still costs its last token, which llama-server evaluates
//! again to get the logits the answer starts from. The slot then holds the new prompt.

use serde::{Deserialize, Serialize};

use crate::tokens::Token;

/// How fast the imitated model reads a prompt, for `timings`: a fixed speed, so the time
/// reported depends on the uncached tokens alone and tests can assert it.
pub const PROMPT_TOKENS_PER_SECOND: f64 = 100.0;

/// How fast the imitated model writes its answer, for `timings`.
pub const PREDICTED_TOKENS_PER_SECOND: f64 = 10.0;

/// The share of a slot's tokens a prompt must begin with to be served from it.
const SLOT_PROMPT_SIMILARITY: f64 = 0.1;

/// What the prompt cache did for one request; reported in the answer's `timings` and `usage`,
/// and kept in [`crate::RecordedRequest::cache`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheReport {
    /// The slot that served the request.
    pub slot: usize,
    /// Prompt tokens found in the slot (`timings.cache_n`, `usage.prompt_tokens_details.cached_tokens`).
    pub cache_n: u64,
    /// Prompt tokens read anew (`timings.prompt_n`).
    pub prompt_n: u64,
}

impl CacheReport {
    /// All the prompt's tokens, cached or not (`usage.prompt_tokens`).
    pub fn prompt_tokens(&self) -> u64 {
        self.cache_n.saturating_add(self.prompt_n)
    }

    /// The milliseconds reading the uncached tokens takes at [`PROMPT_TOKENS_PER_SECOND`].
    pub fn prompt_ms(&self) -> f64 {
        milliseconds(self.prompt_n, PROMPT_TOKENS_PER_SECOND)
    }
}

/// The time `tokens` take at `per_second`.
pub fn milliseconds(tokens: u64, per_second: f64) -> f64 {
    tokens as f64 * 1000.0 / per_second
}

/// The slots; with none the cache is off and nothing is reported.
#[derive(Debug, Default)]
pub struct PromptCache {
    slots: Vec<Slot>,
    /// Counts served requests, to order the slots by last use.
    clock: u64,
}

#[derive(Debug, Default, Clone)]
struct Slot {
    tokens: Vec<Token>,
    /// The `clock` when last used; 0 for never.
    last_used: u64,
}

impl PromptCache {
    /// `slots` empty slots; 0 turns the cache off.
    pub fn new(slots: usize) -> Self {
        PromptCache {
            slots: vec![Slot::default(); slots],
            clock: 0,
        }
    }

    /// Whether the cache is on.
    pub fn is_on(&self) -> bool {
        !self.slots.is_empty()
    }

    /// How many slots there are.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Serves `prompt` from a slot (the one `id_slot` names if in range), which then holds the
    /// prompt followed by `answer`; `None` when the cache is off.
    pub fn serve(
        &mut self,
        prompt: &[Token],
        answer: &[Token],
        id_slot: Option<i64>,
    ) -> Option<CacheReport> {
        if !self.is_on() {
            return None;
        }
        let index = id_slot
            .and_then(|id| usize::try_from(id).ok())
            .filter(|&id| id < self.slots.len())
            .or_else(|| self.most_similar(prompt))
            .unwrap_or_else(|| self.least_recently_used());
        self.clock += 1;
        let slot = &mut self.slots[index];
        let common = common_prefix(&slot.tokens, prompt);
        // A prompt found whole still has its last token evaluated, for the answer's logits.
        let cached = if common == prompt.len() {
            common.saturating_sub(1)
        } else {
            common
        };
        slot.tokens.clear();
        slot.tokens.extend_from_slice(prompt);
        slot.tokens.extend_from_slice(answer);
        slot.last_used = self.clock;
        Some(CacheReport {
            slot: index,
            cache_n: count(cached),
            prompt_n: count(prompt.len() - cached),
        })
    }

    /// The slot holding the longest common prefix with `prompt`, if it covers enough of it.
    fn most_similar(&self, prompt: &[Token]) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (index, slot) in self.slots.iter().enumerate() {
            if slot.tokens.is_empty() {
                continue;
            }
            let common = common_prefix(&slot.tokens, prompt);
            let similarity = common as f64 / slot.tokens.len() as f64;
            if common > best.map_or(0, |(_, longest)| longest)
                && similarity > SLOT_PROMPT_SIMILARITY
            {
                best = Some((index, common));
            }
        }
        best.map(|(index, _)| index)
    }

    fn least_recently_used(&self) -> usize {
        // `min_by_key` keeps the first of equals: the lowest-numbered slot.
        self.slots
            .iter()
            .enumerate()
            .min_by_key(|(_, slot)| slot.last_used)
            .map_or(0, |(index, _)| index)
    }
}

fn common_prefix(a: &[Token], b: &[Token]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn count(tokens: usize) -> u64 {
    u64::try_from(tokens).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prompt of `shared` tokens every prompt has, then `own` tokens of its own.
    fn prompt(shared: u64, own: u64, seed: u64) -> Vec<Token> {
        (0..shared)
            .chain((0..own).map(|i| seed * 1000 + i))
            .collect()
    }

    fn served(cache: &mut PromptCache, prompt: &[Token], id_slot: Option<i64>) -> CacheReport {
        cache.serve(prompt, &[], id_slot).unwrap()
    }

    #[test]
    fn off_reports_nothing() {
        let mut cache = PromptCache::new(0);
        assert!(!cache.is_on());
        assert_eq!(cache.serve(&[1, 2], &[], None), None);
    }

    #[test]
    fn a_repeated_prompt_is_cached_but_for_its_last_token() {
        let mut cache = PromptCache::new(1);
        let a = prompt(2, 20, 1);
        let first = served(&mut cache, &a, None);
        assert_eq!((first.cache_n, first.prompt_n), (0, 22));
        let again = served(&mut cache, &a, None);
        assert_eq!((again.cache_n, again.prompt_n), (21, 1));
        assert_eq!(again.prompt_tokens(), 22);
        assert!((again.prompt_ms() - 10.0).abs() < 1e-9);
        let mut longer = a.clone();
        longer.extend([7, 8]);
        assert_eq!(served(&mut cache, &longer, None).cache_n, 22);
    }

    #[test]
    fn two_slots_keep_two_prompts_and_one_slot_swaps_them() {
        let (a, b) = (prompt(2, 20, 1), prompt(2, 20, 2));
        let mut two = PromptCache::new(2);
        assert_eq!(served(&mut two, &a, None).slot, 0);
        let second = served(&mut two, &b, None);
        assert_eq!((second.slot, second.cache_n), (1, 0));
        let third = served(&mut two, &a, None);
        assert_eq!((third.slot, third.cache_n), (0, 21));

        let mut one = PromptCache::new(1);
        served(&mut one, &a, None);
        assert_eq!(served(&mut one, &b, None).cache_n, 2);
        assert_eq!(served(&mut one, &a, None).cache_n, 2);
    }

    #[test]
    fn a_similar_prompt_follows_its_slot_and_a_new_one_takes_the_oldest() {
        let mut cache = PromptCache::new(2);
        let (a, b) = (prompt(2, 20, 1), prompt(2, 20, 2));
        served(&mut cache, &a, None);
        served(&mut cache, &b, None);
        let mut a_more = a.clone();
        a_more.extend([5, 6, 7]);
        let followed = served(&mut cache, &a_more, None);
        assert_eq!((followed.slot, followed.cache_n), (0, 22));
        // Slot 1 (b) is now the least recently used.
        assert_eq!(served(&mut cache, &prompt(2, 20, 3), None).slot, 1);
    }

    #[test]
    fn id_slot_picks_the_slot_when_in_range() {
        let mut cache = PromptCache::new(2);
        let a = prompt(0, 10, 1);
        assert_eq!(served(&mut cache, &a, Some(1)).slot, 1);
        let elsewhere = served(&mut cache, &a, Some(0));
        assert_eq!((elsewhere.slot, elsewhere.cache_n), (0, 0));
        assert_eq!(served(&mut cache, &a, Some(1)).cache_n, 9);
        // Out of range or -1 (llama.cpp's "any"): chosen as usual.
        assert_eq!(served(&mut cache, &a, Some(7)).cache_n, 9);
        assert_eq!(served(&mut cache, &a, Some(-1)).cache_n, 9);
    }

    #[test]
    fn the_answer_stays_in_the_slot_for_the_next_turn() {
        let mut cache = PromptCache::new(1);
        let a = prompt(0, 10, 1);
        cache.serve(&a, &[900, 901], None);
        let mut next = a.clone();
        next.extend([900, 901, 902]);
        assert_eq!(served(&mut cache, &next, None).cache_n, 12);
    }
}
