//! "Test connection": one small structured request that shows whether a configured model
//! answers, as which model, how fast, and whether it follows a JSON Schema on the first try.
//! [`test_profile`] also probes what an OpenAI-compatible server accepts (`json_schema`,
//! `json_object`, `temperature`), how tokens will be counted and the model's context length,
//! and returns the profile with what it found recorded, for the caller to save. Shared by
//! `novel providers test` and the desktop app's settings.

use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::connect::build;
use crate::error::LlmError;
use crate::model::LanguageModel;
use crate::model_list::list_with_key;
use crate::profile::key_policy::resolve_key_with;
use crate::profile::keychain::KeychainOpener;
use crate::profile::provider::{ProviderKind, ProviderProfile};
use crate::profile::settings::{Capabilities, StructuredOutput};
use crate::providers::openai::{Feature, OpenAiModel};
use crate::structured::{complete_structured, validator_from_schema};
use crate::tokens::counter::{TokenSource, calibrated_ratio, token_counter};
use crate::types::{ChatRequest, Usage};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProbeReport {
    pub profile: String,
    pub kind: String,
    /// The model the server says answered (may differ from the one asked for).
    pub model: String,
    pub latency_ms: u32,
    /// The answer was valid JSON for the schema as it came: no repair request and no local
    /// repair of its syntax.
    pub structured_output: bool,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// What the server accepts, where the test could check (OpenAI-compatible servers).
    pub capabilities: Capabilities,
    /// How the profile will ask for JSON, after what was found.
    pub json_mode: StructuredOutput,
    /// How the profile's tokens will be counted.
    pub tokens: TokenSource,
    /// The model's context window, as the profile has it or the server reports it.
    pub context_length: Option<u32>,
}

/// What a connection test found, and the profile with it recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileTest {
    pub report: ProbeReport,
    /// The profile with its capabilities (and a context length it lacked) filled in.
    pub profile: ProviderProfile,
    /// Whether `profile` differs from the one tested: worth saving.
    pub changed: bool,
}

/// Tests `profile`: what its server accepts, its model's context length, how its tokens are
/// counted, and the probe request with the settings that result. Nothing is saved here.
pub async fn test_profile(
    profile: &ProviderProfile,
    env: &dyn Fn(&str) -> Option<String>,
    keychain: KeychainOpener<'_>,
) -> Result<ProfileTest, LlmError> {
    profile.validate()?;
    let key = match profile.kind {
        ProviderKind::Command => None,
        _ => resolve_key_with(profile, env, keychain)?,
    };
    let mut tested = profile.clone();
    if matches!(
        profile.kind,
        ProviderKind::OpenAiCompatible | ProviderKind::Ollama
    ) {
        let raw = OpenAiModel::new(profile, key.clone())?;
        tested.capabilities = Capabilities {
            json_schema: Some(raw.accepts(Feature::JsonSchema).await?),
            json_object: Some(raw.accepts(Feature::JsonObject).await?),
            temperature: Some(raw.accepts(Feature::Temperature).await?),
        };
    }
    if tested.context_length.is_none()
        && let Ok(list) = list_with_key(profile, key.as_ref()).await
    {
        tested.context_length = list
            .models
            .iter()
            .find(|m| m.id == profile.model)
            .and_then(|m| m.context_length);
    }
    let model = build(&tested, key)?;
    let mut report = probe(&*model).await?;
    let counter = token_counter(&tested);
    calibrated_ratio(&*counter).await;
    report.capabilities = tested.capabilities;
    report.json_mode = tested
        .structured_output
        .pinned()
        .unwrap_or_else(|| tested.capabilities.strongest_mode())
        .into();
    report.tokens = counter.source();
    report.context_length = tested.context_length;
    Ok(ProfileTest {
        report,
        changed: tested != *profile,
        profile: tested,
    })
}

/// Sends the probe request to `model`.
pub async fn probe(model: &dyn LanguageModel) -> Result<ProbeReport, LlmError> {
    let info = model.describe();
    let schema = json!({
        "type": "object",
        "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"]
    });
    let request = ChatRequest::new("Reply with the JSON object {\"ok\": true} and nothing else.")
        .with_max_tokens(20)
        .with_json_schema("connection_test", schema.clone());
    let validator = validator_from_schema(&schema)?;
    let started = Instant::now();
    let done = complete_structured(model, &request, &validator).await?;
    let latency_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
    let usage = done
        .completions
        .iter()
        .fold(Usage::default(), |mut total, c| {
            // Server-reported counts are untrusted: adding two near u32::MAX must not panic.
            total.prompt_tokens = total.prompt_tokens.saturating_add(c.usage.prompt_tokens);
            total.completion_tokens = total
                .completion_tokens
                .saturating_add(c.usage.completion_tokens);
            total
        });
    let answered_as = done
        .completions
        .last()
        .map_or_else(|| info.model.clone(), |c| c.model.clone());
    Ok(ProbeReport {
        profile: info.profile,
        kind: info.kind,
        model: answered_as,
        latency_ms,
        structured_output: !done.repaired && done.repaired_locally.is_empty(),
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        capabilities: Capabilities::default(),
        json_mode: StructuredOutput::Auto,
        tokens: TokenSource::Estimate,
        context_length: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScriptedModel;

    #[tokio::test]
    async fn a_model_that_needs_a_repair_does_not_count_as_structured() {
        let clean = ScriptedModel::new().reply("{\"ok\": true}");
        assert!(probe(&clean).await.unwrap().structured_output);
        let sloppy = ScriptedModel::new()
            .reply("sure thing!")
            .reply("{\"ok\": true}");
        let report = probe(&sloppy).await.unwrap();
        assert!(!report.structured_output);
        assert_eq!(sloppy.calls(), 2);
        assert!(probe(&ScriptedModel::new()).await.is_err());
    }

    #[tokio::test]
    async fn usage_near_the_maximum_adds_up_without_overflow() {
        let huge = Usage {
            prompt_tokens: u32::MAX - 1,
            completion_tokens: u32::MAX,
            estimated: false,
            ..Usage::default()
        };
        let model = ScriptedModel::new()
            .reply_with_usage("nope", huge)
            .reply_with_usage("{\"ok\": true}", huge);
        let report = probe(&model).await.unwrap();
        assert_eq!(
            (report.prompt_tokens, report.completion_tokens),
            (u32::MAX, u32::MAX)
        );
    }

    #[tokio::test]
    async fn a_locally_repaired_answer_does_not_count_as_structured() {
        let model = ScriptedModel::new().reply("{\"ok\": true,}");
        let report = probe(&model).await.unwrap();
        assert!(!report.structured_output);
        assert_eq!(model.calls(), 1);
    }
}
