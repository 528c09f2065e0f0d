//! `novel summarize`: the story so far, as prose by chapter and part (the engine's synopsis),
//! or with `--by-scene` each scene's stored summary lines.

use anyhow::Result;
use novel_core::Novel;
use novel_core::ids::EntityKind;
use novel_core::views::{self, Records};

pub fn run(novel: &Novel, by_scene: bool, json: bool) -> Result<()> {
    if by_scene {
        return scenes(novel, json);
    }
    let synopsis = views::synopsis(novel.store().conn())?;
    if json {
        return crate::output::json(&synopsis);
    }
    crate::output::say!(
        "{} — the story so far ({} scenes, {} words)",
        novel.config().novel.title,
        synopsis.scenes,
        synopsis.words
    );
    if synopsis.scenes == 0 {
        crate::output::say!("\n(no scenes yet: run `novel tick`)");
    }
    for arc in &synopsis.arcs {
        crate::output::say!("\n{}", arc.title.to_uppercase());
        for chapter in &arc.chapters {
            let scenes = if chapter.first_tick == chapter.last_tick {
                format!("scene {}", chapter.first_tick)
            } else {
                format!("scenes {}–{}", chapter.first_tick, chapter.last_tick)
            };
            crate::output::say!(
                "\nChapter {}: {} ({scenes})\n{}",
                chapter.number,
                chapter.title,
                wrap(&chapter.text, 92)
            );
        }
    }
    Ok(())
}

fn scenes(novel: &Novel, json: bool) -> Result<()> {
    let Records::Scenes(scenes, _) = views::records(novel.store().conn(), EntityKind::Scene)?
    else {
        unreachable!("the records of scenes are scenes")
    };
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
        crate::output::say!("Scene {}: {}", s.tick, s.title);
        for bullet in &s.summary {
            crate::output::say!("  - {bullet}");
        }
    }
    Ok(())
}

/// Lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}
