//! The generation-settings flags of `novel providers add` and `novel providers set` applied to
//! a profile: sampling, context length, timeout, structured output, tokenizer file, prices, and
//! `--unset` to remove one. The profile is validated by the caller before it is saved.

use anyhow::{Context, Result};
use novel_llm::{Capabilities, Prices, ProviderProfile};

use crate::cli::{SettingArg, SettingsArgs};

/// Applies `args` to `profile`: removals first, so `--unset prices --price-prompt …` replaces.
pub fn apply(profile: &mut ProviderProfile, args: &SettingsArgs) -> Result<()> {
    for setting in &args.unset {
        match setting {
            SettingArg::Temperature => profile.temperature = None,
            SettingArg::TopP => profile.top_p = None,
            SettingArg::MaxOutputTokens => profile.max_output_tokens = None,
            SettingArg::ContextLength => profile.context_length = None,
            SettingArg::TokenizerFile => profile.tokenizer_file = None,
            SettingArg::Prices => profile.prices = None,
            SettingArg::Capabilities => profile.capabilities = Capabilities::default(),
        }
    }
    if let Some(t) = args.temperature {
        profile.temperature = Some(t);
    }
    if let Some(p) = args.top_p {
        profile.top_p = Some(p);
    }
    if let Some(n) = args.max_output_tokens {
        profile.max_output_tokens = Some(n);
    }
    if let Some(n) = args.context_length {
        profile.context_length = Some(n);
    }
    if let Some(secs) = args.timeout_secs {
        profile.timeout_secs = secs;
    }
    if let Some(mode) = args.structured_output {
        profile.structured_output = mode.into();
    }
    if let Some(path) = &args.tokenizer_file {
        // Stored absolute: the profile is used from any novel's folder.
        let path = std::path::absolute(path)
            .with_context(|| format!("cannot resolve {}", path.display()))?;
        profile.tokenizer_file = Some(path.to_string_lossy().into_owned());
        novel_llm::token_counter_checked(profile)?;
    }
    if let (Some(prompt), Some(completion)) = (args.price_prompt, args.price_completion) {
        profile.prices = Some(Prices {
            prompt_per_million: prompt,
            completion_per_million: completion,
            cached_prompt_per_million: args.price_cached,
            cache_write_per_million: args.price_cache_write,
        });
    }
    Ok(())
}

/// The profile's settings in one line, for `providers list` and `providers set`.
pub fn describe(p: &ProviderProfile) -> String {
    let mut parts = Vec::new();
    if let Some(t) = p.temperature {
        parts.push(format!("temperature {t}"));
    }
    if let Some(t) = p.top_p {
        parts.push(format!("top_p {t}"));
    }
    if let Some(n) = p.max_output_tokens {
        parts.push(format!("max output {n} tokens"));
    }
    if let Some(n) = p.context_length {
        parts.push(format!("context {n} tokens"));
    }
    if !p.structured_output.is_auto() {
        parts.push(format!(
            "structured output {}",
            p.structured_output.as_str()
        ));
    }
    if let Some(prices) = p.prices {
        parts.push(format!(
            "{} / {} per million tokens in / out",
            prices.prompt_per_million, prices.completion_per_million
        ));
        if let Some(cached) = prices.cached_prompt_per_million {
            parts.push(format!("{cached} per million cached tokens"));
        }
        if let Some(write) = prices.cache_write_per_million {
            parts.push(format!("{write} per million tokens written to the cache"));
        }
    }
    if p.capabilities.refuses_temperature() {
        parts.push("no temperature (the server refuses it)".into());
    }
    parts.join(", ")
}
