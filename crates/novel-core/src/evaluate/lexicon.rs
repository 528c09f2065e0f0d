//! The word lists behind the heuristics: which words after a subject are a visible action,
//! a past verb, an adverb that may sit between subject and verb, or a word that frames a
//! sentence as memory, speculation or negation (verb forms in general are `verbs.rs`). Kept
//! deliberately small and unambiguous: a word that is often something else ("read", "put",
//! "lay") is left out, because a missed finding costs less than a needless revision.

/// Visible actions of a present, living body (past and present forms). "looked" and "looks"
/// are handled apart: "Bram looked pale" is not an action.
#[rustfmt::skip]
const ACTIONS: &[&str] = &[
    "said", "says", "walked", "walks", "smiled", "smiles", "nodded", "nods", "turned", "turns",
    "grabbed", "grabs", "laughed", "laughs", "spoke", "speaks", "answered", "answers",
    "stepped", "steps", "ran", "runs", "shouted", "shouts", "whispered", "whispers", "called",
    "calls", "asked", "asks", "replied", "replies", "grinned", "grins", "winked", "winks",
    "shrugged", "shrugs", "waved", "waves", "reached", "reaches", "pointed", "points", "stood",
    "stands", "entered", "enters", "opened", "opens", "took", "takes", "handed", "hands",
    "pushed", "pushes", "pulled", "pulls", "climbed", "climbs", "jumped", "jumps", "lifted",
    "lifts", "raised", "raises", "kissed", "kisses", "muttered", "mutters", "murmured",
    "murmurs", "sighed", "sighs", "frowned", "frowns", "glanced", "glances", "watched",
    "watches", "leaned", "leans", "came", "comes", "went", "goes", "knelt", "kneels",
    "crouched", "crouches", "snapped", "snaps", "yelled", "yells", "hissed", "hisses", "drew",
    "draws", "strode", "strides", "hurried", "hurries", "winced", "winces", "chuckled",
    "chuckles", "growled", "growls", "barked", "barks", "gestured", "gestures",
];

#[rustfmt::skip]
const LOOK_DIRECTIONS: &[&str] = &[
    "at", "toward", "towards", "around", "back", "over", "up", "down", "away", "across",
    "out", "round", "through", "into", "in", "on", "about", "along", "behind", "past", "for",
    "from", "after", "upon", "beyond", "under", "again", "hard", "steadily", "keenly",
];

/// Irregular past forms that are never present forms too ("read", "put", "cut" are both).
#[rustfmt::skip]
const IRREGULAR_PAST: &[&str] = &[
    "was", "were", "had", "did", "said", "went", "saw", "took", "came", "knew", "thought",
    "felt", "stood", "sat", "ran", "got", "made", "told", "found", "gave", "left", "held",
    "kept", "began", "brought", "heard", "meant", "became", "spoke", "wrote", "drew", "grew",
    "threw", "caught", "fought", "taught", "bought", "struck", "stole", "woke", "rose", "fell",
    "led", "hung", "shook", "swore", "tore", "wore", "broke", "chose", "froze", "drove", "rode",
    "hid", "bit", "slid", "spun", "stuck", "sank", "sang", "swam", "rang", "won", "lost",
    "sent", "spent", "built", "bent", "lent", "slept", "swept", "wept", "crept", "knelt",
    "dealt", "paid", "laid", "fled", "fed", "bled", "forgot", "understood", "sought", "flung",
    "clung", "swung", "stung", "dug", "strode", "shone", "sprang", "ate", "drank", "blew",
    "flew", "withdrew", "overheard",
];

/// Words ending in "ed" that are not past tenses.
#[rustfmt::skip]
const NOT_PAST_ED: &[&str] = &[
    "need", "bleed", "feed", "speed", "breed", "proceed", "succeed", "exceed", "heed", "seed",
    "weed", "shed", "bed", "red", "wed", "embed", "shred", "naked", "sacred", "wicked",
    "hundred", "beloved", "ragged", "rugged", "jagged", "crooked",
];

/// Words that may stand between a subject and its verb ("she slowly turns").
#[rustfmt::skip]
const BETWEEN: &[&str] = &[
    "still", "always", "never", "just", "already", "also", "suddenly", "finally", "only",
    "even", "then", "now", "almost", "barely", "quickly", "slowly", "simply", "instead",
    "again", "too", "quite", "rather", "half", "long", "ago", "soon", "often", "hardly",
    "scarcely", "ever", "once", "much",
];

/// What "felt" must be followed by to be an emotion rather than a touch.
#[rustfmt::skip]
pub(super) const FEELINGS: &[&str] = &[
    "afraid", "sad", "guilty", "ashamed", "angry", "relieved", "happy", "lonely", "hurt",
    "betrayed", "sick", "sorry", "fear", "guilt", "shame", "anger", "relief", "joy", "dread",
    "hope", "regret", "nothing", "numb", "lost", "scared", "nervous", "anxious", "proud",
    "jealous", "embarrassed", "uneasy", "torn", "trapped", "that", "a", "an", "suddenly",
    "strangely", "oddly", "bitterly", "deeply", "glad", "grateful", "tired", "exhausted",
    "furious", "calm", "small", "foolish", "stupid", "old", "helpless",
];

/// Words before a name that make what follows the POV character's perception or guess
/// ("She could tell Bram knew", "Maybe Bram hoped…").
#[rustfmt::skip]
pub(super) const INFERENCE: &[&str] = &[
    "saw", "see", "sees", "seeing", "watched", "tell", "guessed", "guess", "suspected",
    "sensed", "noticed", "realized", "realised", "knew", "know", "thought", "think", "wondered",
    "wonder", "hoped", "imagined", "imagine", "figured", "bet", "doubted", "believed", "seemed",
    "seems", "maybe", "perhaps", "probably", "surely", "if", "whether", "what", "whatever",
    "how", "why", "though", "sure", "certain", "convinced", "feared", "hope", "suspect",
    "doubt", "unless", "read", "reading", "must", "likely", "clearly", "obviously",
    "believe", "believes", "fancy", "fancied", "suppose", "supposed", "expect", "expected",
    "daresay", "verily", "satisfied", "persuaded", "assured", "observe", "observed",
    "observing", "perceive", "perceived", "perceiving", "notice", "noticing", "discovered",
    "discover",
];

/// Words that frame a sentence as memory, dream, wish or counterfactual.
#[rustfmt::skip]
pub(super) const FRAMING: &[&str] = &[
    "remembered", "remember", "remembers", "recalled", "recall", "recalls", "memory",
    "memories", "dreamed", "dreamt", "dream", "dreams", "imagined", "imagine", "imagines",
    "pictured", "picture", "ghost", "spirit", "vision", "once", "would", "ago", "before",
    "photograph", "photo", "portrait", "wished", "wish", "wishes", "if", "had", "never",
    "longer", "could", "might", "should", "used", "funeral", "grave", "corpse", "body", "died",
    "death", "dead", "buried", "mourned", "missed", "miss", "years", "childhood", "girl", "boy",
    "child", "young", "younger", "yesterday", "past",
];

/// Words that make a sentence about an item something other than using it now.
#[rustfmt::skip]
pub(super) const NOT_USING: &[&str] = &[
    "not", "never", "no", "without", "longer", "remembered", "remember", "recalled", "missing",
    "gone", "lost", "wished", "wish", "would", "could", "had", "empty", "imagined", "dreamed",
    "dreamt", "memory", "once", "phantom", "ghost", "absence", "might", "should", "habit",
    "search", "searched", "searching", "missed", "miss", "thought", "dream",
];

/// Using a held object.
#[rustfmt::skip]
pub(super) const USE_VERBS: &[&str] = &[
    "drew", "draws", "gripped", "grips", "held", "holds", "raised", "raises", "used", "uses",
    "pulled", "pulls", "unsheathed", "unsheathes", "opened", "opens", "clutched", "clutches",
    "wielded", "wields", "brandished", "brandishes", "swung", "swings", "fired", "fires",
    "unfolded", "unfolds", "consulted", "consults", "checked", "checks", "lifted", "lifts",
    "aimed", "aims", "pointed", "points", "wound", "winds", "unlocked", "unlocks",
];

pub(super) fn is_in(list: &[&str], word: &str) -> bool {
    list.contains(&word)
}

/// A visible action; `next` is the word after it, which decides "looked at" from "looked pale".
pub(super) fn is_action(word: &str, next: Option<&str>) -> bool {
    if matches!(word, "looked" | "looks") {
        return next.is_some_and(|n| LOOK_DIRECTIONS.contains(&n));
    }
    ACTIONS.contains(&word)
}

/// An adverb that may stand between subject and verb.
pub(super) fn is_between(word: &str) -> bool {
    BETWEEN.contains(&word) || (word.len() > 4 && word.ends_with("ly"))
}

/// A past finite verb: irregular, or regular "-ed".
pub(super) fn is_past(word: &str) -> bool {
    IRREGULAR_PAST.contains(&word)
        || (word.len() >= 4
            && word.ends_with("ed")
            && !word.contains('\'')
            && !NOT_PAST_ED.contains(&word))
}
