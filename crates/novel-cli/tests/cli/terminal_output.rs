//! What `novel` writes when its output is not a terminal: warnings piped to a file or another
//! program carry no ANSI colour codes.

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
