//! Store tests: migrations fresh and from the previous version, refusal of newer schemas, the
//! connection settings, id minting and savepoints.

use rusqlite::Connection;

use super::*;
use crate::ids::EntityKind;
use crate::layout::DB_FILE;

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(DB_FILE);
    (dir, path)
}

fn user_version(conn: &Connection) -> usize {
    let v: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    usize::try_from(v).unwrap()
}

fn table_exists(conn: &Connection, name: &str) -> bool {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .unwrap()
        == 1
}

#[test]
fn a_fresh_database_is_at_the_latest_version_with_wal_and_foreign_keys() {
    let (_dir, path) = temp_db();
    let store = Store::open(&path, true).unwrap();
    let conn = store.conn();
    assert_eq!(user_version(conn), SCHEMA_VERSION);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = conn
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
    for table in [
        "characters",
        "scenes",
        "ticks",
        "history",
        "search_index",
        "tick_failures",
    ] {
        assert!(table_exists(conn, table), "{table} missing");
    }
}

#[test]
fn a_version_1_database_is_upgraded_and_keeps_its_data() {
    let (_dir, path) = temp_db();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 1).unwrap();
        assert_eq!(user_version(&conn), 1);
        assert!(!table_exists(&conn, "search_index"));
        conn.execute(
            "INSERT INTO characters (id, name, status, data, created_tick, updated_tick)
             VALUES ('C0', 'Tamsin', 'alive', ?1, 0, 0)",
            [r#"{"id":"C0","name":"Tamsin","first_tick":0,"last_update_tick":0}"#],
        )
        .unwrap();
    }
    let mut store = Store::open(&path, false).unwrap();
    assert_eq!(user_version(store.conn()), SCHEMA_VERSION);
    assert!(table_exists(store.conn(), "search_index"));
    assert_eq!(
        get_character(store.conn(), "C0").unwrap().unwrap().name,
        "Tamsin"
    );
    // The upgrade refilled the derived index from the source tables; a rebuild agrees.
    assert_eq!(
        search(store.conn(), "tamsin", &[], 5).unwrap()[0].entity_id,
        "C0"
    );
    let tx = store.transaction().unwrap();
    assert_eq!(rebuild_search_index(&tx).unwrap(), 1);
    assert_eq!(search(&tx, "tamsin", &[], 5).unwrap()[0].entity_id, "C0");
}

#[test]
fn a_version_2_novel_is_upgraded_with_its_scenes_searchable_and_lore_without_aliases() {
    let (_dir, path) = temp_db();
    {
        let mut conn = Connection::open(&path).unwrap();
        migrations().to_version(&mut conn, 2).unwrap();
        conn.execute_batch(
            r#"INSERT INTO scenes (id, tick, title, prose, word_count, summary, created_at)
               VALUES ('S0', 1, 'The Ledger', 'Elena found the cut page.

The ferryman lied about the razor.', 12, '["Elena finds the ledger cut"]', 't');
               INSERT INTO lore (id, fact, category, importance, keywords, created_tick)
               VALUES ('W0', 'Ledgers are sealed by law.', 'law', 'high', '["ledger"]', 0);"#,
        )
        .unwrap();
    }
    let store = Store::open(&path, false).unwrap();
    let conn = store.conn();
    assert_eq!(user_version(conn), SCHEMA_VERSION);
    let hits = search(conn, "ferryman razor", &[EntityKind::Scene], 5).unwrap();
    assert_eq!(hits[0].entity_id, "S0");
    assert!(hits[0].snippet.contains("razor"), "{hits:?}");
    let parts: Vec<(String, ChunkPart)> = list_chunks(conn)
        .unwrap()
        .into_iter()
        .map(|c| (c.entity_id, c.part))
        .collect();
    assert!(parts.contains(&("S0".into(), ChunkPart::Summary)));
    assert!(parts.contains(&("S0".into(), ChunkPart::Prose)));
    let lore = list_lore(conn).unwrap();
    assert!(lore[0].aliases.is_empty() && !lore[0].always_on);
    // No vectors yet: everything waits for an embedder.
    assert_eq!(count_pending(conn).unwrap(), count_chunks(conn).unwrap());
}

#[test]
fn a_newer_schema_is_refused_with_the_file_named() {
    let (_dir, path) = temp_db();
    drop(Store::open(&path, true).unwrap());
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let err = Store::open(&path, false).unwrap_err();
    assert!(
        matches!(err, StoreError::NewerSchema { found: 99, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains(&path.display().to_string()) && msg.contains("newer"),
        "{msg}"
    );
}

#[test]
fn ids_are_minted_per_prefix_and_roll_back_with_the_transaction() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path, true).unwrap();
    {
        let tx = store.transaction().unwrap();
        assert_eq!(
            mint_id(&tx, EntityKind::Character).unwrap().to_string(),
            "C0"
        );
        assert_eq!(
            mint_id(&tx, EntityKind::Character).unwrap().to_string(),
            "C1"
        );
        assert_eq!(
            mint_id(&tx, EntityKind::Location).unwrap().to_string(),
            "L0"
        );
        tx.commit().unwrap();
    }
    {
        let tx = store.transaction().unwrap();
        assert_eq!(
            mint_id(&tx, EntityKind::Character).unwrap().to_string(),
            "C2"
        );
        // dropped without commit: rolled back
    }
    let tx = store.transaction().unwrap();
    assert_eq!(
        mint_id(&tx, EntityKind::Character).unwrap().to_string(),
        "C2"
    );
}

#[test]
fn a_failed_savepoint_undoes_only_its_own_writes() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path, true).unwrap();
    let tx = store.transaction().unwrap();
    mint_id(&tx, EntityKind::Lore).unwrap();
    let result: Result<(), StoreError> = with_savepoint(&tx, || {
        mint_id(&tx, EntityKind::Lore)?;
        Err(StoreError::NotFound("on purpose".into()))
    });
    assert!(result.is_err());
    assert_eq!(mint_id(&tx, EntityKind::Lore).unwrap().to_string(), "W1");
}

#[test]
fn an_edited_scene_is_searched_by_its_new_prose() {
    let (_dir, path) = temp_db();
    let mut store = Store::open(&path, true).unwrap();
    let tx = store.transaction().unwrap();
    let scene = crate::model::Scene {
        id: "S0".into(),
        tick: 1,
        title: "Low Tide".into(),
        pov_character: None,
        location: None,
        prose: "The lantern guttered on the quay.".into(),
        word_count: 6,
        summary: vec!["Night on the quay.".into()],
        tension: None,
        created_at: "t".into(),
    };
    insert_scene(&tx, &scene).unwrap();
    index_scene(&tx, &scene).unwrap();
    assert_eq!(search(&tx, "lantern", &[], 5).unwrap().len(), 1);
    assert!(update_scene_prose(&tx, "S0", "A heron stood in the shallows.", 6).unwrap());
    assert!(search(&tx, "lantern", &[], 5).unwrap().is_empty());
    assert_eq!(search(&tx, "heron", &[], 5).unwrap()[0].entity_id, "S0");
}

#[test]
fn another_programs_database_is_refused_not_turned_into_a_novel() {
    let (_dir, path) = temp_db();
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread');",
        )
        .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    for err in [
        Store::open(&path, false).unwrap_err(),
        Store::open_read_only(&path).unwrap_err(),
    ] {
        assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
        assert!(err.to_string().contains("no schema version"), "{err}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}
