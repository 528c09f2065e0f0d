//! HTTP routing and handlers: chat completions (streamed or not, their prompts served through
//! the prompt cache when it is on), the model list, the extra endpoints of the imitated server
//! (see `quirks`), and loud JSON errors for bad bodies, unscripted requests and unknown paths.
//! Every request's method and path is logged first, with any credential header it carried.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;

use crate::cache::{CacheReport, PromptCache};
use crate::quirks::{self, Imitates, Quirks};
use crate::record::{RecordedRequest, Recorder};
use crate::reply::{TextReply, UsageSpec};
use crate::request;
use crate::selection::{Action, Decision, Selector};
use crate::stream;
use crate::tokens;
use crate::wire::{self, Meta};

/// Large enough for any prompt a test sends; the default 2 MB could reject long stories.
const BODY_LIMIT: usize = 64 * 1024 * 1024;

/// The headers that carry an API key, in the providers' wire formats.
const CREDENTIAL_HEADERS: [&str; 3] = ["authorization", "x-api-key", "x-goog-api-key"];

/// Everything the handlers share.
#[derive(Debug)]
pub struct AppState {
    /// Script progress.
    pub selector: Mutex<Selector>,
    /// Request log.
    pub recorder: Recorder,
    /// Ids for `GET /v1/models`.
    pub models: Vec<String>,
    /// Which server it imitates, and how.
    pub quirks: Quirks,
    /// `"METHOD /path"` of every request.
    pub hits: Mutex<Vec<String>>,
    /// `"METHOD /path"` and the value of every credential header a request carried
    /// (`authorization`, `x-api-key`, `x-goog-api-key`), chat or not: what a key reached.
    pub credentials: Mutex<Vec<(String, String)>>,
    /// Write one line per request to stderr.
    pub log_requests: bool,
    /// Source of completion ids.
    pub next_id: AtomicU64,
    /// The prompt-cache imitation; off with no slots.
    pub cache: Mutex<PromptCache>,
}

impl AppState {
    /// Every request so far as `"METHOD /path"`.
    pub fn hits(&self) -> Vec<String> {
        self.hits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Every credential header received so far, with the request that carried it.
    pub fn credentials(&self) -> Vec<(String, String)> {
        self.credentials
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, PromptCache> {
        // Serving a prompt replaces a slot's tokens whole, so a poisoned lock is still usable.
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The server's routes.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .route("/models", get(models))
        .route("/api/tags", get(ollama_tags))
        .route("/api/show", post(ollama_show))
        .route("/api/version", get(ollama_version))
        .route("/api/v0/models", get(lm_studio_models))
        .route("/props", get(llama_props))
        .route("/slots", get(llama_slots))
        .route("/health", get(llama_health))
        .route("/tokenize", post(llama_tokenize))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&state), log_hit))
        .with_state(state)
}

async fn log_hit(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let hit = format!("{} {}", request.method(), request.uri().path());
    state
        .hits
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(hit.clone());
    let carried: Vec<(String, String)> = CREDENTIAL_HEADERS
        .iter()
        .flat_map(|name| request.headers().get_all(*name))
        .map(|value| {
            (
                hit.clone(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    state
        .credentials
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .extend(carried);
    next.run(request).await
}

/// The imitated server's own endpoint, or the 404 any other server gives for it.
async fn only_for(
    state: &AppState,
    like: Imitates,
    uri: Uri,
    answer: impl FnOnce() -> Value,
) -> Response {
    if state.quirks.like == like {
        json_response(StatusCode::OK, answer())
    } else {
        not_found(uri).await
    }
}

async fn ollama_tags(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    only_for(&state, Imitates::Ollama, uri, || {
        quirks::ollama_tags(&state.models)
    })
    .await
}

async fn ollama_version(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    only_for(
        &state,
        Imitates::Ollama,
        uri,
        || serde_json::json!({"version": "0.12.3"}),
    )
    .await
}

async fn ollama_show(State(state): State<Arc<AppState>>, uri: Uri, bytes: Bytes) -> Response {
    if state.quirks.like != Imitates::Ollama {
        return not_found(uri).await;
    }
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let name = body
        .get("model")
        .or_else(|| body.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("");
    match quirks::ollama_show(&state.quirks, &state.models, name) {
        Some(shown) => json_response(StatusCode::OK, shown),
        None => json_response(
            StatusCode::NOT_FOUND,
            serde_json::json!({"error": format!("model '{name}' not found")}),
        ),
    }
}

async fn lm_studio_models(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    only_for(&state, Imitates::LmStudio, uri, || {
        quirks::lm_studio_models(&state.quirks, &state.models)
    })
    .await
}

async fn llama_props(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    let slots = state.cache().slot_count();
    only_for(&state, Imitates::LlamaCpp, uri, || {
        quirks::llama_props(&state.quirks, &state.models, slots)
    })
    .await
}

async fn llama_slots(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    if state.quirks.like != Imitates::LlamaCpp {
        return not_found(uri).await;
    }
    let slots = state.cache().slot_count();
    if slots == 0 {
        return json_response(StatusCode::NOT_IMPLEMENTED, quirks::slots_not_supported());
    }
    json_response(StatusCode::OK, quirks::llama_slots(&state.quirks, slots))
}

async fn llama_health(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    only_for(
        &state,
        Imitates::LlamaCpp,
        uri,
        || serde_json::json!({"status": "ok"}),
    )
    .await
}

async fn llama_tokenize(State(state): State<Arc<AppState>>, uri: Uri, bytes: Bytes) -> Response {
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    only_for(&state, Imitates::LlamaCpp, uri, || quirks::tokenize(&body)).await
}

fn json_response(status: StatusCode, body: Value) -> Response {
    let headers = [(header::CONTENT_TYPE, "application/json")];
    (status, headers, body.to_string()).into_response()
}

async fn not_found(uri: Uri) -> Response {
    let message = format!("test server: no route for {}", uri.path());
    json_response(
        StatusCode::NOT_FOUND,
        wire::error(&message, "invalid_request_error", None, Some("not_found")),
    )
}

async fn models(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    if state.quirks.no_model_list {
        return not_found(uri).await;
    }
    json_response(
        StatusCode::OK,
        quirks::model_list(&state.quirks, &state.models),
    )
}

fn parse_body(raw: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(raw) {
        Ok(value) if value.is_object() => Ok(value),
        Ok(_) => Err("test server: request body must be a JSON object".to_string()),
        Err(err) => Err(format!(
            "test server: request body is not valid JSON: {err}"
        )),
    }
}

async fn chat(
    State(state): State<Arc<AppState>>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let raw = String::from_utf8_lossy(&bytes);
    let parsed = parse_body(&raw);
    let recorded_body = parsed.as_ref().map_or(Value::Null, Clone::clone);
    let index = state
        .recorder
        .record(RecordedRequest::new(uri.path(), &headers, recorded_body));
    let number = index + 1;
    let body = match parsed {
        Ok(body) => body,
        Err(message) => {
            log(&state, number, uri.path(), "400 bad body");
            return json_response(
                StatusCode::BAD_REQUEST,
                wire::error(&message, "invalid_request_error", None, None),
            );
        }
    };
    // Refused before a rule is chosen, so the client's resend without it gets the reply.
    if let Some(param) = state.quirks.refused_param(&body) {
        log(
            &state,
            number,
            uri.path(),
            &format!("400 `{param}` refused"),
        );
        return json_response(StatusCode::BAD_REQUEST, quirks::unsupported_param(param));
    }
    let decision = state
        .selector
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .decide(&raw, &body);
    let Some(decision) = decision else {
        log(&state, number, uri.path(), "500 no scripted reply");
        return json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            wire::error(
                "test server: no scripted reply for this request",
                "server_error",
                None,
                Some("no_scripted_reply"),
            ),
        );
    };
    log(&state, number, uri.path(), &describe(&decision, &body));
    if !decision.delay.is_zero() {
        tokio::time::sleep(decision.delay).await;
    }
    let served = serve_prompt(&state, &decision.action, &body);
    if let Some(served) = &served {
        state.recorder.note_cache(index, served.report);
    }
    let mut response = answer(&state, decision.action, &body, &raw, served);
    if let Some(code) = decision
        .status
        .and_then(|code| StatusCode::from_u16(code).ok())
    {
        *response.status_mut() = code;
    }
    response
}

fn describe(decision: &Decision, body: &Value) -> String {
    let what = match &decision.action {
        Action::Text(text) => format!("text ({} chars)", text.content.chars().count()),
        Action::Status(status) => format!("status {}", status.code),
        Action::Reject { status, .. } => format!("{status} response_format rejected"),
        Action::Cut(cut) => format!("cut after {} chars", cut.after_chars),
        Action::Huge(huge) => format!("huge ({} chars)", huge.chars),
        Action::KeepAlive(endless) => format!("keep-alive every {} ms", endless.interval_ms),
        Action::Trickle(endless) => format!("trickle every {} ms", endless.interval_ms),
    };
    let status = decision
        .status
        .map(|code| format!(" with status {code}"))
        .unwrap_or_default();
    format!(
        "stream={} rule={} delay={}ms -> {what}{status}",
        request::is_stream(body),
        decision.rule_index,
        decision.delay.as_millis()
    )
}

fn log(state: &AppState, number: usize, path: &str, what: &str) {
    if state.log_requests {
        eprintln!("novel-test-server: #{number} POST {path} {what}");
    }
}

fn meta(state: &AppState, body: &Value) -> Meta {
    let id = state.next_id.fetch_add(1, Ordering::Relaxed) + 1;
    let model = request::model(body)
        .or(state.models.first().map(String::as_str))
        .unwrap_or(crate::script::DEFAULT_MODEL);
    Meta {
        id: format!("chatcmpl-test-{id}"),
        created: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs()),
        model: model.to_string(),
    }
}

/// What the prompt cache did for one answer.
struct Served {
    report: CacheReport,
    /// Tokens of the answer, for `timings.predicted_n` and the default `completion_tokens`.
    predicted_n: u64,
}

/// Serves the prompt through the cache when it is on and the model would read it: for every
/// answer but scripted errors and refusals, which a real server sends before its model runs.
/// Only a text answer's tokens join the prompt in its slot: the misbehaving bodies are
/// generated on the fly, too large or never finished.
fn serve_prompt(state: &AppState, action: &Action, body: &Value) -> Option<Served> {
    if !state.cache().is_on() {
        return None;
    }
    let answer = match action {
        Action::Status(_) | Action::Reject { .. } => return None,
        Action::Text(text) => tokens::text(&text.content),
        Action::Cut(_) | Action::Huge(_) | Action::KeepAlive(_) | Action::Trickle(_) => Vec::new(),
    };
    let prompt = tokens::prompt(body);
    let report = state
        .cache()
        .serve(&prompt, &answer, request::id_slot(body))?;
    Some(Served {
        report,
        predicted_n: u64::try_from(answer.len()).unwrap_or(u64::MAX),
    })
}

/// The usage of a text answer. A script's own `usage`, `raw_usage` or `omit_usage` wins; else,
/// with the cache on, the cache's counts with their cached share, and without it a chars/4
/// estimate of the raw body and the answer.
fn text_usage(text: &TextReply, raw: &str, served: Option<&Served>) -> Option<Value> {
    if text.omit_usage {
        return None;
    }
    if let Some(raw_usage) = &text.raw_usage {
        return Some(raw_usage.clone());
    }
    if let Some(spec) = text.usage {
        return Some(wire::usage(spec));
    }
    Some(match served {
        Some(served) => wire::cached_usage(
            UsageSpec {
                prompt_tokens: served.report.prompt_tokens(),
                completion_tokens: served.predicted_n,
            },
            served.report.cache_n,
        ),
        None => wire::usage(UsageSpec {
            prompt_tokens: wire::estimate_tokens(raw),
            completion_tokens: wire::estimate_tokens(&text.content),
        }),
    })
}

fn answer(
    state: &AppState,
    action: Action,
    body: &Value,
    raw: &str,
    served: Option<Served>,
) -> Response {
    let meta = meta(state, body);
    let streaming = request::is_stream(body);
    match action {
        Action::Text(text) => {
            let usage = text_usage(&text, raw, served.as_ref());
            // The cache's own report, sent whatever the script says of usage.
            let timings = served
                .as_ref()
                .map(|served| wire::timings(&served.report, served.predicted_n));
            if streaming {
                let stream_usage =
                    usage.filter(|_| text.stream_usage || request::wants_stream_usage(body));
                let delay = std::time::Duration::from_millis(text.chunk_delay_ms);
                sse(stream::text_steps(
                    &meta,
                    &text.content,
                    stream_usage,
                    timings,
                    delay,
                ))
            } else {
                let mut completion = wire::completion(&meta, &text.content, usage);
                wire::attach(&mut completion, "timings", timings);
                json_response(StatusCode::OK, completion)
            }
        }
        Action::Status(status) => {
            let code =
                StatusCode::from_u16(status.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let error_body = status
                .body
                .unwrap_or_else(|| wire::status_error(code.as_u16()));
            let mut response = json_response(code, error_body);
            if let Some(value) = status
                .retry_after
                .and_then(|value| HeaderValue::from_str(&value).ok())
            {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            if let Some(value) = status
                .location
                .and_then(|value| HeaderValue::from_str(&value).ok())
            {
                response.headers_mut().insert(header::LOCATION, value);
            }
            response
        }
        Action::Reject { status, body } => json_response(
            StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
            body,
        ),
        Action::Huge(huge) => with_type(stream::huge_body(&meta, huge, streaming), streaming),
        Action::KeepAlive(endless) => with_type(
            stream::endless_body(&meta, &endless, streaming, false),
            streaming,
        ),
        Action::Trickle(endless) => with_type(
            stream::endless_body(&meta, &endless, streaming, true),
            streaming,
        ),
        Action::Cut(cut) if streaming => sse(stream::cut_steps(&meta, &cut)),
        Action::Cut(cut) => piecewise(
            stream::truncated_completion_steps(&meta, &cut.content),
            "application/json",
        ),
    }
}

fn piecewise(steps: Vec<stream::Step>, content_type: &'static str) -> Response {
    typed(stream::body(steps), content_type)
}

fn typed(body: Body, content_type: &'static str) -> Response {
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// An SSE response or a JSON one, for bodies built for either.
fn with_type(body: Body, streaming: bool) -> Response {
    if streaming {
        let mut response = typed(body, "text/event-stream");
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    } else {
        typed(body, "application/json")
    }
}

fn sse(steps: Vec<stream::Step>) -> Response {
    with_type(stream::body(steps), true)
}
