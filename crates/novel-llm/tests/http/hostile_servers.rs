//! The OpenAI-compatible provider against servers that misbehave, played by the local test
//! server over real HTTP: structured-output refusals by HTTP 500 (llama.cpp,
//! llama-cpp-python), JSON that small models get almost right, empty and absurdly long
//! answers, absurd usage numbers, error bodies and streams that never end, and slow answers.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use novel_llm::{
    ChatRequest, FinishReason, LanguageModel, LlmError, OpenAiModel, ProviderKind, StructuredMode,
    complete_structured, connect_with_env, stream_completion, validator_from_schema,
};
use novel_test_server::{Reply, Rule, Script, ServerStyle, TestServer};
use serde_json::{Value, json};
use support::{profile, test_env};

async fn server(rule: Rule) -> TestServer {
    TestServer::start(Script::new().rule(rule)).await.unwrap()
}

fn model_for(server: &TestServer) -> Arc<dyn LanguageModel> {
    connect_with_env(
        &profile(ProviderKind::OpenAiCompatible, &server.base_url()),
        &test_env,
    )
    .unwrap()
}

/// A model whose profile waits at most `secs` for silence.
fn impatient_model(server: &TestServer, secs: u64) -> Arc<dyn LanguageModel> {
    let profile =
        profile(ProviderKind::OpenAiCompatible, &server.base_url()).with_timeout_secs(secs);
    connect_with_env(&profile, &test_env).unwrap()
}

fn plan_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "rationale": {"type": "string"},
            "actions": {"type": "array", "items": {
                "type": "object",
                "properties": {"tool": {"type": "string"}, "args": {"type": "object"}},
                "required": ["tool", "args"]
            }}
        },
        "required": ["rationale", "actions"]
    })
}

fn plan_request() -> ChatRequest {
    ChatRequest::new("Plan the next scene.").with_json_schema("plan", plan_schema())
}

fn format_types(server: &TestServer) -> Vec<Option<String>> {
    server
        .requests()
        .iter()
        .map(|r| {
            r.body
                .pointer("/response_format/type")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

const VALID_PLAN: &str = r#"{"rationale": "She must find the letter.", "actions": [{"tool": "memory.search", "args": {"query": "letter"}}]}"#;

#[tokio::test]
async fn llama_cpp_python_refusing_json_schema_with_500_steps_down_at_once() {
    for like in [ServerStyle::LlamaCppPython, ServerStyle::LlamaCpp] {
        let server = server(Rule::any().reply(Reply::reject_json_schema_like(
            like,
            Reply::text(VALID_PLAN),
        )))
        .await;
        let profile = profile(ProviderKind::OpenAiCompatible, &server.base_url());
        let model = OpenAiModel::new(&profile, None).unwrap();
        let validate = validator_from_schema(&plan_schema()).unwrap();
        let done = complete_structured(&model, &plan_request(), &validate)
            .await
            .unwrap();
        assert_eq!(done.value["actions"][0]["tool"], "memory.search");
        assert_eq!(model.structured_mode(), StructuredMode::JsonObject);
        // One refusal, no retries of it, then json_object.
        assert_eq!(
            format_types(&server),
            [Some("json_schema".into()), Some("json_object".into())],
            "{like:?}"
        );
        // Streams take the same path.
        let streamed = stream_completion(&model, &plan_request(), |_| {})
            .await
            .unwrap();
        assert!(streamed.text.contains("memory.search"));
        assert_eq!(server.request_count(), 3);
    }
}

#[tokio::test]
async fn a_plain_500_is_still_retried_as_a_server_fault() {
    let server = server(Rule::any().replies([
        Reply::from(Reply::status(500)),
        Reply::from(Reply::text(VALID_PLAN)),
    ]))
    .await;
    let model = model_for(&server);
    let done = model.complete(&plan_request()).await.unwrap();
    assert!(done.text.contains("rationale"));
    assert_eq!(
        format_types(&server),
        [Some("json_schema".into()), Some("json_schema".into())],
        "a server fault is no reason to give up the schema"
    );
}

#[tokio::test]
async fn a_smollm2_style_plan_with_a_raw_newline_validates_with_one_call() {
    // What SmolLM2-135M answered through llama-cpp-python: JSON with a raw line break inside a
    // string, and a trailing comma for good measure.
    let answer = "{\"rationale\": \"Mara hears the bell.\nShe must go down to the harbour.\",\n \
                  \"actions\": [{\"tool\": \"memory.search\", \"args\": {\"query\": \"bell\"}},]}";
    let server = server(Rule::any().reply(Reply::text(answer))).await;
    let model = model_for(&server);
    let validate = validator_from_schema(&plan_schema()).unwrap();
    let done = complete_structured(model.as_ref(), &plan_request(), &validate)
        .await
        .unwrap();
    assert_eq!(server.request_count(), 1);
    assert!(!done.repaired);
    assert_eq!(
        done.value["rationale"],
        "Mara hears the bell.\nShe must go down to the harbour."
    );
    assert_eq!(
        done.repaired_locally,
        [
            "escaped 1 raw control character (newline, tab) inside strings",
            "removed 1 trailing comma"
        ]
    );
}

#[tokio::test]
async fn a_server_that_accepts_json_schema_but_answers_garbage_still_gets_a_plan() {
    // Accepted the schema, enforced nothing: prose first, then a plan cut short.
    let server = server(Rule::any().replies([
        Reply::text("I think Mara should go to the harbour next."),
        Reply::text(
            "{\"rationale\": \"The harbour.\", \"actions\": [{\"tool\": \"memory.search\", \"args\": {}}",
        ),
    ]))
    .await;
    let model = model_for(&server);
    let validate = validator_from_schema(&plan_schema()).unwrap();
    let done = complete_structured(model.as_ref(), &plan_request(), &validate)
        .await
        .unwrap();
    assert!(done.repaired);
    assert_eq!(
        done.repaired_locally,
        ["closed 2 brackets left open at the end"]
    );
    let repair = server.requests()[1].body["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        repair.contains("no JSON object") && repair.contains("\"actions\""),
        "the schema was in no prompt, so the repair shows it: {repair}"
    );
}

#[tokio::test]
async fn empty_and_whitespace_answers_reach_the_caller_as_text() {
    let server = server(Rule::any().replies([
        Reply::empty(),
        Reply::text("  \n\t"),
        Reply::empty(),
        Reply::text(" \n "),
    ]))
    .await;
    let model = model_for(&server);
    let req = ChatRequest::new("Write the scene.");
    let plain = model.complete(&req).await.unwrap();
    assert_eq!(
        (plain.text.as_str(), &plain.finish_reason),
        ("", &FinishReason::Stop)
    );
    let plain = model.complete(&req).await.unwrap();
    assert_eq!(plain.text, "  \n\t");
    let streamed = stream_completion(model.as_ref(), &req, |_| {})
        .await
        .unwrap();
    assert_eq!(
        (streamed.text.as_str(), &streamed.finish_reason),
        ("", &FinishReason::Stop)
    );
    let streamed = stream_completion(model.as_ref(), &req, |_| {})
        .await
        .unwrap();
    assert_eq!(streamed.text, " \n ");
    // And a structured call gets a clear error, not a panic.
    let validate = validator_from_schema(&plan_schema()).unwrap();
    let err = complete_structured(model.as_ref(), &plan_request(), &validate)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::StructuredOutput { .. }), "{err}");
}

#[tokio::test]
async fn absurd_usage_numbers_saturate_instead_of_failing_the_call() {
    let server =
        server(
            Rule::any().replies([
                Reply::from(Reply::text("One.").usage(u64::MAX, u64::MAX)),
                Reply::from(Reply::text("Two.").usage(u64::MAX, 4_000_000_000)),
                Reply::from(
                    Reply::text("Three.")
                        .raw_usage(json!({"prompt_tokens": 4e9, "completion_tokens": -7})),
                ),
            ]),
        )
        .await;
    let model = model_for(&server);
    let req = ChatRequest::new("x");
    let plain = model.complete(&req).await.unwrap();
    assert_eq!(
        (
            plain.usage.prompt_tokens,
            plain.usage.completion_tokens,
            plain.usage.total()
        ),
        (u32::MAX, u32::MAX, u32::MAX)
    );
    let streamed = stream_completion(model.as_ref(), &req, |_| {})
        .await
        .unwrap();
    assert_eq!(streamed.text, "Two.");
    assert_eq!(
        (
            streamed.usage.prompt_tokens,
            streamed.usage.completion_tokens
        ),
        (u32::MAX, 4_000_000_000)
    );
    let raw = model.complete(&req).await.unwrap();
    assert_eq!(
        (raw.usage.prompt_tokens, raw.usage.completion_tokens),
        (4_000_000_000, 0)
    );
}

#[tokio::test]
async fn an_absurdly_long_plain_answer_is_refused_with_a_clear_error() {
    let server = server(Rule::any().reply(Reply::huge(2_000_000))).await;
    let model = model_for(&server);
    let err = model
        .complete(&ChatRequest::new("x").with_max_tokens(1000))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::InvalidResponse { .. }), "{text}");
    assert!(text.contains("passed"), "{text}");
    assert_eq!(
        server.request_count(),
        1,
        "a misbehaving answer is not retried"
    );
    // Within the bound the same server's answer is fine.
    let server = self::server(Rule::any().reply(Reply::huge(100_000))).await;
    let done = model_for(&server)
        .complete(&ChatRequest::new("x").with_max_tokens(8000))
        .await
        .unwrap();
    assert_eq!(done.text.len(), 100_000);
}

#[tokio::test]
async fn an_absurdly_long_stream_is_cut_at_the_answer_bound() {
    let server = server(Rule::any().reply(Reply::huge(5_000_000))).await;
    let model = model_for(&server);
    let mut received = 0usize;
    let err = stream_completion(
        model.as_ref(),
        &ChatRequest::new("x").with_max_tokens(1000),
        |delta| received += delta.len(),
    )
    .await
    .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::InvalidResponse { .. }), "{text}");
    assert!(
        text.contains("65536 bytes") && text.contains("`max_tokens` = 1000"),
        "{text}"
    );
    assert!(received <= 65_536, "{received}");
}

#[tokio::test]
async fn a_giant_server_sent_event_is_refused() {
    let server = server(Rule::any().reply(Reply::huge(3_000_000).chunk_chars(3_000_000))).await;
    let model = model_for(&server);
    let err = stream_completion(model.as_ref(), &ChatRequest::new("x"), |_| {})
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::InvalidResponse { .. }), "{text}");
    assert!(
        text.contains("server-sent event passed 1048576 bytes"),
        "{text}"
    );
}

#[tokio::test]
async fn keep_alives_and_trickles_cannot_hold_a_stream_open_forever() {
    // timeout 1 s and max_tokens 1: the whole answer may take 2 × 1 s + 1 s.
    let kept_alive = server(Rule::any().reply(Reply::keep_alive("Half a").interval_ms(50))).await;
    let trickling = server(Rule::any().reply(Reply::trickle("word "))).await;
    let req = ChatRequest::new("x").with_max_tokens(1);
    let started = Instant::now();
    let (a, b) = tokio::join!(
        async {
            let mut seen = String::new();
            let model = impatient_model(&kept_alive, 1);
            let result = stream_completion(model.as_ref(), &req, |d| seen.push_str(d)).await;
            (result, seen)
        },
        async {
            let model = impatient_model(&trickling, 1);
            stream_completion(model.as_ref(), &req, |_| {}).await
        }
    );
    let elapsed = started.elapsed();
    let (result, seen) = a;
    for err in [result.unwrap_err(), b.unwrap_err()] {
        assert!(matches!(err, LlmError::StreamCut { .. }), "{err}");
        assert!(
            err.to_string().contains("still streaming after 3 s"),
            "{err}"
        );
    }
    assert!(
        elapsed >= Duration::from_secs(3) && elapsed < Duration::from_secs(10),
        "{elapsed:?}"
    );
    // What was delivered stays delivered: the stream is not restarted behind the caller.
    assert_eq!(seen, "Half a");
    assert_eq!(kept_alive.request_count(), 1);
    assert_eq!(trickling.request_count(), 1);
}

#[tokio::test]
async fn an_error_body_that_never_ends_is_read_only_briefly() {
    // A 500 whose body keeps the connection alive: only the profile's timeout is spent on it.
    let server = server(Rule::any().reply(Reply::with_status(500, Reply::keep_alive("")))).await;
    let profile = profile(ProviderKind::OpenAiCompatible, &server.base_url())
        .with_timeout_secs(1)
        .with_retries(0, 5);
    let model = connect_with_env(&profile, &test_env).unwrap();
    let started = Instant::now();
    let err = tokio::time::timeout(
        Duration::from_secs(20),
        stream_completion(model.as_ref(), &ChatRequest::new("x"), |_| {}),
    )
    .await
    .expect("the call returns")
    .unwrap_err();
    assert!(matches!(err, LlmError::Server { status: 500, .. }), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_timeout_is_retried_like_a_connection_failure() {
    let server = server(Rule::any().replies([
        Reply::delay(2500, Reply::text("too late")),
        Reply::from(Reply::text("in time")),
    ]))
    .await;
    let model = impatient_model(&server, 1);
    let done = model.complete(&ChatRequest::new("x")).await.unwrap();
    assert_eq!(done.text, "in time");
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn a_stream_that_does_not_start_in_time_is_retried_too() {
    let server = server(Rule::any().replies([
        Reply::delay(2500, Reply::text("too late")),
        Reply::from(Reply::text("in time")),
    ]))
    .await;
    let model = impatient_model(&server, 1);
    let done = stream_completion(model.as_ref(), &ChatRequest::new("x"), |_| {})
        .await
        .unwrap();
    assert_eq!(done.text, "in time");
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn a_plain_body_that_never_arrives_times_out_after_the_retries() {
    let server = server(Rule::any().reply(Reply::keep_alive(""))).await;
    let model = impatient_model(&server, 1);
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout { secs: 1, .. }), "{err}");
    assert_eq!(
        server.request_count(),
        3,
        "two retries after the first timeout"
    );
}
