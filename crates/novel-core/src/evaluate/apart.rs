//! Who has parted from the POV character, read across the scene's sentences rather than one
//! sentence at a time, and what the narration then tells of them. Someone leaves ("Holmes left
//! me over the breakfast things", "He waved his hand, turned on his heel, and was gone") or is
//! shown out ("I showed him out and bolted the street door"); until they come back or the POV
//! character goes after them, the POV character cannot see what they do next. A sentence
//! soon after that tells it flatly ("He went straight to Scotland Yard", "He did not go home;
//! he stood under the lamp") goes beyond the POV character's reach.
//!
//! The POV character may have learned it since, heard it, or be guessing, so `pov.rs` makes it
//! a note, and a sentence that says how it was perceived or learned is not a finding.

use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::people::pronoun_gender;
use super::subject::{Referent, Subject};
use super::text::Sentence;

/// How many narration sentences after the parting the POV character stays out of sight of
/// the one who left: after that the scene has usually moved on in time.
const WINDOW: usize = 3;

const WHY: &str = "tells what someone does after parting from the POV character, out of their sight";

/// Someone leaving, said of the subject just before it: the clause after the subject.
static LEAVES: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(
        r"^[^;]{0,70}?\b(?:left (?:me|us|the (?:room|house|shop|office|table|bar|study|parlour|inn|court|yard))|leaves (?:me|us|the (?:room|house|shop|office|table|bar|study|parlour|inn|court|yard))|(?:went|goes|hurried|hurries|walked|walks|strode|strides|slipped|slips|stole|steals|drove|drives|rode|rides|stumped|stumps|stalked|stalks) (?:out|off|away|home)|(?:was|is|were|are) gone\b|departed|departs|took (?:his|her|their) leave|takes (?:his|her|their) leave|(?:withdrew|withdraws)(?: (?:from the|without|at once|quietly|silently))?\b(?: (?:into|to|behind|a little|a step|a pace))?|vanished|vanishes|disappeared|disappears|made off|makes off|set off|sets off)\b",
    )
    .expect("constant pattern")
});

/// The POV character seeing someone off: "I showed him out", "I left him at the corner".
static SENDS_OFF: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"^[^;]{0,40}?\b(?:showed|shows|saw|sees|let|lets|bowed|bows|packed|packs) (him|her|them) (?:out|off)\b|^[^;]{0,70}?\b(?:left|leave|leaves|leaving) (him|her|them)\b")
        .expect("constant pattern")
});

/// Coming back into the POV character's presence, or the POV character going after them.
static BACK: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"^[^;]{0,40}?\b(?:came|comes|come) (?:back|in|up|down|round|again)\b|^[^;]{0,40}?\b(?:returned|returns|return|reappeared|reappears|emerged|emerges|rejoined|rejoins|re-entered|arrived|arrives|entered|enters|was back|is back)\b")
        .expect("constant pattern")
});
static FOLLOWS: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"^[^;]{0,40}?\b(?:followed|follow|follows|went after|go after|goes after|ran after|run after|runs after|caught (?:him|her|them) up|caught up|overtook|overtake|found (?:him|her|them)|joined|join|joins|met (?:him|her|them)|went to (?:him|her|them)|tracked|trailed|shadowed|watched|watch|watches|saw|see|sees|could see|can see)\b")
        .expect("constant pattern")
});

/// How the POV character might still know: perceived, told, learned since.
static KNOWN: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:I|we|she|he|they) (?:could |can |might )?(?:saw|see|sees|heard|hear|hears|watched|watch|noticed|learned|learnt|found out|was told|were told|am told|gathered)\b|\b(?:told|tells|telling) (?:me|us|her|him)\b|\b(?:afterwards|later on|since learned|I learned|as it turned out|it seems|it seemed|I suppose|I dare say|no doubt|doubtless|perhaps|probably)\b|\b(?:must|may|might|would|could) have\b")
        .expect("constant pattern")
});

/// Words that make the subject's verb a guess or a habit rather than a deed told as fact.
const HEDGES: &[&str] = &[
    "would", "could", "might", "must", "may", "should", "can", "shall", "will", "seemed",
    "seems", "appeared", "appears",
];

/// Verbs of saying: said in the POV character's hearing.
const SPEECH: &[&str] = &[
    "said", "says", "cried", "cries", "asked", "asks", "answered", "answers", "replied",
    "replies", "called", "calls", "shouted", "shouts", "whispered", "whispers", "remarked",
    "remarks", "observed", "observes", "added", "adds", "continued", "continues",
];

/// Someone parted from the POV character, by who they are and their pronoun.
#[derive(Clone, Copy)]
struct Parted {
    who: Referent,
    gender: Option<&'static str>,
    /// The narration sentence they parted in, counted among narration sentences.
    at: usize,
    /// Known only as "him" or "her", seen off by the POV character.
    seen_off: bool,
    /// Someone else of their gender named since ("said Holmes"), so "he" may be that one.
    rival: bool,
}

/// A sentence that tells what someone parted from the POV character does: where the subject
/// starts in the prose, the words from the subject to the verb, and why.
pub(super) struct Told {
    pub sentence_start: usize,
    pub at: usize,
    pub phrase: String,
    pub why: &'static str,
}

/// Each sentence of the scene that tells what someone does after parting from the POV
/// character, with nothing in it that says how the POV character knows.
pub(super) fn told_apart(ctx: &Ctx<'_>) -> Vec<Told> {
    let mut out = Vec::new();
    let mut parted: Vec<Parted> = Vec::new();
    let mut narrated = 0usize;
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || ctx.meta.get(si).copied().unwrap_or(false) {
            continue;
        }
        narrated += 1;
        parted.retain(|p| narrated - p.at <= WINDOW);
        let subjects = ctx.subjects(si);
        if let Some(told) = tells_of_parted(ctx, s, &subjects, &parted) {
            out.push(told);
        }
        // "'He seems a very amiable person,' said Holmes": someone speaking is in earshot.
        if has_speech(ctx, s) {
            for subject in &subjects {
                let gender = gender_of(ctx, s, subject);
                parted.retain(|p| !same_person(p, subject.referent, gender, false));
            }
        }
        for h in ctx.hits(s) {
            let g = ctx.genders.get(h.who).copied().flatten();
            for p in &mut parted {
                if h.who != ctx.pov && p.who != Referent::Person(h.who) && g.is_some() && g == p.gender {
                    p.rival = true;
                }
            }
        }
        // What this sentence does to who is present.
        for (k, subject) in subjects.iter().enumerate() {
            let clause = clause_after(s, subject, subjects.get(k + 1));
            if subject.referent == Referent::Pov {
                if FOLLOWS.is_match(&clause) {
                    parted.clear();
                }
                if let Some(caps) = SENDS_OFF.captures(&clause) {
                    let pronoun = caps.get(1).or_else(|| caps.get(2)).map_or("", |m| m.as_str());
                    parted.push(Parted {
                        who: Referent::Someone,
                        gender: pronoun_gender(pronoun),
                        at: narrated,
                        seen_off: true,
                        rival: false,
                    });
                }
            } else if subject.referent.is_other() {
                let gender = gender_of(ctx, s, subject);
                if BACK.is_match(&clause) {
                    parted.retain(|p| !same_person(p, subject.referent, gender, false));
                } else if LEAVES.is_match(&clause)
                    && !negated(&clause)
                    && !taken_along(&clause)
                    && !long_before(&clause)
                {
                    parted.push(Parted {
                        who: subject.referent,
                        gender,
                        at: narrated,
                        seen_off: false,
                        rival: false,
                    });
                }
            }
        }
    }
    out
}

/// The first subject of sentence `s`, when it is someone who parted from the POV character in
/// an earlier sentence and the clause tells what they did as fact.
fn tells_of_parted(
    ctx: &Ctx<'_>,
    s: &Sentence,
    subjects: &[Subject],
    parted: &[Parted],
) -> Option<Told> {
    let narration = ctx.prose.narration(s);
    if KNOWN.is_match(narration) {
        return None;
    }
    // The sentence's own subject, near its start ("He went straight to", "Back at the
    // Yard, Jones kept him waiting").
    let subject = subjects.iter().find(|x| x.first <= 8)?;
    let gender = gender_of(ctx, s, subject);
    parted
        .iter()
        .find(|p| same_person(p, subject.referent, gender, is_pronoun(s, subject)))?;
    let clause = clause_after(s, subject, None);
    // "Mr. Darcy walked off" again is the leaving itself, seen; "He went home by the
    // Underground" or "went straight to the Yard" is where they went, out of sight.
    let further = clause.split_whitespace().any(|w| matches!(w, "home" | "straight"));
    if BACK.is_match(&clause) || (LEAVES.is_match(&clause) && !further) || long_before(&clause) {
        return None;
    }
    let verbs = super::people::subject_verbs(ctx, s, subject.last);
    let first_verb = *verbs.first()?;
    let last_verb = *verbs.last()?;
    let first = s.tokens[first_verb].lower.as_str();
    let main = s.tokens[last_verb].lower.as_str();
    // A deed, not a guess, a habit, a state or a word said in the POV character's hearing;
    // a state of mind is the other-minds check's to find.
    let being = matches!(first, "was" | "were" | "is" | "are" | "has" | "have" | "had" | "been");
    if HEDGES.contains(&first)
        || SPEECH.contains(&main)
        || (being && !(main.ends_with("ing") && first_verb != last_verb))
        || super::inner::is_feeling_verb(main)
        || super::inner::is_cognition_verb(main)
        || super::inner::is_state(main, s.tokens.get(last_verb + 1).map(|t| t.lower.as_str()))
    {
        return None;
    }
    let at = s.tokens[subject.first].start;
    let to = s.tokens[last_verb].end;
    Some(Told {
        sentence_start: s.start,
        at,
        phrase: ctx.prose.original[at..to].to_string(),
        why: WHY,
    })
}

/// Whether a subject is the one who parted: the same known person, or a pronoun of their
/// gender that is not the POV character.
fn same_person(p: &Parted, who: Referent, gender: Option<&'static str>, pronoun: bool) -> bool {
    if p.rival && pronoun {
        return false;
    }
    match (p.who, who) {
        (Referent::Person(a), Referent::Person(b)) => a == b,
        // "I showed him out. He stood under the lamp": the pronoun, when the one who went was
        // only a pronoun too.
        (Referent::Someone, Referent::Someone) => gender.is_some() && gender == p.gender,
        (Referent::Someone, Referent::Person(_)) => {
            p.seen_off && gender.is_some() && gender == p.gender
        }
        _ => false,
    }
}

/// Whether the sentence holds quoted speech.
fn has_speech(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    ctx.prose.original[s.start..s.end] != *ctx.prose.narration(s)
}

/// "he" or "she" rather than a name.
fn is_pronoun(s: &Sentence, subject: &Subject) -> bool {
    subject.first == subject.last && pronoun_gender(&s.tokens[subject.first].lower).is_some()
}

/// The subject's gender: its pronoun, or the known person's record.
fn gender_of(ctx: &Ctx<'_>, s: &Sentence, subject: &Subject) -> Option<&'static str> {
    if subject.first == subject.last
        && let Some(g) = pronoun_gender(&s.tokens[subject.first].lower)
    {
        return Some(g);
    }
    match subject.referent {
        Referent::Person(who) => ctx.genders.get(who).copied().flatten(),
        _ => None,
    }
}

/// The words after a subject up to the next subject or the next piece of dialogue, lowercase.
fn clause_after(s: &Sentence, subject: &Subject, next: Option<&Subject>) -> String {
    let end = next.map_or(s.tokens.len(), |n| n.first);
    let mut words = Vec::new();
    for t in s.tokens.iter().take(end).skip(subject.last + 1) {
        if t.barrier {
            break;
        }
        words.push(t.lower.as_str());
    }
    words.join(" ")
}

/// "he went off to see my father, taking me with him": the POV character goes too.
fn taken_along(clause: &str) -> bool {
    let words: Vec<&str> = clause.split_whitespace().collect();
    words.contains(&"together")
        || words.windows(2).any(|w| {
            matches!(w[0], "taking" | "took" | "takes" | "with" | "bringing" | "brought")
                && matches!(w[1], "me" | "us")
        })
}

/// "Kate and Julia had left the house in Stoney Batter": a parting long before the scene.
fn long_before(clause: &str) -> bool {
    clause.split_whitespace().next() == Some("had")
}

/// "He did not go out": no parting.
fn negated(clause: &str) -> bool {
    clause
        .split_whitespace()
        .take(4)
        .any(|w| matches!(w, "not" | "never" | "didn't" | "hadn't" | "wasn't") || w.ends_with("n't"))
}
