//! Checking any text against a novel — a writer's own draft, a stored scene, the app's "Check
//! this scene": the story memory is read from the store (characters, locations and their
//! connections, lost items from the history log, the last scenes' prose for repetition) and
//! every check runs with the novel's point of view and tense. No front-end concern lives here.

use std::collections::BTreeSet;

use rusqlite::Connection;

use super::finding::Finding;
use super::input::{EvalInput, LostItem};
use super::knowledge::off_page_deaths;
use super::run::evaluate;
use super::style::repetition;
use crate::config::NovelConfig;
use crate::model::Character;
use crate::store::{self, StoreError, StoreResult};

/// How many of the latest scenes a text is compared with for repeated phrases.
pub const RECENT_SCENES: u32 = 3;

/// Whose eyes and which place a text is checked as; `None` takes the default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckScope {
    /// The POV character's id. Default: the story's active character, else the first one.
    pub pov_character: Option<String>,
    /// Where the scene happens (a location id). Default: the POV character's last location.
    pub location: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no character {0} in this novel; `novel list characters` shows the ids")]
    UnknownCharacter(String),
    #[error("no location {0} in this novel; `novel list locations` shows the ids")]
    UnknownLocation(String),
    #[error("there is no scene for tick {0}; `novel list scenes` shows them")]
    UnknownScene(u32),
}

/// Every check on the stored scene of `tick` — its prose as of its own tick, through its POV
/// character's eyes and at its place — and its title: the app's "Check this scene".
pub fn check_scene(
    conn: &Connection,
    config: &NovelConfig,
    tick: u32,
) -> Result<Vec<Finding>, CheckError> {
    let scene = store::list_scenes(conn)?
        .into_iter()
        .find(|s| s.tick == tick)
        .ok_or(CheckError::UnknownScene(tick))?;
    let known = |id: &Option<String>, exists: bool| id.clone().filter(|_| exists);
    let pov_exists = match &scene.pov_character {
        Some(id) => store::get_character(conn, id)?.is_some(),
        None => false,
    };
    let place_exists = match &scene.location {
        Some(id) => store::get_location(conn, id)?.is_some(),
        None => false,
    };
    let scope = CheckScope {
        pov_character: known(&scene.pov_character, pov_exists),
        location: known(&scene.location, place_exists),
    };
    let mut findings = check_text(conn, config, &scope, &scene.prose)?;
    if let Some(f) = super::title::check_title(&scene.title) {
        findings.insert(0, f);
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    Ok(findings)
}

/// Runs every check over `text` as a scene of this novel, read against its story memory.
/// Findings carry character offsets into `text`, the sentence and the record they concern.
pub fn check_text(
    conn: &Connection,
    config: &NovelConfig,
    scope: &CheckScope,
    text: &str,
) -> Result<Vec<Finding>, CheckError> {
    let characters = store::list_characters(conn)?;
    let locations = store::list_locations(conn)?;
    let lost = lost_items(conn, &characters)?;
    let state = store::load_state(conn)?;
    let scenes = store::list_scenes(conn)?;
    // A stored scene is read as of its own tick; any other text as the next scene.
    let before = scenes
        .iter()
        .find(|s| s.prose.trim() == text.trim())
        .map_or_else(
            || {
                let last = scenes.last().map_or(0, |s| s.tick);
                state.current_tick.max(last).saturating_add(1)
            },
            |s| s.tick,
        );
    let characters = conditions_as_of(characters, before);
    let pov_id = scope.pov_character.clone().or(state.active_character);
    let fallback = Character::default();
    let pov_character = match pov_id.as_deref() {
        Some(id) => characters
            .iter()
            .find(|c| c.id == id)
            .ok_or_else(|| CheckError::UnknownCharacter(id.to_string()))?,
        None => characters.first().unwrap_or(&fallback),
    };
    let location_id = scope
        .location
        .as_deref()
        .or(pov_character.last_location.as_deref());
    let scene_location = match location_id {
        Some(id) => Some(
            locations
                .iter()
                .find(|l| l.id == id || l.name.eq_ignore_ascii_case(id))
                .ok_or_else(|| CheckError::UnknownLocation(id.to_string()))?,
        ),
        None => None,
    };
    let off_page = off_page_deaths(conn, &characters, pov_character, before)?;
    let mut findings = evaluate(&EvalInput {
        prose: text,
        pov: config.novel.pov,
        tense: config.novel.tense,
        pov_character,
        characters: &characters,
        scene_location,
        locations: &locations,
        lost_items: &lost,
        off_page: &off_page,
        target_words: (
            config.generation.target_words_min,
            config.generation.target_words_max,
        ),
    });
    let recent = recent_prose(&scenes, text);
    findings.extend(repetition(text, &recent));
    Ok(findings)
}

/// The characters with their conditions as they stood in the scene of `tick`: one that began
/// there or later is not yet, one that ended there is the scene's own healing (not held
/// against it), one that ended later was still on.
fn conditions_as_of(mut characters: Vec<Character>, tick: u32) -> Vec<Character> {
    for c in &mut characters {
        c.conditions
            .retain(|k| k.since_tick < tick && k.until_tick != Some(tick));
        for k in &mut c.conditions {
            if k.until_tick.is_some_and(|u| u > tick) {
                k.until_tick = None;
            }
        }
    }
    characters
}

/// The prose of the latest scenes before `text`: when `text` is itself a stored scene, the
/// scenes before it; otherwise the last [`RECENT_SCENES`].
fn recent_prose(scenes: &[crate::model::Scene], text: &str) -> Vec<String> {
    let own = scenes.iter().position(|s| s.prose.trim() == text.trim());
    let before = own.unwrap_or(scenes.len());
    let from = before.saturating_sub(RECENT_SCENES as usize);
    scenes[from..before]
        .iter()
        .map(|s| s.prose.clone())
        .collect()
}

/// Items characters are known to have lost: every inventory change in the history log that
/// removed an item, unless a later change, or the character's inventory now, gave it back.
pub fn lost_items(conn: &Connection, characters: &[Character]) -> StoreResult<Vec<LostItem>> {
    let mut lost = Vec::new();
    for c in characters {
        let mut mine: Vec<LostItem> = Vec::new();
        for h in store::history_of(conn, &c.id)?
            .iter()
            .filter(|h| h.field == "inventory")
        {
            let (old, new) = (items(&h.old_value), items(&h.new_value));
            mine.retain(|l| !new.contains(&l.item));
            for item in old.difference(&new) {
                mine.push(LostItem {
                    character_id: c.id.clone(),
                    character_name: c.name.clone(),
                    item: item.clone(),
                    tick: h.tick,
                });
            }
        }
        mine.retain(|l| !c.inventory.contains(&l.item));
        lost.extend(mine);
    }
    Ok(lost)
}

fn items(value: &Option<serde_json::Value>) -> BTreeSet<String> {
    value
        .as_ref()
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::fixture::novel;

    #[test]
    fn a_stored_scene_is_checked_through_its_own_pov_and_a_missing_one_is_named() {
        let mut f = novel(3);
        let tx = f.store.transaction().unwrap();
        tx.execute(
            "UPDATE scenes SET prose = 'Elena opened the ledger. Unbeknownst to her, Marcus \
             had already burned the page.', title = ',' WHERE tick = 2",
            [],
        )
        .unwrap();
        tx.commit().unwrap();
        let findings = check_scene(f.store.conn(), &f.config, 2).unwrap();
        let checks: Vec<_> = findings.iter().map(|f| f.check).collect();
        assert!(checks.contains(&super::super::Check::PovLeak), "{checks:?}");
        assert!(checks.contains(&super::super::Check::Title), "{checks:?}");
        assert!(matches!(
            check_scene(f.store.conn(), &f.config, 9),
            Err(CheckError::UnknownScene(9))
        ));
    }

    #[test]
    fn a_stored_scene_is_held_to_the_injuries_of_its_own_time() {
        let mut f = novel(3);
        let tx = f.store.transaction().unwrap();
        let mut marcus = store::get_character(&tx, "C1").unwrap().unwrap();
        marcus.conditions.push(crate::model::Condition {
            name: "broken left leg".into(),
            kind: "injury".into(),
            since_tick: 1,
            until_tick: Some(3),
            note: String::new(),
        });
        store::save_character(&tx, &marcus).unwrap();
        for tick in 1..=3 {
            tx.execute(
                "UPDATE scenes SET prose = ?1 WHERE tick = ?2",
                rusqlite::params![format!("Marcus ran for the door ({tick})."), tick],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let injured = |tick| {
            check_scene(f.store.conn(), &f.config, tick)
                .unwrap()
                .iter()
                .any(|x| {
                    x.check == super::super::Check::Contradiction
                        && x.record.as_deref() == Some("C1")
                })
        };
        assert!(!injured(1), "the scene that broke it");
        assert!(injured(2), "the leg was broken then");
        assert!(!injured(3), "the scene that healed it");
    }
}
