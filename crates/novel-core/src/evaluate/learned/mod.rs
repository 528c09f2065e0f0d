//! A learned second reading for the families the rules find hardest to phrase: another
//! character's mind stated as fact, and narration knowing what the POV character cannot. The
//! rules catch the forms they were written for and little else; on parts of the labelled set
//! written blind to them they found a third or less. A logistic model over the sentence's
//! words, with names replaced by roles (see `features`), trained on the labelled corpus with
//! published sentences and the items' context sentences as clean examples, carries further.
//! It is never sure enough to spend a revision: every finding it makes is a note, shown with
//! the words that weighed most, and it stays silent on a sentence a rule has already flagged
//! for the same family.
//! On another mind it also stays silent where the POV character is the one guessing, seeing
//! or realising ("he was worried, she guessed"): that is the guess marked as one, which the
//! rules read and which is never a head-hop; and where the feeling is in the POV character's
//! own body ("her heart went cold").
//!
//! Tense and person drift get the same kind of second reading, over features keyed by the
//! novel's mode (a past verb is drift only in a present-tense novel) that include what the
//! rules' tense reading saw in the sentence and the one before (see `voice::tense_readings`).

mod features;
mod model;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use super::ctx::Ctx;
use super::finding::{Check, Finding, MAX_PER_CHECK, Severity};
use super::subject::Referent;
use super::voice;
use crate::config::PointOfView;
use features::PERSON_CUE;
pub(crate) use features::{sentence_features, voice_features};
use model::Model;

/// Fewer narration words than this is too little to read.
const MIN_WORDS: usize = 4;

struct Family {
    check: Check,
    model: LazyLock<Model>,
}

static MIND: Family = Family {
    check: Check::OtherMind,
    model: LazyLock::new(|| load(include_str!("weights/mind.tsv"))),
};

static LEAK: Family = Family {
    check: Check::PovLeak,
    model: LazyLock::new(|| load(include_str!("weights/leak.tsv"))),
};

static TENSE: Family = Family {
    check: Check::TenseDrift,
    model: LazyLock::new(|| load(include_str!("weights/tense.tsv"))),
};

static PERSON: Family = Family {
    check: Check::PersonDrift,
    model: LazyLock::new(|| load(include_str!("weights/person.tsv"))),
};

fn load(text: &str) -> Model {
    // The weights are a constant of the build, checked by the tests.
    Model::parse(text).expect("valid learned weights")
}

/// How many labelled items each family's model was trained on, for the test that the
/// shipped weights match the corpus.
pub fn trained_items() -> [(Check, usize); 4] {
    [
        (MIND.check, MIND.model.items),
        (LEAK.check, LEAK.model.items),
        (TENSE.check, TENSE.model.items),
        (PERSON.check, PERSON.model.items),
    ]
}

/// The learned notes for the scene; `found` is what the rules reported, so a sentence they
/// flagged for a family is not flagged again.
pub(super) fn readings(ctx: &Ctx<'_>, found: &[Finding]) -> Vec<Finding> {
    let mut notes =
        readings_with(ctx, found, &[(MIND.check, &MIND.model), (LEAK.check, &LEAK.model)]);
    notes.extend(voice_readings_with(ctx, found, &[&TENSE, &PERSON]));
    notes
}

/// The learned notes of the voice families (tense, person): the rules read drift over the
/// whole scene, so where they found it for a family the learned reading adds nothing to it;
/// elsewhere each narration sentence whose tense counts is scored on its words and on what
/// the rules read of its tense and of the sentence before's.
fn voice_readings_with(ctx: &Ctx<'_>, found: &[Finding], families: &[&Family]) -> Vec<Finding> {
    let open: Vec<&Family> = families
        .iter()
        .copied()
        .filter(|family| !found.iter().any(|f| f.check == family.check))
        .collect();
    if open.is_empty() {
        return Vec::new();
    }
    let mut notes: Vec<Vec<Finding>> = open.iter().map(|_| Vec::new()).collect();
    for (si, reading) in voice::tense_readings(ctx).iter().enumerate() {
        let Some(reading) = reading else { continue };
        if ctx.prose.sentences[si].tokens.len() < MIN_WORDS || ctx.meta[si] {
            continue;
        }
        let features = voice_features(ctx, si, reading);
        let person_cue = features.iter().any(|f| f == PERSON_CUE);
        for (family, out) in open.iter().zip(notes.iter_mut()) {
            if out.len() == MAX_PER_CHECK || (family.check == PERSON.check && !person_cue) {
                continue;
            }
            let score = family.model.score(&features);
            if family.model.fires(&score) {
                out.push(note(ctx, family.check, si, &score.reasons));
            }
        }
    }
    notes.into_iter().flatten().collect()
}

/// The notes of the given models, each for its check.
fn readings_with(
    ctx: &Ctx<'_>,
    found: &[Finding],
    models: &[(Check, &Model)],
) -> Vec<Finding> {
    let mut notes: Vec<Vec<Finding>> = models.iter().map(|_| Vec::new()).collect();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.len() < MIN_WORDS || ctx.meta[si] {
            continue;
        }
        let sentence = &ctx.prose.original[s.start..s.end];
        // Read once, scored by every model that still has room and no rule's finding here.
        let mut features = None;
        for (&(check, model), out) in models.iter().zip(notes.iter_mut()) {
            let flagged = found
                .iter()
                .any(|f| f.check == check && f.sentence.as_deref() == Some(sentence));
            let pov_reads = check == MIND.check && pov_reads_or_feels(ctx, si);
            if out.len() == MAX_PER_CHECK || flagged || pov_reads {
                continue;
            }
            let features = features.get_or_insert_with(|| sentence_features(ctx, si));
            let score = model.score(features);
            if model.fires(&score) {
                out.push(note(ctx, check, si, &score.reasons));
            }
        }
    }
    notes.into_iter().flatten().collect()
}

/// Verbs by which the POV character reads another ("she guessed", "I could see", "he
/// realised"): what follows is their guess or perception, marked as one.
const READING_ANOTHER: &[&str] = &[
    "guessed", "guesses", "realized", "realised", "realizes", "realises", "suspected",
    "suspects", "sensed", "senses", "supposed", "supposes", "imagined", "imagines", "saw",
    "sees", "noticed", "notices", "knew", "knows", "thought", "thinks", "felt", "feels",
    "could", "can", "understood", "understands", "gathered", "gathers", "judged", "judges",
];

/// Where a feeling is felt in the body: "her heart went cold", "my stomach turned".
const FELT_IN: &[&str] = &["heart", "stomach", "throat", "chest", "pulse", "breath", "skin"];

/// Whether the POV character, as a clause's subject, reads another in sentence `si`, or the
/// feeling the sentence tells is in the POV character's own body ("he didn't look up, and
/// her heart went cold" in her point of view).
fn pov_reads_or_feels(ctx: &Ctx<'_>, si: usize) -> bool {
    let tokens = &ctx.prose.sentences[si].tokens;
    let own = match ctx.input.pov {
        PointOfView::First => "my",
        _ => match ctx.genders[ctx.pov] {
            Some("she") => "her",
            Some("he") => "his",
            _ => "their",
        },
    };
    let own_body = tokens
        .windows(2)
        .any(|w| w[0].lower == own && FELT_IN.contains(&w[1].lower.as_str()));
    // "could" and "can" only before a verb of perceiving ("could tell").
    let perceiving = |at: usize| {
        tokens
            .get(at)
            .is_some_and(|n| matches!(n.lower.as_str(), "see" | "tell" | "feel" | "hear" | "sense"))
    };
    let reads = ctx.subjects(si).into_iter().any(|subject| {
        subject.referent == Referent::Pov
            && tokens.get(subject.last + 1).is_some_and(|t| {
                READING_ANOTHER.contains(&t.lower.as_str())
                    && (!matches!(t.lower.as_str(), "could" | "can") || perceiving(subject.last + 2))
            })
    });
    own_body || reads
}

fn note(ctx: &Ctx<'_>, check: Check, si: usize, reasons: &[String]) -> Finding {
    let s = &ctx.prose.sentences[si];
    let excerpt = ctx.prose.excerpt(s, s.tokens[0].start);
    let pov = ctx.pov_name();
    let mut words: Vec<String> = Vec::new();
    for word in reasons.iter().filter_map(|r| features::readable(r)) {
        if !words.contains(&word) && words.len() < 3 {
            words.push(word);
        }
    }
    let why = if words.is_empty() {
        String::new()
    } else {
        format!(" (the words that weigh most: {})", words.join(", "))
    };
    let message = match check {
        Check::OtherMind => format!(
            "This sentence reads like narration from inside someone other than {pov}{why}: \
             “{excerpt}”. If it tells what another character feels, thinks or means without \
             {pov} seeing or being told it, show it through what {pov} can observe, or make it \
             {pov}'s guess. (A learned reading, less sure than the rules: a note.)"
        ),
        Check::TenseDrift => {
            let (novel, other) = match ctx.input.tense {
                crate::config::Tense::Past => ("past", "present"),
                crate::config::Tense::Present => ("present", "past"),
            };
            format!(
                "This sentence reads like narration slipping into the {other} tense{why}: \
                 “{excerpt}”. The novel is told in the {novel} tense; if this is the scene's \
                 own action, put it in the {novel} tense (a memory, a general truth or \
                 dialogue may stay as it is). (A learned reading, less sure than the rules: \
                 a note.)"
            )
        }
        Check::PersonDrift => match ctx.input.pov {
            PointOfView::First => format!(
                "This sentence reads like narration slipping out of the first person{why}: \
                 “{excerpt}”. The novel is told by {pov} as “I”; if this is {pov}, call them \
                 “I” (or “me”, “my”) in the narration. (A learned reading, less sure than the \
                 rules: a note.)"
            ),
            _ => format!(
                "This sentence reads like narration slipping into the first person{why}: \
                 “{excerpt}”. The novel is told in the third person, close to {pov}; outside \
                 dialogue and marked thought, call {pov} by name or “he”, “she” or “they”. \
                 (A learned reading, less sure than the rules: a note.)"
            ),
        },
        _ => format!(
            "This sentence reads like narration that knows what {pov} cannot{why}: \
             “{excerpt}”. If it tells what happens out of {pov}'s sight or hearing, what is \
             hidden from {pov}, or what is still to come, tell it as {pov} learns it, or leave \
             it out. (A learned reading, less sure than the rules: a note.)"
        ),
    };
    Finding::new(check, Severity::Note, message, Some(excerpt)).at(
        &ctx.prose,
        s,
        s.tokens[0].start,
        s.end,
    )
}
