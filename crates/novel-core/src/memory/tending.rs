//! Tending the open loops as a director does: park a thread for later, abandon one the story
//! has moved past (the reason stays in its notes for the writer), or merge a thread into the
//! one that duplicates it. Resolving and advancing belong to the scenes (the extractor reads
//! them from the prose); these are decisions about the book, so they need a reason.
//!
//! Also the guard against twins: a loop the extractor "opens" that an open loop already holds
//! (most of its content words shared) advances that loop instead of opening a second one.

use rusqlite::Transaction;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::MemoryError;
use crate::ids::{EntityId, EntityKind};
use crate::model::{Importance, LoopNote, LoopStatus, OpenLoop};
use crate::store::{self, HistoryEntry};

/// What to do with a loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LoopTending {
    /// Keep it open but set it aside: its importance drops to low, so it leaves the front of
    /// the planner's list until a scene takes it up again.
    Park,
    /// Close it unresolved: the story no longer needs it.
    Abandon,
    /// Close it as a duplicate of `into`, which takes its notes.
    Merge,
}

impl LoopTending {
    fn verb(self) -> &'static str {
        match self {
            LoopTending::Park => "parked",
            LoopTending::Abandon => "abandoned",
            LoopTending::Merge => "merged",
        }
    }
}

/// Parks, abandons or merges the open loop `id`; returns the loop as it now stands.
pub fn tend_loop(
    tx: &Transaction<'_>,
    id: &str,
    action: LoopTending,
    reason: &str,
    into: Option<&str>,
    tick: u32,
    source: &str,
) -> Result<OpenLoop, MemoryError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(MemoryError::Invalid(format!(
            "say why the loop is {} (the writer reads the reason)",
            action.verb()
        )));
    }
    let mut l = open_loop(tx, id)?;
    let before = l.clone();
    match action {
        LoopTending::Park => {
            l.importance = Importance::Low;
            l.notes.push(note(tick, format!("Parked: {reason}")));
        }
        LoopTending::Abandon => {
            l.status = LoopStatus::Abandoned;
            l.resolved_tick = Some(tick);
            l.notes.push(note(tick, format!("Abandoned: {reason}")));
        }
        LoopTending::Merge => {
            let into = into.ok_or_else(|| {
                MemoryError::Invalid("merge needs `into`: the loop that carries on".into())
            })?;
            let mut keeper = open_loop(tx, into)?;
            if keeper.id == l.id {
                return Err(MemoryError::Invalid(format!(
                    "loop {} cannot be merged into itself",
                    l.id
                )));
            }
            let keeper_before = keeper.clone();
            keeper.importance = keeper.importance.max(l.importance);
            keeper.notes.push(note(
                tick,
                format!("Took in \"{}\" ({reason})", l.description.trim()),
            ));
            save(tx, &keeper_before, &keeper, tick, "merged in", source)?;
            l.status = LoopStatus::Abandoned;
            l.resolved_tick = Some(tick);
            l.notes.push(note(
                tick,
                // By its words: a note the writer reads names no id.
                format!("Merged into \"{}\" ({reason})", keeper.description.trim()),
            ));
        }
    }
    save(tx, &before, &l, tick, action.verb(), source)?;
    Ok(l)
}

/// Opens `new`, unless an open loop already holds the same question: then that loop advances
/// with the new words as its note. Returns the loop's id and whether it is new.
pub fn open_or_advance_loop(
    tx: &Transaction<'_>,
    new: super::NewLoop,
    tick: u32,
    source: &str,
) -> Result<(String, bool), MemoryError> {
    let twin = store::list_loops(tx, Some(LoopStatus::Open))?
        .into_iter()
        .find(|l| same_question(&l.description, &new.description));
    match twin {
        Some(l) => {
            let note = format!("again: {}", new.description.trim());
            super::change_loop(tx, &l.id, LoopStatus::Open, &note, tick, source)?;
            Ok((l.id, false))
        }
        None => Ok((super::open_loop(tx, new, tick, source)?.id, true)),
    }
}

/// Words common enough to say nothing about which question a loop asks. Three-letter words are
/// kept otherwise: "the map" and "the key" are different questions.
const FILLER: &[&str] = &[
    "about", "after", "again", "all", "also", "and", "any", "are", "been", "before", "but", "can",
    "did", "does", "for", "from", "get", "got", "had", "has", "have", "her", "him", "his", "how",
    "into", "its", "just", "let", "may", "more", "much", "not", "now", "off", "one", "only", "our",
    "out", "over", "own", "she", "some", "than", "that", "the", "their", "them", "then", "there",
    "they", "this", "too", "two", "was", "way", "were", "what", "when", "where", "whether",
    "which", "while", "who", "why", "will", "with", "would", "yet", "you", "your",
];

/// Four-letter words ending in `s` that are not plurals of a three-letter word.
const NOT_PLURAL: &[&str] = &[
    "this", "thus", "plus", "does", "goes", "less", "miss", "pass",
];

/// The words that say which question a text asks: lowercased, stemmed, three letters or more,
/// filler dropped, sorted and deduplicated. The extractor's list of open loops is ranked by them
/// too (`context`), so what counts as the same question and what counts as touching one agree.
pub(crate) fn content_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .map(stem)
        .filter(|w| w.chars().count() >= 3 && !FILLER.contains(&w.as_str()))
        .collect();
    words.sort();
    words.dedup();
    words
}

/// A word without its possessive and a plain plural `s`: "ledger's" and "ledgers" are "ledger".
fn stem(word: &str) -> String {
    let word = word.to_lowercase();
    let word = word
        .strip_suffix("'s")
        .or_else(|| word.strip_suffix("’s"))
        .unwrap_or(&word)
        .trim_matches(['\'', '’']);
    match word.strip_suffix('s') {
        Some(base)
            if base.chars().count() >= 3 && !base.ends_with('s') && !NOT_PLURAL.contains(&word) =>
        {
            base.to_string()
        }
        _ => word.to_string(),
    }
}

/// Two loop descriptions ask the same question when the shorter one's content words (two at
/// least) all appear in the longer — one may be missing when it has five or more. "Who hid
/// the lantern at the wall?" and "Who hid the ledger at the wall?" differ in what matters.
fn same_question(a: &str, b: &str) -> bool {
    let (a, b) = (content_words(a), content_words(b));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let missing = short.iter().filter(|w| !long.contains(w)).count();
    short.len() >= 2 && (missing == 0 || (missing == 1 && short.len() >= 5))
}

fn open_loop(tx: &Transaction<'_>, id: &str) -> Result<OpenLoop, MemoryError> {
    let id = EntityId::parse_kind(id, EntityKind::Loop)?.to_string();
    let l = store::get_loop(tx, &id)?.ok_or_else(|| MemoryError::NotFound {
        kind: EntityKind::Loop,
        id: id.clone(),
    })?;
    if l.status != LoopStatus::Open {
        return Err(MemoryError::Invalid(format!(
            "loop {id} is already {}",
            l.status.as_str()
        )));
    }
    Ok(l)
}

fn note(tick: u32, text: String) -> LoopNote {
    LoopNote { tick, note: text }
}

fn save(
    tx: &Transaction<'_>,
    before: &OpenLoop,
    after: &OpenLoop,
    tick: u32,
    change: &str,
    source: &str,
) -> Result<(), MemoryError> {
    store::save_loop(tx, after)?;
    store::index_document(tx, &store::loop_document(after))?;
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: after.id.clone(),
            tick,
            field: "*".into(),
            change: change.into(),
            old_value: serde_json::to_value(before).ok(),
            new_value: serde_json::to_value(after).ok(),
            flagged: false,
            source: source.into(),
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::same_question;

    #[test]
    fn twins_are_the_same_question_in_other_words_and_neighbours_are_not() {
        assert!(same_question(
            "Who wrote her name on the slate?",
            "Who wrote Tamsin's name on the slate by the customs house?"
        ));
        assert!(same_question(
            "The missing ledger page",
            "Where is the ledger's missing page?"
        ));
        assert!(!same_question(
            "Who killed the harbormaster?",
            "Who killed the ferryman?"
        ));
        assert!(!same_question("Bram's debt", "Bram's sister"));
        assert!(!same_question(
            "Who hid the lantern at the harbour wall?",
            "Who hid the ledger at the harbour wall?"
        ));
        // Short nouns are what the question is about.
        assert!(!same_question(
            "Who hid the map at the harbour wall?",
            "Who hid the key at the harbour wall?"
        ));
        assert!(same_question(
            "Who stole the keys?",
            "Who stole the keys from the harbour office?"
        ));
        assert!(same_question(
            "Who took the maps of the reef?",
            "Who took the map of the reef from the chart room?"
        ));
    }
}
