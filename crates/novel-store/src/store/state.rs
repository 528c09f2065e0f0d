//! The single-row story state: current tick and active POV character.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::error::{StoreError, StoreResult};
use crate::model::StoryState;

pub fn init_state(tx: &Transaction<'_>, now: &str) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO story_state (id, current_tick, active_character, created_at, updated_at)
         VALUES (1, 0, NULL, ?1, ?1)",
        params![now],
    )?;
    Ok(())
}

pub fn load_state(conn: &Connection) -> StoreResult<StoryState> {
    conn.query_row(
        "SELECT current_tick, active_character, created_at, updated_at FROM story_state WHERE id = 1",
        [],
        |row| {
            Ok(StoryState {
                current_tick: row.get(0)?,
                active_character: row.get(1)?,
                created_at: row.get(2)?,
                updated_at: row.get(3)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound("story state".into()))
}

pub fn save_state(tx: &Transaction<'_>, state: &StoryState) -> StoreResult<()> {
    tx.execute(
        "UPDATE story_state SET current_tick = ?1, active_character = ?2, updated_at = ?3 WHERE id = 1",
        params![state.current_tick, state.active_character, state.updated_at],
    )?;
    Ok(())
}
