//! Wire-format tests over real HTTP: completion and chunk shapes, usage, streaming, cut
//! streams, the model list and error responses.

use crate::common;

use common::{content_of, post, post_raw, read_sse};
use novel_test_server::{Reply, Rule, Script, TestServer};
use serde_json::{Value, json};

const LONG: &str = "The rain had not stopped for three days, and the harbour smelled of tar and \
                    old rope when Mira finally found the letter.";

fn chars_div4(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

#[tokio::test]
async fn non_streaming_reply_has_openai_shape_and_estimated_usage() {
    let server = TestServer::start(Script::new().rule(Rule::any().reply(Reply::text(LONG))))
        .await
        .unwrap();
    let raw = r#"{"model":"my-model","messages":[{"role":"user","content":"Write."}]}"#;
    let response = post_raw(&server.base_url(), raw).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["object"], "chat.completion");
    assert_eq!(body["model"], "my-model");
    assert!(body["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert!(body["created"].as_u64().unwrap() > 0);
    let choice = &body["choices"][0];
    assert_eq!(choice["index"], 0);
    assert_eq!(choice["message"]["role"], "assistant");
    assert_eq!(choice["message"]["content"], LONG);
    assert_eq!(choice["finish_reason"], "stop");
    assert_eq!(body["usage"]["prompt_tokens"], chars_div4(raw));
    assert_eq!(body["usage"]["completion_tokens"], chars_div4(LONG));
    assert_eq!(
        body["usage"]["total_tokens"],
        chars_div4(raw) + chars_div4(LONG)
    );
    server.shutdown().await;
}

#[tokio::test]
async fn explicit_usage_is_reported_and_omit_usage_sends_none() {
    let script = Script::new()
        .rule(Rule::any().replies([Reply::text("a").usage(10, 5), Reply::text("b").omit_usage()]));
    let server = TestServer::start(script).await.unwrap();
    let first: Value = post(&server.base_url(), &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["usage"],
        json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
    );
    let second: Value = post(&server.base_url(), &json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(second["choices"][0]["message"]["content"], "b");
    assert!(second.get("usage").is_none(), "{second}");
    let streamed = read_sse(
        post(
            &server.base_url(),
            &json!({"stream": true, "stream_options": {"include_usage": true}}),
        )
        .await,
    )
    .await;
    assert!(
        streamed
            .chunks()
            .iter()
            .all(|chunk| chunk.get("usage").is_none())
    );
    server.shutdown().await;
}

#[tokio::test]
async fn streaming_reply_reassembles_with_role_finish_usage_and_done() {
    let server = TestServer::start(Script::new().rule(Rule::any().reply(Reply::text(LONG))))
        .await
        .unwrap();
    let request = json!({"model": "m", "stream": true, "stream_options": {"include_usage": true}});
    let response = post(&server.base_url(), &request).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let sse = read_sse(response).await;
    assert!(!sse.broken);
    assert_eq!(sse.content(), LONG);
    assert_eq!(sse.events.last().map(String::as_str), Some("[DONE]"));
    let chunks = sse.chunks();
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let pieces = chunks
        .iter()
        .filter(|c| {
            c.pointer("/choices/0/delta/content")
                .is_some_and(|p| p != "")
        })
        .count();
    assert!(
        pieces >= 3,
        "content should arrive in several chunks, got {pieces}"
    );
    let finish = chunks
        .iter()
        .position(|c| c["choices"][0]["finish_reason"] == "stop")
        .expect("a finish chunk");
    let usage = chunks.len() - 1;
    assert!(finish < usage);
    assert_eq!(chunks[usage]["choices"], json!([]));
    assert_eq!(
        chunks[usage]["usage"]["completion_tokens"],
        chars_div4(LONG)
    );
    server.shutdown().await;
}

#[tokio::test]
async fn stream_usage_only_when_requested_or_forced_by_the_reply() {
    let script = Script::new()
        .rule(Rule::when("forced").reply(Reply::text("x").stream_usage()))
        .rule(Rule::any().reply(Reply::text("y")));
    let server = TestServer::start(script).await.unwrap();
    let has_usage = |sse: &common::Sse| sse.chunks().iter().any(|c| c.get("usage").is_some());
    let plain = read_sse(post(&server.base_url(), &json!({"stream": true})).await).await;
    assert_eq!(plain.content(), "y");
    assert!(!has_usage(&plain));
    assert_eq!(plain.events.last().map(String::as_str), Some("[DONE]"));
    let forced = read_sse(
        post(
            &server.base_url(),
            &json!({"stream": true, "note": "forced"}),
        )
        .await,
    )
    .await;
    assert_eq!(forced.content(), "x");
    assert!(has_usage(&forced));
    server.shutdown().await;
}

#[tokio::test]
async fn cut_stream_drops_the_connection_before_finish_and_done() {
    let script = Script::new().rule(Rule::any().reply(Reply::cut_stream(LONG, 30)));
    let server = TestServer::start(script).await.unwrap();
    let sse = read_sse(post(&server.base_url(), &json!({"stream": true})).await).await;
    assert!(sse.broken, "the connection should be dropped mid-body");
    assert_eq!(sse.content(), LONG.chars().take(30).collect::<String>());
    assert!(!sse.events.iter().any(|e| e == "[DONE]"));
    assert!(
        sse.chunks()
            .iter()
            .all(|c| c["choices"][0]["finish_reason"].is_null())
    );
    let non_streaming = post(&server.base_url(), &json!({})).await;
    assert_eq!(non_streaming.status(), 200);
    assert!(non_streaming.json::<Value>().await.is_err());
    server.shutdown().await;
}

#[tokio::test]
async fn models_list_and_path_without_v1_prefix() {
    let script = Script::new()
        .models(["alpha", "beta"])
        .rule(Rule::any().reply(Reply::text("ok")));
    let server = TestServer::start(script).await.unwrap();
    let models: Value = reqwest::get(format!("{}/models", server.base_url()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["alpha", "beta"]);
    let root = format!("http://{}", server.addr());
    assert_eq!(content_of(&root, &json!({})).await, "ok");
    assert_eq!(server.requests()[0].path, "/chat/completions");
    server.shutdown().await;
}

#[tokio::test]
async fn bad_json_unknown_path_and_unscripted_requests_fail_loudly() {
    let server = TestServer::start(Script::new()).await.unwrap();
    let bad = post_raw(&server.base_url(), "{not json").await;
    assert_eq!(bad.status(), 400);
    let bad: Value = bad.json().await.unwrap();
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );

    let unscripted = post(&server.base_url(), &json!({"messages": []})).await;
    assert_eq!(unscripted.status(), 500);
    let unscripted: Value = unscripted.json().await.unwrap();
    assert_eq!(
        unscripted["error"]["message"],
        "test server: no scripted reply for this request"
    );

    let missing = reqwest::get(format!("{}/embeddings", server.base_url()))
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert!(missing.json::<Value>().await.unwrap()["error"]["message"].is_string());

    let recorded = server.requests();
    assert_eq!(
        recorded.len(),
        2,
        "both chat requests are recorded, the 404 is not"
    );
    assert_eq!(recorded[0].body, Value::Null);
    assert_eq!(recorded[1].body, json!({"messages": []}));
    server.shutdown().await;
}
