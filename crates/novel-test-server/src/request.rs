//! What the server reads from an incoming chat-completions request body.

use serde_json::Value;

/// Whether the client asked for a server-sent-events stream.
pub fn is_stream(body: &Value) -> bool {
    body.get("stream").and_then(Value::as_bool).unwrap_or(false)
}

/// Whether the client asked for a final usage chunk (`stream_options.include_usage`).
pub fn wants_stream_usage(body: &Value) -> bool {
    body.pointer("/stream_options/include_usage")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The requested model, echoed back in replies.
pub fn model(body: &Value) -> Option<&str> {
    body.get("model").and_then(Value::as_str)
}

/// The slot llama.cpp's `id_slot` field asks for; -1 (any) and other values out of range are
/// left to the prompt cache to ignore.
pub fn id_slot(body: &Value) -> Option<i64> {
    body.get("id_slot").and_then(Value::as_i64)
}

/// The `response_format` field, when present and not null.
pub fn response_format(body: &Value) -> Option<&Value> {
    body.get("response_format")
        .filter(|format| !format.is_null())
}

/// Whether the request asks for `response_format.type == "json_schema"`.
pub fn uses_json_schema(body: &Value) -> bool {
    response_format(body)
        .and_then(|format| format.get("type"))
        .and_then(Value::as_str)
        == Some("json_schema")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_stream_flags() {
        assert!(!is_stream(&json!({})));
        assert!(is_stream(&json!({"stream": true})));
        assert!(!wants_stream_usage(&json!({"stream": true})));
        assert!(wants_stream_usage(
            &json!({"stream_options": {"include_usage": true}})
        ));
    }

    #[test]
    fn reads_the_slot_asked_for() {
        assert_eq!(id_slot(&json!({"id_slot": 1})), Some(1));
        assert_eq!(id_slot(&json!({"id_slot": -1})), Some(-1));
        assert_eq!(id_slot(&json!({"id_slot": "1"})), None);
        assert_eq!(id_slot(&json!({})), None);
    }

    #[test]
    fn distinguishes_response_formats() {
        let schema = json!({"response_format": {"type": "json_schema", "json_schema": {}}});
        let object = json!({"response_format": {"type": "json_object"}});
        assert!(uses_json_schema(&schema));
        assert!(!uses_json_schema(&object));
        assert!(response_format(&object).is_some());
        assert!(response_format(&json!({"response_format": null})).is_none());
    }
}
