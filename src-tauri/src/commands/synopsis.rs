//! The story so far: the book's synopsis as prose, a paragraph per chapter gathered by part or
//! arc (`novel_core::views::synopsis`, the same text `novel summarize` prints). Thin: the
//! engine tells the story, this reads the novel and hands it over.

use novel_core::Novel;
use novel_core::views::{self, Synopsis};
use tauri::State;

use crate::error::AppResult;
use crate::state::AppState;

/// The story so far on the current branch; no model is asked anything.
#[tauri::command]
#[specta::specta]
pub async fn story_synopsis(state: State<'_, AppState>) -> AppResult<Synopsis> {
    let novel = state.session()?.read()?;
    synopsis_of(&novel)
}

fn synopsis_of(novel: &Novel) -> AppResult<Synopsis> {
    Ok(views::synopsis(novel.store().conn())?)
}

#[cfg(test)]
mod tests {
    use novel_core::Access;
    use novel_core::clock::SystemClock;
    use novel_core::shape::{self, Place};

    use super::*;
    use crate::commands::test_novel::salt;

    #[test]
    fn the_story_so_far_tells_each_chapter_from_its_scenes() {
        let dir = tempfile::tempdir().unwrap();
        let mut novel = salt(dir.path(), Access::Write);
        assert!(synopsis_of(&novel).unwrap().arcs.is_empty(), "no scene yet");
        shape::add_scene(
            &mut novel,
            Place::EndOfChapter(1),
            "The quay",
            "Tamsin counted the crates twice. The ledger was short by one.",
            &SystemClock,
        )
        .unwrap();
        let story = synopsis_of(&novel).unwrap();
        assert_eq!(story.scenes, 1);
        let chapter = &story.arcs[0].chapters[0];
        assert_eq!((chapter.first_tick, chapter.last_tick), (1, 1));
        assert!(chapter.text.contains("Tamsin"), "{}", chapter.text);
    }
}
