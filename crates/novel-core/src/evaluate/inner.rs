//! The broad lexicon of inner life: verbs of feeling and of private cognition given as
//! dictionary forms and inflected here (so "loathe" also finds "loathed", "loathes",
//! "loathing"), adjectives of inner state, nouns of emotion, and the set phrases English uses
//! for a state of mind ("had no intention of", "could not shake the feeling"). `minds.rs`
//! decides whose mind a match is and whether the POV character is reading it from outside;
//! this module only says whether words name something felt or thought. The lists are grouped
//! by meaning (the classes of verb.emotion / verb.cognition and adj. of feeling in the usual
//! lexical databases), not by the sentences of any test set.

use std::collections::HashSet;
use std::sync::LazyLock;

/// Verbs whose subject feels something towards what follows: love and hate, wanting, pity.
/// Stated of another character, even negated ("Pike did not care"), they report a feeling.
#[rustfmt::skip]
const FEELING_LEMMAS: &[&str] = &[
    "hate", "loathe", "despise", "detest", "dislike", "abhor", "adore", "enjoy", "relish",
    "savour", "savor", "cherish", "envy", "admire", "pity", "resent", "dread", "mistrust",
    "distrust", "crave", "covet", "yearn", "lament", "rue", "regret", "deplore", "grieve",
    "begrudge", "care", "fear", "like", "love", "prefer", "trust", "fret", "brood", "sulk",
    "despair", "rejoice", "exult", "gloat", "pine", "ache", "hanker", "itch", "long", "wish",
    "hope", "worry", "mind",
];

/// Verbs of private cognition: believing, expecting, deciding, forgetting. Negated they are
/// narrator knowledge ("he never suspected"), which `pov.rs` reads, so only their positive
/// use is a finding here.
#[rustfmt::skip]
const COGNITION_LEMMAS: &[&str] = &[
    "assume", "suppose", "presume", "expect", "suspect", "surmise", "conclude", "deduce",
    "infer", "reckon", "consider", "contemplate", "ponder", "muse", "reflect", "forget",
    "remember", "recall", "recollect", "realise", "realize", "believe", "doubt", "wonder",
    "imagine", "fancy", "decide", "resolve", "intend", "calculate", "speculate", "puzzle",
    "debate", "weigh", "guess", "trust", "question", "dream", "plan", "scheme", "plot",
];

/// Irregular forms the inflection below would get wrong.
#[rustfmt::skip]
const IRREGULAR: &[(&str, &[&str])] = &[
    ("forget", &["forgot", "forgotten", "forgetting", "forgets"]),
    ("dream", &["dreamt", "dreamed"]),
    ("regret", &["regretted", "regretting"]),
    ("prefer", &["preferred", "preferring"]),
    ("infer", &["inferred", "inferring"]),
    ("begrudge", &["begrudged"]),
    ("plan", &["planned", "planning"]),
    ("plot", &["plotted", "plotting"]),
];

/// Verbs that are far more often something seen or done than felt in one of their forms:
/// "questioning the prisoner", "weighing the sack", "planning" of a visible task.
const NOT_INNER_FORMS: &[&str] = &["question", "questioned", "questions", "weigh", "weighs"];

/// The regular forms of a verb: itself, -s, -ed, -ing.
fn inflect(lemma: &str) -> Vec<String> {
    let mut out = vec![lemma.to_string()];
    if let Some((_, forms)) = IRREGULAR.iter().find(|(l, _)| *l == lemma) {
        out.extend(forms.iter().map(|f| (*f).to_string()));
    }
    let consonant_y =
        lemma.ends_with('y') && !lemma[..lemma.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    if consonant_y {
        let stem = &lemma[..lemma.len() - 1];
        out.extend([
            format!("{stem}ies"),
            format!("{stem}ied"),
            format!("{lemma}ing"),
        ]);
    } else if let Some(stem) = lemma.strip_suffix('e') {
        out.extend([
            format!("{lemma}s"),
            format!("{lemma}d"),
            format!("{stem}ing"),
        ]);
    } else if lemma.ends_with(['s', 'x', 'z']) || lemma.ends_with("ch") || lemma.ends_with("sh") {
        out.extend([
            format!("{lemma}es"),
            format!("{lemma}ed"),
            format!("{lemma}ing"),
        ]);
    } else {
        out.extend([
            format!("{lemma}s"),
            format!("{lemma}ed"),
            format!("{lemma}ing"),
        ]);
    }
    out.retain(|f| !NOT_INNER_FORMS.contains(&f.as_str()));
    out
}

fn forms(lemmas: &[&str]) -> HashSet<String> {
    lemmas.iter().flat_map(|l| inflect(l)).collect()
}

static FEELING_FORMS: LazyLock<HashSet<String>> = LazyLock::new(|| forms(FEELING_LEMMAS));
static COGNITION_FORMS: LazyLock<HashSet<String>> = LazyLock::new(|| forms(COGNITION_LEMMAS));

/// A form of a verb of feeling ("loathed", "cares", "envying").
pub(super) fn is_feeling_verb(word: &str) -> bool {
    FEELING_FORMS.contains(word)
}

/// A form of a verb of private cognition ("assumed", "expects", "forgotten").
pub(super) fn is_cognition_verb(word: &str) -> bool {
    COGNITION_FORMS.contains(word)
}

/// Adjectives (and participles used as adjectives) of an inner state: after "was", "felt",
/// or opening a phrase after a comma ("…, satisfied that…", "Anxious to be gone, …").
#[rustfmt::skip]
const STATE_ADJECTIVES: &[&str] = &[
    "relieved", "ashamed", "terrified", "afraid", "frightened", "scared", "worried",
    "desperate", "determined", "sure", "certain", "convinced", "grateful", "jealous",
    "embarrassed", "guilty", "lonely", "heartbroken", "nervous", "anxious", "glad", "sorry",
    "disappointed", "pleased", "thrilled", "delighted", "confused", "curious", "furious",
    "humiliated", "resentful", "envious", "miserable", "elated", "overjoyed", "petrified",
    "proud", "hopeful", "doubtful", "suspicious", "uneasy", "eager", "reluctant", "annoyed",
    "angry", "irritated", "offended", "upset", "bored", "impatient", "troubled", "indignant",
    "bitter", "amused", "disgusted", "horrified", "flattered", "insulted", "vexed",
    "mortified", "excited", "content", "displeased", "dismayed", "enraptured", "touched",
    "enchanted", "charmed", "grieved", "exasperated", "enraged", "distressed", "contemptuous",
    "satisfied", "dissatisfied", "unwilling", "willing", "uncertain", "unsure", "torn",
    "apprehensive", "fearful", "wary", "resigned", "bewildered", "puzzled", "baffled",
    "perplexed", "shocked", "stunned", "astonished", "amazed", "surprised", "homesick",
    "heartsick", "fond", "infatuated", "enamoured", "enamored", "besotted", "keen", "loath",
    "loth", "hesitant", "contented", "discontented", "happy", "unhappy", "sad", "wretched",
    "despondent", "dejected", "downcast", "gloomy", "melancholy", "sorrowful", "joyful",
    "ecstatic", "jubilant", "irritable", "cross", "peevish", "sullen", "resentful", "wistful",
    "nostalgic", "remorseful", "repentant", "penitent", "sheepish", "abashed", "chagrined",
    "humbled", "smug", "complacent", "triumphant", "vindictive", "spiteful", "jealous",
    "possessive", "protective", "tender", "affectionate", "devoted", "lovesick", "lovelorn",
    "panicked", "alarmed", "startled", "dismayed", "appalled", "aghast", "outraged",
    "incensed", "livid", "irate", "galled", "piqued", "nettled", "stung", "wounded", "hurt",
    "betrayed", "aggrieved", "frustrated", "discouraged", "disheartened", "demoralised",
    "demoralized", "defeated", "hopeless", "helpless", "powerless", "ashamed", "conscious",
    "self-conscious", "intimidated", "overawed", "awed", "grudging", "envious", "covetous",
    "greedy", "indifferent", "unmoved", "weary", "tired", "sick", "fed", "restless",
    "preoccupied", "distracted", "absorbed", "engrossed", "intrigued", "fascinated",
    "captivated", "tempted", "inclined", "disinclined", "minded", "resolved", "aware",
    "unaware", "confident", "diffident", "insecure", "shy", "timid", "bashful",
];

/// States that name the body as often as the mind ("tired", "sick", "weary", "hurt"), or a
/// quality as often as a feeling ("tender", "cross", "conscious"): only with what the feeling
/// is about after them ("tired of", "hurt by") do they say what is felt.
const NEED_OBJECT: &[&str] = &[
    "tired",
    "sick",
    "weary",
    "hurt",
    "tender",
    "cross",
    "conscious",
    "fed",
    "restless",
    "absorbed",
    "wounded",
    "stung",
    "protective",
    "possessive",
    "greedy",
    "shy",
    "timid",
    "devoted",
    "content",
    "sure",
    "certain",
    "willing",
    "inclined",
    "minded",
    "aware",
    "keen",
];

static STATES: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| STATE_ADJECTIVES.iter().copied().collect());

/// An adjective of inner state; `next` is the word after it, which some need ("tired of").
pub(super) fn is_state(word: &str, next: Option<&str>) -> bool {
    if !STATES.contains(word) {
        return false;
    }
    if NEED_OBJECT.contains(&word) {
        return matches!(
            next,
            Some("of" | "with" | "by" | "that" | "to" | "about" | "at" | "for")
        );
    }
    true
}

/// Nouns of emotion and of felt sensation: what moves through someone ("a wave of nausea
/// washed over him", "guilt gnawed at him") or what is theirs ("Pike's anger had not cooled").
#[rustfmt::skip]
pub(super) const EMOTION_NOUNS: &[&str] = &[
    "fear", "shame", "anger", "guilt", "relief", "dread", "panic", "grief", "joy", "hope",
    "doubt", "rage", "envy", "jealousy", "longing", "sorrow", "despair", "terror", "horror",
    "embarrassment", "regret", "hatred", "loneliness", "pride", "resentment", "fury",
    "excitement", "unease", "anxiety", "sadness", "misery", "love", "tenderness", "pity",
    "nausea", "disgust", "contempt", "remorse", "humiliation", "indignation", "irritation",
    "annoyance", "impatience", "boredom", "weariness", "gratitude", "affection", "desire",
    "yearning", "loathing", "revulsion", "apprehension", "foreboding", "misgiving",
    "bitterness", "sympathy", "compassion", "triumph", "elation", "delight", "happiness",
    "melancholy", "nostalgia", "homesickness", "self-pity", "suspicion", "curiosity",
    "wonder", "awe", "alarm", "uncertainty", "confusion", "frustration", "disappointment",
    "satisfaction", "glee", "spite", "malice", "courage", "resolve", "fright", "exhaustion",
];

/// Nouns of a held belief, intention or urge: "had a sinking feeling about", "had no
/// intention of", "felt the urge to".
#[rustfmt::skip]
const HELD: &[&str] = &[
    "misgiving", "misgivings", "suspicion", "presentiment", "premonition", "feeling",
    "notion", "conviction", "hunch", "inkling", "sense", "idea", "intention", "urge",
    "impulse", "desire", "wish", "longing", "fear", "dread", "hope", "suspicions", "doubts",
    "horror", "grudge", "hatred", "loathing", "terror", "fondness", "contempt", "weakness",
];

/// What someone "found himself" doing that happens inside: "found himself hoping".
#[rustfmt::skip]
const FOUND_ONESELF: &[&str] = &[
    "hoping", "wishing", "wondering", "thinking", "longing", "missing", "regretting", "liking",
    "admiring", "resenting", "doubting", "believing", "unable", "envying", "pitying", "hating",
    "loving", "dreading", "fearing", "worrying", "praying", "feeling", "remembering",
    "imagining", "picturing", "craving", "yearning", "warming",
];

/// A set phrase of inner life starting at `words[0]` (the words after a subject, lowercase,
/// adverbs already skipped): how many words it spans, if it is one.
pub(super) fn inner_idiom(words: &[&str]) -> Option<usize> {
    let w = |k: usize| words.get(k).copied().unwrap_or("");
    // "bore a grudge against", "nursed a hatred of": holding a feeling.
    let have = |x: &str| {
        matches!(
            x,
            "had" | "has" | "have" | "felt" | "feels" | "bore" | "bears" | "nursed" | "nurses"
                | "harboured" | "harbored" | "harbours" | "harbors" | "cherished"
        )
    };
    let be = |x: &str| matches!(x, "was" | "is" | "were" | "are");
    let could_not = |k: usize| -> Option<usize> {
        match (w(k), w(k + 1)) {
            ("couldn't" | "cannot" | "can't", _) => Some(k + 1),
            ("could" | "can", "not" | "hardly" | "barely" | "scarcely" | "never") => Some(k + 2),
            _ => None,
        }
    };
    // "had no intention of", "had half a mind to", "had a sinking feeling about".
    if have(w(0)) {
        if w(1) == "no" && matches!(w(2), "intention" | "wish" | "desire" | "doubt") {
            return Some(3);
        }
        if w(1) == "half" && w(2) == "a" && w(3) == "mind" {
            return Some(4);
        }
        if matches!(w(1), "a" | "an" | "the") {
            let noun = if HELD.contains(&w(2)) { 2 } else { 3 };
            let after = w(noun + 1);
            if HELD.contains(&w(noun))
                && (noun == 2 || !matches!(w(2), "good" | "bad" | "great"))
                && matches!(
                    after,
                    "that" | "about" | "of" | "to" | "he" | "she" | "they" | "against" | "for"
                )
            {
                return Some(noun + 1);
            }
        }
    }
    // "had made up her mind not to", "found himself hoping", "swore to himself that",
    // "had taken a liking to", "couldn't help but feel".
    let k = usize::from(have(w(0)) || be(w(0)));
    if matches!(w(k), "made" | "makes" | "make")
        && w(k + 1) == "up"
        && matches!(w(k + 2), "his" | "her" | "their")
        && w(k + 3) == "mind"
    {
        // "had made up her mind on the tram that": the decision, whatever it was about.
        return Some(k + 4);
    }
    // "had already settled in her own mind which of her daughters".
    if matches!(w(k), "settled" | "decided" | "resolved")
        && w(k + 1) == "in"
        && matches!(w(k + 2), "his" | "her" | "their")
        && (w(k + 3) == "mind" || (w(k + 3) == "own" && w(k + 4) == "mind"))
    {
        return Some(if w(k + 3) == "own" { k + 5 } else { k + 4 });
    }
    // "had set his heart on winning Tom over".
    if matches!(w(k), "set" | "sets")
        && matches!(w(k + 1), "his" | "her" | "their")
        && w(k + 2) == "heart"
        && matches!(w(k + 3), "on" | "upon")
    {
        return Some(k + 3);
    }
    let oneself = |x: &str| matches!(x, "himself" | "herself" | "themselves");
    if matches!(w(k), "found" | "finds" | "find" | "finding")
        && oneself(w(k + 1))
        && FOUND_ONESELF.contains(&w(k + 2))
    {
        return Some(k + 3);
    }
    if matches!(w(k), "swore" | "swears" | "vowed" | "vows" | "promised" | "promises")
        && (oneself(w(k + 1)) || (w(k + 1) == "to" && oneself(w(k + 2))))
    {
        return Some(k + 2);
    }
    if matches!(w(k), "told" | "tells" | "reminded" | "reminds" | "assured" | "assures")
        && oneself(w(k + 1))
        && matches!(w(k + 2), "that" | "he" | "she" | "they" | "it" | "there" | "not")
    {
        return Some(k + 2);
    }
    // "had taken a strong dislike to": a feeling, with or without a word for how strong.
    let liking = |x: &str| matches!(x, "liking" | "fancy" | "dislike" | "shine" | "aversion");
    if matches!(w(k), "took" | "takes" | "taken") && w(k + 1) == "a" {
        if liking(w(k + 2)) && w(k + 3) == "to" {
            return Some(k + 3);
        }
        if liking(w(k + 3)) && w(k + 4) == "to" {
            return Some(k + 4);
        }
    }
    // "made a mental note", "took pleasure in", "cared nothing for", "lost patience with".
    if matches!(w(0), "made" | "makes") && w(1) == "a" && w(2) == "mental" {
        return Some(3);
    }
    // "took pleasure in", "took a small spiteful pleasure in".
    if matches!(w(0), "took" | "takes" | "taking") {
        let first = if matches!(w(1), "a" | "an") { 2 } else { 1 };
        let pleasure = |x: &str| matches!(x, "pleasure" | "comfort" | "satisfaction" | "delight" | "pride");
        if let Some(n) = (first..first + 3).find(|&n| pleasure(w(n)))
            && matches!(w(n + 1), "in" | "from")
        {
            return Some(n + 1);
        }
    }
    // "had his doubts of her father's hand", "had her misgivings about".
    if have(w(0))
        && matches!(w(1), "his" | "her" | "their")
        && matches!(w(2), "doubts" | "misgivings" | "suspicions" | "fears" | "reservations")
    {
        return Some(3);
    }
    if matches!(w(0), "cared" | "cares") && matches!(w(1), "nothing" | "little" | "not") {
        return Some(2);
    }
    // "was in no mood", "was lost in thought", "was torn between", "was sick with worry",
    // "was filled with dread", "was at a loss", "was dying to", "was in love with".
    if be(w(0)) {
        let k = if matches!(w(1), "not" | "never" | "still" | "already") {
            2
        } else {
            1
        };
        match (w(k), w(k + 1), w(k + 2)) {
            ("in", "no", "mood") | ("lost", "in", "thought" | "thoughts") => return Some(k + 2),
            ("in", "love", "with") | ("at", "a", "loss") => return Some(k + 2),
            ("torn", "between", _) | ("itching" | "dying" | "tempted" | "longing", "to", _) => {
                return Some(k + 1);
            }
            ("sick" | "mad" | "wild" | "beside", "with" | "of" | "himself" | "herself", _) => {
                return Some(k + 1);
            }
            ("filled" | "full" | "overcome" | "seized" | "consumed" | "gripped", _, _)
                if words[k + 1..]
                    .iter()
                    .take(4)
                    .any(|n| EMOTION_NOUNS.contains(n)) =>
            {
                return Some(k + 1);
            }
            _ => {}
        }
    }
    // "could not shake the feeling", "could not bear the thought", "could hardly contain his
    // excitement".
    if let Some(k) = could_not(0) {
        let shake = matches!(w(k), "shake" | "escape" | "dismiss" | "banish" | "suppress")
            && words[k + 1..]
                .iter()
                .take(3)
                .any(|n| HELD.contains(n) || EMOTION_NOUNS.contains(n) || matches!(*n, "thought"));
        let bear = matches!(w(k), "bear" | "stand" | "abide" | "endure" | "stomach")
            && matches!(w(k + 1), "the" | "to" | "it" | "being" | "that");
        let contain = matches!(w(k), "contain" | "forgive" | "forget")
            && matches!(
                w(k + 1),
                "his" | "her" | "their" | "the" | "himself" | "herself"
            );
        // "couldn't help but feel", "could not help wondering".
        let help = w(k) == "help"
            && (w(k + 1) == "but" && matches!(w(k + 2), "feel" | "think" | "wonder" | "wish" | "hope")
                || FOUND_ONESELF.contains(&w(k + 1)));
        if shake || bear || contain || help {
            return Some(k + 1);
        }
    }
    None
}

/// Verbs after which a "to" and a verb of feeling or thought carry the subject's inner life
/// on: "tried to remember", "began to suspect", "came to hate".
pub(super) fn is_onset(word: &str) -> bool {
    matches!(
        word,
        "tried"
            | "tries"
            | "trying"
            | "began"
            | "begins"
            | "begun"
            | "beginning"
            | "started"
            | "starts"
            | "starting"
            | "came"
            | "comes"
            | "continued"
            | "continues"
            | "learned"
            | "learnt"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_forms_find_every_inflection() {
        for w in [
            "loathed",
            "loathes",
            "loathing",
            "pities",
            "pitied",
            "regretted",
            "cares",
        ] {
            assert!(is_feeling_verb(w), "{w}");
        }
        for w in [
            "assumed",
            "expects",
            "forgotten",
            "forgot",
            "pondering",
            "realised",
        ] {
            assert!(is_cognition_verb(w), "{w}");
        }
        assert!(!is_cognition_verb("questioned"));
        assert!(!is_feeling_verb("walked"));
    }

    #[test]
    fn bodily_states_need_what_they_are_about() {
        assert!(is_state("satisfied", None));
        assert!(!is_state("tired", Some(".")));
        assert!(is_state("tired", Some("of")));
    }

    #[test]
    fn set_phrases_of_inner_life_are_found_and_plain_ones_are_not() {
        let found = |s: &str| inner_idiom(&s.split(' ').collect::<Vec<_>>());
        assert_eq!(found("had no intention of paying"), Some(3));
        assert!(found("had a sinking feeling about it").is_some());
        assert!(found("could not shake the feeling that").is_some());
        assert!(found("was lost in thought").is_some());
        assert!(found("was filled with a sudden longing").is_some());
        assert!(found("was filled with water").is_none());
        assert!(found("had a good look at it").is_none());
        assert!(found("could not open the door").is_none());
    }
}
