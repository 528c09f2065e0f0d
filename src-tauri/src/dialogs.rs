//! The native dialogs the shell opens itself, so that a script in the web view cannot choose
//! for the writer: where an export is written (the save dialog's answer, never a path sent by
//! the page), which manuscript an import reads (the open dialog's answer) and whether a new program may run as a provider (a confirmation naming it). They
//! go through the [`Dialogs`] trait so a test can answer them.

use std::path::PathBuf;

use tauri::{AppHandle, Runtime};
use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};

/// A yes/no question for the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub title: String,
    pub message: String,
    /// The label of the button that says yes.
    pub accept: String,
}

/// A save dialog for one kind of file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveRequest {
    pub title: String,
    pub file_name: String,
    pub filter_name: String,
    pub extension: String,
}

/// An open dialog for one kind of file (several extensions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenRequest {
    pub title: String,
    pub filter_name: String,
    pub extensions: Vec<String>,
}

/// Blocking: call from a thread that may wait (never the main thread).
pub trait Dialogs: Send + Sync {
    /// Whether the writer said yes.
    fn confirm(&self, question: &Question) -> bool;
    /// The file the writer chose, or `None` when the dialog was cancelled.
    fn save_path(&self, request: &SaveRequest) -> Option<PathBuf>;
    /// The existing file the writer chose, or `None` when the dialog was cancelled.
    fn open_path(&self, request: &OpenRequest) -> Option<PathBuf>;
}

/// The real dialogs, through tauri-plugin-dialog.
pub struct NativeDialogs<R: Runtime> {
    app: AppHandle<R>,
}

impl<R: Runtime> NativeDialogs<R> {
    pub fn new(app: AppHandle<R>) -> Self {
        NativeDialogs { app }
    }
}

impl<R: Runtime> Dialogs for NativeDialogs<R> {
    fn confirm(&self, question: &Question) -> bool {
        self.app
            .dialog()
            .message(&question.message)
            .title(&question.title)
            .kind(MessageDialogKind::Warning)
            .buttons(MessageDialogButtons::OkCancelCustom(
                question.accept.clone(),
                "Cancel".into(),
            ))
            .blocking_show()
    }

    fn save_path(&self, request: &SaveRequest) -> Option<PathBuf> {
        let chosen = self
            .app
            .dialog()
            .file()
            .set_title(&request.title)
            .set_file_name(&request.file_name)
            .add_filter(&request.filter_name, &[request.extension.as_str()])
            .blocking_save_file()?;
        chosen.into_path().ok()
    }

    fn open_path(&self, request: &OpenRequest) -> Option<PathBuf> {
        let extensions: Vec<&str> = request.extensions.iter().map(String::as_str).collect();
        let chosen = self
            .app
            .dialog()
            .file()
            .set_title(&request.title)
            .add_filter(&request.filter_name, &extensions)
            .blocking_pick_file()?;
        chosen.into_path().ok()
    }
}
