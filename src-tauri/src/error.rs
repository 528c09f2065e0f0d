//! The one error type of the command boundary. Serialized as a tagged union (`kind` plus a
//! writer-readable `message`, and the form's per-field problems for `invalid_form`), so the UI
//! can branch on the kind and show the message as it is.

use novel_core::BranchError;
use novel_core::NovelError;
use novel_core::StoreError;
use novel_core::control::ControlError;
use novel_core::edits::EditError;
use novel_core::library::FieldError;
use novel_llm::{LlmError, ProfileProblem};
use serde::Serialize;
use specta::Type;

#[derive(Debug, Clone, Serialize, Type, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AppError {
    #[error("{message}")]
    NoNovelOpen { message: String },
    #[error("{message}")]
    Busy { message: String },
    #[error("{message}")]
    InvalidForm {
        message: String,
        fields: Vec<FieldError>,
    },
    #[error("{message}")]
    NotFound { message: String },
    #[error("{message}")]
    InvalidInput { message: String },
    #[error("{message}")]
    Locked { message: String },
    #[error("{message}")]
    Provider { message: String },
    #[error("{message}")]
    Storage { message: String },
    /// The writer said no in a confirmation the shell asked; nothing was done.
    #[error("{message}")]
    Declined { message: String },
}

impl AppError {
    pub fn no_novel() -> AppError {
        AppError::NoNovelOpen {
            message: "No novel is open. Open one from the Library or start a new one.".into(),
        }
    }

    pub fn busy() -> AppError {
        AppError::Busy {
            message: "A scene is being written. Wait for it to finish, or press Stop.".into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> AppError {
        AppError::InvalidInput {
            message: message.into(),
        }
    }

    /// A provider profile's problems, each beside its field of the form.
    pub fn profile_problems(problems: Vec<ProfileProblem>) -> AppError {
        AppError::InvalidForm {
            message: "Some fields need attention before the provider can be saved.".into(),
            fields: problems
                .into_iter()
                .map(|p| FieldError {
                    field: p.field.as_str().into(),
                    message: p.message,
                })
                .collect(),
        }
    }

    pub fn storage(message: impl ToString) -> AppError {
        AppError::Storage {
            message: message.to_string(),
        }
    }
}

impl From<NovelError> for AppError {
    fn from(e: NovelError) -> Self {
        let message = e.to_string();
        match e {
            NovelError::Missing { .. } | NovelError::NotANovel { .. } => {
                AppError::NotFound { message }
            }
            NovelError::Lock(novel_core::LockError::Held { .. }) => AppError::Locked { message },
            NovelError::NotEmpty { .. } | NovelError::Seed(_) | NovelError::Config(_) => {
                AppError::InvalidInput { message }
            }
            _ => AppError::Storage { message },
        }
    }
}

impl From<EditError> for AppError {
    fn from(e: EditError) -> Self {
        let message = e.to_string();
        match e {
            EditError::NoSuchScene { .. } | EditError::NothingToSkip { .. } => {
                AppError::NotFound { message }
            }
            EditError::EmptyProse | EditError::InvalidSettings(_) => {
                AppError::InvalidInput { message }
            }
            EditError::UnknownProfile { .. } => AppError::InvalidInput {
                message: sentence(&message),
            },
            EditError::Novel(inner) => inner.into(),
            EditError::Store(StoreError::NotFound(what)) => AppError::NotFound {
                message: format!("There is no {what} in this novel."),
            },
            _ => AppError::Storage { message },
        }
    }
}

impl From<BranchError> for AppError {
    fn from(e: BranchError) -> Self {
        match e {
            // The engine's message points at the CLI's `branch list`; the app has a panel.
            BranchError::NoSuchBranch(name) => AppError::NotFound {
                message: format!(
                    "There is no branch called \"{name}\" any more. The Branches panel lists them."
                ),
            },
            BranchError::NoSuchScene { .. } | BranchError::BeforeHistory { .. } => {
                AppError::NotFound {
                    message: sentence(&e.to_string()),
                }
            }
            BranchError::NameTaken(_)
            | BranchError::BadName
            | BranchError::DeleteCurrent(_)
            | BranchError::Reshaped { .. }
            | BranchError::Imported { .. }
            | BranchError::WrittenByHand { .. }
            | BranchError::WrittenFromNote { .. } => AppError::InvalidInput {
                message: sentence(&e.to_string()),
            },
            BranchError::Store(inner) => inner.into(),
        }
    }
}

impl From<ControlError> for AppError {
    fn from(e: ControlError) -> Self {
        match e {
            ControlError::NothingToRegenerate => AppError::InvalidInput {
                message: "There is no scene to write again yet. Write one with Next scene.".into(),
            },
            ControlError::Branch(inner) => inner.into(),
            ControlError::Novel(inner) => inner.into(),
            ControlError::Store(inner) => inner.into(),
            other => AppError::storage(other),
        }
    }
}

impl From<novel_core::export::ExportError> for AppError {
    fn from(e: novel_core::export::ExportError) -> Self {
        use novel_core::export::ExportError;
        match e {
            ExportError::Novel(inner) => inner.into(),
            other => AppError::storage(other),
        }
    }
}

/// `text` with its first letter in upper case.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The engine's lower-case error as a sentence for the window.
pub(crate) fn sentence(message: &str) -> String {
    let mut out = capitalised(message);
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

impl From<novel_core::checks::CheckError> for AppError {
    fn from(e: novel_core::checks::CheckError) -> Self {
        use novel_core::checks::CheckError;
        match e {
            CheckError::Store(inner) => inner.into(),
            other @ CheckError::UnknownScene(_) => AppError::NotFound {
                message: sentence(&other.to_string()),
            },
            other => AppError::invalid(sentence(&other.to_string())),
        }
    }
}

impl From<novel_core::chapters::ChapterError> for AppError {
    fn from(e: novel_core::chapters::ChapterError) -> Self {
        use novel_core::chapters::ChapterError;
        match e {
            ChapterError::Novel(inner) => inner.into(),
            ChapterError::Store(inner) => inner.into(),
            other @ ChapterError::NoSuchChapter { .. } => AppError::NotFound {
                message: sentence(&other.to_string()),
            },
            other => AppError::invalid(sentence(&other.to_string())),
        }
    }
}

impl From<novel_core::shape::ShapeError> for AppError {
    fn from(e: novel_core::shape::ShapeError) -> Self {
        use novel_core::shape::ShapeError;
        match e {
            ShapeError::Novel(inner) => inner.into(),
            ShapeError::Store(inner) => inner.into(),
            ShapeError::Branch(inner) => inner.into(),
            other @ (ShapeError::NoSuchScene { .. } | ShapeError::NoSuchChapter { .. }) => {
                AppError::NotFound {
                    message: sentence(&other.to_string()),
                }
            }
            ShapeError::Files(inner) => AppError::storage(inner),
            // The tick's own words name a tick and a file; the writer reads what went wrong.
            ShapeError::Writing(failed) => AppError::Provider {
                message: match failed {
                    novel_core::run::TickError::Failed { message, .. } => format!(
                        "The agent could not write the scene; the book is unchanged. {}",
                        sentence(&message)
                    ),
                    novel_core::run::TickError::Setup(message) => sentence(&message),
                    _ => "The agent stopped before the scene was written; the book is unchanged."
                        .into(),
                },
            },
            other => AppError::invalid(sentence(&other.to_string())),
        }
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        AppError::storage(e)
    }
}

impl From<LlmError> for AppError {
    fn from(e: LlmError) -> Self {
        AppError::Provider {
            message: e.to_string(),
        }
    }
}

impl From<novel_core::role_models::RoleModelError> for AppError {
    fn from(e: novel_core::role_models::RoleModelError) -> Self {
        use novel_core::role_models::RoleModelError;
        match e {
            RoleModelError::Profile { .. } => AppError::Provider {
                message: e.to_string(),
            },
            RoleModelError::Store(inner) => inner.into(),
        }
    }
}

impl From<std::io::Error> for AppError {
    fn from(e: std::io::Error) -> Self {
        AppError::storage(e)
    }
}

pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_cross_the_boundary_as_a_tagged_union() {
        let form = AppError::InvalidForm {
            message: "fix these".into(),
            fields: vec![FieldError {
                field: "title".into(),
                message: "Give the novel a title.".into(),
            }],
        };
        let json = serde_json::to_value(&form).unwrap();
        assert_eq!(json["kind"], "invalid_form");
        assert_eq!(json["fields"][0]["field"], "title");
        let locked: AppError = NovelError::Lock(novel_core::LockError::Held {
            dir: "/n".into(),
            holder: "pid 7".into(),
        })
        .into();
        assert_eq!(serde_json::to_value(&locked).unwrap()["kind"], "locked");
    }

    #[test]
    fn an_unknown_role_profile_is_bad_input_said_as_a_sentence() {
        let err: AppError = EditError::UnknownProfile {
            role: novel_core::config::Role::Planner,
            name: "big".into(),
        }
        .into();
        assert_eq!(serde_json::to_value(&err).unwrap()["kind"], "invalid_input");
        let text = err.to_string();
        assert!(
            text.starts_with("There is no provider profile called \"big\" for the planner"),
            "{text}"
        );
        assert!(text.ends_with('.'), "{text}");
    }

    #[test]
    fn branch_errors_read_as_sentences_for_the_app() {
        let missing: AppError = ControlError::Branch(BranchError::NoSuchBranch("x".into())).into();
        assert_eq!(serde_json::to_value(&missing).unwrap()["kind"], "not_found");
        assert!(missing.to_string().contains("Branches panel"), "{missing}");
        assert!(
            !missing.to_string().contains("novel branch"),
            "no CLI advice: {missing}"
        );
        let current: AppError = BranchError::DeleteCurrent("main".into()).into();
        assert_eq!(
            serde_json::to_value(&current).unwrap()["kind"],
            "invalid_input"
        );
        assert!(
            current
                .to_string()
                .starts_with("\"main\" is the branch you are on"),
            "{current}"
        );
        assert!(current.to_string().ends_with('.'));
    }
}
