//! Whether the agent can write the book's last scene again, and which recorded change that
//! undoes. "Write scene N again" replaces the agent's own latest scene; it is refused, with the
//! reason, for a scene the agent did not write (imported from a manuscript, written by hand), for
//! one it wrote from the writer's note at a place in the book, and for a book reshaped since the
//! agent's scene (another scene is last now). The overview asks
//! the same question, so the app offers the action only when it would be accepted.

use rusqlite::Connection;

use crate::branches::{self, BranchError};
use crate::store::{self, VersionOrigin};

/// The recorded change that committed scene `tick` (the book's last), when the agent can write
/// it again; otherwise why not. `Ok(None)` is a scene from before history was recorded, which
/// the caller refuses as before history.
pub fn agent_scene_change(conn: &Connection, tick: u32) -> Result<Option<i64>, BranchError> {
    let versions = store::versions_of(conn, tick)?;
    // Every text the scene ever had came from the writer's hand: added (or split off) by hand.
    if !versions.is_empty() && versions.iter().all(|v| v.origin == VersionOrigin::Edit) {
        return Err(BranchError::WrittenByHand { tick });
    }
    // Written from the writer's note at a place (`shape::write_scene`): no tick committed it,
    // and writing it again as the next scene would drop the note.
    let plan = store::get_tick(conn, tick)?.and_then(|t| t.plan);
    let rationale = plan.as_ref().map(|p| &p["rationale"]);
    if rationale.is_some_and(|r| r == crate::tick::PLACED_RATIONALE) {
        return Err(BranchError::WrittenFromNote { tick });
    }
    // The import's stand-in plan follows its scene when the book is reshaped.
    if rationale.is_some_and(|r| r == crate::tick::IMPORTED_RATIONALE) {
        return Err(BranchError::Imported { tick });
    }
    // The import records the tick each manuscript scene was committed as. A scene the agent
    // writes at that number after a rewind past the import would read as imported too: the
    // import bookkeeping is never rewound, and refusing is the safe side.
    if store::import_scenes(conn)?
        .iter()
        .any(|s| s.tick == Some(tick))
    {
        return Err(BranchError::Imported { tick });
    }
    let seq = match branches::change_of_tick(conn, tick) {
        Ok(Some(seq)) => seq,
        Ok(None) => return Ok(None),
        // The scene is there, but no recorded change wrote a scene at its number since: the
        // writer added or moved scenes before it.
        Err(BranchError::NoSuchScene { .. }) => return Err(BranchError::Reshaped { tick }),
        Err(e) => return Err(e),
    };
    if !wrote_last_scene(conn, seq, tick)? {
        return Err(BranchError::Reshaped { tick });
    }
    Ok(Some(seq))
}

/// Why the agent cannot write the latest scene `tick` again, in the writer's words; `None`
/// when it can. Only a failure to read the store is an error.
pub fn write_again_refusal(
    conn: &Connection,
    tick: u32,
) -> Result<Option<String>, store::StoreError> {
    match agent_scene_change(conn, tick) {
        Ok(Some(_)) => Ok(None),
        Ok(None) => Ok(Some(
            BranchError::BeforeHistory {
                tick,
                baseline: store::head(conn)?.baseline_tick,
            }
            .to_string(),
        )),
        Err(BranchError::Store(e)) => Err(e),
        Err(refused) => Ok(Some(refused.to_string())),
    }
    .map(|why| why.map(sentence))
}

/// The refusal as the app shows it: a capitalised sentence with its full stop.
fn sentence(text: String) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// Whether the scene change `seq` wrote at `tick` is still the book's last scene: after the
/// writer added, moved or deleted scenes (`shape`), the last scene may be another one, and
/// writing "it" again would undo their shaping and replace a different scene.
fn wrote_last_scene(conn: &Connection, seq: i64, tick: u32) -> Result<bool, BranchError> {
    let written = store::touched_rows(conn, seq)?
        .into_iter()
        .find(|r| r.table == "scenes" && r.scene_tick == Some(tick))
        .map(|r| r.id);
    let last = store::list_scenes(conn)?.pop().map(|s| s.id);
    Ok(written.is_none() || written == last)
}
