//! The manuscript as a book from the command line: `novel export` in every format, on a novel
//! whose scenes came from real ticks against the test server.

mod common;

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
