//! App-wide typed events: things every view may need to refresh after, whoever caused them.

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri_specta::Event;

/// The open novel changed on disk: a tick committed, a scene was edited, a failure skipped,
/// settings saved, the story bible edited, the story rewound, a branch made, switched, renamed
/// or deleted, a version restored, or another novel was opened or closed.
#[derive(Debug, Clone, Serialize, Deserialize, Type, Event)]
pub struct NovelChanged {
    /// The novel's folder, or `None` when no novel is open any more.
    pub path: Option<String>,
    pub reason: ChangeReason,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum ChangeReason {
    Opened,
    Closed,
    TickCommitted,
    TickFailed,
    SceneEdited,
    FailureSkipped,
    SettingsSaved,
    Rewound,
    BranchChanged,
    VersionRestored,
    /// The writer changed the story bible (a record, lore, the foundation, outline or pressure).
    BibleEdited,
}
