//! What a check reports: which check ([`Check`]), how serious ([`Severity`]) and the finding
//! itself, quoting the offending words and placing them in the prose; and how many findings of
//! one check are kept.

use serde::{Deserialize, Serialize};

use super::span::Span;
use super::text;

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    PovLeak,
    OtherMind,
    DeadCharacter,
    TwoPlaces,
    LostItem,
    Length,
    TenseDrift,
    PersonDrift,
    Markup,
    /// Commentary about the story, or words to the user, in place of the story.
    MetaText,
    /// A move to a place the location web does not connect to where the character was.
    Unreachable,
    /// Narration stating what a character's record contradicts ("her brother was dead").
    Contradiction,
    /// A phrase the recent scenes already used.
    Repetition,
    /// Stock phrasing that marks prose as machine-written ("a testament to").
    StockPhrase,
    /// A scene title that is not words.
    Title,
    /// The POV character knowing what happened off-page (a death they did not see or hear of).
    OffPage,
}

impl Check {
    /// Every check, in the order they are declared.
    pub const ALL: [Check; 16] = [
        Check::PovLeak,
        Check::OtherMind,
        Check::DeadCharacter,
        Check::TwoPlaces,
        Check::LostItem,
        Check::Length,
        Check::TenseDrift,
        Check::PersonDrift,
        Check::Markup,
        Check::MetaText,
        Check::Unreachable,
        Check::Contradiction,
        Check::Repetition,
        Check::StockPhrase,
        Check::Title,
        Check::OffPage,
    ];

    /// What the app calls the check above its findings, in a writer's words ("Point of
    /// view", not the craft term "POV leak" the revision brief and the CLI use).
    pub fn heading(self) -> &'static str {
        match self {
            Check::PovLeak => "Point of view",
            Check::OtherMind => "Another character's mind",
            Check::DeadCharacter => "Dead character",
            Check::TwoPlaces => "In two places",
            Check::LostItem => "Lost item",
            Check::Length => "Length",
            Check::TenseDrift => "Tense",
            Check::PersonDrift => "Person",
            Check::Markup => "Markup",
            Check::MetaText => "Commentary, not story",
            Check::Unreachable => "Unreachable place",
            Check::Contradiction => "Contradicts the story memory",
            Check::Repetition => "Repeated phrase",
            Check::StockPhrase => "Stock phrasing",
            Check::Title => "Title",
            Check::OffPage => "Knows what happened off-page",
        }
    }

    /// How the check is named to a reader (the revision brief, the timeline).
    pub fn label(self) -> &'static str {
        match self {
            Check::PovLeak => "POV leak",
            Check::OtherMind => "another character's mind",
            Check::DeadCharacter => "dead character acting",
            Check::TwoPlaces => "character in two places",
            Check::LostItem => "lost item used",
            Check::Length => "length",
            Check::TenseDrift => "tense drift",
            Check::PersonDrift => "person drift",
            Check::Markup => "markup or meta text",
            Check::MetaText => "commentary instead of story",
            Check::Unreachable => "unreachable place",
            Check::Contradiction => "contradicts the story memory",
            Check::Repetition => "repeated from recent scenes",
            Check::StockPhrase => "stock phrasing",
            Check::Title => "title",
            Check::OffPage => "knows what happened off-page",
        }
    }
}

/// Only a `Violation` triggers the revision pass; warnings and notes are recorded.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Note,
    Warning,
    Violation,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Finding {
    pub check: Check,
    pub severity: Severity,
    /// What is wrong, where (quoted) and what to do, addressed to the writer.
    pub message: String,
    /// The offending words, at most 120 characters.
    pub excerpt: Option<String>,
    /// Where the offending words are, in characters (not bytes) from the start of the prose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// The whole sentence the offending words are in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sentence: Option<String>,
    /// The story-memory record the finding is about (a character or location id), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

impl Finding {
    pub fn new(check: Check, severity: Severity, message: String, excerpt: Option<String>) -> Self {
        Finding {
            check,
            severity,
            message,
            excerpt,
            span: None,
            sentence: None,
            record: None,
        }
    }

    /// Places the finding at the byte range `from..to` of the prose, within sentence `s`.
    pub(super) fn at(
        mut self,
        prose: &text::Prose<'_>,
        s: &text::Sentence,
        from: usize,
        to: usize,
    ) -> Self {
        self.span = Some(prose.span(from, to));
        self.sentence = Some(prose.original[s.start..s.end].to_string());
        self
    }

    /// Names the memory record the finding is about.
    pub(super) fn about(mut self, record: &str) -> Self {
        if !record.is_empty() {
            self.record = Some(record.to_string());
        }
        self
    }
}

/// At most this many findings of one check: past that, more quotes only crowd the brief.
pub(super) const MAX_PER_CHECK: usize = 4;
