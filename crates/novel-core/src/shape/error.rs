//! Why a shaping change was refused or failed, in the writer's words: every operation on the
//! book returns it, the agent's placed scene included.

use crate::branches::BranchError;
use crate::files::MirrorError;
use crate::novel::NovelError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    #[error("there is no scene {tick}: the book has {count} (see `novel list scenes`)")]
    NoSuchScene { tick: u32, count: u32 },
    #[error("there is no chapter {number}: the book has {count} (see `novel chapter list`)")]
    NoSuchChapter { number: u32, count: u32 },
    #[error("a scene needs a title; write a few words")]
    EmptyTitle,
    #[error("a scene cannot be empty; write some prose")]
    EmptyProse,
    #[error("scene {tick} has {paragraphs} paragraph(s); split it after one of paragraphs 1–{}", paragraphs.saturating_sub(1))]
    BadSplit { tick: u32, paragraphs: usize },
    #[error("split inside the scene's text, not before its first word or after its last")]
    BadSplitAt,
    #[error("scene {tick} is the last one; there is no next scene to merge it with")]
    NothingToMerge { tick: u32 },
    #[error("the scene is already there")]
    SamePlace,
    #[error("there is nothing to undo: no change of yours is the latest one")]
    NothingToUndo,
    #[error(
        "the latest change is \"{label}\", a scene the agent wrote; go back before it with Rewind"
    )]
    NotYours { label: String },
    #[error("the novel is open read-only; this needs it opened for writing")]
    ReadOnly,
    #[error("tell the agent what happens in the scene: write a note")]
    EmptyNote,
    #[error("the agent could not write the scene; the book is unchanged ({0})")]
    Writing(crate::tick::TickError),
    #[error("the scene was cancelled before it went in; the book is unchanged")]
    Cancelled,
    #[error(transparent)]
    Branch(#[from] BranchError),
    #[error(transparent)]
    Novel(#[from] NovelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Files(#[from] MirrorError),
}

impl From<crate::tick::TickError> for ShapeError {
    /// A cancel is the writer's own doing, said as such; any other failure of the writing is
    /// the agent's.
    fn from(e: crate::tick::TickError) -> Self {
        match e {
            crate::tick::TickError::Cancelled { .. } => ShapeError::Cancelled,
            e => ShapeError::Writing(e),
        }
    }
}
