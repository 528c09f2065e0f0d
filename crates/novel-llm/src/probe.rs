//! "Test connection": one small structured request that shows whether a configured model
//! answers, as which model, how fast, and whether it follows a JSON Schema on the first try.
//! Shared by `novel providers test` and the desktop app's settings.

use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::error::LlmError;
use crate::model::LanguageModel;
use crate::structured::{complete_structured, validator_from_schema};
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
