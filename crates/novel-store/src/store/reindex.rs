//! Passages brought back in line with the records they index: one record after a change
//! (`reindex_record`, which leaves unchanged passages and their vectors alone), or every
//! passage rebuilt from the source tables. Above both the records and the index, so neither
//! needs the other.

use rusqlite::Transaction;

use super::chunks::prose_chunks;
use super::error::StoreResult;
use super::search::{
    SearchDocument, character_document, index_document, index_scene, location_document,
    loop_document, lore_document, relationship_document, scene_document,
};
use super::{
    count_chunks, get_character, get_location, get_loop, get_lore, get_relationship, get_scene,
    list_characters, list_locations, list_loops, list_lore, list_relationships, list_scenes,
};
use crate::model::Scene;

/// Makes the passages of the record `id` of `table` match the record as it is now (or removes
/// them when it no longer exists). Passages whose text is unchanged keep their vectors.
/// Returns whether anything had to change.
pub fn reindex_record(tx: &Transaction<'_>, table: &str, id: &str) -> StoreResult<bool> {
    let expected: Option<Vec<(String, String)>> = match table {
        "characters" => get_character(tx, id)?.map(|c| record_passage(&character_document(&c))),
        "locations" => get_location(tx, id)?.map(|l| record_passage(&location_document(&l))),
        "relationships" => {
            get_relationship(tx, id)?.map(|r| record_passage(&relationship_document(&r)))
        }
        "open_loops" => get_loop(tx, id)?.map(|l| record_passage(&loop_document(&l))),
        "lore" => get_lore(tx, id)?.map(|f| record_passage(&lore_document(&f))),
        "scenes" => get_scene(tx, id)?.map(|s| scene_passages(&s)),
        _ => return Ok(false),
    };
    let mut stmt = tx.prepare_cached(
        "SELECT title, body FROM search_chunks WHERE entity_id = ?1 ORDER BY part, seq",
    )?;
    let mut current: Vec<(String, String)> = stmt
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut wanted = expected.clone().unwrap_or_default();
    current.sort();
    wanted.sort();
    if current == wanted {
        return Ok(false);
    }
    match table {
        "scenes" => match get_scene(tx, id)? {
            Some(scene) => index_scene(tx, &scene)?,
            None => delete_passages(tx, id)?,
        },
        _ => match expected {
            Some(_) => reindex_document(tx, table, id)?,
            None => delete_passages(tx, id)?,
        },
    }
    Ok(true)
}

fn record_passage(doc: &SearchDocument) -> Vec<(String, String)> {
    vec![(doc.title.clone(), doc.body.clone())]
}

fn scene_passages(scene: &Scene) -> Vec<(String, String)> {
    let summary = scene_document(scene);
    let mut out = vec![(summary.title.clone(), summary.body.clone())];
    out.extend(
        prose_chunks(&scene.prose)
            .into_iter()
            .map(|body| (summary.title.clone(), body)),
    );
    out
}

fn reindex_document(tx: &Transaction<'_>, table: &str, id: &str) -> StoreResult<()> {
    let doc = match table {
        "characters" => get_character(tx, id)?.map(|c| character_document(&c)),
        "locations" => get_location(tx, id)?.map(|l| location_document(&l)),
        "relationships" => get_relationship(tx, id)?.map(|r| relationship_document(&r)),
        "open_loops" => get_loop(tx, id)?.map(|l| loop_document(&l)),
        "lore" => get_lore(tx, id)?.map(|f| lore_document(&f)),
        _ => None,
    };
    match doc {
        Some(doc) => index_document(tx, &doc),
        None => Ok(()),
    }
}

fn delete_passages(tx: &Transaction<'_>, entity_id: &str) -> StoreResult<()> {
    tx.execute(
        "DELETE FROM search_chunks WHERE entity_id = ?1",
        [entity_id],
    )?;
    Ok(())
}

/// Drops and recreates every passage from the source tables (their vectors go with them);
/// returns the number of passages.
pub fn rebuild_search_index(tx: &Transaction<'_>) -> StoreResult<usize> {
    tx.execute("DELETE FROM search_chunks", [])?;
    let mut docs = Vec::new();
    docs.extend(list_characters(tx)?.iter().map(character_document));
    docs.extend(list_locations(tx)?.iter().map(location_document));
    docs.extend(
        list_relationships(tx, None)?
            .iter()
            .map(relationship_document),
    );
    docs.extend(list_loops(tx, None)?.iter().map(loop_document));
    docs.extend(list_lore(tx)?.iter().map(lore_document));
    for doc in &docs {
        index_document(tx, doc)?;
    }
    for scene in list_scenes(tx)? {
        index_scene(tx, &scene)?;
    }
    count_chunks(tx)
}
