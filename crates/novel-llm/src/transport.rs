//! The HTTP request loop shared by the HTTP providers: one reqwest client (rustls), POST a JSON
//! body, retry 429 / 5xx / timeouts / connection failures on the profile's schedule, and sort
//! every other outcome into success, a clear error, or a refusal the provider may want to
//! inspect (a 400 — or llama-cpp-python's 500 — about `response_format` triggers the
//! structured-output fallback). Everything read from the server is bounded (see
//! [`crate::limits`]): a non-streamed body by size and the profile's timeout, an error body to
//! its first 64 KiB.
//!
//! A retry only ever repeats a request whose answer never reached the caller: a non-streamed
//! body is read inside the loop, while a stream is handed over once its headers arrive and is
//! never restarted behind the caller's back.

use std::time::{Duration, SystemTime};

use reqwest::{Client, Response, StatusCode};
use serde::Serialize;

use crate::context::CallContext;
use crate::error::{LlmError, http_client};
use crate::http_retry::{RetryPolicy, retry_after_from};
use crate::limits::MAX_ERROR_BODY_BYTES;

/// Connecting should be quick even when generating is slow.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// Decides whether a failed response is a refusal for the provider to handle (given status
/// and the start of the body) rather than a failure to retry or report.
pub(crate) type RefusalTest<'a> = &'a (dyn Fn(u16, &str) -> bool + Sync);

/// No failed response is a refusal the provider handles itself (beyond the plain 4xx ones).
pub(crate) const NO_REFUSALS: RefusalTest<'static> = &|_, _| false;

/// How a request failed, when not with a ready-made error.
#[derive(Debug)]
pub(crate) enum SendFailure {
    /// A 4xx other than 401/403/404/408/429, or any status the caller's [`RefusalTest`]
    /// claimed: the provider decides what it means.
    Rejected { status: u16, body: String },
    /// Everything else, already explained.
    Error(LlmError),
}

impl From<LlmError> for SendFailure {
    fn from(err: LlmError) -> Self {
        SendFailure::Error(err)
    }
}

/// One POST: where, with which headers and body, and which failures the caller handles.
pub(crate) struct Post<'a, B: ?Sized> {
    pub url: &'a str,
    pub headers: &'a [(&'static str, String)],
    pub body: &'a B,
    pub refusal: RefusalTest<'a>,
}

/// What a request should deliver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// The response, as soon as its headers arrive.
    Stream,
    /// The whole body, at most `limit` bytes.
    Body { limit: usize },
}

/// What a request delivered.
#[derive(Debug)]
pub(crate) enum Delivered {
    /// See [`Delivery::Stream`].
    Stream(Response),
    /// See [`Delivery::Body`].
    Body(String),
}

/// What one attempt came to.
enum Attempt<T> {
    Done(T),
    Retry { wait: Duration, failure: LlmError },
    Fail(SendFailure),
}

/// A client plus the profile's retry schedule and timeout.
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    client: Client,
    policy: RetryPolicy,
    timeout: Duration,
}

impl Transport {
    pub(crate) fn new(policy: RetryPolicy, timeout: Duration) -> Result<Self, LlmError> {
        let client = http_client(
            Client::builder()
                .connect_timeout(CONNECT_TIMEOUT.min(timeout))
                // For streams this bounds the silence between chunks, not the whole answer.
                .read_timeout(timeout),
        )?;
        Ok(Transport {
            client,
            policy,
            timeout,
        })
    }

    /// POSTs for a streamed answer and returns the response once its headers arrived; retries
    /// as the policy allows until then, never after.
    pub(crate) async fn post_for_stream<B: Serialize + ?Sized>(
        &self,
        ctx: &CallContext,
        post: &Post<'_, B>,
    ) -> Result<Response, SendFailure> {
        match self.post(ctx, post, Delivery::Stream).await? {
            Delivered::Stream(response) => Ok(response),
            Delivered::Body(_) => unreachable!("a stream was asked for"),
        }
    }

    /// POSTs as `delivery` says, retrying as the policy allows.
    pub(crate) async fn post<B: Serialize + ?Sized>(
        &self,
        ctx: &CallContext,
        post: &Post<'_, B>,
        delivery: Delivery,
    ) -> Result<Delivered, SendFailure> {
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let mut request = self.client.post(post.url).json(post.body);
            for (name, value) in post.headers {
                request = request.header(*name, value);
            }
            if let Delivery::Body { .. } = delivery {
                // Streams get only the read timeout, since a long story is slow; their overall
                // time is bounded where the stream is read.
                request = request.timeout(self.timeout);
            }
            let outcome = match request.send().await {
                Ok(response) if response.status().is_success() => match delivery {
                    Delivery::Stream => Attempt::Done(Delivered::Stream(response)),
                    Delivery::Body { limit } => {
                        self.read_body(ctx, post, response, limit, attempt).await
                    }
                },
                Ok(response) => self.failed(ctx, post, response, attempt).await,
                Err(err) => self.transport_failure(ctx, post.url, &err, attempt),
            };
            let (wait, failure) = match outcome {
                Attempt::Done(done) => return Ok(done),
                Attempt::Fail(failure) => return Err(failure),
                Attempt::Retry { wait, failure } => (wait, failure),
            };
            if attempt > self.policy.max_retries {
                return Err(failure.into());
            }
            tracing::warn!(
                provider = %ctx.provider,
                attempt,
                wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                error = %failure,
                "retrying LLM request"
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// Reads a successful non-streamed body, at most `limit` bytes.
    async fn read_body<B: ?Sized>(
        &self,
        ctx: &CallContext,
        post: &Post<'_, B>,
        mut response: Response,
        limit: usize,
        attempt: u32,
    ) -> Attempt<Delivered> {
        let mut bytes = Vec::new();
        match read_into(&mut response, &mut bytes, limit).await {
            Ok(true) => Attempt::Done(Delivered::Body(
                String::from_utf8_lossy(&bytes).into_owned(),
            )),
            Ok(false) => Attempt::Fail(
                ctx.invalid(format!(
                    "the response body passed {limit} bytes, far more than any answer the \
                     request allows; the server or model is misbehaving"
                ))
                .into(),
            ),
            Err(err) => self.transport_failure(ctx, post.url, &err, attempt),
        }
    }

    /// Sorts an HTTP error status, reading at most the start of its body.
    async fn failed<B: ?Sized, T>(
        &self,
        ctx: &CallContext,
        post: &Post<'_, B>,
        mut response: Response,
        attempt: u32,
    ) -> Attempt<T> {
        let status = response.status();
        if status.is_redirection() {
            return Attempt::Fail(redirected(ctx, &response).into());
        }
        let retry_after = retry_after_from(response.headers(), SystemTime::now());
        // The body only explains the failure: its first bytes, read within the timeout, are
        // all that is worth having; an unreadable or endless one is not worth more.
        let mut bytes = Vec::new();
        let read = read_into(&mut response, &mut bytes, MAX_ERROR_BODY_BYTES);
        let _ = tokio::time::timeout(self.timeout, read).await;
        let text = String::from_utf8_lossy(&bytes);
        let code = status.as_u16();
        if !matches!(code, 401 | 403 | 404 | 429) && (post.refusal)(code, &text) {
            return Attempt::Fail(SendFailure::Rejected {
                status: code,
                body: text.into_owned(),
            });
        }
        match classify(ctx, post.url, status, &text, attempt) {
            Outcome::Retry(failure) => Attempt::Retry {
                wait: self.policy.delay(attempt, retry_after),
                failure,
            },
            Outcome::Fail(failure) => Attempt::Fail(failure),
        }
    }

    /// A request that got no (complete) answer: timeouts, connection trouble and bodies cut
    /// off are worth retrying, as nothing reached the caller yet; anything else is not.
    fn transport_failure<T>(
        &self,
        ctx: &CallContext,
        url: &str,
        err: &reqwest::Error,
        attempt: u32,
    ) -> Attempt<T> {
        let wait = self.policy.backoff(attempt);
        if err.is_timeout() {
            return Attempt::Retry {
                wait,
                failure: ctx.timeout(),
            };
        }
        // Request errors without a response are connection trouble (refused, reset, DNS).
        if err.is_connect() || err.is_request() {
            return Attempt::Retry {
                wait,
                failure: LlmError::Connect {
                    provider: ctx.provider.clone(),
                    url: ctx.redact(url),
                    attempts: attempt,
                    detail: ctx.transport_detail(err),
                },
            };
        }
        if err.is_body() || err.is_decode() {
            return Attempt::Retry {
                wait,
                failure: ctx.stream_cut(ctx.transport_detail(err)),
            };
        }
        Attempt::Fail(
            LlmError::Config(format!(
                "{}: cannot send the request to {}: {}",
                ctx.location,
                ctx.redact(url),
                ctx.transport_detail(err)
            ))
            .into(),
        )
    }
}

/// Appends `response`'s body to `bytes` until it ends (`true`) or `bytes` holds `limit` bytes
/// (`false`, the rest unread). On error or cancellation `bytes` keeps what arrived.
pub(crate) async fn read_into(
    response: &mut Response,
    bytes: &mut Vec<u8>,
    limit: usize,
) -> Result<bool, reqwest::Error> {
    while let Some(chunk) = response.chunk().await? {
        let room = limit.saturating_sub(bytes.len());
        if chunk.len() > room {
            bytes.extend_from_slice(&chunk[..room]);
            return Ok(false);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(true)
}

/// A redirect, which is never followed (see [`crate::error::http_client`]): named with where
/// it points, credentials removed, so the writer can put that address in the profile.
fn redirected(ctx: &CallContext, response: &Response) -> LlmError {
    let to = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .map(|to| ctx.detail(to))
        .unwrap_or_else(|| "nowhere said".into());
    LlmError::Config(format!(
        "{} answered HTTP {} redirecting to {to}; redirects are not followed, so the API key \
         goes only to the server it was saved for. If that address is the right server, set \
         `base_url` in {} to it",
        ctx.provider,
        response.status().as_u16(),
        ctx.location
    ))
}

enum Outcome {
    Retry(LlmError),
    Fail(SendFailure),
}

fn classify(ctx: &CallContext, url: &str, status: StatusCode, body: &str, attempt: u32) -> Outcome {
    let code = status.as_u16();
    match code {
        429 => Outcome::Retry(LlmError::RateLimited {
            provider: ctx.provider.clone(),
            attempts: attempt,
            detail: ctx.detail(body),
        }),
        408 | 500..=599 => Outcome::Retry(LlmError::Server {
            provider: ctx.provider.clone(),
            status: code,
            attempts: attempt,
            detail: ctx.detail(body),
        }),
        401 | 403 => Outcome::Fail(ctx.auth(code, body).into()),
        404 => Outcome::Fail(ctx.not_found(url, body).into()),
        _ => Outcome::Fail(SendFailure::Rejected {
            status: code,
            body: body.to_string(),
        }),
    }
}
