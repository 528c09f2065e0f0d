//! Recording of incoming chat requests for assertions, in memory and optionally appended to
//! a JSON-lines file for tests running in another process, with what the prompt cache reported
//! for each (in memory only: a file line is written as the request arrives, before the cache is
//! consulted, so a test in another process sees the request at once).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cache::CacheReport;
use crate::request;

/// One chat-completions request as the server saw it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// Request path, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Headers by lowercase name; repeated headers joined with `", "`.
    pub headers: BTreeMap<String, String>,
    /// The parsed JSON body; `null` when the body was not valid JSON.
    pub body: Value,
    /// What the prompt cache reported for it (`cache_n`, `prompt_n`, the slot): `None` when the
    /// cache is off, the request was refused or failed before reaching the model, or in a
    /// record file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheReport>,
}

impl RecordedRequest {
    /// Builds a record from the raw parts of a request.
    pub fn new(path: &str, headers: &HeaderMap, body: Value) -> Self {
        let mut map: BTreeMap<String, String> = BTreeMap::new();
        for (name, value) in headers {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            map.entry(name.as_str().to_ascii_lowercase())
                .and_modify(|existing| {
                    existing.push_str(", ");
                    existing.push_str(&value);
                })
                .or_insert(value);
        }
        RecordedRequest {
            path: path.to_string(),
            headers: map,
            body,
            cache: None,
        }
    }

    /// A header value by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Whether the request asked for a stream.
    pub fn is_stream(&self) -> bool {
        request::is_stream(&self.body)
    }
}

/// Thread-safe request log shared by the handlers and the `TestServer` handle.
#[derive(Debug)]
pub struct Recorder {
    requests: Mutex<Vec<RecordedRequest>>,
    file: Option<Mutex<File>>,
}

impl Recorder {
    /// A recorder that also appends to `path` (created if missing) when given.
    pub fn new(path: Option<&Path>) -> std::io::Result<Self> {
        let file = match path {
            Some(path) => Some(Mutex::new(
                OpenOptions::new().create(true).append(true).open(path)?,
            )),
            None => None,
        };
        Ok(Recorder {
            requests: Mutex::new(Vec::new()),
            file,
        })
    }

    /// Stores a request and returns its index in arrival order; a failing record file is
    /// reported on stderr rather than failing the request, since the in-memory record is still
    /// complete.
    pub fn record(&self, request: RecordedRequest) -> usize {
        if let Some(file) = &self.file {
            let line = serde_json::to_string(&request).unwrap_or_else(|_| "null".to_string());
            let mut file = file.lock().unwrap_or_else(PoisonError::into_inner);
            if let Err(err) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                eprintln!("novel-test-server: cannot append to record file: {err}");
            }
        }
        let mut requests = self.lock();
        requests.push(request);
        requests.len() - 1
    }

    /// Keeps what the prompt cache reported for the request at `index`.
    pub fn note_cache(&self, index: usize, report: CacheReport) {
        if let Some(request) = self.lock().get_mut(index) {
            request.cache = Some(report);
        }
    }

    /// All requests so far, in arrival order.
    pub fn snapshot(&self) -> Vec<RecordedRequest> {
        self.lock().clone()
    }

    /// How many requests arrived so far.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<RecordedRequest>> {
        // A panic elsewhere cannot leave a Vec half-pushed, so a poisoned lock is still usable.
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use serde_json::json;

    #[test]
    fn headers_are_lowercased_and_repeats_joined() {
        let mut headers = HeaderMap::new();
        headers.insert("Authorization", HeaderValue::from_static("Bearer k"));
        headers.append("x-tag", HeaderValue::from_static("a"));
        headers.append("x-tag", HeaderValue::from_static("b"));
        let request = RecordedRequest::new("/v1/chat/completions", &headers, json!({}));
        assert_eq!(request.header("AUTHORIZATION"), Some("Bearer k"));
        assert_eq!(
            request.headers.get("x-tag").map(String::as_str),
            Some("a, b")
        );
    }

    #[test]
    fn records_to_memory_and_jsonl_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.jsonl");
        let recorder = Recorder::new(Some(&path)).unwrap();
        for n in 0..2 {
            let body = json!({"n": n, "stream": n == 1});
            recorder.record(RecordedRequest::new("/p", &HeaderMap::new(), body));
        }
        assert_eq!(recorder.count(), 2);
        assert!(recorder.snapshot()[1].is_stream());
        let lines: Vec<RecordedRequest> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(lines, recorder.snapshot());
    }

    #[test]
    fn cache_reports_land_on_their_request_and_old_lines_still_parse() {
        let recorder = Recorder::new(None).unwrap();
        let first = recorder.record(RecordedRequest::new("/p", &HeaderMap::new(), json!({})));
        let second = recorder.record(RecordedRequest::new("/p", &HeaderMap::new(), json!({})));
        let report = CacheReport {
            slot: 1,
            cache_n: 7,
            prompt_n: 2,
        };
        recorder.note_cache(second, report);
        let requests = recorder.snapshot();
        assert_eq!((first, second), (0, 1));
        assert_eq!(requests[0].cache, None);
        assert_eq!(requests[1].cache, Some(report));
        let old: RecordedRequest =
            serde_json::from_str(r#"{"path":"/p","headers":{},"body":null}"#).unwrap();
        assert_eq!(old.cache, None);
        let line = serde_json::to_string(&requests[1]).unwrap();
        assert_eq!(
            serde_json::from_str::<RecordedRequest>(&line).unwrap(),
            requests[1]
        );
    }
}
