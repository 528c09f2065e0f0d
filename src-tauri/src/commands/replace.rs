//! Replace a name across the manuscript: a preview (how many places in which scenes, and the
//! character or place that bears the old name) and the replace itself, one recorded change the
//! writer can undo by rewinding. The engine's `rename` does the work; this maps its errors.

use novel_core::Novel;
use novel_core::clock::SystemClock;
use novel_core::rename::{self, RenameError, ReplaceReport};
use serde::Serialize;
use specta::Type;
use tauri::{AppHandle, State};

use super::open_novel::edit_open_novel;
use crate::error::{AppError, AppResult};
use crate::events::ChangeReason;
use crate::state::AppState;

/// What replacing a name would change, and who bears the old name.
#[derive(Debug, Clone, Serialize, Type)]
pub struct ReplacePreview {
    pub report: ReplaceReport,
    /// The character (else the place) the replace can rename, keeping the old name as an
    /// alias; `None` when no record bears the old name.
    pub bearer: Option<String>,
}

impl From<RenameError> for AppError {
    fn from(e: RenameError) -> Self {
        match e {
            RenameError::Invalid(message) => AppError::InvalidInput { message },
            RenameError::NotFound(_) => AppError::NotFound {
                message: e.to_string(),
            },
            RenameError::Novel(e) => e.into(),
            RenameError::Store(e) => e.into(),
            RenameError::Memory(e) => AppError::storage(e),
            RenameError::Io { .. } => AppError::storage(e),
        }
    }
}

/// The preview of replacing `old` with `new` in `novel`; changes nothing.
pub(crate) fn preview_in(novel: &Novel, old: &str, new: &str) -> AppResult<ReplacePreview> {
    Ok(ReplacePreview {
        report: rename::preview(novel, old, new)?,
        bearer: rename::name_bearer(novel.store().conn(), old)?,
    })
}

/// How many places in which scenes replacing `from` with `to` would change, and the record
/// that bears `from`. Changes nothing.
#[tauri::command]
#[specta::specta]
pub async fn preview_replace_name(
    state: State<'_, AppState>,
    from: String,
    to: String,
) -> AppResult<ReplacePreview> {
    let novel = state.session()?.read()?;
    preview_in(&novel, &from, &to)
}

/// Replaces every whole-word `from` with `to` across the manuscript (prose, titles,
/// summaries) as one recorded change; with `alias`, the character or place named `from` takes
/// the new name and keeps the old one as an alias.
#[tauri::command]
#[specta::specta]
pub async fn replace_name(
    app: AppHandle,
    state: State<'_, AppState>,
    from: String,
    to: String,
    alias: bool,
) -> AppResult<ReplaceReport> {
    edit_open_novel(&app, &state, ChangeReason::SceneEdited, |novel| {
        rename::replace_in_book(novel, &from, &to, alias, &SystemClock)
    })
}

#[cfg(test)]
mod tests {
    use novel_core::Access;

    use super::*;

    fn novel(dir: &std::path::Path) -> Novel {
        super::super::test_novel::salt(dir, Access::Write)
    }

    #[test]
    fn the_preview_names_the_bearer_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut novel = novel(dir.path());
        let preview = preview_in(&novel, "Tamsin", "Tess").unwrap();
        assert_eq!(preview.bearer.as_deref(), Some("Tamsin Vale"));
        assert_eq!(
            preview.report.occurrences, 0,
            "a new novel has no prose yet"
        );
        assert_eq!(
            preview_in(&novel, "Zeppelin", "Airship").unwrap().bearer,
            None
        );
        // The alias alone is a change worth making: the record takes the new name.
        let report =
            rename::replace_in_book(&mut novel, "Tamsin", "Tess", true, &SystemClock).unwrap();
        assert!(report.renamed_record.is_some());
        assert_eq!(
            preview_in(&novel, "Tess", "Tamsin")
                .unwrap()
                .bearer
                .as_deref(),
            Some("Tess Vale")
        );
    }

    #[test]
    fn bad_names_are_typed_errors_the_writer_can_act_on() {
        let dir = tempfile::tempdir().unwrap();
        let mut novel = novel(dir.path());
        let same = preview_in(&novel, "Tamsin", "Tamsin").unwrap_err();
        assert!(matches!(same, AppError::InvalidInput { .. }), "{same:?}");
        let absent: AppError =
            rename::replace_in_book(&mut novel, "Zeppelin", "Airship", false, &SystemClock)
                .unwrap_err()
                .into();
        assert!(
            matches!(&absent, AppError::NotFound { message } if message.contains("Zeppelin")),
            "{absent:?}"
        );
    }
}
