//! Small JSON requests beside the chat: model lists, server properties, token counts and the
//! probes of local-server discovery. Short timeouts, bounded bodies and no retries: a server
//! that does not answer at once is reported as not answering, never waited on.

use std::time::Duration;

use reqwest::Client;
use serde_json::Value;

use crate::error::{LlmError, causes, http_client};
use crate::transport::read_into;

/// Model lists of hosted services run to a few megabytes (OpenRouter's is the largest).
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// Why a small request got no JSON back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FetchError {
    /// Nothing answered in time, or the connection was refused.
    Unreachable(String),
    /// An HTTP error status, with the start of the body.
    Status(u16, String),
    /// A 2xx whose body is not JSON (or too large).
    NotJson(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Unreachable(detail) => write!(f, "no answer ({detail})"),
            FetchError::Status(status, body) => write!(f, "HTTP {status}: {body}"),
            FetchError::NotJson(detail) => write!(f, "the answer is not JSON ({detail})"),
        }
    }
}

/// A client for small requests.
#[derive(Debug, Clone)]
pub(crate) struct Fetcher {
    client: Client,
}

impl Fetcher {
    /// Requests that connect within `connect` and finish within `total`.
    pub(crate) fn new(connect: Duration, total: Duration) -> Result<Self, LlmError> {
        let client = http_client(Client::builder().connect_timeout(connect).timeout(total))?;
        Ok(Fetcher { client })
    }

    /// GETs `url` and reads its JSON.
    pub(crate) async fn get(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
    ) -> Result<Value, FetchError> {
        let mut request = self.client.get(url);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        read_json(request.send().await).await
    }

    /// POSTs `body` to `url` and reads the JSON answer.
    pub(crate) async fn post(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        body: &Value,
    ) -> Result<Value, FetchError> {
        let mut request = self.client.post(url).json(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        read_json(request.send().await).await
    }
}

async fn read_json(sent: Result<reqwest::Response, reqwest::Error>) -> Result<Value, FetchError> {
    let mut response = sent.map_err(|e| FetchError::Unreachable(without_url(&e)))?;
    let status = response.status();
    let mut bytes = Vec::new();
    let complete = read_into(&mut response, &mut bytes, MAX_BODY_BYTES)
        .await
        .map_err(|e| FetchError::Unreachable(without_url(&e)))?;
    if !status.is_success() {
        let text: String = String::from_utf8_lossy(&bytes).chars().take(300).collect();
        return Err(FetchError::Status(status.as_u16(), text));
    }
    if !complete {
        return Err(FetchError::NotJson(format!(
            "longer than {MAX_BODY_BYTES} bytes"
        )));
    }
    serde_json::from_slice(&bytes).map_err(|e| FetchError::NotJson(e.to_string()))
}

/// A transport error without the URL (callers name the URL themselves, redacted) but with
/// its causes.
fn without_url(err: &reqwest::Error) -> String {
    let mut text = if err.is_timeout() {
        "timed out".to_string()
    } else if err.is_connect() {
        "connection failed".to_string()
    } else if err.is_decode() || err.is_body() {
        "the answer broke off".to_string()
    } else {
        "the request failed".to_string()
    };
    text.push_str(&causes(err));
    text
}

/// The server's root for a base URL: `http://host:11434/v1` → `http://host:11434`, where
/// Ollama's `/api/…`, LM Studio's `/api/v0/…` and llama.cpp's `/props` live.
pub(crate) fn server_root(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    base.strip_suffix("/v1").unwrap_or(base).to_string()
}

/// Whether `url` points at this machine or a private network, where local model servers run
/// and their own endpoints are worth asking (a hosted API would only answer 404).
pub(crate) fn is_local(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = parsed.host_str() else {
        return false;
    };
    match host.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback(),
        Err(_) => host == "localhost" || host.ends_with(".local") || host.ends_with(".localhost"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_and_local_hosts() {
        assert_eq!(
            server_root("http://127.0.0.1:11434/v1/"),
            "http://127.0.0.1:11434"
        );
        assert_eq!(server_root("http://box:8080"), "http://box:8080");
        for local in [
            "http://127.0.0.1:8080/v1",
            "http://localhost:1234/v1",
            "http://192.168.1.20:11434/v1",
            "http://10.0.0.5:8000/v1",
            "http://gpu-box.local:8080",
            "http://[::1]:8080/v1",
        ] {
            assert!(is_local(local), "{local}");
        }
        for hosted in [
            "https://api.openai.com/v1",
            "https://openrouter.ai/api/v1",
            "http://8.8.8.8/v1",
            "not a url",
        ] {
            assert!(!is_local(hosted), "{hosted}");
        }
    }
}
