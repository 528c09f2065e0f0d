//! Narration that contradicts what the story memory records about who is alive: "her brother
//! was dead" when her brother's record (or her own `facts`) says alive, "the late Ewan", "Orrin
//! was alive after all" for a dead man, and a relative recorded dead who acts in the present
//! ("Her mother was waiting at the foot of the stair"). A sentence of belief, fear, rumour,
//! hypothesis or memory ("she feared her brother was dead", "my father used to say") states
//! nothing and is never a finding.

use super::continuity::acts_at;
use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::lexicon::{FRAMING, is_in};
use super::people::Referent;
use super::text::Sentence;
use crate::config::PointOfView;
use crate::model::LifeStatus;

#[rustfmt::skip]
const KIN: &[&str] = &[
    "mother", "father", "brother", "sister", "son", "daughter", "husband", "wife",
    "grandmother", "grandfather", "aunt", "uncle", "mum", "mam", "da", "ma", "pa",
];

/// Words that make a statement belief, fear, hypothesis, report or question.
#[rustfmt::skip]
const UNSURE: &[&str] = &[
    "if", "would", "might", "could", "should", "feared", "fear", "fears", "afraid", "thought",
    "believed", "believe", "suspected", "wondered", "rumour", "rumor", "rumours", "rumors",
    "maybe", "perhaps", "whether", "dream", "dreamed", "dreamt", "unless", "imagined",
    "pretend", "pretended", "said", "says", "told", "claimed", "lie", "lied", "lying", "not",
    "never", "hoped", "prayed", "wished", "seemed", "may", "must", "rather", "heard",
];

/// Tags after a statement that make it someone's belief or words: "…, she feared."
#[rustfmt::skip]
const UNSURE_AFTER: &[&str] = &[
    "feared", "thought", "believed", "said", "told", "claimed", "suspected", "whispered",
    "insisted", "swore", "heard", "supposed", "imagined", "guessed",
];

/// Whether the statement spanning tokens `from..=to` is framed as belief, report or
/// hypothesis by the words before it or a tag after it.
fn unsure(s: &Sentence, from: usize, to: usize) -> bool {
    s.tokens[..from].iter().any(|t| is_in(UNSURE, &t.lower))
        || s.tokens[to + 1..]
            .iter()
            .any(|t| is_in(UNSURE_AFTER, &t.lower))
}

const DEAD_WORDS: &[&str] = &[
    "dead", "died", "deceased", "drowned", "killed", "late", "murdered", "perished", "gone",
];
const ALIVE_WORDS: &[&str] = &["alive", "living", "lives", "survived", "survives"];

/// What a record's words say about life: "dead, drowned when Tamsin was nine" → dead.
fn status_in(text: &str) -> Option<LifeStatus> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphabetic()).collect();
    let has =
        |list: &[&str]| words.iter().any(|w| list.contains(w)) || lower.contains("lost at sea");
    let dead = has(&DEAD_WORDS[..DEAD_WORDS.len() - 1]);
    let alive = words.iter().any(|w| ALIVE_WORDS.contains(w));
    match (dead, alive) {
        (true, false) => Some(LifeStatus::Dead),
        (false, true) => Some(LifeStatus::Alive),
        _ => None,
    }
}

/// A relative of `owner` by kin word: their status, and the record that says so.
fn kin_status(ctx: &Ctx<'_>, owner: usize, kin: &str) -> Option<(LifeStatus, String)> {
    let person = ctx.people[owner];
    for (other, relation) in &person.relationships {
        let words: Vec<String> = relation
            .to_lowercase()
            .split(|c: char| !c.is_alphabetic())
            .map(str::to_string)
            .collect();
        if words.iter().any(|w| w == kin)
            && let Some(c) = ctx.people.iter().find(|c| c.id == *other)
            && c.status != LifeStatus::Unknown
        {
            return Some((c.status, c.id.clone()));
        }
    }
    let fact = person.facts.get(kin)?;
    status_in(fact).map(|s| (s, person.id.clone()))
}

/// What the sentence says of a person's life from token `from` on: dead or alive.
fn stated_status(s: &Sentence, from: usize) -> Option<(LifeStatus, usize)> {
    let mut j = from;
    let mut saw_be = false;
    while let Some(t) = s.tokens.get(j) {
        if j > from && !t.plain_gap {
            return None;
        }
        let w = t.lower.as_str();
        match w {
            "is" | "was" | "had" | "has" | "been" | "were" => saw_be = true,
            "long" | "already" | "now" | "still" | "truly" | "really" | "quite" => {}
            "dead" | "deceased" if saw_be => return Some((LifeStatus::Dead, j)),
            "died" | "drowned" | "perished" => return Some((LifeStatus::Dead, j)),
            "killed" | "murdered" if saw_be => return Some((LifeStatus::Dead, j)),
            "alive" | "living" if saw_be => return Some((LifeStatus::Alive, j)),
            "survived" => return Some((LifeStatus::Alive, j)),
            _ => return None,
        }
        j += 1;
        if j > from + 5 {
            return None;
        }
    }
    None
}

/// The owner of a possessive at token `i`: "her" (the POV character's), "my" in the first
/// person, or a known name's "'s".
fn possessor(ctx: &Ctx<'_>, si: usize, s: &Sentence, i: usize) -> Option<usize> {
    let t = &s.tokens[i];
    if let Some(h) = ctx.hits(s)
        .into_iter()
        .find(|h| h.last == i && h.possessive)
    {
        return Some(h.who);
    }
    match t.lower.as_str() {
        "my" if ctx.input.pov == PointOfView::First => Some(ctx.pov),
        "her" | "his" => match ctx.resolve(si, i, &t.lower) {
            Referent::Pov => Some(ctx.pov),
            Referent::Person(w) => Some(w),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn contradictions(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || super::pov::is_question(ctx.prose.narration(s)) {
            continue;
        }
        if let Some(f) = about_kin(ctx, si, s).or_else(|| about_named(ctx, s)) {
            out.push(f);
        }
    }
    out
}

/// "Her brother was dead", "her dead brother", "My father met me at the door".
fn about_kin(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Option<Finding> {
    for i in 0..s.tokens.len() {
        let Some(owner) = possessor(ctx, si, s, i) else {
            continue;
        };
        let mut k = i + 1;
        let mut adjective = None;
        if let Some(t) = s.tokens.get(k)
            && matches!(
                t.lower.as_str(),
                "dead" | "late" | "murdered" | "drowned" | "living"
            )
        {
            adjective = Some(if t.lower == "living" {
                LifeStatus::Alive
            } else {
                LifeStatus::Dead
            });
            k += 1;
        }
        let Some(kin_tok) = s.tokens.get(k).filter(|t| t.plain_gap) else {
            continue;
        };
        if !is_in(KIN, &kin_tok.lower) {
            continue;
        }
        let Some((recorded, record)) = kin_status(ctx, owner, &kin_tok.lower) else {
            continue;
        };
        let stated = adjective
            .map(|a| (a, k))
            .or_else(|| stated_status(s, k + 1))
            .or_else(|| {
                // A relative recorded dead who acts now: "My father met me at the door".
                (recorded == LifeStatus::Dead && !framed(s) && acts_at(ctx, s, k))
                    .then_some((LifeStatus::Alive, k + 1))
            });
        let Some((said, end)) = stated else { continue };
        let end = end.min(s.tokens.len() - 1);
        if said == recorded || unsure(s, i, end) {
            continue;
        }
        let whose = if owner == ctx.pov && ctx.input.pov == PointOfView::First {
            "the narrator's".to_string()
        } else {
            format!("{}'s", ctx.name(owner))
        };
        return Some(finding(
            ctx,
            s,
            (s.tokens[i].start, s.tokens[end].end),
            &format!("{whose} {}", kin_tok.lower),
            recorded,
            &record,
        ));
    }
    None
}

/// "Ewan Reed was dead", "Orrin was alive after all", "the late Ewan".
fn about_named(ctx: &Ctx<'_>, s: &Sentence) -> Option<Finding> {
    for h in ctx.hits(s) {
        if h.possessive {
            continue;
        }
        let recorded = ctx.people[h.who].status;
        if recorded == LifeStatus::Unknown {
            continue;
        }
        let late = h
            .first
            .checked_sub(1)
            .is_some_and(|p| s.tokens[p].lower == "late");
        let stated = if late {
            Some((LifeStatus::Dead, h.last))
        } else {
            stated_status(s, h.last + 1)
        };
        let Some((said, end)) = stated else { continue };
        let from = if late { h.first - 1 } else { h.first };
        if said == recorded || unsure(s, from, end) {
            continue;
        }
        return Some(finding(
            ctx,
            s,
            (s.tokens[from].start, s.tokens[end].end),
            ctx.name(h.who),
            recorded,
            &ctx.people[h.who].id,
        ));
    }
    None
}

/// Narration stating that a known person is dead ("Silas Crane was dead", "the late Silas"),
/// not framed as belief, report or question: the person and the tokens of the statement.
pub(super) fn stated_deaths(ctx: &Ctx<'_>, s: &Sentence) -> Vec<(usize, usize, usize)> {
    if s.tokens.is_empty() || super::pov::is_question(ctx.prose.narration(s)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for h in ctx.hits(s) {
        if h.possessive {
            continue;
        }
        let late = h
            .first
            .checked_sub(1)
            .is_some_and(|p| s.tokens[p].lower == "late");
        let (from, stated) = if late {
            (h.first - 1, Some((LifeStatus::Dead, h.last)))
        } else {
            (h.first, stated_status(s, h.last + 1))
        };
        if let Some((LifeStatus::Dead, end)) = stated
            && !unsure(s, from, end)
        {
            out.push((h.who, from, end));
        }
    }
    out
}

fn framed(s: &Sentence) -> bool {
    s.tokens
        .iter()
        .any(|t| is_in(FRAMING, &t.lower) && t.lower != "dead")
}

fn finding(
    ctx: &Ctx<'_>,
    s: &Sentence,
    (from, to): (usize, usize),
    who: &str,
    recorded: LifeStatus,
    record: &str,
) -> Finding {
    let excerpt = ctx.prose.excerpt(s, from);
    let (is, not) = match recorded {
        LifeStatus::Dead => ("dead", "alive"),
        _ => ("alive", "dead"),
    };
    Finding::new(
        Check::Contradiction,
        Severity::Violation,
        format!(
            "The story memory records {who} as {is} (record {record}), but the narration \
             treats them as {not}: “{excerpt}”. Keep to the record, or make it clearly a \
             belief, fear or rumour of the POV character's (“she feared…”) if the story means \
             to question it."
        ),
        Some(excerpt),
    )
    .at(&ctx.prose, s, from, to)
    .about(record)
}
