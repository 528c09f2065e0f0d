//! The codex page on a small real book: a character's mentions found by name and alias in the
//! scenes' prose (never in another record's text), her relationships by name, her history as
//! sentences; a place's and a lore entry's pages; other kinds and bad ids have none.

use serde_json::json;

use super::*;
use crate::export::tests::fixed_book;
use crate::memory::{self, EntityUpdate, NewCharacter, NewLocation, NewLore, NewRelationship};
use crate::model::Character;

#[test]
fn a_characters_page_has_her_mentions_relationships_and_history_in_sentences() {
    let (_tmp, mut novel) = fixed_book();
    {
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        let bram = NewCharacter {
            name: "Bram Hollis".into(),
            role: "dockhand".into(),
            ..Default::default()
        };
        let bram = memory::create_character(&tx, bram, 2, "extraction").unwrap();
        let house = NewLocation {
            name: "Lantern House".into(),
            ..Default::default()
        };
        let house = memory::create_location(&tx, house, 2, "extraction").unwrap();
        let moved = EntityUpdate {
            changes: serde_json::from_value(json!({
                "last_location": house.id,
                "relationships": {bram.id.clone(): "wary ally"}
            }))
            .unwrap(),
            ..Default::default()
        };
        memory::update_record::<Character>(&tx, "C0", &moved, 3, "extraction").unwrap();
        let pair = NewRelationship {
            character_a: "C0".into(),
            character_b: bram.id.clone(),
            kind: "ally".into(),
            status: Some("strained".into()),
            ..Default::default()
        };
        memory::create_relationship(&tx, pair, 3, "extraction").unwrap();
        let lore: NewLore = serde_json::from_value(json!({
            "fact": "The thirteen bells ring when the tide turns.",
            "category": "custom",
            "keywords": ["tide"]
        }))
        .unwrap();
        memory::add_lore(&tx, lore, 1, Some(1), "extraction").unwrap();
        tx.commit().unwrap();
    }
    let conn = novel.store().conn();

    let tamsin = codex_entry(conn, "C0").unwrap().expect("a page");
    assert_eq!(
        (tamsin.kind.as_str(), tamsin.name.as_str()),
        ("character", "Tamsin Vale")
    );
    // Found by her first name in scene 1's prose, with the name marked in the snippet.
    assert_eq!(tamsin.searched, ["Tamsin Vale", "Tamsin"]);
    assert_eq!(tamsin.mention_scenes, 1, "{:?}", tamsin.mentions);
    let m = &tamsin.mentions[0];
    assert_eq!((m.tick, m.scene_title.as_str()), (1, "The Docks"));
    let marked: Vec<String> = m
        .marks
        .iter()
        .map(|k| {
            m.snippet
                .chars()
                .skip(k.start as usize)
                .take(k.len as usize)
                .collect()
        })
        .collect();
    assert_eq!(marked, ["Tamsin"], "{m:?}");
    // Fields in a writer's order, ids as names.
    let keys: Vec<&str> = tamsin.fields.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(
        &keys[..4],
        ["role", "aliases", "description", "personality"]
    );
    let seen = tamsin
        .fields
        .iter()
        .find(|f| f.key == "last_location")
        .unwrap();
    assert_eq!(seen.text, "Lantern House");
    // The relationship by name, with her own view of him beside it.
    assert_eq!(tamsin.relationships.len(), 1);
    let r = &tamsin.relationships[0];
    assert_eq!(
        (
            r.other.as_str(),
            r.kind.as_str(),
            r.status.as_str(),
            r.sees_them.as_str()
        ),
        ("Bram Hollis", "ally", "strained", "wary ally")
    );
    // History as sentences, oldest first, with names and scenes.
    let lines: Vec<&str> = tamsin.history.iter().map(|h| h.text.as_str()).collect();
    assert_eq!(lines[0], "In the story from the start.");
    assert!(
        lines.contains(&"Moved from Rainmarket Docks to Lantern House in scene 3."),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"Came to see Bram Hollis as “wary ally” in scene 3."),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| !l.contains("C1") && !l.contains("L1")),
        "{lines:?}"
    );

    // Bram is named in scene 2 by his first name; the extraction's own record is not prose.
    let bram = codex_entry(conn, "C1").unwrap().unwrap();
    assert_eq!(
        bram.mentions.iter().map(|m| m.tick).collect::<Vec<_>>(),
        [2]
    );
    assert_eq!(bram.category.as_deref(), Some("dockhand"));
    assert_eq!(bram.history[0].text, "Enters the story in scene 2.");

    let docks = codex_entry(conn, "L0").unwrap().unwrap();
    assert_eq!(docks.kind, "location");
    assert!(docks.mentions.is_empty(), "{:?}", docks.mentions);
    let lore_id = crate::store::list_lore(conn)
        .unwrap()
        .last()
        .unwrap()
        .id
        .clone();
    let lore = codex_entry(conn, &lore_id).unwrap().unwrap();
    assert_eq!(
        (lore.kind.as_str(), lore.category.as_deref()),
        ("lore", Some("custom"))
    );
    assert_eq!(lore.tags, ["tide"]);
    assert_eq!(
        lore.mentions.iter().map(|m| m.tick).collect::<Vec<_>>(),
        [1]
    );

    assert!(codex_entry(conn, "R0").unwrap().is_none());
    assert!(codex_entry(conn, "C99").unwrap().is_none());
    assert!(codex_entry(conn, "x\" OR 1").unwrap().is_none());
}

#[test]
fn a_snippet_is_cut_at_spaces_around_the_first_name() {
    let body = format!(
        "{} Tamsin Vale pressed her back to the piling. {}",
        "word ".repeat(60),
        "more ".repeat(60)
    );
    let s = super::codex::snippet_around(&body, "Tamsin Vale Tamsin");
    assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
    assert!(s.contains("Tamsin Vale pressed her back"), "{s}");
    assert!(
        !s.contains("wor…") && !s.contains(" mor…"),
        "whole words: {s}"
    );
    assert!(s.chars().count() < 300, "{s}");
    // A passage with no name as a word opens the snippet at its start.
    assert!(super::codex::snippet_around("Short text.", "Bram").starts_with("Short"));
}
