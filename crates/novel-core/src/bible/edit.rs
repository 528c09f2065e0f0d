//! One writer's edit of the bible: why it was refused or failed (`BibleError`) and how it is
//! run and recorded as one change of the story's history, which every kind of edit shares.

use rusqlite::Transaction;

use crate::clock::{Clock, timestamp};
use crate::memory::MemoryError;
use crate::novel::{Novel, NovelError};
use crate::store::{self, ChangeKind, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum BibleError {
    #[error(transparent)]
    Memory(#[from] MemoryError),
    #[error("{0}")]
    Invalid(String),
    #[error("there is no {what} {id}")]
    NotFound { what: &'static str, id: String },
    #[error("the novel is open read-only; this change needs it opened for writing")]
    ReadOnly,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Novel(#[from] NovelError),
}

/// Runs `change` as one recorded writer's edit labelled `label`; `change` gets the story's
/// current tick.
pub(super) fn recorded<T>(
    novel: &mut Novel,
    label: &str,
    clock: &dyn Clock,
    change: impl FnOnce(&Transaction<'_>, u32) -> Result<T, BibleError>,
) -> Result<T, BibleError> {
    let now = timestamp(clock.now());
    let store = novel.store_mut().ok_or(BibleError::ReadOnly)?;
    let tick = store::load_state(store.conn())?.current_tick;
    store.recorded(
        ChangeKind::Edit,
        tick,
        label,
        &now,
        |tx| change(tx, tick),
        |_, _, _| Ok(()),
    )
}
