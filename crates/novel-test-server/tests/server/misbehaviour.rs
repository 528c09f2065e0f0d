//! The misbehaving replies over real HTTP, as clients meet them: refusals shaped like other
//! servers', empty and huge answers, absurd usage numbers, and bodies that never end.

use crate::common;

use std::time::Duration;

use common::{content_of, post, read_sse};
use novel_test_server::{Reply, Rule, Script, ServerStyle, TestServer};
use serde_json::{Value, json};

async fn serve(reply: impl Into<Reply>) -> TestServer {
    TestServer::start(Script::new().rule(Rule::any().reply(reply)))
        .await
        .unwrap()
}

fn json_schema_request() -> Value {
    json!({"messages": [], "response_format": {"type": "json_schema", "json_schema": {"name": "p", "schema": {}}}})
}

#[tokio::test]
async fn llama_cpp_python_refuses_json_schema_with_a_500_naming_response_format() {
    let server = serve(Reply::reject_json_schema_like(
        ServerStyle::LlamaCppPython,
        Reply::text("{\"ok\": true}"),
    ))
    .await;
    let refused = post(&server.base_url(), &json_schema_request()).await;
    assert_eq!(refused.status(), 500);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["type"], "internal_server_error");
    assert!(body["error"]["param"].is_null() && body["error"]["code"].is_null());
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("validation error") && message.contains("'response_format', 'type'"),
        "{message}"
    );
    let object = json!({"messages": [], "response_format": {"type": "json_object"}});
    assert_eq!(
        content_of(&server.base_url(), &object).await,
        "{\"ok\": true}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn empty_and_whitespace_answers_finish_normally() {
    let server = TestServer::start(
        Script::new().rule(Rule::any().replies([Reply::empty(), Reply::text(" \n\t ")])),
    )
    .await
    .unwrap();
    let plain: Value = post(&server.base_url(), &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(plain["choices"][0]["message"]["content"], "");
    assert_eq!(plain["choices"][0]["finish_reason"], "stop");
    let streamed = read_sse(post(&server.base_url(), &json!({"stream": true})).await).await;
    assert_eq!(streamed.content(), " \n\t ");
    assert!(!streamed.broken && streamed.events.last().unwrap() == "[DONE]");
    server.shutdown().await;
}

#[tokio::test]
async fn absurd_usage_numbers_are_sent_without_the_server_overflowing() {
    let server = TestServer::start(Script::new().rule(Rule::any().replies([
        Reply::from(Reply::text("a").usage(u64::MAX, u64::MAX)),
        Reply::from(
            Reply::text("b").raw_usage(json!({"prompt_tokens": 4e9, "completion_tokens": -5})),
        ),
    ])))
    .await
    .unwrap();
    let first: Value = post(&server.base_url(), &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(first["usage"]["prompt_tokens"], u64::MAX);
    assert_eq!(first["usage"]["total_tokens"], u64::MAX);
    let streamed = read_sse(
        post(
            &server.base_url(),
            &json!({"stream": true, "stream_options": {"include_usage": true}}),
        )
        .await,
    )
    .await;
    let usage = streamed.chunks().last().unwrap()["usage"].clone();
    assert_eq!(
        usage,
        json!({"prompt_tokens": 4e9, "completion_tokens": -5})
    );
    server.shutdown().await;
}

#[tokio::test]
async fn huge_answers_arrive_in_full_streamed_or_not() {
    let server = serve(Reply::huge(300_000).chunk_chars(10_000)).await;
    let streamed = read_sse(post(&server.base_url(), &json!({"stream": true})).await).await;
    assert_eq!(streamed.content().len(), 300_000);
    // role, 30 content chunks, finish, [DONE]
    assert_eq!(streamed.events.len(), 33);
    let plain = content_of(&server.base_url(), &json!({})).await;
    assert_eq!(plain.len(), 300_000);
    assert!(plain.starts_with("All work and no play"));
    server.shutdown().await;
}

/// Reads `response` for `window`, returning what arrived and whether the body ended.
async fn read_for(mut response: reqwest::Response, window: Duration) -> (String, bool) {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + window;
    loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Err(_) => return (text, false),
            Ok(Ok(Some(bytes))) => text.push_str(&String::from_utf8_lossy(&bytes)),
            Ok(_) => return (text, true),
        }
    }
}

#[tokio::test]
async fn keep_alive_sends_its_content_then_comments_and_never_finishes() {
    let server = serve(Reply::keep_alive("Half a").interval_ms(20)).await;
    let response = post(&server.base_url(), &json!({"stream": true})).await;
    let (text, ended) = read_for(response, Duration::from_millis(400)).await;
    assert!(!ended, "{text}");
    assert!(text.contains("\"content\":\"Half a\""), "{text}");
    assert!(text.matches(": keep-alive\n\n").count() >= 5, "{text}");
    assert!(!text.contains("finish_reason\":\"stop") && !text.contains("[DONE]"));

    let plain = post(&server.base_url(), &json!({})).await;
    let (text, ended) = read_for(plain, Duration::from_millis(200)).await;
    assert!(
        !ended && !text.is_empty() && text.trim().is_empty(),
        "{text:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn trickle_repeats_its_content_forever() {
    let server = serve(Reply::trickle("word ")).await;
    let response = post(&server.base_url(), &json!({"stream": true})).await;
    let (text, ended) = read_for(response, Duration::from_millis(450)).await;
    assert!(!ended);
    assert!(text.matches("\"content\":\"word \"").count() >= 3, "{text}");
    server.shutdown().await;
}

#[tokio::test]
async fn with_status_sends_any_body_under_another_status() {
    let server = serve(Reply::with_status(500, Reply::keep_alive(""))).await;
    let response = post(&server.base_url(), &json!({"stream": true})).await;
    assert_eq!(response.status(), 500);
    let (text, ended) = read_for(response, Duration::from_millis(300)).await;
    assert!(!ended && text.contains(": keep-alive"), "{text}");
    server.shutdown().await;
}
