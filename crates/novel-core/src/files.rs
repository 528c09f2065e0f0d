//! The human-readable files of a novel's ticks: `scenes/scene_NNN.md`, `plans/plan_NNN.json`,
//! and on failure `errors/error_NNN.json` + `.log` (`error_NNN_note_K.*` for a scene asked for
//! at a place from the writer's note, never an existing name). The database is the source of truth; these
//! are its readable mirror. Names come from the tick number only —
//! never from model output — so nothing a model writes can choose a path.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fsutil::write_atomic;
use crate::layout::{ERRORS_DIR, PLANS_DIR, SCENES_DIR};
use crate::model::{ErrorKind, Stage};
use crate::text::{escape_markup, one_line, strip_controls};

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

/// The text of `scenes/scene_NNN.md`: the title, the prose, and the summary. Titles and prose
/// come from a model: no control characters, and no HTML a Markdown viewer would render.
pub fn scene_file_text(title: &str, summary: &[String], prose: &str) -> String {
    let mut text = format!("# {}\n\n", escape_markup(&one_line(title)));
    text.push_str(&escape_markup(&strip_controls(prose.trim())));
    text.push_str("\n\n---\n\n");
    for bullet in summary {
        text.push_str(&format!("- {}\n", escape_markup(&one_line(bullet))));
    }
    text
}

pub fn write_scene(
    root: &Path,
    tick: u32,
    title: &str,
    summary: &[String],
    prose: &str,
) -> std::io::Result<PathBuf> {
    let text = scene_file_text(title, summary, prose);
    let path = scene_path(root, tick);
    crate::fsutil::ensure_dir(&root.join(SCENES_DIR))?;
    write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

pub fn write_json<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        crate::fsutil::ensure_dir(dir)?;
    }
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    write_atomic(path, text.as_bytes())
}

/// Makes the files of the scenes of `ticks` agree with the database after the story moved
/// through its history: a scene that exists gets its scene and plan files rewritten, one that
/// does not (undone, or on another branch) has them removed — the database keeps it.
pub fn mirror_ticks(
    root: &Path,
    conn: &rusqlite::Connection,
    ticks: impl IntoIterator<Item = u32>,
) -> Result<(), MirrorError> {
    let scenes = crate::store::list_scenes(conn)?;
    let records = crate::store::list_ticks(conn)?;
    for tick in ticks {
        match scenes.iter().find(|s| s.tick == tick) {
            Some(scene) => {
                write_scene(root, tick, &scene.title, &scene.summary, &scene.prose)?;
                match records.iter().find(|r| r.tick == tick) {
                    Some(record) => {
                        write_json(&plan_path(root, tick), &plan_file_from_record(record))?
                    }
                    // A scene the writer added has no plan; the file at its number was the
                    // plan of the scene that had the number before.
                    None => remove_if_present(&plan_path(root, tick))?,
                }
            }
            None => {
                for path in [scene_path(root, tick), plan_path(root, tick)] {
                    remove_if_present(&path)?;
                }
            }
        }
    }
    Ok(())
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// A plan file rebuilt from a `ticks` row. The tick's own file also lists what its extraction
/// applied, which the database does not keep; the rebuilt one says so instead.
pub fn plan_file_from_record(record: &crate::model::TickRecord) -> Value {
    serde_json::json!({
        "tick": record.tick,
        "timestamp": record.started_at,
        "plan": record.plan,
        "execution": record.execution,
        "findings": record.findings,
        "revised": record.usage.pointer("/roles/reviser").is_some(),
        "usage": record.usage,
        "notes": record.notes,
        "context_used": record.context_used,
        "rebuilt_from_database": "this file was rebuilt from novel.db, which does not keep the list of what the extraction applied",
    })
}

#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("cannot write the scene files: {0}")]
    Io(#[from] std::io::Error),
}

/// The structured and the readable error record of a failed tick.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorRecord {
    pub tick: u32,
    pub timestamp: String,
    pub error: ErrorInfo,
    /// Named by its label ("updating memory"), as error files always have.
    #[serde(with = "crate::model::stage_label")]
    pub stage: Stage,
    pub plan: Option<Value>,
    pub execution: Option<Value>,
    /// The scene as written before the failure: the model's work is kept even when the tick
    /// is not.
    pub prose: Option<String>,
    /// What the checks found in that prose, when they are why the tick failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<Value>,
    /// What the engine repaired or dropped before the failure.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The prompt sections the tick's requests carried, with tokens against budget.
    pub context_used: Option<Value>,
    pub instructions: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorInfo {
    #[serde(rename = "type")]
    pub kind: ErrorKind,
    pub message: String,
}

pub fn write_error(root: &Path, record: &ErrorRecord) -> std::io::Result<(PathBuf, PathBuf)> {
    let (json_path, log_path) = error_paths(root, record.tick);
    write_error_at(&json_path, &log_path, record)?;
    Ok((json_path, log_path))
}

/// The most error files one place can have (a bound on the search for a free name).
const MAX_NOTE_ERRORS: u32 = 10_000;

/// Writes the error files of a scene asked for at a place from the writer's note:
/// `errors/error_NNN_note_K.json` + `.log`, K the first number no file has. Such a failure
/// never replaces a file: not the next scene's `error_NNN` (whose draft the writer may still
/// keep), not an earlier failure at the same place. The name is claimed by creating the file
/// new, so two writers at once cannot claim the same one.
pub fn write_note_error(root: &Path, record: &ErrorRecord) -> std::io::Result<(PathBuf, PathBuf)> {
    let dir = root.join(ERRORS_DIR);
    crate::fsutil::ensure_dir(&dir)?;
    for n in 1..=MAX_NOTE_ERRORS {
        let stem = format!("error_{:03}_note_{n}", record.tick);
        let json_path = dir.join(format!("{stem}.json"));
        let log_path = dir.join(format!("{stem}.log"));
        // A log left without its record is kept too: the name goes to neither.
        if std::fs::symlink_metadata(&log_path).is_ok() {
            continue;
        }
        match crate::fsutil::create_new_file(&json_path) {
            Ok(_) => {
                write_error_at(&json_path, &log_path, record)?;
                return Ok((json_path, log_path));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!(
        "every error file name for scene {} is taken",
        record.tick
    )))
}

/// Writes `record` to `json_path` and its readable form to `log_path`.
fn write_error_at(json_path: &Path, log_path: &Path, record: &ErrorRecord) -> std::io::Result<()> {
    write_json(json_path, record)?;
    let pretty = |v: &Option<Value>| {
        v.as_ref().map_or("(none)".to_string(), |v| {
            serde_json::to_string_pretty(v).unwrap_or_default()
        })
    };
    let mut log = format!(
        "=== TICK {tick} FAILED ===\n\nTime: {time}\nStage: {stage}\nError type: {kind}\nMessage: {message}\n\nWhat to do next:\n{instructions}\n\nPlan:\n{plan}\n\nPartial execution:\n{execution}\n",
        tick = record.tick,
        time = record.timestamp,
        stage = record.stage.label(),
        kind = record.error.kind.as_str(),
        message = record.error.message,
        instructions = record.instructions,
        plan = pretty(&record.plan),
        execution = pretty(&record.execution),
    );
    if !record.notes.is_empty() {
        log.push_str(&format!("\nNotes:\n- {}\n", record.notes.join("\n- ")));
    }
    if let Some(prose) = &record.prose {
        log.push_str(&format!(
            "\nDraft prose (not committed):\n{}\n",
            strip_controls(prose)
        ));
    }
    write_atomic(log_path, log.as_bytes())
}

#[cfg(test)]
mod error_file_tests {
    use super::*;

    #[test]
    fn an_error_file_names_its_stage_and_kind_as_before_and_an_old_one_reads_typed() {
        let dir = tempfile::tempdir().unwrap();
        let record = ErrorRecord {
            tick: 3,
            timestamp: "2026-01-01T00:00:00Z".into(),
            error: ErrorInfo {
                kind: ErrorKind::ProviderServer,
                message: "boom".into(),
            },
            stage: Stage::Extracting,
            plan: None,
            execution: None,
            prose: None,
            findings: None,
            notes: vec![],
            context_used: None,
            instructions: "try again".into(),
        };
        let (json, log) = write_error(dir.path(), &record).unwrap();
        let written: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        assert_eq!(written["stage"], "updating memory");
        assert_eq!(written["error"]["type"], "llm.server");
        let log = std::fs::read_to_string(log).unwrap();
        assert!(
            log.contains("Stage: updating memory\nError type: llm.server"),
            "{log}"
        );
        // A file written before the stage and kind were typed.
        let old = r#"{"tick": 2, "timestamp": "t", "error": {"type": "plan_invalid", "message": "m"},
            "stage": "running tools", "plan": null, "execution": null, "prose": null,
            "notes": [], "context_used": null, "instructions": "i"}"#;
        let old: ErrorRecord = serde_json::from_str(old).unwrap();
        assert_eq!(old.stage, Stage::Tools);
        assert_eq!(old.error.kind, ErrorKind::PlanInvalid);
    }
}
