//! The book's order. A scene's tick is its place in the book (what the writer calls scene 3),
//! so when the writer adds, moves, merges or deletes a scene, the scenes after it are
//! renumbered — and with them every column that names a scene by its tick (the tick's plan
//! record, its passages, when a record was created or last changed, when a loop opened, the
//! history log), so "opened in scene 12" still points at the same scene. Renumbering is plain
//! row updates inside the caller's recorded transaction, so undoing it is exact (see
//! `schema/009_scene_order.sql` for why `scenes.tick` is not UNIQUE).

use std::collections::BTreeMap;

use rusqlite::{Connection, Transaction};

use super::error::StoreResult;

/// Every (table, column) that names a scene by its tick. Tables a build does not have yet are
/// skipped. Ticks scheduled ahead (story events) and the recorded history itself (`changes`)
/// keep their numbers: they are not places in the book.
const TICK_COLUMNS: [(&str, &str); 16] = [
    ("scenes", "tick"),
    ("ticks", "tick"),
    ("plan_verdicts", "tick"),
    ("search_chunks", "tick"),
    ("characters", "created_tick"),
    ("characters", "updated_tick"),
    ("locations", "created_tick"),
    ("locations", "updated_tick"),
    ("relationships", "created_tick"),
    ("relationships", "updated_tick"),
    ("open_loops", "opened_tick"),
    ("open_loops", "resolved_tick"),
    ("lore", "source_tick"),
    ("lore", "created_tick"),
    ("history", "tick"),
    ("outline_beats", "done_tick"),
];

/// Added to a new number while a table is renumbered, so that no row ever takes a number
/// another row still has (the `ticks` primary key is checked row by row).
const PARKED: i64 = 1 << 40;

fn has_table(conn: &Connection, table: &str) -> StoreResult<bool> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
        [table],
        |r| r.get(0),
    )?)
}

/// Gives every tick `old` in `map` the number `map[old]`, in every column that names a scene by
/// its tick. Numbers not in `map` are kept. The caller makes sure the scenes end up with
/// distinct ticks (several old numbers may map to one new number for the other columns: a
/// merged or deleted scene's facts move to the scene that takes them).
pub fn renumber_ticks(tx: &Transaction<'_>, map: &BTreeMap<u32, u32>) -> StoreResult<()> {
    let moved: Vec<(u32, u32)> = map
        .iter()
        .filter(|(old, new)| old != new)
        .map(|(&o, &n)| (o, n))
        .collect();
    if moved.is_empty() {
        return Ok(());
    }
    // The CASE is made of integers only, never of text from a model or the writer.
    let cases: String = moved
        .iter()
        .map(|(old, new)| format!(" WHEN {old} THEN {}", i64::from(*new) + PARKED))
        .collect();
    let olds: Vec<String> = moved.iter().map(|(old, _)| old.to_string()).collect();
    let olds = olds.join(", ");
    for (table, column) in TICK_COLUMNS {
        if !has_table(tx, table)? {
            continue;
        }
        tx.execute(
            &format!(
                "UPDATE {table} SET {column} = CASE {column}{cases} END WHERE {column} IN ({olds})"
            ),
            [],
        )?;
        tx.execute(
            &format!(
                "UPDATE {table} SET {column} = {column} - {PARKED} WHERE {column} >= {PARKED}"
            ),
            [],
        )?;
    }
    Ok(())
}

/// Removes the scene `id` at `tick` from the story: its row, its passages, and the record of
/// the tick that wrote it (its plan and verdict). Its versions stay (they are never deleted).
pub fn remove_scene(tx: &Transaction<'_>, id: &str, tick: u32) -> StoreResult<()> {
    tx.execute("DELETE FROM scenes WHERE id = ?1", [id])?;
    tx.execute("DELETE FROM search_chunks WHERE entity_id = ?1", [id])?;
    tx.execute("DELETE FROM ticks WHERE tick = ?1", [tick])?;
    if has_table(tx, "plan_verdicts")? {
        tx.execute("DELETE FROM plan_verdicts WHERE tick = ?1", [tick])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn a_rotation_renumbers_scenes_and_the_columns_that_name_them() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = Store::open(&tmp.path().join("novel.db"), true).unwrap();
        let tx = store.transaction().unwrap();
        for tick in 1..=3u32 {
            tx.execute(
                "INSERT INTO scenes (id, tick, title, prose, word_count, summary, created_at)
                 VALUES (?1, ?2, 't', 'p', 1, '[]', '')",
                rusqlite::params![format!("S{tick}"), tick],
            )
            .unwrap();
            tx.execute(
                "INSERT INTO ticks (tick, started_at, finished_at) VALUES (?1, '', '')",
                [tick],
            )
            .unwrap();
        }
        // Scene 3 moves to the front: 3→1, 1→2, 2→3 (a cycle: no row order frees a number).
        let map = BTreeMap::from([(1, 2), (2, 3), (3, 1)]);
        renumber_ticks(&tx, &map).unwrap();
        let order: Vec<String> = tx
            .prepare("SELECT id FROM scenes ORDER BY tick")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(order, ["S3", "S1", "S2"]);
        let ticks: Vec<u32> = tx
            .prepare("SELECT tick FROM ticks ORDER BY tick")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(ticks, [1, 2, 3]);
    }
}
