//! The check and revise steps: the deterministic checks read the scene against the novel's
//! point of view, tense and memory (as the tick's own transaction sees it, tools included);
//! when they find a violation the writer model revises once with the findings as its brief,
//! and the revision is checked again. What remains is recorded for the writer, not looped on —
//! except what cannot be a scene (commentary to the user instead of story, the wrong person
//! throughout; see `evaluate::blocks_commit`): that fails the tick with the draft and its
//! findings in the error file, and a run tries a fresh draft.

use rusqlite::Transaction;

use super::error::{AtStage, Failure, StepError};
use super::events::{Stage, TickEvent};
use super::planning::Acted;
use super::requests;
use super::state::TickRun;
use super::writing::{bound_prose, stream_prose};
use crate::config::Role;
use crate::evaluate::{self, Check, EvalInput, Finding};
use crate::model::{Character, Location, Step};
use crate::store::{self, StoreError};

/// The scene as it will be committed, with what the checks found.
pub(super) struct Checked {
    pub prose: String,
    /// The writer model's first draft, when the revision replaced it.
    pub draft: Option<String>,
    pub findings: Vec<Finding>,
    pub revised: bool,
    /// Whose eyes and where, as the scene was checked (and will be recorded).
    pub pov: Option<String>,
    pub location: Option<String>,
}

pub(super) async fn check_and_revise(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    draft: String,
) -> Result<Checked, Failure> {
    run.stage(Stage::Checking);
    let reading = std::time::Instant::now();
    let memory = Memory::read(&acted.tx, acted).at(Stage::Checking)?;
    run.time(Step::Checks, reading);
    let (prose, findings) = memory.check(run, draft);
    let findings = super::critic::second_opinion(run, acted, &prose, findings).await;
    if !evaluate::needs_revision(&findings) {
        return Ok(memory.into_checked(prose, None, findings));
    }
    run.stage(Stage::Revising);
    let mut reasons: Vec<&str> = findings
        .iter()
        .filter(|f| f.severity == evaluate::Severity::Violation)
        .map(|f| f.check.label())
        .collect();
    reasons.dedup();
    run.note(format!("revised once for: {}", reasons.join(", ")));
    let base = run.scene_base(acted).at(Stage::Revising)?;
    let request = requests::reviser(
        base,
        &run.config,
        &acted.plan,
        &prose,
        &evaluate::revision_brief(&findings),
    )
    .at(Stage::Revising)?;
    let revised = stream_prose(run, &request, Role::Reviser, Step::Revising)
        .await
        .at(Stage::Revising)?;
    run.partial.prose = Some(revised.clone());
    // What cannot be a scene at all (nothing, or a runaway) is refused after the one revision.
    let (_, unusable) = bound_prose(revised.clone(), &run.config.generation);
    if let Some(problem) = unusable.first() {
        return Err(StepError::ProseRejected(format!(
            "the revision did not produce a usable scene: {}",
            problem.message
        ))
        .at(Stage::Revising));
    }
    let (revised, findings) = memory.check(run, revised);
    let blocking = evaluate::blocks_commit(&findings);
    if !blocking.is_empty() {
        // Kept in the error file, with what the checks say of it: the writer can still take it.
        run.partial.prose = Some(revised.clone());
        run.partial.findings = serde_json::to_value(&findings).ok();
        return Err(StepError::ProseRejected(refusal(&blocking)).at(Stage::Revising));
    }
    Ok(memory.into_checked(revised, Some(prose), findings))
}

/// The scene's second chance, after it was read: it did not do what was planned, or it says
/// the opposite of the story memory, and the tick's one revision is unspent, so the writer
/// model revises once with `brief` (`why` names it in the tick's notes). The revision is
/// checked like any other; one that cannot be a scene, or that the checks would refuse to
/// commit, is dropped and the draft stays (it passed its checks), with a note. `None` means
/// the draft stays.
pub(super) async fn revise_after_reading(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    checked: &Checked,
    brief: &str,
    why: &str,
) -> Result<Option<Checked>, Failure> {
    run.stage(Stage::Revising);
    let memory = Memory::read(&acted.tx, acted).at(Stage::Revising)?;
    run.note(format!("revised once for: {why}"));
    let base = run.scene_base(acted).at(Stage::Revising)?;
    let request = requests::reviser(base, &run.config, &acted.plan, &checked.prose, brief)
        .at(Stage::Revising)?;
    let revised = stream_prose(run, &request, Role::Reviser, Step::Revising)
        .await
        .at(Stage::Revising)?;
    let (_, unusable) = bound_prose(revised.clone(), &run.config.generation);
    if let Some(problem) = unusable.first() {
        run.note(format!(
            "that revision was dropped ({}); the draft is kept",
            problem.message
        ));
        return Ok(None);
    }
    let (revised, findings) = memory.check(run, revised);
    if !evaluate::blocks_commit(&findings).is_empty() {
        run.note("that revision was dropped (it is not a scene); the draft is kept");
        run.emit(TickEvent::Findings {
            findings: checked.findings.clone(),
        });
        return Ok(None);
    }
    run.partial.prose = Some(revised.clone());
    Ok(Some(memory.into_checked(
        revised,
        Some(checked.prose.clone()),
        findings,
    )))
}

/// Why a revision cannot be kept, in a sentence: each check once, with the first words it
/// objected to (the findings in full are in the error file).
fn refusal(blocking: &[&Finding]) -> String {
    let mut checks: Vec<&str> = Vec::new();
    for f in blocking {
        let what = match f.check {
            Check::PersonDrift => "told in the wrong person",
            other => other.label(),
        };
        if !checks.contains(&what) {
            checks.push(what);
        }
    }
    let quotes: Vec<String> = blocking
        .iter()
        .filter_map(|f| f.excerpt.as_deref())
        .take(2)
        .map(|q| format!("\u{201c}{}\u{201d}", q.trim()))
        .collect();
    let mut text = format!("the revised scene is still {}", checks.join(" and "));
    if !quotes.is_empty() {
        text.push_str(&format!(" ({})", quotes.join(", ")));
    }
    text
}

/// The checks that judge a scene by the story's records (who is dead, where everyone is,
/// what was lost, what a character's record says).
const READS_RECORDS: [Check; 6] = [
    Check::DeadCharacter,
    Check::TwoPlaces,
    Check::LostItem,
    Check::Unreachable,
    Check::Contradiction,
    Check::OffPage,
];

/// What the checks read from the story memory, once per tick.
struct Memory {
    characters: Vec<Character>,
    /// The prose of the latest scenes, for phrases the new one repeats.
    recent: Vec<String>,
    locations: Vec<Location>,
    lost: Vec<evaluate::LostItem>,
    /// Deaths on earlier pages the POV character has not seen or heard of.
    off_page: Vec<evaluate::OffPageDeath>,
    pov: Option<String>,
    location: Option<String>,
}

impl Memory {
    fn read(tx: &Transaction<'_>, acted: &Acted<'_>) -> Result<Memory, StoreError> {
        let characters = store::list_characters(tx)?;
        let locations = store::list_locations(tx)?;
        let lost = evaluate::lost_items(tx, &characters)?;
        let recent: Vec<String> = store::recent_scenes(tx, evaluate::RECENT_SCENES)?
            .into_iter()
            .map(|s| s.prose)
            .collect();
        let plan = &acted.plan;
        let pov = plan
            .pov_character
            .clone()
            .filter(|id| characters.iter().any(|c| &c.id == id))
            .or_else(|| store::load_state(tx).ok().and_then(|s| s.active_character));
        let location = plan
            .target_location
            .clone()
            .filter(|id| locations.iter().any(|l| &l.id == id))
            .or_else(|| {
                let pov = pov.as_deref()?;
                characters
                    .iter()
                    .find(|c| c.id == pov)?
                    .last_location
                    .clone()
            });
        let off_page = match pov
            .as_deref()
            .and_then(|id| characters.iter().find(|c| c.id == id))
        {
            Some(who) => evaluate::off_page_deaths(tx, &characters, who, u32::MAX)?,
            None => Vec::new(),
        };
        Ok(Memory {
            characters,
            recent,
            locations,
            lost,
            off_page,
            pov,
            location,
        })
    }

    /// Bounds the prose, runs every check, and tells the observer what was found.
    fn check(&self, run: &mut TickRun<'_>, prose: String) -> (String, Vec<Finding>) {
        let started = std::time::Instant::now();
        let g = &run.config.generation;
        let (prose, mut findings) = bound_prose(prose, g);
        // A novel always has its protagonist; the blank stand-in only keeps the checks total.
        let fallback = Character::default();
        let pov_character = self
            .pov
            .as_deref()
            .and_then(|id| self.characters.iter().find(|c| c.id == id))
            .unwrap_or(&fallback);
        let location = self
            .location
            .as_deref()
            .and_then(|id| self.locations.iter().find(|l| l.id == id));
        let mut evaluated = evaluate::evaluate(&EvalInput {
            prose: &prose,
            pov: run.config.novel.pov,
            tense: run.config.novel.tense,
            pov_character,
            characters: &self.characters,
            scene_location: location,
            locations: &self.locations,
            lost_items: &self.lost,
            off_page: &self.off_page,
            target_words: (g.target_words_min, g.target_words_max),
        });
        if !findings.is_empty() {
            // The bound already said what is wrong with the length.
            evaluated.retain(|f| f.check != Check::Length);
        }
        findings.extend(evaluated);
        findings.extend(evaluate::repetition(&prose, &self.recent));
        if run.placed {
            // The records describe the end of the book, not the place of this scene: what
            // they contradict is for the writer to judge, not a reason to revise.
            for f in findings
                .iter_mut()
                .filter(|f| READS_RECORDS.contains(&f.check))
            {
                if f.severity == evaluate::Severity::Violation {
                    f.severity = evaluate::Severity::Warning;
                }
            }
        }
        run.time(Step::Checks, started);
        run.emit(TickEvent::Findings {
            findings: findings.clone(),
        });
        (prose, findings)
    }

    fn into_checked(self, prose: String, draft: Option<String>, findings: Vec<Finding>) -> Checked {
        Checked {
            prose,
            revised: draft.is_some(),
            draft,
            findings,
            pov: self.pov,
            location: self.location,
        }
    }
}
