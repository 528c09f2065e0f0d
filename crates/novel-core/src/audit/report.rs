//! The audit's answer, as the CLI prints it (`novel audit --json`) and the app receives it
//! (`audit_book`): one report card for a range of the current branch — each criterion a
//! number and the failures that name their scenes and say why. docs/audit.md documents every
//! field. Plain data (serde, and specta for the app's bindings); nothing here computes.

use serde::{Deserialize, Serialize};

/// A scene as the report names it: its number in the book and its title.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SceneRef {
    /// The scene's number in the book (1-based).
    pub scene: u32,
    pub title: String,
}

/// The criteria the audit measures, in the order the report lists them.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriterionKey {
    /// Did each scene do what its plan intended?
    Plan,
    /// Is an outline beat done only by a scene that realized it, and in order?
    Beats,
    /// Open questions: opened, touched, resolved.
    Loops,
    /// Scenes that say the same thing again.
    Stalls,
    /// Do the recurring characters change?
    Entities,
    /// Do the records agree with each other?
    Contradictions,
    /// The checks' point-of-view and tense findings over the book.
    Pov,
    /// Does each scene sound like the book?
    Voice,
    /// Does the tension move?
    Tension,
    /// Phrases, openings and endings used again; stock phrasing.
    Repetition,
    /// What each scene cost.
    Cost,
}

/// What kind of failure, so that a front end can group and a test can match them.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The scene did not do what its plan intended.
    PlanNotRealized,
    /// The scene did part of its plan.
    PlanPartly,
    /// A beat was marked done by a scene that did not realize it.
    BeatUnrealized,
    /// A later beat was done while an earlier one was still open.
    BeatSkipped,
    /// An open question left untouched for too many scenes.
    LoopUntouched,
    /// A scene that says what an earlier one said.
    NearDuplicate,
    /// A plan that asked for the scene an earlier plan asked for.
    RepeatedIntention,
    /// A character with an unfinished arc who leaves the page for too long.
    ArcVanished,
    /// A relationship that never moves although the two share scenes.
    RelationshipStatic,
    /// A dead character placed, holding something, or in a live relationship later.
    DeadActive,
    /// A character's place in the records disagrees with where the scenes put them.
    PlaceMismatch,
    /// One item in two people's hands.
    ItemTwoHolders,
    /// An injury or condition gone with no scene that heals it.
    ConditionVanished,
    /// A recorded fact that differs from what the history says it became.
    FactUnrecorded,
    /// The checks found point-of-view or tense problems in the scene.
    PovFindings,
    /// The scene's style is far from the book's own.
    VoiceDrift,
    /// The tension stayed within one point for too many scenes.
    TensionFlat,
    /// A phrase used in many scenes.
    RepeatedPhrase,
    /// Two scenes open alike.
    AlikeOpenings,
    /// Two scenes end alike.
    AlikeEndings,
    /// Stock phrasing grows from the first quarter of the book to the last.
    StockRising,
    /// A scene that cost far more than the book's usual scene.
    CostlyScene,
}

/// One thing wrong: the scenes it is in (the first is where to look) and why, in words.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditFailure {
    pub kind: FailureKind,
    /// The scenes concerned, the one to look at first.
    pub scenes: Vec<SceneRef>,
    pub why: String,
    /// The record it is about (a character, place, relationship, open question or beat id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

/// One criterion's number and failures.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Criterion {
    pub key: CriterionKey,
    /// The criterion in a writer's words ("Scenes do what they set out to do").
    pub title: String,
    /// The number, 0–100, higher is better (its meaning is in `measure`).
    pub score: f64,
    /// What the number counts, in words ("24 of 28 judged scenes realized their plan").
    pub measure: String,
    pub failures: Vec<AuditFailure>,
}

/// What became of a scene's plan.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanOutcome {
    Realized,
    Partly,
    Not,
    /// Written before verdicts were recorded, or the extractor gave none.
    NotJudged,
    /// A scene with no plan (an imported chapter).
    NoPlan,
}

/// One row per scene: the numbers the app charts over the book.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneRow {
    pub scene: u32,
    pub title: String,
    pub words: u32,
    pub plan: PlanOutcome,
    pub tension: Option<u8>,
    /// Open questions open after this scene.
    pub open_loops: u32,
    /// How far the scene's style is from the book's (robust z-score distance; 0 is typical,
    /// over the threshold in docs/audit.md is flagged).
    pub voice_distance: f64,
    /// Stock phrases per 1,000 words.
    pub stock_per_1000: f64,
    /// LLM calls, tokens (prompt + completion) and failed attempts this scene cost.
    pub calls: u32,
    pub tokens: u32,
    pub revised: bool,
    pub failed_attempts: u32,
}

/// One open question over the book: when it opened, when it was touched, what became of it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopRow {
    pub id: String,
    pub description: String,
    pub importance: String,
    pub opened: u32,
    /// Scenes that advanced it.
    pub touched: Vec<u32>,
    pub resolved: Option<u32>,
    /// "open", "resolved" or "abandoned".
    pub status: String,
    /// Scenes since it was last touched, at the end of the range (0 once resolved).
    pub age: u32,
    /// The longest run of scenes that did not touch it.
    pub longest_silence: u32,
}

/// Questions opened and resolved within one chapter.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChapterLoops {
    pub chapter: u32,
    pub title: String,
    pub first_scene: u32,
    pub last_scene: u32,
    pub opened: u32,
    pub resolved: u32,
}

/// How one recurring character changed: every change of their state, arc or status.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterChanges {
    pub id: String,
    pub name: String,
    /// Scenes the character is in (point of view or named in the prose).
    pub scenes: u32,
    pub changes: Vec<CharacterChange>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CharacterChange {
    pub scene: u32,
    /// "mood", "arc", "life", "goals", "relationship with Bram", …
    pub what: String,
    pub to: String,
}

/// The whole report.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    /// The branch audited.
    pub branch: String,
    /// The first and last scene audited.
    pub from: u32,
    pub to: u32,
    pub scenes: u32,
    pub words: u32,
    /// The mean of the criteria's scores (cost left out: it is not a quality).
    pub overall: f64,
    /// Whether any model was asked anything (never, today: the audit is local).
    pub used_model: bool,
    /// How stalls were found: "by meaning" (stored vectors) or "by wording".
    pub similarity: String,
    pub criteria: Vec<Criterion>,
    pub scene_rows: Vec<SceneRow>,
    pub loops: Vec<LoopRow>,
    pub chapters: Vec<ChapterLoops>,
    pub characters: Vec<CharacterChanges>,
    /// Things the reader of the report should know (old scenes not judged, …).
    pub notes: Vec<String>,
}
