//! Memory from the command line, through the real binary: `novel context --next` shows the next
//! prompt section by section, `novel reindex` rebuilds passages, summaries and embeddings, and
//! without the embedding model both still work on keywords and say so, once.

use crate::common;

use std::path::PathBuf;

use common::*;

/// A generated 30-scene novel (written by the engine, no LLM needed).
fn generated() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("salt");
    drop(novel_core::synthetic::generate(&dir, 30, &[]).unwrap());
    (tmp, dir)
}

/// The runtime library pointed at a file that does not exist: semantic search must be off.
fn without_model(cmd: &mut assert_cmd::Command) -> &mut assert_cmd::Command {
    cmd.env("ORT_DYLIB_PATH", "/nonexistent/libonnxruntime.so.1.31.1")
}

#[test]
fn context_next_shows_every_section_against_its_budget() {
    let (_tmp, dir) = generated();
    let table = stdout_of(novel().arg("-C").arg(&dir).args(["context", "--next"]));
    assert!(table.contains("the planner's, for tick 31"), "{table}");
    for section in [
        "summary",
        "recent",
        "recalled",
        "mentioned",
        "lore",
        "loops",
    ] {
        assert!(
            table.lines().any(|l| l.starts_with(section)),
            "{section} missing:\n{table}"
        );
    }
    assert!(table.contains("prompt: "), "{table}");

    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        novel()
            .arg("-C")
            .arg(&dir)
            .args(["--json", "context", "--next"]),
    ))
    .unwrap();
    assert_eq!(json["tick"], 31);
    let sections = json["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 18);
    for s in sections {
        assert!(s["tokens"].as_u64() <= s["budget"].as_u64(), "{s}");
    }
    let recalled = sections.iter().find(|s| s["name"] == "recalled").unwrap();
    assert!(recalled["tokens"].as_u64().unwrap() > 0, "{recalled}");
    assert!(json.get("user").is_none(), "the prompt only with --show");

    let shown = stdout_of(
        novel()
            .arg("-C")
            .arg(&dir)
            .args(["context", "--next", "--show"]),
    );
    assert!(shown.contains("=== system ===") && shown.contains("## Recalled from earlier scenes"));
    // --next is what the command is about; leaving it out is a usage error.
    stderr_of_failure(novel().arg("-C").arg(&dir).arg("context"));
}

#[test]
fn without_the_model_search_uses_keywords_and_says_so_once() {
    let (_tmp, dir) = generated();
    let out = without_model(novel().arg("-C").arg(&dir).args(["context", "--next"]))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.matches("Semantic search is off").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("/nonexistent/libonnxruntime.so.1.31.1")
            && stderr.contains("scripts/fetch-embedding-model.sh"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("semantic search off: keywords only"),
        "{stdout}"
    );

    let reindex = stdout_of(without_model(novel().arg("-C").arg(&dir).arg("reindex")));
    assert!(
        reindex.contains("Indexed ") && reindex.contains(" passages"),
        "{reindex}"
    );
    assert!(
        reindex.contains("Semantic search is off: keyword search only."),
        "{reindex}"
    );
}

#[test]
fn with_the_model_reindex_embeds_every_passage() {
    if novel_embed::local_or_required().is_none() {
        return;
    }
    let (_tmp, dir) = generated();
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        novel_with_semantic_search()
            .arg("-C")
            .arg(&dir)
            .args(["--json", "reindex"]),
    ))
    .unwrap();
    assert_eq!(json["model"], novel_embed::MINILM_ID);
    assert_eq!(json["dimension"], 384);
    assert!(json["chunks"].as_u64().unwrap() > 200);
    assert_eq!(json["embedded"], json["chunks"]);
    assert!(json["notice"].is_null());
}
