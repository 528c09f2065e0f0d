//! One story tick, end to end: gather context → plan (validated, repaired once, replanned
//! with the reasons) → run the plan's tools → write (streamed) → check → revise at most once →
//! extract memory updates (and judge whether the scene did what was planned: one that went
//! elsewhere, with the revision unspent, is revised toward its plan and read again) → commit
//! everything in one transaction → write the scene and plan files. Three LLM calls on the
//! clean path. Any failure rolls the transaction back, records
//! `errors/error_NNN.*`, and leaves the story exactly as it was. Each step is a function of its
//! own module; `docs/ARCHITECTURE.md` walks through them.

mod adopting;
mod cancel;
mod checking;
mod committing;
mod critic;
mod error;
mod events;
mod extracting;
mod extraction;
mod judging;
mod keeping;
mod options;
mod outcome;
mod outputs;
mod placing;
mod planning;
mod pressure;
mod preview;
mod realizing;
mod reextract;
mod requests;
mod review;
mod review_words;
mod reviewing;
mod runner;
mod running;
mod salvage;
mod starting;
mod state;
mod words;
mod writing;

pub use adopting::{BeforeCommit, IMPORTED_RATIONALE, WrittenScene, adopt_scene};
pub use cancel::CancelToken;
pub use error::ErrorKind;
pub use error::StepError;
pub use events::{Stage, TickEvent, TickObserver};
pub use extraction::{ApplyReport, Extraction, LoopProgress, RecordChange, RelationshipChange};
pub use judging::{Judged, judge_scenes};
pub use keeping::{KeepAs, keep_failed_draft, keep_failed_draft_as};
pub use placing::{PLACED_RATIONALE, PlacedBrief, PlacedScene, write_placed};
pub use preview::{PreviewError, PromptPreview, preview_next, preview_next_for, preview_writer};
pub use reextract::{SceneExtraction, extract_scene};
pub use review::{
    ChangeCategory, PlanVerdict, Proposal, ProposedChange, Reviewer, ToolOutcome, Verdict,
};
pub use state::ContextUsed;
pub use words::{ChangeLine, capitalised, label as field_label, plain as plain_value};

pub use options::{Models, ReviewBy, RunHealth, TickOptions};
pub use outcome::{TickError, TickOutcome};
pub use running::{dry_run, run_tick};

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_cache;
#[cfg(test)]
mod tests_grammar;
#[cfg(test)]
mod tests_keeping;
#[cfg(test)]
mod tests_records;
#[cfg(test)]
mod tests_story_mind;
