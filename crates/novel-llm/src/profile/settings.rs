//! A profile's generation settings and what its server was found to accept: sampling
//! (temperature, top_p, a ceiling on output tokens), how to ask for JSON ([`StructuredOutput`]:
//! `auto` steps down as the server refuses, the others pin one way), and the [`Capabilities`]
//! `novel providers test` recorded. [`Sampling::apply`] puts the sampling settings on every
//! request the profile's model sends (see `connect`). What a profile's calls cost is `prices`.

use serde::{Deserialize, Serialize};

use crate::json::mode::StructuredMode;
use crate::types::ChatRequest;

/// How a profile asks its server for JSON answers.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructuredOutput {
    /// The strongest way the server accepts, stepping down (json_schema → json_object →
    /// prompt-only) when it refuses one, and starting from what `providers test` found.
    #[default]
    Auto,
    /// Always `response_format: json_schema`; a refusal is an error.
    JsonSchema,
    /// Always `response_format: json_object`, the schema in the prompt.
    JsonObject,
    /// Nothing on the wire: the schema goes in the prompt.
    PromptOnly,
}

impl StructuredOutput {
    pub fn is_auto(&self) -> bool {
        *self == StructuredOutput::Auto
    }

    /// The mode this setting pins, `None` for `auto`.
    pub fn pinned(self) -> Option<StructuredMode> {
        match self {
            StructuredOutput::Auto => None,
            StructuredOutput::JsonSchema => Some(StructuredMode::JsonSchema),
            StructuredOutput::JsonObject => Some(StructuredMode::JsonObject),
            StructuredOutput::PromptOnly => Some(StructuredMode::PromptOnly),
        }
    }

    /// The name in `providers.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            StructuredOutput::Auto => "auto",
            StructuredOutput::JsonSchema => "json_schema",
            StructuredOutput::JsonObject => "json_object",
            StructuredOutput::PromptOnly => "prompt_only",
        }
    }
}

impl From<StructuredMode> for StructuredOutput {
    fn from(mode: StructuredMode) -> Self {
        match mode {
            StructuredMode::JsonSchema => StructuredOutput::JsonSchema,
            StructuredMode::JsonObject => StructuredOutput::JsonObject,
            StructuredMode::PromptOnly => StructuredOutput::PromptOnly,
        }
    }
}

/// What the profile's server was found to accept (by `novel providers test` or the app's Test
/// connection); `None` is "not checked".
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Capabilities {
    /// `response_format: {"type": "json_schema"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json_schema: Option<bool>,
    /// `response_format: {"type": "json_object"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json_object: Option<bool>,
    /// The `temperature` parameter (OpenAI's reasoning models refuse it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<bool>,
}

impl Capabilities {
    pub fn is_unknown(&self) -> bool {
        *self == Capabilities::default()
    }

    /// Where `auto` starts: the strongest mode not known to be refused.
    pub fn strongest_mode(&self) -> StructuredMode {
        match (self.json_schema, self.json_object) {
            (Some(false), Some(false)) => StructuredMode::PromptOnly,
            (Some(false), _) => StructuredMode::JsonObject,
            _ => StructuredMode::JsonSchema,
        }
    }

    /// The server is known to refuse `temperature`.
    pub fn refuses_temperature(&self) -> bool {
        self.temperature == Some(false)
    }
}

/// The sampling settings of a profile, applied to each request that does not set its own.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sampling {
    pub temperature: Option<f32>,
    pub top_p: Option<f32>,
    /// A ceiling on the answer's length: a request asking for more gets this many.
    pub max_output_tokens: Option<u32>,
}

impl Sampling {
    pub fn is_empty(&self) -> bool {
        *self == Sampling::default()
    }

    /// `req` with the profile's temperature and top_p where it sets none, and its token limit
    /// held to the ceiling. Applying twice changes nothing more.
    pub fn apply(&self, req: &ChatRequest) -> ChatRequest {
        let mut out = req.clone();
        out.temperature = out.temperature.or(self.temperature);
        out.top_p = out.top_p.or(self.top_p);
        if let Some(ceiling) = self.max_output_tokens {
            out.max_tokens = Some(out.max_tokens.map_or(ceiling, |asked| asked.min(ceiling)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_fills_gaps_caps_the_limit_and_is_idempotent() {
        let sampling = Sampling {
            temperature: Some(0.7),
            top_p: Some(0.9),
            max_output_tokens: Some(1000),
        };
        let req = ChatRequest::new("x")
            .with_temperature(0.2)
            .with_max_tokens(4000);
        let applied = sampling.apply(&req);
        assert_eq!(applied.temperature, Some(0.2), "the request's own wins");
        assert_eq!(applied.top_p, Some(0.9));
        assert_eq!(applied.max_tokens, Some(1000));
        assert_eq!(sampling.apply(&applied), applied);
        let small = sampling.apply(&ChatRequest::new("x").with_max_tokens(20));
        assert_eq!(small.max_tokens, Some(20), "a smaller ask is kept");
        assert_eq!(
            sampling.apply(&ChatRequest::new("x")).max_tokens,
            Some(1000)
        );
    }

    #[test]
    fn capabilities_choose_where_auto_starts() {
        let unknown = Capabilities::default();
        assert_eq!(unknown.strongest_mode(), StructuredMode::JsonSchema);
        let no_schema = Capabilities {
            json_schema: Some(false),
            ..unknown
        };
        assert_eq!(no_schema.strongest_mode(), StructuredMode::JsonObject);
        let neither = Capabilities {
            json_object: Some(false),
            ..no_schema
        };
        assert_eq!(neither.strongest_mode(), StructuredMode::PromptOnly);
    }
}
