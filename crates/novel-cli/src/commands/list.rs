//! `novel list`: one line per record of a kind (a scene says who wrote it when the agent did
//! not).

use anyhow::Result;
use novel_core::novel::Novel;
use novel_core::store;
use novel_core::views::{self, WrittenBy};

use crate::cli::ListKind;
use crate::output::{clip, json};

pub fn run(novel: &Novel, what: ListKind, as_json: bool) -> Result<()> {
    let conn = novel.store().conn();
    match what {
        ListKind::Characters => {
            let items = store::list_characters(conn)?;
            if as_json {
                return json(&items);
            }
            for c in &items {
                crate::output::say!(
                    "{:<5} {:<24} {:<8} {}",
                    c.id,
                    clip(&c.name, 24),
                    c.status.as_str(),
                    clip(&c.role, 40)
                );
            }
            empty(items.is_empty(), "characters")
        }
        ListKind::Locations => {
            let items = store::list_locations(conn)?;
            if as_json {
                return json(&items);
            }
            for l in &items {
                crate::output::say!(
                    "{:<5} {:<28} tension {}  {}",
                    l.id,
                    clip(&l.name, 28),
                    l.tension_level,
                    clip(&l.description, 40)
                );
            }
            empty(items.is_empty(), "locations")
        }
        ListKind::Relationships => {
            let items = store::list_relationships(conn, None)?;
            if as_json {
                return json(&items);
            }
            for r in &items {
                crate::output::say!(
                    "{:<5} {} – {}  {} ({}), intensity {}",
                    r.id,
                    r.character_a,
                    r.character_b,
                    r.kind,
                    r.status,
                    r.intensity
                );
            }
            empty(items.is_empty(), "relationships")
        }
        ListKind::Loops => {
            let items = store::list_loops(conn, None)?;
            if as_json {
                return json(&items);
            }
            for l in &items {
                crate::output::say!(
                    "{:<5} {:<9} {:<8} {}",
                    l.id,
                    l.status.as_str(),
                    l.importance.as_str(),
                    clip(&l.description, 60)
                );
            }
            empty(items.is_empty(), "open loops")
        }
        ListKind::Lore => {
            let items = store::list_lore(conn)?;
            if as_json {
                return json(&items);
            }
            for f in &items {
                crate::output::say!(
                    "{:<5} {:<10} {}",
                    f.id,
                    clip(&f.category, 10),
                    clip(&f.fact, 70)
                );
            }
            empty(items.is_empty(), "lore facts")
        }
        ListKind::Scenes => {
            let items = store::list_scenes(conn)?;
            if as_json {
                return json(&items);
            }
            // The agent wrote most of the book: only the other scenes say who wrote them.
            let authors = views::scene_authors(conn)?;
            for s in &items {
                let by = match authors.get(&s.tick) {
                    Some(WrittenBy::Hand) => "  by hand",
                    Some(WrittenBy::Import) => "  imported",
                    _ => "",
                };
                crate::output::say!(
                    "{:>4}  {:<40} {:>5} words{by}",
                    s.tick,
                    clip(&s.title, 40),
                    s.word_count
                );
            }
            empty(items.is_empty(), "scenes")
        }
    }
}

fn empty(is_empty: bool, what: &str) -> Result<()> {
    if is_empty {
        crate::output::say!("(no {what} yet)");
    }
    Ok(())
}
