//! The SSE reader on any bytes, split into chunks (the first byte picks the chunk size): never
//! panics, always ends, and an answer read in one piece reads the same however it is split.
#![no_main]

use libfuzzer_sys::fuzz_target;
use novel_llm::fuzzing::openai_stream_text;

fuzz_target!(|data: &[u8]| {
    let Some((&size, body)) = data.split_first() else {
        return;
    };
    let size = usize::from(size).max(1);
    let whole = openai_stream_text(vec![body.to_vec()]);
    let split = openai_stream_text(body.chunks(size).map(<[u8]>::to_vec).collect());
    if let Ok(text) = whole {
        assert_eq!(split, Ok(text));
    }
});
