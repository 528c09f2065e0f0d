// The app commands the main window may call. build.rs includes this file (so it holds plain
// items, without a module doc) to generate one `allow-<command>` permission per command;
// `permissions/main-window.toml` grants them to the main window, and a test checks that this
// list, that set and the commands in the bindings are the same.

/// Every app command, by name.
pub const APP_COMMANDS: &[&str] = &[
    "recent_novels",
    "forget_recent_novel",
    "open_novel",
    "create_novel",
    "close_novel",
    "current_novel",
    "run_ticks",
    "stop_run",
    "regenerate_scene",
    "plan_decision",
    "review_decision",
    "manuscript",
    "save_scene",
    "scene_versions",
    "version_diff",
    "restore_version",
    "rewind_to",
    "branches",
    "new_branch",
    "switch_branch",
    "rename_branch",
    "delete_branch",
    "compare_branches",
    "story_graph",
    "entity_detail",
    "timeline",
    "skip_failed_tick",
    "loops_board",
    "list_providers",
    "save_provider",
    "delete_provider",
    "set_default_provider",
    "test_provider",
    "store_provider_key",
    "save_generation_settings",
    "export_markdown",
];
