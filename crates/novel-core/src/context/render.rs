//! How each piece of story memory reads inside a prompt: terse lines, ids in parentheses so the
//! planner and extractor can name entities exactly, empty fields left out (every token is paid
//! for on every tick). Each function returns items, most important first unless noted, for
//! the budget's trimming rule to drop whole.

use std::collections::HashMap;

use crate::config::Foundation;
use crate::evaluate::OffPageDeath;
use crate::ids::EntityKind;
use crate::model::{
    Beat, BeatStatus, Character, EventStatus, Importance, LifeStatus, Location, LoreFact, OpenLoop,
    PressureClock, Relationship, Scene, StoryEvent,
};

use super::budget::{TRIM_MARKER, cut_words_from_start, word_starts};

/// Id → display name, for naming the other end of a relationship or connection.
pub(crate) type Names = HashMap<String, String>;

fn name_of<'a>(names: &'a Names, id: &'a str) -> &'a str {
    names.get(id).map(String::as_str).unwrap_or(id)
}

fn labelled(label: &str, parts: &[String], sep: &str) -> Option<String> {
    let parts: Vec<&str> = parts
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect();
    (!parts.is_empty()).then(|| format!("{label}: {}", parts.join(sep)))
}

fn line(label: &str, value: &str) -> Option<String> {
    let value = value.trim();
    (!value.is_empty()).then(|| format!("{label}: {value}"))
}

pub(crate) fn foundation(f: &Foundation) -> Vec<String> {
    // The title is left out: every template names the novel in its own words.
    [
        line("Genre", &f.genre),
        line("Premise", &f.premise),
        line("Setting", &f.setting),
        line("Themes", &f.themes.join(", ")),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn status_note(status: LifeStatus) -> &'static str {
    match status {
        LifeStatus::Alive => "",
        LifeStatus::Dead => " [DEAD]",
        LifeStatus::Unknown => " [fate unknown]",
    }
}

/// The POV character in full: what the writer needs to stay inside their head.
pub(crate) fn character(c: &Character) -> Vec<String> {
    let mut head = format!("{} ({})", c.name, c.id);
    if !c.role.trim().is_empty() {
        head.push_str(&format!(", {}", c.role.trim()));
    }
    head.push_str(status_note(c.status));
    let facts: Vec<String> = c.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let arc = [
        (!c.arc.want.trim().is_empty()).then(|| format!("wants {}", c.arc.want.trim())),
        (!c.arc.need.trim().is_empty()).then(|| format!("needs {}", c.arc.need.trim())),
        (!c.arc.phase.trim().is_empty()).then(|| format!("phase: {}", c.arc.phase.trim())),
    ];
    let arc: Vec<String> = arc.into_iter().flatten().collect();
    let conditions: Vec<String> = c
        .active_conditions()
        .map(|k| format!("{} (since tick {})", k.name.trim(), k.since_tick))
        .collect();
    // What a scene rarely changes comes first and what most scenes change last, so that the
    // prompts of consecutive ticks share a longer prefix for the servers' caches.
    [
        Some(head),
        line("Description", &c.description),
        labelled("Personality", &c.personality, ", "),
        labelled("Also called", &c.aliases, ", "),
        labelled("Facts", &facts, "; "),
        labelled("Arc", &arc, "; "),
        labelled("Fears", &c.fears, "; "),
        labelled("Goals", &c.goals, "; "),
        labelled("Living with", &conditions, "; "),
        line("Feels", c.emotional_state.as_deref().unwrap_or("")),
        labelled("Carries", &c.inventory, ", "),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// What happened on the page that the POV character has not seen or heard of: the writer must
/// keep the narration from knowing it until the character learns it.
pub(crate) fn unknown_to(pov: &Character, deaths: &[OffPageDeath]) -> Option<String> {
    if deaths.is_empty() {
        return None;
    }
    let listed: Vec<String> = deaths
        .iter()
        .map(|d| {
            format!(
                "{} is dead (scene of tick {})",
                d.character_name.trim(),
                d.tick
            )
        })
        .collect();
    Some(format!(
        "Not known to {} yet (they were not there and nobody has told them; the narration must \
         not know it until they learn it on the page): {}",
        pov.name.trim(),
        listed.join("; ")
    ))
}

/// The POV character's relationships, strongest first, each with how the POV sees it.
pub(crate) fn relationships(pov: &Character, rels: &[Relationship], names: &Names) -> Vec<String> {
    let mut rels: Vec<&Relationship> = rels.iter().collect();
    rels.sort_by_key(|r| std::cmp::Reverse(r.intensity));
    rels.iter()
        .map(|r| {
            let other = r.other(&pov.id);
            let mut item = format!(
                "- {} ({other}): {}, {}, {}/10",
                name_of(names, other),
                r.kind,
                r.status,
                r.intensity
            );
            let view = r.perspective_of(&pov.id).trim();
            if !view.is_empty() {
                item.push_str(&format!(". {}'s view: \"{view}\"", pov.name));
            }
            item
        })
        .collect()
}

/// The scene's place: what it is like, where it leads, and who else is there.
pub(crate) fn location(l: &Location, present: &[&Character], names: &Names) -> Vec<String> {
    let mut head = format!("{} ({}), tension {}/5", l.name, l.id, l.tension_level);
    if !l.description.trim().is_empty() {
        head.push_str(&format!(": {}", l.description.trim()));
    }
    let present: Vec<String> = present
        .iter()
        .map(|c| {
            let mut s = format!("{} ({})", c.name, c.id);
            if !c.role.trim().is_empty() {
                s.push_str(&format!(", {}", c.role.trim()));
            }
            s.push_str(status_note(c.status));
            s
        })
        .collect();
    let exits: Vec<String> = l
        .connections
        .iter()
        .map(|id| format!("{} ({id})", name_of(names, id)))
        .collect();
    let facts: Vec<String> = l.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    [
        Some(head),
        labelled("Present", &present, "; "),
        labelled("Senses", &l.sensory, "; "),
        labelled("Threats", &l.threats, "; "),
        labelled("People", &l.inhabitants, ", "),
        labelled("Leads to", &exits, ", "),
        labelled("Facts", &facts, "; "),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Open loops as the store orders them (most important first).
/// More open loops than this and the list opens by asking for one to be closed or tended
/// (InkOS's hook ledger draws its line at twelve active hooks too).
pub(crate) const CROWDED_LOOPS: usize = 12;
/// The open loops in order of need: how long each has waited since a scene last touched it,
/// weighted by its importance (a critical thread waits a quarter as long as a low one before
/// it leads), ties to the more important and older. Each line gives the tick it was last
/// touched, not a running count, so the list reads the same from tick to tick until a loop
/// changes or two swap places: it sits in the prompts' stable prefix, which the servers'
/// caches reuse. `next_tick` is the scene being planned.
pub(crate) fn loops(loops: &[OpenLoop], next_tick: u32) -> Vec<String> {
    let mut items = Vec::with_capacity(loops.len() + 1);
    if loops.len() > CROWDED_LOOPS {
        items.push(format!(
            "{} threads are open, more than {CROWDED_LOOPS}: let this scene resolve one, or park, abandon or merge one with loop.update.",
            loops.len()
        ));
    }
    items.extend(by_need(loops, next_tick).into_iter().map(loop_line));
    items
}

/// The open loops in the planner's order of need (see [`loops`]).
pub(crate) fn by_need(loops: &[OpenLoop], next_tick: u32) -> Vec<&OpenLoop> {
    let touched = |l: &OpenLoop| {
        l.notes
            .last()
            .map_or(l.opened_tick, |n| n.tick.max(l.opened_tick))
    };
    let weight = |l: &OpenLoop| match l.importance {
        Importance::Critical => 4,
        Importance::High => 3,
        Importance::Medium => 2,
        Importance::Low => 1,
    };
    let need = |l: &OpenLoop| weight(l) * u64::from(next_tick.saturating_sub(touched(l)).max(1));
    let mut by_need: Vec<&OpenLoop> = loops.iter().collect();
    by_need.sort_by_key(|l| {
        (
            std::cmp::Reverse(need(l)),
            std::cmp::Reverse(l.importance),
            l.opened_tick,
        )
    });
    by_need
}

/// One open loop in full: id, importance, category, question, when it opened and its last note.
pub(crate) fn loop_line(l: &OpenLoop) -> String {
    let mut item = format!(
        "- {} [{}, {}] {} (since tick {}",
        l.id,
        l.importance.as_str(),
        l.category,
        l.description.trim(),
        l.opened_tick
    );
    if let Some(note) = l.notes.last() {
        item.push_str(&format!("; tick {}: {}", note.tick, note.note.trim()));
    }
    item.push(')');
    item
}

/// Words of a loop's question in its one-line brief.
const BRIEF_WORDS: usize = 12;

/// One open loop in brief: its id and the start of its question, for a list where the loops a
/// scene touches are shown in full and the rest only so that none is opened again.
pub(crate) fn loop_brief(l: &OpenLoop) -> String {
    format!("- {} {}", l.id, lead(l.description.trim(), BRIEF_WORDS))
}

/// Recent scenes in detail, oldest first (trimming keeps the newest).
/// The next open beats, the first one marked as this scene's unless the story needs a bridge.
pub(crate) fn outline(beats: &[Beat]) -> Vec<String> {
    beats
        .iter()
        .filter(|b| b.status == BeatStatus::Open)
        .take(3)
        .enumerate()
        .map(|(i, b)| {
            if i == 0 {
                format!("Next beat ({}): {}", b.id, b.text)
            } else {
                format!("Then ({}): {}", b.id, b.text)
            }
        })
        .collect()
}

/// Clocks with where they stand and what comes next; events due in the next few scenes, and
/// those that must happen in this one first.
pub(crate) fn pressure(clocks: &[PressureClock], events: &[StoryEvent], tick: u32) -> Vec<String> {
    let mut out: Vec<String> = events
        .iter()
        .filter(|e| e.status == EventStatus::Pending && e.tick <= tick)
        .map(|e| format!("Must happen in this scene ({}): {}", e.id, e.description))
        .collect();
    for c in clocks {
        let mut line = format!("{} ({}): {}/{}", c.name, c.id, c.value, c.max);
        if !c.description.is_empty() {
            line.push_str(&format!(" — {}", c.description));
        }
        if let Some(t) = c.next_threshold() {
            line.push_str(&format!("; at {}: {}", t.at, t.note));
        }
        if c.per_tick > 0 {
            line.push_str(&format!("; rises {} a scene", c.per_tick));
        }
        out.push(line);
    }
    out.extend(
        events
            .iter()
            .filter(|e| e.status == EventStatus::Pending && e.tick > tick && e.tick <= tick + 5)
            .map(|e| {
                format!(
                    "Coming in scene {} ({} from now): {}",
                    e.tick,
                    e.tick - tick,
                    e.description
                )
            }),
    );
    out
}

pub(crate) fn recent_scenes(scenes: &[Scene], names: &Names) -> Vec<String> {
    scenes
        .iter()
        .map(|s| {
            let mut head = format!("Tick {} \"{}\"", s.tick, s.title.trim());
            let mut notes = Vec::new();
            if let Some(t) = s.tension {
                notes.push(format!("tension {t}/10"));
            }
            if let Some(loc) = &s.location {
                notes.push(name_of(names, loc).to_string());
            }
            if !notes.is_empty() {
                head.push_str(&format!(" ({})", notes.join(", ")));
            }
            let bullets: Vec<String> = s
                .summary
                .iter()
                .map(|b| format!("- {}", b.trim()))
                .collect();
            std::iter::once(head)
                .chain(bullets)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

/// How many words of the previous scene the writer sees to pick up the thread.
pub(crate) const TAIL_WORDS: usize = 150;

/// The last words of `prose` within `budget` tokens, starting at a word; `(text, cut_by_budget)`.
pub(crate) fn prose_tail(prose: &str, budget: u32) -> (String, bool) {
    let prose = prose.trim();
    let starts = word_starts(prose);
    let from = starts.len().saturating_sub(TAIL_WORDS);
    let tail = starts.get(from).map(|&s| &prose[s..]).unwrap_or("");
    let shortened = from > 0;
    let room = budget.saturating_sub(novel_llm::count_tokens(TRIM_MARKER) + 1);
    let fitted = cut_words_from_start(tail, room);
    if fitted.is_empty() {
        return (String::new(), !tail.is_empty());
    }
    let cut = fitted.len() < tail.len();
    let text = if cut {
        format!("{TRIM_MARKER} {fitted}")
    } else if shortened {
        format!("…{fitted}")
    } else {
        fitted
    };
    (text, cut)
}

/// World facts, most important first.
pub(crate) fn lore(facts: &[&LoreFact]) -> Vec<String> {
    facts
        .iter()
        .map(|f| format!("- {} [{}] {}", f.id, f.category, f.fact.trim()))
        .collect()
}

/// Every character and location by id and name, for the extractor to refer to. Callers list
/// them in id order, which only grows at its end as the story meets someone new.
pub(crate) fn entities(characters: &[Character], locations: &[Location]) -> Vec<String> {
    let chars = characters.iter().map(|c| {
        format!(
            "- {} {}{}{}",
            c.id,
            c.name,
            if c.role.trim().is_empty() { "" } else { ", " },
            c.role.trim()
        ) + status_note(c.status)
    });
    let places = locations.iter().map(|l| format!("- {} {}", l.id, l.name));
    chars.chain(places).collect()
}

/// Words of a description a cast member gets: enough to picture them.
const CAST_WORDS: usize = 16;

/// A character other than the POV, as the writer's cast list shows them: who and what they
/// look like, nothing that changes from scene to scene.
pub(crate) fn cast_member(c: &Character) -> String {
    let mut line = format!("- {} ({})", c.name, c.id);
    if !c.role.trim().is_empty() {
        line.push_str(&format!(", {}", c.role.trim()));
    }
    line.push_str(status_note(c.status));
    if !c.description.trim().is_empty() {
        line.push_str(&format!(": {}", lead(&c.description, CAST_WORDS)));
    }
    if !c.personality.is_empty() {
        line.push_str(&format!(" ({})", c.personality.join(", ")));
    }
    line
}

/// Up to `n` words of `text`, with an ellipsis when cut.
fn lead(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= n {
        words.join(" ")
    } else {
        format!("{}…", words[..n].join(" "))
    }
}

/// Words of a description a mentioned entity gets: who they are, not their whole record.
const MENTION_WORDS: usize = 30;

/// A character the scene's text mentions, in one line.
pub(crate) fn mentioned_character(c: &Character, names: &Names) -> String {
    let mut item = format!("- {} ({})", c.name, c.id);
    if !c.role.trim().is_empty() {
        item.push_str(&format!(", {}", c.role.trim()));
    }
    item.push_str(status_note(c.status));
    let mut details = Vec::new();
    let description = c.description.trim().trim_end_matches('.');
    if !description.is_empty() {
        details.push(lead(description, MENTION_WORDS));
    }
    if let Some(feels) = c
        .emotional_state
        .as_deref()
        .filter(|f| !f.trim().is_empty())
    {
        details.push(format!("feels {}", feels.trim()));
    }
    if let Some(at) = &c.last_location {
        details.push(format!("last at {}", name_of(names, at)));
    }
    if !details.is_empty() {
        item.push_str(&format!(": {}", details.join("; ")));
    }
    item
}

/// A place the scene's text mentions, in one line.
pub(crate) fn mentioned_location(l: &Location) -> String {
    let mut item = format!("- {} ({}), tension {}/5", l.name, l.id, l.tension_level);
    if !l.description.trim().is_empty() {
        item.push_str(&format!(": {}", lead(l.description.trim(), MENTION_WORDS)));
    }
    item
}

/// Words of a recalled passage shown when the keyword index gave no snippet of its own.
const RECALL_WORDS: usize = 45;

/// Earlier passages found relevant to the next scene, most relevant first.
pub(crate) fn recalled(hits: &[crate::store::SearchHit]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut items = Vec::new();
    for h in hits {
        let text = lead(h.snippet.trim(), RECALL_WORDS);
        // Two passages can match on the same lines (a snippet cut at different words): show
        // them once.
        let key: String = text
            .trim_matches(|c: char| c == '…' || c.is_whitespace())
            .to_string();
        if key.is_empty()
            || seen
                .iter()
                .any(|s| s.contains(&key) || key.contains(s.as_str()))
        {
            continue;
        }
        seen.push(key);
        let source = match (h.kind, h.tick) {
            (EntityKind::Scene, Some(t)) => format!("Tick {t} \"{}\"", h.title.trim()),
            (kind, _) => format!("{kind} {} {}", h.entity_id, h.title.trim()),
        };
        items.push(format!("- {source}: {text}"));
    }
    items
}
