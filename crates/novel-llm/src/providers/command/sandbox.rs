//! Where a command provider's program runs: in an empty temporary folder of its own (not the
//! novel's folder or wherever the app was started), with only the environment a program
//! needs to find itself, its login and the network ([`ALLOWED`]). The rest of the
//! environment — every `*_API_KEY`, token and password the writer's shell holds — stays
//! behind: an agent CLI logs in with its own stored login (`codex login`, `claude login`),
//! kept under `HOME`. The agents' own read-only sandbox flags are in README.md ("A command-line
//! agent").

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use tokio::process::Command;

/// The variables passed on, by exact name; `LC_*` locale variables pass too.
pub(crate) const ALLOWED: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "TERM",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "SYSTEMROOT",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
];

/// Whether the variable `name` is passed on to the program.
pub(crate) fn is_allowed(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    ALLOWED.contains(&name) || name.starts_with("LC_")
}

/// The part of `vars` (the app's environment) the program gets.
pub(crate) fn allowed_env(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
) -> Vec<(OsString, OsString)> {
    vars.into_iter()
        .filter(|(name, _)| is_allowed(name))
        .collect()
}

/// `program` as the app would find it: a relative path with a folder in it (`./agent.sh`) is
/// taken from the app's working folder, since the program itself starts elsewhere.
pub(crate) fn resolve_program(program: &str) -> PathBuf {
    let path = Path::new(program);
    if path.is_relative()
        && path.components().count() > 1
        && let Ok(here) = std::env::current_dir()
    {
        return here.join(path);
    }
    path.to_path_buf()
}

/// Sets `command` to run in `dir` with only the allowed part of `vars`.
pub(crate) fn confine(
    command: &mut Command,
    dir: &Path,
    vars: impl IntoIterator<Item = (OsString, OsString)>,
) {
    command.env_clear().envs(allowed_env(vars)).current_dir(dir);
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_program_gets_no_api_key_and_an_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        let parent: Vec<(OsString, OsString)> = [
            ("PATH", std::env::var("PATH").unwrap_or_default()),
            ("HOME", "/home/writer".to_string()),
            ("LC_ALL", "C.UTF-8".to_string()),
            ("OPENAI_API_KEY", "sk-parent-secret-1".to_string()),
            ("ANTHROPIC_API_KEY", "sk-ant-parent-secret-2".to_string()),
            ("AWS_SECRET_ACCESS_KEY", "aws-parent-secret-3".to_string()),
            ("GITHUB_TOKEN", "ghp_parentsecret4".to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect();
        let mut command = Command::new("sh");
        command.args(["-c", "env; echo cwd=$(pwd); ls -A | wc -l"]);
        confine(&mut command, dir.path(), parent);
        let out = command.output().await.unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        for line in text
            .lines()
            .filter(|l| l.contains('=') && !l.starts_with("cwd="))
        {
            let name = line.split('=').next().unwrap();
            assert!(
                !name.ends_with("_API_KEY") && !name.contains("SECRET") && !name.contains("TOKEN"),
                "{line}"
            );
        }
        assert!(!text.contains("parent-secret") && !text.contains("parentsecret"));
        assert!(text.contains("HOME=/home/writer") && text.contains("LC_ALL=C.UTF-8"));
        let cwd = std::fs::canonicalize(dir.path()).unwrap();
        assert!(text.contains(&format!("cwd={}", cwd.display())), "{text}");
        assert_eq!(
            text.lines().last().map(str::trim),
            Some("0"),
            "an empty folder"
        );
    }

    #[test]
    fn only_listed_names_and_locales_pass() {
        for name in ["PATH", "HOME", "LC_CTYPE", "https_proxy"] {
            assert!(is_allowed(OsStr::new(name)), "{name}");
        }
        for name in [
            "OPENAI_API_KEY",
            "GEMINI_API_KEY",
            "NOVEL_TEST_KEY",
            "DBUS_SESSION_BUS_ADDRESS",
            "SSH_AUTH_SOCK",
            "LD_PRELOAD",
        ] {
            assert!(!is_allowed(OsStr::new(name)), "{name}");
        }
    }
}
