//! Narration that contradicts an injury the story memory keeps active: a person with a broken
//! or sprained leg, ankle or foot who runs, sprints or leaps ("Bram ran for the door"), a
//! person with a broken arm, wrist or hand who uses both arms ("raised both arms", "with both
//! hands") or the hurt one ("lifted her left arm" with a broken left arm). The lexicon is small
//! on purpose: only what the injury plainly rules out. A scene that deals with the injury at
//! all — heals it, or keeps it in view with a limp, a crutch, a sling, pain — is the writer's
//! choice and never a finding; the record's end of a condition is written by the extraction of
//! the scene that heals it, so the tick's check (before that extraction) reads the healing
//! words on the page, and `novel check` of a stored scene reads the conditions as they stood at
//! that scene (`check.rs`). Illness, disguise and other states are the critic's.

use super::ctx::Ctx;
use super::finding::Finding;
use super::lexicon::is_in;
use super::text::{Sentence, verb_after};
use super::whose::{Whose, possessor, subject};
use crate::model::Condition;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limb {
    Arm,
    Leg,
}

/// An active condition that rules something out.
struct Hurt<'a> {
    who: usize,
    limb: Limb,
    side: Option<&'static str>,
    condition: &'a Condition,
}

/// Words of an injury bad enough to stop a limb's use.
#[rustfmt::skip]
const DISABLING: &[&str] = &[
    "broken", "broke", "fractured", "fracture", "shattered", "sprained", "sprain", "crushed",
    "dislocated", "lame", "crippled", "splinted", "splint", "sling", "cast", "severed",
];

fn limb_of(word: &str) -> Option<Limb> {
    match word {
        "arm" | "arms" | "wrist" | "wrists" | "hand" | "hands" | "elbow" | "collarbone" => {
            Some(Limb::Arm)
        }
        "leg" | "legs" | "ankle" | "ankles" | "knee" | "knees" | "foot" | "feet" | "shin"
        | "thigh" | "hip" => Some(Limb::Leg),
        _ => None,
    }
}

fn hurt_of(who: usize, c: &Condition) -> Option<Hurt<'_>> {
    let text = c.name.to_lowercase();
    let words: Vec<&str> = text.split(|ch: char| !ch.is_alphanumeric()).collect();
    if !words.iter().any(|w| DISABLING.contains(w)) {
        return None;
    }
    let limb = words.iter().find_map(|w| limb_of(w))?;
    let side = if words.contains(&"left") {
        Some("left")
    } else if words.contains(&"right") {
        Some("right")
    } else {
        None
    };
    Some(Hurt {
        who,
        limb,
        side,
        condition: c,
    })
}

/// Words anywhere in the scene that show the injury dealt with: healed, or kept in view.
#[rustfmt::skip]
const DEALT_WITH: &[&str] = &[
    "healed", "heal", "heals", "healing", "mended", "mend", "mends", "cured", "recovered",
    "recovering", "knit", "knitted", "splint", "splints", "sling", "plaster", "crutch",
    "crutches", "limp", "limped", "limping", "limps", "hobbled", "hobbling", "hobbles",
    "bandage", "bandaged", "bandages",
];

/// Words that make a sentence not an act: wish, memory, attempt, denial, or the injury felt.
#[rustfmt::skip]
const NOT_DONE: &[&str] = &[
    "tried", "try", "tries", "could", "couldn't", "cannot", "can't", "wanted", "wants",
    "wished", "wishes", "dreamed", "dreamt", "remembered", "remembers", "once", "used", "if",
    "would", "never", "not", "no", "despite", "spite", "pain", "agony", "winced", "wincing",
    "hopped", "hopping", "stick", "before", "ago", "imagined", "longed",
];

/// Verbs of running and leaping.
#[rustfmt::skip]
const RUNS: &[&str] = &[
    "ran", "runs", "run", "sprinted", "sprints", "sprint", "raced", "races", "leapt", "leaped",
    "leaps", "leap", "jumped", "jumps", "jump", "dashed", "dashes", "dash", "bounded",
    "bounds", "vaulted", "vaults", "danced", "dances", "dance",
];

/// Words after a running verb that make it a run somewhere (not "ran a hand through").
#[rustfmt::skip]
const WHERE_TO: &[&str] = &[
    "to", "toward", "towards", "across", "down", "up", "after", "from", "off", "back", "along",
    "through", "for", "home", "away", "ahead", "past", "round", "around", "into",
    "onto", "out", "forward", "downstairs", "upstairs", "outside", "inside", "at",
];

/// Verbs of using an arm or hand.
#[rustfmt::skip]
const ARM_USE: &[&str] = &[
    "raised", "raises", "raise", "lifted", "lifts", "lift", "threw", "throws", "throw",
    "flung", "flings", "swung", "swings", "swing", "stretched", "stretches", "spread",
    "spreads", "waved", "waves", "gripped", "grips", "grabbed", "grabs", "seized", "seizes",
    "hauled", "hauls", "heaved", "heaves", "clasped", "clasps", "wrung", "wrings", "shoved",
    "shoves", "pushed", "pushes", "punched", "punches", "flexed", "flexes",
];

pub(super) fn contradictions(ctx: &Ctx<'_>) -> Vec<Finding> {
    let scene_words: Vec<&str> = ctx
        .prose
        .sentences
        .iter()
        .flat_map(|s| s.tokens.iter().map(|t| t.lower.as_str()))
        .collect();
    if scene_words.iter().any(|w| is_in(DEALT_WITH, w)) {
        return Vec::new();
    }
    let hurts: Vec<Hurt<'_>> = ctx
        .people
        .iter()
        .enumerate()
        .filter(|(w, _)| !ctx.is_dead(*w))
        .flat_map(|(w, c)| c.active_conditions().filter_map(move |k| hurt_of(w, k)))
        .collect();
    if hurts.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || s.tokens.iter().any(|t| is_in(NOT_DONE, &t.lower)) {
            continue;
        }
        if let Some(f) = running(ctx, si, s, &hurts).or_else(|| arms(ctx, si, s, &hurts)) {
            out.push(f);
        }
    }
    out
}

/// "Bram ran for the door", "she leapt the ditch" with a broken leg.
fn running(ctx: &Ctx<'_>, si: usize, s: &Sentence, hurts: &[Hurt<'_>]) -> Option<Finding> {
    for i in 0..s.tokens.len() {
        let Some((owner, last)) = subject(ctx, si, s, i) else {
            continue;
        };
        let Some(hurt) = hurts
            .iter()
            .find(|h| h.who == owner.who && h.limb == Limb::Leg)
        else {
            continue;
        };
        let Some(v) = verb_after(&s.tokens, last) else {
            continue;
        };
        if !is_in(RUNS, &s.tokens[v].lower) {
            continue;
        }
        let next = s.tokens.get(v + 1);
        let somewhere = match next {
            None => true,
            Some(n) if !n.plain_gap => true,
            Some(n) => {
                is_in(WHERE_TO, &n.lower)
                    && !(n.lower == "out" && s.tokens.get(v + 2).is_some_and(|o| o.lower == "of"))
            }
        };
        if !somewhere {
            continue;
        }
        return Some(finding(
            ctx,
            s,
            (s.tokens[i].start, s.tokens[v].end),
            owner,
            hurt,
            &s.tokens[v].lower,
        ));
    }
    None
}

/// "raised both arms", "with both hands", "lifted her left arm" with that arm broken.
fn arms(ctx: &Ctx<'_>, si: usize, s: &Sentence, hurts: &[Hurt<'_>]) -> Option<Finding> {
    for k in 1..s.tokens.len() {
        let word = s.tokens[k].lower.as_str();
        if !matches!(word, "arms" | "hands") && !matches!(word, "arm" | "hand") {
            continue;
        }
        let before = s.tokens[k - 1].lower.as_str();
        let (owner, at, what) = if before == "both" && s.tokens[k].plain_gap {
            // Whoever is the last subject before "both" uses both: a name or pronoun with its
            // verb right after it ("the Chinaman, and seizing him…" is an object).
            let Some(owner) = (0..k - 1)
                .filter_map(|i| subject(ctx, si, s, i))
                .filter(|(_, last)| {
                    verb_after(&s.tokens, *last).is_some_and(|v| {
                        v < k - 1 && !super::text::is_function_word(&s.tokens[v].lower)
                    })
                })
                .map(|(o, _)| o)
                .next_back()
            else {
                continue;
            };
            (owner, k - 1, format!("both {word}"))
        } else if matches!(before, "left" | "right")
            && k >= 3
            && s.tokens[k].plain_gap
            && is_in(ARM_USE, &s.tokens[k - 3].lower)
        {
            let Some(owner) = possessor(ctx, si, s, k - 2) else {
                continue;
            };
            let hurt_side = hurts
                .iter()
                .any(|h| h.who == owner.who && h.limb == Limb::Arm && h.side == Some(before));
            if !hurt_side {
                continue;
            }
            (owner, k - 3, format!("{before} {word}"))
        } else {
            continue;
        };
        let Some(hurt) = hurts
            .iter()
            .find(|h| h.who == owner.who && h.limb == Limb::Arm)
        else {
            continue;
        };
        return Some(finding(
            ctx,
            s,
            (s.tokens[at].start, s.tokens[k].end),
            owner,
            hurt,
            &format!("uses {what}"),
        ));
    }
    None
}

fn finding(
    ctx: &Ctx<'_>,
    s: &Sentence,
    (at, to): (usize, usize),
    owner: Whose,
    hurt: &Hurt<'_>,
    does: &str,
) -> Finding {
    let name = ctx.name(owner.who);
    let excerpt = ctx.prose.excerpt(s, at);
    let message = format!(
        "The story memory records {name} with “{condition}” since scene {since} (record \
         {id}), and nothing on this page heals it, but here {name} {does}: “{excerpt}”. Keep \
         the injury in the action (a limp, one hand, the pain), or show it healed on the page \
         if enough time has passed.",
        condition = hurt.condition.name.trim(),
        since = hurt.condition.since_tick,
        id = ctx.people[owner.who].id,
    );
    owner.contradiction(ctx, s, (at, to), &ctx.people[hurt.who].id, message, excerpt)
}
