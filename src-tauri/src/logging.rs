//! The desktop app's log: a file per day in the app's log directory (a week of them kept),
//! warnings and above unless `NOVEL_LOG` says otherwise (the same filter syntax as the CLI),
//! plain text without colour codes. Nothing the shell logs carries a key or a prompt: failures
//! are logged by kind, stage and error file, and the provider layer redacts its own messages.

use std::path::Path;

use tracing::Subscriber;
use tracing_appender::rolling::{InitError, RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;

/// The log files are `novel-agent.YYYY-MM-DD.log`.
pub const LOG_FILE_PREFIX: &str = "novel-agent";
/// How many daily files are kept.
pub const KEPT_FILES: usize = 7;

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot create the log directory {dir}: {source}")]
    Dir { dir: String, source: std::io::Error },
    #[error("cannot open the log file in {dir}: {source}")]
    Open { dir: String, source: InitError },
    #[error("a logger is already installed")]
    AlreadySet,
}

/// The filter from `NOVEL_LOG`, else warnings and above.
pub fn filter_from_env() -> EnvFilter {
    EnvFilter::try_from_env("NOVEL_LOG").unwrap_or_else(|_| EnvFilter::new("warn"))
}

/// A subscriber writing to the daily log files in `dir` through `filter`.
pub fn subscriber(
    dir: &Path,
    filter: EnvFilter,
) -> Result<impl Subscriber + Send + Sync + 'static, LogError> {
    // Made first: the appender looks for old files to prune before it creates anything.
    std::fs::create_dir_all(dir).map_err(|source| LogError::Dir {
        dir: dir.display().to_string(),
        source,
    })?;
    let files = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(LOG_FILE_PREFIX)
        .filename_suffix("log")
        .max_log_files(KEPT_FILES)
        .build(dir)
        .map_err(|source| LogError::Open {
            dir: dir.display().to_string(),
            source,
        })?;
    Ok(tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(files)
        .finish())
}

/// Sends this process's log to the files in `dir`.
pub fn init(dir: &Path) -> Result<(), LogError> {
    tracing::subscriber::set_global_default(subscriber(dir, filter_from_env())?)
        .map_err(|_| LogError::AlreadySet)
}

#[cfg(test)]
mod tests {
    use novel_core::executor::{
        self, ActionInputs, ActionRunner, ExecAction, ExecutorConfig, HealthBook, ToolFailure,
    };
    use serde_json::{Value, json};

    use super::*;

    struct Succeeds;

    impl ActionRunner for Succeeds {
        async fn run(
            &self,
            _action: &ExecAction,
            _inputs: &ActionInputs,
        ) -> Result<Value, ToolFailure> {
            Ok(json!({}))
        }
    }

    fn action(id: &str) -> ExecAction {
        ExecAction {
            id: id.into(),
            tool: "memory.search".into(),
            args: json!({}),
            required: false,
            dependencies: vec![],
        }
    }

    fn log_text(dir: &Path) -> String {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(LOG_FILE_PREFIX) && n.ends_with(".log"))
            })
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    #[test]
    fn an_engine_warning_reaches_the_log_file_without_colour_codes() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("logs");
        let subscriber = subscriber(&dir, EnvFilter::new("warn")).unwrap();
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!("routine detail that stays out of the file");
            // The executor warns when a plan has more actions than its soft limit.
            let config = ExecutorConfig {
                soft_action_limit: 1,
                ..ExecutorConfig::default()
            };
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime
                .block_on(executor::execute(
                    &[action("a1"), action("a2")],
                    &Succeeds,
                    &mut HealthBook::default(),
                    &config,
                ))
                .unwrap();
        });
        let text = log_text(&dir);
        assert!(
            text.contains("WARN") && text.contains("plan exceeds the soft action limit"),
            "{text}"
        );
        assert!(!text.contains("routine detail"), "info is filtered: {text}");
        assert!(!text.contains('\u{1b}'), "no ANSI codes: {text:?}");
    }

    #[test]
    fn a_filter_can_let_more_through() {
        let dir = tempfile::tempdir().unwrap();
        let subscriber = subscriber(dir.path(), EnvFilter::new("info")).unwrap();
        tracing::subscriber::with_default(subscriber, || tracing::info!("now it is kept"));
        assert!(log_text(dir.path()).contains("now it is kept"));
    }
}
