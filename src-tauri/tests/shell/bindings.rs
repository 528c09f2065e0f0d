//! The committed `ui/src/bindings.ts` must be exactly what the commands generate: a stale file
//! would let the UI call commands with the wrong shapes. `UPDATE_BINDINGS=1 cargo test -p
//! novel-agent-desktop --test shell bindings::` rewrites it.

use std::path::Path;

#[test]
fn committed_bindings_match_the_commands() {
    let committed_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(novel_agent_desktop::BINDINGS_PATH);
    let dir = tempfile::tempdir().unwrap();
    let fresh_path = dir.path().join("bindings.ts");
    novel_agent_desktop::specta_builder()
        .export(novel_agent_desktop::typescript(), &fresh_path)
        .expect("the bindings export");
    let fresh = std::fs::read_to_string(&fresh_path).unwrap();
    assert!(fresh.contains("runTicks"), "the export names the commands");
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&committed_path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run `UPDATE_BINDINGS=1 cargo test -p novel-agent-desktop --test shell bindings::` and commit it",
        committed_path.display()
    );
}
