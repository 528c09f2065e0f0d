//! Anthropic and Gemini over real HTTP: a minimal local server replays their recorded SSE
//! fixtures, so the whole path (headers, URL, SSE framing, parsing, collection) is exercised.

use crate::support;

use novel_llm::{
    ChatRequest, FinishReason, GeminiModel, LanguageModel, LlmError, ProviderKind, StructuredMode,
    connect_with_env, stream_completion,
};
use serde_json::json;
use support::{Canned, MiniServer, TEST_KEY, fixture, profile, test_env};

#[tokio::test]
async fn anthropic_streams_text_usage_and_sends_its_headers() {
    let server = MiniServer::start(vec![Canned::sse(fixture("anthropic/stream.sse"))]).await;
    let model = connect_with_env(
        &profile(ProviderKind::Anthropic, &server.base_url),
        &test_env,
    )
    .unwrap();
    let req = ChatRequest::new("Ring the bells.").with_system("You narrate.");
    let mut pieces = Vec::new();
    let done = stream_completion(model.as_ref(), &req, |d| pieces.push(d.to_string()))
        .await
        .unwrap();
    assert_eq!(pieces, ["Mara counted", " the bells until the ninth."]);
    assert_eq!(
        (done.usage.prompt_tokens, done.usage.completion_tokens),
        (600, 15)
    );
    assert_eq!(done.finish_reason, FinishReason::Stop);

    let sent = &server.received()[0];
    assert!(
        sent.request_line().starts_with("POST /v1/messages "),
        "{}",
        sent.head
    );
    assert_eq!(sent.header("x-api-key").as_deref(), Some(TEST_KEY));
    assert_eq!(
        sent.header("anthropic-version").as_deref(),
        Some("2023-06-01")
    );
    assert_eq!(sent.body["system"], "You narrate.");
    assert_eq!(sent.body["stream"], true);
}

#[tokio::test]
async fn anthropic_stream_without_message_stop_is_cut() {
    let full = fixture("anthropic/stream.sse");
    let partial = &full[..full.find("event: content_block_stop").unwrap()];
    let server = MiniServer::start(vec![Canned::sse(partial)]).await;
    let model = connect_with_env(
        &profile(ProviderKind::Anthropic, &server.base_url),
        &test_env,
    )
    .unwrap();
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    assert!(matches!(err, LlmError::StreamCut { .. }), "{err}");
}

#[tokio::test]
async fn anthropic_overload_is_retried() {
    let overloaded =
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let server = MiniServer::start(vec![
        Canned::json(529, overloaded.to_string()),
        Canned::sse(fixture("anthropic/stream.sse")),
    ])
    .await;
    let model = connect_with_env(
        &profile(ProviderKind::Anthropic, &server.base_url),
        &test_env,
    )
    .unwrap();
    let done = model.complete(&ChatRequest::new("x")).await.unwrap();
    assert_eq!(done.text, "Mara counted the bells until the ninth.");
    assert_eq!(server.received().len(), 2);
}

#[tokio::test]
async fn gemini_streams_with_the_key_in_a_header_not_the_url() {
    let server = MiniServer::start(vec![Canned::sse(fixture("gemini/stream.sse"))]).await;
    let model =
        connect_with_env(&profile(ProviderKind::Gemini, &server.base_url), &test_env).unwrap();
    let done = model.complete(&ChatRequest::new("Listen.")).await.unwrap();
    assert_eq!(done.text, "Mara listened to the rain.");
    assert_eq!(
        (done.usage.prompt_tokens, done.usage.completion_tokens),
        (9, 18)
    );

    let sent = &server.received()[0];
    assert!(
        sent.request_line()
            .starts_with("POST /v1beta/models/test-model:streamGenerateContent?alt=sse "),
        "{}",
        sent.head
    );
    assert!(!sent.request_line().contains(TEST_KEY));
    assert_eq!(sent.header("x-goog-api-key").as_deref(), Some(TEST_KEY));
    assert_eq!(sent.body["contents"][0]["parts"][0]["text"], "Listen.");
}

#[tokio::test]
async fn gemini_refusing_the_json_schema_field_falls_back_and_remembers() {
    let refusal = json!({"error": {"code": 400, "message": "Invalid JSON payload received. Unknown name \"responseJsonSchema\" at 'generation_config': Cannot find field.", "status": "INVALID_ARGUMENT"}});
    let server = MiniServer::start(vec![
        Canned::json(400, refusal.to_string()),
        Canned::sse(fixture("gemini/stream.sse")),
        Canned::sse(fixture("gemini/stream.sse")),
    ])
    .await;
    let model = GeminiModel::new(&profile(ProviderKind::Gemini, &server.base_url), None).unwrap();
    let req = ChatRequest::new("Plan.").with_json_schema("plan", json!({"type": "object"}));
    model.complete(&req).await.unwrap();
    model.complete(&req).await.unwrap();
    assert_eq!(model.structured_mode(), StructuredMode::JsonObject);
    let configs: Vec<_> = server
        .received()
        .iter()
        .map(|r| {
            r.body["generationConfig"]
                .get("responseJsonSchema")
                .is_some()
        })
        .collect();
    assert_eq!(configs, [true, false, false]);
}
