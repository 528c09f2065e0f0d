//! Other minds (head-hopping): narration that states another character's thoughts or feelings
//! as fact — "Bram wondered", "Marcus felt a surge of fear", "he was relieved", "in his mind",
//! "her stomach dropped", "to Maud's relief", "nothing frightened him more". The POV character
//! may read other people: a guess ("he was angry, she guessed"), a perception before it ("she
//! could tell Bram knew"), appearance ("he looked as if…", "seemed"), a report ("Maud had told
//! her that Bram feared…", "he said he had hoped"), a question, or a reading made in the
//! sentence before or justified in the sentence after is never a finding.

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::inner;
use super::mind_words::{
    DEGREE, GUESSES, INNER_ADVERBS, MIND_PARTICIPLES, OUTWARD, READING, STATES, owner_of_mind,
    what_the_feeling_is_about,
};
use super::lexicon::{FEELINGS, INFERENCE, is_action, is_between, is_in};
use super::people::{Agreement, Referent, Subject, subject_verbs, verb_chain};
use super::text::Sentence;
use crate::config::{PointOfView, Tense};

/// Thinking, knowing, feeling verbs: stated of someone else, they put the reader in their head.
#[rustfmt::skip]
const MIND_VERBS: &[&str] = &[
    "thought", "wondered", "realized", "realised", "knew", "decided", "wished", "hoped",
    "feared", "remembered", "believed", "suspected", "longed", "worried", "dreaded",
    "resented", "regretted", "doubted", "understood", "yearned", "craved", "mused",
    "pondered", "recalled", "imagined", "pictured",
    "thinks", "wonders", "realizes", "realises", "knows", "decides", "wishes", "hopes",
    "fears", "remembers", "believes", "suspects", "longs", "worries", "dreads", "resents",
    "regrets", "doubts", "understands", "yearns", "craves", "muses", "ponders", "recalls",
    "imagines", "pictures",
    "thinking", "wondering", "remembering", "hoping", "worrying", "dreading", "regretting",
    "imagining", "picturing", "longing", "wishing", "doubting", "pondering", "seething",
    "fuming", "panicking", "praying", "plotting", "scheming", "calculating", "rehearsing",
    "resolved", "resolves", "fancied", "fancies", "intended", "intends",
    // With a plural subject: "The men believe that he is lost".
    "believe", "suspect", "wonder", "doubt", "fear", "hope", "wish",
];

/// Nouns of a held belief or foreboding: "Sir Leicester has a misgiving that…".
#[rustfmt::skip]
const HELD_NOUNS: &[&str] = &[
    "misgiving", "suspicion", "presentiment", "premonition", "feeling", "notion", "conviction",
    "fear", "dread", "hope", "foreboding", "sense", "idea", "hunch", "inkling",
];

/// Wanting, stated of someone: as often shown or said as private.
const DESIRE: &[&str] = &["wanted", "wants"];

/// Verbs of talk that make a sentence a summary of a conversation.
#[rustfmt::skip]
const TALK: &[&str] = &[
    "said", "praised", "told", "argued", "asked", "replied", "remarked", "declared", "agreed",
    "objected", "answered", "explained", "insisted", "talked", "discussed", "spoke",
];

/// What "felt a…" must name to be a feeling rather than a touch: "a surge of", "a pang".
#[rustfmt::skip]
const FEELING_NOUNS: &[&str] = &[
    "surge", "wave", "pang", "flicker", "stab", "rush", "twinge", "jolt", "spark", "knot",
    "flush", "chill", "thrill", "prick", "glow", "flash", "shiver", "stirring", "tug", "swell",
    "sense", "sudden", "strange", "deep", "cold", "hot", "sharp", "bitter", "familiar",
];

const MIND_NOUNS: &[&str] = &["mind", "thoughts", "soul", "spirits"];

/// Inside the body, felt by its owner: "felt her cheeks burn", "felt his heart sink".
#[rustfmt::skip]
const BODY_INSIDE: &[&str] = &[
    "cheeks", "face", "heart", "stomach", "throat", "chest", "pulse", "skin", "blood", "gut",
    "knees", "legs", "hands", "spine", "temper", "anger", "resolve", "courage", "eyes",
];

/// Inside the body, felt rather than seen: "his heart sank", "her stomach dropped".
const ORGANS: &[&str] = &["heart", "stomach", "chest", "gut", "insides", "blood"];

#[rustfmt::skip]
const ORGAN_VERBS: &[&str] = &[
    "sank", "leapt", "leaped", "raced", "pounded", "ached", "swelled", "broke", "skipped",
    "clenched", "lurched", "twisted", "dropped", "churned", "knotted", "turned", "tightened",
    "fluttered", "flipped", "hammered", "thudded", "constricted", "froze", "ran", "quickened",
    "sinks", "leaps", "races", "pounds", "aches", "swells", "breaks", "skips", "clenches",
    "lurches", "twists", "drops", "churns", "knots", "turns", "tightens", "flutters", "flips",
    "hammers", "thuds", "freezes", "runs", "quickens", "pounding", "racing", "hammering",
    "sinking", "churning", "thudding", "aching", "twisting", "lurching", "beating",
    "thumping", "thumped", "thumps",
];

/// "to Maud's relief", "to his horror".
#[rustfmt::skip]
const REACTION_NOUNS: &[&str] = &[
    "relief", "horror", "dismay", "surprise", "delight", "disgust", "shame", "embarrassment",
    "chagrin", "disappointment", "annoyance", "amusement", "astonishment", "satisfaction",
];

/// Verbs whose object feels: "nothing frightened him more".
#[rustfmt::skip]
const EXPERIENCER: &[&str] = &[
    "frightened", "terrified", "scared", "worried", "pleased", "annoyed", "delighted",
    "irritated", "embarrassed", "humiliated", "troubled", "bothered", "haunted", "tormented",
    "comforted", "reassured", "relieved", "disgusted", "amused", "thrilled", "angered",
    "saddened", "horrified", "calmed", "soothed", "gripped", "seized", "filled", "consumed",
    "overwhelmed", "flooded", "frightens", "terrifies", "scares", "worries", "pleases",
    "annoys", "delights", "irritates", "embarrasses", "troubles", "bothers", "haunts",
    "torments", "comforts", "reassures", "relieves", "disgusts", "amuses", "thrills",
    "angers", "saddens", "horrifies",
];

/// Words that, before the subject, make what follows a report of what someone said.
#[rustfmt::skip]
const REPORTING: &[&str] = &[
    "said", "says", "told", "tells", "claimed", "claims", "admitted", "admits", "explained",
    "insisted", "wrote", "writes", "swore", "confessed", "according", "promised", "warned",
    "heard", "learned", "learnt", "rumoured", "rumored", "reported", "guessing", "seeing",
    "judging", "apparently", "evidently", "plainly",
];

/// The POV character's reading of someone, after the statement: "…, she guessed".
#[rustfmt::skip]
const POV_CUES: &[&str] = &[
    "guessed", "guess", "guesses", "thought", "think", "thinks", "suspected", "suspect",
    "suspects", "supposed", "suppose", "imagined", "imagine", "sensed", "senses", "figured",
    "reckoned", "reckon", "bet", "knew", "know", "saw", "see", "sees", "noticed",
    "remembered", "remember", "remembers", "wondered", "judged", "believed", "believe",
    "understood", "realized", "realised", "read", "supposes", "imagines", "reckons",
    "believes", "knows", "notices", "judges", "fancies", "fancied", "gathered", "gathers",
    "concluded", "concludes", "perceived", "perceives",
];

/// "…, she could tell", "…, she was sure": a cue of two words.
fn pov_cue(s: &Sentence, v: usize) -> bool {
    let Some(t) = s.tokens.get(v) else {
        return false;
    };
    let next = s.tokens.get(v + 1).map(|n| n.lower.as_str());
    is_in(POV_CUES, &t.lower)
        || (matches!(t.lower.as_str(), "could" | "can")
            && matches!(next, Some("tell" | "see" | "sense" | "guess" | "hear" | "feel")))
        || (matches!(t.lower.as_str(), "was" | "is" | "felt")
            && matches!(next, Some("sure" | "certain" | "convinced")))
}

/// Modals that make a statement a guess or a counterfactual.
const MODALS: &[&str] = &["must", "might", "may", "would", "could", "should", "'d"];

pub(super) fn other_minds(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || super::pov::is_question(ctx.prose.narration(s)) {
            continue;
        }
        // (first token, last token, whose mind, certain): a thinking verb stated of someone
        // else is certain in close third; in the first person it is most often what the
        // narrator was told or supposes ("John thought it might do me good"), so a note.
        let mut found: Vec<(usize, usize, Referent, bool)> = Vec::new();
        let first_person = ctx.input.pov == PointOfView::First;
        let subjects = ctx.subjects(si).into_iter().map(|x| (x, false));
        for (mut subject, relative) in subjects.chain(relative_subjects(ctx, si, s)) {
            subject.referent = owner_of_mind(ctx, si, subject.first, subject.referent);
            if !subject.referent.is_other() || in_generic_simile(s, subject.first) {
                continue;
            }
            // "…, though she would never admit it": hidden even from the POV character, so no
            // guess or "though" before it makes it a reading.
            let chain = verb_chain(s, subject.last);
            // "I think he is frightened, though he would never admit it": the whole is the
            // POV character's guess.
            let guessed = ctx
                .subjects(si)
                .iter()
                .any(|x| x.first <= subject.first && led_in(ctx, s, x.first));
            if let Some(&main) = chain.last()
                && hidden(s, main)
            {
                if !guessed {
                    found.push((subject.first, main, subject.referent, true));
                }
                continue;
            }
            let inward = subject.first.checked_sub(1).is_some_and(|k| {
                is_in(INNER_ADVERBS, &s.tokens[k].lower)
                    // "…, but inside she was shaking": "inside" as an adverb, right before
                    // the subject of its clause.
                    || (s.tokens[k].lower == "inside"
                        && k > 0
                        && matches!(s.tokens[k - 1].lower.as_str(), "but" | "and" | "yet"))
            }) || chain
                .iter()
                .any(|&k| k > subject.last + 1 && is_in(INNER_ADVERBS, &s.tokens[k - 1].lower));
            // "though inwardly he was cursing my luck": whatever follows is inside him,
            // unless the POV character's perception leads in ("I feel sure John is
            // secretly affected").
            if inward
                && !perceived_before(ctx, s, subject.first)
                && let Some(&end) = chain.last()
            {
                found.push((subject.first, end, subject.referent, true));
                continue;
            }
            if led_in(ctx, s, subject.first) {
                continue;
            }
            // "Even he, perhaps, had been doubtful": a guess between subject and verb.
            let guessed = s.tokens[subject.last + 1..(subject.last + 4).min(s.tokens.len())]
                .iter()
                .any(|t| is_in(GUESSES, &t.lower));
            if guessed {
                continue;
            }
            // "Higgins, who had rehearsed his version … and was privately sure it would go
            // down better", "He was turning the matter over, and cursing himself": a second
            // predicate of the same subject. Shown as a note: the subject is read from afar.
            // A first-person narrator's present portrait of someone ("He loves me very dearly,
            // and hates to have me sick") is read by the narrow rules only.
            let portrait = first_person && ctx.input.tense == Tense::Present;
            if let Some(c) = coordinated_state(s, subject.last, !portrait) {
                found.push((subject.first, c, subject.referent, false));
            }
            if let Some((end, broad)) = stated_mind(ctx, s, &subject) {
                // "He loves me very dearly", "he considers that…": a first-person narrator's
                // standing portrait of someone they live beside, told in the present; only
                // the narrow rules read that.
                let standing = first_person
                    && broad
                    && (s.tokens[end].lower.ends_with('s') || ctx.input.tense == Tense::Present);
                if standing {
                    // "…who had always pitied me in secret and hoped…": the narrow rules still
                    // read a thought joined to it.
                    if let Some(c) = coordinated_mind(s, end) {
                        found.push((subject.first, c, subject.referent, false));
                    }
                    continue;
                }
                // "felt that…" is a belief, as "thought that…" is.
                let thinking = is_in(MIND_VERBS, &s.tokens[end].lower)
                    || is_in(DESIRE, &s.tokens[end].lower)
                    || (s.tokens[end].lower == "that"
                        && end > 0
                        && matches!(s.tokens[end - 1].lower.as_str(), "felt" | "feels" | "feel"));
                // "…praised the contralto but Miss Furlong thought she was vulgar": an opinion
                // in a summary of talk was most likely said aloud.
                let talk = s.tokens[..subject.first]
                    .iter()
                    .any(|t| is_in(TALK, &t.lower));
                let desire = is_in(DESIRE, &s.tokens[end].lower);
                // "her father, who had always hated the place": a standing trait the POV
                // character may well know, told in passing; a note.
                // A match of the broad lexicon (`inner.rs`) is shown as a note: the writer
                // sees it, and no revision is spent on a word that may be outward.
                // A pronoun read as the previous sentence's subject is a guess at reference.
                let carried = subject.first == 0
                    && !first_person
                    && matches!(s.tokens[0].lower.as_str(), "he" | "she")
                    && ctx.carried_subject(si, 0, &s.tokens[0].lower).is_some();
                let certain =
                    !(broad || carried || desire || relative || thinking && (first_person || talk));
                found.push((subject.first, end, subject.referent, certain));
            }
        }
        let certain =
            |v: Vec<(usize, usize, Referent)>| v.into_iter().map(|(a, b, c)| (a, b, c, true));
        found.extend(certain(trailing_mind(ctx, si, s)));
        found.extend(certain(perspective(ctx, si, s)));
        found.extend(certain(beyond_admitting(ctx, si, s)));
        found.extend(certain(possessed(ctx, si, s)));
        found.extend(certain(experienced(ctx, si, s)));
        found.extend(certain(feeling_inside(ctx, si, s)));
        let uncertain =
            |v: Vec<(usize, usize, Referent)>| v.into_iter().map(|(a, b, c)| (a, b, c, false));
        found.extend(uncertain(super::absolute::absolute_mind(ctx, si, s)));
        found.extend(uncertain(super::experiencer::quality_changes(ctx, si, s)));
        found.extend(uncertain(super::experiencer::experienced_idioms(ctx, si, s)));
        found.extend(uncertain(super::experiencer::owned_feelings(ctx, si, s)));
        // "He thought of how she had locked in her heart…": the POV character's thought leads in.
        let not_led = |v: Vec<(usize, usize, Referent)>| -> Vec<(usize, usize, Referent)> {
            v.into_iter().filter(|x| !led_in(ctx, s, x.0)).collect()
        };
        found.extend(uncertain(not_led(super::interior::placed_within(ctx, si, s))));
        found.extend(uncertain(not_led(super::interior::motives_and_memories(ctx, si, s))));
        // The most certain first, then in reading order.
        found.sort_by_key(|f| (!f.3, f.0));
        if let Some(&(first, end, who, certain)) = found.first()
            && !read_by_pov(ctx, si, first)
            && !reading_around(ctx, si, who)
        {
            let severity = if certain {
                Severity::Violation
            } else {
                Severity::Note
            };
            out.push(mind_finding(ctx, s, first, end, who, severity));
        }
    }
    out
}

/// "Mrs Donnelly, who privately found Maria's visits a strain": a "who" after a comma stands
/// for the person before the comma, and its clause may state that person's inner life. Each
/// comes with `true`: a relative clause is told in passing (see `other_minds`).
fn relative_subjects(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(Subject, bool)> {
    let hits = ctx.hits(s);
    let mut out = Vec::new();
    for (i, t) in s.tokens.iter().enumerate().skip(1) {
        if t.lower != "who" || t.barrier {
            continue;
        }
        if !ctx.prose.original[s.tokens[i - 1].end..t.start].contains(',') {
            continue;
        }
        let before = &s.tokens[i - 1];
        let referent = if let Some(h) = hits.iter().find(|h| h.last == i - 1) {
            if h.who == ctx.pov || h.possessive {
                continue;
            }
            Referent::Person(h.who)
        } else {
            match before.lower.as_str() {
                "him" | "her" => ctx.resolve(si, i - 1, &before.lower),
                w if super::text::is_function_word(w)
                    || matches!(w, "i" | "me" | "myself" | "we" | "us" | "you") =>
                {
                    continue;
                }
                _ => Referent::Someone,
            }
        };
        let subject = Subject {
            first: i,
            last: i,
            referent,
            agreement: Agreement::Third,
            first_person: false,
        };
        out.push((subject, true));
    }
    out
}

/// A perception, guess or report before the subject: "She could tell Bram knew", "Bram said
/// he had hoped", "Maybe Lena knew".
fn led_in(ctx: &Ctx<'_>, s: &Sentence, first: usize) -> bool {
    // "…as far as he feared", "colder than she expected": a comparison, not a report.
    let comparative = first.checked_sub(1).is_some_and(|p| {
        let w = s.tokens[p].lower.as_str();
        w == "than"
            || (w == "as"
                && s.tokens[p.saturating_sub(3)..p]
                    .iter()
                    .any(|t| t.lower == "as"))
    });
    // "as though he feared" reads him from outside; a bare "though he feared" concedes a
    // feeling stated as fact ("…attends in person, though he can't help but feel").
    let start = clause_start(ctx, s, first);
    comparative
        || (start..first).any(|k| {
            let w = s.tokens[k].lower.as_str();
            let conceding = w == "though" && (k == 0 || s.tokens[k - 1].lower != "as");
            !conceding && (is_in(INFERENCE, w) || is_in(REPORTING, w))
        })
}

/// The POV character's perception or thought leads the clause up to token `at` ("He thought
/// of how she had locked in her heart…"); unlike [`led_in`], a "though" or "if" does not count.
fn perceived_before(ctx: &Ctx<'_>, s: &Sentence, at: usize) -> bool {
    s.tokens[clause_start(ctx, s, at)..at].iter().any(|t| {
        (is_in(INFERENCE, &t.lower) || is_in(REPORTING, &t.lower))
            && !matches!(
                t.lower.as_str(),
                "though" | "if" | "whether" | "what" | "whatever" | "how" | "why" | "unless"
            )
    })
}

/// Where the clause holding token `at` begins: after a semicolon, or after ", for", ", but"
/// or ", and" opening a new clause ("Gabriel watched his wife, who said nothing, for she was
/// thinking of a boy": the watching does not make the thinking a reading).
fn clause_start(ctx: &Ctx<'_>, s: &Sentence, at: usize) -> usize {
    (1..at)
        .rev()
        .find(|&k| {
            let gap = &ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start];
            gap.contains(';')
                || (gap.contains(',')
                    && matches!(
                        s.tokens[k].lower.as_str(),
                        "for" | "but" | "and" | "while" | "whereas" | "though" | "although"
                    ))
        })
        .unwrap_or(0)
}

/// The last token of a statement of the subject's inner life, if the chain after it is one,
/// and whether it was found by the broad lexicon of `inner.rs` only (a note).
fn stated_mind(ctx: &Ctx<'_>, s: &Sentence, subject: &Subject) -> Option<(usize, bool)> {
    let sure = |i: usize| Some((i, false));
    let broad = |i: usize| Some((i, true));
    let chain = subject_verbs(ctx, s, subject.last);
    let words: Vec<&str> = chain.iter().map(|&i| s.tokens[i].lower.as_str()).collect();
    let (&main_i, &main) = (chain.last()?, words.last()?);
    let next = s
        .tokens
        .get(main_i + 1)
        .filter(|t| t.plain_gap)
        .map(|t| t.lower.as_str());
    let couldnt = words
        .iter()
        .any(|w| matches!(*w, "couldn't" | "could" | "cannot" | "can't"))
        && words.iter().any(|w| matches!(*w, "stop" | "help"))
        || (words.contains(&"couldn't") && main == "believe")
        // "Mr Browne could not wait to tell them": eagerness, felt inside.
        || (main == "wait"
            && next == Some("to")
            && words
                .iter()
                .any(|w| matches!(*w, "couldn't" | "could" | "can't" | "cannot")));
    if couldnt {
        return sure(main_i);
    }
    // "Inside he was raging", "Deep down she was glad": whatever follows is done within.
    let opener = |k: usize| s.tokens.get(k).map(|t| t.lower.as_str());
    let within = (match subject.first {
        1 => matches!(opener(0), Some("inside" | "inwardly" | "secretly" | "privately")),
        2 => opener(0) == Some("deep") && opener(1) == Some("down"),
        _ => false,
    } && s.tokens[subject.first].plain_gap)
        || opened_within(s, subject.first);
    if within {
        return sure(main_i);
    }
    // "had no intention of", "could not shake the feeling", "was lost in thought".
    let first_verb = *chain.first()?;
    let phrase: Vec<&str> = s.tokens[first_verb..(first_verb + 10).min(s.tokens.len())]
        .iter()
        .enumerate()
        .take_while(|(k, t)| *k == 0 || t.plain_gap)
        .map(|(_, t)| t.lower.as_str())
        .filter(|w| {
            !is_between(w) || matches!(*w, "hardly" | "barely" | "scarcely" | "still" | "already")
        })
        .collect();
    if let Some(n) = inner::inner_idiom(&phrase) {
        let end = (first_verb + n).min(s.tokens.len() - 1);
        // "has a misgiving that…": the narrow rule's form, as sure as it was.
        let held = matches!(phrase.get(1), Some(&("a" | "an")))
            && phrase.get(2).is_some_and(|n| is_in(HELD_NOUNS, n))
            && phrase.get(3) == Some(&"that")
            && matches!(phrase.first(), Some(&("has" | "had" | "have")));
        return if held { sure(end) } else { broad(end) };
    }
    if words[..words.len() - 1].iter().any(|w| is_in(MODALS, w)) {
        return hidden(s, main_i).then_some((main_i, false));
    }
    let negated = s.tokens[subject.last + 1..main_i]
        .iter()
        .any(|t| matches!(t.lower.as_str(), "not" | "never") || t.lower.ends_with("n't"));
    let be = words[..words.len() - 1]
        .iter()
        .any(|w| matches!(*w, "was" | "were" | "is" | "are" | "been" | "be" | "being"));
    let done = words[..words.len() - 1].iter().any(|w| {
        matches!(
            *w,
            "did" | "does" | "do" | "didn't" | "doesn't" | "don't" | "had" | "has" | "have"
        )
    });
    // "tried to remember", "began to suspect", "came to hate": the onset of a thought.
    if inner::is_onset(main)
        && next == Some("to")
        && let Some(v) = s.tokens.get(main_i + 2).filter(|t| t.plain_gap)
        && (inner::is_feeling_verb(&v.lower) || inner::is_cognition_verb(&v.lower) && !negated)
    {
        return broad(main_i + 2);
    }
    // Feeling stays feeling when denied ("Pike did not care what she thought", "never liked
    // the man"); the other verbs of the broad lexicon are read further down.
    if let Some(found) = feeling_verb(main, next, be, done || negated, words.len())
        && (negated || !is_in(MIND_VERBS, main))
    {
        return found.then_some((main_i, true));
    }
    // "Sir Leicester has a misgiving that…": a belief held, its content told.
    if matches!(main, "a" | "an")
        && words.len() >= 2
        && matches!(words[words.len() - 2], "has" | "had" | "have")
        && next.is_some_and(|n| is_in(HELD_NOUNS, n))
        && s.tokens.get(main_i + 2).is_some_and(|t| t.lower == "that")
    {
        return sure(main_i + 1);
    }
    // "He never suspected", "she did not know": unawareness is narrator knowledge (`pov.rs`).
    if negated {
        return None;
    }
    if main == "planning"
        && matches!(
            next,
            Some("how" | "to" | "what" | "when" | "where" | "whether")
        )
    {
        return sure(main_i);
    }
    if is_in(MIND_VERBS, main) {
        let exempt = match main {
            "knew" | "knows" => knew_a_thing(ctx, s, main_i),
            "remembered" | "remembers" => next == Some("to"),
            // "Wind worried at the panes", "worried the knot loose": the other sense.
            "worried" | "worries" => {
                matches!(next, Some("at" | "the" | "his" | "her" | "its" | "their"))
            }
            // "He thought about it", "thought for a moment": a visible pause over a question.
            "thought" | "thinks" => {
                let after = s.tokens.get(main_i + 2).map(|t| t.lower.as_str());
                matches!(
                    (next, after),
                    (
                        Some("about" | "over" | "of"),
                        Some("it" | "that" | "this" | "everything")
                    ) | (Some("it"), Some("over"))
                        | (Some("for"), Some("a"))
                )
            }
            _ => false,
        };
        return (!exempt).then_some((main_i, false));
    }
    // "Freddy wanted another drink": a wish, most often shown or said (a note, see above).
    if is_in(DESIRE, main) {
        return sure(main_i);
    }
    // "Pike assumed the girl had not read it", "Martha had forgotten the letter".
    let bare = inner::is_cognition_verb(main) && !main.ends_with(['s', 'd', 'g', 'n', 't']);
    if inner::is_cognition_verb(main)
        && (!be || main.ends_with("ing"))
        && (!bare || done)
        && !(matches!(main, "remember" | "remembered" | "remembers") && next == Some("to"))
    {
        return broad(main_i);
    }
    if matches!(main, "felt" | "feels" | "feeling") {
        let n = next?;
        if is_in(FEELINGS, n) && !matches!(n, "a" | "an" | "that") {
            return sure(main_i + 1);
        }
        // "felt that the evening was going well": a belief.
        if n == "that" {
            return sure(main_i + 1);
        }
        if matches!(n, "a" | "an") {
            // "felt a pang", "felt a small glow of triumph": a word or three may describe it.
            let described = (main_i + 2..main_i + 5).take_while(|&k| {
                s.tokens.get(k).is_some_and(|t| t.plain_gap && !t.barrier)
            });
            for k in described {
                let noun = s.tokens[k].lower.as_str();
                if is_in(FEELING_NOUNS, noun) {
                    return sure(k);
                }
                if is_in(inner::EMOTION_NOUNS, noun) {
                    return broad(k);
                }
                if matches!(noun, "of" | "that" | "as" | "and") {
                    break;
                }
            }
            return None;
        }
        // "felt his courage drain away", "felt her anger rise": a feeling of their own.
        if matches!(n, "his" | "her" | "their")
            && s.tokens
                .get(main_i + 2)
                .is_some_and(|t| t.plain_gap && is_in(inner::EMOTION_NOUNS, &t.lower))
        {
            return sure(main_i + 2);
        }
        // "felt very old", "felt oddly ashamed", "felt nothing but contempt": a degree
        // word, then the feeling.
        let mut k = main_i + 1;
        while s
            .tokens
            .get(k)
            .is_some_and(|t| t.plain_gap && (is_in(DEGREE, &t.lower) || is_between(&t.lower)))
        {
            k += 1;
        }
        let feeling = s.tokens.get(k).filter(|t| t.plain_gap)?;
        let after = s.tokens.get(k + 1).map(|t| t.lower.as_str());
        if k > main_i + 1 && is_in(FEELINGS, &feeling.lower)
            || inner::is_state(&feeling.lower, after)
            || is_in(inner::EMOTION_NOUNS, &feeling.lower)
        {
            return broad(k);
        }
        // "felt her cheeks burn", "felt his heart sink": a sensation inside the body.
        if matches!(n, "his" | "her" | "their")
            && s.tokens
                .get(main_i + 2)
                .is_some_and(|t| t.plain_gap && is_in(BODY_INSIDE, &t.lower))
        {
            return broad(main_i + 2);
        }
        return None;
    }
    let was = words
        .iter()
        .any(|w| matches!(*w, "was" | "were" | "is" | "are" | "been"));
    // "he was sure to be silent": likelihood, not a feeling.
    let likely = matches!(main, "sure" | "certain") && next == Some("to");
    // "tired of the gentlemen": weariness of mind, not of body.
    let weary_of = matches!(main, "tired" | "weary" | "sick") && next == Some("of");
    // "she is sick at heart".
    let at_heart = next == Some("at")
        && s.tokens
            .get(main_i + 2)
            .is_some_and(|t| t.lower == "heart" && t.plain_gap);
    if was && at_heart && !matches!(main, "was" | "were" | "is" | "are" | "been") {
        return sure(main_i + 2);
    }
    if was && (is_in(STATES, main) || weary_of) && !likely {
        return sure(main_i);
    }
    if was && inner::is_state(main, next) && !likely {
        return broad(main_i);
    }
    coordinated_mind(s, main_i).map(|i| (i, false))
}

/// Whether a verb of feeling at the end of a chain states a feeling: `None` when `main` is
/// no verb of feeling; `be` an earlier "was" (then only "-ing" is a verb: "was long" is not),
/// `done` a "did"/"had" or a denial before it (which a bare form needs: "did not care").
fn feeling_verb(
    main: &str,
    next: Option<&str>,
    be: bool,
    done: bool,
    chain_len: usize,
) -> Option<bool> {
    if !inner::is_feeling_verb(main) {
        return None;
    }
    let bare = !main.ends_with(['s', 'd', 'g']) || main == "long";
    let states = match main {
        // "Pike cared for his mother" looks after her; "minded the shop" keeps it.
        "cared" | "cares" | "care" => next != Some("for"),
        "mind" | "minded" | "minds" => done,
        // "his knee ached": only an ache for something is a longing.
        m if m.starts_with("ach") || m.starts_with("itch") || m.starts_with("pin") => {
            matches!(next, Some("to" | "for"))
        }
        _ => true,
    };
    Some(states && (!be || main.ends_with("ing")) && (!bare || done) && chain_len <= 4)
}

/// "She poured the soup and hoped I would notice": a thinking verb sharing the subject, in
/// the same clause.
fn coordinated_mind(s: &Sentence, from: usize) -> Option<usize> {
    let mut j = from + 1;
    while let Some(t) = s.tokens.get(j) {
        if t.barrier || j > from + 12 {
            return None;
        }
        if matches!(
            t.lower.as_str(),
            "she" | "he" | "i" | "they" | "we" | "who" | "that" | "which"
        ) {
            return None;
        }
        let skip = usize::from(
            s.tokens
                .get(j + 1)
                .is_some_and(|a| is_in(INNER_ADVERBS, &a.lower)),
        );
        // "…and privately began to regret": the start of a thought is the thought.
        let began = usize::from(
            s.tokens
                .get(j + 1 + skip)
                .is_some_and(|b| matches!(b.lower.as_str(), "began" | "begins" | "started"))
                && s.tokens
                    .get(j + 2 + skip)
                    .is_some_and(|to| to.lower == "to"),
        ) * 2;
        if matches!(t.lower.as_str(), "and" | "but")
            && let Some(v) = s.tokens.get(j + 1 + skip + began).filter(|v| v.plain_gap)
            // After "began to" the verb is bare: "regret" is "regrets" without its ending.
            && (is_in(MIND_VERBS, &v.lower)
                || (began > 0 && is_in(MIND_VERBS, &format!("{}s", v.lower))))
            && !v.lower.ends_with("ing")
        {
            return Some(j + 1 + skip + began);
        }
        j += 1;
    }
    None
}

/// A second predicate of inner life joined to the clause after token `from` by "and" or
/// "but": "…and was privately sure it would", "…, and cursing himself for", "…but feared".
/// None once a new subject or a clause of its own begins. `broad` lets the broad lexicon's
/// verbs count ("…, and despises me for it").
fn coordinated_state(s: &Sentence, from: usize, broad: bool) -> Option<usize> {
    let word = |k: usize| s.tokens.get(k).filter(|t| t.plain_gap).map(|t| t.lower.as_str());
    for j in from + 1..(from + 20).min(s.tokens.len()) {
        let t = &s.tokens[j];
        if t.barrier {
            return None;
        }
        // A new subject ends the reach: a relative pronoun, or a personal one opening a
        // clause ("…, and she said"); "a word of it, and is privately resolved" goes on.
        let opens_clause = s.tokens[j - 1].lower == "and"
            || s.tokens[j - 1].lower == "but"
            || t.plain_gap && j > from + 1 && !s.tokens[j - 1].plain_gap;
        if matches!(
            t.lower.as_str(),
            "who" | "that" | "which" | "whom" | "if" | "though" | "although" | "because" | "when"
                | "while" | "since" | "until" | "unless"
        )
            || (matches!(t.lower.as_str(), "she" | "he" | "i" | "they" | "we" | "it") && opens_clause)
        {
            return None;
        }
        if !matches!(t.lower.as_str(), "and" | "but") {
            continue;
        }
        let mut k = j + 1;
        let linked = matches!(word(k), Some("was" | "were" | "is" | "are" | "felt" | "feels"));
        if linked {
            k += 1;
        }
        while word(k).is_some_and(|w| is_in(INNER_ADVERBS, w) || is_in(DEGREE, w)) {
            k += 1;
        }
        let Some(w) = word(k) else {
            continue;
        };
        // "and was sorry now that": a word of time between the state and what it is about.
        let next = match word(k + 1) {
            Some("now" | "then" | "already" | "still") => word(k + 2),
            n => n,
        };
        let state = linked
            && (is_in(STATES, w) || inner::is_state(w, next))
            && !is_in(INNER_ADVERBS, w)
            && !(matches!(w, "sure" | "certain") && next == Some("to"))
            && matches!(next, Some("that" | "of" | "to" | "at" | "it" | "he" | "she" | "they" | "the"));
        // "…, and despises me for each one of them": a finite verb of feeling or private
        // cognition from the broad lexicon ("cares for" and "minds" are as often deeds).
        let finite = w.ends_with('s') || w.ends_with("ed");
        let broad_verb = broad
            && finite
            && (inner::is_feeling_verb(w) || inner::is_cognition_verb(w))
            && !w.starts_with("car")
            && !w.starts_with("mind")
            && next.is_some();
        let thought = !linked
            && ((is_in(MIND_VERBS, w) && !w.ends_with("ing"))
                || broad_verb
                || (is_in(MIND_PARTICIPLES, w) && next.is_some()));
        if state || thought {
            return Some(k);
        }
    }
    None
}

/// "knew how to splice a rope", "knew the way", "knew Maud": skill or acquaintance, not a
/// private thought.
fn knew_a_thing(ctx: &Ctx<'_>, s: &Sentence, v: usize) -> bool {
    let Some(next) = s.tokens.get(v + 1).filter(|t| t.plain_gap) else {
        return false;
    };
    let word = ctx.prose.word(next);
    // "The man Bram knew was called Dunn": whom Bram knew, an acquaintance.
    #[rustfmt::skip]
    let known_thing = matches!(
        next.lower.as_str(),
        "how" | "him" | "her" | "them" | "me" | "us" | "you" | "every" | "each" | "all" | "his"
            | "my" | "your" | "their" | "its" | "of" | "this" | "these" | "those" | "where"
            | "was" | "were" | "had" | "is"
    );
    let the_way = next.lower == "the"
        && s.tokens.get(v + 2).is_some_and(|t| {
            matches!(
                t.lower.as_str(),
                "way"
                    | "ropes"
                    | "city"
                    | "town"
                    | "streets"
                    | "harbour"
                    | "harbor"
                    | "place"
                    | "sea"
                    | "coast"
                    | "rules"
                    | "drill"
                    | "score"
                    | "story"
                    | "stories"
                    | "tunnels"
                    | "waters"
                    | "market"
                    | "road"
                    | "roads"
                    | "area"
            )
        });
    known_thing || the_way || word.starts_with(char::is_uppercase)
}

/// "though she would never admit it": a state hidden from everyone, so from the POV too.
/// "To Aunt Kate, the whole affair seemed a disgrace": the world as it seems to someone else.
fn perspective(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    if s.tokens.len() < 4 || s.tokens[0].lower != "to" {
        return Vec::new();
    }
    let hits = ctx.hits(s);
    let (who, last) = if let Some(h) = hits.iter().find(|h| h.first == 1 && !h.possessive) {
        if h.who == ctx.pov {
            return Vec::new();
        }
        (Referent::Person(h.who), h.last)
    } else if matches!(s.tokens[1].lower.as_str(), "him" | "her") {
        (ctx.resolve(si, 1, &s.tokens[1].lower), 1)
    } else {
        return Vec::new();
    };
    let comma = s
        .tokens
        .get(last + 1)
        .is_some_and(|n| ctx.prose.original[s.tokens[last].end..n.start].contains(','));
    let seemed = s.tokens[last + 1..]
        .iter()
        .position(|t| {
            matches!(
                t.lower.as_str(),
                "seemed" | "seems" | "felt" | "feels" | "was" | "is"
            )
        })
        .map(|k| last + 1 + k);
    match seemed {
        Some(end) if comma && who.is_other() => vec![(0, end, who)],
        _ => Vec::new(),
    }
}

/// "…more than he would admit", "…than she would ever let on": a feeling hidden from
/// everyone, stated of the clause's subject.
fn beyond_admitting(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let at = s.tokens.windows(4).position(|w| {
        w[0].lower == "than"
            && matches!(w[1].lower.as_str(), "he" | "she" | "they")
            && matches!(w[2].lower.as_str(), "would" | "could" | "cared" | "dared")
            && matches!(
                w[3].lower.as_str(),
                "admit" | "show" | "confess" | "say" | "let" | "ever"
            )
    });
    let Some(at) = at else {
        return Vec::new();
    };
    // "I think he had come to respect him more than he would ever say": the POV character's
    // guess, hidden feeling and all.
    if ctx.subjects(si).iter().any(|x| x.first < at && led_in(ctx, s, x.first)) {
        return Vec::new();
    }
    let referent = owner_of_mind(
        ctx,
        si,
        at + 1,
        ctx.resolve(si, at + 1, &s.tokens[at + 1].lower),
    );
    if referent.is_other() {
        vec![(at, at + 3, referent)]
    } else {
        Vec::new()
    }
}

fn hidden(s: &Sentence, main_i: usize) -> bool {
    let main = s.tokens[main_i].lower.as_str();
    let before = main_i.checked_sub(1).map(|p| s.tokens[p].lower.as_str());
    let never = matches!(before, Some("never" | "not"));
    // "She did not say much" is how much she talked, seen from outside; "she would not say
    // so", "would not tell her husband so", "he never told anyone" keep something back.
    let kept_back = match main {
        "say" | "tell" => {
            before == Some("never")
                || s.tokens[main_i + 1..(main_i + 5).min(s.tokens.len())]
                    .iter()
                    .any(|t| matches!(t.lower.as_str(), "so" | "it" | "anyone" | "anybody" | "a"))
        }
        _ => true,
    };
    never && kept_back && matches!(main, "admit" | "show" | "confess" | "tell" | "say" | "let")
}

/// "…and looked, for once, thoroughly pleased with the world": the phrase completes a verb
/// of appearance just before it, however a parenthesis splits them — seen, not told. Not
/// "looked at me, secretly relieved", where the looking is a glance.
fn appearance_before(s: &Sentence, p: usize) -> bool {
    (p.saturating_sub(4)..p).any(|k| {
        matches!(
            s.tokens[k].lower.as_str(),
            "looked" | "looks" | "looking" | "seemed" | "seems" | "seeming" | "appeared" | "appears"
                | "sounded" | "sounds"
        ) && !s.tokens.get(k + 1).is_some_and(|n| {
            matches!(
                n.lower.as_str(),
                "at" | "up" | "down" | "round" | "around" | "away" | "out" | "in" | "over"
                    | "into" | "across" | "back" | "through" | "to" | "toward" | "towards"
            )
        })
    })
}

/// "…as a man puts away a thing he is afraid of breaking": the pronoun is the simile's
/// anyone, not a person in the scene.
fn in_generic_simile(s: &Sentence, first: usize) -> bool {
    (2..=8).any(|back| {
        first > back
            && matches!(s.tokens[first - back - 1].lower.as_str(), "as" | "like")
            && matches!(s.tokens[first - back].lower.as_str(), "a" | "one" | "any")
            && matches!(
                s.tokens[first - back + 1].lower.as_str(),
                "man" | "woman" | "child" | "person" | "boy" | "girl" | "fellow"
            )
    })
}

/// "faintly irritated", "savagely put out": an adverb of manner or degree before the state.
fn manner_adverb(word: &str) -> bool {
    word.len() > 5
        && word.ends_with("ly")
        && !matches!(word, "likely" | "early" | "lonely" | "lovely" | "friendly" | "elderly" | "only")
}

/// A phrase after a comma that carries on another character's inner life as fact: "Brannock
/// stared at it, thinking of his daughter", "He read it twice, secretly relieved that I had
/// not noticed", "Mr D'Arcy stood frowning, furious that they had made him sing". The phrase
/// belongs to the nearest subject before it in the sentence; a reading word ("plainly",
/// "as if") makes it the POV character's reading, and a bare "thinking" at the clause's end
/// ("sat by the fire, thinking") is a visible pause.
fn trailing_mind(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let subjects = ctx.subjects(si);
    for p in 0..s.tokens.len() {
        let t = &s.tokens[p];
        // The sentence's opening phrase ("Terrified of the men, she would not leave"), or a
        // phrase after a comma, after a line of dialogue too ("“Ah,” says he, “you're a good
        // lad,” hoping with all his heart that…").
        let opening = p == 0 && !t.barrier;
        if !opening {
            let Some(prev) = p.checked_sub(1).map(|k| &s.tokens[k]) else {
                continue;
            };
            let gap = &ctx.prose.original[prev.end..t.start];
            let after_line = t.barrier && gap.trim_end().ends_with(',');
            if (t.barrier && !after_line) || !gap.contains([',', '—', '–', ';']) {
                continue;
            }
        }
        // "…, though cursing inwardly at the sight": a concession opens the phrase.
        let conceding = matches!(t.lower.as_str(), "though" | "although" | "while");
        let mut j = if conceding { p + 1 } else { p };
        let mut inner = false;
        let mut inwardly = false;
        while let Some(w) = s.tokens.get(j) {
            if is_in(INNER_ADVERBS, &w.lower) {
                inner = true;
                inwardly |= w.lower == "inwardly";
            } else if !is_in(DEGREE, &w.lower) && !manner_adverb(&w.lower) {
                break;
            }
            j += 1;
        }
        let Some(w) = s.tokens.get(j).filter(|w| j == p || w.plain_gap) else {
            continue;
        };
        // "…, cursing inwardly": the adverb after the participle puts it inside too.
        if s.tokens.get(j + 1).is_some_and(|n| n.plain_gap && n.lower == "inwardly") {
            inner = true;
            inwardly = true;
        }
        let next = what_the_feeling_is_about(ctx, s, j);
        let word = w.lower.as_str();
        // "…, meaning to learn from me whether": an intention.
        let participle = (is_in(MIND_PARTICIPLES, word) && next.is_some())
            || (word == "meaning" && next == Some("to"));
        // "…, delighted, for he had already guessed": the feeling with its reason.
        let reason_follows = s
            .tokens
            .get(j + 1)
            .is_some_and(|n| n.lower == "for" && ctx.prose.original[w.end..n.start].contains(','));
        // "…, nettled that", "…, annoyed at": a verb whose object feels, as a participle.
        // "…, secretly alarmed to find me up": any participle after an adverb of the inside.
        let felt = word.ends_with("ed")
            && ((is_in(EXPERIENCER, word) && matches!(next, Some("that" | "at")))
                || (inner && !is_in(INNER_ADVERBS, word)));
        // The broad lexicon of states (`inner.rs`) only with what the feeling is about: "…,
        // giddy with", "…, wistful for"; "alarmed by the cries" is a reaction anyone sees.
        let broad = inner::is_state(word, next)
            && matches!(
                next,
                Some("that" | "to" | "of" | "at" | "with" | "for" | "about" | "lest")
            );
        // "…, unsure whether to trust me", "…, curious what I would say".
        let doubting = matches!(
            word,
            "unsure" | "uncertain" | "doubtful" | "curious" | "undecided" | "anxious"
        ) && matches!(next, Some("whether" | "if" | "how" | "what" | "why"));
        let state = doubting
            || (is_in(STATES, word)
            || felt
            || broad
            || matches!(word, "angry" | "happy" | "sad" | "hurt"))
            && !is_in(INNER_ADVERBS, word)
            && (inner
                || reason_follows
                || matches!(
                    next,
                    Some("that" | "to" | "at" | "of" | "with" | "by" | "lest" | "for")
                )
                // "…, terrified the men would come back": a clause with its "that" left out,
                // after a word that is no verb ("upset the equipoise" is one).
                || (matches!(next, Some("the" | "he" | "she" | "they" | "i" | "we"))
                    && (word.ends_with("ed")
                        || matches!(
                            word,
                            "afraid" | "sure" | "certain" | "glad" | "sorry" | "aware" | "confident"
                        ))
                ));
        // "…, weary of nursing me": weariness of mind, as after "was"; "…, burning with a
        // resentment", "…, still smarting over the parcel", "…, lost in the memory".
        let weary = matches!(
            (word, next),
            ("weary" | "tired" | "sick", Some("of"))
                | ("sick", Some("with" | "at"))
                | ("burning" | "bursting" | "seething" | "aching", Some("with"))
                | ("smarting", Some("over" | "under" | "from" | "at"))
                | ("lost", Some("in"))
                | ("consumed", Some("by" | "with"))
                | ("torn", Some("between"))
        );
        // "…, inwardly laughing at how easily…": whatever is done inwardly is done inside.
        let inward_act = inwardly && (word.ends_with("ing") || word.ends_with("ed"));
        if !(participle || state || weary || inward_act || (inner && is_in(MIND_VERBS, word))) {
            continue;
        }
        // "…with a sly, knowing look": the word describes a look anyone can see.
        let describes_a_look = s.tokens.get(j + 1).is_some_and(|n| {
            matches!(
                n.lower.as_str(),
                "look" | "looks" | "smile" | "glance" | "air" | "expression" | "eye" | "eyes"
                    | "face" | "manner" | "tone" | "voice" | "grin" | "nod" | "wink" | "laugh"
            )
        });
        if appearance_before(s, p) || describes_a_look {
            continue;
        }
        // "…, fearing another collapse, he bade her good-bye": a phrase before a subject is
        // that subject's; otherwise the nearest subject of a main clause before it ("He had
        // felt happy that she was his, proud of her" is his pride, not hers).
        let fronted = phrase_end(ctx, s, j).and_then(|e| subjects.iter().find(|x| x.first == e));
        let main_clause = |x: &&Subject| {
            // "…the other Mercury who has brought her home, secretly afraid": the relative
            // pronoun is no main clause's subject.
            !matches!(s.tokens[x.first].lower.as_str(), "who" | "which" | "that")
                && (x.first == 0
                || !matches!(
                    s.tokens[x.first - 1].lower.as_str(),
                    "that"
                        | "who"
                        | "which"
                        | "because"
                        | "since"
                        | "if"
                        | "when"
                        | "while"
                        | "though"
                        | "although"
                        | "as"
                        | "for"
                        | "whom"
                        | "whose"
                        | "where"
                        | "unless"
                        | "until"
                        | "whether"
                ))
        };
        let subject = fronted
            .or_else(|| {
                subjects
                    .iter()
                    .rev()
                    .filter(main_clause)
                    .find(|x| x.last < p)
            })
            .copied();
        // The speaker of a tag ("said the other, secretly delighted") is not led in by the
        // tag's own verb of saying.
        let Some(subject) = subject.or_else(|| speaker_of_tag(ctx, s, p)) else {
            continue;
        };
        let tagged = subject.first.checked_sub(1).is_some_and(|k| {
            is_in(SPEECH_TAGS, &s.tokens[k].lower) && (k == 0 || s.tokens[k].barrier)
        });
        let referent = owner_of_mind(ctx, si, subject.first, subject.referent);
        if !referent.is_other() || (!tagged && led_in(ctx, s, subject.first)) {
            continue;
        }
        // "…, plainly relieved", "…, as if thinking": a reading word opening the phrase.
        let outward = (p.saturating_sub(1)..j).any(|k| {
            let x = s.tokens[k].lower.as_str();
            // "as though thinking" reads from outside; "though cursing inwardly" concedes.
            let bare_though = x == "though" && (k == 0 || s.tokens[k - 1].lower != "as");
            !bare_though && (is_in(OUTWARD, x) || is_in(GUESSES, x) || is_in(READING, x))
        });
        if !outward {
            out.push((subject.first.min(j), j.max(subject.first), referent));
        }
    }
    out
}

/// Verbs that tag a line of dialogue with its speaker put after them: "said the other",
/// "returned my companion".
#[rustfmt::skip]
const SPEECH_TAGS: &[&str] = &[
    "said", "says", "returned", "answered", "replied", "asked", "cried", "remarked", "added",
    "whispered", "muttered", "murmured", "exclaimed", "observed", "continued", "repeated",
    "rejoined", "retorted", "called", "shouted", "snapped", "sneered", "inquired", "enquired",
];

/// The speaker of a tag that follows a line of dialogue and ends at the comma before token
/// `comma_at` ("“Who’s not playing fair?” said the other, secretly delighted…"): the phrase
/// after the comma is the speaker's. A name the memory knows is that person, the narrator's
/// own name or "I" is the POV character, any other noun phrase is someone else.
fn speaker_of_tag(ctx: &Ctx<'_>, s: &Sentence, comma_at: usize) -> Option<Subject> {
    let tag = (comma_at.saturating_sub(5)..comma_at).find(|&k| {
        is_in(SPEECH_TAGS, &s.tokens[k].lower) && (k == 0 || s.tokens[k].barrier)
    })?;
    let first = tag + 1;
    if first >= comma_at
        || s.tokens[first..comma_at].iter().any(|t| t.barrier)
        || matches!(s.tokens[first].lower.as_str(), "he" | "she" | "it" | "they")
    {
        return None;
    }
    let last = comma_at - 1;
    let hit = ctx
        .hits(s)
        .into_iter()
        .find(|h| h.first >= first && h.last <= last);
    let referent = match hit {
        Some(h) if h.who == ctx.pov => Referent::Pov,
        Some(h) => Referent::Person(h.who),
        None if matches!(s.tokens[first].lower.as_str(), "i" | "we") => Referent::Pov,
        None => Referent::Someone,
    };
    Some(Subject {
        first,
        last,
        referent,
        agreement: Agreement::Third,
        first_person: false,
    })
}

/// The token after the comma that ends the phrase starting at token `from`, if a comma ends it.
fn phrase_end(ctx: &Ctx<'_>, s: &Sentence, from: usize) -> Option<usize> {
    (from + 1..s.tokens.len()).find_map(|k| {
        let gap = &ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start];
        if gap.contains([';', ':', '—', '–']) || s.tokens[k].barrier {
            return Some(None);
        }
        gap.contains(',').then_some(Some(k))
    })?
}

/// "in his mind", "Bram's thoughts", "her stomach dropped", "Ewan's heart was pounding".
fn possessed(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let hits = ctx.hits(s);
    for (i, t) in s.tokens.iter().enumerate() {
        let owner = if let Some(h) = hits.iter().find(|h| h.last == i && h.possessive) {
            if h.who == ctx.pov {
                continue;
            }
            (h.first, Referent::Person(h.who))
        } else if t.lower == "their" && ctx.input.pov == PointOfView::First {
            // "timid people, who hated me in their hearts": a first-person narrator is "our".
            (i, Referent::Someone)
        } else if matches!(t.lower.as_str(), "his" | "her") {
            let r = owner_of_mind(ctx, si, i, ctx.resolve(si, i, &t.lower));
            if !r.is_other() {
                continue;
            }
            (i, r)
        } else {
            continue;
        };
        let mut noun_at = i + 1;
        let Some(mut noun) = s.tokens.get(noun_at).filter(|n| n.plain_gap) else {
            continue;
        };
        let before = owner.0.checked_sub(1).map(|p| s.tokens[p].lower.as_str());
        // "in his black heart", "in his slow head": a word or two of description between.
        if matches!(before, Some("in" | "within" | "into"))
            && let Some(seat) = (i + 1..(i + 4).min(s.tokens.len()))
                .take_while(|&k| s.tokens[k].plain_gap)
                .find(|&k| matches!(s.tokens[k].lower.as_str(), "heart" | "head" | "soul" | "mind"))
        {
            noun_at = seat;
            noun = &s.tokens[seat];
        }
        // "though in his heart he never forgave me": no reading reaches into a heart.
        // "struck a chill into his heart", "laughing in his sleeve at the ease".
        let in_heart = (matches!(before, Some("in" | "within" | "into"))
            && matches!(noun.lower.as_str(), "heart" | "soul" | "hearts" | "souls")
            || matches!(before, Some("in" | "up"))
                && noun.lower == "sleeve"
                && owner.0 >= 2
                && s.tokens[owner.0 - 2].lower.starts_with("laugh"))
            && !perceived_before(ctx, s, owner.0);
        if in_heart {
            out.push((owner.0, noun_at, owner.1));
            continue;
        }
        if led_in(ctx, s, owner.0) {
            continue;
        }
        // "a man who has made up his mind": a decision seen in what he does.
        // "in his mind", "his thoughts raced": inside; "break in upon his thoughts", "made up
        // his mind": the thoughts named from outside, their content not told.
        let inside = matches!(
            before,
            Some(
                "in" | "into" | "inside" | "within" | "through" | "flooded" | "floods" | "filled"
                    | "fills" | "crossed" | "crosses" | "haunted" | "haunts" | "occupied"
                    | "occupies" | "clouded" | "clouds"
            )
        ) || super::people::verb_follows(s, i + 1);
        if (is_in(MIND_NOUNS, &noun.lower) && inside)
            || (matches!(noun.lower.as_str(), "head" | "heart" | "soul")
                && matches!(before, Some("in" | "inside" | "within")))
        {
            out.push((owner.0, i + 1, owner.1));
            continue;
        }
        if before == Some("to") && is_in(REACTION_NOUNS, &noun.lower) {
            out.push((owner.0 - 1, i + 1, owner.1));
            continue;
        }
        if is_in(ORGANS, &noun.lower) {
            let mut j = i + 2;
            // "her heart is already beating with the dread": the time word is no verb.
            while s.tokens.get(j).is_some_and(|t| {
                matches!(t.lower.as_str(), "was" | "had" | "is" | "already" | "still")
            }) {
                j += 1;
            }
            // "his heart begins to thump": whatever it then does, it does inside him.
            let begins = s.tokens.get(j).is_some_and(|t| {
                matches!(t.lower.as_str(), "begins" | "began" | "starts" | "started")
            }) && s.tokens.get(j + 1).is_some_and(|t| t.lower == "to");
            if begins && s.tokens.get(j + 2).is_some_and(|t| t.plain_gap) {
                out.push((owner.0, j + 2, owner.1));
                continue;
            }
            if s.tokens
                .get(j)
                .is_some_and(|t| t.plain_gap && is_in(ORGAN_VERBS, &t.lower))
            {
                out.push((owner.0, j, owner.1));
            }
        }
    }
    out
}

/// "Nothing frightened him more than the crossing": the object is the one who feels.
fn experienced(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let hits = ctx.hits(s);
    for (i, t) in s.tokens.iter().enumerate() {
        let flowing = is_in(FLOWS, &t.lower);
        if !(is_in(EXPERIENCER, &t.lower) || flowing) || led_in(ctx, s, i) {
            continue;
        }
        if flowing && !feeling_before(s, i) {
            continue;
        }
        // "was frightened" is a state of the subject, read by `stated_mind`.
        if i > 0
            && matches!(
                s.tokens[i - 1].lower.as_str(),
                "was" | "were" | "been" | "is"
            )
        {
            continue;
        }
        // "Fear gripped him", "grief filled her": only feelings do that from inside.
        let inner_only = matches!(
            t.lower.as_str(),
            "gripped" | "seized" | "filled" | "consumed" | "overwhelmed" | "flooded"
        );
        if inner_only && !feeling_before(s, i) {
            continue;
        }
        // "Relief washed over Jo", "a chill of dread crept through him": the person comes
        // after "over" or "through"; a feeling that "ran" anywhere else is not theirs.
        let at = if flowing {
            let over = s
                .tokens
                .get(i + 1)
                .is_some_and(|n| n.plain_gap && matches!(n.lower.as_str(), "over" | "through"));
            if !over {
                continue;
            }
            i + 2
        } else {
            i + 1
        };
        let Some(object) = s.tokens.get(at).filter(|o| o.plain_gap) else {
            continue;
        };
        let who = if let Some(h) = hits.iter().find(|h| h.first == at && !h.possessive) {
            if h.who == ctx.pov {
                continue;
            }
            Referent::Person(h.who)
        } else if matches!(object.lower.as_str(), "him" | "her") {
            ctx.resolve(si, at, &object.lower)
        } else {
            continue;
        };
        if who.is_other() {
            out.push((i, at, who));
        }
    }
    out
}

/// Verbs a feeling moves by, "over" or "through" someone: "relief washed over him".
#[rustfmt::skip]
const FLOWS: &[&str] = &[
    "washed", "washes", "swept", "sweeps", "surged", "surges", "crept", "creeps", "flooded",
    "floods", "coursed", "courses", "stole", "steals", "rippled", "ripples", "shot", "shoots",
    "ran", "runs", "spread", "spreads", "welled", "wells", "rushed", "rushes",
];

#[rustfmt::skip]
const EMOTIONS: &[&str] = &[
    "fear", "shame", "anger", "guilt", "relief", "dread", "panic", "grief", "joy", "hope",
    "doubt", "rage", "envy", "jealousy", "longing", "sorrow", "despair", "terror", "horror",
    "embarrassment", "regret", "hatred", "loneliness", "pride", "resentment", "fury",
    "excitement", "unease", "anxiety", "sadness", "misery", "love", "tenderness", "pity",
];

/// A feeling is the subject before token `i`: "fear gripped him", "a wave of shame went".
fn feeling_before(s: &Sentence, i: usize) -> bool {
    s.tokens[i.saturating_sub(4)..i]
        .iter()
        .any(|t| is_in(EMOTIONS, &t.lower))
}

/// "He feels a glow of pride in her", "she took no pleasure in him": the feeling is the
/// subject's, and "in her" says what it is about.
fn held_by_subject(s: &Sentence, i: usize) -> bool {
    s.tokens[i.saturating_sub(4)..i].iter().any(|t| {
        matches!(
            t.lower.as_str(),
            "feel" | "feels" | "felt" | "feeling" | "take" | "takes" | "took" | "taking"
        )
    })
}

/// "A wave of shame went through him", "fear rose in her": a feeling moving inside someone.
fn feeling_inside(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    for (i, t) in s.tokens.iter().enumerate() {
        if !is_in(EMOTIONS, &t.lower) || led_in(ctx, s, i) || held_by_subject(s, i) {
            continue;
        }
        let window = (i + 1..(i + 6).min(s.tokens.len())).take_while(|&j| s.tokens[j].plain_gap);
        let hits = ctx.hits(s);
        for j in window {
            let w = s.tokens[j].lower.as_str();
            // "guilt gnawed at Bram": "at" only after a verb of gnawing, since "anger at
            // Bram" is someone else's anger.
            let gnawing = w == "at"
                && matches!(
                    s.tokens[j - 1].lower.as_str(),
                    "gnawed" | "gnaws" | "gnawing" | "nagged" | "nags" | "tugged" | "tugs"
                        | "clawed" | "claws" | "ate" | "eats" | "pricked" | "pricks"
                );
            let into = gnawing || matches!(w, "through" | "over" | "in" | "into" | "inside" | "within");
            let Some(object) = s.tokens.get(j + 1).filter(|o| o.plain_gap) else {
                continue;
            };
            if !into {
                continue;
            }
            if matches!(object.lower.as_str(), "him" | "her") {
                let who = ctx.resolve(si, j + 1, &object.lower);
                if who.is_other() {
                    out.push((i, j + 1, who));
                }
            } else if let Some(h) = hits.iter().find(|h| h.first == j + 1 && h.who != ctx.pov) {
                // "Shame burned in Bram's cheeks", "Relief flooded through Maud".
                out.push((i, h.last, Referent::Person(h.who)));
            }
        }
    }
    out
}

/// A reading by the POV character after the statement in the same sentence: "…, she
/// guessed", "…; Tamsin remembered him crying", "…, I think", "and she said so".
fn read_by_pov(ctx: &Ctx<'_>, si: usize, from: usize) -> bool {
    let s = &ctx.prose.sentences[si];
    // "wondering how much I knew": the POV character inside what someone wonders is no
    // reading of theirs.
    let content = |i: usize| {
        s.tokens[i.saturating_sub(3)..i].iter().any(|t| {
            matches!(t.lower.as_str(), "how" | "what" | "whether" | "why" | "where" | "if")
        })
    };
    let subjects = ctx.subjects(si);
    // "…, and she knew that he was speaking to her": what she knows is another thing.
    let new_content = |v: usize| {
        s.tokens.get(v + 1).is_some_and(|t| t.lower == "that") && s.tokens.len() > v + 4
    };
    let pov_reads = subjects.iter().any(|x| {
        x.first > from
            && x.referent == Referent::Pov
            && pov_cue(s, x.last + 1)
            && !content(x.first)
            && !new_content(x.last + 1)
    });
    // "…, and she said so"; not "though she would never have said so".
    let said_so = s.tokens.windows(2).enumerate().skip(from).any(|(k, w)| {
        let denied = s.tokens[k.saturating_sub(3)..k]
            .iter()
            .any(|t| matches!(t.lower.as_str(), "never" | "not") || t.lower.ends_with("n't"));
        !denied
            && matches!(
                (w[0].lower.as_str(), w[1].lower.as_str()),
                ("said", "so") | ("said", "as") | ("admitted", "it") | ("admitted", "as")
            )
    });
    // "He was anxious about the boat, no doubt;": the statement marked as a guess after it.
    let marked = s.tokens.windows(2).skip(from).any(|w| {
        matches!((w[0].lower.as_str(), w[1].lower.as_str()), ("no", "doubt"))
    }) || s.tokens[from.min(s.tokens.len())..].iter().any(|t| t.lower == "doubtless");
    let first_person_reads = ctx.input.pov == PointOfView::First
        && (from..s.tokens.len())
            .any(|i| ctx.prose.word(&s.tokens[i]) == "I" && pov_cue(s, i + 1) && !content(i));
    pov_reads || said_so || marked || first_person_reads
}

/// The sentence before read the same person from outside ("His jaw was set; he was angry,
/// she guessed. He had been worried since Tuesday."), or the sentence after gives the POV
/// character's evidence ("He was frightened. I could see it in his hands.").
fn reading_around(ctx: &Ctx<'_>, si: usize, who: Referent) -> bool {
    let narrated = |k: &usize| !ctx.prose.sentences[*k].tokens.is_empty();
    let previous = (0..si).rev().find(narrated);
    let next = (si + 1..ctx.prose.sentences.len()).find(narrated);
    let reads = |k: usize| {
        let tokens = &ctx.prose.sentences[k].tokens;
        tokens.iter().enumerate().any(|(i, t)| {
            let next = tokens.get(i + 1).map(|n| n.lower.as_str());
            // "looks away" is an action; "looks tired", "looked as if" a reading.
            is_in(READING, &t.lower) && !is_action(&t.lower, next)
        })
    };
    let mentions = |k: usize| {
        ctx.subjects(k)
            .iter()
            .any(|x| x.referent == who || (who == Referent::Someone && x.referent.is_other()))
            || ctx
                .hits(&ctx.prose.sentences[k])
                .iter()
                .any(|h| Referent::Person(h.who) == who)
    };
    let before = previous.is_some_and(|k| reads(k) && mentions(k));
    let after = next.is_some_and(|k| {
        let s = &ctx.prose.sentences[k];
        ctx.subjects(k).first().is_some_and(|x| {
            x.first == 0
                && x.referent == Referent::Pov
                && s.tokens[1..]
                    .iter()
                    .take(3)
                    .any(|t| matches!(t.lower.as_str(), "could" | "saw" | "see" | "tell" | "knew"))
        })
    });
    before || after
}

fn mind_finding(
    ctx: &Ctx<'_>,
    s: &Sentence,
    first: usize,
    end: usize,
    who: Referent,
    severity: Severity,
) -> Finding {
    let from = s.tokens[first].start;
    let to = s.tokens[end].end;
    let phrase = &ctx.prose.original[from..to];
    let excerpt = ctx.prose.excerpt(s, from);
    let pov = ctx.pov_name();
    let first_word = ctx.prose.word(&s.tokens[first]);
    let (name, record) = match who {
        Referent::Person(w) => (ctx.name(w).to_string(), ctx.people[w].id.clone()),
        _ if super::people::unknown_name(ctx, s, first) => (first_word.to_string(), String::new()),
        _ => ("another character".to_string(), String::new()),
    };
    let seen = if name == "another character" {
        "the other character".to_string()
    } else {
        name.clone()
    };
    Finding::new(
        Check::OtherMind,
        severity,
        format!(
            "The narration states {name}'s inner life as fact (“{phrase}”), but the scene is \
             in {pov}'s point of view and {pov} cannot see into {name}'s mind. In: \
             “{excerpt}”. Show it through what {pov} can observe ({seen}'s face, gestures, \
             words), or make it {pov}'s own guess (\"{seen} seemed to…\", \"{pov} guessed…\")."
        ),
        Some(excerpt),
    )
    .at(&ctx.prose, s, from, to)
    .about(&record)
}

/// "In her heart she is already half glad", "yet under all his smiles he was cursing",
/// "At heart he was": a phrase just before the subject, in its own clause, that puts what the
/// subject does inside them.
fn opened_within(s: &Sentence, subject_first: usize) -> bool {
    // The clause starts after "yet" or "but" ("; yet under all his smiles"), else at the
    // first word after punctuation.
    let joins = |k: usize| matches!(s.tokens[k].lower.as_str(), "yet" | "but");
    let start = (0..subject_first)
        .rev()
        .find(|&k| s.tokens[k].barrier || joins(k))
        .map_or(0, |k| if joins(k) { k + 1 } else { k });
    let words: Vec<&str> = s.tokens[start..subject_first]
        .iter()
        .map(|t| t.lower.as_str())
        .collect();
    let own = |w: &str| matches!(w, "his" | "her" | "their" | "that" | "this");
    let cover = |w: &str| {
        matches!(
            w,
            "smile" | "smiles" | "calm" | "stillness" | "composure" | "face" | "mask" | "manner"
                | "politeness" | "courtesy" | "cheerfulness" | "friendliness" | "silence"
        )
    };
    match words.as_slice() {
        ["at", "heart"] | ["deep", "down"] => true,
        ["in", o, "heart" | "hearts"] | ["in", o, "secret" | "own", "heart" | "hearts"] => own(o),
        ["in", o, "head" | "mind"] => own(o),
        ["under" | "behind" | "beneath", rest @ ..] if !rest.is_empty() && rest.len() <= 4 => {
            rest.iter().any(|w| own(w)) && rest.last().is_some_and(|w| cover(w))
        }
        _ => false,
    }
}
