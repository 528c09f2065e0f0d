//! The manuscript as a book from the command line: `novel export` in every format, on a novel
//! whose scenes came from real ticks against the test server.

use crate::common;

use std::io::Read;

use common::story::{clean_script, setup};
use common::*;

#[test]
fn export_writes_markdown_epub_and_docx_with_the_chapters() {
    let s = setup(clean_script());
    s.novel().args(["run", "-n", "2"]).assert().success();
    for (format, ext) in [("md", "md"), ("epub", "epub"), ("docx", "docx")] {
        let out = stdout_of(s.novel().args([
            "--json",
            "export",
            "--format",
            format,
            "--author",
            "Mara Quill",
        ]));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let path = std::path::PathBuf::from(json["path"].as_str().unwrap());
        assert_eq!(path, s.dir.join(format!("exports/salt-and-iron.{ext}")));
        let bytes = std::fs::read(&path).unwrap();
        match format {
            "md" => {
                let md = String::from_utf8(bytes).unwrap();
                assert!(
                    md.starts_with("# Salt and Iron\n\nby Mara Quill\n\n## Chapter 1: "),
                    "{md}"
                );
                assert_eq!(md.matches("\n### ").count(), 2, "{md}");
            }
            _ => {
                let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
                let entry = if format == "epub" {
                    "OEBPS/chapter_001.xhtml"
                } else {
                    "word/document.xml"
                };
                let mut xml = String::new();
                zip.by_name(entry)
                    .unwrap()
                    .read_to_string(&mut xml)
                    .unwrap();
                assert!(xml.contains("Chapter 1"), "{entry}: {xml}");
            }
        }
    }
    let err = stderr_of_failure(s.novel().args(["export", "--format", "pdf"]));
    assert!(err.contains("md, epub, docx"), "{err}");
}

#[test]
fn search_finds_prose_with_its_chapter_and_scene() {
    let s = setup(clean_script());
    s.novel().args(["run", "-n", "2"]).assert().success();
    let out = stdout_of(
        s.novel()
            .args(["--json", "search", "tide bells", "--words"]),
    );
    let hits: serde_json::Value = serde_json::from_str(&out).unwrap();
    let hits = hits.as_array().unwrap();
    // Both scenes share the fixture's prose: the passage naming both words comes first in
    // each, then passages with either word; all are in chapter 1.
    let ticks: Vec<u64> = hits[..2]
        .iter()
        .map(|h| h["tick"].as_u64().unwrap())
        .collect();
    assert!(ticks.contains(&1) && ticks.contains(&2), "{out}");
    for hit in &hits[..2] {
        assert!(
            hit["snippet"].as_str().unwrap().contains("tide bells"),
            "{hit}"
        );
        assert_eq!(hit["offset"], 0, "the first paragraph opens the scene");
    }
    assert!(
        hits.iter()
            .all(|h| h["chapter"] == 1 && h["by_words"] == true)
    );
    let text = stdout_of(s.novel().args(["search", "harbor watch"]));
    assert!(
        text.contains("Chapter 1 \"") && text.contains("scene 1 \""),
        "{text}"
    );
    let none = s
        .novel()
        .args(["search", "zeppelin", "--words"])
        .output()
        .unwrap();
    assert!(none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("Nothing in the book matches"));
    let err = stderr_of_failure(s.novel().args(["search", "  "]));
    assert!(err.contains("give words to search for"), "{err}");
}

fn manuscript_of(scenes: usize) -> String {
    let mut md = String::from("# The Salt Road\n\nby Mara Quill\n");
    for n in 1..=scenes {
        if n % 10 == 1 {
            md.push_str(&format!(
                "\n## Chapter {}: Tide {}\n",
                n / 10 + 1,
                n / 10 + 1
            ));
        }
        md.push_str(&format!("\n### Scene {n}\n\nMarker{n} walked the quay.\n"));
    }
    md
}

#[test]
fn import_makes_a_novel_from_a_manuscript_scene_by_scene() {
    let extraction = serde_json::json!({
        "title": "Quay", "summary": ["Someone walks the quay."], "tension": 3,
        "new_characters": [{"name": "Wren Harrow", "role": "harbour pilot"}]
    });
    let server = novel_test_server::TestServer::start_blocking(
        novel_test_server::Script::new().rule(
            novel_test_server::Rule::any()
                .reply(novel_test_server::Reply::text(extraction.to_string())),
        ),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let config = common::story::provider_config(tmp.path(), &server.base_url());
    let file = tmp.path().join("salt-road.md");
    std::fs::write(&file, manuscript_of(30)).unwrap();
    let dir = tmp.path().join("book");
    let import = |extra: &[&str]| {
        let mut cmd = novel();
        cmd.env("NOVEL_AGENT_CONFIG_DIR", &config)
            .arg("import")
            .arg(&file)
            .arg(&dir)
            .args(extra);
        cmd
    };
    let out = stdout_of(&mut import(&[
        "--protagonist",
        "Tamsin",
        "--location",
        "Rainmarket",
        "--goal",
        "Get home",
    ]));
    assert!(
        out.contains("Importing 30 scenes in 3 chapters from salt-road.md"),
        "{out}"
    );
    assert!(out.contains("Imported scene 30/30"), "{out}");
    let db = rusqlite::Connection::open(dir.join("novel.db")).unwrap();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM scenes"), 30);
    assert_eq!(
        count("SELECT count(*) FROM characters WHERE name = 'Wren Harrow'"),
        1
    );
    assert_eq!(
        count("SELECT count(*) FROM chapters WHERE titled_by = 'manuscript'"),
        3
    );
    let toml = std::fs::read_to_string(dir.join("novel.toml")).unwrap();
    assert!(
        toml.contains("The Salt Road") && toml.contains("Mara Quill"),
        "{toml}"
    );
    // Run again: the import is finished, nothing is added.
    let calls = server.request_count();
    let again = stdout_of(&mut import(&[]));
    assert!(again.contains("30 of 30 scenes done"), "{again}");
    assert_eq!(server.request_count(), calls);
    assert_eq!(count("SELECT count(*) FROM scenes"), 30);
    // A file that is not a manuscript leaves no novel behind.
    let pdf = tmp.path().join("book.pdf");
    std::fs::write(&pdf, b"%PDF").unwrap();
    let err = stderr_of_failure(
        novel()
            .arg("import")
            .arg(&pdf)
            .arg(tmp.path().join("other"))
            .args(["--protagonist", "T", "--location", "L", "--goal", "G"]),
    );
    assert!(
        err.contains("save it as Markdown (.md), plain text (.txt) or Word (.docx)"),
        "{err}"
    );
    assert!(!tmp.path().join("other").exists());
}

#[test]
fn replace_changes_a_name_across_the_book_in_one_change() {
    let s = setup(clean_script());
    s.novel().args(["run", "-n", "2"]).assert().success();
    let changes = s.count("SELECT count(*) FROM changes");
    let dry = stdout_of(s.novel().args(["replace", "Tamsin", "Tess", "--dry-run"]));
    assert!(
        dry.starts_with("Would replace \"Tamsin\" with \"Tess\""),
        "{dry}"
    );
    assert_eq!(s.count("SELECT count(*) FROM changes"), changes);
    let out = stdout_of(
        s.novel()
            .args(["--json", "replace", "Tamsin", "Tess", "--alias"]),
    );
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["scenes"], serde_json::json!([1, 2]));
    assert!(report["occurrences"].as_u64().unwrap() > 2, "{out}");
    assert_eq!(s.count("SELECT count(*) FROM changes"), changes + 1);
    assert_eq!(
        s.count("SELECT count(*) FROM scenes WHERE prose LIKE '%Tamsin%'"),
        0
    );
    let scene = std::fs::read_to_string(s.dir.join("scenes/scene_002.md")).unwrap();
    assert!(scene.contains("Tess") && !scene.contains("Tamsin"));
    let err = stderr_of_failure(s.novel().args(["replace", "Zeppelin", "Airship"]));
    assert!(err.contains("does not appear in the book"), "{err}");
}
