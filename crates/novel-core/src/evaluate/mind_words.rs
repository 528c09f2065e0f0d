//! The words and the two readings the other-minds checks share: adverbs and degrees that
//! stand before a feeling, participles that carry one on, the states felt after "was", the
//! words that make a statement a reading from outside, what a trailing feeling is about, and
//! whose mind a pronoun is. `minds.rs` and the modules it gathers findings from
//! (`absolute.rs`, `experiencer.rs`) all read them from here, so none of them depends on another.

use super::ctx::Ctx;
use super::subject::Referent;
use super::text::Sentence;
use crate::config::PointOfView;

/// Degree words that may stand before a feeling in a trailing phrase: "…, mighty proud of".
#[rustfmt::skip]
pub(super) const DEGREE: &[&str] = &[
    "very", "so", "quite", "too", "mighty", "most", "rather", "half", "deeply", "greatly",
    "already", "still", "well",
];

/// Participles that, opening a phrase after a comma, carry on the clause's subject's inner
/// life: "Brannock stared at it, thinking of his daughter".
#[rustfmt::skip]
pub(super) const MIND_PARTICIPLES: &[&str] = &[
    "thinking", "wondering", "hoping", "dreading", "fearing", "longing", "wishing", "hating",
    "resolving", "regretting", "remembering", "doubting", "imagining", "picturing", "worrying",
    "suspecting", "believing", "determined", "resolved", "knowing", "praying", "yearning",
    "swearing", "cursing", "vowing", "dreaming", "brooding", "fretting", "grieving", "pining",
    "rejoicing", "exulting", "gloating", "despairing", "enjoying", "relishing", "savouring",
    "savoring", "reckoning", "computing", "intending", "planning", "plotting", "scheming",
    "blaming", "reproaching",
];

/// Adverbs that put what follows inside someone: "secretly relieved", "inwardly delighted".
pub(super) const INNER_ADVERBS: &[&str] = &["secretly", "inwardly", "privately", "silently"];

/// Adverbs that make a statement about someone a guess: "Even he, perhaps, had been doubtful".
#[rustfmt::skip]
pub(super) const GUESSES: &[&str] = &[
    "perhaps", "probably", "doubtless", "surely", "maybe", "evidently", "apparently", "clearly",
    "obviously", "plainly", "visibly", "seemingly",
];

/// Words after which a trailing phrase is a reading from outside (besides the guesses):
/// "…, as if thinking of something else", "…, no doubt relieved".
pub(super) const OUTWARD: &[&str] = &["as", "if", "though", "no", "doubt", "looking", "seeming"];

/// Inner states after "was": "he was relieved", "she was terrified they would be caught".
#[rustfmt::skip]
pub(super) const STATES: &[&str] = &[
    "relieved", "ashamed", "terrified", "afraid", "frightened", "scared", "worried",
    "desperate", "determined", "sure", "certain", "convinced", "grateful", "jealous",
    "embarrassed", "guilty", "lonely", "heartbroken", "nervous", "anxious", "glad", "sorry",
    "disappointed", "pleased", "thrilled", "delighted", "confused", "curious", "furious",
    "humiliated", "secretly", "inwardly", "privately", "dreading", "seething", "unaware",
    "aware", "resentful", "envious", "miserable", "elated", "overjoyed", "petrified", "proud",
    "ashamed", "hopeful", "doubtful", "suspicious", "uneasy", "eager", "reluctant",
    "annoyed", "angry", "irritated", "offended", "upset", "bored", "impatient", "troubled",
    "indignant", "bitter", "amused", "disgusted", "horrified", "flattered", "insulted",
    "vexed", "mortified", "excited", "content", "displeased", "dismayed", "enraptured",
    "touched", "enchanted", "charmed", "grieved", "exasperated", "enraged",
    "distressed", "contemptuous", "nettled", "fearful", "astonished", "amazed",
    "stung", "piqued", "incensed", "outraged", "aggrieved", "gratified", "apprehensive",
    "wary", "unsure",
];

/// Words that mark a reading of someone from outside, carried to the next sentence about them.
#[rustfmt::skip]
pub(super) const READING: &[&str] = &[
    "seemed", "seems", "guessed", "tell", "suspected", "probably", "maybe", "perhaps", "must",
    "looked", "looks", "sensed", "surely", "apparently",
];

/// The word after a trailing feeling at token `at` that says what it is about, past a word of
/// time ("sorry now that she had pressed him") or a short phrase of manner ("sure in his
/// stupor that the stranger means to kill him"); the plain next word otherwise.
pub(super) fn what_the_feeling_is_about<'s>(ctx: &Ctx<'_>, s: &'s Sentence, at: usize) -> Option<&'s str> {
    let word = |k: usize| {
        s.tokens
            .get(k)
            .filter(|n| n.plain_gap && !ctx.prose.original[s.tokens[k - 1].end..n.start].contains(','))
            .map(|n| n.lower.as_str())
    };
    let mut k = at + 1;
    while matches!(word(k), Some("now" | "then" | "already" | "still" | "indeed")) {
        k += 1;
    }
    if matches!(word(k), Some("in" | "with"))
        && let Some(that) = (k + 1..k + 5).find(|&x| word(x) == Some("that"))
    {
        return word(that);
    }
    word(k)
}

/// Whose mind a subject or possessive at token `at` of sentence `si` is. In the first person
/// "he" or "she" that nobody else in the text could be reads as the narrator (the person
/// check takes that up); once the narration has spoken of another "him" or "her" ("a feud with
/// him… in his heart he never forgave me"), it is that other person's mind.
pub(super) fn owner_of_mind(ctx: &Ctx<'_>, si: usize, at: usize, resolved: Referent) -> Referent {
    let s = &ctx.prose.sentences[si];
    let object = match s.tokens[at].lower.as_str() {
        "he" | "his" | "him" => "him",
        "she" | "her" => "her",
        _ => return resolved,
    };
    let other_before = ctx.prose.sentences[..=si].iter().enumerate().any(|(k, x)| {
        let upto = if k == si { at } else { x.tokens.len() };
        x.tokens[..upto].iter().any(|t| t.lower == object)
    });
    if ctx.input.pov == PointOfView::First && resolved == Referent::Pov && other_before {
        Referent::Someone
    } else {
        resolved
    }
}
