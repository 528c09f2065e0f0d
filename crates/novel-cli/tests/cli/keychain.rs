//! API keys in the OS keychain through the real `novel` binary: `providers add
//! --key-in-keychain`, `providers set-key` (key on standard input, never echoed, never in a
//! file), `providers remove` (which deletes the key too), and the advice given when no keychain
//! is reachable. The round trip runs against a
//! real Secret Service: GNOME Keyring in a private D-Bus session (`dbus-run-session`).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::*;
use novel_test_server::{Reply, Rule, Script, TestServer};

const KEY: &str = "sk-keychain-secret-4242";

/// A `novel` whose D-Bus session address points at nothing, so no keychain is reachable.
fn novel_without_keychain(cfg: &Path) -> assert_cmd::Command {
    let mut cmd = novel();
    cmd.env("NOVEL_AGENT_CONFIG_DIR", cfg)
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/novel-test-bus",
        )
        .env_remove("DISPLAY");
    cmd
}

#[test]
fn without_a_keychain_set_key_says_what_to_do_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("cfg");
    novel_without_keychain(&cfg)
        .args(["providers", "add", "--name", "cloud", "--model", "m"])
        .args([
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--api-key-env",
            "CLOUD_KEY",
        ])
        .assert()
        .success();
    let before = std::fs::read_to_string(cfg.join("providers.toml")).unwrap();

    let err = stderr_of_failure(
        novel_without_keychain(&cfg)
            .args(["providers", "set-key", "cloud"])
            .write_stdin(format!("{KEY}\n")),
    );
    assert!(
        err.contains("OS keychain is not available")
            && err.contains("No Secret Service is running")
            && err.contains("`api_key_env`"),
        "{err}"
    );
    assert!(!err.contains(KEY), "{err}");
    let after = std::fs::read_to_string(cfg.join("providers.toml")).unwrap();
    assert_eq!(before, after, "the profile still reads $CLOUD_KEY");
}

#[test]
fn set_key_needs_an_existing_profile_that_takes_a_key() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("cfg");
    let err = stderr_of_failure(
        novel_without_keychain(&cfg)
            .args(["providers", "set-key", "nope"])
            .write_stdin(KEY),
    );
    assert!(
        err.contains("no provider profile named `nope`") && err.contains("--key-in-keychain"),
        "{err}"
    );
    let err = stderr_of_failure(novel_without_keychain(&cfg).args([
        "providers",
        "add",
        "--name",
        "x",
        "--model",
        "m",
        "--api-key-env",
        "K",
        "--key-in-keychain",
    ]));
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn a_keychain_profile_without_a_keychain_fails_the_tick_setup_with_advice() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("cfg");
    let out = stdout_of(
        novel_without_keychain(&cfg)
            .args(["providers", "add", "--name", "cloud", "--model", "m"])
            .args(["--base-url", "http://127.0.0.1:9/v1", "--key-in-keychain"]),
    );
    assert!(out.contains("Saved profile `cloud`"), "{out}");
    let text = std::fs::read_to_string(cfg.join("providers.toml")).unwrap();
    assert!(text.contains("key_source = \"keychain\""), "{text}");
    let list = stdout_of(novel_without_keychain(&cfg).args(["providers", "list"]));
    assert!(list.contains("key in the OS keychain"), "{list}");

    let err = stderr_of_failure(novel_without_keychain(&cfg).args(["providers", "test"]));
    assert!(
        err.contains("No Secret Service is running") && err.contains("`api_key_env`"),
        "{err}"
    );
}

#[test]
fn removing_profiles_without_a_keychain() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("cfg");
    for (name, key) in [("env", "--api-key-env"), ("vault", "--key-in-keychain")] {
        let mut cmd = novel_without_keychain(&cfg);
        cmd.args(["providers", "add", "--name", name, "--model", "m"])
            .args(["--base-url", "http://127.0.0.1:9/v1", key]);
        if key == "--api-key-env" {
            cmd.arg("ENV_KEY");
        }
        cmd.assert().success();
    }
    // A profile whose key is in the environment needs no keychain to go.
    let out = stdout_of(novel_without_keychain(&cfg).args(["providers", "remove", "env"]));
    assert!(
        out.contains("Removed profile `env`") && out.contains("The default profile is `vault`."),
        "{out}"
    );
    // One whose key is in an unreachable keychain stays, so its key is never orphaned, and the
    // error says what to do.
    let err =
        stderr_of_failure(novel_without_keychain(&cfg).args(["providers", "remove", "vault"]));
    assert!(
        err.contains("profile `vault` was kept") && err.contains("environment variable"),
        "{err}"
    );
    let list = stdout_of(novel_without_keychain(&cfg).args(["providers", "list", "--json"]));
    assert!(list.contains("\"vault\""), "{list}");
    let err = stderr_of_failure(novel_without_keychain(&cfg).args(["providers", "remove", "x"]));
    assert!(err.contains("no provider profile named `x`"), "{err}");
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The round trip against GNOME Keyring needs `dbus-run-session` and `gnome-keyring-daemon`
/// (Debian: `dbus-daemon gnome-keyring`). Where they are missing the test says so and passes,
/// unless NOVEL_REQUIRE_SECRET_SERVICE is set (CI images that install them set it).
#[test]
fn set_key_then_test_sends_the_keychain_key_and_never_writes_it() {
    let missing: Vec<&str> = ["dbus-run-session", "gnome-keyring-daemon"]
        .into_iter()
        .filter(|p| !on_path(p))
        .collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("NOVEL_REQUIRE_SECRET_SERVICE").is_none(),
            "missing {missing:?}"
        );
        eprintln!("skipped: no {missing:?} to run a real Secret Service");
        return;
    }
    let server = TestServer::start_blocking(
        Script::new().rule(Rule::any().reply(Reply::text("{\"ok\": true}"))),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let runtime = home.join("run");
    std::fs::create_dir_all(&runtime).unwrap();
    let cfg = tmp.path().join("cfg");
    // Everything runs inside one private session bus: the keyring daemon is started unlocked
    // with a throwaway password (as on a desktop after login), then `novel` uses it.
    let script = r#"
set -eu
printf 'throwaway-login-password' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$NOVEL" providers add --name cloud --base-url "$URL" --model test-model --key-in-keychain
printf '%s\n' "$KEY" | "$NOVEL" providers set-key cloud
"$NOVEL" providers test --profile cloud
"$NOVEL" providers delete-key cloud
if "$NOVEL" providers test --profile cloud 2>"$HOME/after-delete.err"; then exit 3; fi
printf '%s\n' "$KEY" | "$NOVEL" providers set-key cloud
"$NOVEL" providers remove cloud
"$NOVEL" providers delete-key cloud
"#;
    let out = Command::new("dbus-run-session")
        .args(["--", "sh", "-c", script])
        .env("NOVEL", env!("CARGO_BIN_EXE_novel"))
        .env("URL", server.base_url())
        .env("KEY", KEY)
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("NOVEL_AGENT_CONFIG_DIR", &cfg)
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("DISPLAY")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    assert!(
        stdout.contains("Stored the API key of profile `cloud` in the OS keychain")
            && stdout.contains("OK: cloud")
            && stdout.contains("Removed the API key of profile `cloud`"),
        "{stdout}"
    );
    // `providers remove` took the key stored again with it: nothing was left to delete.
    assert!(
        stdout.contains("Removed profile `cloud`")
            && stdout.contains("Its API key was deleted from the OS keychain.")
            && stdout.ends_with("The OS keychain held no API key for profile `cloud`.\n"),
        "{stdout}"
    );

    let auth: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.header("authorization").unwrap_or_default().to_string())
        .collect();
    // The test checks json_schema, json_object and temperature, then sends its probe: every
    // call with the stored key.
    assert_eq!(
        auth,
        vec![format!("Bearer {KEY}"); 4],
        "the test's calls, each with the stored key"
    );
    let after_delete = std::fs::read_to_string(home.join("after-delete.err")).unwrap();
    assert!(
        after_delete.contains("novel providers set-key cloud"),
        "{after_delete}"
    );

    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "the key was echoed"
    );
    for entry in std::fs::read_dir(&cfg).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !text.contains(KEY),
            "the key reached the config dir: {text}"
        );
    }
}
