//! `novel summarize`: the story so far, one block per scene, from the stored summaries.

use anyhow::Result;
use novel_core::novel::Novel;
use novel_core::store;

pub fn run(novel: &Novel, json: bool) -> Result<()> {
    let scenes = store::list_scenes(novel.store().conn())?;
    if json {
        let items: Vec<_> = scenes
            .iter()
            .map(|s| serde_json::json!({"tick": s.tick, "title": s.title, "summary": s.summary}))
            .collect();
        return crate::output::json(&items);
    }
    crate::output::say!(
        "{} — the story so far ({} scenes)\n",
        novel.config().novel.title,
        scenes.len()
    );
    if scenes.is_empty() {
        crate::output::say!("(no scenes yet: run `novel tick`)");
    }
    for s in &scenes {
        crate::output::say!("Tick {}: {}", s.tick, s.title);
        for bullet in &s.summary {
            crate::output::say!("  - {bullet}");
        }
    }
    Ok(())
}
