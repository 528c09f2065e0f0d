//! Verb forms: whether a word is the present third-person form ("walks", "pushes", "hurries")
//! or a past form ("walked", "stopped", "hurried", "went") of a verb in a list of the verbs
//! fiction narrates with, and whether a present form is an event ("she turns") or a state that
//! timeless statements and free indirect thought use ("the harbour is beautiful", "he knows").
//! Words are recognised by taking the inflection off and finding the base in the list, so an
//! unknown word is never taken for a verb: a missed drift costs less than a false one. Past that
//! list, a general lexicon of 6,500 verbs (`verb_forms.tsv`, from LemmInflect's table) names
//! the less common ones ("wrung", "clambers", "sidled"); a form it also knows as a noun or an
//! adjective ("lurches", "tired", "crew") is never taken from it.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// Base forms. A base that is far more often a noun in "-s" ("hand", "eye", "arm", "head")
/// is here but listed again in [`NOUN_LIKE`], which asks for more evidence before reading it
/// as a verb.
#[rustfmt::skip]
const BASES: &[&str] = &[
    "accept", "ache", "add", "admit", "agree", "aim", "allow", "answer", "appear", "argue",
    "arrive", "ask", "attack", "avoid", "back", "bang", "bark", "bathe", "beat", "beg", "begin",
    "bend", "bite", "blink", "block", "blow", "boil", "bolt", "bounce", "bow", "break",
    "breathe", "bring", "brush", "build", "bump", "burn", "burst", "bury", "buy", "call",
    "carry", "catch", "change", "charge", "chase", "check", "chew", "choke", "choose", "chuckle",
    "clap", "clasp", "clean", "clear", "climb", "cling", "close", "clutch", "collapse", "come",
    "continue", "count", "cough", "crack", "crash", "crawl", "creak", "creep", "cross", "crouch",
    "crumble", "crush", "cry", "curl", "curse", "cut", "dance", "dart", "dash", "decide", "dig",
    "dip",
    "disappear", "dive", "drag", "draw", "dress", "drift", "drink", "drip", "drive", "drop",
    "drown", "duck", "dump", "dust", "eat", "edge", "empty", "end", "enter", "escape", "explain",
    "face", "fade", "fail", "fall", "fasten", "feed", "fight", "fill", "find", "finish", "fire",
    "fix", "flap", "flash", "flick", "flicker", "fling", "flinch", "float", "flood", "flow",
    "fly", "fold", "follow", "force", "fumble", "gasp", "gather", "gaze", "gesture", "get",
    "give", "glance", "glare", "gleam", "glide", "glow", "go", "grab", "grasp", "greet", "grin",
    "grind", "grip", "groan", "grope", "growl", "grunt", "guide", "hammer", "hand", "hang",
    "haul", "head", "heave", "help", "hesitate", "hide", "hiss", "hit", "hold", "hop", "hover",
    "howl", "hug", "hum", "hunch", "hurl", "hurry", "join", "jerk", "jump", "keep", "kick",
    "kill", "kiss", "kneel", "knock", "knot", "land", "laugh", "lay", "lead", "lean", "leap",
    "leave", "lick", "lift", "light", "limp", "listen", "load", "lock", "look", "loosen",
    "lower", "lunge", "march", "mend", "motion", "mount", "move", "mumble", "murmur", "mutter",
    "nod", "nudge", "offer", "open", "order", "pace", "pack", "paddle", "paint", "pant", "pass",
    "pat", "pause", "peel", "peer", "perch", "pick", "pile", "pin", "place", "plant", "play",
    "pluck", "plunge", "point", "poke", "pour", "press", "pry", "pull", "pump", "punch", "push",
    "raise", "rattle", "reach", "read", "reply", "rest", "retreat", "return", "ride", "ring", "rip",
    "rise", "roar", "rock", "roll", "rub", "run", "rush", "sail", "scan", "scatter", "scoop",
    "scramble", "scrape", "scratch", "scream", "scrub", "search", "see", "seize", "sell",
    "send", "set", "settle", "shake", "shift", "shine", "shiver", "shout", "shove", "show",
    "shrug", "shudder", "shut", "sigh", "sing", "sink", "sip", "sit", "slam", "slap", "sleep",
    "slide", "slip", "slump", "smash", "smell", "smile", "smirk", "smoke", "snap", "snatch",
    "sneak", "sniff", "snort", "sob", "speak", "spill", "spin", "spit", "splash", "spread",
    "spring", "squat", "squeeze", "squint", "stagger", "stamp", "stand", "stare", "start",
    "stay", "steal", "step", "stick", "stir", "stoop", "stop", "straighten", "stretch", "strike",
    "stroke", "stroll", "struggle", "stuff", "stumble", "suck", "surge", "swallow", "sway",
    "swear", "sweep", "swim", "swing", "take", "talk", "tap", "taste", "tear", "tell", "tie",
    "tighten", "tilt", "toss", "touch", "tow", "trace", "trail", "tremble", "trip", "try", "tuck",
    "tug", "turn", "twist", "unfold", "unlock", "untie", "vanish", "wade", "wait", "wake",
    "walk", "wander", "warn", "wash", "watch", "wave", "wear", "weave", "weep", "whimper",
    "whip", "whirl", "whisper", "whistle", "widen", "wince", "wipe", "work", "wrap", "wrench",
    "write", "yank", "yawn", "yell", "hear", "say", "become", "lose", "meet", "pay", "seek",
    "shoot", "spend", "teach", "win", "forgive", "grow", "throw", "freeze", "bleed", "flee",
    "lend", "sting", "bind", "wind", "fetch", "mark", "pray", "promise", "pretend", "prepare",
    "receive", "refuse", "remain", "repeat", "save", "scowl", "shrink", "spot", "steady",
    "study", "suggest", "sweat", "trust", "unbutton", "use", "visit", "warm", "wrestle",
    "yield", "frown", "peek", "pinch", "pound", "rinse", "rustle", "sag", "scurry", "shuffle",
    "skid", "sling", "slouch", "smack", "smear", "snarl", "sneer", "snore", "soak", "sprint",
    "squeak", "squeal", "stack", "stomp", "strain", "strip", "swipe", "tease", "thump",
    "topple", "totter", "tread", "tumble", "twitch", "wobble", "wriggle", "yelp", "hear",
    "replace", "remove", "reveal", "release", "rear", "cover", "examine", "flutter", "obey",
    "observe", "put", "quiver", "recover", "seat", "smooth", "utter", "unfasten", "approach",
    "address", "advance", "announce", "bid", "carve", "collect", "declare", "descend",
    "ascend", "dine", "drain", "exclaim", "extend", "glimpse", "hasten", "interrupt", "knit",
    "linger", "proceed", "produce", "pronounce", "puff", "rap", "remark", "resume", "retire",
    "rouse", "stride", "undo", "withdraw", "lie", "stroll", "saunter", "trot", "tramp",
    // States and thoughts (see STATES).
    "appear", "belong", "believe", "care", "deserve", "doubt", "fear", "feel", "forget", "guess",
    "hate", "hope", "imagine", "know", "like", "live", "love", "matter", "mean", "mind", "need",
    "notice", "own", "prefer", "realize", "realise", "recognize", "remember", "seem", "sound",
    "suppose", "think", "understand", "want", "wish", "wonder", "worry",
];

/// Bases whose "-s" form is usually a plural noun ("her hands", "the waves"): read as a verb
/// only with a verb's company after it.
#[rustfmt::skip]
const NOUN_LIKE: &[&str] = &[
    "remark", "cover", "seat", "address", "advance", "approach", "produce", "puff", "rap",
    "release", "rear", "lie", "tramp", "trot", "stride", "collect", "extend", "drain",
    "glimpse", "quiver", "flutter", "knit", "carve", "bid", "return", "answer", "reply",
    "hand", "head", "face", "back", "light", "wave", "point", "step", "look", "call", "land",
    "end", "edge", "knot", "pile", "place", "plant", "ring", "rock", "set", "show", "sound",
    "start", "stick", "stuff", "trail", "walk", "work", "order", "motion", "gesture", "lower",
    "mind", "smell", "taste", "wish", "fear", "hope", "need", "love", "care", "fire", "flash",
    "crack", "crash", "cut", "drop", "fold", "glance", "grin", "kiss", "laugh", "nod", "pace",
    "pass", "play", "pin", "rest", "rush", "sail", "scream", "sigh", "slip", "smile", "snap",
    "spring", "stamp", "stroke", "sweep", "tap", "tear", "touch", "trip", "turn", "twist",
    "watch", "whisper", "yell", "charge", "shift", "block", "bolt", "dust", "lock", "help",
    "mount", "pack", "pump", "punch", "load", "hammer", "paint", "scratch", "search", "check",
    "mark", "pound", "stack", "strip", "promise", "visit", "use", "spot", "sweat", "trust",
    "win", "pay", "sting", "wind", "rustle", "snore", "squeal", "thump", "strain", "study",
    "change", "escape", "surge", "answer", "return", "attack", "bark", "howl", "roar", "grip",
    "hug", "shout", "cry", "sob", "chase", "cough", "curse", "dance", "drink", "march", "whistle",
];

/// Present states: a sentence whose only present verb is one of these may be a timeless
/// statement or free indirect thought, not narration slipping tense.
#[rustfmt::skip]
const STATES: &[&str] = &[
    "is", "are", "am", "has", "have", "does", "do", "knows", "know", "seems", "seem", "wants",
    "want", "needs", "need", "likes", "like", "loves", "love", "hates", "hate", "means", "mean",
    "believes", "believe", "remembers", "remember", "thinks", "think", "understands",
    "understand", "hopes", "hope", "wishes", "wish", "fears", "fear", "doubts", "doubt",
    "matters", "belongs", "owns", "lives", "live", "deserves", "prefers", "sounds", "smells",
    "tastes", "looks", "feels", "feel", "appears", "wonders", "wonder", "guesses", "guess",
    "supposes", "suppose", "recognizes", "cares", "care", "minds", "forgets", "forget",
    "imagines", "imagine", "worries", "worry", "notices", "realizes", "realises", "can", "must",
    "will", "shall", "may",
];

/// Irregular pasts, with the bases they belong to.
#[rustfmt::skip]
const IRREGULAR: &[(&str, &str)] = &[
    ("was", "be"), ("were", "be"), ("had", "have"), ("did", "do"), ("said", "say"),
    ("went", "go"), ("saw", "see"), ("took", "take"), ("came", "come"), ("knew", "know"),
    ("thought", "think"), ("felt", "feel"), ("stood", "stand"), ("sat", "sit"), ("ran", "run"),
    ("got", "get"), ("made", "make"), ("told", "tell"), ("found", "find"), ("gave", "give"),
    ("left", "leave"), ("held", "hold"), ("kept", "keep"), ("began", "begin"),
    ("brought", "bring"), ("heard", "hear"), ("meant", "mean"), ("became", "become"),
    ("spoke", "speak"), ("wrote", "write"), ("drew", "draw"), ("grew", "grow"),
    ("threw", "throw"), ("caught", "catch"), ("fought", "fight"), ("taught", "teach"),
    ("bought", "buy"), ("struck", "strike"), ("stole", "steal"), ("woke", "wake"),
    ("rose", "rise"), ("fell", "fall"), ("led", "lead"), ("hung", "hang"), ("shook", "shake"),
    ("swore", "swear"), ("tore", "tear"), ("wore", "wear"), ("broke", "break"),
    ("chose", "choose"), ("froze", "freeze"), ("drove", "drive"), ("rode", "ride"),
    ("hid", "hide"), ("bit", "bite"), ("slid", "slide"), ("spun", "spin"), ("stuck", "stick"),
    ("sank", "sink"), ("sang", "sing"), ("swam", "swim"), ("rang", "ring"), ("won", "win"),
    ("lost", "lose"), ("sent", "send"), ("spent", "spend"), ("built", "build"),
    ("bent", "bend"), ("lent", "lend"), ("slept", "sleep"), ("swept", "sweep"),
    ("wept", "weep"), ("crept", "creep"), ("knelt", "kneel"), ("dealt", "deal"),
    ("paid", "pay"), ("laid", "lay"), ("fled", "flee"), ("fed", "feed"), ("bled", "bleed"),
    ("forgot", "forget"), ("understood", "understand"), ("sought", "seek"),
    ("flung", "fling"), ("clung", "cling"), ("swung", "swing"), ("stung", "sting"),
    ("dug", "dig"), ("strode", "stride"), ("shone", "shine"), ("sprang", "spring"),
    ("ate", "eat"), ("drank", "drink"), ("blew", "blow"), ("flew", "fly"),
    ("withdrew", "withdraw"), ("overheard", "overhear"), ("lit", "light"), ("leapt", "leap"),
    ("lay", "lie"), ("ground", "grind"), ("wove", "weave"), ("spat", "spit"), ("sold", "sell"),
    ("burnt", "burn"), ("knit", "knit"), ("shot", "shoot"), ("met", "meet"), ("wound", "wind"),
];

static BASE_SET: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| BASES.iter().copied().collect());

fn is_base(word: &str) -> bool {
    BASE_SET.contains(word)
}

/// The general lexicon: verb forms past the list above.
struct Lexicon {
    /// Present third-person form → base.
    third: HashMap<&'static str, &'static str>,
    /// Simple past → base, leaving out pasts that are also nouns or adjectives.
    past: HashMap<&'static str, &'static str>,
}

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut lexicon = Lexicon { third: HashMap::new(), past: HashMap::new() };
    // "Thanks to her": the lexicon's verb is far more often the noun of gratitude.
    const NOT_VERBS: &[&str] = &["thank"];
    for line in include_str!("verb_forms.tsv").lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split('\t');
        let (Some(base), Some(pasts), Some(thirds), Some(flags)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if NOT_VERBS.contains(&base) {
            continue;
        }
        // A third person that is also a plural or an adjective ("lurches", "windows"), a past
        // that is also a noun or an adjective ("crew", "tired"): left to the list, which asks
        // such words for a verb's company.
        if !flags.contains('n') {
            for third in thirds.split('/') {
                lexicon.third.entry(third).or_insert(base);
            }
        }
        if !flags.contains('a') {
            for past in pasts.split('/') {
                lexicon.past.entry(past).or_insert(base);
            }
        }
    }
    lexicon
});

/// The base of a present third-person form of a listed verb: "walks" → "walk",
/// "pushes" → "push", "hurries" → "hurry", "goes" → "go".
fn listed_present_third_base(word: &str) -> Option<String> {
    match word {
        "is" => return Some("be".into()),
        "has" => return Some("have".into()),
        "does" => return Some("do".into()),
        "says" => return Some("say".into()),
        "goes" => return Some("go".into()),
        _ => {}
    }
    if word.len() < 3 || !word.ends_with('s') || word.ends_with("ss") || word.contains('\'') {
        return None;
    }
    if let Some(stem) = word.strip_suffix("ies") {
        let base = format!("{stem}y");
        if is_base(&base) {
            return Some(base);
        }
    }
    if let Some(stem) = word.strip_suffix("es")
        && (stem.ends_with(['s', 'x', 'z', 'o']) || stem.ends_with("sh") || stem.ends_with("ch"))
        && is_base(stem)
    {
        return Some(stem.to_string());
    }
    let stem = &word[..word.len() - 1];
    is_base(stem).then(|| stem.to_string())
}

/// The base of a present third-person form: from the list, else from the general lexicon.
pub(super) fn present_third_base(word: &str) -> Option<String> {
    listed_present_third_base(word).or_else(|| LEXICON.third.get(word).map(|b| (*b).to_string()))
}

/// A verb form only the general lexicon knows ("clambers", "wrung"). Capitalised in the
/// middle of a sentence, such a word is a name ("Weathers"), not a verb.
pub(super) fn only_in_lexicon(word: &str) -> bool {
    (listed_present_third_base(word).is_none() && LEXICON.third.contains_key(word))
        || (listed_past_base(word).is_none() && LEXICON.past.contains_key(word))
}

/// The base of a past form of a listed verb: "walked" → "walk", "smiled" → "smile",
/// "stopped" → "stop", "hurried" → "hurry", "went" → "go".
fn listed_past_base(word: &str) -> Option<String> {
    if let Some((_, base)) = IRREGULAR.iter().find(|(past, _)| *past == word) {
        return Some((*base).to_string());
    }
    let stem = word.strip_suffix("ed")?;
    if stem.len() < 2 {
        return None;
    }
    let mut candidates = vec![stem.to_string(), format!("{stem}e")];
    if let Some(s) = stem.strip_suffix('i') {
        candidates.push(format!("{s}y"));
    }
    let b = stem.as_bytes();
    if b.len() >= 2 && b[b.len() - 1] == b[b.len() - 2] {
        candidates.push(stem[..stem.len() - 1].to_string());
    }
    candidates.into_iter().find(|c| is_base(c))
}

/// The base of a past form: from the list, else from the general lexicon.
pub(super) fn past_base(word: &str) -> Option<String> {
    listed_past_base(word).or_else(|| LEXICON.past.get(word).map(|b| (*b).to_string()))
}

/// A present form whose base usually names a thing in "-s" ("hands", "waves").
pub(super) fn is_noun_like(base: &str) -> bool {
    NOUN_LIKE.contains(&base)
}

/// A present verb of state or thought (see [`STATES`]).
pub(super) fn is_state(word: &str) -> bool {
    STATES.contains(&word)
}

/// Bases that are also their own past ("I read it", "I lay there", "I set it down"): after
/// "I" or "they" they say nothing about the tense.
#[rustfmt::skip]
const SAME_IN_PAST: &[&str] = &[
    "lay", "read", "set", "cut", "hit", "shut", "burst", "spread", "put", "let", "cast",
    "hurt", "cost", "quit", "split", "thrust", "beat", "fit", "bet", "rid", "shed", "knit",
];

/// A verb whose past is written as its base ("read", "put", "set").
pub(super) fn is_same_in_past(word: &str) -> bool {
    SAME_IN_PAST.contains(&word)
}

/// A known base form ("walk", "turn"), for "I walk", "they turn".
pub(super) fn is_known_base(word: &str) -> bool {
    is_base(word)
        && !SAME_IN_PAST.contains(&word)
        && !matches!(word, "back" | "end" | "light" | "lower" | "place")
}

/// "-ing" forms that are not verbs.
#[rustfmt::skip]
const NOT_ING: &[&str] = &[
    "nothing", "something", "anything", "everything", "thing", "things", "king", "ring",
    "spring", "string", "wing", "sing", "evening", "morning", "ceiling", "building", "during",
    "darling", "pudding", "sibling", "stocking", "wedding", "awning", "bring", "sting", "swing",
    "cling", "fling", "herring", "shilling", "farthing", "lightning", "being",
];

/// A present participle ("walking", "thinking").
pub(super) fn is_ing(word: &str) -> bool {
    word.len() > 4 && word.ends_with("ing") && !NOT_ING.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_recognised_from_their_bases_only() {
        for (word, base) in [
            ("walks", "walk"),
            ("pushes", "push"),
            ("hurries", "hurry"),
            ("goes", "go"),
            ("reaches", "reach"),
            ("closes", "close"),
        ] {
            assert_eq!(present_third_base(word).as_deref(), Some(base), "{word}");
        }
        for word in ["was", "always", "perhaps", "glass", "news", "its", "bus"] {
            assert_eq!(present_third_base(word), None, "{word}");
        }
        for (word, base) in [
            ("walked", "walk"),
            ("smiled", "smile"),
            ("stopped", "stop"),
            ("hurried", "hurry"),
            ("went", "go"),
            ("knelt", "kneel"),
        ] {
            assert_eq!(past_base(word).as_deref(), Some(base), "{word}");
        }
        for word in ["red", "hundred", "sacred", "bed", "shed"] {
            assert_eq!(past_base(word), None, "{word}");
        }
        assert!(is_noun_like("hand") && !is_noun_like("push"));
        assert!(is_state("is") && is_state("knows") && !is_state("walks"));
        assert!(is_ing("thinking") && !is_ing("nothing") && !is_ing("evening"));
    }

    #[test]
    fn the_general_lexicon_names_less_common_verbs_but_not_their_noun_or_adjective_twins() {
        assert_eq!(present_third_base("clambers").as_deref(), Some("clamber"));
        assert_eq!(past_base("wrung").as_deref(), Some("wring"));
        assert_eq!(past_base("slunk").as_deref(), Some("slink"));
        assert!(only_in_lexicon("sidles") && !only_in_lexicon("walks"));
        // A past that is also an adjective or a noun, a third person that is also a plural.
        for word in ["tired", "crew", "pleased"] {
            assert_eq!(past_base(word), None, "{word}");
        }
        for word in ["clothes", "thanks", "windows", "lurches"] {
            assert_eq!(present_third_base(word), None, "{word}");
        }
        // The list's own readings stand: "hands" is the listed verb, asked for company.
        assert_eq!(present_third_base("hands").as_deref(), Some("hand"));
        assert!(is_noun_like("hand"));
    }
}
