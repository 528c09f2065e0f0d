//! The providers' parsers of server output on any text: OpenAI stream chunks and response
//! bodies, Gemini chunks, and Anthropic event sequences (one event per line). Never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use novel_llm::fuzzing;

fuzz_target!(|text: &str| {
    let _ = fuzzing::openai_chunk(text);
    let _ = fuzzing::openai_response(text);
    let _ = fuzzing::gemini_chunk(text);
    let events: Vec<&str> = text.lines().collect();
    let _ = fuzzing::anthropic_events(&events);
});
