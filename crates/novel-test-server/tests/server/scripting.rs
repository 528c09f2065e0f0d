//! Script behaviour over real HTTP: rule order, repeat_last, `{{n}}`, scripted statuses,
//! response_format rejection, delays and request recording.

use crate::common;

use std::time::Duration;

use common::{content_of, post, read_sse};
use novel_test_server::{Reply, Rule, Script, TestServer};
use serde_json::{Value, json};

fn plan_request() -> Value {
    json!({"tools": [{"type": "function", "function": {"name": "plan"}}]})
}

#[tokio::test]
async fn rules_match_raw_body_in_order_and_repeat_last() {
    let script = Script::new()
        .rule(
            Rule::when("\"name\":\"plan\"").replies([Reply::text("plan A"), Reply::text("plan B")]),
        )
        .rule(
            Rule::when("scene")
                .reply(Reply::text("only scene"))
                .no_repeat(),
        )
        .rule(Rule::any().reply(Reply::text("fallback")));
    let server = TestServer::start(script).await.unwrap();
    let base = server.base_url();
    let scene = json!({"messages": [{"role": "user", "content": "write the scene"}]});
    assert_eq!(content_of(&base, &plan_request()).await, "plan A");
    assert_eq!(content_of(&base, &scene).await, "only scene");
    assert_eq!(content_of(&base, &plan_request()).await, "plan B");
    assert_eq!(content_of(&base, &plan_request()).await, "plan B");
    assert_eq!(content_of(&base, &scene).await, "fallback");
    server.shutdown().await;
}

#[tokio::test]
async fn counter_template_numbers_each_answer_of_a_rule() {
    let script = Script::new()
        .rule(Rule::when("plan").reply(Reply::text("Plan for tick {{n}}")))
        .rule(Rule::any().reply(Reply::text("Scene {{n}}.")));
    let server = TestServer::start(script).await.unwrap();
    let base = server.base_url();
    assert_eq!(content_of(&base, &plan_request()).await, "Plan for tick 1");
    assert_eq!(content_of(&base, &json!({})).await, "Scene 1.");
    let streamed = read_sse(post(&base, &json!({"stream": true, "x": "plan"})).await).await;
    assert_eq!(streamed.content(), "Plan for tick 2");
    assert_eq!(content_of(&base, &json!({})).await, "Scene 2.");
    server.shutdown().await;
}

#[tokio::test]
async fn status_reply_sends_code_error_body_and_retry_after() {
    let script = Script::new().rule(Rule::any().replies([
        Reply::from(Reply::status(429).retry_after("1")),
        Reply::from(Reply::status(503).body(json!({"detail": "overloaded"}))),
        Reply::from(Reply::text("recovered")),
    ]));
    let server = TestServer::start(script).await.unwrap();
    let base = server.base_url();
    // Streamed requests get scripted errors as plain JSON too, like real servers.
    let limited = post(&base, &json!({"stream": true})).await;
    assert_eq!(limited.status(), 429);
    assert_eq!(limited.headers()["retry-after"], "1");
    let limited: Value = limited.json().await.unwrap();
    assert_eq!(limited["error"]["type"], "rate_limit_error");
    assert!(limited["error"]["message"].is_string());
    let overloaded = post(&base, &json!({})).await;
    assert_eq!(overloaded.status(), 503);
    assert!(overloaded.headers().get("retry-after").is_none());
    assert_eq!(
        overloaded.json::<Value>().await.unwrap(),
        json!({"detail": "overloaded"})
    );
    assert_eq!(content_of(&base, &json!({})).await, "recovered");
    server.shutdown().await;
}

#[tokio::test]
async fn reject_json_schema_refuses_schema_but_accepts_json_object_then_answers() {
    let script = Script::new()
        .rule(Rule::when("strict").reply(Reply::reject_response_format(Reply::text("{}"))))
        .rule(Rule::any().replies([
            Reply::reject_json_schema(Reply::text("{\"n\":{{n}}}")),
            Reply::text("second").into(),
        ]));
    let server = TestServer::start(script).await.unwrap();
    let base = server.base_url();
    let schema =
        json!({"response_format": {"type": "json_schema", "json_schema": {"name": "plan"}}});
    let rejected = post(&base, &schema).await;
    assert_eq!(rejected.status(), 400);
    let message = rejected.json::<Value>().await.unwrap()["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.contains("response_format") && message.contains("json_schema"),
        "{message}"
    );
    let object = json!({"response_format": {"type": "json_object", "schema": {}}});
    assert_eq!(
        content_of(&base, &object).await,
        "{\"n\":1}",
        "the rejection consumed nothing"
    );
    assert_eq!(content_of(&base, &schema).await, "second");

    let strict_object = json!({"m": "strict", "response_format": {"type": "json_object"}});
    assert_eq!(post(&base, &strict_object).await.status(), 400);
    assert_eq!(content_of(&base, &json!({"m": "strict"})).await, "{}");
    server.shutdown().await;
}

#[tokio::test]
async fn delayed_reply_outlasts_a_client_timeout_and_short_delay_answers() {
    let script = Script::new()
        .rule(Rule::when("slow").reply(Reply::delay(5_000, Reply::text("too late"))))
        .rule(Rule::any().reply(Reply::delay(10, Reply::text("after a pause"))));
    let server = TestServer::start(script).await.unwrap();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let err = client
        .post(format!("{}/chat/completions", server.base_url()))
        .body(r#"{"m":"slow"}"#)
        .send()
        .await
        .unwrap_err();
    assert!(err.is_timeout(), "{err}");
    assert_eq!(
        content_of(&server.base_url(), &json!({})).await,
        "after a pause"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn requests_are_recorded_in_order_with_lowercase_headers() {
    let server = TestServer::start(Script::new().rule(Rule::any().reply(Reply::text("ok"))))
        .await
        .unwrap();
    let client = reqwest::Client::new();
    for n in 0..3 {
        client
            .post(format!("{}/chat/completions", server.base_url()))
            .header("Authorization", "Bearer sk-test")
            .header("X-Tick", n.to_string())
            .json(&json!({"n": n, "stream": n == 2}))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
    }
    assert_eq!(server.request_count(), 3);
    let requests = server.requests();
    let order: Vec<&Value> = requests.iter().map(|r| &r.body["n"]).collect();
    assert_eq!(order, [&json!(0), &json!(1), &json!(2)]);
    assert_eq!(requests[1].path, "/v1/chat/completions");
    assert_eq!(requests[1].headers["authorization"], "Bearer sk-test");
    assert_eq!(requests[1].header("x-tick"), Some("1"));
    assert!(requests[2].is_stream() && !requests[0].is_stream());
    server.shutdown().await;
}
