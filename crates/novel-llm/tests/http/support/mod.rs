//! Shared helpers for the HTTP tests: profiles pointing at local servers, and a minimal
//! one-response-per-connection HTTP server for the providers the OpenAI-format test server does
//! not speak (Anthropic, Gemini).

#![allow(dead_code)] // Each test module uses a different subset.

use std::sync::{Arc, Mutex};

use novel_llm::{ProviderKind, ProviderProfile};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The key tests pretend to have; asserted never to appear in errors.
pub const TEST_KEY: &str = "sk-test-secret-0123456789";

/// An environment where `NOVEL_TEST_KEY` holds [`TEST_KEY`].
pub fn test_env(name: &str) -> Option<String> {
    (name == "NOVEL_TEST_KEY").then(|| TEST_KEY.to_string())
}

/// A fast-retrying profile of `kind` for `base_url`, keyed by `NOVEL_TEST_KEY`.
pub fn profile(kind: ProviderKind, base_url: &str) -> ProviderProfile {
    ProviderProfile::new("test", kind, "test-model")
        .with_base_url(base_url)
        .with_api_key_env("NOVEL_TEST_KEY")
        .with_retries(2, 5)
        .with_timeout_secs(10)
}

/// One canned HTTP response.
#[derive(Debug, Clone)]
pub struct Canned {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    /// A `Location` header, for redirects.
    pub location: Option<String>,
}

impl Canned {
    pub fn sse(body: impl Into<String>) -> Self {
        Canned {
            status: 200,
            content_type: "text/event-stream",
            body: body.into(),
            location: None,
        }
    }

    pub fn json(status: u16, body: impl Into<String>) -> Self {
        Canned {
            status,
            content_type: "application/json",
            body: body.into(),
            location: None,
        }
    }

    /// A `302 Found` pointing at `to`.
    pub fn redirect(to: impl Into<String>) -> Self {
        Canned {
            status: 302,
            content_type: "text/plain",
            body: String::new(),
            location: Some(to.into()),
        }
    }
}

/// A request as received: the head (request line and headers) and the body.
#[derive(Debug, Clone)]
pub struct Received {
    pub head: String,
    pub body: serde_json::Value,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_string())
        })
    }

    pub fn request_line(&self) -> &str {
        self.head.lines().next().unwrap_or_default()
    }
}

/// Serves `responses` in order, one per connection, then closes; records what it received.
pub struct MiniServer {
    pub base_url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl MiniServer {
    pub async fn start(responses: Vec<Canned>) -> MiniServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        tokio::spawn(async move {
            for canned in responses {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let request = read_request(&mut socket).await;
                log.lock().unwrap().push(request);
                let location = canned
                    .location
                    .as_ref()
                    .map(|to| format!("location: {to}\r\n"))
                    .unwrap_or_default();
                let head = format!(
                    "HTTP/1.1 {} X\r\ncontent-type: {}\r\ncontent-length: {}\r\n{location}connection: close\r\n\r\n",
                    canned.status,
                    canned.content_type,
                    canned.body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(canned.body.as_bytes()).await;
                let _ = socket.shutdown().await;
            }
        });
        MiniServer { base_url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn read_request(socket: &mut tokio::net::TcpStream) -> Received {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "client closed before sending a request");
        data.extend_from_slice(&buf[..n]);
        if let Some(pos) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..head_end]).to_string();
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().unwrap())
        })
        .unwrap_or(0);
    while data.len() < head_end + length {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "client closed mid-body");
        data.extend_from_slice(&buf[..n]);
    }
    let body = serde_json::from_slice(&data[head_end..head_end + length]).unwrap_or_default();
    Received { head, body }
}

/// The text of `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}
