//! Measuring the checks on real published prose (`novel check --corpus DIR`): a corpus of
//! public-domain books, each with the settings and cast a user would give it, and sentences
//! from them labelled with what must fire. On published prose a finding is a false alarm
//! unless it is on one of the author's own known breaks of point of view, so the figures say
//! how often a check would tell a writer that good prose is wrong; the labelled sentences say
//! how much it catches. Every change to a check is measured this way (BENCHMARKS.md).

mod book;
mod features;
mod score;

pub use book::{
    Book, Chunk, CorpusError, Family, Item, Known, Mode, Narration, Part, load_book, load_corpus,
};
pub use features::{FeatureRow, feature_rows};
pub use score::{
    Alarm, CorpusReport, LabelledFigures, Miss, ModeFigures, Score, family_of, score_corpus,
    severity_name,
};
