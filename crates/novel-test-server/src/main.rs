//! `novel-test-server --script path.json [--port N] [--record path.jsonl] [--cache-slots N]`:
//! serves a script file (which picks the server imitated in its `quirks`), prints
//! `listening http://127.0.0.1:PORT/v1` once on stdout, logs requests to stderr, and runs
//! until killed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use novel_test_server::{Script, ScriptError, ServerOptions, TestServer};

/// Scriptable OpenAI-compatible chat-completions server for tests.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// JSON script file: `{"rules": [...], "models": [...]}` or a bare list of rules.
    #[arg(long)]
    script: PathBuf,
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Append every chat request as one JSON line to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Imitate a prompt cache of N slots, as llama-server's `--parallel N` (0: off).
    #[arg(long, default_value_t = 0)]
    cache_slots: usize,
}

#[derive(Debug, thiserror::Error)]
enum MainError {
    #[error(transparent)]
    Script(#[from] ScriptError),
    #[error("cannot start: {0}")]
    Io(#[from] std::io::Error),
}

async fn run(args: Args) -> Result<(), MainError> {
    let script = Script::from_json_file(&args.script)?;
    let options = ServerOptions {
        port: args.port,
        record_path: args.record,
        log_requests: true,
        cache_slots: args.cache_slots,
    };
    let server = TestServer::start_with(script, options).await?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening {}", server.base_url())?;
    stdout.flush()?;
    drop(stdout);
    // Serves until the process is killed; the default SIGTERM/SIGINT action ends it.
    std::future::pending::<()>().await;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("novel-test-server: {err}");
            ExitCode::FAILURE
        }
    }
}
