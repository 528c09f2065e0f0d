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
