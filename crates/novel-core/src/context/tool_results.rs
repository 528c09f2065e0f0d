//! Tool outputs as the writer reads them: one line per call, compact JSON with the noise taken
//! out (nulls and empty values dropped, long strings clipped between words, long lists cut
//! with a count of what was left). A search hit or a new character's record stays legible at a
//! fraction of its raw size.

use serde_json::{Map, Value};

/// Longest string kept whole, in characters.
const MAX_STRING_CHARS: usize = 240;
/// Longest list kept whole.
const MAX_LIST_ITEMS: usize = 8;

/// One item per tool call: `- tool → {…}`.
pub(crate) fn render(results: &[(String, Value)]) -> Vec<String> {
    results
        .iter()
        .map(|(tool, output)| {
            let compact = compact(output).unwrap_or(Value::Null);
            let json = serde_json::to_string(&compact).unwrap_or_else(|_| "null".into());
            format!("- {tool} → {json}")
        })
        .collect()
}

/// The value without empties, `None` when nothing is left of it.
fn compact(value: &Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(Value::String(clip(s))),
        Value::Array(items) => {
            let mut kept: Vec<Value> = items.iter().filter_map(compact).collect();
            if kept.is_empty() {
                return None;
            }
            if kept.len() > MAX_LIST_ITEMS {
                let more = kept.len() - MAX_LIST_ITEMS;
                kept.truncate(MAX_LIST_ITEMS);
                kept.push(Value::String(format!("…+{more} more")));
            }
            Some(Value::Array(kept))
        }
        Value::Object(fields) => {
            let kept: Map<String, Value> = fields
                .iter()
                .filter_map(|(k, v)| compact(v).map(|v| (k.clone(), v)))
                .collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        other => Some(other.clone()),
    }
}

/// `s` cut at the last word boundary before the limit, with an ellipsis.
fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_STRING_CHARS {
        return s.to_string();
    }
    let limit = s
        .char_indices()
        .nth(MAX_STRING_CHARS)
        .map_or(s.len(), |(i, _)| i);
    let head = &s[..limit];
    let cut = head.rfind(char::is_whitespace).unwrap_or(limit);
    format!("{}…", head[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn drops_empties_clips_long_strings_between_words_and_cuts_long_lists() {
        let long = "word ".repeat(100);
        let out = render(&[(
            "memory.search".to_string(),
            json!({"hits": (0..12).collect::<Vec<_>>(), "note": long, "none": null,
                   "empty": [], "blank": "", "nested": {"gone": null}, "ok": true}),
        )]);
        assert_eq!(out.len(), 1);
        let line = &out[0];
        assert!(line.starts_with("- memory.search → {"), "{line}");
        let json: Value = serde_json::from_str(line.split_once(" → ").unwrap().1).unwrap();
        assert_eq!(json["hits"].as_array().unwrap().len(), MAX_LIST_ITEMS + 1);
        assert_eq!(json["hits"][MAX_LIST_ITEMS], "…+4 more");
        let note = json["note"].as_str().unwrap();
        assert!(note.ends_with("word…"), "{note}");
        assert!(note.chars().count() <= MAX_STRING_CHARS + 1);
        for gone in ["none", "empty", "blank", "nested"] {
            assert!(json.get(gone).is_none(), "{gone} should be dropped");
        }
        assert_eq!(json["ok"], true);
    }
}
