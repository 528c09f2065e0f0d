//! `novel import` finds the book in a hard-wrapped Project Gutenberg text (the committed
//! Treasure Island excerpt): `--preview` shows its parts and chapters and the seeds its text
//! suggests without a single model request and without making anything; the import then uses
//! the split the writer confirmed (`--shape`, edited from `--preview --json`), every paragraph
//! whole, and the suggested protagonist and place for the seeds not given.

use crate::common;

use common::*;
use novel_test_server::{Reply, Rule, Script, TestServer};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../novel-core/tests/import/treasure-island-excerpt.txt"
);

#[test]
fn a_gutenberg_novel_is_previewed_then_imported_as_confirmed() {
    let extraction = serde_json::json!({
        "title": "At the inn", "summary": ["The captain drinks rum."], "tension": 3,
        "new_characters": [{"name": "Billy Bones", "role": "old sea-dog"}]
    });
    let server = TestServer::start_blocking(
        Script::new().rule(Rule::any().reply(Reply::text(extraction.to_string()))),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let config = common::story::provider_config(tmp.path(), &server.base_url());
    let dir = tmp.path().join("treasure");
    let import = |extra: &[&str]| {
        let mut cmd = novel();
        cmd.env("NOVEL_AGENT_CONFIG_DIR", &config)
            .arg("import")
            .arg(FIXTURE)
            .arg(&dir)
            .args(extra);
        cmd
    };

    // The preview: parts and chapters found, seeds suggested, nothing made, no model asked.
    let out = stdout_of(&mut import(&["--preview"]));
    for line in [
        "Treasure Island by Robert Louis Stevenson",
        "Left out: Opening pages",
        "Part One — The Old Buccaneer",
        "1. The Old Sea-dog at the Admiral Benbow",
        "Part Two — The Sea-cook",
        "5. At the Sign of the Spy-glass",
        "protagonist: Jim",
        "place:       Bristol",
    ] {
        assert!(out.contains(line), "{line} missing from:\n{out}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&mut import(&["--preview", "--json"]))).unwrap();
    let chapters = json["preview"]["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 6, "the opening pages and 5 chapters");
    let parts: Vec<&str> = chapters.iter().filter_map(|c| c["part"].as_str()).collect();
    assert_eq!(
        parts,
        ["Part One — The Old Buccaneer", "Part Two — The Sea-cook"]
    );
    assert_eq!(
        server.request_count(),
        0,
        "no model request before the import is confirmed"
    );
    assert!(!dir.exists(), "a preview makes nothing");

    // The writer confirms with changes: chapter 2 joins chapter 1, chapter 3 is renamed.
    let mut shape = json["shape"].clone();
    shape["chapters"][2]["starts_chapter"] = false.into();
    shape["chapters"][3]["title"] = "The Spot".into();
    let shape_file = tmp.path().join("shape.json");
    std::fs::write(&shape_file, shape.to_string()).unwrap();
    let out = stdout_of(&mut import(&[
        "--shape",
        shape_file.to_str().unwrap(),
        "--goal",
        "Find the treasure",
    ]));
    assert!(
        out.contains("Importing 5 scenes in 4 chapters from treasure-island-excerpt.txt"),
        "{out}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 5, "one extraction per scene");
    // The first model request reads the first chapter's scene, unwrapped.
    let first = requests[0].body.to_string();
    assert!(
        first.contains("the whole particulars about Treasure Island, from the beginning"),
        "the first request is the first scene"
    );

    let db = rusqlite::Connection::open(dir.join("novel.db")).unwrap();
    let chapters: Vec<(String, Option<String>, i64, i64)> = db
        .prepare(
            "SELECT title, part_title, first_tick, last_tick FROM chapters ORDER BY first_tick",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        chapters,
        [
            (
                "The Old Sea-dog at the Admiral Benbow".to_string(),
                Some("Part One — The Old Buccaneer".to_string()),
                1,
                2
            ),
            ("The Spot".to_string(), None, 3, 3),
            (
                "I Go to Bristol".to_string(),
                Some("Part Two — The Sea-cook".to_string()),
                4,
                4
            ),
            ("At the Sign of the Spy-glass".to_string(), None, 5, 5),
        ]
    );
    // Paragraphs unwrapped: a line break inside a paragraph is only verse's.
    let proses: Vec<String> = db
        .prepare("SELECT prose FROM scenes ORDER BY tick")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(proses.len(), 5);
    let paragraphs: Vec<&str> = proses.iter().flat_map(|p| p.split("\n\n")).collect();
    assert!(paragraphs.len() > 150, "{} paragraphs", paragraphs.len());
    for p in &paragraphs {
        assert!(
            !p.contains('\n') || p.lines().all(|l| l.chars().count() < 60),
            "a paragraph kept its hard wraps: {p}"
        );
    }
    assert!(proses[0].starts_with(
        "SQUIRE TRELAWNEY, Dr. Livesey, and the rest of these gentlemen having asked me to \
         write down the whole particulars"
    ));
    assert!(proses.iter().all(|p| !p.contains("Project Gutenberg")));
    // The seeds not given came from the text.
    let named = |name: &str| -> i64 {
        db.query_row(
            "SELECT count(*) FROM characters WHERE name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(named("Jim"), 1, "the suggested protagonist");
    assert_eq!(named("Billy Bones"), 1, "what the extractions found");
    let toml = std::fs::read_to_string(dir.join("novel.toml")).unwrap();
    assert!(toml.contains("Treasure Island") && toml.contains("Robert Louis Stevenson"));
    assert!(toml.contains("SQUIRE TRELAWNEY"), "the suggested premise");
}
