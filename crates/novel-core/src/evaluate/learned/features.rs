//! What the learned reading sees of a sentence: its narration words (dialogue masked out, as
//! every check reads it), with each known person's name replaced by their role in the scene —
//! the POV character, another woman, another man — so that what is learned is about who
//! thinks or knows, not about which book's cast. The features are the words, the pairs of
//! neighbouring words, the opening word, the novel's mode, and whom each clause's subject
//! refers to with the words after it; the training script and the checks both take them from
//! here, so the two can never read a sentence differently.

use super::super::ctx::Ctx;
use super::super::subject::Referent;
use super::super::voice;
use crate::config::{PointOfView, Tense};

/// The word standing for the POV character's name.
const POV: &str = "POV";
/// Another character's name, by the pronoun their record gives (or none).
const OTHER_WOMAN: &str = "OTHERF";
const OTHER_MAN: &str = "OTHERM";
const OTHER: &str = "OTHER";
/// Whom a clause's subject refers to, as the people reader resolves it ("she" after "Maud
/// knelt" is Maud): the POV character, someone else, or cannot tell.
const POV_SUBJECT: &str = "SUBJPOV";
const OTHER_SUBJECT: &str = "SUBJOTHER";
const UNCLEAR_SUBJECT: &str = "SUBJUNCLEAR";
/// Dialogue or thought between two narration words.
const QUOTE: &str = "QUOTE";
/// Whose a possessive is ("her heart" in a woman's point of view, "his heart" beside it):
/// by the pronoun alone, so only a hint — the model learns how far to trust it.
const POV_OWNER: &str = "OWNPOV";
const OTHER_OWNER: &str = "OWNOTHER";

/// The narration words of sentence `si`, names replaced by roles.
fn words(ctx: &Ctx<'_>, si: usize) -> Vec<String> {
    let s = &ctx.prose.sentences[si];
    let hits = ctx.hits(s);
    let mut out = Vec::with_capacity(s.tokens.len());
    let mut i = 0;
    while i < s.tokens.len() {
        if i > 0 && s.tokens[i].barrier {
            out.push(QUOTE.to_string());
        }
        if let Some(hit) = hits.iter().find(|h| h.first == i) {
            out.push(role(ctx, hit.who).to_string());
            i = hit.last + 1;
            continue;
        }
        out.push(s.tokens[i].lower.clone());
        i += 1;
    }
    out
}

fn role(ctx: &Ctx<'_>, who: usize) -> &'static str {
    if who == ctx.pov {
        return POV;
    }
    match ctx.genders[who] {
        Some("she") => OTHER_WOMAN,
        Some("he") => OTHER_MAN,
        _ => OTHER,
    }
}

/// The features of sentence `si`: `mode=`, `first=`, `u=` (a word), `b=` (two neighbours),
/// for each clause subject `s=` (whom it refers to; `s1=` for the sentence's first) with
/// the one or two words after it (`sv=`, `svv=`: "SUBJOTHER_was_hoping"), and for each
/// possessive pronoun `p=` with whose it is and the word after it ("OWNOTHER_heart").
/// Sorted and without repeats, so a sentence's score does not depend on how often a word
/// comes back in it.
pub(crate) fn sentence_features(ctx: &Ctx<'_>, si: usize) -> Vec<String> {
    let words = words(ctx, si);
    let mut out = Vec::with_capacity(words.len() * 2 + 2);
    out.push(format!("mode={}", mode(ctx)));
    push_words(&mut out, &words, "");
    let tokens = &ctx.prose.sentences[si].tokens;
    for (n, subject) in ctx.subjects(si).into_iter().enumerate() {
        let who = subject_role(subject.referent);
        if n == 0 {
            out.push(format!("s1={who}"));
        }
        out.push(format!("s={who}"));
        let after = |k: usize| tokens.get(subject.last + k).map(|t| t.lower.as_str());
        if let Some(verb) = after(1) {
            out.push(format!("sv={who}_{verb}"));
            if let Some(next) = after(2) {
                out.push(format!("svv={who}_{verb}_{next}"));
            }
        }
    }
    for (i, w) in words.iter().enumerate() {
        if let (Some(owner), Some(noun)) = (owner(ctx, w), words.get(i + 1)) {
            out.push(format!("p={owner}_{noun}"));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The opening word (`first=`), each word (`u=`) and each pair of neighbours (`b=`), after
/// `key` (empty, or the mode the voice features are keyed by).
fn push_words(out: &mut Vec<String>, words: &[String], key: &str) {
    if let Some(first) = words.first() {
        out.push(format!("first={key}{first}"));
    }
    for (i, w) in words.iter().enumerate() {
        out.push(format!("u={key}{w}"));
        if let Some(next) = words.get(i + 1) {
            out.push(format!("b={key}{w}_{next}"));
        }
    }
}

/// Whom a clause's subject refers to, as a feature word.
fn subject_role(referent: Referent) -> &'static str {
    match referent {
        Referent::Pov => POV_SUBJECT,
        Referent::Person(_) | Referent::Someone => OTHER_SUBJECT,
        Referent::Unclear => UNCLEAR_SUBJECT,
    }
}

/// The features of sentence `si` for the voice families (tense, person), each keyed by the
/// novel's mode, since the same word is drift in one mode and right in another ("walks" in a
/// past-tense novel, "I" in a third-person one): `t=` each tag of the rules' tense reading
/// (`reading`, see `voice::tense_readings`), `u=` a word, `b=` two neighbours, `first=` the
/// opening word, `sv=` each clause subject with the word after it, and [`PERSON_CUE`].
pub(crate) fn voice_features(ctx: &Ctx<'_>, si: usize, reading: &[String]) -> Vec<String> {
    let mode = mode(ctx);
    let words = words(ctx, si);
    let mut out = Vec::with_capacity(words.len() * 2 + reading.len() + 2);
    out.push(format!("mode={mode}"));
    out.extend(reading.iter().map(|tag| format!("t={mode}:{tag}")));
    push_words(&mut out, &words, &format!("{mode}:"));
    let tokens = &ctx.prose.sentences[si].tokens;
    for subject in ctx.subjects(si) {
        let who = subject_role(subject.referent);
        if let Some(verb) = tokens.get(subject.last + 1) {
            out.push(format!("sv={mode}:{who}_{}", verb.lower));
        }
    }
    if person_cue(ctx, si, &words) {
        out.push(PERSON_CUE.to_string());
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The feature of a sentence that person drift could be in (see [`person_cue`]): the person
/// reading scores no other.
pub(crate) const PERSON_CUE: &str = "cue=person";

/// Whether the narration words could drift out of the novel's person at all: a first-person
/// word in a third-person novel (not a quotation, an exclamation or an inscription), or in a
/// first-person one the narrator's name or a third-person pronoun (which may be the narrator
/// called "she").
fn person_cue(ctx: &Ctx<'_>, si: usize, words: &[String]) -> bool {
    const THIRD: &[&str] = &[POV, "he", "she", "him", "her", "his", "hers", "himself", "herself"];
    match ctx.input.pov {
        PointOfView::First => words.iter().any(|w| THIRD.contains(&w.as_str())),
        _ => voice::has_first_person_word(ctx, si),
    }
}

/// Whose a possessive pronoun makes what follows it: "my" is the narrator's in the first
/// person; "his", "her" and "their" are the POV character's when the record gives them that
/// pronoun.
fn owner(ctx: &Ctx<'_>, word: &str) -> Option<&'static str> {
    let pronoun = match word {
        "my" => return (ctx.input.pov == PointOfView::First).then_some(POV_OWNER),
        "his" => "he",
        "her" => "she",
        "their" => "they",
        _ => return None,
    };
    let pov_is = ctx.input.pov != PointOfView::First && ctx.genders[ctx.pov] == Some(pronoun);
    Some(if pov_is { POV_OWNER } else { OTHER_OWNER })
}

fn mode(ctx: &Ctx<'_>) -> &'static str {
    match (ctx.input.pov, ctx.input.tense) {
        (PointOfView::First, Tense::Past) => "first_past",
        (PointOfView::First, Tense::Present) => "first_present",
        (_, Tense::Past) => "third_past",
        (_, Tense::Present) => "third_present",
    }
}

/// Words that carry a sentence's grammar, not its sense: a reason made of them alone ("in
/// the") tells the writer nothing.
const GRAMMAR_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "that", "this", "it", "as", "was", "were", "is", "are", "be", "been", "had", "has",
    "have", "so", "then", "than", "there", "which", "who", "what", "when", "his", "her", "its",
];

/// A feature as a writer would read it: `b=OTHERM_wished` is “(another man) wished”; `None`
/// for one that says nothing to a writer (the mode, a subject alone, grammar words alone).
pub(super) fn readable(feature: &str) -> Option<String> {
    let (kind, body) = feature.split_once('=')?;
    // The voice features carry the mode before a colon ("u=first_past:looked"), and a verb
    // the rules read after another ("t=third_present:past:looked").
    let body = body.rsplit(':').next().unwrap_or(body);
    let words: Vec<&str> = match kind {
        "u" | "first" => vec![body],
        "t" if feature.matches(':').count() == 2 => vec![body],
        "b" | "sv" | "svv" | "p" => body.split('_').collect(),
        _ => return None,
    };
    if words.iter().all(|w| GRAMMAR_WORDS.contains(w)) {
        return None;
    }
    let shown: Vec<&str> = words
        .iter()
        .map(|w| match *w {
            POV => "(the POV character)",
            OTHER_WOMAN => "(another woman)",
            OTHER_MAN => "(another man)",
            OTHER => "(another character)",
            POV_SUBJECT => "(the POV character)",
            OTHER_SUBJECT => "(someone else)",
            UNCLEAR_SUBJECT => "(someone)",
            QUOTE => "(dialogue)",
            POV_OWNER => "(the POV character's)",
            OTHER_OWNER => "(someone else's)",
            w => w,
        })
        .collect();
    Some(format!("“{}”", shown.join(" ")))
}
