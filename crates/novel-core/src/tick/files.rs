//! The human-readable files of a tick: `scenes/scene_NNN.md`, `plans/plan_NNN.json`, and on
//! failure `errors/error_NNN.json` + `.log` (seed 001). Names come from the tick number only —
//! never from model output — so nothing a model writes can choose a path.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::export::one_line;
use crate::fsutil::write_atomic;
use crate::novel::{ERRORS_DIR, PLANS_DIR, SCENES_DIR};

pub fn scene_path(root: &Path, tick: u32) -> PathBuf {
    root.join(SCENES_DIR).join(format!("scene_{tick:03}.md"))
}

pub fn plan_path(root: &Path, tick: u32) -> PathBuf {
    root.join(PLANS_DIR).join(format!("plan_{tick:03}.json"))
}

pub fn error_paths(root: &Path, tick: u32) -> (PathBuf, PathBuf) {
    let dir = root.join(ERRORS_DIR);
    (
        dir.join(format!("error_{tick:03}.json")),
        dir.join(format!("error_{tick:03}.log")),
    )
}

pub fn write_scene(
    root: &Path,
    tick: u32,
    title: &str,
    summary: &[String],
    prose: &str,
) -> std::io::Result<PathBuf> {
    let mut text = format!("# {}\n\n", one_line(title));
    text.push_str(prose.trim());
    text.push_str("\n\n---\n\n");
    for bullet in summary {
        text.push_str(&format!("- {}\n", one_line(bullet)));
    }
    let path = scene_path(root, tick);
    std::fs::create_dir_all(root.join(SCENES_DIR))?;
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

pub fn write_json<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    write_atomic(path, text.as_bytes())
}

/// The structured and the readable error record of a failed tick.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorRecord {
    pub tick: u32,
    pub timestamp: String,
    pub error: ErrorInfo,
    pub stage: String,
    pub plan: Option<Value>,
    pub execution: Option<Value>,
    pub instructions: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ErrorInfo {
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
}

pub fn write_error(root: &Path, record: &ErrorRecord) -> std::io::Result<(PathBuf, PathBuf)> {
    let (json_path, log_path) = error_paths(root, record.tick);
    write_json(&json_path, record)?;
    let pretty = |v: &Option<Value>| {
        v.as_ref().map_or("(none)".to_string(), |v| {
            serde_json::to_string_pretty(v).unwrap_or_default()
        })
    };
    let log = format!(
        "=== TICK {tick} FAILED ===\n\nTime: {time}\nStage: {stage}\nError type: {kind}\nMessage: {message}\n\nWhat to do next:\n{instructions}\n\nPlan:\n{plan}\n\nPartial execution:\n{execution}\n",
        tick = record.tick,
        time = record.timestamp,
        stage = record.stage,
        kind = record.error.kind,
        message = record.error.message,
        instructions = record.instructions,
        plan = pretty(&record.plan),
        execution = pretty(&record.execution),
    );
    write_atomic(&log_path, log.as_bytes())?;
    Ok((json_path, log_path))
}
