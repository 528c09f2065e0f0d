//! Narrator knowledge: narration that knows what the POV character does not ("she didn't
//! notice", "unbeknownst to him", "had she known"), looks forward from a later time ("she would
//! later regret", "the last time she would laugh"), or cuts away to where the POV character is
//! not ("Meanwhile, at the harbour"). Dialogue and italic thought are never read: a character
//! may say "I didn't realize". (Other characters' minds are `minds.rs`.)

use std::sync::LazyLock;

use regex::Regex;

use super::continuity::has_arrival;
use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::text::Sentence;
use crate::config::PointOfView;

struct Leak {
    pattern: Regex,
    /// Why the phrase breaks deep POV, completing "The narration …".
    why: &'static str,
    /// In a first-person novel, "I didn't realize" is the narrator's own hindsight.
    first_person_ok: bool,
    /// "She didn't notice the cold until she stopped": she notices it now, on the page.
    until_ok: bool,
    /// "She would never see him again if she left now" is her own reckoning.
    if_ok: bool,
    /// "He did not hear her come from the window" is as often told from what the character
    /// notices a moment later as from outside: a note.
    uncertain: bool,
}

fn leak(pattern: &str, why: &'static str, first_person_ok: bool) -> Leak {
    Leak {
        // The patterns are constants checked by the tests; a bad one is a programming error.
        pattern: super::pattern::compile(pattern).expect("constant POV-leak pattern"),
        why,
        first_person_ok,
        until_ok: false,
        if_ok: false,
        uncertain: false,
    }
}

/// Why a phrase that looks forward from a later time breaks deep point of view.
const HINDSIGHT_WHY: &str = "looks back from a later time the POV character has not reached";

/// "I would later regret", "Had I turned": the narrator is the one the phrase is about (the
/// word just before it, or one inside it).
fn narrator_is_subject(before: &str, phrase: &str) -> bool {
    let is_narrator = |w: &str| matches!(w, "I" | "we" | "We");
    let last_before = before
        .split(|c: char| !c.is_alphanumeric())
        .rfind(|w| !w.is_empty())
        .unwrap_or("");
    is_narrator(last_before)
        || phrase
            .split(|c: char| !c.is_alphanumeric())
            .take(3)
            .any(is_narrator)
}

/// Pronouns a sentence's narration may use for a person, in the patterns below.
/// A name is one word here ("little did Gabriel know", "the last time Maud would").
const WHO: &str = r"(?:she|he|they|i|we|[\w'’]+)";

static LEAKS: LazyLock<Vec<Leak>> = LazyLock::new(|| {
    let unaware = "tells the reader something the POV character is not aware of";
    let hindsight = HINDSIGHT_WHY;
    let elsewhere = "jumps to a place or a person the POV character cannot see";
    let unwitnessed = "tells what happens where the POV character cannot see or hear";
    let not = r"(?:n['’]t| not)";
    vec![
        Leak {
            until_ok: true,
            ..leak(
                &format!(
                    r"(?i)(?:\b(\w+)\s+)?\b(?:did|does|do){not}\s+(?:yet\s+|even\s+)?(?:reali[sz]e|notice|suspect)\b"
                ),
                unaware,
                true,
            )
        },
        leak(r"(?i)\bunbeknown(?:st)?\s+to\b", unaware, false),
        Leak {
            until_ok: true,
            uncertain: true,
            ..leak(
                &format!(r"(?i)(?:\b(\w+)\s+)?\b(?:did|does|do|had){not}\s+(?:see|hear)\b"),
                unaware,
                true,
            )
        },
        leak(
            r"(?i)(?:\b(\w+)\s+(?:was|were|is|am|are|remained)\s+)?\boblivious (?:to|of)\b",
            unaware,
            true,
        ),
        leak(
            &format!(
                r"(?i)\blittle (?:did|does|do)\s+{WHO}\s+(?:know|suspect|realize|realise|guess|dream|imagine)\b"
            ),
            hindsight,
            false,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+)?\b(?:had|has|have) no (?:idea|inkling|notion) (?:that|of)\b",
            unaware,
            true,
        ),
        // "I shall never leave this corner again, though I have no idea of it yet": a future
        // the narration knows and says the character does not.
        leak(
            r"(?i)\bno (?:idea|inkling|notion|suspicion) of (?:it|this|that|any of this) yet\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+(?:was|were|is|am|are)\s+)?\bfar from (?:suspecting|guessing|knowing|imagining|dreaming|supposing)\b",
            unaware,
            true,
        ),
        // "a wink that nobody else in the room could see": seen, then, by no one the POV
        // character could have learned it from — unless the POV character is the one who saw.
        Leak {
            uncertain: true,
            ..leak(
                r"(?i)\b(?:that|which|whom)\s+(?:nobody|no one|none of (?:us|them))(?:\s+else)?(?:\s+\w+){0,3}?\s+(?:could|did|would|had|was able to)\s+(?:see|notice|hear|seen|noticed|heard)\b",
                unaware,
                false,
            )
        },
        leak(
            r"(?i)(?:\b(\w+)\s+)?\bhad no way of knowing\b",
            unaware,
            true,
        ),
        leak(
            &format!(
                r"(?i)(?:\b(\w+)\s+)?\bit (?:did{not}|never|had{not}|had never) (?:once )?occur(?:red)? to (?:her|him|them|me|us)\b"
            ),
            unaware,
            true,
        ),
        leak(
            r"(?i)\b(?:nobody|no one|none of them) had (?:told|warned) (?:her|him|them|me|us) that\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\b(?:never|not|without) (?:guessing|knowing|suspecting|realizing|realising|noticing|dreaming) (?:that|it was)\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\b(?:never|without) (?:noticing|seeing|hearing) (?:the|a|an|how|his|her|their)\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\blittle (?:knowing|guessing|suspecting|dreaming|thinking|imagining|realizing|realising)\b|\b(?:who|which) little (?:knew|suspected|guessed|dreamed|dreamt|thought|imagined)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)(?:^|[,;(—–]\s*)unknown to (?:her|him|them|me|us|either of us|any of us|anyone|anybody|\w+\.?)(?:\s+[\w'’.]+){0,4}\s*[,)—–]\s*(?:the|a|an|his|her|their|my|our|he|she|they|it|there|someone|somebody|[A-Z]\w*)\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\b(?:none of (?:us|them)|no one|nobody|neither of (?:us|them)) (?:had )?(?:noticed|saw|seen|heard|suspected|realized|realised|knew|guessed) that\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+)?\b(?:cannot|can['’]t|could not|couldn['’]t) (?:possibly )?(?:know|have known|guess|suspect) that\b",
            unaware,
            true,
        ),
        leak(
            r"(?i)\bwould never (?:in fact |actually )?(?:set foot|return|come back|live to)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+)?\bnever (?:learned|learnt|found out|discovered)\b|\bwould never (?:learn|discover|find out|know how|know what|know that)\b",
            hindsight,
            true,
        ),
        leak(
            r"(?i)(?:^|[,;]\s*)unseen\s*,|\bunseen by (?:her|him|them|me|us|any of us|either of us|anyone|anybody)\b",
            unaware,
            false,
        ),
        // "She had not noticed the blood", "he had not yet realised": unaware, as "did not";
        // as often what she notices now ("had not noticed the letter" till this moment), so
        // a note.
        Leak {
            until_ok: true,
            uncertain: true,
            ..leak(
                &format!(
                    r"(?i)(?:\b(\w+)\s+)?\b(?:had|has){not}\s+(?:yet\s+|even\s+)?(?:noticed|reali[sz]ed|suspected|guessed)\b"
                ),
                unaware,
                true,
            )
        },
        // "Nell never saw the second letter": what she never perceived, told all the same.
        Leak {
            uncertain: true,
            ..leak(
                r"(?i)(?:\b(\w+)\s+)?\bnever (?:saw|heard|knew) (?:the|a|an|that|how|what|it)\b",
                unaware,
                true,
            )
        },
        leak(
            r"(?i)(?:\b(\w+)\s+(?:was|were|is|am|are|remained|stayed)\s+(?:still\s+|quite\s+|blissfully\s+|wholly\s+|utterly\s+|entirely\s+)?)?\bignorant (?:that|of (?:the|what|how|his|her|their|it|this))\b",
            unaware,
            true,
        ),
        leak(
            r"(?i)\b(?:none|neither) of (?:us|them) (?:had )?(?:noticed|saw|suspected|reali[sz]ed|knew|guessed)\b",
            unaware,
            false,
        ),
        leak(
            r"(?i)\bwould (?:not|never) (?:learn|discover|find out|know|understand|reali[sz]e|see) (?:\w+\s+){0,5}?until\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bwould (?:regret|rue|remember|carry|treasure|mourn) (?:\w+\s+){0,5}?(?:for the rest of|all (?:her|his|their|my|our) li(?:fe|ves))\b",
            hindsight,
            false,
        ),
        leak(r"(?i)\bunseen by [A-Z][\w'’]+\b", unaware, false),
        leak(
            r"(?i)\bwould have (?:cause|reason|occasion|time) to (?:remember|regret|recall|rue|think of|wish)\b|\bwould remember (?:\w+\s+){0,4}for the rest of (?:her|his|my|their|our) li(?:fe|ves)\b",
            hindsight,
            false,
        ),
        leak(
            &format!(
                r"(?i)\bwhat\s+{WHO}\s+(?:did{not}|could{not}(?: have)?|cannot|can{not})\s+(?:know|reali[sz]e|see|notice|known|guess|suspect)\b"
            ),
            unaware,
            false,
        ),
        leak(
            &format!(
                r"(?i)\b(?:could{not}|could never) have known\b|\b(?:neither|none) of (?:us|them) could have known\b|\b(?:no one|nobody) could have known\b"
            ),
            hindsight,
            false,
        ),
        leak(
            &format!(r"(?i)\b(?:did|does|do){not} know (?:it|that|this) (?:yet|then)\b"),
            hindsight,
            false,
        ),
        leak(
            &format!(r"(?i)(?:\b(\w+)\s+)?\b(?:did|does){not} (?:yet |even )?know that\b"),
            unaware,
            true,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+(?:was|were|is|am|are|remained|stayed)\s+(?:still\s+|completely\s+|quite\s+)?)?\bunaware (?:that|of)\b",
            unaware,
            true,
        ),
        leak(
            r"(?i)(?:\b(\w+)\s+)?\b(?:never|failed to|didn['’]t even|did not even)\s+(?:noticed?|perceived?|suspected?|reali[sz]ed?|saw (?:it|him|her|them|the \w+) coming)\b",
            unaware,
            true,
        ),
        leak(
            r"(?i)\bwould (?:later|one day|someday|eventually|afterwards?)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bwould (?:soon|come to) (?:learn|discover|find out|reali[sz]e|understand|regret|wish|know|see|rue|hate)\b",
            hindsight,
            false,
        ),
        Leak {
            if_ok: true,
            ..leak(
                r"(?i)\bwould (?:never|not) (?:again )?see (?:\w+\s+){1,3}again\b",
                hindsight,
                false,
            )
        },
        leak(
            &format!(
                r"(?i)\bthe last (?:\w+\s+){{0,3}}{WHO} would ever\b|\bthe last time {WHO} would\b"
            ),
            hindsight,
            false,
        ),
        leak(
            &format!(
                r"(?i)(?:^|[.;:,]\s*)(?:(?:years|months|weeks|days|decades|much|long)\s+)?later,?\s+{WHO}\s+would\b"
            ),
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bonly later would\s+(?:she|he|they|i)\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)\bif only\s+(?:she|he|they)\s+had known\b",
            hindsight,
            false,
        ),
        leak(
            &format!(
                r"(?i)(?:^|[,;]\s*)\W*had\s+{WHO}\s+(?:only\s+)?(?:known|looked|turned|glanced|listened|stayed|waited|noticed|seen|realized|realised)\b"
            ),
            hindsight,
            false,
        ),
        leak(
            &format!(
                r"(?i)\bif\s+{WHO}\s+had\b[^.;]{{0,60}}?\b{WHO}\s+would have (?:seen|noticed|heard|spotted|known|caught)\b"
            ),
            unaware,
            false,
        ),
        leak(
            r"(?i)\bin (?:the )?years to come\b|\bit would be (?:years|months|weeks|a long time) before\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)^\W*(?:meanwhile,?\s+|at (?:that|this|the same|that very|this very|the very same) (?:moment|instant|hour|time),?\s+)?(?:across (?:the )?(?:town|city|river|street|square)|elsewhere|(?:miles|far|(?:two|three|four|five|six|a few|several|many) (?:streets|miles|doors|houses|rooms|floors|blocks|fields)) away|back at the \w+|on the other side of (?:town|the city|the house|the river))\s*,",
            elsewhere,
            false,
        ),
        leak(
            r"(?i)^\W*meanwhile,?\s+(?:in another|at the other|back in|back at|across|at|in|on|over|down|up|far|miles|out|outside)\b",
            elsewhere,
            false,
        ),
        leak(
            r"(?i)^\W*(?:upstairs|downstairs|next door|in the next room|on the floor (?:above|below)),\s+(?:[\w'’]+\s+){1,3}(?:was|were|had) already\b",
            elsewhere,
            false,
        ),
        // "…, where no one could see him, he drank", "In the bedroom beyond, where I could
        // not see, the maid…": the narration says nobody there could witness what it tells.
        leak(
            &format!(
                r"(?i)\bwhere\s+(?:no one|nobody|none of (?:us|them)|neither of (?:us|them))\s+(?:could|can)\s+(?:see|hear|watch)\b|\bwhere\s+{WHO}\s+(?:could{not}|can{not}|cannot)\s+(?:see|hear|watch)\b"
            ),
            unwitnessed,
            false,
        ),
        // "Round the corner, out of sight of them all, a stout man…", "Downstairs, though I
        // cannot hear them, my servant…": a parenthesis that puts what follows beyond the
        // POV character's senses.
        leak(
            &format!(
                r"(?i)(?:^|[,;—–]\s*)(?:out of (?:sight|earshot|hearing|(?:his|her|my|our|their) (?:sight|view|hearing))(?: of [^,;.]{{1,40}})?(?:\s+now)?|though\s+{WHO}\s+(?:could{not}|can{not}|cannot)\s+(?:see|hear)\s+(?:them|him|her|it|us)?)\s*[,—–]\s*(?:the|a|an|his|her|their|my|our|he|she|they|[A-Z]\w*)\b"
            ),
            unwitnessed,
            false,
        ),
        // "Behind the closed door, Rosa has hidden her face", "Inside, in her mistress's
        // bedroom, the girl was taking a coin", "on the other side of it the snake had already
        // done its work": a cut to another room as it happens. Often what the POV character
        // hears or guesses, so a note.
        Leak {
            uncertain: true,
            ..leak(
                r"(?i)(?:^|[,;—–]\s*|\bfor\s+)(?:behind (?:the|that|a) (?:closed |locked |shut )?(?:door|wall|curtain|screen|point|hill)|behind (?:us|them|me)|on the other side of (?:it|the (?:door|wall|house|hill|point))|inside,(?:\s+in\s[^,;.]{1,50},)?|in the (?:next|other|back|inner) room|in the \w+ (?:beyond|above|below|next door))(?:,\s*[^,;.]{1,50})?,?\s+(?:[\w'’.]+\s+){1,5}?(?:(?:was|were|is|are)\s+(?:already\s+|still\s+)?\w+ing|(?:had|has|have)\s+already)\b",
                elsewhere,
                false,
            )
        },
        // "The two friends were never to drink together again", "he will not find her
        // alive", "will follow it one day": a future only an outside narrator knows.
        leak(
            r"(?i)\b(?:was|were) never to (?:\w+\s+){1,4}?again\b|\bwill (?:not|never) (?:\w+\s+){1,3}?(?:alive|again)\b|\bwill (?:\w+\s+){1,6}?(?:one day|someday|long after)\b",
            hindsight,
            false,
        ),
        // "Nobody on board ever saw who brought it": what no one witnessed, told all the same.
        leak(
            r"(?i)\b(?:nobody|no one)(?:\s+[\w'’]+){0,3}?\s+(?:ever\s+)?(?:saw|noticed|heard|learned|learnt|found out) (?:who|how|where|what|that)\b",
            unaware,
            false,
        ),
        // "Down at the anchorage, at that very moment, the men…", "In the village at that
        // moment the cheetah was loose": a place and the same moment, cut to.
        leak(
            r"(?i)^\W*(?:in|at|on|down|up|back|out|over|across|inside|outside)\s+[^,;.]{2,50}?,?\s+at (?:that|this|the same|that very|this very) (?:moment|instant|hour|time)\b",
            elsewhere,
            false,
        ),
        // "Down in the street, the coachman, who had been told to wait, was already gossiping":
        // another place, the action already under way. Often heard or guessed: a note.
        Leak {
            uncertain: true,
            ..leak(
                r"(?i)^\W*(?:down|up|out|back|over|outside|inside|below|above|across)\s+(?:in|at|on|by|the|there)\b[^,;.]{0,40},\s+[^;.]{1,80}?\b(?:was|were|had|has|is|are)\s+already\b",
                elsewhere,
                false,
            )
        },
        // "Beyond the hamlet, unobserved by any soul, two men rose", "though not one of us
        // heard it, something stirred": what the narration itself says no one witnessed.
        leak(
            r"(?i)\b(?:unobserved|unseen|unnoticed|unheard)\s+by\s+(?:any|anyone|anybody|a soul|us|them|the others|all|none|no one|nobody)\b|\bthough\s+(?:not one|none|neither|nobody|no one)(?:\s+of\s+(?:us|them))?\s+(?:heard|saw|noticed|knew|suspected)\b",
            unwitnessed,
            false,
        ),
        // "…were not to come to him in this life", "sooner than either of them supposes",
        // "by a road he does not yet dream of": a future or a knowledge that only a narrator
        // outside the scene has.
        leak(
            r"(?i)\b(?:was|were) not to (?:\w+\s+){1,5}?(?:again|in this life|in (?:his|her|their) lifetime)\b|\bthan (?:either|any|both|all|neither|none|one) of (?:them|us) (?:supposes?|supposed|knows?|knew|thinks?|thought|guess(?:es|ed)?|imagines?|imagined|expects?|expected|dreams?|dreamt|dreamed)\b|\b(?:does|did|do) not yet (?:dream|suspect|guess|imagine) of\b",
            hindsight,
            false,
        ),
        // "This would be the last time she saw him", "Hours later, the ship would sink",
        // "Outside, unnoticed, a man watched the house".
        leak(
            r"(?i)\b(?:would be|was to be|were to be) the last time\b|^\W*(?:minutes|hours|days|weeks|months|years|decades) later,?\s+[^.;]*?\bwould\b",
            hindsight,
            false,
        ),
        leak(
            r"(?i)(?:^|[,;—–]\s*)(?:unnoticed|unseen|unobserved)\s*,",
            unwitnessed,
            false,
        ),
        // "the boy, with no notion that his father was on the way,".
        leak(
            r"(?i)\bwith no (?:notion|idea|suspicion|inkling|thought) (?:that|of (?:what|who|how))\b",
            unaware,
            true,
        ),
        // "He never guessed that in the cab she had been thinking of a boy in Galway".
        leak(
            r"(?i)(?:\b(\w+)\s+)?\bnever\s+(?:once\s+)?(?:guessed|dreamed|dreamt|knew|learned|learnt|found out)\s+(?:that|how|what|who|whether)\b",
            unaware,
            true,
        ),
        // "Of this she was perfectly unaware".
        leak(
            r"(?i)\bof (?:this|that|it|all this|all that),?\s+(\w+)\s+(?:was|were|is|are|remained)\s+(?:\w+\s+)?(?:unaware|ignorant|oblivious)\b",
            unaware,
            true,
        ),
    ]
});

/// "without her knowing": a leak when "her" is the POV character.
static WITHOUT_KNOWING: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bwithout\s+(her|his|their|my)\s+(?:ever\s+)?(?:knowing|knowledge|noticing|realizing|realising|learning|suspecting|seeing|hearing|catching sight)\b|\bbehind\s+(her|his|their|my)\s+back\b|\bwithout (?:noticing|realizing|realising) (?:the|a|an|that|him|her|them)\b")
        .expect("constant pattern")
});

/// Openings that cut to simultaneous action; a leak when followed by someone known elsewhere.
const SIMULTANEOUS: &[&[&str]] = &[
    &["meanwhile"],
    &["at", "that", "very", "moment"],
    &["at", "that", "same", "moment"],
    &["at", "the", "same", "moment"],
    &["at", "the", "same", "time"],
    &["at", "that", "moment"],
    &["at", "that", "very", "hour"],
    &["at", "that", "hour"],
    &["at", "the", "same", "hour"],
    &["at", "that", "very", "instant"],
];

pub(super) fn leaks(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let first_person = ctx.input.pov == PointOfView::First;
    let mut before = None;
    let apart = super::apart::told_apart(ctx);
    for s in ctx.prose.narration_sentences() {
        // One finding per sentence: "Meanwhile, across town," matches twice and needs one fix.
        let found = phrase_leak(ctx, s, first_person)
            .or_else(|| simultaneous_cut(ctx, s))
            .or_else(|| {
                super::beyond::beyond(ctx, s, before)
                    .or_else(|| super::absent::absent(ctx, s, before))
                    .map(|b| {
                        let mut found = leak_finding(ctx, s, b.at, &b.phrase, b.why);
                        found.severity = Severity::Note;
                        found
                    })
            })
            .or_else(|| {
                apart.iter().find(|t| t.sentence_start == s.start).map(|t| {
                    let mut found = leak_finding(ctx, s, t.at, &t.phrase, t.why);
                    found.severity = Severity::Note;
                    found
                })
            })
            .or_else(|| {
                super::cuts::cut_away(ctx, s).map(|cut| {
                    let mut found = leak_finding(
                        ctx,
                        s,
                        cut.at,
                        &cut.phrase,
                        "jumps to a place or a person the POV character cannot see",
                    );
                    // The POV character may hear or guess much of what happens elsewhere.
                    found.severity = Severity::Note;
                    found
                })
            });
        if let Some(f) = found {
            out.push(f);
        }
        before = Some(s);
    }
    out
}

fn phrase_leak(ctx: &Ctx<'_>, s: &Sentence, first_person: bool) -> Option<Finding> {
    let narration = ctx.prose.narration(s);
    for l in LEAKS.iter() {
        let Some(caps) = l.pattern.captures(narration) else {
            continue;
        };
        let subject_is_i = caps.get(1).is_some_and(|m| m.as_str() == "I");
        // Looking back, a first-person narrator may know what they did not then; telling in
        // the present, they cannot narrate what they do not notice.
        let told = caps.get(0).map_or("", |m| m.as_str()).to_lowercase();
        let looking_back = ctx.input.tense == crate::config::Tense::Past
            || told.contains("did")
            || told.contains("had")
            || told.contains("never");
        // "It never occurred to us": the narrator, looking back, as the object.
        let narrator_object = told.ends_with(" me") || told.ends_with(" us");
        // "though none of us knew it", "What I did not know then": the narrator among those
        // who did not know, looking back ("Little did I know" stays a note, below).
        let phrase_words: Vec<&str> = caps
            .get(0)
            .map_or("", |m| m.as_str())
            .split(|c: char| !c.is_alphanumeric())
            .collect();
        let narrator_among = first_person
            && looking_back
            && phrase_words.iter().any(|w| matches!(*w, "I" | "we" | "We" | "us"))
            && !told.starts_with("little");
        // Said to be hindsight ("then", "afterwards"), not a finding; else a note, since the
        // narrator may have learned it since ("None of us noticed that the flagstone…").
        let said_looking_back = narration.split(|c: char| !c.is_alphanumeric()).any(|w| {
            matches!(w.to_lowercase().as_str(), "then" | "afterwards" | "afterward" | "later" | "since")
        });
        if (first_person && looking_back && l.first_person_ok && (subject_is_i || narrator_object))
            || (narrator_among && said_looking_back)
        {
            continue;
        }
        // "Today I will not try it again": the narrator's own resolve.
        let word_before = narration[..caps.get(0)?.start()]
            .split(|c: char| !c.is_alphanumeric())
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        let own_resolve = first_person
            && (subject_is_i || matches!(word_before, "I" | "we" | "We"))
            && (told.contains("will ") || told.contains("shall "));
        if own_resolve {
            continue;
        }
        // "Very likely he has no idea that I exist": a guess, marked as one.
        if guessed_in_clause(&narration[..caps.get(0)?.start()]) {
            continue;
        }
        let whole = caps.get(0)?;
        // "It was an act I would later regret", "Had I turned the leaf, I should have seen":
        // a first-person narrator looking back on their own life, which many published
        // narrators do and some writers cut; the writer decides (a note).
        let own_hindsight = first_person
            && ctx.input.tense == crate::config::Tense::Past
            && l.why == HINDSIGHT_WHY
            && narrator_is_subject(&narration[..whole.start()], whole.as_str());
        if own_hindsight && super::beyond::learned_since(narration) {
            continue;
        }
        // "Little did I know…": a first-person narrator's hindsight, which many published
        // narrators use and some writers cut; the writer decides (a note).
        let hindsight = first_person
            && looking_back
            && narrator_looking_back(&narration[..whole.start()], whole.as_str());
        if outward_or_own_past(&narration[..whole.start()], whole.as_str()) {
            continue;
        }
        let rest = &narration[whole.end()..];
        if l.until_ok
            && (has_word(rest, "until") || has_word(rest, "till") || has_word(rest, "before"))
        {
            continue;
        }
        // "I don't see why I should": an opinion, not a perception.
        let first_after = rest.split_whitespace().next().unwrap_or("").to_lowercase();
        if l.uncertain
            && matches!(
                first_after.as_str(),
                "why" | "how" | "what" | "whether" | "any"
            )
        {
            continue;
        }
        if l.if_ok && has_word(narration, "if") {
            continue;
        }
        // "She told herself she would never set foot there again", "he swore it would be
        // the last time": a resolve or an oath of the character's, not the narrator's
        // foreknowledge.
        if l.why == HINDSIGHT_WHY && reported_in_clause(&narration[..whole.start()]) {
            continue;
        }
        // Quote the phrase itself, not the subject word captured before it.
        let from = caps.get(1).map_or(whole.start(), |m| m.end());
        let phrase = narration[from..whole.end()]
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .trim_end_matches(|c: char| !c.is_alphanumeric());
        let mut found = leak_finding(ctx, s, s.start + from, phrase, l.why);
        if hindsight || own_hindsight || l.uncertain || narrator_among {
            found.severity = Severity::Note;
        }
        return Some(found);
    }
    let caps = WITHOUT_KNOWING.captures(narration)?;
    let whole = caps.get(0)?;
    // "with his hands behind his back": where the hands are, not a secret.
    let before = narration[..whole.start()].to_lowercase();
    let held = before
        .split_whitespace()
        .rev()
        .take(3)
        .any(|w| w.starts_with("hand") || w.starts_with("arm") || w.starts_with("clasp"));
    if held && whole.as_str().to_lowercase().starts_with("behind") {
        return None;
    }
    let pov_unaware = caps
        .get(1)
        .or_else(|| caps.get(2))
        .is_none_or(|pronoun| pronoun_is_pov(ctx, &pronoun.as_str().to_lowercase()));
    pov_unaware.then(|| {
        leak_finding(
            ctx,
            s,
            s.start + whole.start(),
            whole.as_str(),
            "tells the reader something the POV character is not aware of",
        )
    })
}

/// The clause before a phrase holds a verb of saying, swearing or resolving: what follows is
/// the character's own word.
fn reported_in_clause(before: &str) -> bool {
    // Not split at a full stop: inside one sentence it ends an abbreviation ("tells Mr.
    // Bucket that…").
    let clause = before.rsplit([',', ';', '—', ':']).next().unwrap_or(before);
    clause.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "swore" | "swears" | "vowed" | "vows" | "promised" | "promises" | "told" | "tells"
                | "said" | "says" | "resolved" | "resolves" | "decided" | "decides"
        )
    })
}

/// A guess marked in the clause before a phrase: "Very likely he has no idea", "I daresay
/// she never noticed".
fn guessed_in_clause(before: &str) -> bool {
    let clause = before.rsplit([',', ';', '—', ':']).next().unwrap_or(before);
    clause.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "likely" | "probably" | "perhaps" | "doubtless" | "daresay" | "presumably" | "surely"
        )
    })
}

/// "…, little knowing what was to come" said of the narrator themself ("I went on, little
/// guessing…", "Little did I suppose"): a first-person narrator's hindsight.
fn narrator_looking_back(before: &str, phrase: &str) -> bool {
    let clause = before.rsplit([',', ';', '.', '—']).next().unwrap_or(before);
    let has_i = |t: &str| t.split(|c: char| !c.is_alphanumeric()).any(|w| w == "I");
    phrase.to_lowercase().starts_with("little") && (has_i(clause) || has_i(phrase))
}

/// "as if he had been unaware", "seemed unaware of the talk": a reading of someone from
/// outside. "She had never found out the name": the character's own past, which she knows.
fn outward_or_own_past(before: &str, phrase: &str) -> bool {
    let words: Vec<String> = before
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let last = |n: usize| {
        words
            .iter()
            .rev()
            .take(n)
            .map(String::as_str)
            .collect::<Vec<_>>()
    };
    let phrase = phrase.to_lowercase();
    let near = last(6);
    let outward = near.iter().any(|w| {
        matches!(
            *w,
            "seemed" | "seems" | "looked" | "looks" | "appeared" | "appears"
        )
    }) || near
        .windows(2)
        .any(|w| matches!(w[0], "if" | "though") && w[1] == "as");
    let own_past = phrase.trim_start().starts_with("never") && last(1) == ["had"]
        || phrase.contains("had never")
        || phrase.split_whitespace().next() == Some("had") && phrase.contains(" never ");
    outward || own_past
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case(word))
}

fn pronoun_is_pov(ctx: &Ctx<'_>, possessive: &str) -> bool {
    match (ctx.input.pov, ctx.pov_pronoun) {
        (PointOfView::First, _) => possessive == "my",
        (PointOfView::DeepThird, Some("she")) => possessive == "her",
        (PointOfView::DeepThird, Some(_)) => possessive == "his",
        (PointOfView::DeepThird, None) => possessive != "my",
    }
}

fn leak_finding(ctx: &Ctx<'_>, s: &Sentence, at: usize, phrase: &str, why: &str) -> Finding {
    let excerpt = ctx.prose.excerpt(s, at);
    let to = at + phrase.len();
    let pov = ctx.pov_name();
    Finding::new(
        Check::PovLeak,
        Severity::Violation,
        format!(
            "The narration says “{phrase}”, which {why}; the scene must stay inside {pov}'s \
             head. In: “{excerpt}”. Rewrite the sentence so it reports only what {pov} \
             perceives, thinks or can infer at this moment, or cut it."
        ),
        Some(excerpt),
    )
    .at(&ctx.prose, s, at, to)
}

/// "Meanwhile, Bram…" / "At that very moment, Bram…" where Bram is known to be elsewhere and
/// does not arrive in the sentence.
fn simultaneous_cut(ctx: &Ctx<'_>, s: &Sentence) -> Option<Finding> {
    // The phrase anywhere in the sentence ("Silver, who at that moment sat on a log"), the
    // person named just before it or just after it.
    let (at, len) = (0..s.tokens.len()).find_map(|k| {
        SIMULTANEOUS
            .iter()
            .find(|phrase| {
                k + phrase.len() <= s.tokens.len()
                    && phrase
                        .iter()
                        .zip(&s.tokens[k..])
                        .enumerate()
                        .all(|(j, (w, t))| *w == t.lower && (j == 0 || !t.barrier))
            })
            .map(|phrase| (k, phrase.len()))
    })?;
    let hit = ctx.hits(s).into_iter().find(|h| {
        h.who != ctx.pov
            && ((h.first >= at + len
                && h.first <= at + len + 2
                && super::people::verb_follows(s, h.last))
                || (h.last < at && h.last + 4 >= at))
    })?;
    let away = ctx.elsewhere(hit.who)?;
    if has_arrival(ctx.prose.narration(s)) {
        return None;
    }
    let excerpt = ctx.prose.excerpt(s, s.start);
    let who = ctx.name(hit.who);
    let pov = ctx.pov_name();
    Some(
        Finding::new(
            Check::PovLeak,
            Severity::Violation,
            format!(
                "The narration cuts away to {who}, who is at {} and not in this scene: “{excerpt}”. \
                 {pov} cannot see this. Cut the sentence, or let {pov} learn of it on the page \
                 (a message, a sound, {who} arriving).",
                away.name
            ),
            Some(excerpt),
        )
        .at(
            &ctx.prose,
            s,
            s.tokens[at.min(hit.first)].start,
            s.tokens[(at + len - 1).max(hit.last)].end,
        )
        .about(&ctx.people[hit.who].id),
    )
}

pub(super) fn is_question(narration: &str) -> bool {
    narration
        .trim_end_matches(|c: char| c.is_whitespace() || c == super::text::MASK || c == ')')
        .ends_with('?')
}
