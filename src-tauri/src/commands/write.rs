//! Write: **Next scene** and **Run N** with Stop. A run streams its progress (stages, tool
//! results, prose deltas, usage, each committed scene, the final report) over a `Channel` and
//! runs on a blocking thread of its own, so the window never waits for the model.

use novel_core::clock::SystemClock;
use novel_core::role_models;
use novel_core::run::{self, RunControl, RunEnd, RunEvent, RunReport};
use novel_core::tick::TickOptions;
use novel_llm::{Limits, ProfileStore, ProviderConfig};
use tauri::ipc::Channel;
use tauri::{AppHandle, State};

use super::changed;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

/// The most ticks one run may ask for; longer runs are a series of runs.
const MAX_TICKS: u32 = 50;

/// The user's provider profiles; a clear message when there are none.
pub(crate) fn profiles() -> AppResult<ProviderConfig> {
    let store = ProfileStore::from_env()?;
    if !store.path().exists() {
        return Err(AppError::Provider {
            message: "No AI provider is set up yet. Open Settings → Providers, add one (for \
                      example a local OpenAI-compatible server such as llama.cpp or Ollama), \
                      make it the default and press Test connection."
                .into(),
        });
    }
    Ok(store.load()?)
}

/// Writes up to `n` scenes; `steering` guides the first. Resolves when the run ends, however
/// it ends: tick failures are part of the report, not errors.
#[tauri::command]
#[specta::specta]
pub async fn run_ticks(
    app: AppHandle,
    state: State<'_, AppState>,
    n: u32,
    steering: Option<String>,
    on_event: Channel<RunEvent>,
) -> AppResult<RunReport> {
    if n == 0 || n > MAX_TICKS {
        return Err(AppError::invalid(format!(
            "Ask for between 1 and {MAX_TICKS} scenes."
        )));
    }
    let session = state.session()?;
    let mut novel = session.write()?;
    // Each role's profile from novel.toml's [models], metered against its [budget].
    let models = role_models::models_for(&novel, &profiles()?, None, Limits::default())?;
    let options = TickOptions {
        steering: steering
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
        ..TickOptions::default()
    };
    let control = RunControl::new();
    session.set_run(Some(control.clone()));
    let path = Some(session.path_string());
    let (app2, path2) = (app.clone(), path.clone());
    let worker = tauri::async_runtime::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let on_event = |event: RunEvent| {
            if matches!(event, RunEvent::TickCommitted { .. }) {
                changed(&app2, path2.clone(), ChangeReason::TickCommitted);
            }
            // A closed window drops the channel; the run goes on and still commits.
            let _ = on_event.send(event);
        };
        Ok::<_, std::io::Error>(runtime.block_on(run::run_ticks(
            &mut novel,
            &models,
            n,
            &options,
            &control,
            &SystemClock,
            &on_event,
        )))
    });
    let result = worker.await;
    session.set_run(None);
    let report =
        result.map_err(|e| AppError::storage(format!("the writing thread stopped: {e}")))??;
    if report.end == RunEnd::Failed {
        // By kind, stage and error file only: the message may quote what a server said.
        if let Some(failure) = &report.failure {
            tracing::warn!(
                tick = ?failure.tick,
                kind = failure.kind.as_str(),
                stage = ?failure.stage,
                error_file = ?failure.error_file,
                "a tick failed"
            );
        }
        changed(&app, path, ChangeReason::TickFailed);
    }
    Ok(report)
}

/// Stops the run: after the current scene commits, or at once (`cancel`), rolling it back.
#[tauri::command]
#[specta::specta]
pub async fn stop_run(state: State<'_, AppState>, cancel: bool) -> AppResult<bool> {
    let Some(control) = state.current().and_then(|s| s.run_control()) else {
        return Ok(false);
    };
    if cancel {
        control.cancel();
    } else {
        control.stop_after_current();
    }
    Ok(true)
}
