//! `novel list`: one line per record of a kind (a scene says who wrote it when the agent did
//! not).

use std::collections::HashMap;

use anyhow::Result;
use novel_core::Novel;
use novel_core::ids::EntityKind;
use novel_core::model::Scene;
use novel_core::views::{self, Records, WrittenBy};

use crate::cli::ListKind;
use crate::output::{clip, json, say};

pub fn run(novel: &Novel, what: ListKind, as_json: bool) -> Result<()> {
    let records = views::records(novel.store().conn(), kind_of(what))?;
    if as_json {
        return json(&records);
    }
    let (count, what) = match &records {
        Records::Characters(items) => {
            for c in items {
                let (name, role) = (clip(&c.name, 24), clip(&c.role, 40));
                say!("{:<5} {name:<24} {:<8} {role}", c.id, c.status.as_str());
            }
            (items.len(), "characters")
        }
        Records::Locations(items) => {
            for l in items {
                let (name, about) = (clip(&l.name, 28), clip(&l.description, 40));
                say!(
                    "{:<5} {name:<28} tension {}  {about}",
                    l.id,
                    l.tension_level
                );
            }
            (items.len(), "locations")
        }
        Records::Relationships(items) => {
            for r in items {
                let (a, b) = (&r.character_a, &r.character_b);
                let (kind, status, intensity) = (&r.kind, &r.status, r.intensity);
                say!(
                    "{:<5} {a} – {b}  {kind} ({status}), intensity {intensity}",
                    r.id
                );
            }
            (items.len(), "relationships")
        }
        Records::Loops(items) => {
            for l in items {
                let (status, importance) = (l.status.as_str(), l.importance.as_str());
                let about = clip(&l.description, 60);
                say!("{:<5} {status:<9} {importance:<8} {about}", l.id);
            }
            (items.len(), "open loops")
        }
        Records::Lore(items) => {
            for f in items {
                let (category, fact) = (clip(&f.category, 10), clip(&f.fact, 70));
                say!("{:<5} {category:<10} {fact}", f.id);
            }
            (items.len(), "lore facts")
        }
        Records::Scenes(items, authors) => (scenes(items, authors), "scenes"),
    };
    if count == 0 {
        say!("(no {what} yet)");
    }
    Ok(())
}

/// One line per scene; the agent wrote most of the book, so only the other scenes say who
/// wrote them. Returns how many there are.
fn scenes(items: &[Scene], authors: &HashMap<u32, WrittenBy>) -> usize {
    for s in items {
        let by = match authors.get(&s.tick) {
            Some(WrittenBy::Hand) => "  by hand",
            Some(WrittenBy::Import) => "  imported",
            _ => "",
        };
        let title = clip(&s.title, 40);
        say!("{:>4}  {title:<40} {:>5} words{by}", s.tick, s.word_count);
    }
    items.len()
}

fn kind_of(what: ListKind) -> EntityKind {
    match what {
        ListKind::Characters => EntityKind::Character,
        ListKind::Locations => EntityKind::Location,
        ListKind::Relationships => EntityKind::Relationship,
        ListKind::Loops => EntityKind::Loop,
        ListKind::Lore => EntityKind::Lore,
        ListKind::Scenes => EntityKind::Scene,
    }
}
