//! `novel providers detect|models|set|test` against the local test server imitating real
//! servers over real HTTP: servers found on their ports and saved as profiles, model lists
//! with context lengths, generation settings written to providers.toml and sent on the wire,
//! and a connection test that records a refused `temperature` and json_schema.

use crate::common;

use common::*;
use novel_test_server::{
    BlockingTestServer, Imitates, Reply, Rule, Script, ServerStyle, TestServer,
};
use serde_json::Value;

fn start(script: Script) -> BlockingTestServer {
    TestServer::start_blocking(script).unwrap()
}

/// An empty config dir of its own.
fn config() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn providers(config: &tempfile::TempDir) -> assert_cmd::Command {
    let mut cmd = novel();
    cmd.env("NOVEL_AGENT_CONFIG_DIR", config.path())
        .arg("providers");
    cmd
}

fn providers_toml(config: &tempfile::TempDir) -> toml::Value {
    let text = std::fs::read_to_string(config.path().join("providers.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

fn profile_named<'a>(toml: &'a toml::Value, name: &str) -> &'a toml::Value {
    toml["profile"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no profile {name} in {toml}"))
}

#[test]
fn detect_finds_ollama_and_llama_cpp_on_their_ports_and_saves_profiles() {
    let ollama = start(
        Script::new()
            .models(["llama3.1:8b"])
            .like(Imitates::Ollama)
            .context_length(8192),
    );
    let llama = start(
        Script::new()
            .models(["qwen.gguf"])
            .like(Imitates::LlamaCpp)
            .context_length(16384),
    );
    // A port with nothing behind it is skipped, not an error.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_port = closed.local_addr().unwrap().port();
    drop(closed);
    let config = config();
    let ports = [ollama.addr().port(), closed_port, llama.addr().port()];
    let mut cmd = providers(&config);
    cmd.arg("detect");
    for port in ports {
        cmd.args(["--port", &port.to_string()]);
    }
    let out = stdout_of(cmd.arg("--add"));
    assert!(
        out.contains(&format!("Ollama at http://127.0.0.1:{}/v1", ports[0])),
        "{out}"
    );
    assert!(out.contains("llama3.1:8b (context 8192 tokens)"), "{out}");
    assert!(out.contains("llama.cpp at"), "{out}");
    assert!(out.contains("qwen.gguf (context 16384 tokens)"), "{out}");

    let saved = providers_toml(&config);
    assert_eq!(saved["default_profile"].as_str(), Some("ollama"));
    let o = profile_named(&saved, "ollama");
    assert_eq!(o["kind"].as_str(), Some("ollama"));
    assert_eq!(o["model"].as_str(), Some("llama3.1:8b"));
    assert_eq!(o["context_length"].as_integer(), Some(8192));
    let l = profile_named(&saved, "llama-cpp");
    assert_eq!(l["model"].as_str(), Some("qwen.gguf"));
    assert_eq!(l["context_length"].as_integer(), Some(16384));

    // Run again: the profiles exist, nothing is replaced.
    let again = stdout_of(
        providers(&config)
            .args(["detect", "--add", "--port"])
            .arg(ports[0].to_string()),
    );
    assert!(again.contains("nothing was added"), "{again}");

    // JSON for the app and scripts.
    let json: Value = serde_json::from_str(&stdout_of(
        providers(&config)
            .args(["--json", "detect", "--port"])
            .arg(ports[2].to_string()),
    ))
    .unwrap();
    assert_eq!(json["servers"][0]["server"], "llama_cpp");
    assert_eq!(json["servers"][0]["models"][0]["context_length"], 16384);
}

#[test]
fn detect_with_nothing_running_says_how_to_start_a_server() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let config = config();
    let out = stdout_of(
        providers(&config)
            .args(["detect", "--add", "--port"])
            .arg(port.to_string()),
    );
    assert!(out.contains("No model server answered"), "{out}");
    assert!(out.contains("ollama serve"), "{out}");
    assert!(!config.path().join("providers.toml").exists());
}

#[test]
fn models_lists_ollama_tags_with_context_and_a_server_without_a_list_says_so() {
    let ollama = start(
        Script::new()
            .models(["llama3.1:8b", "qwen2.5:14b"])
            .like(Imitates::Ollama)
            .context_length(4096),
    );
    let config = config();
    providers(&config)
        .args([
            "add",
            "--name",
            "o",
            "--kind",
            "ollama",
            "--model",
            "qwen2.5:14b",
        ])
        .args(["--base-url", &ollama.base_url()])
        .assert()
        .success();
    let out = stdout_of(providers(&config).args(["models", "--profile", "o"]));
    assert!(out.contains("llama3.1:8b (context 4096 tokens)"), "{out}");
    assert!(
        out.contains("qwen2.5:14b (context 4096 tokens) <- the profile's model"),
        "{out}"
    );
    assert!(ollama.hits().contains(&"GET /api/tags".to_string()));

    let bare = start(Script::new().without_model_list());
    providers(&config)
        .args(["add", "--name", "bare", "--model", "m", "--base-url"])
        .arg(bare.base_url())
        .assert()
        .success();
    let out = stdout_of(providers(&config).args(["models", "--profile", "bare"]));
    assert!(out.contains("type the model's name"), "{out}");
}

#[test]
fn settings_are_saved_validated_and_sent_with_every_request() {
    let server = start(Script::new().rule(Rule::any().reply(Reply::text("{\"ok\": true}"))));
    let config = config();
    providers(&config)
        .args(["add", "--name", "w", "--model", "m", "--default"])
        .args(["--base-url", &server.base_url()])
        .args(["--temperature", "0.7", "--top-p", "0.9"])
        .args(["--max-output-tokens", "1500", "--context-length", "8192"])
        .args(["--structured-output", "json-object"])
        .args(["--price-prompt", "0.5", "--price-completion", "1.5"])
        .assert()
        .success();
    let saved = providers_toml(&config);
    let w = profile_named(&saved, "w");
    assert_eq!(w["temperature"].as_float(), Some(0.7));
    assert_eq!(w["top_p"].as_float(), Some(0.9));
    assert_eq!(w["max_output_tokens"].as_integer(), Some(1500));
    assert_eq!(w["structured_output"].as_str(), Some("json_object"));
    assert_eq!(w["prices"]["completion_per_million"].as_float(), Some(1.5));

    let listed = stdout_of(providers(&config).arg("list"));
    assert!(
        listed.contains("temperature 0.7, top_p 0.9, max output 1500 tokens"),
        "{listed}"
    );

    // A value out of range is refused and nothing is written.
    let before = std::fs::read_to_string(config.path().join("providers.toml")).unwrap();
    let err = stderr_of_failure(providers(&config).args(["set", "w", "--temperature", "7"]));
    assert!(err.contains("temperature"), "{err}");
    let after = std::fs::read_to_string(config.path().join("providers.toml")).unwrap();
    assert_eq!(before, after);

    providers(&config)
        .args(["set", "w", "--unset", "top-p", "--temperature", "0.2"])
        .assert()
        .success();
    let w = profile_named(&providers_toml(&config), "w").clone();
    assert_eq!(w["temperature"].as_float(), Some(0.2));
    assert!(w.get("top_p").is_none(), "{w}");

    // The pinned mode and the sampling reach the wire.
    providers(&config).arg("test").assert().success();
    let sent: Vec<Value> = server.requests().into_iter().map(|r| r.body).collect();
    let probe = sent.last().unwrap();
    assert_eq!(probe["response_format"]["type"], "json_object", "{probe}");
    assert_eq!(probe["temperature"], 0.2, "{probe}");
    assert!(probe.get("top_p").is_none(), "{probe}");
}

#[test]
fn test_records_a_refused_temperature_and_later_requests_leave_it_out() {
    let server = start(
        Script::new()
            .rejecting("temperature")
            .rule(Rule::any().reply(Reply::text("{\"ok\": true}"))),
    );
    let config = config();
    providers(&config)
        .args(["add", "--name", "r", "--model", "o3", "--default"])
        .args(["--base-url", &server.base_url(), "--temperature", "0.8"])
        .assert()
        .success();
    let out = stdout_of(providers(&config).arg("test"));
    assert!(out.contains("temperature refused"), "{out}");
    assert!(out.contains("Recorded in"), "{out}");
    let r = profile_named(&providers_toml(&config), "r").clone();
    assert_eq!(
        r["capabilities"]["temperature"].as_bool(),
        Some(false),
        "{r}"
    );

    // A second test starts from what was recorded: no request carries temperature now.
    let before = server.requests().len();
    let out = stdout_of(providers(&config).arg("test"));
    assert!(!out.contains("Recorded in"), "nothing new: {out}");
    let chat: Vec<Value> = server.requests()[before..]
        .iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .map(|r| r.body.clone())
        .collect();
    // The capability check sends temperature once, on purpose; the probe starts without it
    // (had it been forgotten, the probe would send it, be refused and resend).
    let with_temperature = chat
        .iter()
        .filter(|b| b.get("temperature").is_some())
        .count();
    assert_eq!(with_temperature, 1, "{chat:#?}");
    assert!(chat.last().unwrap().get("temperature").is_none());
}

#[test]
fn test_records_a_json_schema_500_and_the_json_mode_it_falls_back_to() {
    // llama.cpp answers a schema it cannot compile with a 500.
    let server = start(
        Script::new().rule(Rule::any().reply(Reply::reject_json_schema_like(
            ServerStyle::LlamaCpp,
            Reply::text("{\"ok\": true}"),
        ))),
    );
    let config = config();
    providers(&config)
        .args(["add", "--name", "s", "--model", "m", "--default"])
        .args(["--base-url", &server.base_url()])
        .assert()
        .success();
    let json: Value =
        serde_json::from_str(&stdout_of(providers(&config).args(["--json", "test"]))).unwrap();
    assert_eq!(json["report"]["capabilities"]["json_schema"], false);
    assert_eq!(json["report"]["json_mode"], "json_object");
    assert_eq!(json["profile_updated"], true);
    let s = profile_named(&providers_toml(&config), "s").clone();
    assert_eq!(s["capabilities"]["json_schema"].as_bool(), Some(false));
}
