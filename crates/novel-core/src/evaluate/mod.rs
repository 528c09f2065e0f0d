//! The deterministic scene evaluator (the checking step of the story tick): after the writer
//! produces a scene, these checks read it against the novel's point of view, tense and story
//! memory without any LLM call — narrator knowledge and foreshadowing, other characters' minds
//! stated as fact, tense and person drift (sentence by sentence), the dead acting, a lost item
//! in hand, a character in two places, a journey the location web does not allow, narration
//! that contradicts a record, a death the POV character cannot know of (what each character
//! witnessed or was told, from the stored scenes), length, markup and meta text (errors), stock phrasing and
//! repetition (warnings). Each finding quotes the offending words, says what to change and
//! where (character offsets, the sentence, the record), because the findings are shown verbatim
//! to the model in the single revision pass and to the writer in `novel check`
//! ([`check_text`]). Precision comes first — a needless revision costs a call and can damage
//! good prose; `tests/engine/check_corpus.rs` measures both precision and recall on labelled passages.

mod absolute;
mod ages;
mod appearance;
mod absent;
mod apart;
mod beyond;
mod check;
mod conditions;
mod continuity;
pub mod corpus;
pub mod critic;
mod cuts;
mod ctx;
mod experiencer;
mod facts;
mod finding;
mod form;
mod inner;
mod interior;
mod input;
mod knowledge;
mod learned;
mod lexicon;
mod map;
mod meta;
mod pattern;
mod mind_words;
mod minds;
mod narrator_we;
mod people;
mod places;
mod possessions;
mod pov;
mod revision;
mod roles;
mod run;
mod span;
mod style;
mod subject;
mod text;
mod title;
mod verbs;
mod voice;
mod whose;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_apart;
#[cfg(test)]
mod tests_clean_modern;
#[cfg(test)]
mod tests_interior;
#[cfg(test)]
mod tests_person;
#[cfg(test)]
mod tests_records;
#[cfg(test)]
mod tests_tense;

pub use check::{CheckError, CheckScope, RECENT_SCENES, check_scene, check_text, lost_items};
pub use finding::{Check, Finding, Severity};
pub use input::{EvalInput, LostItem, OffPageDeath};
pub use learned::trained_items;
pub use knowledge::{
    DeathKnowledge, Learned, deaths_known_to, learned, off_page_deaths, scenes_witnessed,
};
pub use revision::{blocks_commit, needs_revision, revision_brief};
pub use run::evaluate;
pub use span::Span;
pub use style::{repetition, stock_phrase_count, stock_phrases};
pub use title::{check_title, clean_title, title_is_words};
