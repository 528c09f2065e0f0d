//! Memory tests: creation rules, deep-merge updates with history, contradictions flagged and
//! not applied, invalid changes named by field.

use serde_json::json;

use super::*;
use crate::model::{Character, Location, Relationship};
use crate::store::{self, Store};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("novel.db"), true).unwrap();
    (dir, store)
}

fn update(changes: serde_json::Value, append: serde_json::Value) -> EntityUpdate {
    EntityUpdate {
        changes: changes.as_object().cloned().unwrap_or_default(),
        append: append.as_object().cloned().unwrap_or_default(),
    }
}

fn seeded(tx: &rusqlite::Transaction<'_>) -> (Character, Location) {
    let l = create_location(
        tx,
        NewLocation {
            name: "Rainmarket Docks".into(),
            ..Default::default()
        },
        0,
        "seed",
    )
    .unwrap();
    let mut facts = std::collections::BTreeMap::new();
    facts.insert("brother".to_string(), "alive".to_string());
    let c = create_character(
        tx,
        NewCharacter {
            name: "Tamsin Vale".into(),
            inventory: vec!["dagger".into()],
            facts,
            ..Default::default()
        },
        0,
        "seed",
    )
    .unwrap();
    (c, l)
}

#[test]
fn updates_merge_append_and_log_history_by_tick() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let (c, l) = seeded(&tx);
    let report = update_record::<Character>(
        &tx,
        &c.id,
        &update(
            json!({"emotional_state": "tense", "last_location": l.id}),
            json!({"inventory": ["map"]}),
        ),
        3,
        "test",
    )
    .unwrap();
    assert!(report.contradictions.is_empty());
    let got = store::get_character(&tx, &c.id).unwrap().unwrap();
    assert_eq!(got.inventory, vec!["dagger", "map"]);
    assert_eq!(got.emotional_state.as_deref(), Some("tense"));
    assert_eq!(got.last_update_tick, 3);
    let history = store::history_of(&tx, &c.id).unwrap();
    let fields: Vec<(u32, &str)> = history.iter().map(|h| (h.tick, h.field.as_str())).collect();
    assert_eq!(
        fields,
        vec![
            (0, "*"),
            (3, "emotional_state"),
            (3, "inventory"),
            (3, "last_location")
        ]
    );
}

#[test]
fn contradicting_a_recorded_fact_is_flagged_not_applied() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let (c, _) = seeded(&tx);
    let report = update_record::<Character>(
        &tx,
        &c.id,
        &update(
            json!({"facts": {"brother": "dead"}, "name": "Tam", "emotional_state": "grieving"}),
            json!({}),
        ),
        4,
        "extraction",
    )
    .unwrap();
    let paths: Vec<&str> = report
        .contradictions
        .iter()
        .map(|c| c.path.as_str())
        .collect();
    assert_eq!(paths, vec!["facts.brother", "name"]);
    let got = store::get_character(&tx, &c.id).unwrap().unwrap();
    assert_eq!(got.facts["brother"], "alive");
    assert_eq!(got.name, "Tamsin Vale");
    assert_eq!(got.emotional_state.as_deref(), Some("grieving"));
    let flagged: Vec<_> = store::history_of(&tx, &c.id)
        .unwrap()
        .into_iter()
        .filter(|h| h.flagged)
        .collect();
    assert_eq!(flagged.len(), 2);
    assert_eq!(flagged[0].new_value, Some(json!("dead")));
}

#[test]
fn the_dead_stay_dead_unless_a_human_says_otherwise() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let (c, _) = seeded(&tx);
    update_record::<Character>(
        &tx,
        &c.id,
        &update(json!({"status": "dead"}), json!({})),
        5,
        "t",
    )
    .unwrap();
    let report = update_record::<Character>(
        &tx,
        &c.id,
        &update(json!({"status": "alive"}), json!({})),
        6,
        "t",
    )
    .unwrap();
    assert_eq!(report.contradictions[0].path, "status");
    assert_eq!(
        store::get_character(&tx, &c.id)
            .unwrap()
            .unwrap()
            .status
            .as_str(),
        "dead"
    );
}

#[test]
fn invalid_changes_name_the_field_and_change_nothing() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let (c, l) = seeded(&tx);
    let cases = [
        (c.id.clone(), json!({"inventory": "map"}), "inventory"),
        (
            c.id.clone(),
            json!({"last_location": "L9"}),
            "last_location",
        ),
        (c.id.clone(), json!({"id": "C7"}), "id"),
        (l.id.clone(), json!({"tension_level": 9}), "tension_level"),
    ];
    for (id, changes, field) in cases {
        let result = if id.starts_with('C') {
            update_record::<Character>(&tx, &id, &update(changes, json!({})), 2, "t").map(drop)
        } else {
            update_record::<Location>(&tx, &id, &update(changes, json!({})), 2, "t").map(drop)
        };
        let err = result.unwrap_err();
        assert!(
            matches!(&err, MemoryError::InvalidField { field: f, .. } if f == field),
            "{field}: {err}"
        );
    }
    assert_eq!(store::get_character(&tx, &c.id).unwrap().unwrap(), c);
    assert_eq!(store::history_of(&tx, &c.id).unwrap().len(), 1);
}

#[test]
fn creation_refuses_duplicates_and_dangling_references() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let (c, l) = seeded(&tx);
    let err = create_character(
        &tx,
        NewCharacter {
            name: "tamsin vale".into(),
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap_err();
    assert!(err.to_string().contains(&c.id), "{err}");
    let err = create_location(
        &tx,
        NewLocation {
            name: "Gate".into(),
            connections: vec!["L5".into()],
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap_err();
    assert!(err.to_string().contains("L5"), "{err}");
    let b = create_character(
        &tx,
        NewCharacter {
            name: "Bram".into(),
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap();
    let r = create_relationship(
        &tx,
        NewRelationship {
            character_a: b.id.clone(),
            character_b: c.id.clone(),
            kind: "ally".into(),
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap();
    assert_eq!(r.intensity, 5);
    let err = create_relationship(
        &tx,
        NewRelationship {
            character_a: c.id.clone(),
            character_b: b.id.clone(),
            kind: "rival".into(),
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap_err();
    assert!(err.to_string().contains("relationship.update"), "{err}");
    let gate = create_location(
        &tx,
        NewLocation {
            name: "Gate".into(),
            connections: vec![l.id.clone()],
            ..Default::default()
        },
        1,
        "t",
    )
    .unwrap();
    assert_eq!(
        store::get_location(&tx, &l.id)
            .unwrap()
            .unwrap()
            .connections,
        vec![gate.id]
    );
    let _: Relationship = store::get_relationship(&tx, &r.id).unwrap().unwrap();
}

#[test]
fn loops_open_advance_and_resolve_once() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    let o = open_loop(
        &tx,
        NewLoop {
            description: "Who sank the Gull?".into(),
            category: "mystery".into(),
            importance: crate::model::Importance::High,
        },
        1,
        "t",
    )
    .unwrap();
    change_loop(
        &tx,
        &o.id,
        crate::model::LoopStatus::Open,
        "a witness speaks",
        2,
        "t",
    )
    .unwrap();
    let done = change_loop(
        &tx,
        &o.id,
        crate::model::LoopStatus::Resolved,
        "the harbormaster confesses",
        3,
        "t",
    )
    .unwrap();
    assert_eq!(done.resolved_tick, Some(3));
    assert_eq!(done.notes.len(), 2);
    assert!(change_loop(&tx, &o.id, crate::model::LoopStatus::Abandoned, "", 4, "t").is_err());
}

mod tending {
    use super::*;
    use crate::memory::{LoopTending, tend_loop};
    use crate::model::{Importance, LoopStatus};

    #[test]
    fn a_loop_is_parked_abandoned_or_merged_with_its_reason_in_its_notes() {
        let (_dir, mut store) = store();
        let tx = store.transaction().unwrap();
        let open = |description: &str, importance| {
            let new = NewLoop {
                description: description.into(),
                category: "mystery".into(),
                importance,
            };
            open_loop(&tx, new, 1, "t").unwrap().id
        };
        let a = open("Who paid the ferryman?", Importance::Medium);
        let b = open("Who owes the ferryman?", Importance::High);

        let no_reason = tend_loop(&tx, &a, LoopTending::Abandon, " ", None, 5, "t").unwrap_err();
        assert!(no_reason.to_string().contains("say why"), "{no_reason}");

        let parked = tend_loop(
            &tx,
            &a,
            LoopTending::Park,
            "later, after the trial",
            None,
            5,
            "t",
        )
        .unwrap();
        assert_eq!(parked.status, LoopStatus::Open);
        assert_eq!(parked.importance, Importance::Low);
        assert_eq!(
            parked.notes.last().unwrap().note,
            "Parked: later, after the trial"
        );

        let importance_b = store::get_loop(&tx, &b).unwrap().unwrap().importance;
        let merged = tend_loop(
            &tx,
            &a,
            LoopTending::Merge,
            "the same debt",
            Some(&b),
            6,
            "t",
        )
        .unwrap();
        assert_eq!(merged.status, LoopStatus::Abandoned);
        assert_eq!(merged.resolved_tick, Some(6));
        let keeper = store::get_loop(&tx, &b).unwrap().unwrap();
        assert_eq!(keeper.status, LoopStatus::Open);
        assert!(keeper.importance >= importance_b);
        let taken = &keeper.notes.last().unwrap().note;
        let a_words = store::get_loop(&tx, &a).unwrap().unwrap();
        assert_eq!(
            taken,
            &format!("Took in \"{}\" (the same debt)", a_words.description)
        );
        let gone = &a_words.notes.last().unwrap().note;
        assert_eq!(
            gone,
            &format!("Merged into \"{}\" (the same debt)", keeper.description)
        );
        assert_eq!(
            crate::ids::raw_ids(&format!("{taken} {gone}")),
            Vec::<&str>::new(),
            "the Loops board shows these notes: no ids"
        );

        let again = tend_loop(&tx, &a, LoopTending::Abandon, "x", None, 7, "t").unwrap_err();
        assert!(again.to_string().contains("already abandoned"), "{again}");
        let into_itself =
            tend_loop(&tx, &b, LoopTending::Merge, "x", Some(&b), 7, "t").unwrap_err();
        assert!(into_itself.to_string().contains("itself"), "{into_itself}");

        let abandoned = tend_loop(
            &tx,
            &b,
            LoopTending::Abandon,
            "the story moved on",
            None,
            8,
            "t",
        )
        .unwrap();
        assert_eq!(
            abandoned.notes.last().unwrap().note,
            "Abandoned: the story moved on"
        );
        let history = store::history_of(&tx, &b).unwrap();
        assert!(
            history
                .iter()
                .any(|h| h.change == "abandoned" && h.tick == 8)
        );
    }
}
