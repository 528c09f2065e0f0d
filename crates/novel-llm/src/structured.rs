//! Structured (JSON) answers with graceful degradation. Providers try the strongest way of
//! asking for JSON their server accepts ([`StructuredMode`](crate::json::mode::StructuredMode)),
//! step down when the server rejects it and remember that; [`complete_structured`] then
//! extracts and validates the object and tries a local repair of unambiguous syntax mistakes,
//! and only then makes at most one repair request that shows the model its validation errors.

use serde_json::Value;

use crate::error::LlmError;
use crate::json::cut_answer::cut_report;
use crate::json::mode::schema_instructions;
use crate::json::repair::repair_json_object;
use crate::json::text::extract_json_object;
use crate::model::LanguageModel;
use crate::types::{ChatMessage, ChatRequest, Completion};

/// A validated JSON answer.
#[derive(Debug, Clone, PartialEq)]
pub struct StructuredCompletion {
    /// The validated object.
    pub value: Value,
    /// Every call made (one, or two after a repair), for usage accounting.
    pub completions: Vec<Completion>,
    /// Whether the repair request was needed.
    pub repaired: bool,
    /// What was fixed locally in the answer that was used, without another call (e.g.
    /// "escaped 2 raw control characters (newline, tab) inside strings"); empty when the
    /// answer parsed as it was. Worth showing: the model's JSON was not clean.
    pub repaired_locally: Vec<String>,
}

/// Checks a JSON value; returns readable errors ("/path: message").
pub type JsonValidator = Box<dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync>;

/// A validator for a JSON Schema, built on the `jsonschema` crate.
pub fn validator_from_schema(schema: &Value) -> Result<JsonValidator, LlmError> {
    let compiled = jsonschema::validator_for(schema)
        .map_err(|err| LlmError::Config(format!("invalid JSON Schema: {err}")))?;
    Ok(Box::new(move |value: &Value| {
        let errors: Vec<String> = compiled
            .iter_errors(value)
            .map(|err| {
                let path = err.instance_path().to_string();
                let path = if path.is_empty() {
                    "/".to_string()
                } else {
                    path
                };
                format!("{path}: {err}")
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }))
}

/// Asks `model` for a JSON object, validates it with `validate`, and on failure makes one repair
/// request that shows the model its answer and the errors. Before spending that call, an answer
/// whose JSON has only unambiguous syntax mistakes is repaired locally (see
/// [`crate::repair_json_object`]) and reported in [`StructuredCompletion::repaired_locally`].
/// Exactly one call when the first answer is valid or locally repairable; at most two.
pub async fn complete_structured(
    model: &dyn LanguageModel,
    req: &ChatRequest,
    validate: &(dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync),
) -> Result<StructuredCompletion, LlmError> {
    let first = model.complete(req).await?;
    let mut problem = match check(&first.text, validate) {
        Ok(checked) => {
            return Ok(StructuredCompletion {
                value: checked.value,
                completions: vec![first],
                repaired: false,
                repaired_locally: checked.fixes,
            });
        }
        Err(problem) => problem,
    };
    // A cut answer is missing fields because it was cut: say that, not which fields.
    if let Some(cut) = cut_report(&first) {
        problem.errors = vec![cut];
    }
    tracing::info!(errors = ?problem.errors, "structured answer invalid; asking for a repair");
    let mut repair = repair_request(req, &first.text, &problem.errors);
    if problem.no_json
        && let (Some(spec), Some(last)) = (&req.json_schema, repair.messages.last_mut())
    {
        // The model ignored the format altogether (a server can accept `json_schema` and not
        // enforce it, and then the schema was in no prompt): show it the schema this time.
        last.content = format!("{}\n\n{}", last.content, schema_instructions(spec));
    }
    let second = model.complete(&repair).await?;
    match check(&second.text, validate) {
        Ok(checked) => Ok(StructuredCompletion {
            value: checked.value,
            completions: vec![first, second],
            repaired: true,
            repaired_locally: checked.fixes,
        }),
        Err(problem) => Err(LlmError::StructuredOutput {
            errors: cut_report(&second).map_or(problem.errors, |cut| vec![cut]),
            completions: vec![first, second],
        }),
    }
}

/// A valid object and the local fixes it needed.
struct Checked {
    value: Value,
    fixes: Vec<String>,
}

/// Why an answer cannot be used.
struct Problem {
    errors: Vec<String>,
    /// No JSON object could be read at all, even after local repair.
    no_json: bool,
}

fn check(
    text: &str,
    validate: &(dyn Fn(&Value) -> Result<(), Vec<String>> + Send + Sync),
) -> Result<Checked, Problem> {
    let extracted = extract_json_object(text);
    let first_errors = match &extracted {
        Ok(value) => match validate(value) {
            Ok(()) => {
                return Ok(Checked {
                    value: value.clone(),
                    fixes: Vec::new(),
                });
            }
            Err(errors) => errors,
        },
        Err(err) => vec![err.to_string()],
    };
    // Also after a validation failure: when the whole object does not parse, the extractor
    // may have taken a nested object that does.
    match repair_json_object(text) {
        Some(repair) => match validate(&repair.value) {
            Ok(()) => Ok(Checked {
                value: repair.value,
                fixes: repair.fixes.iter().map(ToString::to_string).collect(),
            }),
            Err(errors) => Err(Problem {
                errors,
                no_json: false,
            }),
        },
        None => Err(Problem {
            errors: first_errors,
            no_json: extracted.is_err(),
        }),
    }
}

/// `req` followed by the bad answer and a user turn listing what is wrong with it.
pub fn repair_request(req: &ChatRequest, bad_answer: &str, errors: &[String]) -> ChatRequest {
    let listed: Vec<String> = errors.iter().map(|e| format!("- {e}")).collect();
    let mut repair = req.clone();
    repair.messages.push(ChatMessage::assistant(bad_answer));
    repair.messages.push(ChatMessage::user(format!(
        "Your answer above cannot be used:\n{}\nReply again with only the corrected JSON \
         object: no prose, no code fences.",
        listed.join("\n")
    )));
    repair
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::providers::scripted::ScriptedModel;
    use serde_json::json;

    pub(crate) fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"title": {"type": "string"}, "n": {"type": "integer"}},
            "required": ["title", "n"]
        })
    }

    #[test]
    fn validator_reports_paths() {
        let validate = validator_from_schema(&schema()).unwrap();
        assert!(validate(&json!({"title": "t", "n": 1})).is_ok());
        let errors = validate(&json!({"title": 5, "n": 1})).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/title:"), "{errors:?}");
        let errors = validate(&json!({"title": "t"})).unwrap_err();
        assert!(
            errors[0].starts_with("/:") && errors[0].contains("\"n\""),
            "{errors:?}"
        );
        assert!(validator_from_schema(&json!({"type": 12})).is_err());
    }

    #[tokio::test]
    async fn clean_answer_takes_exactly_one_call() {
        let model = ScriptedModel::new().reply("```json\n{\"title\": \"A\", \"n\": 2}\n```");
        let validate = validator_from_schema(&schema()).unwrap();
        let req = ChatRequest::new("give json").with_json_schema("s", schema());
        let done = complete_structured(&model, &req, &validate).await.unwrap();
        assert_eq!(done.value, json!({"title": "A", "n": 2}));
        assert_eq!(done.completions.len(), 1);
        assert!(!done.repaired);
        assert_eq!(model.calls(), 1);
    }

    #[tokio::test]
    async fn invalid_answer_is_repaired_with_its_errors_shown() {
        let model = ScriptedModel::new()
            .reply("{\"title\": \"A\"}")
            .reply("{\"title\": \"A\", \"n\": 3}");
        let validate = validator_from_schema(&schema()).unwrap();
        let req = ChatRequest::new("give json");
        let done = complete_structured(&model, &req, &validate).await.unwrap();
        assert!(done.repaired);
        assert_eq!(done.completions.len(), 2);
        assert_eq!(done.value["n"], 3);
        let repair = &model.requests()[1];
        assert_eq!(repair.messages.len(), 3);
        assert_eq!(repair.messages[1].content, "{\"title\": \"A\"}");
        assert!(
            repair.messages[2].content.contains("\"n\""),
            "{}",
            repair.messages[2].content
        );
    }

    #[tokio::test]
    async fn still_invalid_after_repair_is_an_error_listing_the_problems() {
        let model = ScriptedModel::new()
            .reply("no json here")
            .reply("{\"title\": 1, \"n\": 1}");
        let validate = validator_from_schema(&schema()).unwrap();
        let err = complete_structured(&model, &ChatRequest::new("x"), &validate)
            .await
            .unwrap_err();
        match err {
            LlmError::StructuredOutput {
                errors,
                completions,
            } => {
                assert!(errors[0].starts_with("/title"), "{errors:?}");
                let texts: Vec<&str> = completions.iter().map(|c| c.text.as_str()).collect();
                assert_eq!(
                    texts,
                    ["no json here", "{\"title\": 1, \"n\": 1}"],
                    "both calls are handed back for usage accounting"
                );
                assert!(completions.iter().all(|c| c.usage.total() > 0));
            }
            other => panic!("unexpected {other}"),
        }
        assert_eq!(model.calls(), 2);
        let first_repair = &model.requests()[1].messages[2].content;
        assert!(first_repair.contains("no JSON object"), "{first_repair}");
    }

    #[tokio::test]
    async fn a_raw_newline_inside_a_string_is_repaired_locally_without_a_second_call() {
        let model = ScriptedModel::new().reply("{\"title\": \"A\nB\",\n \"n\": 2,}");
        let validate = validator_from_schema(&schema()).unwrap();
        let done = complete_structured(&model, &ChatRequest::new("x"), &validate)
            .await
            .unwrap();
        assert_eq!(done.value, json!({"title": "A\nB", "n": 2}));
        assert!(!done.repaired);
        assert_eq!(
            done.repaired_locally,
            [
                "escaped 1 raw control character (newline, tab) inside strings",
                "removed 1 trailing comma"
            ]
        );
        assert_eq!(model.calls(), 1);
    }

    #[tokio::test]
    async fn a_repaired_object_that_breaks_the_schema_is_shown_with_its_real_errors() {
        // The whole object does not parse, so the extractor takes the nested one; the local
        // repair recovers the whole object, whose own schema error is what the model must see.
        let model = ScriptedModel::new()
            .reply("{\"title\": \"A\nB\", \"meta\": {\"k\": 1}, \"n\": \"two\"}")
            .reply("{\"title\": \"A\", \"n\": 2}");
        let validate = validator_from_schema(&schema()).unwrap();
        let done = complete_structured(&model, &ChatRequest::new("x"), &validate)
            .await
            .unwrap();
        assert!(done.repaired && done.repaired_locally.is_empty());
        let shown = &model.requests()[1].messages[2].content;
        assert!(shown.contains("/n:"), "{shown}");
    }

    #[tokio::test]
    async fn an_answer_without_json_gets_the_schema_in_its_repair_request() {
        let model = ScriptedModel::new()
            .reply("Sure! The title is A.")
            .reply("{\"title\": \"A\", \"n\": 1}");
        let validate = validator_from_schema(&schema()).unwrap();
        let req = ChatRequest::new("x").with_json_schema("s", schema());
        complete_structured(&model, &req, &validate).await.unwrap();
        let shown = &model.requests()[1].messages[2].content;
        assert!(
            shown.contains("no JSON object") && shown.contains("\"required\""),
            "{shown}"
        );
        // A schema error alone does not repeat the schema.
        let model = ScriptedModel::new()
            .reply("{\"title\": \"A\"}")
            .reply("{\"title\": \"A\", \"n\": 1}");
        complete_structured(&model, &req, &validate).await.unwrap();
        let shown = &model.requests()[1].messages[2].content;
        assert!(!shown.contains("JSON Schema"), "{shown}");
    }
}
