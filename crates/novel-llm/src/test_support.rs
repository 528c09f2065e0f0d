//! Helpers for the crate's unit tests: reading fixture files and splitting SSE fixtures into
//! events the same way the live stream does (with eventsource-stream).

use std::path::PathBuf;

use eventsource_stream::Eventsource;
use futures::StreamExt;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// The text of `tests/fixtures/<name>`.
pub(crate) fn fixture(name: &str) -> String {
    std::fs::read_to_string(path(name)).unwrap_or_else(|err| panic!("fixture {name}: {err}"))
}

/// `tests/fixtures/<name>` parsed as JSON.
pub(crate) fn fixture_json(name: &str) -> serde_json::Value {
    serde_json::from_str(&fixture(name)).unwrap_or_else(|err| panic!("fixture {name}: {err}"))
}

/// `(event name, data)` of every event in an SSE fixture.
pub(crate) fn parse_sse_fixture(name: &str) -> Vec<(String, String)> {
    let bytes = fixture(name).into_bytes();
    let source = futures::stream::iter([Ok::<_, std::convert::Infallible>(bytes)]);
    futures::executor::block_on(
        source
            .eventsource()
            .map(|event| {
                let event = event.unwrap_or_else(|err| panic!("fixture {name}: {err}"));
                (event.event, event.data)
            })
            .collect(),
    )
}
