//! The `novel-agent` desktop binary: starts the Tauri app defined in the library.

// No console window next to the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    novel_agent_desktop::run();
}
