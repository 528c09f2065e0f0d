//! Novel Agent's desktop shell: typed Tauri commands and events over `novel-core`, nothing
//! more. Commands live in [`commands`], their one error type in [`error`], the open novel and
//! the running tick in [`state`], review mode's reviewer in [`review`], the dialogs the shell opens itself in [`dialogs`], the log
//! file in [`logging`]. The TypeScript bindings the UI calls are generated from
//! [`specta_builder`] (written to `ui/src/bindings.ts` at debug start-up and checked by a
//! test), with the labels and hints Rust owns ([`catalog`]) as constants.

pub mod catalog;
pub mod commands;
pub mod dialogs;
pub mod error;
pub mod events;
pub mod logging;
pub mod rendering;
pub mod review;
pub mod state;

use std::sync::Arc;

use specta_typescript::Typescript;
use tauri::Manager;
use tauri_specta::{Builder, Commands, collect_commands, collect_events};

/// Where the generated bindings live, relative to this crate.
pub const BINDINGS_PATH: &str = "../ui/src/bindings.ts";

/// Every command and event the UI may use, in one place.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        .commands(app_commands())
        .events(collect_events![events::NovelChanged])
        .constant("TICK_STAGES", catalog::tick_stages())
        .constant("PROVIDER_KINDS", catalog::provider_kinds())
        .constant("FAILURE_HINTS", catalog::failure_hints())
        .constant("CHECK_HEADINGS", catalog::check_headings())
        .constant("LOOP_STALE_AFTER", novel_core::views::STALE_AFTER_SCENES)
}

/// The commands, one a line (`commands::allowed::APP_COMMANDS` names the same set for the
/// window's permissions; a test keeps the two equal).
fn app_commands() -> Commands<tauri::Wry> {
    collect_commands![
        commands::library::recent_novels,
        commands::library::forget_recent_novel,
        commands::library::open_novel,
        commands::library::create_novel,
        commands::library::close_novel,
        commands::library::current_novel,
        commands::write::run_ticks,
        commands::write::stop_run,
        commands::write::regenerate_scene,
        commands::write::keep_failed_draft,
        commands::write::plan_decision,
        commands::write::review_decision,
        commands::reader::manuscript,
        commands::reader::save_scene,
        commands::reader::check_scene,
        commands::history::scene_versions,
        commands::history::version_diff,
        commands::history::restore_version,
        commands::history::rewind_to,
        commands::history::branches,
        commands::history::new_branch,
        commands::history::switch_branch,
        commands::history::rename_branch,
        commands::history::delete_branch,
        commands::history::compare_branches,
        commands::audit::audit_book,
        commands::graph::story_graph,
        commands::graph::entity_detail,
        commands::graph::codex_entry,
        commands::graph::codex_names,
        commands::timeline::timeline,
        commands::timeline::skip_failed_tick,
        commands::timeline::loops_board,
        commands::providers::list_providers,
        commands::providers::save_provider,
        commands::providers::delete_provider,
        commands::providers::set_default_provider,
        commands::providers::test_provider,
        commands::providers::store_provider_key,
        commands::provider_discovery::detect_providers,
        commands::provider_discovery::provider_models,
        commands::settings::save_generation_settings,
        commands::export::export_manuscript,
        commands::search::search_book,
        commands::reader::book_contents,
        commands::chapters::change_chapter,
        commands::shape::shape_book,
        commands::shape::undo_change,
        commands::shape::write_scene_at,
        commands::settings::role_profiles,
        commands::settings::save_role_profiles,
        commands::settings::novel_budget,
        commands::settings::save_budget,
        commands::bible::story_bible,
        commands::bible::story_charts,
        commands::synopsis::story_synopsis,
        commands::bible::preview_next_prompt,
        commands::bible::edit_record,
        commands::bible::add_record,
        commands::bible::act_on_loop,
        commands::bible::edit_loop,
        commands::bible::edit_lore,
        commands::bible::delete_lore,
        commands::bible::change_connection,
        commands::bible::edit_foundation,
        commands::bible::set_author_note,
        commands::bible::change_outline,
        commands::bible::change_pressure,
        commands::bible::propose_scene_memory,
        commands::bible::accept_scene_memory,
        commands::replace::preview_replace_name,
        commands::replace::replace_name,
        commands::import::preview_import,
        commands::import::import_manuscript,
        commands::import::resume_import,
        commands::import::import_status,
    ]
}

/// How the bindings are written.
pub fn typescript() -> Typescript {
    Typescript::default()
        .header("// Generated by tauri-specta from src-tauri (`specta_builder`). Do not edit.\n")
}

pub fn run() {
    rendering::prepare_process();
    let builder = specta_builder();
    #[cfg(debug_assertions)]
    if let Err(e) = builder.export(typescript(), BINDINGS_PATH) {
        eprintln!("could not write {BINDINGS_PATH}: {e}");
    }
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            start_logging(app.path().app_log_dir().ok());
            // An installed package ships the embedding model and ONNX Runtime among its
            // resources (src-tauri/tauri.bundle.conf.json); a build run in place finds them in
            // the checkout instead.
            if let Ok(resources) = app.path().resource_dir() {
                novel_embed::locate::use_bundled_models(resources.join("models"));
            }
            if let Some(window) = app.get_webview_window("main") {
                rendering::configure(&window);
            }
            builder.mount_events(app);
            let config_dir = state::config_dir(app.path().app_config_dir().ok());
            let dialogs = Arc::new(dialogs::NativeDialogs::new(app.handle().clone()));
            app.manage(state::AppState::new(config_dir, dialogs));
            app.manage(commands::import::PendingImport::default());
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(e) = result {
        tracing::error!("Novel Agent could not start: {e}");
        eprintln!("Novel Agent could not start: {e}");
        std::process::exit(1);
    }
}

/// The log file in the app's log directory; without one the app still runs, and says so.
fn start_logging(dir: Option<std::path::PathBuf>) {
    let Some(dir) = dir else {
        eprintln!("Novel Agent has no log directory; warnings are not kept.");
        return;
    };
    if let Err(e) = logging::init(&dir) {
        eprintln!("Novel Agent keeps no log file: {e}");
    }
}
