//! The story-mind benchmark's thirty scenes on the engine as it was before the story-mind work
//! (commit cd4f394): copied into that commit's `tick/` by `scripts/story-mind-before.sh`, never
//! compiled in the current tree. The same novel, the same scripted answers and the same
//! "tending" planner as `tick::tests_story_mind` (it takes the first loop its prompt lists),
//! with what that engine lacked left out: there was no `loop.update` tool to let a thread go,
//! no plan verdict in the extraction, and the list was ordered by importance alone. The book is
//! kept in `$STORY_MIND_OUT` for the current `novel audit` to read.

use std::cell::RefCell;
use std::path::Path;

use novel_llm::ScriptedModel;
use serde_json::{Value, json};

use super::tests::{PROSE, extraction, novel, tick};
use crate::novel::Novel;

const SCENES: u32 = 30;

const THINGS: [&str; 15] = [
    "lantern", "ledger", "anchor", "compass", "locket", "charter", "rope", "seal", "map", "key",
    "bell", "knife", "coin", "letter", "cask",
];
const IMPORTANCE: [&str; 3] = ["medium", "low", "high"];

/// The first loop the next planner prompt lists, as `(id, importance)`.
async fn first_offered(novel: &Novel) -> Option<(String, String)> {
    let preview = super::preview::preview_next(novel, None).await.unwrap();
    preview.user.lines().find_map(|line| {
        let rest = line.strip_prefix("- O")?;
        let id = format!("O{}", rest.split_whitespace().next()?);
        let importance = rest.split('[').nth(1)?.split(',').next()?.to_string();
        Some((id, importance))
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[tokio::test]
async fn thirty_scenes_before_the_story_mind() {
    let Some(out) = std::env::var_os("STORY_MIND_OUT") else {
        eprintln!("STORY_MIND_OUT not set: nothing to keep");
        return;
    };
    let (tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    for t in 1..=SCENES {
        let target = first_offered(&novel).await;
        let plan = json!({
            "rationale": "Keep the threads moving.",
            "scene_intention": format!("Tamsin presses on with {}.", target.as_ref().map_or("her search", |l| l.0.as_str())),
            "pov_character": "C0", "target_location": "L0", "actions": [],
            "expected_outcomes": ["a thread moves"]
        });
        let mut read = extraction();
        read["title"] = json!(format!("Scene {t}"));
        read["summary"] = json!([
            format!("Tamsin follows thread {t}."),
            "The tide turns.",
            "Someone watches."
        ]);
        read["character_updates"] = json!([]);
        read["loops_opened"] = if t % 2 == 1 {
            let thing = THINGS[(t as usize / 2) % THINGS.len()];
            json!([{"description": format!("Who hid the {thing} at the harbour wall?"),
                    "category": "mystery", "importance": IMPORTANCE[(t as usize / 2) % 3]}])
        } else {
            json!([])
        };
        let (advanced, resolved): (Value, Value) = match &target {
            Some((id, importance)) if t % 3 == 0 && importance != "critical" => {
                (json!([]), json!([{"id": id, "note": "answered"}]))
            }
            Some((id, _)) => (json!([{"id": id, "note": "a step closer"}]), json!([])),
            None => (json!([]), json!([])),
        };
        read["loops_advanced"] = advanced;
        read["loops_resolved"] = resolved;
        let prose = format!("{PROSE}\n\nOn the {t}th night the harbour kept its own counsel.");
        let model = ScriptedModel::new()
            .reply_json(&plan)
            .reply(prose)
            .reply_json(&read);
        tick(&mut novel, &model, &events).await.unwrap();
        assert_eq!(model.calls(), 3, "scene {t}: a clean tick makes three calls");
    }
    let root = novel.root().to_path_buf();
    drop(novel);
    copy_dir(&root, Path::new(&out));
    drop(tmp);
}
