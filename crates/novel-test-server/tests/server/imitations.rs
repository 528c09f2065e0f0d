//! The server imitating real ones over real HTTP: each server's own endpoints answer only when
//! it imitates that server, a missing model list is a 404, a refused parameter is a 400 naming
//! it that does not use up the scripted reply, and every request's path is logged.

use crate::common;

use common::post;
use novel_test_server::{Imitates, Reply, Rule, Script, TestServer};
use serde_json::{Value, json};

async fn get(url: String) -> (u16, Value) {
    let response = reqwest::get(url).await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post_json(url: String, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(url)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn ollama_lists_tags_and_shows_num_ctx_and_others_do_not() {
    let script = Script::new()
        .models(["llama3.1:8b", "qwen2.5:14b"])
        .like(Imitates::Ollama)
        .context_length(8192);
    let server = TestServer::start(script).await.unwrap();
    let root = server.root_url();
    let (status, tags) = get(format!("{root}/api/tags")).await;
    assert_eq!(status, 200);
    assert_eq!(tags["models"][1]["name"], "qwen2.5:14b");
    let (status, shown) =
        post_json(format!("{root}/api/show"), json!({"model": "llama3.1:8b"})).await;
    assert_eq!(status, 200);
    assert!(
        shown["parameters"]
            .as_str()
            .unwrap()
            .contains("num_ctx                        8192")
    );
    assert_eq!(shown["model_info"]["llama.context_length"], 32768);
    let (status, _) = post_json(format!("{root}/api/show"), json!({"model": "nope"})).await;
    assert_eq!(status, 404);
    // Not llama.cpp: its endpoints are not there.
    assert_eq!(get(format!("{root}/props")).await.0, 404);
    server.shutdown().await;

    let plain = TestServer::start(Script::new()).await.unwrap();
    assert_eq!(get(format!("{}/api/tags", plain.root_url())).await.0, 404);
    plain.shutdown().await;
}

#[tokio::test]
async fn llama_cpp_reports_n_ctx_and_tokenizes_by_words() {
    let script = Script::new()
        .models(["qwen2.5-7b-instruct-q4_k_m.gguf"])
        .like(Imitates::LlamaCpp)
        .context_length(16384);
    let server = TestServer::start(script).await.unwrap();
    let root = server.root_url();
    let (_, props) = get(format!("{root}/props")).await;
    assert_eq!(props["default_generation_settings"]["n_ctx"], 16384);
    let (_, models) = get(format!("{}/models", server.base_url())).await;
    assert_eq!(models["data"][0]["meta"]["n_ctx_train"], 65536);
    let (status, tokens) = post_json(
        format!("{root}/tokenize"),
        json!({"content": "The harbour slept, and Mira waited."}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(tokens["tokens"].as_array().unwrap().len(), 6);
    assert_eq!(
        server.hits(),
        ["GET /props", "GET /v1/models", "POST /tokenize"]
    );
    server.shutdown().await;
}

#[tokio::test]
async fn lm_studio_and_vllm_put_context_in_their_model_lists() {
    let studio = TestServer::start(
        Script::new()
            .models(["a", "b"])
            .like(Imitates::LmStudio)
            .context_length(4096),
    )
    .await
    .unwrap();
    let (_, listed) = get(format!("{}/api/v0/models", studio.root_url())).await;
    assert_eq!(listed["data"][0]["state"], "loaded");
    assert_eq!(listed["data"][0]["loaded_context_length"], 4096);
    assert_eq!(listed["data"][1]["max_context_length"], 16384);
    studio.shutdown().await;

    let vllm = TestServer::start(
        Script::new()
            .models(["meta-llama/Llama-3.1-8B-Instruct"])
            .like(Imitates::Vllm)
            .context_length(32768),
    )
    .await
    .unwrap();
    let (_, listed) = get(format!("{}/models", vllm.base_url())).await;
    assert_eq!(listed["data"][0]["owned_by"], "vllm");
    assert_eq!(listed["data"][0]["max_model_len"], 32768);
    vllm.shutdown().await;
}

#[tokio::test]
async fn a_server_without_a_model_list_answers_404() {
    let server = TestServer::start(Script::new().without_model_list())
        .await
        .unwrap();
    let (status, body) = get(format!("{}/models", server.base_url())).await;
    assert_eq!(status, 404);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/v1/models")
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_refused_parameter_is_named_and_does_not_use_up_the_reply() {
    let script = Script::new().rejecting("temperature").rule(
        Rule::any()
            .reply(Reply::text("first"))
            .reply(Reply::text("second")),
    );
    let server = TestServer::start(script).await.unwrap();
    let refused = post(&server.base_url(), &json!({"temperature": 0.7})).await;
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["param"], "temperature");
    assert_eq!(body["error"]["code"], "unsupported_parameter");
    let answered: Value = post(&server.base_url(), &json!({"temperature": null}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answered["choices"][0]["message"]["content"], "first");
    assert_eq!(
        server.request_count(),
        2,
        "the refused request is recorded too"
    );
    server.shutdown().await;
}
