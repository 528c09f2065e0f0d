//! The scene checks as the front ends call them: a scene or any text checked against the
//! story (`novel check`, the manuscript's Check button), the findings with their severity and
//! where in the text each is, and the checks measured on a corpus of published prose
//! (`novel check --corpus`). The checks themselves are `evaluate`, an inner layer.

pub use crate::evaluate::corpus::{
    CorpusReport, Family, ModeFigures, Part, Score, load_corpus, score_corpus, severity_name,
};
pub use crate::evaluate::{
    Check, CheckError, CheckScope, Finding, Severity, Span, check_scene, check_text, check_title,
    needs_revision,
};
