//! Shared client helpers for the integration tests: posting chat requests and reading SSE
//! streams back into events.

#![allow(dead_code)] // each test module uses a different subset

use serde_json::Value;

/// POSTs `body` as the exact raw JSON text to `{base}/chat/completions`.
pub async fn post_raw(base: &str, body: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{base}/chat/completions"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("request reaches the test server")
}

/// POSTs a JSON value to `{base}/chat/completions`.
pub async fn post(base: &str, body: &Value) -> reqwest::Response {
    post_raw(base, &body.to_string()).await
}

/// POSTs and returns the assistant content of a non-streaming reply.
pub async fn content_of(base: &str, body: &Value) -> String {
    let response = post(base, body).await;
    assert_eq!(response.status(), 200);
    let json: Value = response.json().await.unwrap();
    json["choices"][0]["message"]["content"]
        .as_str()
        .expect("string content")
        .to_string()
}

/// The `data:` payloads of an SSE response, plus whether the body ended in a transport error.
pub struct Sse {
    pub events: Vec<String>,
    pub broken: bool,
}

impl Sse {
    /// The JSON chunks (everything but `[DONE]`).
    pub fn chunks(&self) -> Vec<Value> {
        self.events
            .iter()
            .filter(|event| *event != "[DONE]")
            .map(|event| serde_json::from_str(event).expect("chunk is JSON"))
            .collect()
    }

    /// The concatenated `delta.content` pieces.
    pub fn content(&self) -> String {
        self.chunks()
            .iter()
            .filter_map(|chunk| {
                chunk
                    .pointer("/choices/0/delta/content")?
                    .as_str()
                    .map(String::from)
            })
            .collect()
    }
}

/// Reads a whole SSE body, tolerating a dropped connection.
pub async fn read_sse(mut response: reqwest::Response) -> Sse {
    let mut text = String::new();
    let mut broken = false;
    loop {
        match response.chunk().await {
            Ok(Some(bytes)) => text.push_str(std::str::from_utf8(&bytes).expect("utf-8 stream")),
            Ok(None) => break,
            Err(_) => {
                broken = true;
                break;
            }
        }
    }
    let events = text
        .split("\n\n")
        .filter(|event| !event.is_empty())
        .map(|event| {
            event
                .strip_prefix("data: ")
                .unwrap_or_else(|| panic!("not an SSE data event: {event:?}"))
                .to_string()
        })
        .collect();
    Sse { events, broken }
}
