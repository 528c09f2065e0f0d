//! The codex: one page per character, place and lore entry, as a writer keeps a story bible.
//! Its fields in a writer's order with ids resolved to names, a character's relationships by
//! name, where the book mentions it (prose passages naming it or one of its aliases, from the
//! keyword index in one query, each with its scene), and its history as plain sentences.

use std::collections::HashMap;

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use super::book_search::{Mark, query_marks};
use super::entity::{EntityDetail, entity_detail};
use super::sentences::{HistoryLine, Subject, history_lines, plain, when};
use crate::ids::{EntityId, EntityKind};
use crate::model::{Character, Location, LoreFact};
use crate::store::{self, StoreError};

/// The most passages read for a page: far more than a main character of a 300-scene book
/// has (a bound against a runaway, not a page size).
const PASSAGE_LIMIT: u32 = 20_000;
/// Passages shown per scene: where the name first comes, and once more.
const PER_SCENE: usize = 2;
/// Characters of prose shown before and after the name in a snippet.
const BEFORE: usize = 100;
const AFTER: usize = 160;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CodexEntry {
    pub id: String,
    /// character, location or lore.
    pub kind: String,
    /// What the page is called: the name, or a lore entry's first words.
    pub name: String,
    /// The record's fields in a writer's order, in words.
    pub fields: Vec<CodexField>,
    /// What it is filed under: a character's role, a lore entry's category.
    pub category: Option<String>,
    /// Its tags: a lore entry's keywords.
    pub tags: Vec<String>,
    /// A character's relationships, by the other person's name.
    pub relationships: Vec<CodexRelationship>,
    /// Prose passages naming it, first scene first (the first two of each scene).
    pub mentions: Vec<Mention>,
    /// How many scenes name it.
    pub mention_scenes: u32,
    /// What the page searched the book for: the name and aliases.
    pub searched: Vec<String>,
    /// Every recorded change, oldest first, as a sentence.
    pub history: Vec<HistoryLine>,
    /// The record itself and its raw history, for the edit form.
    pub detail: EntityDetail,
}

/// One field: a line of text, or a list of items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CodexField {
    /// The stored field (`arc.want` for a nested one).
    pub key: String,
    pub label: String,
    /// Empty for a list field, or a field not filled in.
    pub text: String,
    pub items: Vec<String>,
}

/// A relationship seen from the page's character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CodexRelationship {
    pub other_id: String,
    pub other: String,
    /// ally, rival, family… (empty when unrecorded).
    pub kind: String,
    /// Where it stands (empty when unrecorded).
    pub status: String,
    /// How the page's character sees the other.
    pub sees_them: String,
    /// How the other sees the page's character.
    pub seen_by_them: String,
}

/// A passage of the book naming the page's subject.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Mention {
    pub scene_id: String,
    pub tick: u32,
    pub scene_title: String,
    /// Words around the name; model prose, to be shown as text.
    pub snippet: String,
    /// Where the names are in `snippet`, in characters.
    pub marks: Vec<Mark>,
}

/// The codex page of the character, place or lore entry `id`; `None` when there is none, or
/// the id is of another kind or malformed (ids come from the UI and are untrusted).
pub fn codex_entry(conn: &Connection, id: &str) -> Result<Option<CodexEntry>, StoreError> {
    let Ok(parsed) = id.parse::<EntityId>() else {
        return Ok(None);
    };
    let id = parsed.to_string();
    let names = store::display_names(conn)?;
    let page = match parsed.kind() {
        EntityKind::Character => store::get_character(conn, &id)?
            .map(|c| character_page(conn, &c, &names))
            .transpose()?,
        EntityKind::Location => store::get_location(conn, &id)?.map(|l| place_page(&l, &names)),
        EntityKind::Lore => store::get_lore(conn, &id)?.map(|f| lore_page(&f)),
        _ => None,
    };
    let Some(page) = page else {
        return Ok(None);
    };
    let Some(detail) = entity_detail(conn, &id)? else {
        return Ok(None);
    };
    let subject = match parsed.kind() {
        EntityKind::Character => Subject::Character,
        EntityKind::Location => Subject::Place,
        _ => Subject::Lore,
    };
    let history = history_lines(subject, &store::history_of(conn, &id)?, &names);
    let rows = store::name_mentions(conn, &page.searched, PASSAGE_LIMIT)?;
    let phrase = page.searched.join(" ");
    let mut scenes: Vec<u32> = rows.iter().map(|r| r.tick).collect();
    scenes.dedup();
    let mut mentions: Vec<Mention> = Vec::new();
    for r in rows {
        let shown = mentions
            .iter()
            .rev()
            .take_while(|m| m.tick == r.tick)
            .count();
        if shown == PER_SCENE {
            continue;
        }
        let snippet = snippet_around(&r.body, &phrase);
        mentions.push(Mention {
            marks: query_marks(&snippet, &phrase),
            scene_id: r.scene_id,
            tick: r.tick,
            scene_title: r.title,
            snippet,
        });
    }
    Ok(Some(CodexEntry {
        id,
        kind: parsed.kind().as_str().to_string(),
        name: page.name,
        fields: page.fields,
        category: page.category,
        tags: page.tags,
        relationships: page.relationships,
        mentions,
        mention_scenes: scenes.len() as u32,
        searched: page.searched,
        history,
        detail,
    }))
}

/// What each kind contributes to its page.
struct Page {
    name: String,
    fields: Vec<CodexField>,
    category: Option<String>,
    tags: Vec<String>,
    relationships: Vec<CodexRelationship>,
    searched: Vec<String>,
}

fn text(key: &str, label: &str, value: &str) -> CodexField {
    CodexField {
        key: key.into(),
        label: label.into(),
        text: value.trim().to_string(),
        items: Vec::new(),
    }
}

fn list(key: &str, label: &str, items: &[String]) -> CodexField {
    CodexField {
        key: key.into(),
        label: label.into(),
        text: String::new(),
        items: items
            .iter()
            .filter(|i| !i.trim().is_empty())
            .cloned()
            .collect(),
    }
}

fn facts(facts: &std::collections::BTreeMap<String, String>) -> CodexField {
    let items: Vec<String> = facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    list("facts", "Facts", &items)
}

fn named(ids: &[String], names: &HashMap<String, String>) -> Vec<String> {
    ids.iter()
        .map(|id| plain(&Value::String(id.clone()), names))
        .collect()
}

fn first_scene(tick: u32) -> String {
    let at = when(tick);
    let mut chars = at.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Titles before a first name, which alone would name many people.
const TITLES: &[&str] = &[
    "mr", "mrs", "miss", "ms", "dr", "doctor", "captain", "lady", "lord", "sir", "the", "old",
    "young", "father", "mother", "sister", "brother", "master", "mistress", "king", "queen",
    "prince", "princess", "saint", "uncle", "aunt",
];

/// A character is mostly called by a first name: "Tamsin" for "Tamsin Vale".
fn first_name(name: &str) -> Option<String> {
    let mut words = name.split_whitespace();
    let first = words.next()?;
    words.next()?;
    let bare: String = first.chars().filter(|c| c.is_alphanumeric()).collect();
    (bare.chars().count() >= 3 && !TITLES.contains(&bare.to_lowercase().as_str())).then_some(bare)
}

fn character_page(
    conn: &Connection,
    c: &Character,
    names: &HashMap<String, String>,
) -> Result<Page, StoreError> {
    let location = c
        .last_location
        .as_deref()
        .map(|l| plain(&Value::String(l.into()), names))
        .unwrap_or_default();
    let fields = vec![
        text("role", "Role", &c.role),
        list("aliases", "Also known as", &c.aliases),
        text("description", "Description", &c.description),
        list("personality", "Personality", &c.personality),
        text("arc.want", "Wants", &c.arc.want),
        text("arc.need", "Needs", &c.arc.need),
        list("goals", "Goals", &c.goals),
        list("fears", "Fears", &c.fears),
        text(
            "emotional_state",
            "Emotional state",
            c.emotional_state.as_deref().unwrap_or(""),
        ),
        text("arc.phase", "Where the arc stands", &c.arc.phase),
        text("last_location", "Last seen at", &location),
        text("status", "Alive or dead", c.status.as_str()),
        list("inventory", "Carries", &c.inventory),
        facts(&c.facts),
        text("first_tick", "First appears", &first_scene(c.first_tick)),
    ];
    let mut relationships: Vec<CodexRelationship> = store::list_relationships(conn, Some(&c.id))?
        .into_iter()
        .map(|r| {
            let other = r.other(&c.id).to_string();
            CodexRelationship {
                other: plain(&Value::String(other.clone()), names),
                kind: r.kind.clone(),
                status: r.status.clone(),
                sees_them: r.perspective_of(&c.id).to_string(),
                seen_by_them: r.perspective_of(&other).to_string(),
                other_id: other,
            }
        })
        .collect();
    // The character's own one-line views: beside the recorded relationship, or alone.
    for (other, view) in &c.relationships {
        match relationships.iter_mut().find(|r| &r.other_id == other) {
            Some(r) if r.sees_them.trim().is_empty() => r.sees_them = view.clone(),
            Some(_) => {}
            None => relationships.push(CodexRelationship {
                other_id: other.clone(),
                other: plain(&Value::String(other.clone()), names),
                kind: String::new(),
                status: String::new(),
                sees_them: view.clone(),
                seen_by_them: String::new(),
            }),
        }
    }
    let mut searched = vec![c.name.clone()];
    searched.extend(first_name(&c.name));
    searched.extend(c.aliases.iter().cloned());
    Ok(Page {
        name: c.name.clone(),
        fields,
        category: Some(c.role.trim().to_string()).filter(|r| !r.is_empty()),
        tags: Vec::new(),
        relationships,
        searched: unique(searched),
    })
}

fn place_page(l: &Location, names: &HashMap<String, String>) -> Page {
    let fields = vec![
        list("aliases", "Also known as", &l.aliases),
        text("description", "Description", &l.description),
        list("sensory", "Sensory details", &l.sensory),
        list("threats", "Threats", &l.threats),
        text(
            "tension_level",
            "Tension",
            &format!("{} of 5", l.tension_level),
        ),
        list("connections", "Leads to", &named(&l.connections, names)),
        list(
            "inhabitants",
            "Who is found here",
            &named(&l.inhabitants, names),
        ),
        facts(&l.facts),
        text("first_tick", "First appears", &first_scene(l.first_tick)),
    ];
    let mut searched = vec![l.name.clone()];
    searched.extend(l.aliases.iter().cloned());
    Page {
        name: l.name.clone(),
        fields,
        category: None,
        tags: Vec::new(),
        relationships: Vec::new(),
        searched: unique(searched),
    }
}

fn lore_page(f: &LoreFact) -> Page {
    let fields = vec![
        text("fact", "Fact", &f.fact),
        text("category", "Category", &f.category),
        text("importance", "Importance", f.importance.as_str()),
        list("keywords", "Keywords", &f.keywords),
        list("aliases", "Also known as", &f.aliases),
        text(
            "always_on",
            "In every scene's context",
            if f.always_on { "yes" } else { "no" },
        ),
        text(
            "source_tick",
            "Comes from",
            &f.source_tick
                .map(|t| format!("Scene {t}"))
                .unwrap_or_default(),
        ),
    ];
    let mut searched = f.aliases.clone();
    searched.extend(f.keywords.iter().cloned());
    Page {
        name: crate::text::clip(&f.fact, 60),
        fields,
        category: Some(f.category.trim().to_string()).filter(|c| !c.is_empty()),
        tags: f.keywords.clone(),
        relationships: Vec::new(),
        searched: unique(searched),
    }
}

/// `names` without blanks and repeats (case aside), in order.
fn unique(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let n = n.trim().to_string();
        if !n.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(&n)) {
            out.push(n);
        }
    }
    out
}

/// A few lines of `body` around the first of the names' words (the passage's opening when none
/// is found as a word, e.g. a stemmed match), cut at spaces, with "…" where text was left out.
pub(super) fn snippet_around(body: &str, names: &str) -> String {
    let chars: Vec<char> = body.chars().collect();
    let at = query_marks(body, names)
        .first()
        .map(|m| m.start as usize)
        .unwrap_or(0);
    let mut start = at.saturating_sub(BEFORE);
    while start > 0 && start < at && !chars[start - 1].is_whitespace() {
        start += 1;
    }
    let mut end = (at + AFTER).min(chars.len());
    while end < chars.len() && end > at && !chars[end].is_whitespace() {
        end -= 1;
    }
    let text: String = chars[start..end].iter().collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    format!(
        "{}{text}{}",
        if start > 0 { "…" } else { "" },
        if end < chars.len() { "…" } else { "" }
    )
}
