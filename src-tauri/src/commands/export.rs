//! Export: the manuscript as Markdown, to the file the writer chose in the save dialog. The
//! shell opens that dialog itself and writes only where it pointed: the page cannot name a
//! path, so a script in the web view cannot write anywhere else.

use std::path::PathBuf;
use std::sync::Arc;

use novel_core::export;
use novel_core::novel::Novel;
use tauri::State;

use crate::dialogs::{Dialogs, SaveRequest};
use crate::error::{AppError, AppResult};
use crate::state::{AppState, display};

/// Asks where to save the manuscript of `novel` and writes it there (a `.md` extension is
/// added when missing); `None` when the writer cancelled the dialog.
pub(crate) fn export_to_chosen_file(
    novel: &Novel,
    dialogs: &dyn Dialogs,
) -> AppResult<Option<PathBuf>> {
    let request = SaveRequest {
        title: "Export the manuscript".into(),
        file_name: format!("{}.md", export::slug(&novel.config().novel.title)),
        filter_name: "Markdown".into(),
        extension: "md".into(),
    };
    let Some(mut dest) = dialogs.save_path(&request) else {
        return Ok(None);
    };
    if dest.extension().is_none() {
        dest.set_extension("md");
    }
    Ok(Some(export::write_manuscript(novel, Some(&dest))?))
}

/// Opens the save dialog and writes the manuscript where the writer chose; returns the file
/// written, or `null` when the dialog was cancelled.
#[tauri::command]
#[specta::specta]
pub async fn export_markdown(state: State<'_, AppState>) -> AppResult<Option<String>> {
    let novel = state.session()?.read()?;
    let dialogs: Arc<dyn Dialogs> = state.dialogs();
    let written =
        tauri::async_runtime::spawn_blocking(move || export_to_chosen_file(&novel, &*dialogs))
            .await
            .map_err(|e| AppError::storage(format!("the export thread stopped: {e}")))??;
    Ok(written.as_deref().map(display))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use novel_core::clock::SystemClock;
    use novel_core::library::NewNovelForm;
    use novel_core::novel::Access;

    use super::*;
    use crate::dialogs::Question;

    /// A save dialog that answers `chosen` and remembers what it was asked.
    struct SaveAnswer {
        chosen: Option<PathBuf>,
        asked: Mutex<Vec<SaveRequest>>,
    }

    impl Dialogs for SaveAnswer {
        fn confirm(&self, _question: &Question) -> bool {
            false
        }

        fn save_path(&self, request: &SaveRequest) -> Option<PathBuf> {
            self.asked.lock().unwrap().push(request.clone());
            self.chosen.clone()
        }
    }

    fn novel(dir: &std::path::Path) -> Novel {
        let form = NewNovelForm {
            title: "Salt and Iron".into(),
            premise: "A smuggler hunts the men who framed her brother.".into(),
            language: "English".into(),
            protagonist_name: "Tamsin Vale".into(),
            location_name: "Rainmarket Docks".into(),
            goal: "Clear her brother's name".into(),
            ..NewNovelForm::default()
        };
        let root = dir.join("salt");
        Novel::create(&root, form.to_seed().unwrap(), &SystemClock).unwrap();
        Novel::open(&root, Access::Read).unwrap()
    }

    #[test]
    fn the_manuscript_goes_where_the_dialog_pointed() {
        let dir = tempfile::tempdir().unwrap();
        let novel = novel(dir.path());
        let dialog = SaveAnswer {
            chosen: Some(dir.path().join("chosen")),
            asked: Mutex::new(Vec::new()),
        };
        let written = export_to_chosen_file(&novel, &dialog).unwrap().unwrap();
        assert_eq!(written, dir.path().join("chosen.md"));
        let text = std::fs::read_to_string(&written).unwrap();
        assert!(text.starts_with("# Salt and Iron"), "{text}");
        let asked = dialog.asked.lock().unwrap();
        assert_eq!(asked[0].file_name, "salt-and-iron.md");
    }

    #[test]
    fn a_cancelled_dialog_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let novel = novel(dir.path());
        let dialog = SaveAnswer {
            chosen: None,
            asked: Mutex::new(Vec::new()),
        };
        assert_eq!(export_to_chosen_file(&novel, &dialog).unwrap(), None);
        let exports = novel.dir(novel_core::novel::EXPORTS_DIR);
        let written = std::fs::read_dir(&exports).map_or(0, |d| d.count());
        assert_eq!(written, 0);
    }
}
