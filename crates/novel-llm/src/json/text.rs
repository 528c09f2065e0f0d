//! Finding the JSON object in a model's answer. Models wrap JSON in code fences, put prose or
//! `<think>` blocks around it, or answer garbage; this takes the first object that parses and
//! otherwise explains what it found, in words the model can act on in a repair request.

use serde_json::Value;

/// Why no JSON object could be taken from an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonTextError {
    /// Nothing resembling JSON.
    #[error("the answer contains no JSON object")]
    NoJson,
    /// Something that starts like JSON but does not parse.
    #[error("the answer's JSON does not parse: {0}")]
    Malformed(String),
    /// Valid JSON, but not an object.
    #[error("the answer is JSON but not an object (found {0})")]
    NotAnObject(&'static str),
}

/// The first JSON object in `text`: the whole text, a fenced block, or an object embedded in
/// prose, in that order of preference.
pub fn extract_json_object(text: &str) -> Result<Value, JsonTextError> {
    let text = strip_think(text);
    let mut first_error: Option<JsonTextError> = None;
    let candidates = std::iter::once(text.trim()).chain(fenced_blocks(text));
    for candidate in candidates {
        match serde_json::from_str::<Value>(candidate) {
            Ok(Value::Object(map)) => return Ok(Value::Object(map)),
            Ok(other) => {
                first_error.get_or_insert(JsonTextError::NotAnObject(kind(&other)));
            }
            Err(err) if looks_like_json(candidate) => {
                first_error.get_or_insert(JsonTextError::Malformed(err.to_string()));
            }
            Err(_) => {}
        }
    }
    for (start, _) in text.match_indices('{') {
        let mut values = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(Value::Object(map))) => return Ok(Value::Object(map)),
            Some(Err(err)) => {
                first_error.get_or_insert(JsonTextError::Malformed(err.to_string()));
            }
            _ => {}
        }
    }
    Err(first_error.unwrap_or(JsonTextError::NoJson))
}

/// Reasoning models served locally often prefix the answer with `<think>…</think>`.
pub(crate) fn strip_think(text: &str) -> &str {
    match text.find("</think>") {
        Some(end) if text.trim_start().starts_with("<think>") => &text[end + "</think>".len()..],
        _ => text,
    }
}

/// The contents of every ``` fenced block, with any language tag removed.
pub(crate) fn fenced_blocks(text: &str) -> impl Iterator<Item = &str> + Clone {
    text.split("```")
        .skip(1)
        .step_by(2)
        .map(|block| match block.split_once('\n') {
            Some((tag, body)) if !tag.trim_start().starts_with(['{', '[']) => body.trim(),
            _ => block.trim(),
        })
}

fn looks_like_json(text: &str) -> bool {
    text.starts_with(['{', '['])
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bare_object() {
        assert_eq!(
            extract_json_object(" {\"a\": 1}\n").unwrap(),
            json!({"a": 1})
        );
    }

    #[test]
    fn fenced_object_with_language_tag() {
        let text =
            "Here is the plan:\n```json\n{\"tool\": \"memory.search\", \"n\": [1, 2]}\n```\nDone.";
        assert_eq!(
            extract_json_object(text).unwrap(),
            json!({"tool": "memory.search", "n": [1, 2]})
        );
        let untagged = "```\n{\"a\": true}\n```";
        assert_eq!(extract_json_object(untagged).unwrap(), json!({"a": true}));
    }

    #[test]
    fn object_inside_prose_even_after_a_stray_brace() {
        let text = "Sure {thinking} ... the answer is {\"ok\": {\"x\": \"}\"}} hope that helps";
        assert_eq!(
            extract_json_object(text).unwrap(),
            json!({"ok": {"x": "}"}})
        );
    }

    #[test]
    fn think_block_is_skipped() {
        let text = "<think>maybe {\"wrong\": 1}</think>\n{\"right\": 2}";
        assert_eq!(extract_json_object(text).unwrap(), json!({"right": 2}));
    }

    #[test]
    fn garbage_gets_a_clear_error() {
        assert_eq!(
            extract_json_object("I cannot do that."),
            Err(JsonTextError::NoJson)
        );
        let err = extract_json_object("{\"a\": 1,,}").unwrap_err();
        assert!(matches!(err, JsonTextError::Malformed(_)), "{err}");
        assert!(err.to_string().contains("line 1"), "{err}");
        assert_eq!(
            extract_json_object("[1, 2]"),
            Err(JsonTextError::NotAnObject("an array"))
        );
    }
}
