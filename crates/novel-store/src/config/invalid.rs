//! A setting outside what the engine accepts, named by where it is in `novel.toml`.

/// A setting outside what the engine accepts. `key` is its dotted path in `novel.toml`
/// (`generation.target_words_max`); the message shows it as the file does (`[generation]
/// target_words_max`) so the writer can find the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {problem}", toml_location(key))]
pub struct InvalidSetting {
    pub key: String,
    pub problem: String,
}

impl InvalidSetting {
    pub fn new(key: impl Into<String>, problem: impl Into<String>) -> Self {
        InvalidSetting {
            key: key.into(),
            problem: problem.into(),
        }
    }
}

fn toml_location(key: &str) -> String {
    match key.rsplit_once('.') {
        Some((table, name)) => format!("[{table}] {name}"),
        None => key.to_string(),
    }
}
