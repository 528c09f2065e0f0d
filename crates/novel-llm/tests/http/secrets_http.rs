//! Secrets never reach an error message, over real HTTP: a short key echoed by the server,
//! credentials in `base_url` (user:password@host, `?key=`) quoted by transport errors, and
//! the `Debug` of a connected model.

use crate::support;

use novel_llm::{ChatRequest, LlmError, ProviderKind, ProviderProfile, connect_with_env};
use novel_test_server::{Reply, Rule, Script, TestServer};
use serde_json::json;

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
async fn a_short_key_echoed_by_the_server_is_redacted() {
    let echo = json!({"error": {"message": "Incorrect API key provided: k3y. Check it."}});
    let server =
        TestServer::start(Script::new().rule(Rule::any().reply(Reply::status(401).body(echo))))
            .await
            .unwrap();
    let profile = support::profile(ProviderKind::OpenAiCompatible, &server.base_url());
    let model = connect_with_env(&profile, &|_| Some("k3y".to_string())).unwrap();
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::Auth { .. }), "{text}");
    assert!(
        !text.contains("k3y") && text.contains("provided: <redacted>"),
        "{text}"
    );
}

#[tokio::test]
async fn credentials_in_the_base_url_never_show_in_errors_or_debug_output() {
    let port = free_port();
    for base_url in [
        format!("http://alice:hunter2@127.0.0.1:{port}/v1"),
        format!("http://127.0.0.1:{port}/v1?api_key=hunter2"),
    ] {
        let profile = ProviderProfile::new("p", ProviderKind::OpenAiCompatible, "m")
            .with_base_url(&base_url)
            .with_retries(0, 5);
        let model = connect_with_env(&profile, &|_| None).unwrap();
        let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(matches!(err, LlmError::Connect { .. }), "{shown}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("<redacted>"), "{shown}");
        let err = model.stream(&ChatRequest::new("x")).await.err().unwrap();
        assert!(!format!("{err} {err:?}").contains("hunter2"), "{err}");
    }
}

#[tokio::test]
async fn a_wrong_url_with_credentials_is_named_without_them() {
    let server = TestServer::start(Script::new().rule(Rule::any().reply(Reply::status(404))))
        .await
        .unwrap();
    let with_password = server
        .base_url()
        .replace("http://", "http://bob:s3cret-pw@");
    let profile = ProviderProfile::new("p", ProviderKind::OpenAiCompatible, "m")
        .with_base_url(&with_password);
    let model = connect_with_env(&profile, &|_| None).unwrap();
    let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LlmError::NotFound { .. }), "{text}");
    assert!(
        !text.contains("s3cret-pw") && text.contains("http://<redacted>@127.0.0.1"),
        "{text}"
    );
}

/// The log lines written while `run` runs, at INFO and above, as plain text.
fn logged_while(run: impl FnOnce()) -> String {
    use std::sync::{Arc, Mutex};
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Lines {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, run);
    String::from_utf8_lossy(&lines.0.lock().unwrap()).into_owned()
}

#[test]
fn a_failed_token_count_is_logged_without_the_address_credentials_or_quoted_keys() {
    use novel_llm::{ServerCounter, TokenCounter};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = runtime.block_on(support::MiniServer::start(vec![
        support::Canned::json(500, r#"{"error": "bad api_key=sk-live-0123456789abcdef"}"#),
        support::Canned::json(404, "{}"),
    ]));
    let root = server.base_url.replace("http://", "http://alice:hunter2@");
    let counter = ServerCounter::new(&root).unwrap();
    let log = logged_while(|| {
        runtime.block_on(async {
            counter.count("one two three").await;
            counter.count("four five").await;
        });
    });
    assert!(log.contains("/tokenize failed"), "{log}");
    assert!(log.contains("offers no /tokenize"), "{log}");
    assert!(!log.contains("hunter2"), "{log}");
    assert!(!log.contains("sk-live-0123456789abcdef"), "{log}");
    assert!(log.contains("<redacted>"), "{log}");
}
