//! `extract_json_object` on any text: never panics, and what it returns is an object.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(value) = novel_llm::extract_json_object(text) {
        assert!(value.is_object());
    }
});
