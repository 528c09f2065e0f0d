//! What lies beyond the POV character's reach, read from what the sentence says about it
//! rather than from one fixed phrase each: a sight they would have had if they had looked
//! ("Had she held it to her ear she would have heard nothing", "Were she to turn her head, she
//! would see him"); a fate told from after the story's moment ("the last time the book would
//! be opened", "Before the year is out he will be taken out of the river", "Years afterwards
//! … neither of them would speak of it"); a secret kept from everyone ("a thing he told no one
//! to the day of his death", "with no one the wiser", "it escaped every eye at the table");
//! what nobody there noticed ("Nobody in the square paid the least attention to"); what
//! happens the moment their back is turned, while they are away ("While I was gone, Brannock
//! turned the ledger round") or asleep ("I fell asleep over my book. John came up long after
//! and sat an hour by the bed"); somewhere else at the same moment ("At that hour, in a house
//! in Baggot Street, the slavey was…"); another person's past told flatly; what the POV
//! character did not see ("Nor did he see the barefoot boy"); and what nobody ever learned.
//! What happens where the POV character is not, or before they came, is `absent.rs`'s, which
//! shares this module's helpers.
//!
//! `pov.rs` makes each a note: a counterfactual may be the POV character's own wistful
//! reckoning, a fate or a secret may be hearsay they have had, and a first-person narrator
//! looking back may have learned it since, so the writer decides.

use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::text::Sentence;
use crate::config::{PointOfView, Tense};

/// Something beyond the POV character's reach found in a sentence: where its words start in
/// the prose, the words, and why it breaks deep point of view.
pub(super) struct Beyond {
    pub at: usize,
    pub phrase: String,
    pub why: &'static str,
}

const UNSEEN: &str = "tells what the POV character would have seen had they looked, which they did not";
const AFTER: &str = "looks forward from a later time the POV character has not reached";
pub(super) const SECRET: &str = "tells a secret nobody in the scene knew, the POV character included";
const ASLEEP: &str = "tells what happens while the POV character is asleep";
const PAST: &str = "tells another person's past the POV character has no way to know";
pub(super) const ELSEWHERE: &str = "jumps to a place the POV character is not, at the same moment";
const UNNOTICED: &str = "tells what nobody there noticed, the POV character included";
pub(super) const AWAY_WHY: &str = "tells what happens where the POV character is not";
const BACK_TURNED: &str = "tells what happens behind the POV character's back";

/// Someone the narration may name in the patterns below: a pronoun or a capitalised name.
pub(super) const WHO: &str = r"(?:she|he|they|I|we|(?-i:[A-Z][\w'’]+))";

/// An inverted condition ("Had she held it", "Were she to turn") and, later in the sentence,
/// what would have been perceived.
static COUNTERFACTUAL: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(&format!(
        r"(?i)(?:^|[,;:—–]\s*)\W*(?:but\s+)?(?:had|were|should)\s+{WHO}\s+(?:only\s+|but\s+|once\s+)?(?:to\s+)?\w+[^.;?!]{{0,90}}?\b{WHO}\s+(?:(?:would|should|could|might)\s+have\s+(?:seen|heard|noticed|found|known|caught sight|spotted|felt)|(?:would|should|might)\s+(?:see|hear|notice|catch sight|spot))\b"
    ))
    .expect("constant pattern")
});

/// "(as I found when the magistrate turned it a month later)": the narrator says how they
/// came to know.
static LEARNED_SINCE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bas (?:I|we|she|he|they) (?:found|learned|learnt|discovered|heard|was told|were told)\b")
        .expect("constant pattern")
});

/// The future told from after the story's moment, by a marker of later time and a "would" or
/// "will" after it.
static LATER: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(
        r"(?i)\bthe last (?:[\w'’]+\s+){1,3}?(?:she|he|they|(?-i:[A-Z][\w'’]+)) (?:will|would) ever\b|\bthe last (?:time|occasion|night|evening|morning|day)\s+(?:that\s+)?(?:[\w'’]+\s+){1,5}?(?:would|was to|were to)\s+(?:ever\s+)?\w+|^\W*(?:(?:many|some|a few|two|three|four|five|ten|twenty|thirty|forty|fifty)\s+)?(?:years|months|decades|long)\s+(?:afterwards?|hence|after that|later)\b[^.;!?]*?\b(?:would|will)\b|\bbefore the (?:week|month|year|season|summer|winter|spring|autumn|term) (?:is|was) out\b[^.;!?]*?\b(?:will|would|shall)\b|\b(?:will|would) end (?:their|his|her|its) days\b|\bwould never be (?:[a-z]+ed|written|finished|sent|read|found|seen|known|spoken|taken|given|broken|worn|paid)\b",
    )
    .expect("constant pattern")
});

/// What no one came to know: told to no one, the wiser, unremarked by everyone.
static KEPT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(
        r"(?i)\bto the day of (?:his|her|their) death\b|\bto (?:his|her|their) dying day\b|\b(?:took|carried) (?:it|the secret|(?:his|her|their) secret) (?:with (?:him|her|them) )?to (?:his|her|their) grave\b|\b(?:with )?(?:no one|nobody|none) (?:else )?the wiser\b|\bescaped (?:every|all|everyone['’]s|the) (?:eye|eyes|notice|attention)\b|\b(?:passed|went) (?:unremarked|unnoticed|unobserved)\b|\b(?:unremarked|unobserved|unnoticed|unseen) by (?:the whole|the entire|every|everyone|everybody|all)\b|\b(?:unread|unopened|undiscovered|untouched)\s+(?:to this day|ever since|for (?:\w+\s+){0,2}(?:days|weeks|months|years))\b|\b(?:lay|lies|remained|remains)\s+(?:a|two|three|four|five|six|seven|several|many|some)\s+(?:days|weeks|months|years)\s+(?:unread|unopened|untouched|undiscovered)\b|\b(?:has|had|have) never been told\b[^.;!?]{0,20}?\bnever will be\b|\bthough (?:nobody|no one|none)\b[^.;!?]{0,30}?\b(?:suspects?|suspected|knows?|knew|guess(?:es|ed)?|notices?|noticed|discover(?:s|ed)?|found out|learn(?:s|ed|t))\b|\b(?:nobody|no one)\s*,\s*(?:then or (?:since|later|ever|afterwards)|(?:then|ever) or since)\s*,|\b(?:nobody|no one)(?: in (?:the|this|that) \w+| of (?:them|us))? (?:has |had )?ever (?:discovered|found out|learned|learnt|guessed|knew|suspected)\b|,\s*and (?:nobody|no one) ever (?:would|will)\b",
    )
    .expect("constant pattern")
});

/// Another person's past told flatly ("Twenty years before, under another name, he had been
/// clerk to the very banker"): the subject, when it is not the POV character.
static OTHERS_PAST: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:(?:some|many|a few|two|three|four|five|six|ten|twelve|fifteen|twenty|thirty|forty|fifty)\s+)?(?:years|months|decades)\s+(?:before|earlier|ago),\s*(?:[^,;.]{1,40},\s*)?(she|he|they|I|we|(?-i:[A-Z][\w'’]+))\s+had\b")
        .expect("constant pattern")
});

/// "At Lucas Lodge that same hour, Charlotte was telling": a named place, then the same time.
static SAME_HOUR_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"^\W*(?i:at|in|on|down|up|back|over|across)\s+(?:the\s+)?[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*)*,?\s+(?i:that|this|the)\s+(?i:same|very)\s+(?i:moment|instant|hour|time|night|evening|morning|afternoon|day)\b")
        .expect("constant pattern")
});

/// The same moment, and a place set apart by commas, in either order: "At that hour, in the
/// area of a house in Baggot Street, the slavey was pressing", "At this hour, far away on a
/// muddy northern road, my Lady is walking", "Upstairs, behind the brass plate, Mr Alleyne
/// was at that moment dictating".
static SAME_TIME_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    let moment = r"(?:at|in) (?:that|this|the same|that same|this same|that very|this very) (?:moment|instant|minute|hour|time)";
    let place = r"(?:(?:far away|far off|miles away|away|elsewhere|upstairs|downstairs|next door)(?:\s+(?:in|at|on|across|over|down|up|beyond|along)\s[^,;.]{2,60})?|(?:in|at|on|across|over|down|up|beyond|along)\s[^,;.]{2,60})";
    super::pattern::compile(&format!(
        r"(?i)^\W*{moment}\s*,\s*{place},\s+\S|^\W*{place},\s+(?:[^,;.]{{1,50}},\s+)?[^.;]{{0,60}}?\b{moment}\b"
    ))
    .expect("constant pattern")
});

/// "Behind me, Silver stooped over the body", "Behind the closed door he stood listening":
/// at the POV character's back, or behind a door they have shut.
static BEHIND: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*behind (?:me|us|him|her|them|the (?:closed |shut |locked )?door),\s+[^.;!?]{3,}")
        .expect("constant pattern")
});

/// The POV character just gone: "The moment his step has died away", "When the street door
/// has banged below"; the possessive, when there is one.
static JUST_GONE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:the moment|the instant|as soon as|once|when|after)\s+(?:(his|her|their|my|our)\s+(?:step|steps|footsteps|footfall)\s+(?:has|had|have)\s+(?:died away|faded|ceased)|the (?:street |front |outer )?door (?:has|had) (?:banged|slammed|closed|shut) (?:below|behind (him|her|them|me|us)))")
        .expect("constant pattern")
});

/// What the POV character did not see, told all the same: "Nor did he see the barefoot boy
/// who fell in behind him", "nothing escapes him, save only the veiled figure at an upper
/// window".
static NOT_SEEN: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*nor did (she|he|they|I|we) (?:see|notice|hear|observe|mark|catch sight of|guess|suspect)\b|\b(?:nothing|no one|nobody) escapes? (him|her|them|me|us)\b[^.;!?]{0,10}?\b(?:save|except|but)\b")
        .expect("constant pattern")
});

/// Told from after, in the narrator's present: "It will bring me none, as it turns out".
static AS_IT_TURNS_OUT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bas it (?:turns|turned|will turn) out\b").expect("constant pattern")
});

/// What the POV character believes, corrected: "It was in truth a candle in the passage",
/// "In truth it was old Mr Crosbie who had sent Peake away".
static IN_TRUTH: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*in (?:truth|reality),?\s+it (?:was|had been)\b|\bit was in (?:truth|reality)\b")
        .expect("constant pattern")
});

/// Everyone asleep but the one acting: "while the rest of us slept"; seen from nowhere:
/// "where no one in the street could see her face".
static UNSEEN_BY_ANY: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bwhile (?:the rest of (?:us|them)|we all|all of us|everyone|everybody|the (?:house|ship|crew|household)) (?:slept|was asleep|were asleep|lay asleep)\b|\bwhere (?:no one|nobody|none of (?:us|them))\b[^,;.]{0,30}?\b(?:could|can|would)\s+(?:see|hear|watch|notice)\b")
        .expect("constant pattern")
});

/// Told to no one ("a thing he told no one", "a joke she never afterwards shared with
/// anyone"), with the word before it: a secret of the POV character's own is hers to know.
static UNTOLD: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)(?:\b([\w'’]+)\s+(?:had\s+|has\s+)?)?\b(?:never (?:once\s+)?(?:afterwards\s+)?(?:spoke|spoken|told|breathed|mentioned|shared)\b[^.;!?]{0,30}?\b(?:to|with) (?:a living soul|any living soul|anyone|anybody|a soul)\b|(?:told|breathed (?:it|a word) to) (?:no one|nobody|no living soul)\b|\b(?:been told|paid|bribed|sworn|ordered) to say nothing\b[^.;!?]{0,20}?\bto (?:anyone|anybody|a soul)\b)")
        .expect("constant pattern")
});

/// Somewhere just out of sight, opening the sentence, and someone there at work: "Downstairs,
/// Jennie is reading my letter aloud", "Down in the forecastle, while we drank, Silver was
/// telling the hands".
static OUT_OF_SIGHT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:upstairs|downstairs|next door|overhead|below stairs|(?:down|up|out|over|back) in the [\w'’-]+(?:\s+[\w'’-]+){0,5}?|in the (?:next|other|back|inner) room|beyond the wall|on the other side of the (?:wall|door|partition)|(?:aboard|on board) (?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+)?|outside (?:my|our|his|her|the) (?:door|window|room|house)(?:,\s+where [^,;.]{1,40})?),\s+(?:[^,;.]{1,60},\s+)?(?:[\w'’.]+\s+){1,4}?(?:(?:is|are|was|were)\s+(?:already\s+|quietly\s+|still\s+|all\s+)?[a-z]+ing|(?:has|have|had)\s+(?:already\s+|just\s+|quietly\s+)?(?:been\s+[a-z]+ing|[a-z]{3,}))\b")
        .expect("constant pattern")
});

/// What nobody there took in, opening the sentence: "Nobody in Serpentine Avenue paid the
/// least attention to", "No one in the little square marked the pale face"; the word after
/// the verb, when it is the POV character, makes it their own sense of being unobserved.
static NOBODY_NOTICED: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:(?:in|amid|amidst|during|through|for all|with all|at)\s[^,;.!?]{2,30}?,?\s+)?(?:nobody|no one|not one of (?:them|us)|none of (?:them|us))\b[^.;!?]{0,40}?\b(?:saw|sees|noticed|notices|marked|marks|observed|observes|remarked|remarks|paid (?:the least |the slightest |any |much )?(?:attention|heed)|pays (?:the least |the slightest |any |much )?(?:attention|heed))\s+(?:to\s+)?([\w'’]+)")
        .expect("constant pattern")
});

/// Knowledge the story never reaches: "She was never to learn that", "Not one of them will
/// ever learn where", "a thing I shall never find out", "of this I have not the least
/// suspicion"; with the word before it, whose own plan "she will never know" may be.
static NEVER_LEARNED: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:was|were|is|are) never to (?:learn|know|find out|discover|guess)\b|(?:\b([\w'’]+)\s+)?\b(?:will|shall|would) (?:ever|never) (?:learn|know|find out|discover|guess)\b|\bnot the (?:least|slightest|faintest) (?:suspicion|idea|notion|inkling)\b|\b(?:has|had|have) never (?:reached|come to) (?:me|us|my ears|our ears)\b|(?:\b([\w'’]+)\s+)?\b(?:will|shall|would) not (?:discover|learn|find out|notice|miss|know|open|read)\b[^.;!?]{0,60}?\buntil\b")
        .expect("constant pattern")
});

/// The future perfect in narration: "the chase will have ended at the iron gate".
static WILL_HAVE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)(?:\b([\w'’]+)\s+)?\bwill have (?:[a-z]+ed|been|gone|begun|done|fallen|risen|run|come|died|left|grown|known|seen|taken|spent)\b")
        .expect("constant pattern")
});

/// The POV character away: "While I was gone, Brannock turned the ledger round", "in her
/// absence", "When I had gone up, my father told him", "As the street door shut behind me",
/// "past the bend where I could no longer see him"; and someone else out of their sight:
/// "Once he was out of sight of the stile".
static AWAY: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:while|when|after) (she|he|they|I|we) (?:was|were|had been) (?:gone|away|out|absent|upstairs|downstairs|below|out of (?:the room|the house|sight|earshot))\b|\bin (her|his|their|my|our) absence\b|^\W*in the (?:hour|hours|time|while|minutes?|days?|weeks?) (?:that )?(she|he|they|I|we) (?:has|had|have) been (?:away|gone|out|absent)\b|^\W*(?:when|after|once|as soon as|the moment) (she|he|they|I|we|(?-i:[A-Z][\w'’]+)) had (?:gone|left)(?: (?:up|out|away|down|upstairs|downstairs|to bed|the room|the house))?\s*,|\bas the (?:[\w'’-]+ )?door (?:shut|closed|swung shut|banged) behind (her|him|them|me|us)\b|\bwhere (she|he|they|I|we|(?-i:[A-Z][\w'’]+)) (?:could|can) no longer (?:see|hear)\b")
        .expect("constant pattern")
});
static OUT_OF_THEIR_SIGHT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*once (she|he|they|(?-i:[A-Z][\w'’]+)) (?:was|were|had got|had gone) out of (?:sight|earshot|view)\b")
        .expect("constant pattern")
});

/// "As the door shut behind me, I heard him laugh": the POV character, gone, still hears
/// or sees what the sentence tells.
static STILL_PERCEIVES: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(she|he|they|I|we|(?-i:[A-Z][\w'’]+)) (?:heard|could hear|could still hear|overheard|caught|saw|could see|could still see|glimpsed)\b")
        .expect("constant pattern")
});

fn still_perceives(ctx: &Ctx<'_>, narration: &str) -> bool {
    STILL_PERCEIVES
        .captures_iter(narration)
        .any(|caps| caps.get(1).is_some_and(|w| is_pov_word(ctx, w.as_str())))
}

/// "No sooner is his back turned than", "the moment her back was turned".
static BACK: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:no sooner|as soon as|the moment|the instant|once|while|when|whilst)\s+(?:is|was|had|has)?\s*(his|her|their|my)\s+back\s+(?:is\s+|was\s+|had been\s+|been\s+)?turned\b")
        .expect("constant pattern")
});

/// "with no eye upon him": unwatched, and a leak when "him" is not the POV character.
static UNWATCHED: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bwith no (?:eye|one|witness)\s+(?:up)?on (him|her|them|me)\b")
        .expect("constant pattern")
});

/// The POV character falling or being asleep, as the subject of the clause.
static SLEEPS: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(she|he|they|I|we|(?-i:[A-Z][\w'’]+))\b[^,;:.!?]{0,60}?\b(?:fell asleep|was asleep|were asleep|slept|went to sleep|went (?:up )?to bed|gone (?:up )?to bed|turned in|dozed off|drifted off to sleep|dropped off)\b|\bsleep (?:came|had come) to (her|him|them|me|us)\b")
        .expect("constant pattern")
});

/// Opening a sentence after the POV character has gone to sleep: the night goes on without them.
static LATER_THAT_NIGHT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:long after|later that night|late that night|in the night|during the night|all (?:that )?night|some time in the night|in the small hours|towards? (?:dawn|morning)|an hour later|hours later)\b")
        .expect("constant pattern")
});

/// After the POV character falls asleep, what tells the reader they are awake again.
#[rustfmt::skip]
const AWAKE: &[&str] = &[
    "woke", "wake", "wakes", "awoke", "awake", "awakened", "waking", "morning", "breakfast",
    "dreamed", "dreamt", "dream", "heard", "saw", "felt", "roused",
];

/// What in sentence `s` (after `before`, the narration sentence just before it, if any) lies
/// beyond the POV character's reach.
pub(super) fn beyond(ctx: &Ctx<'_>, s: &Sentence, before: Option<&Sentence>) -> Option<Beyond> {
    let narration = ctx.prose.narration(s);
    let first_past = ctx.input.pov == PointOfView::First && ctx.input.tense == Tense::Past;
    let found = |m: regex::Match<'_>, why| Beyond {
        at: s.start + m.start(),
        phrase: m
            .as_str()
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_string(),
        why,
    };
    if let Some(m) = COUNTERFACTUAL.find(narration)
        && !learned_since(narration)
    {
        return Some(found(m, UNSEEN));
    }
    // A first-person narrator looking back may tell what came later; not what nobody knew.
    if !first_past
        && let Some(m) = LATER.find(narration)
        && !own_plan(ctx, m.as_str())
    {
        return Some(found(m, AFTER));
    }
    if let Some(m) = KEPT.find(narration)
        && !(ctx.input.pov == PointOfView::First && has_narrator_word(&narration[..m.start()]))
    {
        return Some(found(m, SECRET));
    }
    if let Some(caps) = UNTOLD.captures(narration)
        && caps.get(1).is_none_or(|who| !is_pov_word(ctx, who.as_str()))
        && !(ctx.input.pov == PointOfView::First && has_narrator_word(&narration[..caps.get(0)?.start()]))
    {
        let whole = caps.get(0)?;
        let from = caps.get(1).map_or(whole.start(), |m| m.end());
        return Some(Beyond {
            at: s.start + from,
            phrase: narration[from..whole.end()].trim_start().to_string(),
            why: SECRET,
        });
    }
    if let Some(caps) = OTHERS_PAST.captures(narration)
        && caps.get(1).is_some_and(|who| !is_pov_word(ctx, who.as_str()))
    {
        return caps.get(0).map(|m| found(m, PAST));
    }
    if let Some(caps) = NOBODY_NOTICED.captures(narration)
        && caps.get(1).is_none_or(|w| !is_pov_word(ctx, w.as_str()))
    {
        return caps.get(0).map(|m| found(m, UNNOTICED));
    }
    if let Some(caps) = NEVER_LEARNED.captures(narration)
        && caps.get(1).or_else(|| caps.get(2)).is_none_or(|w| {
            // Someone who could learn it ("it will never learn" is reason, not a person).
            let person = matches!(w.as_str(), "he" | "she" | "they" | "I" | "we" | "them" | "us" | "He" | "She" | "They" | "We")
                || w.as_str().starts_with(char::is_uppercase);
            person && (!is_pov_word(ctx, w.as_str()) || relative_before(narration, w.start()))
        })
        && !own_plan(ctx, narration)
    {
        return caps.get(0).map(|m| found(m, AFTER));
    }
    if let Some(caps) = WILL_HAVE.captures(narration)
        && caps.get(1).is_none_or(|w| !is_pov_word(ctx, w.as_str()))
        && !own_plan(ctx, narration)
    {
        return caps.get(0).map(|m| found(m, AFTER));
    }
    if let Some(caps) = AWAY.captures(narration)
        && (1..=6)
            .find_map(|g| caps.get(g))
            .is_some_and(|w| is_pov_word(ctx, w.as_str()))
        && !still_perceives(ctx, narration)
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    if let Some(caps) = OUT_OF_THEIR_SIGHT.captures(narration)
        && caps.get(1).is_some_and(|w| !is_pov_word(ctx, w.as_str()))
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    if let Some(m) = OUT_OF_SIGHT.find(narration)
        && !perceived(narration)
    {
        return Some(found(m, ELSEWHERE));
    }
    if let Some(m) = SAME_HOUR_ELSEWHERE
        .find(narration)
        .or_else(|| SAME_TIME_ELSEWHERE.find(narration))
        .filter(|_| !perceived(narration))
    {
        return Some(found(m, ELSEWHERE));
    }
    if let Some(m) = BEHIND.find(narration)
        && !perceived(narration)
        && someone_else_acts(ctx, s)
    {
        return Some(found(m, BACK_TURNED));
    }
    if let Some(caps) = JUST_GONE.captures(narration)
        && caps
            .get(1)
            .or_else(|| caps.get(2))
            .is_some_and(|w| is_pov_word(ctx, w.as_str()))
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    if let Some(caps) = NOT_SEEN.captures(narration)
        && caps
            .get(1)
            .or_else(|| caps.get(2))
            .is_some_and(|w| is_pov_word(ctx, w.as_str()))
    {
        return caps.get(0).map(|m| found(m, UNNOTICED));
    }
    if let Some(m) = AS_IT_TURNS_OUT.find(narration)
        && !(ctx.input.pov == PointOfView::First && ctx.input.tense == Tense::Past)
    {
        return Some(found(m, AFTER));
    }
    if let Some(m) = IN_TRUTH.find(narration) {
        return Some(found(m, SECRET));
    }
    if let Some(m) = UNSEEN_BY_ANY.find(narration) {
        return Some(found(m, UNNOTICED));
    }
    // Behind whose back matters: the POV character's. Unwatched: someone else, whom the POV
    // character did not watch either.
    for (pattern, why, about_pov) in [(&*BACK, BACK_TURNED, true), (&*UNWATCHED, SECRET, false)] {
        if let Some(caps) = pattern.captures(narration)
            && caps
                .get(1)
                .is_some_and(|who| is_pov_word(ctx, who.as_str()) == about_pov)
        {
            return caps.get(0).map(|m| found(m, why));
        }
    }
    while_asleep(ctx, s, before?).map(|at| Beyond {
        at,
        phrase: narration
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" "),
        why: ASLEEP,
    })
}

/// Someone other than the POV character acting in `s` just after the POV character has gone
/// to sleep in `before`, with nothing that wakes them: where `s` starts in the prose.
fn while_asleep(ctx: &Ctx<'_>, s: &Sentence, before: &Sentence) -> Option<usize> {
    let told = ctx.prose.narration(before);
    let caps = SLEEPS.captures(told)?;
    let sleeper = caps.get(1).or_else(|| caps.get(2))?.as_str();
    if !is_pov_word(ctx, sleeper) {
        return None;
    }
    // "I slept at Baker Street that night, and in the morning…": awake again already.
    // "…and was back in his chair before I woke": waking later, not awake yet.
    let woken = |text: &str| {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        words.iter().enumerate().any(|(k, w)| {
            AWAKE.contains(&w.as_str())
                && !words[k.saturating_sub(2)..k]
                    .iter()
                    .any(|b| matches!(b.as_str(), "before" | "until" | "till" | "ere"))
        })
    };
    if woken(&told[caps.get(0)?.end()..]) || woken(ctx.prose.narration(s)) {
        return None;
    }
    // Someone else near the start, named or "the servant", as the one who acts.
    let named = ctx
        .hits(s)
        .into_iter()
        .any(|h| h.who != ctx.pov && h.first <= 6);
    let described = s
        .tokens
        .iter()
        .take(4)
        .any(|t| super::people::is_person_noun(&t.lower));
    // "Long after the house was dark, a light burned across the square": the night goes on.
    let night_goes_on = LATER_THAT_NIGHT.is_match(ctx.prose.narration(s));
    (named || described || night_goes_on).then_some(s.start)
}

/// "Before the month was out, she thought, she would go": the POV character's own plan or
/// hope, not a fate told from after.
fn own_plan(ctx: &Ctx<'_>, told: &str) -> bool {
    let words: Vec<&str> = told
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let thinking = words.iter().any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "thought" | "thinks" | "hoped" | "hopes" | "meant" | "means" | "planned" | "plans"
                | "resolved" | "resolves" | "swore" | "swears" | "promised" | "promises"
        )
    });
    let planner = told.to_lowercase().starts_with("before")
        && words
            .windows(2)
            .any(|w| matches!(w[1], "would" | "will" | "shall") && is_pov_word(ctx, w[0]));
    thinking || planner
}

/// "a thing I shall never find out", "which I shall never know": the narration states the
/// thing the narrator will never learn.
fn relative_before(text: &str, at: usize) -> bool {
    let before = text[..at].to_lowercase();
    let last: Vec<&str> = before.split_whitespace().rev().take(3).collect();
    last.iter()
        .any(|w| matches!(w.trim_matches(|c: char| !c.is_alphanumeric()), "thing" | "which" | "something"))
}

/// Whether the narrator says how they came to know ("as I found when the magistrate turned
/// it"): their hindsight, with its source.
pub(super) fn learned_since(text: &str) -> bool {
    LEARNED_SINCE.is_match(text)
}

/// Whether the sentence says the thing was heard or seen ("Downstairs, I could hear Jennie").
/// "though I have not heard a sound" is no perception.
pub(super) fn perceived(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.iter().enumerate().any(|(k, w)| {
        let sense = matches!(
            w.as_str(),
            "hear" | "heard" | "hears" | "see" | "saw" | "sees" | "could" | "can" | "sound"
                | "sounds" | "voice" | "voices" | "audible"
        );
        let denied = words[k.saturating_sub(3)..k]
            .iter()
            .any(|b| matches!(b.as_str(), "not" | "never" | "without") || b.ends_with("n't") || b.ends_with("n’t"));
        sense && !denied
    })
}

/// Someone other than the POV character named in the sentence, "he"/"she" when that is not
/// the POV character, or a person named by what they are ("a woman in a dark shawl").
pub(super) fn someone_else_acts(ctx: &Ctx<'_>, s: &Sentence) -> bool {
    ctx.hits(s).into_iter().any(|h| h.who != ctx.pov)
        || s.tokens.iter().any(|t| {
            (matches!(t.lower.as_str(), "he" | "she") && !is_pov_word(ctx, &t.lower))
                || super::people::is_person_noun(&t.lower)
        })
}

/// Whether a first-person narrator speaks in `text` ("I told no one": their own secret).
pub(super) fn has_narrator_word(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| matches!(w, "I" | "we" | "We"))
}

/// Whether a pronoun or name in the narration is the POV character.
pub(super) fn is_pov_word(ctx: &Ctx<'_>, word: &str) -> bool {
    super::people::pov_words(ctx).contains(&word.to_lowercase())
}
