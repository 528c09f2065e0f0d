//! The server outside an async test: the `novel-test-server` binary and the blocking handle.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use novel_test_server::{RecordedRequest, Reply, Rule, Script, TestServer};
use serde_json::json;

/// A minimal HTTP/1.1 POST so synchronous tests need no client library.
fn post_sync(addr: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn binary_prints_listening_line_serves_script_and_records() {
    let dir = tempfile::tempdir().unwrap();
    let script_path = dir.path().join("script.json");
    let record_path = dir.path().join("requests.jsonl");
    let script =
        json!([{"when_contains": "hello", "replies": [{"type": "text", "content": "Hi {{n}}"}]}]);
    std::fs::write(&script_path, script.to_string()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_novel-test-server"))
        .arg("--script")
        .arg(&script_path)
        .arg("--record")
        .arg(&record_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim_end()
        .strip_prefix("listening ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    let addr = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/v1"))
        .unwrap_or_else(|| panic!("unexpected url {url}"));
    assert!(addr.starts_with("127.0.0.1:"));

    let response = post_sync(addr, "/v1/chat/completions", r#"{"messages":"hello"}"#);
    child.kill().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    child.wait().unwrap();

    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains(r#""content":"Hi 1""#), "{response}");
    assert!(
        stderr.contains("/v1/chat/completions"),
        "one log line per request: {stderr}"
    );
    let recorded: Vec<RecordedRequest> = std::fs::read_to_string(&record_path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].body, json!({"messages": "hello"}));
}

#[test]
fn binary_reports_an_invalid_script_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let script_path = dir.path().join("bad.json");
    std::fs::write(&script_path, r#"[{"replies":[{"type":"txt"}]}]"#).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_novel-test-server"))
        .arg("--script")
        .arg(&script_path)
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("invalid script") && stderr.contains("txt"),
        "{stderr}"
    );
}

#[test]
fn blocking_server_serves_synchronous_callers_and_stops_on_drop() {
    let server = TestServer::start_blocking(
        Script::new().rule(Rule::any().reply(Reply::status(429).retry_after("3"))),
    )
    .unwrap();
    let addr = server.addr().to_string();
    assert_eq!(server.base_url(), format!("http://{addr}/v1"));
    let response = post_sync(&addr, "/v1/chat/completions", "{}");
    assert!(response.starts_with("HTTP/1.1 429"), "{response}");
    assert!(response.to_ascii_lowercase().contains("retry-after: 3"));
    assert_eq!(server.request_count(), 1);
    drop(server);
    assert!(
        TcpStream::connect(&addr).is_err(),
        "the port is closed after drop"
    );
}

#[test]
fn binary_imitates_a_prompt_cache_with_cache_slots() {
    let dir = tempfile::tempdir().unwrap();
    let script_path = dir.path().join("script.json");
    let script = json!({"rules": [{"replies": [{"type": "text", "content": "Hi"}]}],
                        "quirks": {"like": "llama_cpp"}});
    std::fs::write(&script_path, script.to_string()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_novel-test-server"))
        .arg("--script")
        .arg(&script_path)
        .args(["--cache-slots", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim_end()
        .strip_prefix("listening http://")
        .and_then(|rest| rest.strip_suffix("/v1"))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    let body = r#"{"messages":[{"role":"user","content":"Write the next scene."}]}"#;
    let answers: Vec<serde_json::Value> = (0..2)
        .map(|_| {
            let response = post_sync(&addr, "/v1/chat/completions", body);
            let (_, json) = response.split_once("\r\n\r\n").unwrap();
            serde_json::from_str(json).unwrap()
        })
        .collect();
    let mut slots = TcpStream::connect(&addr).unwrap();
    write!(
        slots,
        "GET /slots HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut listed = String::new();
    slots.read_to_string(&mut listed).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();

    assert_eq!(answers[0]["timings"]["cache_n"], 0);
    let total = answers[1]["usage"]["prompt_tokens"].as_u64().unwrap();
    assert_eq!(
        answers[1]["timings"]["cache_n"],
        total - 1,
        "{}",
        answers[1]
    );
    assert!(listed.starts_with("HTTP/1.1 200"), "{listed}");
    assert!(listed.contains(r#"{"id":1,"#), "{listed}");
}
