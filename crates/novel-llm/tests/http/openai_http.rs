//! The OpenAI-compatible provider against the scriptable local test server: streaming and not,
//! retries, structured-output fallback, repair, and every error a user must be able to act on.

use crate::support;

use std::time::{Duration, Instant};

use novel_llm::{
    ChatRequest, FinishReason, LanguageModel, LlmError, OpenAiModel, ProviderKind, StructuredMode,
    complete_structured, connect_with_env, stream_completion, validator_from_schema,
};
use novel_test_server::{Reply, Rule, Script, TestServer};
use serde_json::{Value, json};
use support::{TEST_KEY, profile, test_env};

async fn server(rule: Rule) -> TestServer {
    TestServer::start(Script::new().rule(rule)).await.unwrap()
}

fn model_for(server: &TestServer) -> std::sync::Arc<dyn LanguageModel> {
    connect_with_env(
        &profile(ProviderKind::OpenAiCompatible, &server.base_url()),
        &test_env,
    )
    .unwrap()
}

fn plan_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"title": {"type": "string"}, "beats": {"type": "array", "items": {"type": "string"}}},
        "required": ["title", "beats"]
    })
}

fn format_type(body: &Value) -> Option<&str> {
    body.pointer("/response_format/type")
        .and_then(Value::as_str)
}

#[tokio::test]
async fn non_streaming_completion_with_server_usage_and_bearer_key() {
    let server = server(Rule::any().reply(Reply::text("The bell rang twice.").usage(17, 5))).await;
    let model = model_for(&server);
    let req = ChatRequest::new("Ring the bell.")
        .with_system("You narrate.")
        .with_max_tokens(50);
    let done = model.complete(&req).await.unwrap();
    assert_eq!(done.text, "The bell rang twice.");
    assert_eq!(
        (done.usage.prompt_tokens, done.usage.completion_tokens),
        (17, 5)
    );
    assert!(!done.usage.estimated);
    assert_eq!(done.finish_reason, FinishReason::Stop);

    let sent = &server.requests()[0];
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {TEST_KEY}").as_str())
    );
    assert_eq!(sent.body["stream"], false);
    assert_eq!(sent.body["model"], "test-model");
    assert_eq!(sent.body["max_tokens"], 50);
    assert_eq!(
        sent.body["messages"][0],
        json!({"role": "system", "content": "You narrate."})
    );
}

#[tokio::test]
async fn streaming_completion_arrives_in_pieces_with_usage() {
    let text =
        "Rain drummed on the tin roof while Mara counted the seconds between thunder and light.";
    let server = server(Rule::any().reply(Reply::text(text).usage(30, 18))).await;
    let model = model_for(&server);
    let mut pieces = Vec::new();
    let done = stream_completion(model.as_ref(), &ChatRequest::new("Write."), |d| {
        pieces.push(d.to_string())
    })
    .await
    .unwrap();
    assert!(pieces.len() > 1, "{pieces:?}");
    assert_eq!(pieces.concat(), text);
    assert_eq!(done.text, text);
    assert_eq!(
        (done.usage.completion_tokens, done.usage.estimated),
        (18, false)
    );
    assert_eq!(
        server.requests()[0].body["stream_options"]["include_usage"],
        true
    );
}

#[tokio::test]
async fn usage_is_counted_when_the_server_sends_none() {
    let server = server(Rule::any().reply(Reply::text("A quiet answer.").omit_usage())).await;
    let model = model_for(&server);
    let streamed = stream_completion(model.as_ref(), &ChatRequest::new("Speak."), |_| {})
        .await
        .unwrap();
    assert!(streamed.usage.estimated);
    assert_eq!(
        streamed.usage.completion_tokens,
        novel_llm::count_tokens("A quiet answer.")
    );
    let plain = model.complete(&ChatRequest::new("Speak.")).await.unwrap();
    assert!(plain.usage.estimated && plain.usage.prompt_tokens > 0);
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_servers_wait() {
    let server = server(
        Rule::any()
            .reply(Reply::status(429).retry_after("1"))
            .reply(Reply::text("finally")),
    )
    .await;
    let model = model_for(&server);
    let started = Instant::now();
    let done = model.complete(&ChatRequest::new("x")).await.unwrap();
    assert_eq!(done.text, "finally");
    assert_eq!(server.request_count(), 2);
    // The profile's own backoff is 5 ms, so only Retry-After explains a full second.
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn server_errors_run_out_of_retries_and_say_how_many_attempts() {
    let server = server(Rule::any().reply(Reply::status(500))).await;
    let model = model_for(&server);
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    assert!(
        matches!(
            err,
            LlmError::Server {
                status: 500,
                attempts: 3,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("3 attempts"), "{err}");
    assert!(err.is_transient());
    assert_eq!(server.request_count(), 3);
}

#[tokio::test]
async fn json_schema_rejection_falls_back_to_json_object_and_remembers() {
    let answer = json!({"title": "Night", "beats": ["a"]}).to_string();
    let server = server(Rule::any().reply(Reply::reject_json_schema(Reply::text(answer)))).await;
    let profile = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    let model = OpenAiModel::new(&profile, None).unwrap();
    let req = ChatRequest::new("Plan.").with_json_schema("plan", plan_schema());

    let first = model.complete(&req).await.unwrap();
    assert!(first.text.contains("Night"));
    assert_eq!(model.structured_mode(), StructuredMode::JsonObject);
    model.complete(&req).await.unwrap();

    let formats: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| format_type(&r.body).map(str::to_string))
        .collect();
    // One rejected json_schema, then json_object for the retry and straight away next time.
    assert_eq!(
        formats,
        [
            Some("json_schema".into()),
            Some("json_object".into()),
            Some("json_object".into())
        ]
    );
    let system = server.requests()[1].body["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        system.contains("\"beats\""),
        "the schema must reach the model: {system}"
    );
}

#[tokio::test]
async fn servers_refusing_any_format_get_the_schema_in_the_prompt_only() {
    let answer = json!({"title": "Dawn", "beats": []}).to_string();
    let server =
        server(Rule::any().reply(Reply::reject_response_format(Reply::text(answer)))).await;
    let model = model_for(&server);
    let req = ChatRequest::new("Plan.").with_json_schema("plan", plan_schema());
    let done = stream_completion(model.as_ref(), &req, |_| {})
        .await
        .unwrap();
    assert!(done.text.contains("Dawn"));
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[2].body.get("response_format").is_none());
}

#[tokio::test]
async fn invalid_json_gets_exactly_one_repair_request() {
    let server = server(Rule::any().replies([
        Reply::text("{\"title\": \"Night\"}"),
        Reply::text("{\"title\": \"Night\", \"beats\": [\"arrive\"]}"),
    ]))
    .await;
    let model = model_for(&server);
    let validate = validator_from_schema(&plan_schema()).unwrap();
    let req = ChatRequest::new("Plan.").with_json_schema("plan", plan_schema());
    let done = complete_structured(model.as_ref(), &req, &validate)
        .await
        .unwrap();
    assert!(done.repaired);
    assert_eq!(done.value["beats"][0], "arrive");
    assert_eq!(done.completions.len(), 2);
    assert_eq!(server.request_count(), 2);
    let repair = &server.requests()[1].body["messages"];
    let last = repair.as_array().unwrap().last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        last.contains("beats"),
        "the repair must show the error: {last}"
    );
}

#[tokio::test]
async fn valid_json_takes_a_single_call() {
    let server = server(Rule::any().reply(Reply::text("{\"title\": \"T\", \"beats\": []}"))).await;
    let model = model_for(&server);
    let validate = validator_from_schema(&plan_schema()).unwrap();
    let req = ChatRequest::new("Plan.").with_json_schema("plan", plan_schema());
    let done = complete_structured(model.as_ref(), &req, &validate)
        .await
        .unwrap();
    assert!(!done.repaired);
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn rejected_key_names_the_variable_and_never_shows_the_key() {
    let echo = json!({"error": {"message": format!("Incorrect API key provided: {TEST_KEY}")}});
    let server = server(Rule::any().reply(Reply::status(401).body(echo))).await;
    let model = model_for(&server);
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::Auth { status: 401, .. }), "{text}");
    assert!(text.contains("$NOVEL_TEST_KEY"), "{text}");
    assert!(
        !text.contains(TEST_KEY) && !format!("{err:?}").contains(TEST_KEY),
        "{text}"
    );
    assert_eq!(server.request_count(), 1, "auth failures are not retried");
}

#[tokio::test]
async fn unknown_model_names_model_and_url() {
    let server = server(Rule::any().reply(Reply::status(404))).await;
    let model = model_for(&server);
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::NotFound { .. }), "{text}");
    assert!(
        text.contains("`test-model`") && text.contains(&server.base_url()),
        "{text}"
    );
}

#[tokio::test]
async fn other_rejections_are_reported_once_without_retry() {
    let body = json!({"error": {"message": "context length exceeded"}});
    let server = server(Rule::any().reply(Reply::status(400).body(body))).await;
    let model = model_for(&server);
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    assert!(
        matches!(err, LlmError::BadRequest { status: 400, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("context length exceeded"));
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn max_tokens_refusal_switches_to_max_completion_tokens() {
    let refusal = json!({"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}});
    let script = Script::new()
        .rule(Rule::when("\"max_tokens\"").reply(Reply::status(400).body(refusal)))
        .rule(Rule::any().reply(Reply::text("ok")));
    let server = TestServer::start(script).await.unwrap();
    let model = model_for(&server);
    let req = ChatRequest::new("x").with_max_tokens(64);
    assert_eq!(model.complete(&req).await.unwrap().text, "ok");
    assert_eq!(model.complete(&req).await.unwrap().text, "ok");
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "the switch is remembered");
    assert_eq!(requests[2].body["max_completion_tokens"], 64);
}

#[tokio::test]
async fn a_cut_stream_is_an_error_not_a_short_answer() {
    let server = server(Rule::any().reply(Reply::cut_stream(
        "Mara opened the door and stepped into the cold hallway, listening.",
        30,
    )))
    .await;
    let model = model_for(&server);
    let mut received = String::new();
    let err = stream_completion(model.as_ref(), &ChatRequest::new("x"), |d| {
        received.push_str(d)
    })
    .await
    .unwrap_err();
    assert!(matches!(err, LlmError::StreamCut { .. }), "{err}");
    assert!(!received.is_empty() && received.len() <= 30, "{received:?}");
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let server = server(Rule::any().reply(Reply::delay(3000, Reply::text("late")))).await;
    let profile = profile(ProviderKind::OpenAiCompatible, &server.base_url()).with_timeout_secs(1);
    let model = connect_with_env(&profile, &test_env).unwrap();
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout { secs: 1, .. }), "{err}");
    assert!(err.to_string().contains("timeout_secs"));
}

#[tokio::test]
async fn no_server_is_a_connect_error_naming_the_url() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/v1");
    let model =
        connect_with_env(&profile(ProviderKind::OpenAiCompatible, &url), &test_env).unwrap();
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, LlmError::Connect { attempts: 3, .. }),
        "{text}"
    );
    assert!(
        text.contains(&url) && text.contains("is the server running"),
        "{text}"
    );
    let err = model.stream(&ChatRequest::new("x")).await.err().unwrap();
    assert!(matches!(err, LlmError::Connect { .. }), "{err}");
}
