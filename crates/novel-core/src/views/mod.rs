//! Read models for a user interface: the novel's overview, the manuscript and its contents,
//! search across the book, the character and location graph, one entity with its history, the
//! timeline of ticks, the codex page of a character, place or lore entry (with its mentions
//! across the book and its history in sentences), the loops board, the story's branches and version differences, the story
//! bible, the charts of tension and emotion, the synopsis (the story so far as prose), the
//! novel's status, every record of a kind, one record inspected in full, the outline and the
//! pressure on the story.
//! Each is a plain serializable snapshot built from the store in one read, shaped for display
//! (names resolved, JSON columns decoded), so a front end renders it without knowing the schema.

mod authorship;
mod bible;
mod book_search;
mod charts;
mod codex;
mod codex_names;
mod entity;
mod graph;
mod history;
mod loops;
mod manuscript;
mod names;
mod overview;
mod records;
mod sentences;
mod status;
mod synopsis;
mod timeline;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_codex;
#[cfg(test)]
mod tests_planning;
#[cfg(test)]
mod tests_records;
#[cfg(test)]
mod tests_timeline;

/// How a character learned of a death, as [`Knowledge`] tells it.
pub use crate::evaluate::{DeathKnowledge, Learned};
// Search over the book, keyword or by meaning (the retrieval layer is inner).
pub use crate::retrieval::{Mode, Retrieval};
pub use authorship::{WrittenBy, scene_authors};
pub use bible::{BibleView, bible};
pub use book_search::{BookHit, Mark, book_search, query_marks};
pub use charts::{EmotionPoint, EmotionTrack, StoryCharts, TensionPoint, story_charts};
pub use codex::{CodexEntry, CodexField, CodexRelationship, Mention, codex_entry};
pub use codex_names::{CodexName, codex_names};
pub use entity::{EntityDetail, HistoryItem, Knowledge, entity_detail};
pub use graph::{EdgeKind, GraphEdge, GraphNode, NodeKind, StoryGraph, story_graph};
pub use history::{BranchRow, branches, version_diff};
pub use loops::{LoopCard, LoopColumn, STALE_AFTER_SCENES, loops_board};
pub use manuscript::{ChapterView, ContentsScene, SceneView, contents, manuscript, scene_view};
pub use overview::{FailureView, NovelOverview, SceneRecap, overview};
pub use records::{Inspection, Pressure, Records, inspection, outline, pressure, records};
pub use sentences::{HistoryLine, Subject, history_lines, plain as plain_value};
pub use status::{NovelStatus, status, unresolved_failures};
pub use synopsis::{Synopsis, SynopsisArc, SynopsisChapter, synopsis};
pub use timeline::{RoleLine, TickStatus, TimelineRow, ToolRun, timeline};
