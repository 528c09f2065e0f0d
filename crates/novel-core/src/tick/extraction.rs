//! What the extractor model returns after a scene (one structured call): title, summary, tension
//! and every memory change the scene implies. `apply` turns it into memory writes inside the
//! tick's transaction — each item in its own savepoint, so one bad item is reported and skipped
//! instead of sinking a scene the writer already paid for.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::words::{label, name_ids};
use crate::memory::{
    self, EntityUpdate, NewCharacter, NewLocation, NewLoop, NewLore, NewRelationship,
};
use crate::merge::Contradiction;
use crate::model::{Character, Location, LoopStatus, SceneVerdict};
use crate::store::{self, with_savepoint};
use crate::tools::{RelationshipUpdate, RelationshipUpdateArgs, ToolContext, ToolError, TypedTool};

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Extraction {
    /// A short evocative scene title (2–6 words).
    pub title: String,
    /// 3–5 bullets, most important first, each one sentence.
    pub summary: Vec<String>,
    /// Dramatic tension of the scene, 1 (calm) to 10 (climax).
    #[schemars(range(min = 1, max = 10))]
    pub tension: u8,
    /// Location id where the scene took place.
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub character_updates: Vec<RecordChange>,
    /// Characters who appear for the first time.
    #[serde(default)]
    pub new_characters: Vec<NewCharacter>,
    #[serde(default)]
    pub location_updates: Vec<RecordChange>,
    #[serde(default)]
    pub new_locations: Vec<NewLocation>,
    #[serde(default)]
    pub relationship_changes: Vec<RelationshipChange>,
    #[serde(default)]
    pub loops_opened: Vec<NewLoop>,
    #[serde(default)]
    pub loops_advanced: Vec<LoopProgress>,
    #[serde(default)]
    pub loops_resolved: Vec<LoopProgress>,
    #[serde(default)]
    pub lore: Vec<NewLore>,
    /// Injuries, illnesses, disguises and other states that begin or end in this scene.
    #[serde(default)]
    pub conditions: Vec<ConditionChange>,
    /// Did the scene do what its plan intended? Given only when the prompt shows a plan.
    #[serde(default)]
    pub plan_verdict: Option<SceneVerdict>,
}

/// A change to an existing character or location, by id.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RecordChange {
    pub id: String,
    /// Fields to change: nested objects merge, lists are replaced, null removes.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, crate::specta_types::JsonValue>))]
    pub changes: Map<String, Value>,
    /// Items to add to list fields, e.g. {"inventory": ["map"]}.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = std::collections::HashMap<String, crate::specta_types::JsonValue>))]
    pub append: Map<String, Value>,
    /// What in this scene changed a recorded fact, when `changes` changes one: with it the
    /// fact is superseded (history says when and why); without it the change is refused.
    #[serde(default)]
    pub because: Option<String>,
}

/// A condition of a character that begins or ends in the scene.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConditionChange {
    /// Character id.
    pub character: String,
    /// What it is, in a few words ("broken left arm").
    pub condition: String,
    /// injury, illness, disguise, state.
    #[serde(default)]
    pub kind: String,
    pub change: ConditionEvent,
    /// How it began or ended.
    #[serde(default)]
    pub note: String,
}

/// Whether a condition begins or ends.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConditionEvent {
    Began,
    Ended,
}

/// A relationship that formed or changed between two characters (ids).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RelationshipChange {
    pub character_a: String,
    pub character_b: String,
    /// ally, rival, family, romance, mentor, enemy, … (needed when the relationship is new).
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    #[schemars(range(min = 1, max = 10))]
    pub intensity: Option<u8>,
    /// How character_a sees character_b now, when the scene changed it.
    #[serde(default)]
    pub perspective_a: Option<String>,
    /// How character_b sees character_a now, when the scene changed it.
    #[serde(default)]
    pub perspective_b: Option<String>,
    /// What happened between them in this scene.
    #[serde(default)]
    pub event: Option<String>,
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LoopProgress {
    /// Open loop id, e.g. "O2".
    pub id: String,
    /// What happened to it in this scene.
    #[serde(default)]
    pub note: String,
}

/// What applying an extraction did.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ApplyReport {
    pub created: Vec<String>,
    pub updated: Vec<String>,
    pub contradictions: Vec<(String, Contradiction)>,
    /// Items that could not be applied, with the reason (the tick still commits).
    pub skipped: Vec<String>,
}

const SOURCE: &str = "extraction";

impl Extraction {
    /// Clamps what the schema cannot force on every provider (prompt-only ones especially).
    pub fn normalized(mut self) -> Extraction {
        self.title = crate::text::one_line(&self.title);
        self.summary.retain(|b| !b.trim().is_empty());
        self.summary.truncate(5);
        self.tension = self.tension.clamp(1, 10);
        self
    }

    /// Applies every item in its own savepoint; failures are reported, not fatal.
    pub fn apply(&self, tx: &Transaction<'_>, tick: u32) -> ApplyReport {
        let mut report = ApplyReport::default();
        self.create_new(tx, tick, &mut report);
        self.apply_changes(tx, tick, &mut report);
        report
    }

    /// New locations, characters, loops and lore; each in its own savepoint.
    fn create_new(&self, tx: &Transaction<'_>, tick: u32, report: &mut ApplyReport) {
        let mut attempt = |what: String, f: &mut dyn FnMut() -> Result<Vec<String>, String>| {
            match with_savepoint(tx, || f().map_err(SkipError)) {
                Ok(ids) => report.created.extend(ids),
                Err(SkipError(reason)) => report.skipped.push(skip_note(tx, &what, &reason)),
            }
        };
        for new in &self.new_locations {
            attempt(format!("new location {}", new.name), &mut || {
                memory::create_location(tx, new.clone(), tick, SOURCE)
                    .map(|l| vec![l.id])
                    .map_err(|e| e.to_string())
            });
        }
        for new in &self.new_characters {
            attempt(format!("new character {}", new.name), &mut || {
                memory::create_character(tx, new.clone(), tick, SOURCE)
                    .map(|c| vec![c.id])
                    .map_err(|e| e.to_string())
            });
        }
        for new in &self.loops_opened {
            attempt("new loop".into(), &mut || {
                // A twin of an open loop advances it: the created list names only new ones.
                memory::open_or_advance_loop(tx, new.clone(), tick, SOURCE)
                    .map(|(id, new)| if new { vec![id] } else { Vec::new() })
                    .map_err(|e| e.to_string())
            });
        }
        for new in &self.lore {
            attempt("lore".into(), &mut || {
                memory::add_lore(tx, new.clone(), tick, Some(tick), SOURCE)
                    .map(|f| vec![f.id])
                    .map_err(|e| e.to_string())
            });
        }
    }

    /// Updates to existing records, relationships and loops; each in its own savepoint, with
    /// contradictions collected rather than applied.
    fn apply_changes(&self, tx: &Transaction<'_>, tick: u32, report: &mut ApplyReport) {
        let mut updated = Vec::new();
        let mut contradictions = Vec::new();
        let mut skipped = Vec::new();
        let mut run = |what: String,
                       f: &mut dyn FnMut()
            -> Result<Option<crate::memory::UpdateReport>, String>| {
            match with_savepoint(tx, || f().map_err(SkipError)) {
                Ok(Some(r)) => {
                    if !r.applied.is_empty() {
                        updated.push(r.id.clone());
                    }
                    contradictions.extend(r.contradictions.into_iter().map(|c| (r.id.clone(), c)));
                }
                Ok(None) => {}
                Err(SkipError(reason)) => skipped.push(skip_note(tx, &what, &reason)),
            }
        };
        for change in &self.character_updates {
            run(format!("the change to {}", change.id), &mut || {
                change.apply::<Character>(tx, tick).map(Some)
            });
        }
        for c in &self.conditions {
            run(
                format!("the condition \"{}\" of {}", c.condition, c.character),
                &mut || {
                    match c.change {
                        ConditionEvent::Began => memory::begin_condition(
                            tx,
                            &c.character,
                            &c.condition,
                            &c.kind,
                            &c.note,
                            tick,
                            SOURCE,
                        ),
                        ConditionEvent::Ended => memory::end_condition(
                            tx,
                            &c.character,
                            &c.condition,
                            &c.note,
                            tick,
                            SOURCE,
                        ),
                    }
                    .map(|_| None)
                    .map_err(|e| e.to_string())
                },
            );
        }
        for change in &self.location_updates {
            run(format!("the change to {}", change.id), &mut || {
                change.apply::<Location>(tx, tick).map(Some)
            });
        }
        for change in &self.relationship_changes {
            run(
                format!(
                    "the relationship of {} and {}",
                    change.character_a, change.character_b
                ),
                &mut || apply_relationship(tx, change, tick),
            );
        }
        for (progress, status) in self
            .loops_advanced
            .iter()
            .map(|p| (p, LoopStatus::Open))
            .chain(
                self.loops_resolved
                    .iter()
                    .map(|p| (p, LoopStatus::Resolved)),
            )
        {
            run(format!("the change to {}", progress.id), &mut || {
                memory::change_loop(tx, &progress.id, status, &progress.note, tick, SOURCE)
                    .map(|_| None)
                    .map_err(|e| e.to_string())
            });
        }
        report.updated = updated;
        report.contradictions = contradictions;
        report.skipped.extend(skipped);
    }
}

impl RecordChange {
    /// Applies the change to the record of kind `R`: a recorded fact gives way only when the
    /// change says what in the scene changed it.
    fn apply<R: crate::memory::Record>(
        &self,
        tx: &Transaction<'_>,
        tick: u32,
    ) -> Result<crate::memory::UpdateReport, String> {
        let update = self.update();
        match self.because.as_deref().filter(|b| !b.trim().is_empty()) {
            Some(because) => {
                memory::update_record_shown::<R>(tx, &self.id, &update, because, tick, SOURCE)
            }
            None => memory::update_record::<R>(tx, &self.id, &update, tick, SOURCE),
        }
        .map_err(|e| e.to_string())
    }

    fn update(&self) -> EntityUpdate {
        EntityUpdate {
            changes: self.changes.clone(),
            append: self.append.clone(),
        }
    }
}

/// Creates the relationship when it is new (needs a kind), else records the change.
fn apply_relationship(
    tx: &Transaction<'_>,
    change: &RelationshipChange,
    tick: u32,
) -> Result<Option<crate::memory::UpdateReport>, String> {
    let exists = store::find_relationship(tx, &change.character_a, &change.character_b)
        .map_err(|e| e.to_string())?
        .is_some();
    if !exists {
        let kind = change
            .kind
            .clone()
            .filter(|k| !k.trim().is_empty())
            .ok_or("a new relationship needs a kind")?;
        memory::create_relationship(
            tx,
            NewRelationship {
                character_a: change.character_a.clone(),
                character_b: change.character_b.clone(),
                kind,
                status: change.status.clone(),
                intensity: change.intensity,
                perspective_a: change.perspective_a.clone().unwrap_or_default(),
                perspective_b: change.perspective_b.clone().unwrap_or_default(),
            },
            tick,
            SOURCE,
        )
        .map_err(|e| e.to_string())?;
        return Ok(None);
    }
    let args = RelationshipUpdateArgs {
        character_a: change.character_a.clone(),
        character_b: change.character_b.clone(),
        status: change.status.clone(),
        intensity: change.intensity,
        kind: change.kind.clone(),
        perspective_a: change
            .perspective_a
            .clone()
            .filter(|p| !p.trim().is_empty()),
        perspective_b: change
            .perspective_b
            .clone()
            .filter(|p| !p.trim().is_empty()),
        event: change.event.clone(),
    };
    RelationshipUpdate
        .run(tx, &ToolContext::at(tick), args)
        .map(Some)
        .map_err(|e: ToolError| e.to_string())
}

/// Why an item was left out, in the writer's words: things by name, never by id. An item about
/// a record the story does not have says so once (the note names it that way already).
fn skip_note(tx: &Transaction<'_>, what: &str, reason: &str) -> String {
    let missing = reason.ends_with(" does not exist")
        && reason
            .split_whitespace()
            .nth(1)
            .is_some_and(crate::ids::looks_like_id);
    if missing {
        name_ids(tx, what)
    } else {
        name_ids(tx, &format!("{what}: {}", fields_in_words(reason)))
    }
}

/// A memory error's "field `tension_level`" as the writer calls the field ("tension").
fn fields_in_words(reason: &str) -> String {
    let mut out = String::new();
    let mut rest = reason;
    while let Some(at) = rest.find("field `") {
        let after = &rest[at + "field `".len()..];
        let Some(end) = after.find('`') else { break };
        out.push_str(&rest[..at]);
        out.push_str(&label(&after[..end]));
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

struct SkipError(String);

impl From<rusqlite::Error> for SkipError {
    fn from(e: rusqlite::Error) -> Self {
        SkipError(e.to_string())
    }
}
