//! The import behind Library → Import against the local test server over real HTTP: a
//! manuscript becomes a novel with every scene and the characters its extractions named; a
//! stop half-way keeps what was adopted and a resume finishes without duplicates; a file that
//! is not a manuscript leaves no folder behind.

use std::sync::Mutex;

use novel_llm::{ProviderKind, ProviderProfile};
use novel_test_server::{Reply, Rule, Script, TestServer};

use super::*;

fn manuscript(scenes: usize) -> String {
    let mut md = String::from("# The Salt Road\n\nby Mara Quill\n\n## Chapter 1: Tide\n");
    for n in 1..=scenes {
        md.push_str(&format!("\n### Scene {n}\n\nMarker{n} walked the quay.\n"));
    }
    md
}

/// The manuscript `file` imported as found (what the writer confirms by pressing Import).
fn create_as_found(file: &Path, parent: &Path, form: NewNovelForm) -> AppResult<Novel> {
    let chosen = read_chosen(file)?;
    let shape = ImportShape::as_found(&chosen.preview);
    create_from(&chosen, &shape, parent, form)
}

fn form() -> NewNovelForm {
    NewNovelForm {
        premise: "A pilot guides ships past a drowned city.".into(),
        language: "English".into(),
        protagonist_name: "Tamsin".into(),
        location_name: "Rainmarket".into(),
        goal: "Get home".into(),
        ..NewNovelForm::default()
    }
}

async fn server() -> TestServer {
    let extraction = serde_json::json!({
        "title": "Quay", "summary": ["Someone walks the quay."], "tension": 3,
        "new_characters": [{"name": "Wren Harrow", "role": "harbour pilot"}]
    });
    TestServer::start(Script::new().rule(Rule::any().reply(Reply::text(extraction.to_string()))))
        .await
        .unwrap()
}

fn models(novel: &Novel, server: &TestServer) -> Models {
    let profiles = ProviderConfig {
        default_profile: Some("test".into()),
        profiles: vec![
            ProviderProfile::new("test", ProviderKind::OpenAiCompatible, "test-model")
                .with_base_url(server.base_url())
                .with_retries(0, 1),
        ],
    };
    role_models::models_for(novel, &profiles, None, Limits::default()).unwrap()
}

fn count(novel: &Novel, sql: &str) -> i64 {
    novel
        .store()
        .conn()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

#[tokio::test]
async fn a_manuscript_becomes_a_novel_scene_by_scene_with_progress() {
    let server = server().await;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("salt-road.md");
    std::fs::write(&file, manuscript(4)).unwrap();
    let mut novel = create_as_found(&file, tmp.path(), form()).unwrap();
    assert_eq!(novel.root(), tmp.path().join("the-salt-road"));
    assert_eq!(novel.config().novel.title, "The Salt Road");
    assert_eq!(novel.config().novel.author, "Mara Quill");
    let models = models(&novel, &server);
    let events = Mutex::new(Vec::new());
    let send = |e: ImportEvent| events.lock().unwrap().push(e);
    let (progress, stopped) = adopt(&mut novel, &models, &CancelToken::new(), &send)
        .await
        .unwrap();
    assert_eq!(stopped, None);
    assert_eq!(
        (progress.done, progress.total, progress.finished),
        (4, 4, true)
    );
    let events = events.into_inner().unwrap();
    assert_eq!(
        events[0],
        ImportEvent::Started {
            source: "salt-road.md".into(),
            done: 0,
            total: 4
        }
    );
    assert_eq!(
        events[1..],
        (1..=4)
            .map(|done| ImportEvent::Scene { done, total: 4 })
            .collect::<Vec<_>>()
    );
    assert_eq!(count(&novel, "SELECT count(*) FROM scenes"), 4);
    assert_eq!(
        count(
            &novel,
            "SELECT count(*) FROM characters WHERE name = 'Wren Harrow'"
        ),
        1
    );
}

#[tokio::test]
async fn a_stopped_import_keeps_its_scenes_and_resumes_without_duplicates() {
    let server = server().await;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("salt-road.md");
    std::fs::write(&file, manuscript(5)).unwrap();
    let mut novel = create_as_found(&file, tmp.path(), form()).unwrap();
    let models = models(&novel, &server);
    let cancel = CancelToken::new();
    // The writer presses Stop once the second scene is in.
    let send = |e: ImportEvent| {
        if e == (ImportEvent::Scene { done: 2, total: 5 }) {
            cancel.cancel();
        }
    };
    let (progress, stopped) = adopt(&mut novel, &models, &cancel, &send).await.unwrap();
    assert_eq!((progress.done, progress.finished), (2, false));
    let stopped = stopped.expect("a stop is reported");
    assert!(
        stopped.starts_with("You stopped the import after 2 of 5 scenes")
            && stopped.contains("carry on from scene 3"),
        "{stopped}"
    );
    assert_eq!(count(&novel, "SELECT count(*) FROM scenes"), 2);

    let seen = Mutex::new(Vec::new());
    let send = |e: ImportEvent| seen.lock().unwrap().push(e);
    let (progress, stopped) = adopt(&mut novel, &models, &CancelToken::new(), &send)
        .await
        .unwrap();
    assert_eq!((progress.done, progress.total, stopped), (5, 5, None));
    assert_eq!(
        seen.into_inner().unwrap()[0],
        ImportEvent::Started {
            source: "salt-road.md".into(),
            done: 2,
            total: 5
        },
        "the resume starts where the stop left off"
    );
    assert_eq!(count(&novel, "SELECT count(*) FROM scenes"), 5);
    assert_eq!(
        count(&novel, "SELECT count(DISTINCT prose) FROM scenes"),
        5,
        "no scene twice"
    );
}

#[test]
fn what_cannot_be_imported_leaves_no_novel_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let pdf = tmp.path().join("book.pdf");
    std::fs::write(&pdf, b"%PDF").unwrap();
    let err = create_as_found(&pdf, tmp.path(), form()).unwrap_err();
    assert!(
        matches!(&err, AppError::InvalidInput { message } if message.contains("save it as Markdown (.md)")),
        "{err:?}"
    );
    let empty = tmp.path().join("empty.md");
    std::fs::write(&empty, "# Title only\n").unwrap();
    assert!(matches!(
        create_as_found(&empty, tmp.path(), form()),
        Err(AppError::InvalidInput { .. })
    ));
    let file = tmp.path().join("ok.md");
    std::fs::write(&file, manuscript(1)).unwrap();
    let no_goal = NewNovelForm {
        goal: String::new(),
        ..form()
    };
    assert!(matches!(
        create_as_found(&file, tmp.path(), no_goal),
        Err(AppError::InvalidForm { fields, .. }) if fields.iter().any(|f| f.field == "goal")
    ));
    let mut left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    left.sort();
    assert_eq!(left, ["book.pdf", "empty.md", "ok.md"]);
}
