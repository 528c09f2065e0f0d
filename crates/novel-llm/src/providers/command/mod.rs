//! The command provider: runs a configured command-line agent (by default the Codex CLI,
//! `codex exec -`) with the whole prompt rendered as text on standard input and takes its
//! standard output as the answer. No wire protocol, so structured output is prompt-only, and
//! the answer arrives in one piece when the program exits. Its output is untrusted like a
//! server's: standard output is bounded like any answer (see [`crate::limits`]), and standard
//! error is kept only to its end and has credentials removed before it is quoted. The program
//! runs in an empty folder of its own with an allow-listed environment, so it is handed no API
//! key of the writer's (see [`sandbox`]).

pub(crate) mod sandbox;

use std::process::Stdio;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::error::LlmError;
use crate::json::mode::{StructuredMode, system_prompt};
use crate::limits::Limits;
use crate::model::{EventStream, LanguageModel, elapsed_ms};
use crate::secret::redact_secrets;
use crate::tokens;
use crate::types::{ChatRequest, Completion, FinishReason, ModelInfo, Role, StreamEvent};
use sandbox::{confine, resolve_program};

/// How much of standard error is quoted when the program fails.
const STDERR_TAIL_LINES: usize = 15;
const STDERR_TAIL_CHARS: usize = 1500;

/// How much of standard error is kept while the program runs (only its end is quoted).
const STDERR_KEEP_BYTES: usize = 64 << 10;

/// A model behind a command line.
#[derive(Debug, Clone)]
pub struct CommandModel {
    profile: String,
    argv: Vec<String>,
    timeout: Duration,
    model: String,
}

/// The request as one text: system prompt first, then each turn under a role heading. Also the
/// text scripted models match their keys against.
pub fn render_prompt(req: &ChatRequest) -> String {
    let mut out = String::new();
    if let Some(system) = &req.system {
        out.push_str(system.trim_end());
        out.push_str("\n\n");
    }
    let single_user = matches!(req.messages.as_slice(), [only] if only.role == Role::User);
    for message in &req.messages {
        // A lone user message needs no heading; a conversation (e.g. a repair) does.
        if !single_user {
            out.push_str(match message.role {
                Role::User => "## User\n",
                Role::Assistant => "## Assistant (your earlier answer)\n",
            });
        }
        out.push_str(message.content.trim_end());
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

impl CommandModel {
    /// Runs `argv` (program first) with `timeout` per call; `profile` names it in errors.
    pub fn new(
        profile: impl Into<String>,
        argv: Vec<String>,
        timeout: Duration,
    ) -> Result<Self, LlmError> {
        let profile = profile.into();
        let Some(program) = argv.first() else {
            return Err(LlmError::Config(format!(
                "profile `{profile}`: `command` is empty"
            )));
        };
        let model = program.clone();
        Ok(CommandModel {
            profile,
            argv,
            timeout,
            model,
        })
    }

    fn provider(&self) -> String {
        format!("profile `{}` (command)", self.profile)
    }

    fn fail(&self, detail: String) -> LlmError {
        LlmError::Command {
            provider: self.provider(),
            program: self.model.clone(),
            detail,
        }
    }

    async fn run(&self, req: &ChatRequest) -> Result<Completion, LlmError> {
        let started = Instant::now();
        let mut prompted = req.clone();
        prompted.system = system_prompt(req, StructuredMode::PromptOnly);
        let prompt = render_prompt(&prompted);

        // An empty folder of its own, removed when the call ends (see `command_sandbox`).
        let workdir = tempfile::Builder::new()
            .prefix("novel-agent-command-")
            .tempdir()
            .map_err(|err| self.fail(format!("cannot make a folder for it to run in: {err}")))?;
        let mut command = Command::new(resolve_program(&self.argv[0]));
        confine(&mut command, workdir.path(), std::env::vars_os());
        let mut child = command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Dropping the future on timeout must not leave the agent running.
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| {
                self.fail(format!(
                    "cannot start it ({err}); install it or change `command` in profile `{}`",
                    self.profile
                ))
            })?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| self.fail("its standard input is not available".into()))?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(self.fail("its output is not available".into()));
        };
        let limit = Limits::new(req.max_tokens, self.timeout).answer_bytes;
        let feed = async move {
            // A program may exit without reading all its input; that is its business, and its
            // exit status tells us whether it worked.
            let _ = stdin.write_all(prompt.as_bytes()).await;
            let _ = stdin.shutdown().await;
        };
        let run = async {
            let answer = async {
                let read = read_capped(stdout, limit).await;
                if matches!(read, Ok(Capped { over: true, .. })) {
                    // A program printing without end is stopped at once, not at the timeout.
                    let _ = child.start_kill();
                }
                read
            };
            let ((), answer, errors) = tokio::join!(feed, answer, read_tail(stderr));
            let status = child.wait().await;
            (answer, errors, status)
        };
        let (answer, errors, status) = match tokio::time::timeout(self.timeout, run).await {
            Ok(done) => done,
            Err(_) => {
                return Err(LlmError::Timeout {
                    provider: self.provider(),
                    secs: self.timeout.as_secs().max(1),
                });
            }
        };
        let io_fail = |err: std::io::Error| self.fail(format!("reading its output failed: {err}"));
        let answer = answer.map_err(io_fail)?;
        let errors = stderr_tail(&String::from_utf8_lossy(&errors.map_err(io_fail)?));
        if answer.over {
            return Err(self.fail(format!(
                "it printed more than {limit} bytes, far more than the answer may have, and was \
                 stopped; standard error ends with:\n{errors}"
            )));
        }
        let status = status.map_err(|err| self.fail(format!("waiting for it failed: {err}")))?;
        if !status.success() {
            return Err(self.fail(format!(
                "it exited with {status}; standard error ends with:\n{errors}"
            )));
        }
        let text = String::from_utf8_lossy(&answer.bytes).trim().to_string();
        if text.is_empty() {
            return Err(self.fail(format!(
                "it printed nothing on standard output; standard error ends with:\n{errors}"
            )));
        }
        Ok(Completion {
            usage: tokens::estimate_usage(&prompted, &text),
            text,
            finish_reason: FinishReason::Stop,
            model: self.model.clone(),
            latency_ms: elapsed_ms(started),
        })
    }
}

/// What was read of a pipe, up to a limit.
struct Capped {
    bytes: Vec<u8>,
    /// There was more than the limit; the rest was not read.
    over: bool,
}

/// Reads `pipe` to its end or to `limit` bytes, whichever comes first.
async fn read_capped(pipe: impl AsyncRead + Unpin, limit: usize) -> std::io::Result<Capped> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    pipe.take(cap).read_to_end(&mut bytes).await?;
    let over = bytes.len() > limit;
    bytes.truncate(limit);
    Ok(Capped { bytes, over })
}

/// Reads `pipe` to its end, keeping only its last [`STDERR_KEEP_BYTES`].
async fn read_tail(mut pipe: impl AsyncRead + Unpin) -> std::io::Result<Vec<u8>> {
    let mut tail = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = pipe.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        tail.extend_from_slice(&chunk[..n]);
        if tail.len() > 2 * STDERR_KEEP_BYTES {
            tail.drain(..tail.len() - STDERR_KEEP_BYTES);
        }
    }
    if tail.len() > STDERR_KEEP_BYTES {
        tail.drain(..tail.len() - STDERR_KEEP_BYTES);
    }
    Ok(tail)
}

/// The last lines of a program's standard error, with anything that looks like a credential
/// removed: agents print URLs, tokens and environment dumps there.
fn stderr_tail(stderr: &str) -> String {
    let stderr = redact_secrets(stderr);
    let lines: Vec<&str> = stderr.trim_end().lines().collect();
    let tail = lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..].join("\n");
    let skip = tail.chars().count().saturating_sub(STDERR_TAIL_CHARS);
    let tail: String = tail.chars().skip(skip).collect();
    if tail.is_empty() {
        "(nothing)".into()
    } else {
        tail
    }
}

impl LanguageModel for CommandModel {
    fn complete<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<Completion, LlmError>> {
        self.run(req).boxed()
    }

    fn stream<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        async move {
            let done = self.run(req).await?;
            let events = vec![
                Ok(StreamEvent::TextDelta(done.text)),
                Ok(StreamEvent::Usage(done.usage)),
                Ok(StreamEvent::Finish(done.finish_reason)),
            ];
            Ok(futures::stream::iter(events).boxed())
        }
        .boxed()
    }

    fn describe(&self) -> ModelInfo {
        ModelInfo {
            kind: "command".into(),
            profile: self.profile.clone(),
            model: self.model.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::stream_completion;
    use crate::types::ChatMessage;

    fn sh(script: &str, timeout: Duration) -> CommandModel {
        let argv = vec!["sh".to_string(), "-c".to_string(), script.to_string()];
        CommandModel::new("agent", argv, timeout).unwrap()
    }

    #[test]
    fn renders_system_then_turns() {
        let single = ChatRequest::new("Write.").with_system("You write.");
        assert_eq!(render_prompt(&single), "You write.\n\nWrite.\n");
        let mut convo = single.clone();
        convo.messages.push(ChatMessage::assistant("Draft"));
        convo.messages.push(ChatMessage::user("Fix it"));
        let text = render_prompt(&convo);
        assert!(
            text.contains(
                "## User\nWrite.\n\n## Assistant (your earlier answer)\nDraft\n\n## User\nFix it"
            ),
            "{text}"
        );
    }

    #[tokio::test]
    async fn answers_with_standard_output() {
        let model = sh("cat >/dev/null; echo '{\"a\":1}'", Duration::from_secs(30));
        let done = model.complete(&ChatRequest::new("hi")).await.unwrap();
        assert_eq!(done.text, "{\"a\":1}");
        assert!(done.usage.estimated && done.usage.completion_tokens > 0);
        assert_eq!(model.describe().model, "sh");
    }

    #[tokio::test]
    async fn the_prompt_and_schema_arrive_on_standard_input() {
        // The program echoes its input back, so the answer is exactly what it was given.
        let model = sh("cat", Duration::from_secs(30));
        let req = ChatRequest::new("Plan the scene.")
            .with_system("You are the planner.")
            .with_json_schema(
                "plan",
                serde_json::json!({"type": "object", "required": ["rationale"]}),
            );
        let mut seen = String::new();
        let done = stream_completion(&model, &req, |d| seen.push_str(d))
            .await
            .unwrap();
        assert!(
            done.text.starts_with("You are the planner."),
            "{}",
            done.text
        );
        assert!(done.text.contains("\"rationale\"") && done.text.ends_with("Plan the scene."));
        assert_eq!(seen, done.text);
    }

    #[tokio::test]
    async fn failure_reports_exit_status_and_stderr_tail() {
        let model = sh(
            "cat >/dev/null; for i in $(seq 1 40); do echo line$i >&2; done; exit 3",
            Duration::from_secs(30),
        );
        let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, LlmError::Command { .. }), "{text}");
        assert!(
            text.contains("exit status: 3") && text.contains("line40"),
            "{text}"
        );
        assert!(
            !text.contains("line20\n"),
            "only the tail is quoted: {text}"
        );
    }

    #[tokio::test]
    async fn empty_output_and_missing_program_are_errors() {
        let silent = sh("cat >/dev/null", Duration::from_secs(30));
        let err = silent.complete(&ChatRequest::new("x")).await.unwrap_err();
        assert!(err.to_string().contains("printed nothing"), "{err}");

        let argv = vec!["/nonexistent/agent-cli".to_string()];
        let missing = CommandModel::new("codex", argv, Duration::from_secs(5)).unwrap();
        let err = missing.complete(&ChatRequest::new("x")).await.unwrap_err();
        assert!(
            err.to_string()
                .contains("change `command` in profile `codex`"),
            "{err}"
        );
        assert!(CommandModel::new("p", vec![], Duration::from_secs(1)).is_err());
    }

    #[tokio::test]
    async fn timeout_kills_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("finished");
        let script = format!("sleep 1; touch {}", marker.display());
        let model = sh(&script, Duration::from_millis(200));
        let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
        assert!(matches!(err, LlmError::Timeout { .. }), "{err}");
        // Had the program survived the timeout it would create the marker after its sleep.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(
            !marker.exists(),
            "the program kept running after the timeout"
        );
    }

    #[tokio::test]
    async fn the_program_runs_elsewhere_with_only_the_allowed_environment() {
        let model = sh(
            "cat >/dev/null; env; echo cwd=$(pwd)",
            Duration::from_secs(30),
        );
        let done = model.complete(&ChatRequest::new("hi")).await.unwrap();
        for line in done.text.lines().filter(|l| !l.starts_with("cwd=")) {
            let Some((name, _)) = line.split_once('=') else {
                continue;
            };
            // `sh` sets a few of its own (PWD, SHLVL, _); nothing else from the app's.
            assert!(
                crate::providers::command::sandbox::is_allowed(name.as_ref())
                    || ["PWD", "OLDPWD", "SHLVL", "_"].contains(&name),
                "{line}"
            );
        }
        let here = std::env::current_dir().unwrap();
        let cwd = done
            .text
            .lines()
            .find_map(|l| l.strip_prefix("cwd="))
            .unwrap();
        assert_ne!(std::path::Path::new(cwd), here);
        assert!(cwd.contains("novel-agent-command-"), "{cwd}");
        assert!(
            !std::path::Path::new(cwd).exists(),
            "removed after the call"
        );
    }

    #[tokio::test]
    async fn standard_error_is_redacted_before_it_is_shown() {
        let model = sh(
            "cat >/dev/null; echo 'login via https://bob:pw-12345@proxy.example.com failed' >&2; \
             echo 'env: OPENAI_API_KEY=sk-abcdefghijklmnop1234 HOME=/h' >&2; exit 1",
            Duration::from_secs(30),
        );
        let err = model.complete(&ChatRequest::new("x")).await.unwrap_err();
        let text = err.to_string();
        assert!(
            !text.contains("pw-12345") && !text.contains("sk-abcdefghijklmnop1234"),
            "{text}"
        );
        assert!(
            text.contains("https://<redacted>@proxy.example.com") && text.contains("HOME=/h"),
            "{text}"
        );
    }

    #[tokio::test]
    async fn endless_standard_output_is_stopped_at_the_answer_bound() {
        let model = sh(
            "cat >/dev/null; yes 'All work and no play.'",
            Duration::from_secs(60),
        );
        let started = std::time::Instant::now();
        let err = model
            .complete(&ChatRequest::new("x").with_max_tokens(10))
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::Command { .. }), "{err}");
        assert!(
            err.to_string().contains("printed more than 65536 bytes"),
            "{err}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }
}
