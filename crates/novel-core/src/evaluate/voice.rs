//! Voice checks, sentence by sentence so that one slip is found in a two-sentence passage as in
//! a long scene. Tense drift: past narration with an event in the present ("she pushes the door
//! open", "the guard takes one look"), or present narration with an event in the past. Not
//! drift: dialogue, tagged thought ("He's lying, she thought."), questions, timeless or
//! habitual statements ("the harbour is beautiful at night", "she never forgets a debt"),
//! what someone said or knew ("he told her the ferry leaves at six"), backstory in a
//! present-tense novel ("Years ago, my father taught me…" and the sentences that follow it),
//! and a first-person present narrator's recollection: their past is drift only when tied to
//! now ("I was forty years old now") or carrying on present action with nothing to set it
//! earlier ("I push through the crowd. Lena waved at me").
//! Person drift: "I", "me", "my" in deep-third narration (not in a tagged thought, a quoted
//! note or an inscription), and a first-person narrator called by name or by "she"/"he".

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::lexicon::{is_action, is_in, is_past};
use super::people::{Agreement, Referent, verb_chain};
use super::text::{Sentence, Token, opens_after};
use super::verbs::{is_ing, is_known_base, is_noun_like, is_state, past_base, present_third_base};
use crate::config::{PointOfView, Tense};

/// Present states alone in this many narration sentences, and in a fifth of them, are drift
/// too ("She is tired. He is late. The lamp is out."); fewer are free indirect thought.
const MIN_STATE_SENTENCES: usize = 3;
const MIN_STATE_SHARE_PERCENT: usize = 20;

/// Verbs of perceiving that "could" puts in the scene's moment ("he could see", "she could
/// hear"), not in a condition.
const PERCEIVING: &[&str] = &["see", "hear", "smell", "feel", "make", "taste"];

/// Past forms that are never participles ("came", not "come"): after "has" or "is" they are
/// still the past, where "has disengaged himself and retired" is a participle.
#[rustfmt::skip]
const PAST_ONLY: &[&str] = &[
    "was", "were", "came", "went", "saw", "took", "rose", "fell", "began", "drew", "grew",
    "threw", "spoke", "wrote", "broke", "chose", "froze", "drove", "rode", "ate", "drank",
    "blew", "flew", "knew", "gave", "ran", "sang", "sank", "swam", "rang", "shook", "stole",
    "woke", "tore", "wore", "hid", "forgot", "sprang", "withdrew", "did",
];

/// Words that set a sentence in the past of a present-tense story.
#[rustfmt::skip]
const BACKSTORY: &[&str] = &[
    "ago", "once", "years", "yesterday", "childhood", "girl", "boy", "child", "younger",
    "earlier", "remembered", "formerly", "last", "before", "used", "had", "remember",
    "remembers", "morning", "night", "week", "month", "year", "winter", "summer", "spring",
    "autumn",
];

/// Verbs that tag unquoted thought or speech: "I can't, she thought." / "I'm fine, he said."
#[rustfmt::skip]
const THOUGHT_TAGS: &[&str] = &[
    "thought", "wondered", "thinks", "wonders", "told", "tells", "reminded", "reminds",
    "promised", "promises", "said", "says", "asked", "asks", "whispered", "whispers",
    "murmured", "murmurs", "muttered", "mutters", "wrote", "writes",
];

/// Words after which a present verb reports what is so, said or known: "Bram told her that
/// the ferry leaves at six", "everyone said she never forgets".
#[rustfmt::skip]
const REPORTED: &[&str] = &[
    "that", "how", "what", "whether", "why", "if", "who", "whom", "which", "where", "said",
    "says", "say", "told", "knew", "thought", "believed", "heard", "promised", "swore", "claimed",
    "figured", "realized", "realised", "guessed", "learned", "learnt", "read", "wrote",
    "remembered", "meant", "explained", "insisted", "warned", "believe", "suppose", "think",
    "fancy", "daresay", "doubt",
];

/// What a first-person narrator says of the telling itself, in the present of a past-tense
/// story: "I take it", "as I say", "I confess", "I must own", "I write this at the same desk".
#[rustfmt::skip]
const TELLING: &[&str] = &[
    "take", "think", "believe", "say", "confess", "remember", "fear", "know", "suppose",
    "fancy", "hope", "trust", "own", "must", "am", "have", "do", "admit", "grant", "presume",
    "dare", "regret", "recall", "imagine", "doubt", "see", "mean", "tell", "repeat", "can",
    "cannot", "shall", "will", "wish", "need", "should", "may", "might", "find", "feel",
    "write",
];

/// Habit and timelessness: "she always walks the gallery", "the market never closes".
#[rustfmt::skip]
const HABITUAL: &[&str] = &[
    "always", "never", "usually", "often", "sometimes", "rarely", "seldom", "ever", "every",
    "generally", "forever",
];

/// Words that may open a noun phrase that is the subject of a clause.
#[rustfmt::skip]
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "his", "her", "its", "their", "my", "our", "your", "this", "that",
    "these", "those", "each", "every",
];

/// Words a verb is commonly followed by (objects, particles, prepositions): what tells "the
/// guard hands her the key" from "her hands shook".
#[rustfmt::skip]
const VERB_NEXT: &[&str] = &[
    "the", "a", "an", "his", "her", "its", "their", "my", "our", "your", "him", "them", "me",
    "us", "it", "this", "that", "these", "those", "no", "nothing", "something", "everything",
    "up", "down", "out", "off", "on", "in", "into", "onto", "over", "back", "away", "to",
    "toward", "towards", "at", "through", "across", "around", "round", "along", "past", "from",
    "with", "for", "behind", "inside", "outside", "open", "shut", "aside", "forward", "again",
    "one", "two", "three", "both", "each", "every", "some", "all", "herself", "himself",
    "itself", "themselves", "myself", "there", "here", "now", "still",
];

/// Verbs of becoming, which take an adjective after them ("grows stronger", "falls silent").
const BECOMING: &[&str] = &["grow", "turn", "fall", "become", "go", "get"];

/// Evidence of one tense in a sentence.
#[derive(Clone, Copy)]
struct Verb {
    start: usize,
    end: usize,
    /// An event ("walks", "is walking"), not a state ("is", "knows").
    event: bool,
    /// Its token.
    at: usize,
}

#[derive(Default)]
struct Tenses {
    present: Vec<Verb>,
    past: Vec<Verb>,
}

fn tok_span(s: &Sentence, from: usize, to: usize) -> (usize, usize) {
    (s.tokens[from].start, s.tokens[to].end)
}

/// Whether nothing but the end of the clause follows token `i`.
fn clause_ends_after(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let end = s.tokens.get(i + 1).map_or(s.end, |t| t.start);
    s.tokens.get(i + 1).is_none_or(|t| t.barrier)
        || ctx.prose.original[s.tokens[i].end..end]
            .contains([',', '.', ';', ':', '!', '?', '—', '–'])
}

fn followed_like_a_verb(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    clause_ends_after(ctx, s, i)
        || s.tokens
            .get(i + 1)
            .is_some_and(|n| n.lower.ends_with("ly") || VERB_NEXT.contains(&n.lower.as_str()))
}

/// "hands her the key", "waves the boat in": a word that is usually a noun reads as a verb
/// only before an object.
fn takes_object(s: &Sentence, i: usize) -> bool {
    s.tokens.get(i + 1).is_some_and(|n| {
        n.plain_gap
            && matches!(
                n.lower.as_str(),
                "the"
                    | "a"
                    | "an"
                    | "his"
                    | "her"
                    | "its"
                    | "their"
                    | "my"
                    | "our"
                    | "your"
                    | "him"
                    | "them"
                    | "me"
                    | "us"
                    | "it"
                    | "this"
                    | "that"
                    | "these"
                    | "those"
            )
    })
}

fn tenses(ctx: &Ctx<'_>, si: usize) -> Tenses {
    let s = &ctx.prose.sentences[si];
    let mut found = Tenses::default();
    let mut verb_at: Vec<usize> = Vec::new();
    for t in s.tokens.iter().filter(|t| {
        matches!(
            t.lower.as_str(),
            "she's" | "he's" | "i'm" | "we're" | "they're"
        )
    }) {
        let at = s
            .tokens
            .iter()
            .position(|x| std::ptr::eq(x, t))
            .unwrap_or(0);
        found.present.push(Verb {
            start: t.start,
            end: t.end,
            event: false,
            at,
        });
    }
    for subject in ctx.subjects(si) {
        // "…into the dark mutinous Shannon waves.": a name after an article, with the word
        // after it ending the sentence, is a noun's modifier ("With a cry John seizes the
        // branch" has its object).
        let ends_after = subject.last + 2 == s.tokens.len();
        let capital = ctx.prose.word(&s.tokens[subject.first]).starts_with(char::is_uppercase)
            && pronoun_free(&s.tokens[subject.first].lower);
        let modifier = ends_after && capital && (1..=3).any(|k| {
            subject.first >= k
                && matches!(s.tokens[subject.first - k].lower.as_str(), "the" | "a" | "an")
                && s.tokens[subject.first - k + 1..subject.first]
                    .iter()
                    .all(|t| t.plain_gap && !matches!(t.lower.as_str(), "and" | "or" | "but"))
        });
        if modifier {
            continue;
        }
        let chain = super::people::subject_verbs(ctx, s, subject.last);
        let Some(&v) = chain.first() else { continue };
        let word = s.tokens[v].lower.as_str();
        let next = chain.get(1).map(|&i| s.tokens[i].lower.as_str());
        let (start, end) = tok_span(s, subject.first, v);
        // "She can hear Brannock on the stairs now": a present modal with its verb.
        // Said of someone else ("we cannot give ourselves" is a maxim as often as a scene).
        let modal = subject.agreement == Agreement::Third
            && matches!(word, "can" | "cannot" | "can't")
            && next.is_some_and(is_known_base);
        // "He crams his cap back": straight after "he" or "she", a word in -s is a verb
        // whether or not the list of verbs knows it.
        // Not in the first person, where "In his eyes she eclipses the whole of her sex" is
        // the narrator's present commentary.
        let named = matches!(subject.referent, Referent::Person(_)) && takes_object(s, v);
        let after_pronoun = ctx.input.pov != PointOfView::First
            && ((subject.first == subject.last
                && matches!(s.tokens[subject.first].lower.as_str(), "he" | "she"))
                || named)
            && v == subject.last + 1
            && unlisted_third_person_verb(word);
        let present = modal
            || after_pronoun
            || match subject.agreement {
                Agreement::Third => present_third_base(word).is_some(),
                Agreement::Plain => matches!(word, "am" | "are" | "have" | "do") || is_known_base(word),
            };
        // "He was, I take it, the most perfect…", "I am not going to relate that voyage":
        // a first-person narrator speaks from the time of telling, in the present.
        // "I take it" tells; "Holmes and I take a bedroom" does.
        let taking = word == "take" && s.tokens.get(v + 1).is_none_or(|n| n.lower != "it");
        // "I am lying all this while in the barrel" is the scene; "I am writing these lines",
        // "I am going to tell" is the telling.
        let doing_now = matches!(word, "am" | "are")
            && next.is_some_and(|n| {
                is_ing(n)
                    && !matches!(
                        n,
                        "writing" | "telling" | "thinking" | "speaking" | "going" | "trying"
                            | "sitting" | "relating" | "recording" | "setting" | "putting"
                            | "looking" | "coming" | "getting" | "glad"
                    )
            });
        let telling = subject.first_person
            && ctx.input.pov == PointOfView::First
            && ctx.input.tense == Tense::Past
            && !taking
            && !doing_now
            && (is_in(TELLING, word) || is_state(word));
        if present && telling {
            continue;
        }
        if present {
            // "He has jumped up from his chair": a perfect of an event is an event.
            let perfect = matches!(word, "has" | "have")
                && next.is_some_and(|n| past_base(n).is_some() && !is_state(n));
            let progressive = perfect || matches!(word, "is" | "are" | "am") && next.is_some_and(is_ing);
            let looks_at = is_action(word, s.tokens.get(v + 1).map(|t| t.lower.as_str()));
            // "She can hear a street organ": the scene's moment, in the present.
            let can_do = modal && next.is_some_and(|n| n != "be");
            found.present.push(Verb {
                start,
                end,
                event: progressive || looks_at || can_do || !is_state(word),
                at: v,
            });
            verb_at.push(v);
        } else if (is_past(word)
            // "Mr. Bucket let down the window": after "he", or a name opening the sentence,
            // "let" and "put" can only be the past ("lets", "puts" are the present); "between
            // Mr. Bucket shut up in his carriage and…" is a participle.
            || (subject.agreement == Agreement::Third
                && (subject.first == 0
                    || matches!(s.tokens[subject.first].lower.as_str(), "he" | "she" | "it"))
                && super::verbs::is_same_in_past(word))
            // "He could see at once": a past modal of perceiving is the scene's moment.
            || (word == "could" && next.is_some_and(|n| PERCEIVING.contains(&n))))
            && !(word == "used" && next == Some("to"))
        {
            let progressive = matches!(word, "was" | "were") && next.is_some_and(is_ing);
            // "My Lady did not look at the girl again": a deed, denied.
            // "did not so much as turn her head": past the words that only deny.
            let denied_deed = || {
                let mut m = v + 1;
                while s.tokens.get(m).is_some_and(|t| {
                    matches!(t.lower.as_str(), "not" | "so" | "much" | "as" | "even" | "once" | "ever")
                }) {
                    m += 1;
                }
                s.tokens.get(m).is_some_and(|t| {
                    let after = s.tokens.get(m + 1).map(|t| t.lower.as_str());
                    m > v + 1
                        && is_known_base(&t.lower)
                        && (!is_state(&t.lower) || is_action(&t.lower, after))
                })
            };
            let deed = matches!(word, "did" | "didn't")
                && (chain.last().is_some_and(|&m| {
                    let base = s.tokens[m].lower.as_str();
                    let after = s.tokens.get(m + 1).map(|t| t.lower.as_str());
                    m != v && is_known_base(base) && (!is_state(base) || is_action(base, after))
                }) || denied_deed());
            found.past.push(Verb {
                start,
                end,
                event: progressive || deed || !matches!(word, "was" | "were" | "had" | "did"),
                at: v,
            });
            verb_at.push(v);
        }
    }
    noun_phrase_verbs(ctx, s, &mut found, &mut verb_at);
    progressive_or_perfect(s, &mut found, &mut verb_at);
    inverted_verbs(ctx, s, &mut found, &mut verb_at);
    coordinated_verbs(ctx, s, &mut found, &verb_at);
    next_there_is(s, &mut found);
    found
}

/// "Then there is a loud tap": "there is" after a word that moves the scene on is the next
/// thing that happens, not a state.
fn next_there_is(s: &Sentence, found: &mut Tenses) {
    let words: Vec<&str> = s.tokens.iter().take(4).map(|t| t.lower.as_str()).collect();
    let [first, "there", be, article, ..] = words[..] else {
        return;
    };
    if !matches!(first, "then" | "suddenly" | "presently")
        || !matches!(be, "is" | "are")
        || !matches!(article, "a" | "an" | "the")
        || !s.tokens[1..4].iter().all(|t| t.plain_gap)
    {
        return;
    }
    if let Some(v) = found.present.iter_mut().find(|v| v.at == 2) {
        v.event = true;
    } else {
        found.present.push(Verb {
            start: s.tokens[1].start,
            end: s.tokens[2].end,
            event: true,
            at: 2,
        });
    }
}

/// A word in "-s" after "he" or "she" that is not an adverb, a pronoun or an auxiliary the
/// rules above read: "crams", "re-enters", "scribbles".
fn unlisted_third_person_verb(word: &str) -> bool {
    word.len() > 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("ous")
        && !word.contains('\'')
        && word.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !matches!(
            word,
            "always" | "perhaps" | "sometimes" | "afterwards" | "besides" | "nevertheless"
                | "hers" | "thus" | "towards" | "backwards" | "forwards" | "upwards"
                | "downwards" | "nowadays" | "whereas" | "unless" | "yours" | "ours" | "theirs"
                | "sideways" | "outwards" | "inwards" | "homewards"
        )
}

/// Verbs English puts before their subject after "there" or a fronted place or time: "there
/// passes a goods train", "Then, from the ventilator, comes a low whistle", "Down the long
/// passage came a footstep".
#[rustfmt::skip]
const INVERTING: &[&str] = &[
    "come", "go", "pass", "appear", "stand", "rise", "sound", "run", "hang", "lie", "sit",
    "follow", "emerge", "loom", "float", "drift", "ride", "walk", "step", "fall", "flash",
    "shine", "blow", "roll", "ring", "break", "stride", "stalk", "burst", "rush", "march",
    "stump", "limp", "stagger", "crawl", "creep", "dash", "sweep", "sail", "gallop", "hobble",
    "tumble", "fly", "swing", "stream", "pour",
];

/// An inverted verb of coming and being there, before its subject ("a", "an", "the",
/// "some" or a number after it): present or past, by its form.
fn inverted_verbs(ctx: &Ctx<'_>, s: &Sentence, found: &mut Tenses, verb_at: &mut Vec<usize>) {
    for (i, t) in s.tokens.iter().enumerate() {
        if i == 0 || verb_at.contains(&i) || t.barrier {
            continue;
        }
        let w = t.lower.as_str();
        let after_there = s.tokens[i - 1].lower == "there" && s.tokens[i - 1].plain_gap;
        let gap = &ctx.prose.original[s.tokens[i - 1].end..t.start];
        // After a fronted phrase closed by a comma, or a fronted place ("Down the long passage
        // came"), with the subject's article after the verb.
        let fronted = gap.contains(',')
            || (i >= 2
                && matches!(
                    s.tokens[0].lower.as_str(),
                    "down" | "up" | "out" | "in" | "into" | "from" | "through" | "across" | "over"
                        | "along" | "around" | "round" | "behind" | "beyond" | "overhead"
                        | "then" | "now" | "suddenly" | "on" | "upon" | "beside" | "under"
                        | "against" | "above" | "below"
                ))
            // "At last in strides the captain": a particle of motion just before the verb.
            || (i >= 2
                && s.tokens[i - 1].plain_gap
                && matches!(
                    s.tokens[i - 1].lower.as_str(),
                    "in" | "out" | "up" | "down" | "off" | "back" | "away"
                ));
        let subject_after = s.tokens.get(i + 1).is_some_and(|n| {
            n.plain_gap
                && matches!(
                    n.lower.as_str(),
                    "a" | "an" | "the" | "some" | "two" | "three" | "four" | "several" | "slowly"
                        | "softly" | "suddenly"
                )
        });
        // The verbs of coming are known here even where the general list of verbs lacks them.
        let present = present_third_base(w)
            .or_else(|| w.strip_suffix('s').map(str::to_string))
            .filter(|b| INVERTING.contains(&b.as_str()));
        // "there passes, slowly, a goods train": after "there" the inverted verb needs no
        // article right after it.
        let there_passes = after_there && present.is_some();
        if !(after_there || fronted) || !(subject_after || there_passes) {
            continue;
        }
        let plural_present = after_there && INVERTING.contains(&w);
        let past = past_base(w).filter(|b| INVERTING.contains(&b.as_str()));
        let verb = Verb {
            start: t.start,
            end: t.end,
            event: true,
            at: i,
        };
        if present.is_some() || plural_present {
            found.present.push(verb);
        } else if past.is_some() && !after_there {
            found.past.push(verb);
        } else {
            continue;
        }
        verb_at.push(i);
    }
}

/// Whether "is" or "are" at token `i` follows "who" or "which" and goes on to an action in
/// "-ing" ("who is fumbling", "which is still smoking"), not a way of life a narrator may
/// tell from the time of telling ("who is living in Sussex", "who is now working").
fn relative_in_progress(s: &Sentence, i: usize) -> bool {
    let relative = i > 0
        && s.tokens[i].plain_gap
        && matches!(s.tokens[i - 1].lower.as_str(), "who" | "which");
    if !relative {
        return false;
    }
    let mut j = i + 1;
    while s.tokens.get(j).is_some_and(|n| {
        n.plain_gap && matches!(n.lower.as_str(), "still" | "already" | "just" | "all")
    }) {
        j += 1;
    }
    s.tokens.get(j).is_some_and(|n| {
        n.plain_gap
            && is_ing(&n.lower)
            && !matches!(
                n.lower.as_str(),
                "living" | "residing" | "working" | "staying" | "serving" | "practising"
                    | "practicing" | "studying" | "growing" | "getting" | "going" | "coming"
                    | "beginning" | "becoming" | "trying" | "hoping" | "thinking" | "wondering"
            )
    })
}

/// Past participles unlike the past: "has begun", "have gone".
#[rustfmt::skip]
const PARTICIPLES: &[&str] = &[
    "begun", "gone", "done", "seen", "taken", "given", "written", "fallen", "risen", "run",
    "come", "become", "shown", "thrown", "drawn", "grown", "broken", "spoken", "stolen",
    "chosen", "driven", "ridden", "eaten", "forgotten", "hidden", "torn", "sworn", "sung",
    "sunk", "drunk", "flown", "shaken", "woken", "struck", "sprung",
];

/// Not a personal pronoun ("I", "He" are capitalised subjects of their own).
fn pronoun_free(word: &str) -> bool {
    !matches!(word, "i" | "he" | "she" | "we" | "they" | "it" | "you")
}

/// A present progressive or perfect after any subject, plural and joined ones too: "Aunt
/// Kate and Mary Jane are still arguing", "the pirates are crashing through the wood",
/// "Silver and Tom have been arguing", "The baby has begun to cry again". The auxiliary with
/// its participle says the tense whoever the subject is.
fn progressive_or_perfect(s: &Sentence, found: &mut Tenses, verb_at: &mut Vec<usize>) {
    for (i, t) in s.tokens.iter().enumerate() {
        let aux = t.lower.as_str();
        if !matches!(aux, "is" | "are" | "has" | "have") || i == 0 || verb_at.contains(&i) {
            continue;
        }
        // The word before is a subject's last word, not "there", a question's verb or a
        // relative pronoun (the reading of those is left to the rules above).
        let before = s.tokens[i - 1].lower.as_str();
        // "Our visitor, who is fumbling in his pocket": a relative clause's action going on.
        if matches!(aux, "is" | "are") && relative_in_progress(s, i) {
            found.present.push(Verb {
                start: s.tokens[i - 1].start,
                end: t.end,
                event: true,
                at: i,
            });
            verb_at.push(i);
            continue;
        }
        if !t.plain_gap
            || matches!(before, "there" | "here" | "it" | "that" | "which" | "who" | "what" | "this")
            || super::text::is_function_word(before)
                && !matches!(before, "they" | "we" | "he" | "she" | "them" | "us" | "all" | "both")
        {
            continue;
        }
        let mut j = i + 1;
        while s.tokens.get(j).is_some_and(|n| {
            n.plain_gap && matches!(n.lower.as_str(), "still" | "already" | "just" | "now" | "all" | "been")
        }) {
            j += 1;
        }
        let Some(next) = s.tokens.get(j).filter(|n| n.plain_gap) else {
            continue;
        };
        let n = next.lower.as_str();
        // "the coracle is carried out upon the ebb": a passive of motion is an event.
        let moved = s.tokens.get(j + 1).is_some_and(|m| {
            matches!(
                m.lower.as_str(),
                "out" | "up" | "down" | "away" | "off" | "along" | "into" | "across" | "through"
                    | "back" | "forward" | "aside"
            )
        });
        let event = match aux {
            "is" | "are" => is_ing(n) || (moved && past_base(n).is_some()),
            _ => past_base(n).is_some_and(|b| !is_state(&b)) || is_ing(n) || PARTICIPLES.contains(&n),
        };
        if event {
            found.present.push(Verb {
                start: t.start,
                end: next.end,
                event: true,
                at: i,
            });
            verb_at.push(i);
        }
    }
}

/// "The guard takes one look", "its voice rolls out", "the bell is swinging".
fn noun_phrase_verbs(ctx: &Ctx<'_>, s: &Sentence, found: &mut Tenses, verb_at: &mut Vec<usize>) {
    for d in 0..s.tokens.len() {
        // "Suddenly my eyes catch": after an opening adverb too.
        let after_adverb = d == 1 && s.tokens[0].lower.len() > 4 && s.tokens[0].lower.ends_with("ly");
        if !DETERMINERS.contains(&s.tokens[d].lower.as_str())
            || !(opens_after(&ctx.prose, s, d) || after_adverb)
        {
            continue;
        }
        // "the memory of the pistol flashes": a phrase of "of" and its noun is part of the
        // subject.
        let mut c = d + 1;
        // Up to three words before the verb: "a single bright light shines".
        let mut limit = (d + 5).min(s.tokens.len());
        while c < limit {
            let t = &s.tokens[c];
            if !t.plain_gap || verb_at.contains(&c) {
                break;
            }
            let w = t.lower.as_str();
            if w == "of"
                && c > d + 1
                && s.tokens.get(c + 1).is_some_and(|n| {
                    n.plain_gap && DETERMINERS.contains(&n.lower.as_str())
                })
            {
                c += 3;
                limit = (c + 2).min(s.tokens.len());
                continue;
            }
            // "the smell grows stronger", "the room falls silent": a verb of becoming takes
            // any word after it.
            let becoming = c > d + 1
                && present_third_base(w).is_some_and(|b| BECOMING.contains(&b.as_str()))
                && s.tokens.get(c + 1).is_some_and(|n| n.plain_gap);
            if becoming {
                found.present.push(Verb {
                    start: s.tokens[d].start,
                    end: t.end,
                    event: true,
                    at: c,
                });
                verb_at.push(c);
                break;
            }
            let next = s.tokens.get(c + 1).map(|n| n.lower.as_str());
            let progressive =
                matches!(w, "is" | "was" | "are" | "were") && next.is_some_and(is_ing);
            if progressive {
                let list = if matches!(w, "is" | "are") {
                    &mut found.present
                } else {
                    &mut found.past
                };
                list.push(Verb {
                    start: s.tokens[d].start,
                    end: s.tokens[c + 1].end,
                    event: true,
                    at: c,
                });
                verb_at.push(c);
                break;
            }
            // "The men leap out one after another": a plural noun and a bare verb.
            let prev = s.tokens[c - 1].lower.as_str();
            let plural = c > d + 1
                && (matches!(prev, "men" | "women" | "children" | "people")
                    || (prev.len() > 3 && prev.ends_with('s') && !prev.ends_with("ss")));
            if plural && is_known_base(w) && !is_noun_like(w) && followed_like_a_verb(ctx, s, c) {
                found.present.push(Verb {
                    start: s.tokens[d].start,
                    end: t.end,
                    event: !is_state(w),
                    at: c,
                });
                verb_at.push(c);
                break;
            }
            if lexicon_name(ctx, s, c) {
                break;
            }
            let present = present_third_base(w).filter(|b| b != "be" && b != "have");
            let past = past_base(w).filter(|b| b != "be" && b != "have");
            let noun_like = present.as_deref().is_some_and(is_noun_like);
            // "The maid walks across the room": after a noun, a verb-or-noun word followed
            // like a verb is the verb when no other verb follows in the sentence.
            let after_noun = c > d + 1
                && followed_like_a_verb(ctx, s, c)
                && !s.tokens[c + 1..].iter().any(|t| {
                    is_past(&t.lower)
                        || matches!(
                            t.lower.as_str(),
                            "is" | "are" | "was" | "were" | "has" | "have"
                        )
                });
            // "The snake hisses and slides back", "the clock strikes nine": another verb in
            // the same form after "and", or a count, keeps a verb company too.
            let paired = s.tokens.get(c + 1).is_some_and(|n| n.lower == "and" && n.plain_gap)
                && s.tokens.get(c + 2).is_some_and(|n| {
                    n.plain_gap
                        && if present.is_some() {
                            present_third_base(&n.lower).is_some()
                        } else {
                            past_base(&n.lower).is_some()
                        }
                });
            let counted = s.tokens.get(c + 1).is_some_and(|n| {
                n.plain_gap
                    && matches!(
                        n.lower.as_str(),
                        "four" | "five" | "six" | "seven" | "eight" | "nine" | "ten" | "eleven"
                            | "twelve"
                    )
            });
            // Not straight after the article: "his winks and pinches" are nouns.
            let company = if noun_like {
                takes_object(s, c) || after_noun
            } else {
                followed_like_a_verb(ctx, s, c) || (c > d + 1 && (paired || counted))
            };
            // "the mention of his name leads me on to speak of our cook": a first-person
            // narrator's own telling, from the time of telling.
            let telling = ctx.input.pov == PointOfView::First
                && present.is_some()
                && s.tokens[c + 1..].iter().take(5).any(|x| matches!(x.lower.as_str(), "me" | "us"))
                && s.tokens[c + 1..].iter().any(|x| {
                    matches!(
                        x.lower.as_str(),
                        "speak" | "tell" | "say" | "write" | "mention" | "relate" | "describe" | "recall" | "remember"
                    )
                });
            if telling {
                break;
            }
            if (present.is_some() || past.is_some()) && company {
                let verb = Verb {
                    start: s.tokens[d].start,
                    end: t.end,
                    event: present.as_deref().is_none_or(|_| !is_state(w)),
                    at: c,
                };
                if present.is_some() {
                    found.present.push(verb);
                } else {
                    found.past.push(verb);
                }
                verb_at.push(c);
                break;
            }
            if c > d + 1 && (present.is_some() || past.is_some()) {
                break;
            }
            if super::text::is_function_word(w) {
                break;
            }
            c += 1;
        }
    }
}

/// "After a long struggle Weathers again brought…": a word only the general verb lexicon knows,
/// capitalised in the middle of a sentence, is a name.
fn lexicon_name(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let t = &s.tokens[i];
    i > 0
        && ctx.prose.original[t.start..t.end].starts_with(|c: char| c.is_uppercase())
        && super::verbs::only_in_lexicon(&t.lower)
}

/// "She dresses in the dark, pulls on her boots, and goes down": verbs sharing a subject.
fn coordinated_verbs(ctx: &Ctx<'_>, s: &Sentence, found: &mut Tenses, verb_at: &[usize]) {
    let first_verb = verb_at.iter().min().copied();
    let Some(first_verb) = first_verb else {
        return;
    };
    for i in first_verb + 1..s.tokens.len() {
        let t = &s.tokens[i];
        if verb_at.contains(&i) || t.barrier {
            continue;
        }
        let prev = &s.tokens[i - 1];
        let joined = matches!(prev.lower.as_str(), "and" | "then" | "or")
            || ctx.prose.original[prev.end..t.start].contains(',');
        if !joined || !followed_like_a_verb(ctx, s, i) {
            continue;
        }
        // "his winks and pinches": a noun in "-s" after an article, and another like it.
        let noun_pair = i >= 3
            && prev.lower == "and"
            && s.tokens[i - 2].lower.ends_with('s')
            && DETERMINERS.contains(&s.tokens[i - 3].lower.as_str());
        if noun_pair {
            continue;
        }
        let w = t.lower.as_str();
        if lexicon_name(ctx, s, i) {
            continue;
        }
        let verb = Verb {
            start: t.start,
            end: t.end,
            event: true,
            at: i,
        };
        // "and, seeing her come, turns away": a particle after it makes even "turns" a verb.
        let particle = s.tokens.get(i + 1).is_some_and(|n| {
            n.plain_gap
                && matches!(
                    n.lower.as_str(),
                    "away" | "back" | "round" | "aside" | "about" | "off" | "out" | "up" | "down"
                )
        });
        if present_third_base(w).is_some_and(|b| !is_noun_like(&b) || takes_object(s, i) || particle)
            && !is_state(w)
        {
            found.present.push(verb);
        } else if past_base(w).is_some_and(|b| b != "be" && b != "have") {
            found.past.push(verb);
        }
    }
}

/// "He's lying, she thought." — a thought in its own tense and person.
fn thought_tagged(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    let names = ctx.hits(s);
    let text = ctx.prose.original;
    (1..s.tokens.len()).any(|i| {
        let tag = &s.tokens[i];
        if !THOUGHT_TAGS.contains(&tag.lower.as_str()) || !tag.plain_gap {
            return false;
        }
        let subject = &s.tokens[i - 1];
        let is_subject = matches!(subject.lower.as_str(), "he" | "she" | "they" | "i")
            || names.iter().any(|h| h.last == i - 1);
        let gap_from = if i >= 2 { s.tokens[i - 2].end } else { s.start };
        // "…, she thought." after the thought, or "She thought: …" before it.
        let after_thought =
            gap_from > s.start && text[gap_from..subject.start].contains([',', '—', '–']);
        let gap_to = s.tokens.get(i + 1).map_or(s.end, |t| t.start);
        let before_thought = text[tag.end..gap_to].contains(':');
        is_subject && (after_thought || before_thought)
    })
}

fn is_question(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    super::pov::is_question(ctx.prose.narration(s))
}

/// The verb at token `at` reports or states something timeless rather than narrating.
fn reported_or_habitual(ctx: &Ctx<'_>, s: &Sentence, at: usize) -> bool {
    // Only in the verb's own clause: "…a small corridor, which ends in a gate, and Mr.
    // Merryweather unlocks it" tells the unlocking, whatever the relative clause before.
    // "The instant that we heard it, Holmes springs": an opening clause of time ends at its
    // comma.
    let opening_time = opening_time_clause(ctx, s).filter(|&end| end <= at);
    let clause = (1..=at)
        .rev()
        .find(|&k| {
            let gap = &ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start];
            gap.contains([';', ':'])
                || (gap.contains(',') && matches!(s.tokens[k].lower.as_str(), "and" | "but"))
        })
        .unwrap_or(0)
        .max(opening_time.unwrap_or(0));
    // "moving his lips as a priest does when he reads": a comparison with anyone at all.
    // Not across a comma: "with his face set like a mask, climbs the stairs" is his.
    let comma_after = |k: usize| {
        (k + 1..=at).any(|j| ctx.prose.original[s.tokens[j - 1].end..s.tokens[j].start].contains(','))
    };
    let generic = (clause..at).any(|k| {
        !comma_after(k)
            && matches!(s.tokens[k].lower.as_str(), "as" | "like" | "than")
            && s.tokens[k + 1..at.min(k + 5)].iter().any(|t| {
                matches!(t.lower.as_str(), "a" | "an" | "one" | "people" | "men" | "women")
            })
    });
    // A habit in the verb's clause or after it ("she always walks", "when he speaks of her,
    // it is always…"), not in a relative clause ("he watches Corley's head, which turns at
    // every moment").
    // "every" is a habit with a time ("every day", "every time"), not "with every word".
    let habit = |k: usize| {
        let w = s.tokens[k].lower.as_str();
        HABITUAL.contains(&w)
            && (w != "every"
                || s.tokens.get(k + 1).is_some_and(|n| {
                    matches!(
                        n.lower.as_str(),
                        "day" | "night" | "morning" | "evening" | "week" | "month" | "year"
                            | "time" | "summer" | "winter" | "sunday" | "hour" | "moment"
                    )
                }))
    };
    let after = (at + 1..s.tokens.len())
        .take_while(|&k| !matches!(s.tokens[k].lower.as_str(), "which" | "who" | "that"));
    let habitual = (clause..at).chain(after).any(habit);
    // "He turns often from his tiresome writing": in the third person, a character's habit is
    // narrated like anything else they do, in the novel's tense.
    let characters_habit = ctx.input.pov != PointOfView::First
        && at > 0
        && matches!(s.tokens[at - 1].lower.as_str(), "he" | "she");
    // "set the cup down so hard that the saucer cracks": a result, not a report.
    let result = |k: usize| {
        s.tokens[k].lower == "that"
            && s.tokens[k.saturating_sub(3)..k]
                .iter()
                .any(|t| matches!(t.lower.as_str(), "so" | "such"))
    };
    // "The instant that we heard it, Holmes springs": a time, not a report.
    let time = |k: usize| {
        s.tokens[k].lower == "that"
            && k > 0
            && matches!(
                s.tokens[k - 1].lower.as_str(),
                "instant" | "moment" | "minute" | "second" | "time"
            )
    };
    // "who is fumbling": the relative pronoun is the verb's own subject, not a report.
    let own_subject = |k: usize| k + 1 == at && relative_in_progress(s, at);
    generic
        || (habitual && !characters_habit)
        || (clause..at).any(|k| {
            REPORTED.contains(&s.tokens[k].lower.as_str()) && !result(k) && !time(k) && !own_subject(k)
        })
}

/// Where a sentence's opening clause of time ends ("The instant that we heard it,", "When
/// the clock struck,"): the token after its comma.
fn opening_time_clause(ctx: &Ctx<'_>, s: &Sentence) -> Option<usize> {
    let first = s.tokens.first()?.lower.as_str();
    let second = s.tokens.get(1).map(|t| t.lower.as_str());
    let opens = matches!(first, "when" | "once" | "after" | "directly" | "as")
        || (first == "the" && matches!(second, Some("instant" | "moment" | "minute" | "second")));
    if !opens {
        return None;
    }
    (1..s.tokens.len().min(14)).find(|&k| {
        ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start].contains(',')
    })
}

/// The past form at token `at` stands in a condition or wish ("if it said", "as though he
/// had", "wish she knew") or after "having".
fn conditional_or_participle(s: &Sentence, at: usize) -> bool {
    let before = &s.tokens[at.saturating_sub(4)..at];
    at.checked_sub(1)
        .is_some_and(|k| s.tokens[k].lower == "having")
        || before.iter().any(|t| {
            matches!(
                t.lower.as_str(),
                "if" | "though" | "wish" | "wishes" | "unless"
            )
        })
}

fn has_backstory(s: &Sentence) -> bool {
    has_backstory_before(s, s.tokens.len())
}

/// As [`has_backstory`], with a pluperfect counting only before token `limit`: "He completed
/// his observations as carefully as he had carried them on" is told now, and its "had" is
/// earlier than the completing, not the sentence's time.
fn has_backstory_before(s: &Sentence, limit: usize) -> bool {
    s.tokens.iter().enumerate().any(|(i, t)| {
        let w = t.lower.as_str();
        if w == "had" && i > limit {
            return false;
        }
        // "as a girl", "when he was a boy"; not "looked at the girl".
        if matches!(w, "girl" | "boy" | "child")
            && !(i >= 2
                && s.tokens[i - 1].lower == "a"
                && matches!(s.tokens[i - 2].lower.as_str(), "as" | "was" | "were"))
        {
            return false;
        }
        // "used to" is a habit of the past; "used his fingers" is only the verb. A time of
        // day or year sets a story in the past only when it is another one ("that morning",
        // "last winter"), not "a good morning".
        let another_time = i.checked_sub(1).is_some_and(|k| {
            matches!(
                s.tokens[k].lower.as_str(),
                "that" | "this" | "last" | "one" | "previous" | "yesterday" | "every" | "each"
            )
        });
        // "before he folded it into his pocket": the next thing, not an earlier time.
        let before_next = w == "before"
            && s.tokens.get(i + 1).is_some_and(|n| {
                matches!(n.lower.as_str(), "he" | "she" | "they" | "i" | "we" | "it")
            });
        BACKSTORY.contains(&w)
            && !before_next
            && (w != "used" || s.tokens.get(i + 1).is_some_and(|n| n.lower == "to"))
            && (!TIMES.contains(&w) || another_time)
    })
}

/// Times that set a sentence in the past only with a word that makes them another time.
const TIMES: &[&str] = &[
    "morning", "night", "week", "month", "year", "winter", "summer", "spring", "autumn",
];

pub(super) fn tense_drift(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut drift = read_drift(ctx);
    // Kept for the learned reading, which reads the same sentences after the rules.
    let _ = ctx.tense_readings.set(std::mem::take(&mut drift.readings));
    let tensed = drift.tensed;
    let drifting = drift.slips();
    let Some(&(si, first)) = drifting.first() else {
        return Vec::new();
    };
    let severity = drift_severity(ctx, drifting.len(), tensed);
    let s = &ctx.prose.sentences[si];
    let excerpt = ctx.prose.excerpt(s, first.start);
    vec![
        Finding::new(
            Check::TenseDrift,
            severity,
            drift_message(ctx, &drifting, tensed, &excerpt),
            Some(excerpt),
        )
        .at(&ctx.prose, s, first.start, first.end),
    ]
}

/// What one narration sentence out of the novel's tense shows.
enum Slip {
    /// An event in the wrong tense: drift on its own.
    Event(Verb),
    /// Only a state in the wrong tense: drift when many sentences have one.
    State(Verb),
}

/// The narration sentences out of tense, by sentence index, and how many have a tense at all.
#[derive(Default)]
struct Drift {
    events: Vec<(usize, Verb)>,
    states: Vec<(usize, Verb)>,
    tensed: usize,
    /// What the rules read of each narration sentence's tense, by sentence index (`None`
    /// for one whose tense does not count): the learned reading's evidence.
    readings: Vec<Option<Vec<String>>>,
}

impl Drift {
    /// The drifting sentences in order: the events, and the states too when there are many.
    fn slips(self) -> Vec<(usize, Verb)> {
        let mut drifting = self.events;
        let many_states = self.states.len() >= MIN_STATE_SENTENCES
            && self.states.len() * 100 >= self.tensed * MIN_STATE_SHARE_PERCENT;
        if many_states {
            drifting.extend(self.states);
            drifting.sort_by_key(|(si, _)| *si);
        }
        drifting
    }
}

/// Every narration sentence read for its tense, in order (a present-tense novel's backstory
/// runs on from the sentence that opens it).
fn read_drift(ctx: &Ctx<'_>) -> Drift {
    let mut drift = Drift {
        readings: vec![None; ctx.prose.sentences.len()],
        ..Drift::default()
    };
    let mut backstory = false;
    // Whether the narration sentence before told the scene's own action in the present.
    let mut acting_now = false;
    // The tags of the narration sentence before, for the learned reading.
    let mut before: Vec<String> = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if !is_tensed_narration(ctx, si, s) {
            continue;
        }
        let found = tenses(ctx, si);
        let mut tags = verb_tags(s, &found);
        tags.extend(before.iter().map(|t| format!("before_{t}")));
        if found.present.is_empty() && found.past.is_empty() {
            drift.readings[si] = Some(tags);
            before = vec!["untensed".to_string()];
            continue;
        }
        drift.tensed += 1;
        let followed_action = std::mem::replace(
            &mut acting_now,
            found.present.iter().any(|v| v.event),
        );
        let in_backstory = backstory;
        let slip = match ctx.input.tense {
            Tense::Past => past_novel_slip(ctx, s, &found, ctx.input.pov == PointOfView::First),
            Tense::Present => {
                let slip = present_novel_slip(ctx, s, &found, &mut backstory);
                if backstory {
                    tags.push("backstory".to_string());
                } else if in_backstory {
                    tags.push("backstory_ends".to_string());
                }
                if slip.is_some() {
                    tags.push("slip_before_recall".to_string());
                }
                // A first-person narrator in the present tells what happened before in the
                // past all the time ("I carried on a feud with him for eighteen months"): a
                // past verb is a slip only where the sentence ties it to the moment of telling
                // ("I was forty years old now", "Now he cried for an axe", "the room was bare
                // today"), or carries on the scene's action just told in the present with
                // nothing to set it earlier ("I push through the crowd. Lena waved at me").
                let carries_on = followed_action && !recollection_marked(s);
                // "I sat by the window while the baby sleeps": a present event beside the past
                // ties it to now.
                let slip_at = match &slip {
                    Some(Slip::Event(v) | Slip::State(v)) => v.at,
                    None => 0,
                };
                // Not a participle after "have" ("science have re-educated it and turned it").
                let now_beside = found.present.iter().any(|v| v.event)
                    && !s.tokens[..slip_at]
                        .iter()
                        .any(|t| matches!(t.lower.as_str(), "have" | "has" | "if"));
                let recalls = ctx.input.pov == PointOfView::First
                    && !tied_to_now(s)
                    && !carries_on
                    && !now_beside;
                if recalls {
                    tags.push("recalls".to_string());
                }
                slip.filter(|_| !recalls)
            }
        };
        match slip {
            Some(Slip::Event(v)) => {
                tags.push("slip_event".to_string());
                drift.events.push((si, v));
            }
            Some(Slip::State(v)) => {
                tags.push("slip_state".to_string());
                drift.states.push((si, v));
            }
            None => {}
        }
        before = tags
            .iter()
            .filter(|t| !t.starts_with("before_") && !t.contains(':'))
            .cloned()
            .collect();
        drift.readings[si] = Some(tags);
    }
    drift
}

/// The tenses the rules read in a sentence, as tags: whether it has a present or past event
/// or state, and each verb with its tense ("past:looked").
fn verb_tags(s: &Sentence, found: &Tenses) -> Vec<String> {
    let mut tags = Vec::new();
    for (tense, verbs) in [("present", &found.present), ("past", &found.past)] {
        for v in verbs {
            let kind = if v.event { "event" } else { "state" };
            tags.push(format!("{tense}_{kind}"));
            tags.push(format!("{tense}:{}", s.tokens[v.at].lower));
        }
    }
    tags.sort_unstable();
    tags.dedup();
    tags
}

/// What the rules read of each sentence's tense, for the learned reading: tags such as
/// `past_event`, `present:walks`, `slip_state`, `backstory`, `recalls`, and the plain tags
/// of the narration sentence before with `before_`; `None` for a sentence whose tense does not
/// count (dialogue alone, a tagged thought, a question, verse).
pub(crate) fn tense_readings<'c>(ctx: &'c Ctx<'_>) -> &'c [Option<Vec<String>>] {
    ctx.tense_readings.get_or_init(|| read_drift(ctx).readings)
}

/// A sentence of narration whose tense counts: not meta, a tagged thought, a question or verse.
fn is_tensed_narration(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> bool {
    !(s.tokens.is_empty()
        || ctx.meta[si]
        || thought_tagged(ctx, s)
        || is_question(ctx, s)
        || is_verse(ctx, s))
}

/// In a past-tense novel: a present event, or a present state in a sentence with no past.
/// `narrator_tells` when a first-person narrator's "now" is the moment of telling ("It is
/// perhaps as well that the facts should now come to light").
fn past_novel_slip(
    ctx: &Ctx<'_>,
    s: &Sentence,
    found: &Tenses,
    narrator_tells: bool,
) -> Option<Slip> {
    // "He keeps her photograph still", "to this day he walks with a stick": a first-person
    // narrator telling how things are at the time of telling.
    let words: Vec<&str> = s.tokens.iter().map(|t| t.lower.as_str()).collect();
    // Not the "still" of an action going on ("which I am still holding").
    let still = words.iter().enumerate().any(|(k, w)| {
        *w == "still"
            && !words.get(k + 1).is_some_and(|n| is_ing(n))
            && !(k > 0 && matches!(words[k - 1], "am" | "is" | "are" | "was" | "were"))
    });
    let until_now = still
        || words.contains(&"nowadays")
        || words.windows(3).any(|w| w == ["to", "this", "day"]);
    if narrator_tells && until_now {
        return None;
    }
    let live: Vec<Verb> = found
        .present
        .iter()
        .copied()
        .filter(|v| !reported_or_habitual(ctx, s, v.at))
        .collect();
    if let Some(v) = live.iter().find(|v| v.event) {
        Some(Slip::Event(*v))
    } else if let Some(v) = live.first()
        && found.past.is_empty()
    {
        // "He feels quite at ease now": a state of the story's moment, in the present.
        if tied_to_now(s) && !narrator_tells {
            Some(Slip::Event(*v))
        } else {
            Some(Slip::State(*v))
        }
    } else {
        None
    }
}

/// In a present-tense novel: a past verb outside backstory, a condition or a participle.
/// `backstory` carries over from sentence to sentence.
fn present_novel_slip(
    ctx: &Ctx<'_>,
    s: &Sentence,
    found: &Tenses,
    backstory: &mut bool,
) -> Option<Slip> {
    // "I sat by the window now": the moment of telling, told in the past.
    let now = s.tokens.iter().any(|t| t.lower == "now");
    let first_event = found
        .past
        .iter()
        .filter(|v| v.event)
        .map(|v| v.at)
        .min()
        .unwrap_or(s.tokens.len());
    if has_backstory_before(s, first_event) && !now {
        *backstory = true;
    } else if !found.present.is_empty() || now {
        *backstory = false;
    }
    if *backstory {
        return None;
    }
    if !found.present.is_empty() {
        return mixed_slip(ctx, s, found);
    }
    // "If it said now…", "as if he had…": a past form in a condition is not the
    // story's time; nor is "having opened", which is no finite verb.
    let past: Vec<Verb> = found
        .past
        .iter()
        .copied()
        .filter(|v| !conditional_or_participle(s, v.at))
        .collect();
    if let Some(v) = past.iter().find(|v| v.event) {
        Some(Slip::Event(*v))
    } else {
        past.first().map(|v| Slip::State(*v))
    }
}

/// In a present-tense novel, a sentence with present verbs whose own action slips into the
/// past all the same: a past verb joined to a present one by "and" ("Mr. Bucket sits out
/// the procession and glided from the carriage"), or the main clause after an opening "when"
/// clause in the present ("When at last his eyes follow the candle, the housekeeper bent over
/// him"). Nothing reported, relative or conditional may stand between.
fn mixed_slip(ctx: &Ctx<'_>, s: &Sentence, found: &Tenses) -> Option<Slip> {
    let opener = s
        .tokens
        .first()
        .is_some_and(|t| matches!(t.lower.as_str(), "when" | "as" | "while" | "once"));
    let events = || {
        found
            .past
            .iter()
            .filter(|v| v.event && !conditional_or_participle(s, v.at))
    };
    // "Allan bent over him and listened, and then he turns to Mr. George", "I sat by the
    // window while the baby sleeps": the past first, the present after it in a clause of its
    // own, nothing reported or earlier between.
    // "just as he sat in the law-writer's room", "having leisurely helped himself": a
    // comparison or a participle, no verb of the scene.
    let subordinate = |v: &Verb| {
        s.tokens[v.at.saturating_sub(3)..v.at]
            .iter()
            .any(|t| matches!(t.lower.as_str(), "as" | "than" | "like" | "having"))
    };
    // "…and he is left standing": a present passive is the scene's own event too.
    let passive = |p: &Verb| {
        matches!(s.tokens[p.at].lower.as_str(), "is" | "are")
            && s.tokens.get(p.at + 1).is_some_and(|n| is_past(&n.lower))
    };
    let before_present = events().filter(|v| !subordinate(v)).find(|v| {
        found.present.iter().any(|p| {
            (p.event || passive(p))
                && p.at > v.at
                && (s.tokens[v.at + 1..p.at]
                    .iter()
                    .any(|t| matches!(t.lower.as_str(), "and" | "then" | "while"))
                    // "Then he rose unsteadily, lays the pipe down": a list of his actions.
                    || (!s.tokens[p.at].plain_gap && !s.tokens[p.at].barrier))
                && !s.tokens[..p.at].iter().any(|t| {
                    (REPORTED.contains(&t.lower.as_str()) && t.lower != "when")
                        || matches!(t.lower.as_str(), "had" | "once" | "before" | "ago" | "since")
                })
        })
    });
    if let Some(v) = before_present {
        return Some(Slip::Event(*v));
    }
    events()
        .find(|v| {
            // "She is now decided, and prepared", "has disengaged himself and retired": a
            // participle after "is" or "has" is no past verb.
            found.present.iter().any(|p| {
                p.event
                    && (!matches!(
                        s.tokens[p.at].lower.as_str(),
                        "is" | "are" | "am" | "has" | "have"
                    ) || PAST_ONLY.contains(&s.tokens[v.at].lower.as_str()))
                    && p.at < v.at
                    && !s.tokens[p.at + 1..v.at].iter().any(|t| {
                        REPORTED.contains(&t.lower.as_str())
                            || matches!(t.lower.as_str(), "had" | "once" | "before" | "ago")
                    })
                    && (s.tokens[v.at - 1].lower == "and"
                        || joined_clause(ctx, s, p.at, v.at)
                        || opener
                        // "…and walks on, until at the corner he stopped", "I lie here, while
                        // down in the garden Mary walked": the same moment or the next.
                        || s.tokens[p.at + 1..v.at]
                            .iter()
                            .any(|t| matches!(t.lower.as_str(), "until" | "till" | "while" | "whilst" | "then")))
            })
        })
        .map(|v| Slip::Event(*v))
}

/// Whether the clause of token `v` is joined to the one of token `p` before it by "and" or
/// "but" or a semicolon, with only its subject between ("I lie on the bed, and I could
/// see", "kisses her; the door closed"): the next thing in the same moment.
fn joined_clause(ctx: &Ctx<'_>, s: &Sentence, p: usize, v: usize) -> bool {
    (p + 1..v).rev().take(4).any(|k| {
        let word = s.tokens[k].lower.as_str();
        let gap = &ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start];
        let joins = matches!(word, "and" | "but") || gap.contains([';', ':']);
        let first = if matches!(word, "and" | "but") { k + 1 } else { k };
        let subject = &s.tokens[first..v];
        // "She smiles but went home": no subject of its own, a coordinated verb (read above).
        if subject.is_empty() {
            return false;
        }
        let pronoun = |t: &super::text::Token| {
            matches!(t.lower.as_str(), "i" | "he" | "she" | "we" | "they" | "it")
        };
        // "and his eyes fixed on the floor" is a participle's phrase: after a noun, only a
        // past that is no participle ("the door closed" is not read, "the door went" is).
        let noun_subject = subject.len() <= 3
            && matches!(
                subject[0].lower.as_str(),
                "the" | "a" | "an" | "his" | "her" | "my" | "their"
            )
            && !subject.iter().any(pronoun)
            && !s.tokens[v].lower.ends_with("ed");
        joins
            && subject.iter().all(|t| t.plain_gap)
            && ((subject.len() == 1 && pronoun(&subject[0])) || noun_subject)
    })
}

/// Words that set a past sentence at an earlier time than the scene's: a time or a duration
/// ("one evening", "for eighteen months", "when the sun came"), or a report of what was said.
fn recollection_marked(s: &Sentence) -> bool {
    has_backstory(s)
        || s.tokens.iter().enumerate().any(|(i, t)| {
            let next = s.tokens.get(i + 1).map(|n| n.lower.as_str());
            match t.lower.as_str() {
                "when" | "once" | "since" | "then" | "said" | "told" | "asked" | "months"
                | "weeks" | "days" | "hours" | "evening" | "afternoon" => true,
                "one" | "the" => matches!(next, Some("day" | "evening" | "night" | "morning" | "other")),
                "just" => next == Some("now"),
                _ => false,
            }
        })
}

/// Whether a sentence speaks of the moment of telling: "now" (not "just now", a moment
/// ago), "today", "at this moment".
fn tied_to_now(s: &Sentence) -> bool {
    s.tokens.iter().enumerate().any(|(i, t)| {
        let before = i.checked_sub(1).map(|k| s.tokens[k].lower.as_str());
        match t.lower.as_str() {
            "now" => before != Some("just"),
            "today" | "to-day" | "tonight" | "to-night" => true,
            "moment" | "minute" => before == Some("this"),
            _ => false,
        }
    })
}

/// `n` drifting sentences out of `tensed`: a note or a violation.
fn drift_severity(ctx: &Ctx<'_>, n: usize, tensed: usize) -> Severity {
    // One sentence out of tense is as often the author's own choice (a remark in the present,
    // a memory in the past) as a slip: a note. A drift that recurs is a violation; in a
    // first-person present story the narrator remembers in the past, so it takes more.
    let recurring = match (ctx.input.pov, ctx.input.tense) {
        (PointOfView::First, Tense::Present) => 3,
        _ => 2,
    };
    // A first-person present narrator tells much of what happened in the past: only a
    // drift that takes over a good part of the narration is a slip.
    let takes_over = match (ctx.input.pov, ctx.input.tense) {
        (PointOfView::First, Tense::Present) => n * 100 >= tensed * 40,
        _ => true,
    };
    if n >= recurring && takes_over {
        Severity::Violation
    } else {
        Severity::Note
    }
}

/// What the writer reads: how much drifts, up to three examples, the first and the fix.
fn drift_message(
    ctx: &Ctx<'_>,
    drifting: &[(usize, Verb)],
    tensed: usize,
    excerpt: &str,
) -> String {
    let n = drifting.len();
    let examples = drifting
        .iter()
        .take(3)
        .map(|(_, v)| format!("“{}”", &ctx.prose.original[v.start..v.end]))
        .collect::<Vec<_>>()
        .join(", ");
    let (novel, wrong, example_fix) = match ctx.input.tense {
        Tense::Past => ("past", "present", "“she walked”, not “she walks”"),
        Tense::Present => ("present", "past", "“she walks”, not “she walked”"),
    };
    let count = if n == 1 {
        "one narration sentence here is".to_string()
    } else {
        format!("{n} of {tensed} narration sentences here are")
    };
    format!(
        "The novel is written in {novel} tense, but {count} in the {wrong} tense \
         ({examples}). First: “{excerpt}”. Put all narration into the {novel} tense \
         ({example_fix}); dialogue and italic thoughts may stay as they are."
    )
}

pub(super) fn person_drift(ctx: &Ctx<'_>) -> Vec<Finding> {
    match ctx.input.pov {
        PointOfView::DeepThird => {
            let slips = first_person_slips(ctx);
            if slips.is_empty() {
                super::narrator_we::narrator_we(ctx, |si, s| {
                    ctx.meta[si] || thought_tagged(ctx, s) || direct_thought(ctx, s) || is_verse(ctx, s)
                })
            } else {
                slips
            }
        }
        PointOfView::First => narrator_in_third(ctx),
    }
}

/// Exclamations that are not the narrator speaking: "Oh my god", "my lord".
fn idiom(s: &Sentence, i: usize) -> bool {
    let next = s.tokens.get(i + 1).map(|t| t.lower.as_str());
    s.tokens[i].lower == "my"
        && matches!(
            next,
            Some(
                "god"
                    | "lord"
                    | "lady"
                    | "lord's"
                    | "lady's"
                    | "goodness"
                    | "gods"
                    | "word"
                    | "heavens"
                    | "dear"
            )
        )
}

/// Lines of verse or a song run into the prose without quotation marks ("Hushed are the
/// winds and still the evening gloom, Not e’en a Zephyr wanders…"): capitalised small words
/// in mid-sentence, where prose has them in lower case.
fn is_verse(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    let capital_small_words = s
        .tokens
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(i, t)| {
            let word = ctx.prose.word(t);
            let gap = &ctx.prose.original[s.tokens[i - 1].end..t.start];
            word != "I"
                && !word.starts_with("I'")
                && !word.starts_with("I’")
                && word.starts_with(char::is_uppercase)
                && !gap.contains(['.', '!', '?', ':', '“', '"', '‘'])
                && (super::text::is_function_word(&t.lower)
                    || matches!(
                        t.lower.as_str(),
                        "whilst"
                            | "while"
                            | "unless"
                            | "o"
                            | "nor"
                            | "my"
                            | "thy"
                            | "thou"
                            | "his"
                            | "her"
                    ))
        })
        .count();
    capital_small_words >= 2
}

/// A song or book title in Title Case around the pronoun: "She sang I Dreamt that I Dwelt",
/// "an encore to Let me like a Soldier fall".
fn in_title(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let capitalised = |j: usize| {
        j > 0
            && s.tokens.get(j).is_some_and(|t| t.plain_gap || j < i)
            && s.tokens.get(j).is_some_and(|t| {
                let w = ctx.prose.word(t);
                w != "I"
                    && w.starts_with(char::is_uppercase)
                    && !ctx.hits(s).iter().any(|h| h.first <= j && j <= h.last)
            })
    };
    (i > 0 && capitalised(i - 1) && s.tokens[i].plain_gap) || capitalised(i + 1)
}

/// "The plaque read: HERE I STOOD" — capitals on both sides.
fn inscription(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let caps = |t: &Token| {
        let w = ctx.prose.word(t);
        w.chars().any(char::is_alphabetic) && w.chars().all(|c| !c.is_lowercase())
    };
    let neighbour = |j: Option<usize>| j.and_then(|j| s.tokens.get(j)).is_some_and(caps);
    caps(&s.tokens[i]) && (neighbour(i.checked_sub(1)) || neighbour(Some(i + 1)))
}

/// Words that, before a colon, introduce a text quoted without marks: "She read the note
/// again: Meet me at the harbour."
#[rustfmt::skip]
const QUOTING: &[&str] = &[
    "read", "reads", "said", "says", "wrote", "written", "note", "letter", "sign", "plaque",
    "message", "words", "inscription", "card", "scrawled", "printed", "carved",
];

fn quoted_after_colon(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let text = &ctx.prose.original[s.start..s.tokens[i].start];
    let Some(colon) = text.rfind(':') else {
        return false;
    };
    let before = s.start + colon;
    s.tokens
        .iter()
        .take_while(|t| t.end <= before)
        .any(|t| QUOTING.contains(&t.lower.as_str()))
}

/// Whether sentence `si` has a word of the first person ("I", "me", "my", "we", "our"…)
/// that is not a quotation, an exclamation, an inscription or a title: where person drift in
/// third-person narration could be, for the learned reading, which judges the rest (the
/// rules excuse all of a tagged or direct thought; the learned reading weighs it).
pub(crate) fn has_first_person_word(ctx: &Ctx<'_>, si: usize) -> bool {
    let s = &ctx.prose.sentences[si];
    (0..s.tokens.len()).any(|i| {
        is_first_person(ctx, s, i)
            || (matches!(s.tokens[i].lower.as_str(), "we" | "us" | "our" | "ours" | "ourselves")
                && !inscription(ctx, s, i)
                && !quoted_after_colon(ctx, s, i)
                && !in_title(ctx, s, i))
    })
}

fn is_first_person(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let t = &s.tokens[i];
    let written = ctx.prose.word(t);
    let is_i = written == "I" || written.starts_with("I'") || written.starts_with("I’");
    if !(is_i || matches!(t.lower.as_str(), "me" | "my" | "myself" | "mine")) {
        return false;
    }
    // "the mine below him": the noun.
    let after_determiner = i > 0
        && matches!(
            s.tokens[i - 1].lower.as_str(),
            "the"
                | "a"
                | "this"
                | "that"
                | "his"
                | "her"
                | "their"
                | "its"
                | "our"
                | "coal"
                | "gold"
                | "old"
        );
    if t.lower == "mine" && after_determiner {
        return false;
    }
    // "Henry I", "World War I": a numeral after a capitalised word mid-sentence.
    let numeral = written == "I"
        && i >= 2
        && ctx
            .prose
            .word(&s.tokens[i - 1])
            .starts_with(char::is_uppercase);
    !numeral
        && !idiom(s, i)
        && !inscription(ctx, s, i)
        && !quoted_after_colon(ctx, s, i)
        && !in_title(ctx, s, i)
}

/// "What have I done?" in past narration is a thought in its own voice; "Why did I come?"
/// is the narration slipping.
fn direct_thought(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    let end = ctx.prose.narration(s).trim_end();
    let exclaims =
        end.ends_with(['?', '!']) || end.ends_with("?\u{1F}") || end.ends_with("!\u{1F}");
    exclaims
        && !s
            .tokens
            .iter()
            .any(|t| is_past(&t.lower) && !matches!(t.lower.as_str(), "had" | "done" | "been"))
}

fn first_person_slips(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut slips: Vec<(&Sentence, usize, usize)> = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty()
            || ctx.meta[si]
            || thought_tagged(ctx, s)
            || direct_thought(ctx, s)
            || is_verse(ctx, s)
        {
            continue;
        }
        if let Some(i) = (0..s.tokens.len()).find(|i| is_first_person(ctx, s, *i)) {
            slips.push((s, s.tokens[i].start, s.tokens[i].end));
        }
    }
    let Some(&(s, at, to)) = slips.first() else {
        return Vec::new();
    };
    let excerpt = ctx.prose.excerpt(s, at);
    let examples = slips
        .iter()
        .take(3)
        .map(|(s, at, _)| format!("“{}”", ctx.prose.excerpt(s, *at)))
        .collect::<Vec<_>>()
        .join("; ");
    let pov = ctx.pov_name();
    let count = if slips.len() == 1 {
        "a narration sentence slips".to_string()
    } else {
        format!("{} narration sentences slip", slips.len())
    };
    vec![
        Finding::new(
            Check::PersonDrift,
            Severity::Violation,
            format!(
                "The novel is told in deep third person, but {count} into the first person: \
                 {examples}. In narration, refer to {pov} by name or as she/he/they; keep “I”, \
                 “me” and “my” only inside dialogue or italic thoughts."
            ),
            Some(excerpt),
        )
        .at(&ctx.prose, s, at, to)
        .about(&ctx.people[ctx.pov].id),
    ]
}

/// "…entering in the log that the boy Hawkins had gone ashore": the narrator named in what
/// others say or write, "that" before the name with at most two small words between.
fn reported_after_that(ctx: &Ctx<'_>, s: &Sentence, first: usize) -> bool {
    (1..=3).any(|back| {
        first >= back
            && s.tokens[first - back].lower == "that"
            // "so that Dr. Watson could see": a purpose, not a report.
            && !(first - back > 0
                && matches!(s.tokens[first - back - 1].lower.as_str(), "so" | "such" | "now"))
            // "All that evening Nell kept": a time, not a report.
            && !s.tokens.get(first - back + 1).is_some_and(|n| {
                matches!(
                    n.lower.as_str(),
                    "evening" | "morning" | "night" | "day" | "afternoon" | "week" | "year"
                        | "moment" | "time" | "hour" | "winter" | "summer"
                )
            })
            && s.tokens[first - back + 1..first].iter().all(|t| {
                !t.barrier && ctx.prose.word(t).starts_with(char::is_lowercase)
            })
    })
}

/// A first-person narrator called by name ("Tamsin walked") or by "she"/"he" when nobody
/// else in the scene is.
fn narrator_in_third(ctx: &Ctx<'_>) -> Vec<Finding> {
    // (sentence, span, named): a name is certain; "he" for a narrator who is a man is most
    // often another man the scene has not named lately, so it is only a note.
    let mut uses: Vec<(usize, (usize, usize), bool)> = Vec::new();
    let roles = super::roles::narrator_roles(ctx);
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || ctx.meta[si] || thought_tagged(ctx, s) {
            continue;
        }
        // "John's wife lies very still": the narrator called by a role of theirs.
        if let Some((owner, v)) = super::roles::role_subject(ctx, s, &roles) {
            uses.push((si, tok_span(s, owner, v), false));
        }
        let hits = ctx.hits(s);
        for subject in ctx.subjects(si) {
            if subject.referent != Referent::Pov || subject.first_person {
                continue;
            }
            // "word was sent that Jim Hawkins was wanted": others speaking of the narrator.
            if reported_after_that(ctx, s, subject.first) {
                continue;
            }
            let named = hits.iter().any(|h| h.first == subject.first);
            let chain = verb_chain(s, subject.last);
            let Some(&v) = chain.first() else { continue };
            let verb = s.tokens[v].lower.as_str();
            let next = s.tokens.get(v + 1).map(|t| t.lower.as_str());
            // "Dr. Watson read it twice": after the narrator's name, a verb whose past is its
            // present ("read", "put") acts too.
            let same_in_past = named && super::verbs::is_same_in_past(verb);
            let acts = is_action(verb, next)
                || is_past(verb)
                || same_in_past
                || present_third_base(verb).is_some()
                || (!named && matches!(verb, "would" | "could" | "had" | "was"));
            if acts {
                uses.push((si, tok_span(s, subject.first, v), named));
            }
        }
        // "as startled as Watson", "To Watson, with his nerves…": the narrator's name where
        // "me" belongs, outside a report of what others said. Not certain (a letter's
        // address, a name others call out), so a note.
        for h in hits.iter().filter(|h| h.who == ctx.pov) {
            let acting = uses
                .iter()
                .any(|u| u.0 == si && u.1.0 == s.tokens[h.first].start);
            let reported = reported_after_that(ctx, s, h.first);
            if !acting && !reported {
                let (from, to) = tok_span(s, h.first, h.last);
                uses.push((si, (from, to), false));
            }
        }
    }
    let severity = if uses.iter().any(|u| u.2) {
        uses.retain(|u| u.2);
        Severity::Violation
    } else {
        Severity::Note
    };
    let Some(&(si, (at, to), _)) = uses.first() else {
        return Vec::new();
    };
    let s = &ctx.prose.sentences[si];
    let examples = uses
        .iter()
        .take(3)
        .map(|(_, (from, to), _)| format!("“{}”", &ctx.prose.original[*from..*to]))
        .collect::<Vec<_>>()
        .join(", ");
    let excerpt = ctx.prose.excerpt(s, at);
    let pov = ctx.pov_name();
    let times = if uses.len() == 1 {
        "once".to_string()
    } else {
        format!("{} times", uses.len())
    };
    vec![
        Finding::new(
            Check::PersonDrift,
            severity,
            format!(
                "The novel is told in the first person by {pov}, but the narration speaks of \
                 {pov} in the third person {times} ({examples}). First: “{excerpt}”. In \
                 narration {pov} is “I”: write “I walked”, not “{pov} walked” or “she walked”."
            ),
            Some(excerpt),
        )
        .at(&ctx.prose, s, at, to)
        .about(&ctx.people[ctx.pov].id),
    ]
}
