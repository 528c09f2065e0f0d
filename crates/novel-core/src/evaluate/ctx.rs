//! The scene read once and shared by every check: its sentences, the names in them, who is who,
//! where the scene is after each sentence, and the small questions every check asks of it
//! (a person's name, whether they are dead, where they were last). It is built in `run`.

use std::cell::OnceCell;
use std::collections::HashMap;

use super::input::EvalInput;
use super::map::{Journey, Map};
use super::subject::Subject;
use super::text;
use crate::model::{Character, LifeStatus, Location};

/// The scene read once and shared by every check.
pub(super) struct Ctx<'a> {
    pub(super) input: EvalInput<'a>,
    pub(super) prose: text::Prose<'a>,
    /// The known characters, the POV character always among them.
    pub(super) people: Vec<&'a Character>,
    pub(super) pov: usize,
    pub(super) names: text::NameIndex,
    /// "she" or "he" when the POV character's own record says so unambiguously.
    pub(super) pov_pronoun: Option<&'static str>,
    /// Each person's pronoun, when their record says.
    pub(super) genders: Vec<Option<&'static str>>,
    /// The location web and the places' names.
    pub(super) map: Map,
    /// Every word of every known place's name (lowercase): not people's names.
    pub(super) place_words: Vec<String>,
    /// Where the scene is after each sentence (an index into `input.locations`).
    pub(super) place_after: Vec<Option<usize>>,
    /// Moves on the page to places the web does not reach.
    pub(super) journeys: Vec<Journey>,
    /// Sentences that are meta text, not story: the voice checks do not read them.
    pub(super) meta: Vec<bool>,
    /// The names in each sentence's narration, by the sentence's start.
    pub(super) hits: HashMap<usize, Vec<text::NameHit>>,
    /// The subjects of each sentence, read once when first asked for.
    pub(super) subjects: OnceCell<Vec<Vec<Subject>>>,
    /// Before each sentence: whether another woman, another man had been mentioned.
    pub(super) others_seen: OnceCell<Vec<(bool, bool)>>,
    /// What the tense rules read of each sentence (`voice::tense_readings`), kept from the
    /// rules' pass for the learned reading after them.
    pub(super) tense_readings: OnceCell<Vec<Option<Vec<String>>>>,
}

impl<'a> Ctx<'a> {
    /// The known characters named in a sentence's narration.
    pub(super) fn hits(&self, s: &text::Sentence) -> Vec<text::NameHit> {
        match self.hits.get(&s.start) {
            Some(found) => found.clone(),
            None => self.names.hits(&self.prose, s),
        }
    }

    /// How a character is named in messages.
    pub(super) fn name(&self, who: usize) -> &'a str {
        self.people[who].name.trim()
    }

    pub(super) fn pov_name(&self) -> &'a str {
        self.name(self.pov)
    }

    /// The place a character was last known to be, when that is not where this scene happens.
    /// `None` when either place is unknown: no guess is made.
    pub(super) fn elsewhere(&self, who: usize) -> Option<&'a Location> {
        let scene = self.input.scene_location?;
        let last = self.location(self.people[who].last_location.as_deref()?)?;
        (last.id != scene.id).then_some(last)
    }

    pub(super) fn is_dead(&self, who: usize) -> bool {
        self.people[who].status == LifeStatus::Dead
    }

    /// A location by id or by name, as `last_location` may hold either.
    pub(super) fn location(&self, key: &str) -> Option<&'a Location> {
        let key = key.trim();
        self.input
            .locations
            .iter()
            .chain(self.input.scene_location)
            .find(|l| l.id == key || l.name.eq_ignore_ascii_case(key))
    }
}
