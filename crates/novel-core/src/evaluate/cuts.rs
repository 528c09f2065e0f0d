//! Cuts away from the POV character found from the sentence alone, where the story memory
//! does not say who is elsewhere (`pov.rs` reads that case): the same moment somewhere else
//! ("At that hour her father, home early, was turning over the letter", "Below in the
//! garden, all that while, Jennie stood under the arbour", "By then the lady and her husband
//! were already far out in the Channel") and another place with its action under way ("Out on
//! the quay the cab had stuck at the first turning"). A POV character may hear or guess much
//! of this, so `pov.rs` makes them notes; a sentence that names the POV character, says
//! someone arrives, or perceives is not a cut.

use std::sync::LazyLock;

use regex::Regex;

use super::continuity::has_arrival;
use super::ctx::Ctx;
use super::lexicon::is_in;
use super::people::is_person_noun;
use super::text::Sentence;
use crate::config::PointOfView;

/// Who may be the subject after the cut: a name, a possessive with a noun, or "the" with a
/// noun for a person. Case matters: a capital is a name.
const SUBJECT: &str = r"(?-i:(?:[Tt]he|[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[Oo]ur)\s+(?:[a-z]+\s+)?[A-Za-z][a-z]+|(?:(?:Mr|Mrs|Miss|Dr|Sir|Lady|Captain|Old)\.?\s+)?(?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?)";

/// The same moment elsewhere, opening a clause, then a subject and its verb.
static SAME_MOMENT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(&format!(
        r"(?i)(?:^|[,;—–]\s*)\W*(?:and\s+|but\s+)?(?:at (?:that|this|the same|that very|this very|that same|this same) (?:moment|instant|minute|hour|time)|by (?:then|that time)|all (?:that|this) (?:while|time)|meanwhile|(?:that|the) same (?:night|evening|day|morning|afternoon)|while (?:i|we|he|she|they) (?:slept|lay asleep|was asleep|were asleep|was sleeping|were sleeping)),?\s+(?:[^,;.]{{1,60}},\s+)?{SUBJECT}\b[^;.]{{0,60}}?\b(?:was|were|is|are|had|has|sat|sits|stood|stands|lay|lies)\b"
    ))
    .expect("constant cut pattern")
});

/// Another place, opening the sentence, and action already under way there ("across the
/// room" and "over by the window" are within sight, so they are not among the openings).
static OTHER_PLACE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(&format!(
        r"(?i)^\W*(?:(?:down|up|out|back|outside|below|above|beyond|far(?:\s+(?:off|away))?)\s+(?:in|at|on|by|upon|the)\b|in the (?:kitchen|cellar|parlour|parlor|attic|stable|stables|yard|garden|lane|street|hall|library|study|nursery|back parlour|next room|room below|room above)\b|(?:at|back) home\b|(?:miles|far|a long way|some way|a mile) (?:off|away),|(?:half a mile|a mile|a few (?:yards|miles|streets|doors)|a (?:few )?hundred yards|(?:two|three|four|five|ten|twenty) (?:miles|streets|doors|houses)) (?:off|away|up|down|along|behind|ahead|beyond|further|farther|across|inland)(?: [^,;.]{{0,40}})?,)[^,;.]{{0,40}}?,?\s+{SUBJECT}\b[^;.]{{0,50}}?\b(?:(?:was|were|is|are)\s+(?:already\s+|still\s+)?\w+ing|(?:had|has)\s+(?:already\s+)?\w+(?:ed|en|ck|ne|ght|wn))\b"
    ))
    .expect("constant cut pattern")
});

/// Perception in the sentence makes the cut something seen or heard.
#[rustfmt::skip]
const PERCEIVING: &[&str] = &[
    "saw", "see", "sees", "heard", "hear", "hears", "watched", "watch", "watches", "noticed",
    "glimpsed", "spied", "could", "can", "visible", "audible", "sound", "sounds",
];

/// A cut away found in a sentence: where its words start in the prose, and the words.
pub(super) struct Cut {
    pub at: usize,
    pub phrase: String,
}

/// The cut away in sentence `s`, if there is one; `pov.rs` makes it a note.
pub(super) fn cut_away(ctx: &Ctx<'_>, s: &Sentence) -> Option<Cut> {
    let narration = ctx.prose.narration(s);
    let caps = SAME_MOMENT
        .captures(narration)
        .or_else(|| OTHER_PLACE.captures(narration))?;
    let whole = caps.get(0)?;
    if !names_someone(whole.as_str())
        || has_arrival(narration)
        || pov_perceives(ctx, s)
    {
        return None;
    }
    // The POV character within the cut itself, past a "while I slept" that is theirs: "At
    // that moment Tamsin was reading" is no cut, "…John is writing that I must go" still is.
    let (from_at, to_at) = (s.start + whole.start(), s.start + whole.end());
    let asleep = whole.as_str().to_lowercase().contains("while ");
    let in_cut = |k: usize| s.tokens[k].start >= from_at && s.tokens[k].end <= to_at;
    let pov_named = ctx.hits(s).iter().any(|h| h.who == ctx.pov && in_cut(h.first));
    let narrator = ctx.input.pov == PointOfView::First
        && (0..s.tokens.len())
            .any(|k| in_cut(k) && matches!(s.tokens[k].lower.as_str(), "i" | "we" | "us"));
    if !asleep && (pov_named || narrator) {
        return None;
    }
    let phrase = whole
        .as_str()
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    let from = whole.end() - whole.as_str().trim_start_matches(|c: char| !c.is_alphanumeric()).len();
    Some(Cut {
        at: s.start + from,
        phrase: phrase.to_string(),
    })
}

/// Whether the POV character perceives in the sentence: a perception word with them just
/// before it ("I could see", "she heard"), or one that needs no perceiver ("audible"). "Jim
/// Hawkins lay flat in the reeds and watched Silver" is someone else watching.
fn pov_perceives(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    let pov_words = super::people::pov_words(ctx);
    s.tokens.iter().enumerate().any(|(k, t)| {
        is_in(PERCEIVING, &t.lower)
            && (matches!(t.lower.as_str(), "could" | "can" | "visible" | "audible" | "sound" | "sounds")
                || s.tokens[k.saturating_sub(3)..k]
                    .iter()
                    .any(|b| pov_words.contains(&b.lower)))
    })
}

/// Whether someone is the subject after the cut: a noun for people ("her father", "the lady
/// and her husband") or a capitalised name right before a verb ("Jennie stood"). The opening
/// word is skipped, being capitalised by position.
fn names_someone(cut: &str) -> bool {
    let words: Vec<&str> = cut
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().skip(1).any(|(i, w)| {
        let named = w.chars().next().is_some_and(char::is_uppercase)
            && *w != "I"
            && words.get(i + 1).is_some_and(|n| {
                matches!(
                    *n,
                    "was" | "were" | "is" | "are" | "had" | "has" | "stood" | "sat" | "lay" | "and"
                )
            });
        // A noun for people, so that "the door" or "the sun" after the cut is not a cut (the
        // POV character may well see a door open); a cab stands for its passengers.
        let lower = w.to_lowercase();
        named || is_person_noun(&lower) || matches!(lower.as_str(), "others" | "crew" | "family" | "guests" | "cab" | "servants" | "sailors" | "pirates" | "children" | "police")
    })
}
