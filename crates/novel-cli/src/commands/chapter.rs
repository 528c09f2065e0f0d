//! `novel chapter list|rename|split|merge|part|propose`: the book's chapters and parts.

use std::path::Path;

use anyhow::Result;
use novel_core::chapters;
use novel_core::clock::SystemClock;
use novel_core::views::ChapterView;
use novel_core::{Access, Novel};

use crate::cli::ChapterCommand;
use crate::output::{clip, json, say};

pub fn run(dir: &Path, cmd: ChapterCommand, as_json: bool) -> Result<()> {
    if let ChapterCommand::List = cmd {
        return print_list(&chapters::list(&Novel::open(dir, Access::Read)?)?, as_json);
    }
    let mut novel = Novel::open(dir, Access::Write)?;
    let clock = SystemClock;
    let changed = match cmd {
        ChapterCommand::List => unreachable!("listed above"),
        ChapterCommand::Rename { number, title } => {
            chapters::rename(&mut novel, number, &title, &clock)?
        }
        ChapterCommand::Split { number, at } => chapters::split(&mut novel, number, at, &clock)?,
        ChapterCommand::Merge { number } => chapters::merge(&mut novel, number, &clock)?,
        ChapterCommand::Part { number, title } => {
            chapters::set_part(&mut novel, number, title.as_deref(), &clock)?
        }
        ChapterCommand::Propose { every } => {
            return print_list(&chapters::propose(&mut novel, every, &clock)?, as_json);
        }
        ChapterCommand::Delete { .. } | ChapterCommand::Move { .. } => {
            unreachable!("shaping commands run in `scene`")
        }
    };
    if as_json {
        return json(&changed);
    }
    say!("{}", line(&changed));
    Ok(())
}

fn print_list(chapters: &[ChapterView], as_json: bool) -> Result<()> {
    if as_json {
        return json(&chapters);
    }
    if chapters.is_empty() {
        say!("No chapters yet: the book has no scenes.");
        return Ok(());
    }
    for c in chapters {
        if let Some(part) = &c.part_title {
            say!("{}", clip(part, 70));
        }
        say!("{}", line(c));
    }
    if chapters.iter().any(|c| c.proposed) {
        say!("(proposed: titled from the scenes; `novel chapter rename N TITLE` to name one)");
    }
    Ok(())
}

fn line(c: &ChapterView) -> String {
    let range = if c.first_tick == c.last_tick {
        format!("scene {}", c.first_tick)
    } else {
        format!("scenes {}–{}", c.first_tick, c.last_tick)
    };
    format!(
        "{:>3}. {:<50} {range}, {} words{}",
        c.number,
        clip(&c.title, 50),
        c.words,
        if c.proposed { "  (proposed)" } else { "" }
    )
}
