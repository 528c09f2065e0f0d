//! What happens where the POV character is not, or before they came, told as if they saw it:
//! the moment they have gone ("…and, when he had turned the corner, looked for the
//! pepper-pot", "The door has scarcely closed behind her before Rosa is at the window"),
//! someone placed elsewhere at this very moment ("He was at that moment in the mews behind
//! Briony Lodge", "Tonight he is sitting in Weir Mitchell's study", "Behind the drawn blinds of
//! Briony Lodge, Irene Adler was already sliding the panel shut"), left behind ("Left alone,
//! Rosa sits"), the POV character on the way or busy ("Before she had reached her own door,
//! Brannock had climbed in", "While I was dressing he had already sent a boy"), something
//! lying hidden in another's keeping, what went on before they came ("He had been there since
//! six, and had taken the ledger out twice"), and what a sealed letter says.
//!
//! `pov.rs` asks this module after `beyond.rs`, whose helpers it shares, and makes each a note.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::beyond::{
    AWAY_WHY, Beyond, ELSEWHERE, SECRET, WHO, has_narrator_word, is_pov_word, perceived,
    someone_else_acts,
};
use super::ctx::Ctx;
use super::text::Sentence;
use crate::config::PointOfView;

const BEFORE: &str = "tells what went on before the POV character came, which they did not see";

/// The POV character gone, told inside a longer sentence: "…and, when he had turned the
/// corner, looked along the table"; the door hardly shut behind them: "The door has scarcely
/// closed behind her before Rosa is at the window-seat".
static GONE_WHEN: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)(?:^\W*|[,;—–]\s*)(?:when|after|once|as soon as|the moment)\s+(she|he|they|I|we)\s+(?:had|has)\s+(?:turned|rounded) the corner\b|(?:^\W*|[,;—–]\s*)(?:when|after|once|as soon as|the moment)\s+(she|he|they|I|we)\s+(?:was|were|had|has)\s+(?:gone|passed out of sight|disappeared)\s*,|^\W*the (?:street |front |outer |hall |house |study |parlour )?door (?:has|had|is|was) (?:scarcely|hardly|barely) (?:closed|shut|banged|swung to) (?:behind|upon|on) (him|her|them|me|us) (?:before|when|than)\b")
        .expect("constant pattern")
});

/// Someone placed elsewhere at this very moment, the time after the verb: "He was at that
/// moment in the mews behind Briony Lodge", "Tonight he is sitting in Weir Mitchell's study".
static THERE_NOW: LazyLock<Regex> = LazyLock::new(|| {
    let marker = r"(?:at (?:that|this) (?:very )?(?:moment|hour|instant|minute)|by (?:then|now|this time|that time)|even now|tonight)";
    let filler = r"(?:(?:already|still|now),?\s+)*";
    super::pattern::compile(&format!(
        r"(?i)(?:^\W*|[,;—–]\s*(?:and\s+|but\s+)?|\bnow\s+)(?:tonight,?\s+|at (?:this|that) (?:very )?(?:hour|moment),?\s+)?({WHO}|(?-i:[Mm]y|[Hh]is|[Hh]er) (?-i:[A-Z][a-z]+))\s+(?:was|were|is|are)\s+{filler}{marker},?\s+{filler}(?:[a-z]+ing\s+)?(?:in|at|on|inside|behind|across|beyond|far|miles|half way|halfway|out of)\b"
    ))
    .expect("constant pattern")
});
static TONIGHT_THERE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(&format!(
        r"(?i)^\W*(?:tonight|at this (?:very )?(?:hour|moment)|at that (?:very )?(?:hour|moment)),?\s+({WHO}|(?-i:[Mm]y|[Hh]is|[Hh]er) (?-i:[A-Z][a-z]+))\s+(?:is|are|was|were)\s+(?:already\s+|still\s+)?[a-z]+ing\b[^.;!?]{{0,40}}?\b(?:in|at|on|out of|by)\b"
    ))
    .expect("constant pattern")
});

/// Behind the blinds or walls of another house: "Behind the drawn blinds of Briony Lodge,
/// Irene Adler was already sliding the panel shut"; a distance behind the POV character:
/// "Two streets behind him, a woman in a dark shawl keeps close to the railings".
static BEHIND_WALLS: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:behind|within|inside) the (?:drawn |closed |shut |lowered |heavy |thick )?(?:blinds|curtains|shutters|doors|walls|windows|door|wall) of\b[^,;.]{1,40},\s+\S|^\W*(?:a few|two|three|four|some|several|a dozen|twenty|fifty|a hundred) (?:streets|yards|paces|steps|doors|houses|miles) (?:behind|ahead of|off from) (me|us|him|her|them)\s*,")
        .expect("constant pattern")
});

/// Left behind by the POV character: "Left alone, Rosa sits on the footstool".
static LEFT_ALONE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(&format!(r"(?i)^\W*left (?:alone|to (?:himself|herself|themselves)|behind),\s+({WHO})\b"))
        .expect("constant pattern")
});

/// The POV character on the way, not yet there: "Before she had reached her own door,
/// Brannock had climbed in", "Before his step has died out of the court the woman is off the
/// bed".
static BEFORE_THEY_REACH: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:before|by the time|long before|almost before)\s+(?:(she|he|they|I|we)\s+(?:had|has|was|is|were|are)\s+(?:reached|got|gotten|turned|rounded|half way|halfway|well|out of|fairly|gone|at the (?:end|bottom|foot) of)|(his|her|their|my|our)\s+(?:step|steps|footsteps|tread)\s+(?:had|has)\s+(?:died|faded))\b")
        .expect("constant pattern")
});

/// Something lying hidden in someone's keeping: "They lay at that moment in the bottom drawer
/// of the chief clerk's own desk", "Down in Silver's sea-chest, under a spare shirt, lay a
/// paper"; whose drawer or chest it is, when the sentence says.
static HIDDEN_IN: LazyLock<Regex> = LazyLock::new(|| {
    let keeping = r"(?:drawer|drawers|desk|pocket|pockets|chest|sea-chest|box|safe|bag|lining|trunk|press|cupboard|bureau|portmanteau|purse|reticule|strong-box|strongbox|cabinet|escritoire|valise|wallet|pocket-book)";
    super::pattern::compile(&format!(
        r"(?i)\b(?:lay|lies|lying|was hidden|were hidden|is hidden|are hidden|was tucked|is tucked|rested|rests)\b[^.;!?]{{0,50}}?\b(?:in|under|inside|beneath|at the bottom of)\s+(?:the\s+)?(?:bottom\s+)?(?:(?:of|in)\s+)?(?:the\s+)?(?:(his|her|their|(?-i:[A-Z][\w'’]+)['’]s)\s+)?(?:[\w-]+\s+){{0,2}}?{keeping}\b|\b(?:in|down in|under|inside|at the bottom of)\s+((?-i:[A-Z][\w'’]+)['’]s|his|her)\s+(?:[\w-]+\s+){{0,2}}?{keeping}\b[^.;!?]{{0,40}}?\b(?:lay|lies|was hidden|rested)\b"
    ))
    .expect("constant pattern")
});

/// What went on before the POV character came: "He had been there since six, and had taken
/// the March ledger out twice before he heard my step", "They had been sitting there above an
/// hour, and in that hour the squire had told the whole story".
static BEFORE_THEY_CAME: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(she|he|they|(?-i:[A-Z][\w'’]+))\s+had been\s+(?:\w+\s+){0,2}?(?:there|here|up|waiting|sitting|standing|asleep|at (?:it|work|the \w+))\b[^.;!?]{0,30}?\b(?:since|for|above|over|these|this)\b[^.;!?]{0,30}?,\s*and\s+(?:in (?:that|this) (?:time|hour|while),?\s+)?(?:[\w'’]+\s+){0,3}?had\s+[a-z]+")
        .expect("constant pattern")
});

/// Before the POV character came, said outright: "…had let two gentlemen go up an hour
/// before the Conroys came", "…before he heard my step".
static BEFORE_ARRIVAL: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bhad\s+(?:\w+\s+){0,2}?[a-z]+(?:ed|en|ne|wn|ght|t|ck|id|un|ung|ook|ept|old)\b[^.;!?]{0,80}?\b(?:an hour|a minute|a moment|some time|long|just|half an hour|a day|a week)?\s*before\s+(?:the\s+)?(I|we|she|he|they|(?-i:[A-Z][\w'’]+)(?:\s(?-i:[A-Z][\w'’]+))?)\s+(?:came|arrived|got there|got back|entered|heard (?:my|our|her|his) (?:step|steps|knock)|woke|came (?:in|down|up|back))\b")
        .expect("constant pattern")
});

/// What an unopened letter says: "A note lies at her elbow with its seal still whole. It is
/// from the ironmaster, and it says that he will call".
static CONTENTS: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*(?:it|the (?:letter|note|telegram|message|paper|card))\s+(?:is|was|had been|came)\s+from\b[^.;!?]*?(?:\band\b|;)\s*(?:it\s+)?(?:says|said|asks|asked|promises|promised|tells|told|reads|ran|runs|contained|contains|informs|informed|begged|begs)\b")
        .expect("constant pattern")
});
/// Before it, what keeps the letter from the POV character's eyes.
static UNREAD: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bseal (?:still )?(?:whole|unbroken|intact)|\bunopened\b|\bunread\b|\bsealed\b|\bbefore (?:I|she|he|we) could (?:see|read)\b|\bkeeps one back\b|\bkept one back\b|\binto the fire\b|\bbreast[- ]pocket\b")
        .expect("constant pattern")
});

/// The POV character busy, someone else a step ahead: "While I was dressing that morning he
/// had already sent a boy to the Commons".
static WHILE_BUSY: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)^\W*while (she|he|they|I|we) (?:was|were) [a-z]+ing\b[^,;.]{0,40},\s+(?:[\w'’]+\s+){1,4}?had\s+(?:already\s+)?[a-z]{3,}")
        .expect("constant pattern")
});

/// Every pattern above at once, to pass over a sentence none of them reads in one scan.
static ANY: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(
        [
            &*GONE_WHEN, &*THERE_NOW, &*TONIGHT_THERE, &*BEHIND_WALLS, &*LEFT_ALONE,
            &*BEFORE_THEY_REACH, &*HIDDEN_IN, &*BEFORE_THEY_CAME, &*BEFORE_ARRIVAL, &*CONTENTS,
            &*WHILE_BUSY,
        ]
        .map(|r| r.as_str()),
    )
    .expect("constant patterns")
});

/// What in sentence `s` (after `before`, the narration sentence just before it) happens where
/// the POV character is not, or before they came.
pub(super) fn absent(ctx: &Ctx<'_>, s: &Sentence, before: Option<&Sentence>) -> Option<Beyond> {
    let narration = ctx.prose.narration(s);
    // One pass for the common case, a sentence none of them reads.
    if !ANY.is_match(narration) {
        return None;
    }
    let found = |m: regex::Match<'_>, why| Beyond {
        at: s.start + m.start(),
        phrase: m
            .as_str()
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_string(),
        why,
    };
    if let Some(caps) = GONE_WHEN.captures(narration)
        && (1..=3)
            .find_map(|g| caps.get(g))
            .is_some_and(|w| is_pov_word(ctx, w.as_str()))
        && someone_else_acts(ctx, s)
        && !perceived(narration)
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    for pattern in [&*THERE_NOW, &*TONIGHT_THERE] {
        if let Some(caps) = pattern.captures(narration)
            && caps.get(1).is_some_and(|w| {
                !is_pov_word(ctx, w.as_str()) && !has_narrator_word(w.as_str())
            })
            && !perceived(narration)
        {
            return caps.get(0).map(|m| found(m, ELSEWHERE));
        }
    }
    if let Some(caps) = BEHIND_WALLS.captures(narration)
        && caps.get(1).is_none_or(|w| is_pov_word(ctx, w.as_str()))
        && !perceived(narration)
        && someone_else_acts(ctx, s)
    {
        return caps.get(0).map(|m| found(m, ELSEWHERE));
    }
    if let Some(caps) = LEFT_ALONE.captures(narration)
        && caps.get(1).is_some_and(|w| !is_pov_word(ctx, w.as_str()) && w.as_str() != "I")
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    if let Some(caps) = BEFORE_THEY_REACH.captures(narration)
        && caps
            .get(1)
            .or_else(|| caps.get(2))
            .is_some_and(|w| is_pov_word(ctx, w.as_str()))
        && someone_else_acts(ctx, s)
        && !perceived(narration)
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    if let Some(caps) = HIDDEN_IN.captures(narration)
        && caps
            .get(1)
            .or_else(|| caps.get(2))
            .is_none_or(|w| !is_pov_word(ctx, w.as_str().trim_end_matches("'s").trim_end_matches("’s")))
        && !perceived(narration)
        && !own_keeping(ctx, narration)
    {
        return caps.get(0).map(|m| found(m, SECRET));
    }
    if let Some(caps) = BEFORE_THEY_CAME.captures(narration)
        && caps.get(1).is_some_and(|w| !is_pov_word(ctx, w.as_str()) && w.as_str() != "I")
    {
        return caps.get(0).map(|m| found(m, BEFORE));
    }
    if let Some(caps) = BEFORE_ARRIVAL.captures(narration)
        && caps.get(1).is_some_and(|w| is_pov_word(ctx, w.as_str().split_whitespace().next().unwrap_or("")) || ctx.input.pov != PointOfView::First)
        && someone_else_acts(ctx, s)
        && !has_narrator_word(&narration[..caps.get(1).map_or(0, |m| m.start())])
    {
        return caps.get(0).map(|m| found(m, BEFORE));
    }
    if let Some(m) = CONTENTS.find(narration)
        && before.is_some_and(|b| UNREAD.is_match(ctx.prose.narration(b)))
    {
        return Some(found(m, SECRET));
    }
    if let Some(caps) = WHILE_BUSY.captures(narration)
        && caps.get(1).is_some_and(|w| is_pov_word(ctx, w.as_str()))
        && someone_else_acts(ctx, s)
    {
        return caps.get(0).map(|m| found(m, AWAY_WHY));
    }
    None
}

/// In the first person, the narrator in the sentence ("there lay before us, the last things
/// in the chest"): what they keep or see.
fn own_keeping(ctx: &Ctx<'_>, text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| match ctx.input.pov {
            PointOfView::First => {
                matches!(w.to_lowercase().as_str(), "my" | "our" | "i" | "we" | "us" | "me")
            }
            _ => false,
        })
}

