//! Import tests: the split of Markdown (the export's own layout included) and plain text, and
//! a 30-scene manuscript imported with the scripted model (one extraction per scene, the
//! summaries and named characters stored, the manuscript's chapters kept), stopped half-way by
//! a failing call and resumed without duplicates.

use std::sync::Arc;

use novel_llm::{LlmError, ScriptedModel};
use serde_json::json;

use super::*;
use crate::export::{self, ExportFormat, ExportOptions};
use crate::store;
use crate::tick::tests::{clock, novel};

fn manuscript_of_30() -> String {
    let mut md = String::from("# The Salt Road\n\nby Mara Quill\n");
    for chapter in 1..=6 {
        if chapter == 4 {
            md.push_str("\n# Part Two\n");
        }
        md.push_str(&format!("\n## Chapter {chapter}: Tide {chapter}\n"));
        for scene in 1..=5 {
            let n = (chapter - 1) * 5 + scene;
            md.push_str(&format!(
                "\n### Scene {n}\n\nMarker{n} walked the quay at dusk.\n\n\"Who goes?\" asked the watch.\n"
            ));
        }
    }
    md
}

fn extraction(n: usize) -> serde_json::Value {
    let mut e = json!({
        "title": format!("Extracted {n}"),
        "summary": [format!("Summary of scene {n}.")],
        "tension": 4,
    });
    if n % 5 == 1 {
        e["new_characters"] = json!([{ "name": format!("Sailor {n}"), "role": "sailor" }]);
    }
    e
}

fn models(model: &ScriptedModel) -> Models {
    Models::single(Arc::new(model.clone()))
}

async fn run(novel: &mut Novel, model: &ScriptedModel) -> Result<ImportProgress, ImportError> {
    resume(
        novel,
        &models(model),
        &|_| {},
        &CancelToken::new(),
        &clock(),
        &|_, _| {},
    )
    .await
}

#[test]
fn markdown_splits_into_title_parts_chapters_and_scenes() {
    let m = parse_markdown(&manuscript_of_30());
    assert_eq!(m.title.as_deref(), Some("The Salt Road"));
    assert_eq!(m.author.as_deref(), Some("Mara Quill"));
    assert_eq!(m.chapters.len(), 6);
    assert_eq!(m.scene_count(), 30);
    assert_eq!(m.chapters[0].title.as_deref(), Some("Tide 1"));
    assert_eq!(m.chapters[3].part.as_deref(), Some("Part Two"));
    assert_eq!(m.chapters[1].scenes[0].heading.as_deref(), Some("Scene 6"));
    assert!(m.chapters[1].scenes[0].text.starts_with("Marker6 walked"));
}

#[test]
fn plain_text_finds_chapter_lines_and_scene_breaks() {
    let text = "PROLOGUE\n\nIt rained.\n\nChapter 1\n\nShe ran.\n\n* * *\n\nHe waited.\n\n\
                Part Two\n\nCHAPTER TWO: The Gate\n\nThe gate held.\n";
    let m = parse_text(text);
    let titles: Vec<_> = m
        .chapters
        .iter()
        .map(|c| c.title.clone().unwrap())
        .collect();
    assert_eq!(titles, ["Prologue", "Chapter 1", "The Gate"]);
    assert_eq!(m.chapters[1].scenes.len(), 2);
    assert_eq!(m.chapters[2].part.as_deref(), Some("Part Two"));
    // A "chapter" inside a sentence is prose.
    let m = parse_text("She read chapter 3 aloud.\n\n---\n\nThen slept.");
    assert_eq!(m.chapters.len(), 1);
    assert_eq!(m.chapters[0].title, None);
    assert_eq!(m.chapters[0].scenes.len(), 2);
}

#[test]
fn a_very_long_scene_is_cut_between_paragraphs() {
    let paragraph = "word ".repeat(500);
    let text = vec![paragraph.trim(); 20].join("\n\n");
    let m = parse_text(&text);
    let parts: Vec<usize> = m.chapters[0]
        .scenes
        .iter()
        .map(|s| s.text.split_whitespace().count())
        .collect();
    assert_eq!(parts.iter().sum::<usize>(), 10_000);
    assert!(
        parts.len() == 3 && parts.iter().all(|&w| w <= 4000),
        "{parts:?}"
    );
}

#[tokio::test]
async fn thirty_scenes_import_with_summaries_characters_and_chapters() {
    let (tmp, mut novel) = novel();
    let path = tmp.path().join("salt-road.md");
    std::fs::write(&path, manuscript_of_30()).unwrap();
    let (manuscript, format) = read_manuscript(&path).unwrap();
    start(&mut novel, "salt-road.md", format, &manuscript, &clock()).unwrap();
    let model = (1..=30).fold(ScriptedModel::new(), |m, n| m.reply_json(&extraction(n)));
    let done = run(&mut novel, &model).await.unwrap();
    assert_eq!(model.calls(), 30, "one extraction per scene");
    assert_eq!((done.done, done.total, done.finished), (30, 30, true));
    let conn = novel.store().conn();
    let scenes = store::list_scenes(conn).unwrap();
    assert_eq!(scenes.len(), 30);
    for (i, s) in scenes.iter().enumerate() {
        let n = i + 1;
        assert_eq!(s.tick as usize, n);
        assert_eq!(
            s.title,
            format!("Scene {n}"),
            "the manuscript's heading wins"
        );
        assert!(s.prose.starts_with(&format!("Marker{n} walked")));
        assert_eq!(s.summary, [format!("Summary of scene {n}.")]);
    }
    let names: Vec<String> = store::list_characters(conn)
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    for n in [1, 6, 11, 16, 21, 26] {
        assert!(names.contains(&format!("Sailor {n}")), "{names:?}");
    }
    let chapters = store::list_chapters(conn).unwrap();
    let shape: Vec<(u32, u32, &str)> = chapters
        .iter()
        .map(|c| (c.first_tick, c.last_tick, c.title.as_str()))
        .collect();
    assert_eq!(shape[0], (1, 5, "Tide 1"));
    assert_eq!(shape[5], (26, 30, "Tide 6"));
    assert_eq!(chapters[3].part_title.as_deref(), Some("Part Two"));
    assert!(
        chapters
            .iter()
            .all(|c| c.titled_by == store::TitledBy::Manuscript)
    );
    // Starting a second import is refused.
    let again = start(&mut novel, "x.md", "markdown", &manuscript, &clock());
    assert!(matches!(again, Err(ImportError::Refused(_))));
}

#[tokio::test]
async fn an_import_stopped_half_way_resumes_without_duplicates() {
    let (_tmp, mut novel) = novel();
    let manuscript = parse_markdown(&manuscript_of_30());
    start(
        &mut novel,
        "salt-road.md",
        "markdown",
        &manuscript,
        &clock(),
    )
    .unwrap();
    let failing = (1..=15)
        .fold(ScriptedModel::new(), |m, n| m.reply_json(&extraction(n)))
        .fail(LlmError::Timeout {
            provider: "p".into(),
            secs: 1,
        });
    let err = run(&mut novel, &failing).await.unwrap_err();
    match &err {
        ImportError::Stopped { done, total, .. } => assert_eq!((*done, *total), (15, 30)),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("carry on from scene 16"), "{err}");
    assert_eq!(novel.state().unwrap().current_tick, 15);
    let progress_now = progress(&novel).unwrap().unwrap();
    assert_eq!((progress_now.done, progress_now.finished), (15, false));
    // A cancel before the next scene commits changes nothing either.
    let cancel = CancelToken::new();
    cancel.cancel();
    let idle = ScriptedModel::new().otherwise(extraction(99).to_string());
    let cancelled = resume(
        &mut novel,
        &models(&idle),
        &|_| {},
        &cancel,
        &clock(),
        &|_, _| {},
    )
    .await;
    assert!(matches!(
        cancelled,
        Err(ImportError::Stopped { done: 15, .. })
    ));
    assert_eq!(novel.state().unwrap().current_tick, 15);
    let rest = (16..=30).fold(ScriptedModel::new(), |m, n| m.reply_json(&extraction(n)));
    let done = run(&mut novel, &rest).await.unwrap();
    assert_eq!(rest.calls(), 15, "only the scenes not yet in the story");
    assert_eq!((done.done, done.finished), (30, true));
    let scenes = store::list_scenes(novel.store().conn()).unwrap();
    let markers: Vec<String> = scenes
        .iter()
        .map(|s| s.prose.split_whitespace().next().unwrap().to_string())
        .collect();
    let expected: Vec<String> = (1..=30).map(|n| format!("Marker{n}")).collect();
    assert_eq!(markers, expected);
}

#[tokio::test]
async fn the_markdown_export_round_trips_through_import() {
    let (_tmp, book) = export::tests::fixed_book();
    let md = String::from_utf8(
        export::render(
            book.store().conn(),
            book.config(),
            ExportFormat::Markdown,
            &ExportOptions::default(),
            &clock(),
        )
        .unwrap(),
    )
    .unwrap();
    let manuscript = parse_markdown(&md);
    let (_tmp2, mut novel) = novel();
    start(&mut novel, "salt.md", "markdown", &manuscript, &clock()).unwrap();
    let model = ScriptedModel::new().otherwise(extraction(0).to_string());
    run(&mut novel, &model).await.unwrap();
    let original = store::list_scenes(book.store().conn()).unwrap();
    let imported = store::list_scenes(novel.store().conn()).unwrap();
    // The prose's own scene break splits the second scene in two.
    assert_eq!(imported.len(), original.len() + 1);
    assert_eq!(imported[0].title, original[0].title);
    assert_eq!(imported[0].prose, original[0].prose);
    assert_eq!(imported[1].title, "Iron & <b>Salt</b>");
    assert_eq!(imported[3].prose, "She read the names aloud.");
    let chapters = store::list_chapters(novel.store().conn()).unwrap();
    let titles: Vec<&str> = chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["Salt & Ash", "Summary of scene 3"]);
    assert_eq!(
        chapters[1].part_title.as_deref(),
        Some("Part Two: <i>Iron</i>")
    );
}

#[test]
fn the_docx_export_reads_back_as_the_same_chapters_and_scenes() {
    let (tmp, book) = export::tests::fixed_book();
    let path = tmp.path().join("salt.docx");
    let options = ExportOptions {
        author: Some("Mara Quill".into()),
        ..ExportOptions::default()
    };
    export::write_export(&book, ExportFormat::Docx, Some(&path), &options, &clock()).unwrap();
    let (m, format) = read_manuscript(&path).unwrap();
    assert_eq!(format, "docx");
    assert_eq!(m.title.as_deref(), Some("Salt"));
    let titles: Vec<_> = m
        .chapters
        .iter()
        .map(|c| c.title.clone().unwrap())
        .collect();
    assert_eq!(titles, ["Salt & Ash", "Summary of scene 3"]);
    assert_eq!(m.chapters[1].part.as_deref(), Some("Part Two: <i>Iron</i>"));
    // Scenes are separated by the manuscript's `#`, the prose's own break included.
    assert_eq!(m.chapters[0].scenes.len(), 3);
    assert!(
        m.chapters[0].scenes[0]
            .text
            .starts_with("“It’s late,” Tamsin said")
    );
    assert!(
        m.chapters[0].scenes[0]
            .text
            .contains("<script>alert(1)</script>")
    );
    assert_eq!(m.chapters[1].scenes[0].text, "She read the names aloud.");
    // The closing "# # #" is a break, not a chapter or prose; the title page is left out.
    assert!(
        m.chapters
            .iter()
            .flat_map(|c| &c.scenes)
            .all(|s| !s.text.contains("about"))
    );
}
