//! `novel check <file>` through the real binary, against a real novel directory whose memory
//! has a dead character, a lost item and a place the map does not reach: every planted break
//! is found at the right characters of the file, with its record; a clean draft passes; a
//! scene file's title is checked too; bad input gets a clear error.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use novel_core::model::Character;
use novel_core::novel::{Access, Novel};
use novel_core::store::{self, HistoryEntry};
use serde_json::{Value, json};

/// The fixture novel (Tamsin Vale, C0, at Rainmarket Docks, L0) with more memory: Orrin Vale
/// dead, Bram Hale alive, Tamsin's rusted dagger lost, and Skerra out of reach.
fn novel_with_memory() -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = new_novel();
    let mut novel = Novel::open(&dir, Access::Write).unwrap();
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    let mut tamsin = store::get_character(&tx, "C0").unwrap().unwrap();
    let character = |id: &str, name: &str, extra: Value| -> Character {
        let mut value = json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1,
                                "last_location": "L0" });
        value
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        serde_json::from_value(value).unwrap()
    };
    store::insert_character(
        &tx,
        &character("C1", "Orrin Vale", json!({ "status": "dead" })),
    )
    .unwrap();
    store::insert_character(
        &tx,
        &character(
            "C2",
            "Bram Hale",
            json!({ "facts": { "pronouns": "he/him" } }),
        ),
    )
    .unwrap();
    for (id, name) in [("L1", "the Isle of Skerra"), ("L2", "Skerra Chapel")] {
        let place = json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1 });
        store::insert_location(&tx, &serde_json::from_value(place).unwrap()).unwrap();
    }
    store::connect_locations(&tx, "L1", "L2", "a causeway").unwrap();
    let room =
        json!({ "id": "L3", "name": "the harbour office", "first_tick": 1, "last_update_tick": 1 });
    store::insert_location(&tx, &serde_json::from_value(room).unwrap()).unwrap();
    store::connect_locations(&tx, "L0", "L3", "").unwrap();
    tamsin.inventory.clear();
    store::save_character(&tx, &tamsin).unwrap();
    store::append_history(
        &tx,
        &HistoryEntry {
            entity_id: "C0".into(),
            tick: 2,
            field: "inventory".into(),
            change: "updated".into(),
            old_value: Some(json!(["rusted dagger"])),
            new_value: Some(json!([])),
            flagged: false,
            source: "extraction".into(),
        },
    )
    .unwrap();
    tx.commit().unwrap();
    (tmp, dir)
}

const DRAFT: &str = "Tamsin crossed the wet planks. Unbeknownst to her, the watch had been paid.\n\n\
Orrin poured two cups of tea and pushed one across the crate. Bram wondered whether she had \
seen the blood on his sleeve.\n\n\
She drew her rusted dagger and cut the rope. Then she walked to the Isle of Skerra before the \
bells.\n\n\
This scene is a testament to her courage.\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn check_json(dir: &Path, file: &Path) -> Value {
    let out = stdout_of(
        novel()
            .arg("-C")
            .arg(dir)
            .arg("--json")
            .arg("check")
            .arg(file),
    );
    serde_json::from_str(&out).unwrap()
}

/// The file's characters `span.start..span.end`.
fn spanned(text: &str, f: &Value) -> String {
    let (start, end) = (
        f["span"]["start"].as_u64().unwrap() as usize,
        f["span"]["end"].as_u64().unwrap() as usize,
    );
    text.chars().skip(start).take(end - start).collect()
}

#[test]
fn every_planted_break_is_found_where_it_is_with_its_record() {
    let (tmp, dir) = novel_with_memory();
    let file = write(tmp.path(), "draft.md", DRAFT);
    let report = check_json(&dir, &file);
    assert_eq!(report["needs_revision"], true, "{report:#}");
    let findings = report["findings"].as_array().unwrap();
    let find = |check: &str| {
        findings
            .iter()
            .find(|f| f["check"] == check)
            .unwrap_or_else(|| panic!("no {check} in {report:#}"))
    };
    for (check, words, record, severity) in [
        ("pov_leak", "Unbeknownst to", None, "violation"),
        ("dead_character", "Orrin poured", Some("C1"), "violation"),
        ("other_mind", "Bram wondered", Some("C2"), "violation"),
        ("lost_item", "her rusted dagger", Some("C0"), "violation"),
        ("unreachable", "Isle of Skerra", Some("L1"), "violation"),
        ("meta_text", "This scene is a", None, "violation"),
        ("stock_phrase", "a testament to", None, "warning"),
    ] {
        let f = find(check);
        assert_eq!(f["severity"], severity, "{f:#}");
        let at = spanned(DRAFT, f);
        assert!(at.contains(words), "{check}: span {at:?} lacks {words:?}");
        let sentence = f["sentence"].as_str().unwrap();
        assert!(
            sentence.contains(&at),
            "{check}: {at:?} not in {sentence:?}"
        );
        assert_eq!(f["record"].as_str(), record, "{f:#}");
    }
    // The length check runs too (the draft is far below the novel's 500 words).
    find("length");

    let text = stdout_of(novel().arg("-C").arg(&dir).arg("check").arg(&file));
    assert!(text.contains("to fix before the scene is kept"), "{text}");
    assert!(
        text.contains("draft.md:3:1: error [dead character acting]"),
        "{text}"
    );
    assert!(text.contains("(record C1)"), "{text}");
}

#[test]
fn a_clean_draft_passes_and_a_scene_file_has_its_prose_and_title_checked() {
    let (tmp, dir) = novel_with_memory();
    let clean = "Tamsin crossed the wet planks to the harbour office. Bram was waiting by the \
                 door. He looked tired, she thought, and older than he had in the spring.\n\n\
                 “You're late,” he said.\n\nShe shrugged and went in.";
    let file = write(tmp.path(), "clean.md", clean);
    let report = check_json(&dir, &file);
    let serious: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] != "length")
        .collect();
    assert!(serious.is_empty(), "{report:#}");

    // The engine's scene file: the heading is the title, not prose; offsets stay file offsets.
    let scene =
        "# ,\n\nTamsin crossed the wet planks. Orrin smiled at her.\n\n---\n\n- Tamsin waits\n";
    let file = write(tmp.path(), "scene_004.md", scene);
    let report = check_json(&dir, &file);
    let findings = report["findings"].as_array().unwrap();
    assert!(findings.iter().any(|f| f["check"] == "title"), "{report:#}");
    assert!(
        !findings.iter().any(|f| f["check"] == "markup"),
        "{report:#}"
    );
    let dead = findings
        .iter()
        .find(|f| f["check"] == "dead_character")
        .unwrap();
    assert_eq!(spanned(scene, dead), "Orrin smiled");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let (tmp, dir) = novel_with_memory();
    let err = stderr_of_failure(
        novel()
            .arg("-C")
            .arg(&dir)
            .arg("check")
            .arg(tmp.path().join("missing.md")),
    );
    assert!(
        err.contains("cannot read") && err.contains("missing.md"),
        "{err}"
    );
    let file = write(tmp.path(), "draft.md", DRAFT);
    let err = stderr_of_failure(
        novel()
            .arg("-C")
            .arg(&dir)
            .args(["check", "--pov-character", "C99"])
            .arg(&file),
    );
    assert!(err.contains("no character C99"), "{err}");
}

/// Silas Crane drowns in the scene of tick 1, told from Bram's point of view; Tamsin is not in
/// it, and no scene since tells her.
fn novel_with_a_death_on_the_page() -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = novel_with_memory();
    let mut novel = Novel::open(&dir, Access::Write).unwrap();
    let store = novel.store_mut().unwrap();
    let tx = store.transaction().unwrap();
    let silas = json!({ "id": "C3", "name": "Silas Crane", "status": "dead", "first_tick": 1,
                        "last_update_tick": 1, "last_location": "L3" });
    store::insert_character(&tx, &serde_json::from_value(silas).unwrap()).unwrap();
    let scene = json!({ "id": "S1", "tick": 1, "title": "The Steps", "pov_character": "C2",
        "location": "L3", "prose": "Silas Crane slipped on the harbour steps and went under. \
        Bram Hale could not reach him.", "word_count": 16, "summary": ["Silas drowns."],
        "tension": 6, "created_at": "2026-01-01T00:00:00Z" });
    store::insert_scene(&tx, &serde_json::from_value(scene).unwrap()).unwrap();
    store::append_history(
        &tx,
        &HistoryEntry {
            entity_id: "C3".into(),
            tick: 1,
            field: "status".into(),
            change: "updated".into(),
            old_value: Some(json!("alive")),
            new_value: Some(json!("dead")),
            flagged: false,
            source: "extraction".into(),
        },
    )
    .unwrap();
    tx.commit().unwrap();
    (tmp, dir)
}

#[test]
fn a_death_the_pov_character_neither_saw_nor_heard_of_is_found_and_inspect_says_who_knows() {
    let (tmp, dir) = novel_with_a_death_on_the_page();
    let draft = "Tamsin counted the crates twice. Silas Crane was dead, and the harbour was \
                 quieter for it.\n";
    let report = check_json(&dir, &write(tmp.path(), "draft.md", draft));
    let findings = report["findings"].as_array().unwrap();
    let f = findings
        .iter()
        .find(|f| f["check"] == "off_page")
        .unwrap_or_else(|| panic!("no off_page finding in {report:#}"));
    assert_eq!(f["record"], "C3");
    assert!(
        spanned(draft, f).starts_with("Silas Crane was dead"),
        "{f:#}"
    );
    // From Bram's eyes, who saw it, the same sentence is fair; so is Tamsin being told.
    let bram = stdout_of(novel().arg("-C").arg(&dir).args([
        "--json",
        "check",
        "--pov-character",
        "C2",
        write(tmp.path(), "bram.md", draft).to_str().unwrap(),
    ]));
    assert!(!bram.contains("off_page"), "{bram}");
    let told = "“Silas Crane drowned,” Bram said. Silas Crane was dead.\n";
    let report = check_json(&dir, &write(tmp.path(), "told.md", told));
    assert!(!report.to_string().contains("off_page"), "{report:#}");

    let inspect = |id: &str| -> Value {
        serde_json::from_str(&stdout_of(
            novel().arg("-C").arg(&dir).args(["--json", "inspect", id]),
        ))
        .unwrap()
    };
    let tamsin = inspect("C0");
    assert_eq!(tamsin["deaths_known"][0]["character_id"], "C3");
    assert_eq!(tamsin["deaths_known"][0]["learned"], Value::Null);
    assert_eq!(
        inspect("C2")["deaths_known"][0]["learned"],
        json!([1, "witnessed"])
    );
    assert_eq!(inspect("C2")["scenes_witnessed"], json!([1]));
    assert_eq!(tamsin["scenes_witnessed"], json!([]));
    let text = stdout_of(novel().arg("-C").arg(&dir).args(["inspect", "C0"]));
    assert!(
        text.contains("Silas Crane (C3) died in the scene of tick 1: has not seen or heard of it"),
        "{text}"
    );
}
