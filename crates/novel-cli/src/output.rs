//! Printing: text for people, JSON for scripts. Text goes through [`say!`], which removes
//! control characters and terminal escape sequences: names, titles and history come from a
//! model, and a title holding `ESC]0;…` must not retitle the writer's terminal.

use serde::Serialize;

/// `println!` for text that may hold model output.
macro_rules! say {
    () => {
        println!()
    };
    ($($arg:tt)*) => {
        println!("{}", novel_core::text::strip_controls(&format!($($arg)*)))
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

pub fn json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Shortens a text to `max` characters for one-line listings.
pub fn clip(text: &str, max: usize) -> String {
    novel_core::text::clip(&novel_core::text::strip_controls(text), max)
}
