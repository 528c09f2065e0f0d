//! What each character can know: a death that happened on the page is known to the characters
//! who were in that scene (its POV character, or named in it) and to those who are later in a
//! scene that talks of the dead person; everyone else has not seen or heard of it yet. Read
//! from the stored scenes and the history log, so it is derived data and needs no table of its
//! own. The check built on it: narration in deep point of view that states a death the POV
//! character has no way of knowing ("Silas Crane was dead" when she was not there and no scene
//! has told her) is the narrator knowing what the character cannot.
//!
//! Precision first: a death with no scene at its tick (set by hand, imported) has no known
//! witnesses and is never a finding, and learning on this very page — the dead person named in
//! dialogue, a report word ("told", "news", "a letter") in the sentence or the two before it —
//! makes the statement fair.

use std::collections::BTreeSet;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ctx::Ctx;
use super::facts::stated_deaths;
use super::finding::{Check, Finding, Severity};
use super::input::OffPageDeath;
use super::text::name_variants;
use crate::model::{Character, LifeStatus, Scene};
use crate::store::{self, StoreResult};

/// How a character came to know of a death.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Learned {
    /// They were in the scene where it happened.
    Witnessed,
    /// A later scene with them in it talks of the dead person.
    Told,
}

/// The deaths before tick `before` that `pov` has not been shown learning of. Only characters
/// recorded dead whose death the history log dates to a tick with a scene count.
pub fn off_page_deaths(
    conn: &Connection,
    characters: &[Character],
    pov: &Character,
    before: u32,
) -> StoreResult<Vec<OffPageDeath>> {
    let mut out = Vec::new();
    for c in characters
        .iter()
        .filter(|c| c.status == LifeStatus::Dead && c.id != pov.id)
    {
        let Some(died) = death_tick(conn, &c.id)? else {
            continue;
        };
        if died >= before {
            continue;
        }
        let scenes = store::scenes_between(conn, died, before)?;
        if scenes.first().is_none_or(|s| s.tick != died) {
            continue;
        }
        if learned(&scenes, died, pov, c).is_none() {
            out.push(OffPageDeath {
                character_id: c.id.clone(),
                character_name: c.name.clone(),
                tick: died,
            });
        }
    }
    Ok(out)
}

/// One death shown on the page, and whether (how, when) a character knows of it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathKnowledge {
    pub character_id: String,
    pub character_name: String,
    /// The tick whose scene shows the death.
    pub died: u32,
    /// When and how the character learned of it; `None`: not yet.
    pub learned: Option<(u32, Learned)>,
}

/// Every death on the page so far, as `who` knows it: what they witnessed, were told, or have
/// not heard of yet.
pub fn deaths_known_to(
    conn: &Connection,
    characters: &[Character],
    who: &Character,
) -> StoreResult<Vec<DeathKnowledge>> {
    let mut out = Vec::new();
    for c in characters
        .iter()
        .filter(|c| c.status == LifeStatus::Dead && c.id != who.id)
    {
        let Some(died) = death_tick(conn, &c.id)? else {
            continue;
        };
        let scenes = store::scenes_between(conn, died, u32::MAX)?;
        if scenes.first().is_none_or(|s| s.tick != died) {
            continue;
        }
        out.push(DeathKnowledge {
            character_id: c.id.clone(),
            character_name: c.name.clone(),
            died,
            learned: learned(&scenes, died, who, c),
        });
    }
    out.sort_by_key(|k| k.died);
    Ok(out)
}

/// The ticks of the scenes `who` was in (their point of view, or named on the page): what they
/// have witnessed, in story order.
pub fn scenes_witnessed(conn: &Connection, who: &Character) -> StoreResult<Vec<u32>> {
    let names = name_variants(who);
    Ok(store::scenes_between(conn, 0, u32::MAX)?
        .iter()
        .filter(|s| {
            s.pov_character.as_deref() == Some(who.id.as_str()) || mentions(&s.prose, &names)
        })
        .map(|s| s.tick)
        .collect())
}

/// How and when `who` learned of `dead`'s death at tick `died`, from the scenes since.
pub fn learned(
    scenes: &[Scene],
    died: u32,
    who: &Character,
    dead: &Character,
) -> Option<(u32, Learned)> {
    let who_names = name_variants(who);
    let dead_names = name_variants(dead);
    scenes.iter().filter(|s| s.tick >= died).find_map(|s| {
        let there =
            s.pov_character.as_deref() == Some(who.id.as_str()) || mentions(&s.prose, &who_names);
        if !there {
            None
        } else if s.tick == died {
            Some((s.tick, Learned::Witnessed))
        } else {
            mentions(&s.prose, &dead_names).then_some((s.tick, Learned::Told))
        }
    })
}

/// The tick of the latest change that recorded the character dead.
fn death_tick(conn: &Connection, id: &str) -> StoreResult<Option<u32>> {
    let dead = Value::String(LifeStatus::Dead.as_str().into());
    Ok(store::history_of(conn, id)?
        .iter()
        .filter(|h| h.field == "status")
        .filter(|h| {
            h.new_value
                .as_ref()
                .is_some_and(|v| *v == dead || v.get("status") == Some(&dead))
        })
        .map(|h| h.tick)
        .next_back())
}

/// Whether any of the name variants is written in `text` as whole words.
fn mentions(text: &str, variants: &[Vec<String>]) -> bool {
    variants.iter().any(|words| {
        let name = words.join(" ");
        text.match_indices(&name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// Words that show news reaching the POV character on the page.
#[rustfmt::skip]
const REPORT: &[&str] = &[
    "told", "tell", "tells", "telling", "heard", "hear", "hears", "news", "letter", "learned",
    "learnt", "learns", "message", "rumour", "rumor", "reported", "announced", "wrote", "written", "telegram", "word", "body", "corpse", "grave", "funeral",
    "buried", "burial", "found",
];

/// Words that make a report hypothetical rather than news that came.
const HYPOTHETICAL: &[&str] = &[
    "would", "could", "might", "should", "if", "whether", "unless",
];

/// How many sentences after a report word a statement of the death still counts as learned.
const REPORT_REACH: usize = 2;

pub(super) fn off_page_knowledge(ctx: &Ctx<'_>) -> Vec<Finding> {
    let unknown: Vec<(usize, &OffPageDeath)> = ctx
        .input
        .off_page
        .iter()
        .filter_map(|d| {
            let who = ctx.people.iter().position(|c| c.id == d.character_id)?;
            Some((who, d))
        })
        .collect();
    if unknown.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut learned_here: BTreeSet<usize> = BTreeSet::new();
    let mut last_report: Option<usize> = None;
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        let whole = &ctx.prose.original[s.start..s.end];
        let lower = whole.to_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !c.is_alphabetic()).collect();
        // News that arrives, not news that might ("how long they would take to answer a letter").
        if words.iter().any(|w| REPORT.contains(w))
            && !words.iter().any(|w| HYPOTHETICAL.contains(w))
        {
            last_report = Some(si);
        }
        let in_narration: BTreeSet<usize> = ctx.hits(s).iter().map(|h| h.who).collect();
        for (who, _) in &unknown {
            // Named in this sentence's dialogue: someone says it in front of the POV character.
            if !in_narration.contains(who) && mentions(whole, &name_variants(ctx.people[*who])) {
                learned_here.insert(*who);
            }
        }
        let reported = last_report.is_some_and(|r| si - r <= REPORT_REACH);
        for (who, from, to) in stated_deaths(ctx, s) {
            let Some((_, death)) = unknown.iter().find(|(w, _)| *w == who) else {
                continue;
            };
            if reported || learned_here.contains(&who) {
                continue;
            }
            let (start, end) = (s.tokens[from].start, s.tokens[to].end);
            let excerpt = ctx.prose.excerpt(s, start);
            let pov = ctx.pov_name();
            out.push(
                Finding::new(
                    Check::OffPage,
                    Severity::Violation,
                    format!(
                        "{pov} cannot know that {dead} is dead: {dead} died in the scene of tick \
                         {tick}, which {pov} was not in, and no scene since shows {pov} \
                         learning of it — “{excerpt}”. Let {pov} learn it on the page (someone \
                         tells, a letter, the body found), or keep the narration to what {pov} \
                         has seen and heard.",
                        dead = death.character_name.trim(),
                        tick = death.tick,
                    ),
                    Some(excerpt),
                )
                .at(&ctx.prose, s, start, end)
                .about(&death.character_id),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(id: &str, name: &str) -> Character {
        Character {
            id: id.into(),
            name: name.into(),
            ..Character::default()
        }
    }

    fn scene(tick: u32, pov: &str, prose: &str) -> Scene {
        Scene {
            id: format!("S{tick}"),
            tick,
            title: "t".into(),
            pov_character: Some(pov.into()),
            location: None,
            prose: prose.into(),
            word_count: 0,
            summary: Vec::new(),
            tension: None,
            created_at: String::new(),
        }
    }

    #[test]
    fn witnesses_are_those_in_the_death_scene_and_the_told_are_those_in_a_later_scene_about_it() {
        let (mara, silas, tobin, wren) = (
            person("C1", "Mara Voss"),
            person("C2", "Silas Crane"),
            person("C3", "Tobin Hale"),
            person("C4", "Wren Ash"),
        );
        let scenes = [
            scene(4, "C3", "Silas fell from the quay while Tobin watched."),
            scene(5, "C1", "Mara mended nets all day."),
            scene(6, "C4", "Wren told Mara that Silas Crane had drowned."),
        ];
        assert_eq!(
            learned(&scenes, 4, &tobin, &silas),
            Some((4, Learned::Witnessed))
        );
        assert_eq!(learned(&scenes, 4, &mara, &silas), Some((6, Learned::Told)));
        assert_eq!(learned(&scenes[..2], 4, &mara, &silas), None);
        // "Wrenfield" is not Wren: names match as whole words only.
        let other = [scene(4, "C3", "At Wrenfield, Silas fell.")];
        assert_eq!(learned(&other, 4, &wren, &silas), None);
    }
}
