//! Property tests (proptest) of everything that reads model or server output: the JSON
//! extractor and the local repair, the SSE reader and the providers' chunk parsers. Random
//! input must never panic; valid input must come through unchanged however it is split.
//! `PROPTEST_CASES` raises the number of cases (256 by default) for a longer run.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::fuzzing;
use crate::json::repair::repair_json_object;
use crate::json::text::extract_json_object;

/// Text made of JSON's own tokens and the wrappers models put around it, so random input
/// reaches deep into the parsers instead of failing at the first character.
fn jsonish() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("{"),
        Just("}"),
        Just("["),
        Just("]"),
        Just("\""),
        Just(","),
        Just(":"),
        Just("\\"),
        Just("\\n"),
        Just("\\u00"),
        Just("\n"),
        Just("\t"),
        Just(" "),
        Just("\"key\""),
        Just("\"text with words\""),
        Just("12"),
        Just("-3.5e2"),
        Just("true"),
        Just("null"),
        Just("```json\n"),
        Just("```"),
        Just("<think>"),
        Just("</think>"),
        Just("Sure! "),
        Just("é"),
        Just("\u{0}"),
    ];
    prop::collection::vec(token, 0..80).prop_map(|tokens| tokens.concat())
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        any::<String>().prop_map(Value::String),
        // Braces and quotes inside strings look like JSON to a scanner that is not careful.
        "[{}\\[\\]\":, a-z]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn json_object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map("[a-z_{}\":]{1,8}", json_value(), 0..6)
        .prop_map(|map| Value::Object(map.into_iter().collect()))
}

proptest! {
    #[test]
    fn extraction_and_repair_never_panic(text in prop_oneof![any::<String>(), jsonish()]) {
        let _ = extract_json_object(&text);
        let _ = repair_json_object(&text);
    }

    #[test]
    fn a_repair_is_final_and_reads_back_as_its_value(text in jsonish()) {
        if let Some(repair) = repair_json_object(&text) {
            prop_assert!(!repair.fixes.is_empty());
            prop_assert_eq!(repair_json_object(&repair.text), None, "repairing twice changed {}", repair.text);
            prop_assert_eq!(extract_json_object(&repair.text), Ok(repair.value));
        }
    }

    #[test]
    fn valid_json_comes_through_unchanged(value in json_object(), pretty in any::<bool>(), wrap in 0..3usize) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            value.to_string()
        };
        let answer = match wrap {
            0 => text.clone(),
            1 => format!("```json\n{text}\n```"),
            _ => format!("Here is the plan: {text} Hope that helps."),
        };
        prop_assert_eq!(repair_json_object(&answer), None);
        prop_assert_eq!(extract_json_object(&answer), Ok(value));
    }

    #[test]
    fn raw_line_breaks_and_tabs_in_strings_are_repaired_to_the_same_value(
        strings in prop::collection::btree_map("[a-z]{1,6}", "[a-z \n\t]{0,20}", 1..5)
    ) {
        let value = Value::Object(strings.into_iter().map(|(k, v)| (k, Value::String(v))).collect());
        let clean = value.to_string();
        let raw = clean.replace("\\n", "\n").replace("\\t", "\t");
        if raw == clean {
            prop_assert_eq!(extract_json_object(&raw), Ok(value));
        } else {
            let repair = repair_json_object(&raw).expect("repairable");
            prop_assert_eq!(repair.value, value);
        }
    }

    #[test]
    fn a_stream_split_anywhere_gives_the_same_text(
        pieces in prop::collection::vec(any::<String>(), 0..8),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        crlf in any::<bool>(),
    ) {
        let newline = if crlf { "\r\n" } else { "\n" };
        let event = |data: String| format!("data: {data}{newline}{newline}");
        let mut body = event(json!({"choices": [{"delta": {"role": "assistant"}}]}).to_string());
        for piece in &pieces {
            body.push_str(&event(json!({"choices": [{"delta": {"content": piece}}]}).to_string()));
        }
        body.push_str(&event(json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}).to_string()));
        body.push_str(&event("[DONE]".to_string()));
        let bytes = body.into_bytes();
        let mut points: Vec<usize> = cuts.iter().map(|cut| cut.index(bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut chunks = Vec::new();
        let mut start = 0;
        for point in points.into_iter().chain([bytes.len()]) {
            chunks.push(bytes[start..point].to_vec());
            start = point;
        }
        prop_assert_eq!(fuzzing::openai_stream_text(chunks), Ok(pieces.concat()));
    }

    #[test]
    fn garbage_streams_end_without_panicking(
        chunks in prop::collection::vec(prop_oneof![
            prop::collection::vec(any::<u8>(), 0..64),
            jsonish().prop_map(|text| format!("data: {text}\n\n").into_bytes()),
            Just(b": keep-alive\n\n".to_vec()),
            Just(b"event: error\n".to_vec()),
        ], 0..12)
    ) {
        let _ = fuzzing::openai_stream_text(chunks);
    }

    #[test]
    fn chunk_parsers_never_panic(data in prop_oneof![any::<String>(), jsonish()]) {
        let _ = fuzzing::openai_chunk(&data);
        let _ = fuzzing::openai_response(&data);
        let _ = fuzzing::gemini_chunk(&data);
        let _ = fuzzing::anthropic_events(&[&data, &data]);
    }
}
