//! Export: the manuscript as Markdown, EPUB or DOCX, to the file the writer chose in the save
//! dialog. The shell opens that dialog itself and writes only where it pointed: the page cannot
//! name a path, so a script in the web view cannot write anywhere else.

use std::path::PathBuf;
use std::sync::Arc;

use novel_core::Novel;
use novel_core::clock::SystemClock;
use novel_core::export::{self, ExportFormat, ExportOptions};
use tauri::State;

use crate::dialogs::{Dialogs, SaveRequest};
use crate::error::{AppError, AppResult};
use crate::state::{AppState, display};

/// Asks where to save the manuscript of `novel` in `format` and writes it there (the format's
/// extension is added when missing); `None` when the writer cancelled the dialog.
pub(crate) fn export_to_chosen_file(
    novel: &Novel,
    format: ExportFormat,
    dialogs: &dyn Dialogs,
) -> AppResult<Option<PathBuf>> {
    let request = SaveRequest {
        title: format!("Export the manuscript as {}", format.label()),
        file_name: export::file_name(novel, format),
        filter_name: format.label().into(),
        extension: format.extension().into(),
    };
    let Some(mut dest) = dialogs.save_path(&request) else {
        return Ok(None);
    };
    if dest.extension().is_none() {
        dest.set_extension(format.extension());
    }
    let written = export::write_export(
        novel,
        format,
        Some(&dest),
        &ExportOptions::default(),
        &SystemClock,
    )?;
    Ok(Some(written))
}

/// Opens the save dialog for `format` and writes the manuscript where the writer chose;
/// returns the file written, or `null` when the dialog was cancelled.
#[tauri::command]
#[specta::specta]
pub async fn export_manuscript(
    state: State<'_, AppState>,
    format: ExportFormat,
) -> AppResult<Option<String>> {
    let novel = state.session()?.read()?;
    let dialogs: Arc<dyn Dialogs> = state.dialogs();
    let written = tauri::async_runtime::spawn_blocking(move || {
        export_to_chosen_file(&novel, format, &*dialogs)
    })
    .await
    .map_err(|e| AppError::storage(format!("the export thread stopped: {e}")))??;
    Ok(written.as_deref().map(display))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use novel_core::Access;

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

        fn open_path(&self, _request: &crate::dialogs::OpenRequest) -> Option<PathBuf> {
            None
        }
    }

    fn novel(dir: &std::path::Path) -> Novel {
        super::super::test_novel::salt(dir, Access::Read)
    }

    fn answering(chosen: Option<PathBuf>) -> SaveAnswer {
        SaveAnswer {
            chosen,
            asked: Mutex::new(Vec::new()),
        }
    }

    /// The names of the files in a zip archive and the text of `entry`.
    fn archive(path: &std::path::Path, entry: &str) -> (Vec<String>, String) {
        let file = std::fs::File::open(path).unwrap();
        let mut zip = zip::ZipArchive::new(file).expect("a zip archive");
        let names = zip.file_names().map(String::from).collect();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(entry).unwrap(), &mut text).unwrap();
        (names, text)
    }

    #[test]
    fn the_manuscript_goes_where_the_dialog_pointed() {
        let dir = tempfile::tempdir().unwrap();
        let novel = novel(dir.path());
        let dialog = answering(Some(dir.path().join("chosen")));
        let written = export_to_chosen_file(&novel, ExportFormat::Markdown, &dialog)
            .unwrap()
            .unwrap();
        assert_eq!(written, dir.path().join("chosen.md"));
        let text = std::fs::read_to_string(&written).unwrap();
        assert!(text.starts_with("# Salt and Iron"), "{text}");
        let asked = dialog.asked.lock().unwrap();
        assert_eq!(asked[0].file_name, "salt-and-iron.md");
        assert_eq!(asked[0].extension, "md");
    }

    #[test]
    fn an_epub_export_is_an_epub_where_the_dialog_pointed() {
        let dir = tempfile::tempdir().unwrap();
        let novel = novel(dir.path());
        let dialog = answering(Some(dir.path().join("book")));
        let written = export_to_chosen_file(&novel, ExportFormat::Epub, &dialog)
            .unwrap()
            .unwrap();
        assert_eq!(written, dir.path().join("book.epub"));
        let (names, mimetype) = archive(&written, "mimetype");
        assert_eq!(names[0], "mimetype", "an EPUB opens with its mimetype");
        assert_eq!(mimetype, "application/epub+zip");
        assert!(names.iter().any(|n| n.ends_with(".opf")), "{names:?}");
        let asked = dialog.asked.lock().unwrap();
        assert_eq!(
            (asked[0].file_name.as_str(), asked[0].extension.as_str()),
            ("salt-and-iron.epub", "epub")
        );
        assert_eq!(asked[0].filter_name, ExportFormat::Epub.label());
    }

    #[test]
    fn a_docx_export_is_a_word_document_and_keeps_the_chosen_name() {
        let dir = tempfile::tempdir().unwrap();
        let novel = novel(dir.path());
        // A name the writer typed with its own extension stays as typed.
        let dialog = answering(Some(dir.path().join("Draft 3.docx")));
        let written = export_to_chosen_file(&novel, ExportFormat::Docx, &dialog)
            .unwrap()
            .unwrap();
        assert_eq!(written, dir.path().join("Draft 3.docx"));
        let (_, document) = archive(&written, "word/document.xml");
        assert!(document.contains("Salt and Iron"), "{document}");
        let asked = dialog.asked.lock().unwrap();
        assert_eq!(
            (asked[0].file_name.as_str(), asked[0].extension.as_str()),
            ("salt-and-iron.docx", "docx")
        );
    }

    #[test]
    fn a_cancelled_dialog_writes_nothing() {
        for format in [
            ExportFormat::Markdown,
            ExportFormat::Epub,
            ExportFormat::Docx,
        ] {
            let dir = tempfile::tempdir().unwrap();
            let novel = novel(dir.path());
            let dialog = answering(None);
            assert_eq!(
                export_to_chosen_file(&novel, format, &dialog).unwrap(),
                None
            );
            let exports = novel.dir(novel_core::layout::EXPORTS_DIR);
            let written = std::fs::read_dir(&exports).map_or(0, |d| d.count());
            assert_eq!(written, 0, "{format:?}");
            let files: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(files, ["salt"], "{format:?}: nothing beside the novel");
        }
    }
}
