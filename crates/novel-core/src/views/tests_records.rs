//! The fronts' list and inspect read models: a kind's records serialize as the bare list the
//! CLI has always printed, and an inspected record comes with its full history.

use super::*;
use crate::context::fixture;
use crate::ids::{EntityId, EntityKind};

#[test]
fn the_records_of_a_kind_serialize_as_the_bare_list() {
    let fx = fixture::novel(2);
    let conn = fx.store.conn();
    let scenes = records(conn, EntityKind::Scene).unwrap();
    let Records::Scenes(items, _) = &scenes else {
        panic!("scenes asked for: {scenes:?}")
    };
    assert_eq!(items.len(), 2);
    let shown = serde_json::to_value(&scenes).unwrap();
    assert_eq!(shown.as_array().map(Vec::len), Some(2), "{shown}");
    assert_eq!(shown[0]["tick"], 1);
    let people = serde_json::to_value(records(conn, EntityKind::Character).unwrap()).unwrap();
    assert_eq!(people[0]["id"], "C0");
}

#[test]
fn an_inspected_record_has_its_whole_history_and_a_missing_one_is_none() {
    let fx = fixture::novel(1);
    let tx = fx.store.begin().unwrap();
    super::tests::lantern_taken_up(&tx);
    let c0: EntityId = "C0".parse().unwrap();
    let found = inspection(&tx, &c0).unwrap().unwrap();
    assert_eq!(found.record["role"], "archivist");
    assert_eq!(found.history.len(), 1);
    assert_eq!(found.history[0].entity_id, "C0");
    assert!(
        found.knowledge.is_some(),
        "a character's knowledge comes with it"
    );
    let missing: EntityId = "C99".parse().unwrap();
    assert!(inspection(&tx, &missing).unwrap().is_none());
}
