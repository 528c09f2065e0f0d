//! Export tests on a small fixed book with hostile titles and prose: golden files of the
//! Markdown and of the EPUB's chapter and navigation documents (rewrite them with
//! `UPDATE_GOLDEN=1` after an intended change), the EPUB's container rules, the DOCX read back
//! with docx-rs, and reproducible bytes. Validation by the real tools (epubcheck, LibreOffice)
//! is in `tool_tests.rs`.

use std::io::Read;
use std::path::PathBuf;

use super::*;
use crate::chapters;
use crate::layout::EXPORTS_DIR;
use crate::model::{Scene, count_words};
use crate::store;
use crate::tick::tests::{clock, novel};

pub(crate) const SCENES: [(&str, &str); 3] = [
    (
        "The Docks",
        "\"It's late,\" Tamsin said -- and she *meant* it.\n\n\
         The tide ran out... <script>alert(1)</script> & so did the **watch**.",
    ),
    (
        "Iron & <b>Salt</b>",
        "Bram kept the ledger under the third plank.\n\n* * *\n\nMorning came grey.",
    ),
    ("Ledger", "She read the names \u{1b}[2Jaloud."),
];

/// A novel holding [`SCENES`], shaped into two chapters; the second opens a part.
pub(crate) fn fixed_book() -> (tempfile::TempDir, Novel) {
    let (tmp, mut novel) = novel();
    {
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        for (i, (title, prose)) in SCENES.iter().enumerate() {
            let tick = i as u32 + 1;
            let scene = Scene {
                id: format!("S{tick}"),
                tick,
                title: title.to_string(),
                pov_character: None,
                location: None,
                prose: prose.to_string(),
                word_count: count_words(prose),
                summary: vec![format!("Summary of scene {tick}.")],
                tension: Some(5),
                created_at: "2026-11-23T10:00:00Z".into(),
            };
            store::insert_scene(&tx, &scene).unwrap();
            store::index_scene(&tx, &scene).unwrap();
        }
        let mut state = store::load_state(&tx).unwrap();
        state.current_tick = SCENES.len() as u32;
        store::save_state(&tx, &state).unwrap();
        tx.commit().unwrap();
    }
    chapters::split(&mut novel, 1, 3, &clock()).unwrap();
    chapters::rename(&mut novel, 1, "Salt & Ash", &clock()).unwrap();
    chapters::set_part(&mut novel, 2, Some("Part Two: <i>Iron</i>"), &clock()).unwrap();
    (tmp, novel)
}

fn options() -> ExportOptions {
    ExportOptions {
        author: Some("Mara Quill".into()),
        font: ManuscriptFont::TimesNewRoman,
    }
}

fn export(novel: &Novel, format: ExportFormat) -> Vec<u8> {
    render(
        novel.store().conn(),
        novel.config(),
        format,
        &options(),
        &clock(),
    )
    .unwrap()
}

fn check_golden(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("src/export/golden/{name}"));
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with UPDATE_GOLDEN=1)", path.display()));
    assert_eq!(
        actual, expected,
        "{name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)"
    );
}

fn entries(epub: &[u8]) -> Vec<(String, String, zip::CompressionMethod)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(epub)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            (file.name().to_string(), text, file.compression())
        })
        .collect()
}

#[test]
fn markdown_has_parts_chapters_and_scenes_with_nothing_a_viewer_would_run() {
    let (_tmp, novel) = fixed_book();
    let md = String::from_utf8(export(&novel, ExportFormat::Markdown)).unwrap();
    check_golden("book.md", &md);
    assert!(!md.contains("<script") && !md.contains("<b>") && !md.contains('\u{1b}'));
}

#[test]
fn the_epub_is_a_valid_container_with_escaped_titles_and_prose() {
    let (_tmp, novel) = fixed_book();
    let epub = export(&novel, ExportFormat::Epub);
    let files = entries(&epub);
    // The mimetype comes first, uncompressed: readers find the format by it.
    assert_eq!(files[0].0, "mimetype");
    assert_eq!(files[0].1, "application/epub+zip");
    assert_eq!(files[0].2, zip::CompressionMethod::Stored);
    let file = |name: &str| -> String {
        files
            .iter()
            .find(|(n, _, _)| n == name)
            .unwrap_or_else(|| {
                panic!(
                    "{name} missing from {:?}",
                    files.iter().map(|f| &f.0).collect::<Vec<_>>()
                )
            })
            .1
            .clone()
    };
    let chapter = file("OEBPS/chapter_001.xhtml");
    check_golden("chapter_001.xhtml", &chapter);
    check_golden("nav.xhtml", &file("OEBPS/nav.xhtml"));
    assert!(
        chapter.contains(
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; so did the <strong>watch</strong>"
        )
    );
    assert!(chapter.contains("<em>meant</em>"));
    assert!(chapter.contains("“It’s late,” Tamsin said — and"));
    let opf = file("OEBPS/content.opf");
    for expected in [
        "<dc:title>Salt</dc:title>",
        ">Mara Quill</dc:creator>",
        ">en</dc:language>",
        "properties=\"cover-image\"",
        "2026-11-23T10:00:00Z",
    ] {
        assert!(opf.contains(expected), "{expected} missing from:\n{opf}");
    }
    let part = file("OEBPS/part_002.xhtml");
    assert!(part.contains("Part Two: &lt;i&gt;Iron&lt;/i&gt;"), "{part}");
    for (name, text, _) in &files {
        assert!(!text.contains("<script"), "{name} holds a script tag");
        assert!(!text.contains('\u{1b}'), "{name} holds an escape");
    }
}

#[test]
fn the_docx_reads_back_as_the_book_in_manuscript_format() {
    let (_tmp, novel) = fixed_book();
    let bytes = export(&novel, ExportFormat::Docx);
    let docx = docx_rs::read_docx(&bytes).unwrap();
    let paragraphs: Vec<&docx_rs::Paragraph> = docx
        .document
        .children
        .iter()
        .filter_map(|c| match c {
            docx_rs::DocumentChild::Paragraph(p) => Some(p.as_ref()),
            _ => None,
        })
        .collect();
    let texts: Vec<String> = paragraphs.iter().map(|p| p.raw_text()).collect();
    assert!(texts[0].starts_with("Mara Quill\tabout "), "{texts:?}");
    assert_eq!(texts[1], "Salt");
    assert_eq!(texts[2], "by Mara Quill");
    assert_eq!(texts[3], "Chapter 1\nSalt & Ash");
    assert!(
        texts.contains(&"Part Two: <i>Iron</i>".to_string()),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("<script>alert(1)</script> & so did the watch")),
        "{texts:?}"
    );
    // Scenes are separated by a centred #; the prose's own break is one too.
    assert_eq!(texts.iter().filter(|t| *t == "#").count(), 2, "{texts:?}");
    assert!(texts.iter().all(|t| !t.contains('\u{1b}')));
    // Chapters and parts start on a new page.
    let breaks = paragraphs
        .iter()
        .filter(|p| p.property.page_break_before == Some(true))
        .count();
    assert_eq!(breaks, 3);
    // Emphasis is a run property, not asterisks.
    let italic = paragraphs.iter().any(|p| {
        p.children.iter().any(|c| match c {
            docx_rs::ParagraphChild::Run(r) => {
                r.run_property.italic.is_some() && p.raw_text().contains("meant")
            }
            _ => false,
        })
    });
    assert!(italic);
    assert!(texts.iter().all(|t| !t.contains("*meant*")));
}

#[test]
fn exports_are_reproducible() {
    let (_tmp, novel) = fixed_book();
    for format in [
        ExportFormat::Markdown,
        ExportFormat::Epub,
        ExportFormat::Docx,
    ] {
        assert_eq!(export(&novel, format), export(&novel, format), "{format:?}");
    }
}

#[test]
fn files_go_to_exports_or_where_asked() {
    let (tmp, novel) = fixed_book();
    let default = write_export(&novel, ExportFormat::Epub, None, &options(), &clock()).unwrap();
    assert_eq!(default, novel.dir(EXPORTS_DIR).join("salt.epub"));
    let chosen = tmp.path().join("out/book.docx");
    let written = write_export(
        &novel,
        ExportFormat::Docx,
        Some(&chosen),
        &options(),
        &clock(),
    )
    .unwrap();
    assert_eq!(written, chosen);
    assert!(std::fs::metadata(&chosen).unwrap().len() > 1000);
}

#[test]
fn slugs_are_safe_file_names() {
    assert_eq!(slug("The Salt & the Sea!"), "the-salt-the-sea");
    assert_eq!(slug("../../"), "manuscript");
}

#[test]
fn markdown_images_and_links_in_prose_are_inert_in_the_scene_file_and_the_export() {
    let prose = "She read the map. ![map](https://tracker.example/p.png?id=1) \
                 [Open](javascript:alert(1)) and a\\[x](https://t.example) too.";
    let title = "The ![pixel](https://tracker.example/t.png) Docks";
    let (_tmp, mut novel) = novel();
    {
        let store = novel.store_mut().unwrap();
        let tx = store.transaction().unwrap();
        let scene = Scene {
            id: "S1".into(),
            tick: 1,
            title: title.into(),
            pov_character: None,
            location: None,
            prose: prose.into(),
            word_count: count_words(prose),
            summary: vec!["A [link](https://t.example) in the summary.".into()],
            tension: Some(5),
            created_at: "2026-11-23T10:00:00Z".into(),
        };
        store::insert_scene(&tx, &scene).unwrap();
        let mut state = store::load_state(&tx).unwrap();
        state.current_tick = 1;
        store::save_state(&tx, &state).unwrap();
        tx.commit().unwrap();
    }
    let scene = store::get_scene(novel.store().conn(), "S1")
        .unwrap()
        .unwrap();
    let path =
        crate::files::write_scene(novel.root(), 1, &scene.title, &scene.summary, &scene.prose)
            .unwrap();
    let file = std::fs::read_to_string(path).unwrap();
    let md = String::from_utf8(export(&novel, ExportFormat::Markdown)).unwrap();
    let live = regex::Regex::new(r"(^|[^\\])(\\\\)*!?\[[^\]]*\]\(").unwrap();
    for (name, text) in [("scene file", &file), ("export", &md)] {
        assert!(
            text.contains(r"!\[map](https://tracker.example"),
            "{name}: {text}"
        );
        assert!(
            !live.is_match(text),
            "{name} holds a live link or image: {text}"
        );
    }
    // Read back by the import, the prose is the model's own again.
    let manuscript = crate::import::parse_markdown(&md);
    let scenes: Vec<_> = manuscript
        .chapters
        .iter()
        .flat_map(|c| c.scenes.iter())
        .collect();
    assert_eq!(scenes[0].text, prose);
}

#[test]
fn the_author_named_in_the_foundation_is_on_every_title_page_and_the_docx_header() {
    let (_tmp, mut novel) = fixed_book();
    let edit = crate::bible::FoundationEdit {
        author: Some("  Mara   Quill ".into()),
        ..Default::default()
    };
    crate::bible::edit_foundation(&mut novel, &edit, &clock()).unwrap();
    assert_eq!(novel.config().novel.author, "Mara Quill");
    let no_override = ExportOptions {
        author: None,
        font: ManuscriptFont::TimesNewRoman,
    };
    let render_as = |format| {
        render(
            novel.store().conn(),
            novel.config(),
            format,
            &no_override,
            &clock(),
        )
        .unwrap()
    };
    let md = String::from_utf8(render_as(ExportFormat::Markdown)).unwrap();
    assert!(md.contains("\nby Mara Quill\n"), "{md}");
    let epub = entries(&render_as(ExportFormat::Epub));
    assert!(
        epub.iter()
            .any(|(_, text, _)| text.contains(">Mara Quill</dc:creator>"))
    );
    // The DOCX: the author on the title page, "Surname / Title / page" in the running header.
    let docx = render_as(ExportFormat::Docx);
    let parts = entries(&docx);
    let headers: Vec<&String> = parts
        .iter()
        .filter(|(name, _, _)| name.starts_with("word/header"))
        .map(|(_, text, _)| text)
        .collect();
    assert!(
        headers.iter().any(|h| h.contains("Quill / Salt / ")),
        "{headers:?}"
    );
    let document = &parts
        .iter()
        .find(|(name, _, _)| name == "word/document.xml")
        .unwrap()
        .1;
    assert!(
        document.contains("Mara Quill") && document.contains("by Mara Quill"),
        "the title page names the author"
    );
}
