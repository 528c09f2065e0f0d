//! Tauri's build step, with an app manifest: every app command gets an `allow-<command>`
//! permission, and a command is callable only from a window whose capability grants it
//! (`capabilities/default.json` → `permissions/main-window.toml`).

include!("src/commands/allowed.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/commands/allowed.rs");
    println!("cargo:rerun-if-changed=permissions");
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(APP_COMMANDS)),
    )
    .expect("tauri-build failed");
}
