//! Every example in `novel help` runs as written: the help's own example once refused its
//! `--append`. An example is a help line's backticked command after `Example: `; each runs
//! through the shell (quotes as a user types them) in one prepared novel, with `novel` on the
//! PATH being the binary under test.

use std::path::Path;
use std::process::Command;

use crate::common;

/// The subcommand paths of `novel help <path…>`'s "Commands:" list, depth first.
fn subcommands(path: &[String], out: &mut Vec<Vec<String>>) {
    let help = common::stdout_of(common::novel().arg("help").args(path));
    let Some(list) = help.split("Commands:\n").nth(1) else {
        return;
    };
    for line in list.lines().take_while(|l| l.starts_with("  ")) {
        let Some(name) = line.split_whitespace().next() else {
            continue;
        };
        if name == "help" {
            continue;
        }
        let mut sub = path.to_vec();
        sub.push(name.to_string());
        out.push(sub.clone());
        subcommands(&sub, out);
    }
}

/// The examples of one help text.
fn examples(help: &str) -> Vec<String> {
    help.lines()
        .filter_map(|l| l.trim().strip_prefix("Example: `"))
        .filter_map(|l| l.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

fn run_in(dir: &Path, example: &str) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_novel")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(example)
        .current_dir(dir)
        .env("PATH", path)
        .env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1.31.1")
        .env(
            "NOVEL_AGENT_CONFIG_DIR",
            std::env::temp_dir().join("novel-agent-cli-tests-no-config"),
        )
        .output()
        .unwrap()
}

#[test]
fn every_example_in_the_help_runs_as_written() {
    let (_tmp, dir) = common::new_novel();
    // The examples name C3: the seed has C0, three more make it.
    for name in ["Ada", "Bo", "Cy"] {
        let set = format!("name={name}");
        common::stdout_of(common::novel().arg("-C").arg(&dir).args([
            "add",
            "character",
            "--set",
            &set,
        ]));
    }
    let mut paths = vec![Vec::new()];
    subcommands(&[], &mut paths);
    assert!(paths.len() > 30, "found only {} subcommands", paths.len());
    let mut ran = Vec::new();
    for path in &paths {
        let help = common::stdout_of(common::novel().arg("help").args(path));
        for example in examples(&help) {
            assert!(
                example.starts_with("novel "),
                "not a novel command: {example}"
            );
            let out = run_in(&dir, &example);
            assert!(
                out.status.success(),
                "`{example}` (in `novel help {}`) failed: {}",
                path.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
            ran.push(example);
        }
    }
    assert!(ran.len() >= 2, "examples found: {ran:?}");
    // The edit example's `--append inventory='"map"'` added one item to the list.
    let inspected = common::stdout_of(
        common::novel()
            .arg("-C")
            .arg(&dir)
            .args(["--json", "inspect", "C3"]),
    );
    let record: serde_json::Value = serde_json::from_str(&inspected).unwrap();
    assert_eq!(record["record"]["inventory"], serde_json::json!(["map"]));
    assert_eq!(record["record"]["emotional_state"], "wary");
}

#[test]
fn append_takes_one_item_a_list_or_a_field_twice() {
    let (_tmp, dir) = common::new_novel();
    common::stdout_of(common::novel().arg("-C").arg(&dir).args([
        "edit",
        "C0",
        "--append",
        "inventory=rope",
        "--append",
        r#"inventory=["lamp","rope"]"#,
    ]));
    let inspected = common::stdout_of(
        common::novel()
            .arg("-C")
            .arg(&dir)
            .args(["--json", "inspect", "C0"]),
    );
    let record: serde_json::Value = serde_json::from_str(&inspected).unwrap();
    assert_eq!(
        record["record"]["inventory"],
        serde_json::json!(["rusted dagger", "rope", "lamp"])
    );
}
