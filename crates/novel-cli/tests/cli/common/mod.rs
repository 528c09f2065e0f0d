//! Helpers shared by the CLI tests: run the real `novel` binary in a temporary directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub mod story;

/// The real `novel` binary with keyword search only. Loading the embedding model costs each
/// command seconds (most of a three-scene run's time), and these tests are about what the
/// commands do, not about ranking by meaning; the tests that are, use
/// [`novel_with_semantic_search`]. A runtime library that does not exist turns semantic search
/// off exactly as on a machine without the model.
pub fn novel() -> Command {
    let mut cmd = novel_with_semantic_search();
    cmd.env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1.31.1");
    cmd
}

/// The real `novel` binary finding the embedding model where a user's would.
pub fn novel_with_semantic_search() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_novel"));
    cmd.env(
        "NOVEL_AGENT_CONFIG_DIR",
        std::env::temp_dir().join("novel-agent-cli-tests-no-config"),
    );
    cmd
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A new novel from the fixture seed, in a fresh temp dir; returns (tempdir guard, novel dir).
pub fn new_novel() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("salt");
    novel()
        .arg("new")
        .arg(&dir)
        .arg("--seed")
        .arg(fixture("seed.toml"))
        .assert()
        .success();
    (tmp, dir)
}

pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn stderr_of_failure(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        !out.status.success(),
        "unexpectedly succeeded: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).unwrap()
}
