//! The main window may call exactly the app's commands and no more: the commands in the
//! bindings and the list build.rs turns into permissions (`src/commands/allowed.rs`) must be the
//! same, the `main-window` permission set build.rs writes from that list must name them all and
//! nothing else, the window's capability must grant that set, and the web side gets no save
//! dialog (the shell opens it, see `commands::export`).

use std::collections::BTreeSet;
use std::path::Path;

use novel_agent_desktop::commands::allowed::APP_COMMANDS;

fn crate_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The command names the generated bindings invoke.
fn commands_in_bindings() -> BTreeSet<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bindings.ts");
    novel_agent_desktop::specta_builder()
        .export(novel_agent_desktop::typescript(), &file)
        .unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    text.split("TAURI_INVOKE(\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn the_permission_set_names_every_command_and_nothing_else() {
    let bindings = commands_in_bindings();
    let allowed: BTreeSet<String> = APP_COMMANDS.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        bindings, allowed,
        "src/commands/allowed.rs and the bindings"
    );

    let set: toml::Table = toml::from_str(&crate_file("permissions/main-window.toml")).unwrap();
    let set = &set["set"].as_array().unwrap()[0];
    assert_eq!(set["identifier"].as_str(), Some("main-window"));
    let granted: BTreeSet<String> = set["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = p.as_str().unwrap();
            p.strip_prefix("allow-")
                .unwrap_or_else(|| panic!("{p} is not an allow- permission"))
                .replace('-', "_")
        })
        .collect();
    assert_eq!(
        granted, allowed,
        "permissions/main-window.toml, as build.rs wrote it"
    );
}

#[test]
fn the_main_window_gets_the_set_and_no_save_dialog() {
    let capability: serde_json::Value =
        serde_json::from_str(&crate_file("capabilities/default.json")).unwrap();
    assert_eq!(capability["windows"], serde_json::json!(["main"]));
    let permissions: Vec<&str> = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    assert!(permissions.contains(&"main-window"), "{permissions:?}");
    for refused in [
        "dialog:allow-save",
        "dialog:default",
        "dialog:allow-message",
    ] {
        assert!(
            !permissions.contains(&refused),
            "{refused} in {permissions:?}"
        );
    }
    assert!(
        !permissions
            .iter()
            .any(|p| p.starts_with("fs:") || p.starts_with("shell:")),
        "{permissions:?}"
    );
}
