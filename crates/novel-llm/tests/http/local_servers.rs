//! Profiles meeting real servers' quirks, played by the local test server: Ollama's
//! `/api/tags`, LM Studio's and llama.cpp's own endpoints, a server answering `json_schema` with
//! a 500, one that refuses `temperature`, one with no `/v1/models`; detection of servers on
//! (injected) ports; token counts from llama.cpp's `/tokenize`; what a connection test records.

use crate::support;

use std::net::TcpListener;

use novel_llm::{
    ChatRequest, Keychain, LlmError, LocalServer, ProbeTarget, ProviderKind, ProviderProfile,
    StructuredOutput, TokenSource, complete_structured, connect_with_env, count_prompt, detect,
    list_models, test_profile, token_counter, validator_from_schema,
};
use novel_test_server::{Imitates, Reply, Rule, Script, ServerStyle, TestServer};
use serde_json::{Value, json};
use support::{profile, test_env};

const OK: &str = "{\"ok\": true}";

fn no_keychain() -> Result<Keychain, LlmError> {
    Err(LlmError::Config("no keychain in tests".into()))
}

async fn start(script: Script) -> TestServer {
    TestServer::start(script).await.unwrap()
}

fn format_type(body: &Value) -> Option<String> {
    body.pointer("/response_format/type")
        .and_then(Value::as_str)
        .map(str::to_string)
}

#[tokio::test]
async fn ollama_models_come_from_api_tags_with_the_num_ctx_they_run_with() {
    let server = start(
        Script::new()
            .models(["llama3.1:8b", "qwen2.5:14b"])
            .like(Imitates::Ollama)
            .context_length(8192),
    )
    .await;
    let ollama = profile(ProviderKind::Ollama, &server.base_url());
    let list = list_models(&ollama, &test_env, &no_keychain).await.unwrap();
    let got: Vec<(&str, Option<u32>)> = list
        .models
        .iter()
        .map(|m| (m.id.as_str(), m.context_length))
        .collect();
    assert_eq!(
        got,
        [("llama3.1:8b", Some(8192)), ("qwen2.5:14b", Some(8192))]
    );
    assert!(list.source.ends_with("/api/tags"), "{}", list.source);
    assert_eq!(
        server.hits(),
        ["GET /api/tags", "POST /api/show", "POST /api/show"]
    );
}

#[tokio::test]
async fn local_openai_servers_get_their_context_from_their_own_endpoints() {
    let studio = start(
        Script::new()
            .models(["qwen2.5-7b-instruct", "mistral-7b"])
            .like(Imitates::LmStudio)
            .context_length(8192),
    )
    .await;
    let listed = list_models(
        &profile(ProviderKind::OpenAiCompatible, &studio.base_url()),
        &test_env,
        &no_keychain,
    )
    .await
    .unwrap();
    assert_eq!(listed.models[0].context_length, Some(8192), "as loaded");
    assert_eq!(listed.models[0].loaded, Some(true));
    assert_eq!(listed.models[1].context_length, Some(32768), "its maximum");

    let llama = start(
        Script::new()
            .models(["qwen.gguf"])
            .like(Imitates::LlamaCpp)
            .context_length(16384),
    )
    .await;
    let listed = list_models(
        &profile(ProviderKind::OpenAiCompatible, &llama.base_url()),
        &test_env,
        &no_keychain,
    )
    .await
    .unwrap();
    assert_eq!(
        listed.models[0].context_length,
        Some(16384),
        "n_ctx from /props, not the training context"
    );
}

#[tokio::test]
async fn a_server_without_a_model_list_says_to_type_the_name() {
    let server = start(Script::new().without_model_list()).await;
    let list = list_models(
        &profile(ProviderKind::OpenAiCompatible, &server.base_url()),
        &test_env,
        &no_keychain,
    )
    .await
    .unwrap();
    assert!(list.models.is_empty());
    assert!(list.note.unwrap().contains("type the model's name"));

    let mut down = profile(ProviderKind::OpenAiCompatible, "http://127.0.0.1:9/v1");
    down.name = "down".into();
    let err = list_models(&down, &test_env, &no_keychain)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("http://127.0.0.1:9/v1/models") && err.contains("is the server running"),
        "{err}"
    );
}

#[tokio::test]
async fn a_server_answering_json_schema_with_a_500_is_recorded_and_then_asked_for_json_object() {
    let server = start(
        Script::new().rule(Rule::any().reply(Reply::reject_json_schema_like(
            ServerStyle::LlamaCpp,
            Reply::text(OK),
        ))),
    )
    .await;
    let local = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    let tested = test_profile(&local, &test_env, &no_keychain).await.unwrap();
    assert_eq!(tested.profile.capabilities.json_schema, Some(false));
    assert_eq!(tested.profile.capabilities.json_object, Some(true));
    assert_eq!(tested.profile.capabilities.temperature, Some(true));
    assert_eq!(tested.report.json_mode, StructuredOutput::JsonObject);
    assert!(tested.report.structured_output);
    assert!(tested.changed);
    // One 500 for the json_schema probe, none retried; then json_object, temperature, the probe.
    let formats: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| format_type(&r.body))
        .collect();
    assert_eq!(
        formats,
        [
            Some("json_schema".into()),
            Some("json_object".into()),
            None,
            Some("json_object".into())
        ]
    );

    // A model built from the recorded profile never asks for json_schema again.
    let before = server.request_count();
    let model = connect_with_env(&tested.profile, &test_env).unwrap();
    let schema =
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    let request = ChatRequest::new("ok?").with_json_schema("t", schema.clone());
    complete_structured(&*model, &request, &*validator_from_schema(&schema).unwrap())
        .await
        .unwrap();
    let sent = &server.requests()[before..];
    assert_eq!(sent.len(), 1);
    assert_eq!(format_type(&sent[0].body).as_deref(), Some("json_object"));
}

#[tokio::test]
async fn a_pinned_json_schema_is_not_stepped_down_and_the_error_names_the_setting() {
    let server = start(
        Script::new().rule(Rule::any().reply(Reply::reject_json_schema_like(
            ServerStyle::LlamaCpp,
            Reply::text(OK),
        ))),
    )
    .await;
    let mut pinned = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    pinned.structured_output = StructuredOutput::JsonSchema;
    let model = connect_with_env(&pinned, &test_env).unwrap();
    let request = ChatRequest::new("ok?").with_json_schema("t", json!({"type": "object"}));
    let err = model.complete(&request).await.unwrap_err().to_string();
    assert!(
        err.contains("structured_output = \"json_schema\"") && err.contains("\"auto\""),
        "{err}"
    );
    assert_eq!(server.request_count(), 1, "no step-down, no retry");

    let mut prompt_only = pinned.clone();
    prompt_only.structured_output = StructuredOutput::PromptOnly;
    let model = connect_with_env(&prompt_only, &test_env).unwrap();
    model.complete(&request).await.unwrap();
    let last = server.requests().pop().unwrap();
    assert_eq!(format_type(&last.body), None);
    let system = last.body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("JSON Schema"), "{system}");
}

#[tokio::test]
async fn a_refused_temperature_is_dropped_remembered_and_recorded() {
    let server = start(
        Script::new()
            .rejecting("temperature")
            .rule(Rule::when("Reply with the JSON object").reply(Reply::text(OK)))
            .rule(Rule::any().reply(Reply::text("The tide turned."))),
    )
    .await;
    let mut warm = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    warm.temperature = Some(0.9);
    let model = connect_with_env(&warm, &test_env).unwrap();
    for _ in 0..2 {
        let done = model.complete(&ChatRequest::new("Go on.")).await.unwrap();
        assert_eq!(done.text, "The tide turned.");
    }
    let temperatures: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r.body["temperature"].clone())
        .collect();
    assert_eq!(
        temperatures,
        [json!(0.9), Value::Null, Value::Null],
        "refused once, resent without it, then never sent again"
    );

    let tested = test_profile(&warm, &test_env, &no_keychain).await.unwrap();
    assert_eq!(tested.profile.capabilities.temperature, Some(false));
    let before = server.request_count();
    let fresh = connect_with_env(&tested.profile, &test_env).unwrap();
    fresh.complete(&ChatRequest::new("Go on.")).await.unwrap();
    assert_eq!(
        server.request_count(),
        before + 1,
        "known from the test: no refusal"
    );
    assert_eq!(
        server.requests().last().unwrap().body["temperature"],
        Value::Null
    );
}

#[tokio::test]
async fn profile_settings_reach_the_wire() {
    let server = start(Script::new().rule(Rule::any().reply(Reply::text("x")))).await;
    let mut tuned = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    tuned.temperature = Some(0.65);
    tuned.top_p = Some(0.9);
    tuned.max_output_tokens = Some(700);
    let model = connect_with_env(&tuned, &test_env).unwrap();
    model
        .complete(&ChatRequest::new("x").with_max_tokens(4000))
        .await
        .unwrap();
    let body = &server.requests()[0].body;
    assert_eq!(
        body["temperature"].as_f64().map(|t| (t * 100.0).round()),
        Some(65.0)
    );
    assert_eq!(
        body["top_p"].as_f64().map(|p| (p * 100.0).round()),
        Some(90.0)
    );
    assert_eq!(body["max_tokens"], 700);
}

#[tokio::test]
async fn a_connection_test_records_the_context_length_the_server_reports() {
    let server = start(
        Script::new()
            .models(["meta-llama/Llama-3.1-8B-Instruct"])
            .like(Imitates::Vllm)
            .context_length(32768)
            .rule(Rule::any().reply(Reply::text(OK))),
    )
    .await;
    let mut vllm = profile(ProviderKind::OpenAiCompatible, &server.base_url());
    vllm.model = "meta-llama/Llama-3.1-8B-Instruct".into();
    let tested = test_profile(&vllm, &test_env, &no_keychain).await.unwrap();
    assert_eq!(tested.profile.context_length, Some(32768));
    assert_eq!(tested.report.context_length, Some(32768));
    assert_eq!(tested.profile.capabilities.json_schema, Some(true));
    assert_eq!(
        tested.report.tokens,
        TokenSource::Estimate,
        "vLLM has no /tokenize"
    );
    let again = test_profile(&tested.profile, &test_env, &no_keychain)
        .await
        .unwrap();
    assert!(!again.changed, "nothing new to record");
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    port
}

#[tokio::test]
async fn detection_finds_each_local_server_by_what_it_answers() {
    let ollama = start(
        Script::new()
            .models(["llama3.1:8b"])
            .like(Imitates::Ollama)
            .context_length(8192),
    )
    .await;
    let studio = start(
        Script::new()
            .models(["qwen2.5-7b-instruct"])
            .like(Imitates::LmStudio)
            .context_length(4096),
    )
    .await;
    let llama = start(
        Script::new()
            .models(["model.gguf"])
            .like(Imitates::LlamaCpp)
            .context_length(16384),
    )
    .await;
    let vllm = start(
        Script::new()
            .models(["Qwen/Qwen2.5-7B-Instruct"])
            .like(Imitates::Vllm)
            .context_length(32768),
    )
    .await;
    let jan = start(Script::new().models(["llama3.2-3b"]).like(Imitates::Jan)).await;
    // Something on a port that is not a model server at all.
    let not_a_model_server = start(Script::new().without_model_list()).await;
    let port = |s: &TestServer| s.addr().port();
    let targets = [
        // Deliberately on the "wrong" usual kinds: identified by answers, not ports.
        ProbeTarget {
            usual: LocalServer::LlamaCpp,
            port: port(&ollama),
        },
        ProbeTarget {
            usual: LocalServer::Ollama,
            port: port(&studio),
        },
        ProbeTarget {
            usual: LocalServer::Vllm,
            port: port(&llama),
        },
        ProbeTarget {
            usual: LocalServer::Jan,
            port: closed_port(),
        },
        ProbeTarget {
            usual: LocalServer::Ollama,
            port: port(&vllm),
        },
        ProbeTarget {
            usual: LocalServer::Jan,
            port: port(&jan),
        },
        ProbeTarget {
            usual: LocalServer::LlamaCpp,
            port: port(&not_a_model_server),
        },
    ];
    let found = detect(&targets, novel_llm::PROBE_TIMEOUT).await;
    let summary: Vec<(LocalServer, String, Option<u32>)> = found
        .iter()
        .map(|f| (f.server, f.models[0].id.clone(), f.models[0].context_length))
        .collect();
    assert_eq!(
        summary,
        [
            (LocalServer::Ollama, "llama3.1:8b".into(), Some(8192)),
            (
                LocalServer::LmStudio,
                "qwen2.5-7b-instruct".into(),
                Some(4096)
            ),
            (LocalServer::LlamaCpp, "model.gguf".into(), Some(16384)),
            (
                LocalServer::Vllm,
                "Qwen/Qwen2.5-7B-Instruct".into(),
                Some(32768)
            ),
            (LocalServer::Jan, "llama3.2-3b".into(), None),
        ]
    );
    assert_eq!(
        found[0].base_url,
        format!("http://127.0.0.1:{}/v1", port(&ollama))
    );
    // A suggested profile works as it is.
    let suggested: ProviderProfile = found[2].profile(None);
    assert_eq!(suggested.context_length, Some(16384));
    suggested.validate().unwrap();
    assert_eq!(
        found[0].profile(None).kind,
        ProviderKind::Ollama,
        "Ollama gets its own kind"
    );
}

#[tokio::test]
async fn llama_cpp_counts_tokens_once_per_text_and_a_server_without_tokenize_is_asked_once() {
    let llama = start(Script::new().like(Imitates::LlamaCpp)).await;
    let local = profile(ProviderKind::OpenAiCompatible, &llama.base_url());
    let counter = token_counter(&local);
    assert_eq!(counter.source(), TokenSource::Server);
    let request = ChatRequest::new("one two three four").with_system("five six");
    let counted = count_prompt(&*counter, &request).await;
    assert_eq!(
        counted,
        6 + 3 * 2 + 3,
        "six words, markup for two messages and the reply"
    );
    assert_eq!(count_prompt(&*counter, &request).await, counted);
    let tokenize_calls = llama
        .hits()
        .iter()
        .filter(|h| h.as_str() == "POST /tokenize")
        .count();
    assert_eq!(tokenize_calls, 1, "the second count came from the cache");
    assert_eq!(
        counter.ratio(),
        None,
        "six words are too few to calibrate on"
    );
    counter
        .count(&"a longer sentence of plain words ".repeat(8))
        .await;
    assert!(
        token_counter(&local).ratio().is_some(),
        "the counter is shared: calibrated already"
    );

    let plain = start(Script::new()).await;
    let counter = token_counter(&profile(ProviderKind::OpenAiCompatible, &plain.base_url()));
    let first = counter.count("antidisestablishmentarianism is long").await;
    assert_eq!(
        first,
        novel_llm::count_tokens("antidisestablishmentarianism is long")
    );
    assert_eq!(counter.source(), TokenSource::Estimate);
    counter.count("another text").await;
    assert_eq!(
        plain.hits(),
        ["POST /tokenize"],
        "asked once, then estimated"
    );
}

#[tokio::test]
async fn a_connected_model_says_how_its_own_tokenizer_counts_against_the_estimate() {
    // The test llama.cpp counts one token per word, fewer than the o200k estimate of the same
    // prose and JSON: prompt budgets may hold more text for it.
    let llama = start(Script::new().like(Imitates::LlamaCpp)).await;
    let model = connect_with_env(
        &profile(ProviderKind::OpenAiCompatible, &llama.base_url()),
        &test_env,
    )
    .unwrap();
    let ratio = model.tokens_per_estimate().await;
    assert!(ratio > 0.3 && ratio < 0.9, "one token a word: {ratio}");
    assert_eq!(model.tokens_per_estimate().await, ratio);
    let asked = |server: &TestServer| {
        server
            .hits()
            .iter()
            .filter(|h| h.as_str() == "POST /tokenize")
            .count()
    };
    assert_eq!(asked(&llama), 1, "calibrated once");

    // Ollama has no tokenizer to ask: its budgets stay as estimated, and it is never asked.
    let ollama = start(Script::new().like(Imitates::Ollama)).await;
    let model = connect_with_env(
        &profile(ProviderKind::Ollama, &ollama.base_url()),
        &test_env,
    )
    .unwrap();
    assert_eq!(model.tokens_per_estimate().await, 1.0);
    assert_eq!(asked(&ollama), 0);
}
