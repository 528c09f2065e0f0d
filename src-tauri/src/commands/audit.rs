//! Audit: the book audit of the current branch (or a range of its scenes) as one report — each
//! criterion's number and failures that name their scenes (`novel_core::audit`). Thin: the
//! engine measures, this reads the novel and hands the report over.

use novel_core::Novel;
use novel_core::audit::{self, AuditError, AuditReport};
use tauri::State;

use crate::error::{AppError, AppResult};
use crate::state::AppState;

/// The audit of scenes `from..=to` (each end open when `null`): no model is asked anything.
#[tauri::command]
#[specta::specta]
pub async fn audit_book(
    state: State<'_, AppState>,
    from: Option<u32>,
    to: Option<u32>,
) -> AppResult<AuditReport> {
    let novel = state.session()?.read()?;
    audit_of(&novel, from, to)
}

fn audit_of(novel: &Novel, from: Option<u32>, to: Option<u32>) -> AppResult<AuditReport> {
    audit::audit(novel.store().conn(), from, to).map_err(|e| match e {
        AuditError::Store(e) => AppError::from(e),
        e @ AuditError::EmptyRange { .. } => AppError::invalid(e.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use novel_core::Access;

    use super::*;
    use crate::commands::test_novel::salt;

    #[test]
    fn a_new_novel_audits_empty_and_a_backwards_range_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let novel = salt(dir.path(), Access::Read);
        let report = audit_of(&novel, None, None).unwrap();
        assert_eq!(report.scenes, 0);
        assert_eq!(report.criteria.len(), 11);
        assert!(!report.used_model);
        let err = audit_of(&novel, Some(5), Some(2)).unwrap_err();
        assert!(
            matches!(&err, AppError::InvalidInput { message } if message.contains("scene 5 comes after scene 2")),
            "{err:?}"
        );
    }
}
