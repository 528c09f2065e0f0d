//! The prompt-cache imitation over real HTTP: a repeated prompt is cached but for its last
//! token, slots keep prompts apart or evict them, `id_slot` picks the slot, an answer sent back
//! is found in the slot, streams carry usage and timings, a script's usage still wins, the
//! llama.cpp imitation lists its slots, and with the cache off nothing changes.

use crate::common;

use common::{post, read_sse};
use novel_test_server::{
    CacheReport, Imitates, RecordedRequest, Reply, Rule, Script, ServerOptions, TestServer,
};
use serde_json::{Value, json};

const ANSWER: &str = "The gate opened at last.";

const HARBOUR: &str = "The rain had not stopped for three days, and the harbour smelled of tar and \
                       old rope when Mira finally found the letter under the loose board of the \
                       net loft, folded twice and sealed with wax the colour of dried blood.";

const MARKET: &str = "Tamsin slipped past the watch at the salt market while the bells of the \
                      lower town rang for noon, a stolen ledger under her coat and the name of \
                      the harbourmaster's clerk repeating itself in her head like a prayer.";

async fn cached(slots: usize, script: Script) -> TestServer {
    let options = ServerOptions {
        cache_slots: slots,
        ..ServerOptions::default()
    };
    TestServer::start_with(script, options).await.unwrap()
}

fn answering() -> Script {
    Script::new().rule(Rule::any().reply(Reply::text(ANSWER)))
}

/// A request with the shared system prompt and `user`, four times over, as the user's message.
/// Long, so that what two requests share (the system prompt, the template's opening) is under a
/// tenth of either: llama-server would otherwise serve the second from the first one's slot.
fn ask(user: &str) -> Value {
    let user = [user; 4].join(" ");
    json!({"model": "m", "messages": [
        {"role": "system", "content": "You write novels."},
        {"role": "user", "content": user},
    ]})
}

async fn completion(server: &TestServer, body: &Value) -> Value {
    let response = post(&server.base_url(), body).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn report(request: &RecordedRequest) -> CacheReport {
    request.cache.expect("the cache reported on the request")
}

fn n(value: &Value) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("not a count: {value}"))
}

#[tokio::test]
async fn the_same_prompt_twice_is_cached_but_for_its_last_token() {
    let server = cached(1, answering()).await;
    let first = completion(&server, &ask(HARBOUR)).await;
    let total = n(&first["usage"]["prompt_tokens"]);
    assert!(total > 40, "{first}");
    assert_eq!(first["timings"]["cache_n"], 0);
    assert_eq!(first["timings"]["prompt_n"], total);
    assert_eq!(first["usage"]["prompt_tokens_details"]["cached_tokens"], 0);

    let second = completion(&server, &ask(HARBOUR)).await;
    let usage = &second["usage"];
    let timings = &second["timings"];
    assert_eq!(
        n(&usage["prompt_tokens"]),
        total,
        "cached tokens still count"
    );
    assert_eq!(
        n(&usage["prompt_tokens_details"]["cached_tokens"]),
        total - 1
    );
    assert_eq!(n(&timings["cache_n"]), total - 1);
    assert_eq!(timings["prompt_n"], 1);
    assert_eq!(timings["prompt_ms"], 10.0, "one token at 100 a second");
    assert_eq!(timings["prompt_per_second"], 100.0);
    assert_eq!(timings["predicted_n"], usage["completion_tokens"]);
    assert_eq!(
        n(&usage["total_tokens"]),
        total + n(&usage["completion_tokens"])
    );
    assert!(timings["predicted_ms"].as_f64().unwrap() > 0.0);

    let reports: Vec<CacheReport> = server.requests().iter().map(report).collect();
    assert_eq!(
        reports,
        [
            CacheReport {
                slot: 0,
                cache_n: 0,
                prompt_n: total
            },
            CacheReport {
                slot: 0,
                cache_n: total - 1,
                prompt_n: 1
            },
        ]
    );
    server.shutdown().await;
}

#[tokio::test]
async fn two_slots_keep_two_prompts_apart() {
    let server = cached(2, answering()).await;
    completion(&server, &ask(HARBOUR)).await;
    let market = completion(&server, &ask(MARKET)).await;
    assert_eq!(market["timings"]["cache_n"], 0, "B went to the empty slot");
    let again = completion(&server, &ask(HARBOUR)).await;
    let total = n(&again["usage"]["prompt_tokens"]);
    assert_eq!(n(&again["timings"]["cache_n"]), total - 1, "{again}");
    let slots: Vec<usize> = server.requests().iter().map(|r| report(r).slot).collect();
    assert_eq!(slots, [0, 1, 0]);
    server.shutdown().await;
}

#[tokio::test]
async fn one_slot_evicts_and_keeps_only_the_shared_prefix() {
    let server = cached(1, answering()).await;
    completion(&server, &ask(HARBOUR)).await;
    let market = completion(&server, &ask(MARKET)).await;
    let shared = n(&market["timings"]["cache_n"]);
    let again = completion(&server, &ask(HARBOUR)).await;
    let total = n(&again["usage"]["prompt_tokens"]);
    assert_eq!(
        n(&again["timings"]["cache_n"]),
        shared,
        "only the system prompt and the template's opening are left of the first prompt"
    );
    assert!(shared > 0 && shared < total / 10, "{shared} of {total}");
    assert_eq!(n(&again["timings"]["prompt_n"]), total - shared);
    server.shutdown().await;
}

#[tokio::test]
async fn id_slot_picks_the_slot() {
    let server = cached(2, answering()).await;
    let in_slot = |slot: i64| {
        let mut body = ask(HARBOUR);
        body["id_slot"] = json!(slot);
        body
    };
    completion(&server, &in_slot(1)).await;
    let elsewhere = completion(&server, &in_slot(0)).await;
    assert_eq!(elsewhere["timings"]["cache_n"], 0, "slot 0 was empty");
    let back = completion(&server, &in_slot(1)).await;
    let total = n(&back["usage"]["prompt_tokens"]);
    assert_eq!(n(&back["timings"]["cache_n"]), total - 1);
    let slots: Vec<usize> = server.requests().iter().map(|r| report(r).slot).collect();
    assert_eq!(slots, [1, 0, 1]);
    server.shutdown().await;
}

#[tokio::test]
async fn an_answer_sent_back_in_the_next_turn_is_found_in_the_slot() {
    let server = cached(1, answering()).await;
    let first = completion(&server, &ask(HARBOUR)).await;
    let mut next = ask(HARBOUR);
    let messages = next["messages"].as_array_mut().unwrap();
    messages.push(json!({"role": "assistant", "content": ANSWER}));
    messages.push(json!({"role": "user", "content": "Go on."}));
    let second = completion(&server, &next).await;
    assert_eq!(
        n(&second["timings"]["cache_n"]),
        n(&first["usage"]["prompt_tokens"]) + n(&first["usage"]["completion_tokens"]),
        "the slot kept the first prompt and its answer"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn streams_carry_cached_usage_and_timings_on_the_last_chunk() {
    let server = cached(1, answering()).await;
    completion(&server, &ask(HARBOUR)).await;
    let mut body = ask(HARBOUR);
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let sse = read_sse(post(&server.base_url(), &body).await).await;
    assert_eq!(sse.content(), ANSWER);
    let chunks = sse.chunks();
    let (last, before) = chunks.split_last().unwrap();
    let total = n(&last["usage"]["prompt_tokens"]);
    assert_eq!(last["choices"], json!([]));
    assert_eq!(
        n(&last["usage"]["prompt_tokens_details"]["cached_tokens"]),
        total - 1
    );
    assert_eq!(n(&last["timings"]["cache_n"]), total - 1);
    assert_eq!(last["timings"]["prompt_n"], 1);
    assert!(before.iter().all(|chunk| chunk.get("timings").is_none()));

    body["stream_options"] = json!({"include_usage": false});
    let sse = read_sse(post(&server.base_url(), &body).await).await;
    let chunks = sse.chunks();
    let last = chunks.last().unwrap();
    assert!(chunks.iter().all(|chunk| chunk.get("usage").is_none()));
    assert_eq!(last["choices"][0]["finish_reason"], "stop");
    assert_eq!(n(&last["timings"]["cache_n"]), total - 1);
    server.shutdown().await;
}

#[tokio::test]
async fn a_scripted_usage_wins_but_timings_are_sent_all_the_same() {
    let script = Script::new()
        .rule(Rule::when("fail").reply(Reply::status(500)))
        .rule(Rule::any().replies([
            Reply::text("a").usage(10, 5),
            Reply::text("b").omit_usage(),
            Reply::text("c").raw_usage(json!({"prompt_tokens": 4e9})),
        ]));
    let server = cached(1, script).await;
    let scripted = completion(&server, &ask(HARBOUR)).await;
    assert_eq!(
        scripted["usage"],
        json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
    );
    assert_eq!(scripted["timings"]["cache_n"], 0);
    let total = n(&scripted["timings"]["prompt_n"]);
    let omitted = completion(&server, &ask(HARBOUR)).await;
    assert!(omitted.get("usage").is_none(), "{omitted}");
    assert_eq!(n(&omitted["timings"]["cache_n"]), total - 1);
    // A scripted error never reaches the model: no report, and the slot is untouched.
    let failed = post(&server.base_url(), &ask("fail")).await;
    assert_eq!(failed.status(), 500);
    let raw = completion(&server, &ask(HARBOUR)).await;
    assert_eq!(raw["usage"], json!({"prompt_tokens": 4e9}));
    assert_eq!(n(&raw["timings"]["cache_n"]), total - 1);
    let reports: Vec<Option<CacheReport>> = server.requests().iter().map(|r| r.cache).collect();
    assert!(reports[2].is_none() && reports[3].is_some(), "{reports:?}");
    server.shutdown().await;
}

async fn get(url: String) -> (u16, Value) {
    let response = reqwest::get(url).await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn llama_cpp_lists_its_slots_and_counts_them_in_props() {
    let script = answering().like(Imitates::LlamaCpp).context_length(8192);
    let server = cached(3, script.clone()).await;
    let (status, slots) = get(format!("{}/slots", server.root_url())).await;
    assert_eq!(status, 200);
    assert_eq!(
        slots,
        json!([
            {"id": 0, "n_ctx": 8192, "is_processing": false},
            {"id": 1, "n_ctx": 8192, "is_processing": false},
            {"id": 2, "n_ctx": 8192, "is_processing": false},
        ])
    );
    let (_, props) = get(format!("{}/props", server.root_url())).await;
    assert_eq!(props["total_slots"], 3);
    server.shutdown().await;

    let off = TestServer::start(script).await.unwrap();
    let (status, body) = get(format!("{}/slots", off.root_url())).await;
    assert_eq!(status, 501, "llama-server started with --no-slots");
    assert_eq!(body["error"]["type"], "not_supported_error");
    assert_eq!(
        get(format!("{}/props", off.root_url())).await.1["total_slots"],
        1
    );
    off.shutdown().await;

    let openai = cached(2, answering()).await;
    assert_eq!(get(format!("{}/slots", openai.root_url())).await.0, 404);
    openai.shutdown().await;
}

#[tokio::test]
async fn with_the_cache_off_nothing_changes() {
    let server = TestServer::start(answering()).await.unwrap();
    for _ in 0..2 {
        let answer = completion(&server, &ask(HARBOUR)).await;
        assert!(answer.get("timings").is_none(), "{answer}");
        assert!(answer["usage"].get("prompt_tokens_details").is_none());
    }
    let mut body = ask(HARBOUR);
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let sse = read_sse(post(&server.base_url(), &body).await).await;
    let chunks = sse.chunks();
    assert!(chunks.iter().all(|chunk| chunk.get("timings").is_none()));
    assert!(
        chunks.last().unwrap()["usage"]
            .get("prompt_tokens_details")
            .is_none()
    );
    assert!(server.requests().iter().all(|r| r.cache.is_none()));
    server.shutdown().await;
}
