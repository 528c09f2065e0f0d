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

mod ages;
mod appearance;
mod check;
mod conditions;
mod continuity;
pub mod corpus;
pub mod critic;
mod facts;
mod form;
mod inner;
mod knowledge;
mod lexicon;
mod meta;
mod minds;
mod people;
mod places;
mod possessions;
mod pov;
mod style;
mod text;
mod title;
mod verbs;
mod voice;
mod whose;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_records;

use std::cell::OnceCell;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use check::{CheckError, CheckScope, RECENT_SCENES, check_scene, check_text, lost_items};
pub use knowledge::{
    DeathKnowledge, Learned, OffPageDeath, deaths_known_to, learned, off_page_deaths,
    scenes_witnessed,
};
pub use style::{repetition, stock_phrase_count, stock_phrases};
pub use title::{check_title, clean_title, title_is_words};

use crate::config::{PointOfView, Tense};
use crate::model::{Character, LifeStatus, Location};

/// Everything the checks read: the scene and what the story memory knows.
#[derive(Debug, Clone, Copy)]
pub struct EvalInput<'a> {
    pub prose: &'a str,
    pub pov: PointOfView,
    pub tense: Tense,
    pub pov_character: &'a Character,
    /// All known characters, the POV character included.
    pub characters: &'a [Character],
    pub scene_location: Option<&'a Location>,
    pub locations: &'a [Location],
    /// Items characters are known to have lost or given away (the engine reads the history).
    pub lost_items: &'a [LostItem],
    /// Deaths shown on earlier pages that the POV character has not witnessed or learned of.
    pub off_page: &'a [OffPageDeath],
    /// `(target_words_min, target_words_max)` from the generation settings.
    pub target_words: (u32, u32),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostItem {
    pub character_id: String,
    pub character_name: String,
    pub item: String,
    /// The tick in which the item was lost.
    pub tick: u32,
}

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

/// A range of characters (Unicode scalar values, not bytes) in the checked prose: `start`
/// inclusive, `end` exclusive.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
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
    fn at(mut self, prose: &text::Prose<'_>, s: &text::Sentence, from: usize, to: usize) -> Self {
        self.span = Some(prose.span(from, to));
        self.sentence = Some(prose.original[s.start..s.end].to_string());
        self
    }

    /// Names the memory record the finding is about.
    fn about(mut self, record: &str) -> Self {
        if !record.is_empty() {
            self.record = Some(record.to_string());
        }
        self
    }
}

/// At most this many findings of one check: past that, more quotes only crowd the brief.
const MAX_PER_CHECK: usize = 4;

/// Runs every check over the scene; findings come in check order.
pub fn evaluate(input: &EvalInput<'_>) -> Vec<Finding> {
    let ctx = Ctx::new(*input);
    let mut findings = Vec::new();
    let checks: [fn(&Ctx<'_>) -> Vec<Finding>; 18] = [
        pov::leaks,
        minds::other_minds,
        continuity::dead_characters,
        continuity::two_places,
        continuity::lost_items,
        possessions::held_by_another,
        places::unreachable,
        facts::contradictions,
        appearance::contradictions,
        conditions::contradictions,
        ages::contradictions,
        knowledge::off_page_knowledge,
        form::length,
        voice::tense_drift,
        voice::person_drift,
        form::markup,
        meta::meta_text,
        style::stock_phrasing,
    ];
    for check in checks {
        let mut found = check(&ctx);
        found.truncate(MAX_PER_CHECK);
        findings.extend(found);
    }
    findings
}

/// Whether the findings call for the revision pass.
pub fn needs_revision(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Violation)
}

/// The violations that keep a revised scene from being committed: those of checks that cannot
/// be wrong by construction — commentary addressed to the reader or the user instead of story
/// ("Here is the revised scene… I hope this helps!"), and a scene told in the wrong person
/// throughout. The other checks' findings are recorded with the scene for the writer.
pub fn blocks_commit(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Violation)
        .filter(|f| matches!(f.check, Check::MetaText | Check::PersonDrift))
        .collect()
}

/// The findings as a numbered list for the reviser prompt: violations first (must fix), then
/// warnings (fix if it is a small change); notes are left out. Empty when there is nothing.
pub fn revision_brief(findings: &[Finding]) -> String {
    let mut listed: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .collect();
    listed.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let mut out = String::new();
    for (n, f) in listed.iter().enumerate() {
        let urgency = if f.severity == Severity::Violation {
            "must fix"
        } else {
            "fix if it is a small change"
        };
        out.push_str(&format!(
            "{}. [{urgency}] {}: {}\n",
            n + 1,
            f.check.label(),
            f.message
        ));
    }
    out
}

/// The scene read once and shared by every check.
struct Ctx<'a> {
    input: EvalInput<'a>,
    prose: text::Prose<'a>,
    /// The known characters, the POV character always among them.
    people: Vec<&'a Character>,
    pov: usize,
    names: text::NameIndex,
    /// "she" or "he" when the POV character's own record says so unambiguously.
    pov_pronoun: Option<&'static str>,
    /// Each person's pronoun, when their record says.
    genders: Vec<Option<&'static str>>,
    /// The location web and the places' names.
    map: places::Map,
    /// Every word of every known place's name (lowercase): not people's names.
    place_words: Vec<String>,
    /// Where the scene is after each sentence (an index into `input.locations`).
    place_after: Vec<Option<usize>>,
    /// Moves on the page to places the web does not reach.
    journeys: Vec<places::Journey>,
    /// Sentences that are meta text, not story: the voice checks do not read them.
    meta: Vec<bool>,
    /// The names in each sentence's narration, by the sentence's start.
    hits: HashMap<usize, Vec<text::NameHit>>,
    /// The subjects of each sentence, read once when first asked for.
    subjects: OnceCell<Vec<Vec<people::Subject>>>,
    /// Before each sentence: whether another woman, another man had been mentioned.
    others_seen: OnceCell<Vec<(bool, bool)>>,
}

impl<'a> Ctx<'a> {
    fn new(input: EvalInput<'a>) -> Ctx<'a> {
        let mut people: Vec<&'a Character> = input.characters.iter().collect();
        let pov = match people.iter().position(|c| c.id == input.pov_character.id) {
            Some(i) => i,
            None => {
                people.push(input.pov_character);
                people.len() - 1
            }
        };
        let names = text::NameIndex::new(&people);
        let genders = people.iter().map(|c| pronoun_of(c)).collect();
        let map = places::Map::new(input.locations);
        let place_words = map.words();
        let prose = text::Prose::new(input.prose);
        let meta = prose
            .sentences
            .iter()
            .map(|s| meta::is_meta(&prose, s))
            .collect();
        let hits = prose
            .sentences
            .iter()
            .map(|s| (s.start, names.hits(&prose, s)))
            .collect();
        let mut ctx = Ctx {
            input,
            prose,
            meta,
            people,
            pov,
            names,
            pov_pronoun: pronoun_of(input.pov_character),
            genders,
            map,
            place_words,
            place_after: Vec::new(),
            journeys: Vec::new(),
            hits,
            subjects: OnceCell::new(),
            others_seen: OnceCell::new(),
        };
        let (place_after, journeys) = places::track(&ctx);
        ctx.place_after = place_after;
        ctx.journeys = journeys;
        ctx
    }

    /// The known characters named in a sentence's narration.
    fn hits(&self, s: &text::Sentence) -> Vec<text::NameHit> {
        match self.hits.get(&s.start) {
            Some(found) => found.clone(),
            None => self.names.hits(&self.prose, s),
        }
    }

    /// How a character is named in messages.
    fn name(&self, who: usize) -> &'a str {
        self.people[who].name.trim()
    }

    fn pov_name(&self) -> &'a str {
        self.name(self.pov)
    }

    /// The place a character was last known to be, when that is not where this scene happens.
    /// `None` when either place is unknown: no guess is made.
    fn elsewhere(&self, who: usize) -> Option<&'a Location> {
        let scene = self.input.scene_location?;
        let last = self.location(self.people[who].last_location.as_deref()?)?;
        (last.id != scene.id).then_some(last)
    }

    fn is_dead(&self, who: usize) -> bool {
        self.people[who].status == LifeStatus::Dead
    }

    /// A location by id or by name, as `last_location` may hold either.
    fn location(&self, key: &str) -> Option<&'a Location> {
        let key = key.trim();
        self.input
            .locations
            .iter()
            .chain(self.input.scene_location)
            .find(|l| l.id == key || l.name.eq_ignore_ascii_case(key))
    }
}

/// A character's pronoun, from a `pronouns` or `gender` fact or, failing that, from the
/// pronouns their description, goals, fears and arc use when they use only one kind ("clear
/// her brother's name").
fn pronoun_of(c: &Character) -> Option<&'static str> {
    let stated = ["pronouns", "gender", "sex"]
        .iter()
        .filter_map(|key| c.facts.get(*key))
        .find_map(|value| {
            pronoun_in(
                value,
                &["she", "her", "female", "woman", "girl"],
                &["he", "him", "male", "man", "boy"],
            )
        });
    stated.or_else(|| {
        let text = format!(
            "{} {} {} {} {} {}",
            c.description,
            c.personality.join(" "),
            c.goals.join(" "),
            c.fears.join(" "),
            c.arc.want,
            c.arc.need
        );
        pronoun_in(
            &text,
            &["she", "her", "hers", "herself"],
            &["he", "him", "his", "himself"],
        )
    })
}

/// "she" or "he" when `text` uses words of only one of the two kinds.
fn pronoun_in(text: &str, she: &[&str], he: &[&str]) -> Option<&'static str> {
    let text = text.to_lowercase();
    let words: Vec<&str> = text.split(|ch: char| !ch.is_alphabetic()).collect();
    let uses = |kind: &[&str]| words.iter().any(|w| kind.contains(w));
    match (uses(she), uses(he)) {
        (true, false) => Some("she"),
        (false, true) => Some("he"),
        _ => None,
    }
}
