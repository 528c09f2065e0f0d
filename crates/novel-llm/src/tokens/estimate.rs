//! Token counting for servers that report no usage. Uses tiktoken's `o200k_base` encoding
//! (embedded in the crate, no download): exact for current OpenAI models and a close, honest
//! estimate for others, which is why such usage is marked `estimated`.

use tiktoken_rs::o200k_base_singleton;

use crate::types::{ChatRequest, Usage};

/// Chat formats wrap each message in a few tokens of markup (role, separators); OpenAI's
/// documented figure is three per message plus three to prime the reply.
pub(crate) const PER_MESSAGE: u32 = 3;
pub(crate) const REPLY_PRIMING: u32 = 3;

/// Tokens in `text`.
pub fn count_tokens(text: &str) -> u32 {
    if text.is_empty() {
        return 0;
    }
    let count = o200k_base_singleton().encode_ordinary(text).len();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// Tokens the prompt of `req` takes: system prompt and messages with their markup.
pub fn estimate_prompt_tokens(req: &ChatRequest) -> u32 {
    let system = req.system.iter().map(|s| s.as_str());
    let messages = req.messages.iter().map(|m| m.content.as_str());
    system
        .chain(messages)
        .map(|text| PER_MESSAGE.saturating_add(count_tokens(text)))
        .fold(REPLY_PRIMING, u32::saturating_add)
}

/// Usage for `req` answered with `completion`, counted by us.
pub fn estimate_usage(req: &ChatRequest, completion: &str) -> Usage {
    Usage {
        prompt_tokens: estimate_prompt_tokens(req),
        completion_tokens: count_tokens(completion),
        estimated: true,
        ..Usage::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_real_bpe_tokens_not_words() {
        assert_eq!(count_tokens(""), 0);
        assert_eq!(count_tokens("hello"), 1);
        // A rare word splits into several tokens; a word counter would say 1.
        assert!(count_tokens("antidisestablishmentarianism") > 1);
        let prose = "She walked to the harbour, where the boats were sleeping.";
        let words = prose.split_whitespace().count() as u32;
        assert!(count_tokens(prose) >= words);
    }

    #[test]
    fn prompt_estimate_adds_markup_per_message() {
        let bare = ChatRequest::new("hello");
        assert_eq!(
            estimate_prompt_tokens(&bare),
            REPLY_PRIMING + PER_MESSAGE + 1
        );
        let with_system = bare.clone().with_system("hello");
        assert_eq!(
            estimate_prompt_tokens(&with_system),
            estimate_prompt_tokens(&bare) + PER_MESSAGE + 1
        );
        let usage = estimate_usage(&bare, "hello hello");
        assert!(usage.estimated);
        assert_eq!(usage.completion_tokens, 2);
    }
}
