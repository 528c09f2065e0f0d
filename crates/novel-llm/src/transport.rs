//! The HTTP request loop shared by the HTTP providers: one reqwest client (rustls), POST a JSON
//! body, retry 429 / 5xx / connection failures on the profile's schedule, and sort every other
//! outcome into success, a clear error, or a rejection the provider may want to inspect (a 400
//! about `response_format` triggers the structured-output fallback).

use std::time::{Duration, SystemTime};

use reqwest::{Client, Response, StatusCode};
use serde::Serialize;

use crate::context::CallContext;
use crate::error::LlmError;
use crate::http_retry::{RetryPolicy, retry_after_from};

/// Connecting should be quick even when generating is slow.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// How a request failed, when not with a ready-made error.
#[derive(Debug)]
pub(crate) enum SendFailure {
    /// A 4xx other than 401/403/404/408/429: the provider decides what it means.
    Rejected { status: u16, body: String },
    /// Everything else, already explained.
    Error(LlmError),
}

impl From<LlmError> for SendFailure {
    fn from(err: LlmError) -> Self {
        SendFailure::Error(err)
    }
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
        let client = Client::builder()
            .connect_timeout(CONNECT_TIMEOUT.min(timeout))
            // For streams this bounds the silence between chunks, not the whole answer.
            .read_timeout(timeout)
            .build()
            .map_err(|err| LlmError::Config(format!("cannot create the HTTP client: {err}")))?;
        Ok(Transport {
            client,
            policy,
            timeout,
        })
    }

    /// POSTs `body` to `url`, retrying as the policy allows. Non-streaming requests also get a
    /// total timeout; streaming ones only the read timeout, since a long story is slow.
    pub(crate) async fn post_json<B: Serialize + ?Sized>(
        &self,
        ctx: &CallContext,
        url: &str,
        headers: &[(&'static str, String)],
        body: &B,
        streaming: bool,
    ) -> Result<Response, SendFailure> {
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            let mut request = self.client.post(url).json(body);
            for (name, value) in headers {
                request = request.header(*name, value);
            }
            if !streaming {
                request = request.timeout(self.timeout);
            }
            let retries_left = attempt <= self.policy.max_retries;
            let (wait, failure) = match request.send().await {
                Ok(response) if response.status().is_success() => return Ok(response),
                Ok(response) => {
                    let status = response.status();
                    let retry_after = retry_after_from(response.headers(), SystemTime::now());
                    // The body only explains the failure; an unreadable one is not worth more.
                    let text = response.text().await.unwrap_or_default();
                    match classify(ctx, url, status, &text, attempt) {
                        Outcome::Retry(err) => (self.policy.delay(attempt, retry_after), err),
                        Outcome::Fail(failure) => return Err(failure),
                    }
                }
                Err(err) if err.is_timeout() => return Err(ctx.timeout().into()),
                // Request errors without a response are connection trouble (refused, reset,
                // DNS); builder errors are not and are not retried.
                Err(err) if err.is_connect() || err.is_request() => {
                    let failure = LlmError::Connect {
                        provider: ctx.provider.clone(),
                        url: url.to_string(),
                        attempts: attempt,
                        detail: ctx.transport_detail(&err),
                    };
                    (self.policy.backoff(attempt), failure)
                }
                Err(err) => {
                    return Err(LlmError::Config(format!(
                        "{}: cannot send the request to {url}: {}",
                        ctx.location,
                        ctx.transport_detail(&err)
                    ))
                    .into());
                }
            };
            if !retries_left {
                return Err(failure.into());
            }
            tracing::warn!(
                provider = %ctx.provider,
                attempt,
                wait_ms = wait.as_millis() as u64,
                error = %failure,
                "retrying LLM request"
            );
            tokio::time::sleep(wait).await;
        }
    }
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
