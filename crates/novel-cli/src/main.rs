//! `novel`: the Novel Agent engine from the command line — create a novel, look inside it,
//! export it. A thin front: parsing arguments and printing results; the work is in novel-core.

mod cli;
mod commands;
mod output;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("NOVEL_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colour codes only for a terminal: in a file or a pipe they are noise.
        .with_ansi(std::io::stderr().is_terminal())
        .without_time()
        .init();
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!(
                "error: {}",
                novel_core::text::strip_controls(&format!("{err:#}"))
            );
            ExitCode::FAILURE
        }
    }
}
