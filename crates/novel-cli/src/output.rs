//! Printing: text for people, JSON for scripts. Text goes through [`say!`], which removes
//! control characters and terminal escape sequences: names, titles and history come from a
//! model, and a title holding `ESC]0;…` must not retitle the writer's terminal.
//!
//! Everything printed to stdout goes through [`line`], the one place that meets a reader who
//! stopped reading (`novel list scenes | head -1`): `println!` panics on a closed pipe, and a
//! stack trace for a `head` that had what it wanted is noise.

use std::io::{ErrorKind, Write};

use serde::Serialize;

/// `println!` for text that may hold model output.
macro_rules! say {
    () => {
        $crate::output::line("")
    };
    ($($arg:tt)*) => {
        $crate::output::line(&novel_core::text::strip_controls(&format!($($arg)*)))
    };
}
pub(crate) use say;

/// `eprintln!` for text that may hold model or server output.
macro_rules! say_err {
    ($($arg:tt)*) => {
        eprintln!("{}", novel_core::text::strip_controls(&format!($($arg)*)))
    };
}
pub(crate) use say_err;

/// The exit status when the reader of stdout has gone: 128 + SIGPIPE, what a shell reports
/// for a program the signal stopped, so `set -o pipefail` scripts see the cut as other tools'.
const READER_GONE: i32 = 141;

/// Writes one line to stdout. A closed pipe ends the program quietly, as SIGPIPE ends other
/// tools: nothing more can be shown. The engine commits each step before a front prints it,
/// so the novel is whole (a run stops between scenes, as Ctrl-C stops it), and the novel's
/// lock is a file lock the system lets go of. The CLI is its own binary: ending the process
/// here touches no other front.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(err) = writeln!(out, "{text}") {
        if err.kind() == ErrorKind::BrokenPipe {
            std::process::exit(READER_GONE);
        }
        // Any other failure (a full disk) is said once, on stderr, without a stack trace.
        eprintln!("error: cannot write to stdout: {err}");
        std::process::exit(1);
    }
}

pub fn json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    line(&serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Shortens a text to `max` characters for one-line listings.
pub fn clip(text: &str, max: usize) -> String {
    novel_core::text::clip(&novel_core::text::strip_controls(text), max)
}
