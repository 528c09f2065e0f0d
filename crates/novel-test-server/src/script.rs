//! The script: an ordered list of rules deciding which reply answers which request, loadable
//! from a JSON file (either `{"rules": [...]}` or a bare `[...]` of rules).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::quirks::{Imitates, Quirks};
use crate::reply::Reply;

/// Model ids listed by `GET /v1/models` when the script names none.
pub const DEFAULT_MODEL: &str = "test-model";

/// Ordered rules plus the model list; the first rule that matches and has a reply answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Script {
    /// Tried in order for every chat-completions request.
    pub rules: Vec<Rule>,
    /// Ids listed by `GET /v1/models`.
    pub models: Vec<String>,
    /// The server-wide quirks: which real server it imitates, and how.
    pub quirks: Quirks,
}

/// Matches requests by a raw-body substring and answers them with its replies in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Matches when this occurs anywhere in the raw request body; `None` matches everything.
    #[serde(default)]
    pub when_contains: Option<String>,
    /// Consumed one per answered request.
    #[serde(default)]
    pub replies: Vec<Reply>,
    /// When the replies are used up, keep answering with the last one.
    #[serde(default = "default_repeat_last")]
    pub repeat_last: bool,
}

/// Why a script file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The file could not be read.
    #[error("cannot read script {path}: {source}")]
    Read {
        /// The script path.
        path: String,
        /// The I/O failure.
        source: std::io::Error,
    },
    /// The text is not a valid script.
    #[error("invalid script: {0}")]
    Parse(#[from] serde_json::Error),
}

fn default_repeat_last() -> bool {
    true
}

/// The object form of a script file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptObject {
    rules: Vec<Rule>,
    #[serde(default)]
    models: Vec<String>,
    #[serde(default)]
    quirks: Quirks,
}

// Hand-written rather than `#[serde(untagged)]` so that a typo deep inside a reply reports the
// real cause instead of "did not match any variant".
impl<'de> Deserialize<'de> for Script {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(deserializer)?;
        let (rules, models, quirks) = if value.is_array() {
            (
                serde_json::from_value(value).map_err(D::Error::custom)?,
                Vec::new(),
                Quirks::default(),
            )
        } else {
            let object: ScriptObject = serde_json::from_value(value).map_err(D::Error::custom)?;
            (object.rules, object.models, object.quirks)
        };
        let mut script = Script::new();
        script.rules = rules;
        script.quirks = quirks;
        if !models.is_empty() {
            script.models = models;
        }
        Ok(script)
    }
}

impl Default for Script {
    fn default() -> Self {
        Self::new()
    }
}

impl Script {
    /// An empty script: every chat request gets the loud "no scripted reply" 500.
    pub fn new() -> Self {
        Script {
            rules: Vec::new(),
            models: vec![DEFAULT_MODEL.to_string()],
            quirks: Quirks::default(),
        }
    }

    /// Serves the extra endpoints of the server `like` (see [`Imitates`]).
    pub fn like(mut self, like: Imitates) -> Self {
        self.quirks.like = like;
        self
    }

    /// The context length the imitated server reports for its models.
    pub fn context_length(mut self, tokens: u32) -> Self {
        self.quirks.context_length = Some(tokens);
        self
    }

    /// `GET /v1/models` answers 404.
    pub fn without_model_list(mut self) -> Self {
        self.quirks.no_model_list = true;
        self
    }

    /// Refuses chat requests carrying `param` with OpenAI's 400 naming it.
    pub fn rejecting(mut self, param: impl Into<String>) -> Self {
        self.quirks.rejects_params.push(param.into());
        self
    }

    /// Appends a rule (tried after the ones already added).
    pub fn rule(mut self, rule: Rule) -> Self {
        self.rules.push(rule);
        self
    }

    /// Replaces the model ids listed by `GET /v1/models`.
    pub fn models<I, S>(mut self, models: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.models = models.into_iter().map(Into::into).collect();
        self
    }

    /// Parses a script from JSON text.
    pub fn from_json_str(text: &str) -> Result<Script, ScriptError> {
        Ok(serde_json::from_str(text)?)
    }

    /// Reads and parses a script file.
    pub fn from_json_file(path: impl AsRef<Path>) -> Result<Script, ScriptError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_json_str(&text)
    }
}

impl Rule {
    /// A rule matching every request.
    pub fn any() -> Self {
        Rule {
            when_contains: None,
            replies: Vec::new(),
            repeat_last: true,
        }
    }

    /// A rule matching requests whose raw body contains `needle`.
    pub fn when(needle: impl Into<String>) -> Self {
        Rule {
            when_contains: Some(needle.into()),
            ..Rule::any()
        }
    }

    /// Appends one reply.
    pub fn reply(mut self, reply: impl Into<Reply>) -> Self {
        self.replies.push(reply.into());
        self
    }

    /// Appends several replies, answered in order.
    pub fn replies<I, R>(mut self, replies: I) -> Self
    where
        I: IntoIterator<Item = R>,
        R: Into<Reply>,
    {
        self.replies.extend(replies.into_iter().map(Into::into));
        self
    }

    /// Stops answering once the replies are used up, so later rules get the requests.
    pub fn no_repeat(mut self) -> Self {
        self.repeat_last = false;
        self
    }

    /// Whether this rule's condition holds for a raw request body.
    pub fn matches(&self, raw_body: &str) -> bool {
        self.when_contains
            .as_deref()
            .is_none_or(|needle| raw_body.contains(needle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_rule_list_defaults_repeat_last_and_models() {
        let script = Script::from_json_str(
            r#"[{"when_contains":"plan","replies":[{"type":"text","content":"p"}]}]"#,
        )
        .unwrap();
        assert_eq!(
            script,
            Script::new().rule(Rule::when("plan").reply(Reply::text("p")))
        );
        assert!(script.rules[0].repeat_last);
        assert_eq!(script.models, vec![DEFAULT_MODEL]);
    }

    #[test]
    fn object_form_keeps_models_and_repeat_flag() {
        let script = Script::from_json_str(
            r#"{"rules":[{"replies":[],"repeat_last":false}],"models":["m1","m2"]}"#,
        )
        .unwrap();
        assert_eq!(script.models, vec!["m1", "m2"]);
        assert!(!script.rules[0].repeat_last);
        assert_eq!(script.rules[0].when_contains, None);
    }

    #[test]
    fn quirks_load_from_the_object_form() {
        let script = Script::from_json_str(
            r#"{"rules":[],"quirks":{"like":"llama_cpp","context_length":4096,"no_model_list":true}}"#,
        )
        .unwrap();
        assert_eq!(
            script,
            Script::new()
                .like(Imitates::LlamaCpp)
                .context_length(4096)
                .without_model_list()
        );
    }

    #[test]
    fn invalid_script_is_an_error() {
        let err = Script::from_json_str(r#"[{"replies":[{"type":"nope"}]}]"#).unwrap_err();
        assert!(matches!(err, ScriptError::Parse(_)));
        assert!(err.to_string().contains("nope"), "{err}");
        let err = Script::from_json_file("/nonexistent/script.json").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/script.json"));
    }

    #[test]
    fn matching_is_a_raw_substring_test() {
        let rule = Rule::when("\"name\":\"plan\"");
        assert!(rule.matches(r#"{"tools":[{"name":"plan"}]}"#));
        assert!(!rule.matches(r#"{"tools":[{"name": "plan"}]}"#));
        assert!(Rule::any().matches(""));
    }
}
