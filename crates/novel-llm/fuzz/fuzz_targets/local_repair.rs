//! The local JSON repair on any text: never panics; a repair is final (repairing its text finds
//! nothing more) and reads back as its value; valid JSON objects are never "repaired".
#![no_main]

use libfuzzer_sys::fuzz_target;
use novel_llm::{extract_json_object, repair_json_object};

fuzz_target!(|text: &str| {
    if let Some(repair) = repair_json_object(text) {
        assert!(!repair.fixes.is_empty());
        assert_eq!(repair_json_object(&repair.text), None, "{:?}", repair.text);
        assert_eq!(
            extract_json_object(&repair.text).as_ref(),
            Ok(&repair.value)
        );
    }
    if let Ok(serde_json::Value::Object(_)) = serde_json::from_str::<serde_json::Value>(text) {
        assert_eq!(repair_json_object(text), None);
    }
});
