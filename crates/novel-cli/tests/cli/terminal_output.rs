//! What `novel` writes when its output is not a terminal: warnings piped to a file or another
//! program carry no ANSI colour codes; file names holding terminal escapes are printed
//! without them.

use crate::common;

use common::novel;
use novel_test_server::{Reply, Rule, Script, TestServer};

#[test]
fn warnings_written_to_a_pipe_carry_no_colour_codes() {
    // One server error makes the provider layer warn that it retries.
    let server = TestServer::start_blocking(Script::new().rule(Rule::any().replies([
        Reply::from(Reply::status(500)),
        Reply::from(Reply::text("{\"ok\": true}")),
    ])))
    .unwrap();
    let cfg = tempfile::tempdir().unwrap();
    std::fs::write(
        cfg.path().join("providers.toml"),
        format!(
            "default_profile = \"local\"\n\n[[profile]]\nname = \"local\"\nkind = \
             \"openai-compatible\"\nbase_url = \"{}\"\nmodel = \"test-model\"\n\
             retry_base_delay_ms = 5\n",
            server.base_url()
        ),
    )
    .unwrap();
    let out = novel()
        .env("NOVEL_AGENT_CONFIG_DIR", cfg.path())
        .env_remove("NO_COLOR")
        .env_remove("NOVEL_LOG")
        .args(["providers", "test"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("WARN") && stderr.contains("retrying LLM request"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "colour codes in a pipe: {stderr:?}"
    );
    // The refused request, its retry, then the connection test's three capability checks.
    assert_eq!(server.request_count(), 5);
}

#[test]
fn backup_names_holding_terminal_escapes_are_printed_without_them() {
    let (_tmp, dir) = common::new_novel();
    common::stdout_of(novel().arg("-C").arg(&dir).arg("backup"));
    let backups = dir.join("backups");
    let taken = std::fs::read_dir(&backups)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    // A backup whose reason retitles the terminal and clears the screen.
    let hostile = backups.join("novel-tick-0000-20270101T000000Z-\u{1b}]0;pwned\u{7}\u{1b}[2J.db");
    std::fs::copy(&taken, &hostile).unwrap();

    let listed = common::stdout_of(novel().arg("-C").arg(&dir).args(["backup", "--list"]));
    assert!(
        listed.contains("20270101T000000Z"),
        "the hostile backup is listed: {listed:?}"
    );
    assert!(
        !listed.contains('\u{1b}') && !listed.contains('\u{7}'),
        "{listed:?}"
    );

    let restored = common::stdout_of(novel().arg("-C").arg(&dir).arg("restore").arg(&hostile));
    assert!(restored.contains("Restored tick"), "{restored:?}");
    assert!(
        !restored.contains('\u{1b}') && !restored.contains('\u{7}'),
        "{restored:?}"
    );
}

/// `novel … | head -1`: the reader stops early and `novel` stops quietly, with no panic and
/// nothing on stderr, and the exit status a shell gives a program SIGPIPE stopped (or 0 when
/// everything fit in the pipe before it closed).
#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;

    let (_tmp, dir) = common::new_novel();
    // A long record: its history grows with every edit, far past a pipe's 64 KiB buffer.
    let long = "x".repeat(2000);
    for i in 0..60 {
        let set = format!("emotional_state=mood {i} {long}");
        common::stdout_of(
            novel()
                .arg("-C")
                .arg(&dir)
                .args(["edit", "C0", "--set", &set]),
        );
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_novel"))
        .arg("-C")
        .arg(&dir)
        .args(["--json", "inspect", "C0"])
        .env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1.31.1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe as `head -1` does.
    let mut first = [0u8; 2];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert!(
        matches!(out.status.code(), Some(0 | 141)),
        "exit status {:?}",
        out.status
    );
}
