//! The inner life told by where it happens or by what stands for it, rather than by a verb of
//! thinking: a mind, a heart or a head that does something ("His heart was fluttering with a
//! hope", "Her mind, as she lies there, runs on the shilling"), something going on inside one
//! ("Every shot of the day was going through his head again", "Inside her she could hear it
//! still"), a memory brought back to someone ("the brass lid brought back to him the winter"),
//! a purpose kept from the POV character ("he kept his gloves on so that I should not see"), a
//! certainty in a participle or a comparison ("being quite sure that", "as certain that he
//! means to ruin her as she is of her own heart"), an intention stated or denied ("he meant to
//! give away as little as he could", "has not the least intention of"), a feeling tasted ("he
//! tasted that small defeat again"), a company's mind at once ("Every guest in the house knew
//! that"), and what nothing could change ("Nothing in the world would have persuaded him").
//!
//! Whose heart or head it is comes from a possessive or a subject, a guess at reference, so
//! `minds.rs` makes each a note; a gesture ("laid his hand on his heart", "a hat on his head")
//! never matches, for the words must put something inside.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::ctx::Ctx;
use super::experiencer::{owner_at, possessor_at};
use super::inner::EMOTION_NOUNS;
use super::lexicon::is_in;
use super::subject::Referent;
use super::text::Sentence;
use crate::config::{PointOfView, Tense};

/// Where thought and feeling live. The body's interior ("chest", "stomach") counts only with a
/// feeling named in the sentence, for a wound or a bullet lives there too.
#[rustfmt::skip]
const MINDS: &[&str] = &[
    "heart", "mind", "thoughts", "soul", "brain", "conscience", "memory", "memories",
    "imagination", "fancy", "dream", "dreams", "heart's", "mind's",
];
const HEAD: &str = "head";
const BODY: &[&str] = &["chest", "stomach", "gut", "breast", "bosom", "throat", "veins"];

/// What else can be tasted or swallowed inwardly: "that small defeat", "the old insult".
const FEELINGS_TASTED: &[&str] = &["defeat", "insult", "injury", "slight", "victory", "disgrace", "failure", "wrong"];

/// Words that put something inside: "in his head", "through her mind", "round his heart".
const INTO: &[&str] = &["in", "into", "through", "within", "inside", "round", "around"];

/// What a head does that only its owner knows: "his head swam".
#[rustfmt::skip]
const HEAD_INSIDE: &[&str] = &[
    "ached", "aches", "swam", "swims", "throbbed", "throbs", "spun", "spins", "reeled", "reels",
    "buzzed", "buzzes", "whirled", "whirls", "pounded", "pounds",
];

/// After the place, what is a thing rather than the inner life: "his breast pocket".
const THINGS: &[&str] = &["pocket", "pockets", "coat", "shirt", "waistcoat", "hair", "hat"];

/// A memory brought back, or someone reminded.
static BROUGHT_BACK: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:brought|brings|bringing|carried|carries|called|calls) back to (him|her|them)\b|\b(?:reminded|reminds|reminding) (him|her|them) (?:of|that|how)\b|\b(?:took|takes|taking|carried|carries) ((?-i:[A-Z][\w'’]+)|him|her) back to (?:his|her|the|that)\b|\b(?:came|comes|coming|come|flooded|floods|rushed|rushes) back to (him|her)\b|\b(?:put|puts|putting) (him|her) in mind of\b")
        .expect("constant pattern")
});

/// Someone else's purpose told as fact: "He clapped him on the shoulder, to hide how shabby
/// his friend looked", "she shuts her eyes, to make him think she is asleep", "so that Lenehan
/// would have to wait".
static PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i),\s*(?:partly |only |chiefly )?to (?:hide|conceal|cover|disguise|spare|punish|drown|calm|soothe|impress|tease|provoke|annoy|put off|be rid of|make (?:him|her|them|me|us) (?:think|believe|feel)|see whether|see if|find out whether)\b|\bso that (?:he|she|they|(?-i:[A-Z][\w'’]+)|(?:the|his|her) [\w-]+) (?:would|should|could|might|can|may|will) (?:not |never )?(?:have to|be able|think|believe|take)\b")
        .expect("constant pattern")
});

/// A purpose kept from the POV character, or a reason to avoid a look: "so that I should not
/// see how they shook", "lest I should see his eyes fill", "so that he would not have to look
/// the old man in the face".
static HIDDEN_PURPOSE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:so that|in order that|lest|that) (?:(I|we|she|he|they|(?-i:[A-Z][\w'’]+)) (?:should|would|might|could|may) (?:not |never )?(?:see|notice|know|guess|hear|suspect|find out|learn|catch|think|believe|suppose|take)\b|(he|she|they) (?:would|should|might|need) not (?:have to|be obliged to) (?:look|face|meet|see|speak|answer))")
        .expect("constant pattern")
});

/// Another's conviction or wish by what nothing could change: "Nothing in the world would
/// have persuaded Mr Browne that", "Nothing would have suited Brannock better".
static NOTHING_WOULD: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bnothing (?:in the world |on earth |under heaven )?(?:would|could) (?:ever )?(?:have )?(?:persuaded|convinced|induced|suited|pleased|satisfied|shaken) ((?-i:[A-Z][\w'’]+)|him|her|them)\b")
        .expect("constant pattern")
});

/// Someone's own part in a feeling: "Some small part of him envied his old friend" (not "a
/// part of her lower lip", which is seen).
static PART_OF: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:some|one) (?:small |large |great |little |secret |hidden |deep |better |worse )?(?:part|corner) of (him|her)\b(?:,| (?:was|had|would|could|still|[a-z]+ed)\b)")
        .expect("constant pattern")
});

/// An intention stated: "he meant to give away as little as he could", "she intends that".
static MEANT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:meant|means|intended|intends)\s+(?:(?:him|her|them|(?-i:[A-Z][\w'’.]+(?:\s[A-Z][\w'’]+)?))\s+)?to\s+[a-z]+")
        .expect("constant pattern")
});

/// The inner life of a whole company at once: "Every guest in the house knew that", "not one
/// in a hundred cares a straw who killed him" (not "everybody knew", the talk of the town).
static GROUP_MIND: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:every|each) (?:guest|man|woman|one|person|soul|member|servant|sailor|clerk|lady|gentleman|face|mother|child)\b(?: [^,.;!?]{0,30}?)? (?:knew|knows|thought|thinks|felt|feels|believed|believes|meant|means|wished|wishes|hoped|hopes|feared|fears|guessed|suspected|cared|cares|was thinking|is thinking)\b|\bnot one (?:in|of) (?:ten|twenty|fifty|a hundred|a thousand|them)\b[^.;!?]{0,50}?\b(?:cares?|cared|knows?|knew|thought|guessed|suspected|ever (?:set eyes|saw|knew|heard))\b")
        .expect("constant pattern")
});

/// A certainty measured by a comparison: "as certain that he means to ruin her as she is of
/// the beating of her own heart", "as glad to be quit of that deck as ever a schoolboy was".
static AS_SURE_AS: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bas (?:certain|sure|convinced|confident|glad|happy|pleased|relieved|afraid|proud|ashamed) (?:that|of|to)\b[^.;!?]{0,90}?\bas (?:ever |he |she |they |it |a |an |the |I |we )")
        .expect("constant pattern")
});

/// What someone had no mind to do: "has not the least intention of", "had not the least
/// doubt", "had no wish at all to hear", "It had never once entered Mrs Sinico's head that".
static NO_INTENTION: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:has|had|have) (?:not the (?:least|slightest|faintest|smallest)|no|never the least) (?:intention|doubt|wish|desire|idea|notion|suspicion|inkling|need|thought|fear|dread)\b")
        .expect("constant pattern")
});
static ENTERED_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:entered|enter|enters|came into|come into|comes into|got into) ((?-i:[A-Z][\w'’]+)['’]s|his|her)\s+(?:head|mind|thoughts)\b")
        .expect("constant pattern")
});

/// A feeling perceived from inside: "He could taste the old fear under the tea", "he tasted
/// that small defeat again"; "Inside her she could hear it still".
static SENSED_FEELING: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:tasted|tastes|taste|savoured|savored|savours|savors|swallowed|swallows|nursed|nurses|hugged|hugs)\s+(?:the|that|his|her|a|an|this)\s+((?:[\w-]+\s+){0,2}[a-z-]+)\b")
        .expect("constant pattern")
});
static INSIDE_THEM: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)(?:^\W*|[,;—–]\s*)(?:deep |somewhere |far )?(?:inside|within) (him|her)\b")
        .expect("constant pattern")
});

/// Someone's one grief or chief hope: "his one grief, lying there, was that".
static ONE_GRIEF: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(his|her|(?-i:[A-Z][\w'’]+)['’]s) (?:one|only|chief|great|greatest|secret|last|first) (?:grief|fear|wish|hope|regret|thought|care|dread|desire|ambition|consolation|comfort|worry|anxiety|sorrow|joy|pride|longing)\b")
        .expect("constant pattern")
});

/// Another's body felt from inside: "Her knees ache from the long morning", "every bone in
/// her body ached", "felt to him like a tooth drawn".
static BODY_FELT: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(his|her|(?-i:[A-Z][\w'’]+)['’]s) (?:[\w-]+ ){0,2}(?:knees?|feet|foot|arms?|legs?|back|hands?|bones|eyes|throat|shoulders?|body|limbs|side|ribs|wrists?|fingers|head|temples|jaw|teeth|tooth|stomach|heart|heels?|toes|neck|chest|cheeks?|ears?|hips?|joints|muscles|lungs|tongue|lips|chilblains|blisters?|wound|scar) (?:ached|aches|ache|aching|throbbed|throbs|throb|throbbing|hurt|hurts|burned|burns|burn|burnt|burning|stung|stings|sting|stinging|tingled|tingles|tingle|tingling|smarted|smarts|itched|itches|itch|itching|were sore|was sore|are sore|is sore|were stiff|was stiff|pounded|pounds)\b|\bevery (?:bone|muscle|nerve|joint) in (his|her) body\b|\bfelt to (him|her) like\b|\b(?:an? |the )?(?:dull |sharp |old |sudden )?(?:ache|pain|stitch|cramp|twinge|numbness) (?:in|under|across|behind) (his|her) (?:[\w-]+ ){0,2}(?:back|side|knees?|legs?|feet|shoulders?|ribs|chest|head|fingers|hands?|neck|stomach|heel|toes)\b")
        .expect("constant pattern")
});

/// Something working on someone within: "The memory of that first wrong scent still galled
/// him", "the name had gone through him like a draught of cold air".
static WORKED_ON: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:galled|galls|rankled (?:with|in)|rankles (?:with|in)|nettled|nettles|irked|irks|haunted|haunts|tormented|torments|gnawed at|gnaws at|preyed on|preys on|weighed on|weighs on|nagged at|nags at)\s+(him|her)\b|\b(?:went|gone|ran|shot|passed|swept|coursed) through (him|her) like\b")
        .expect("constant pattern")
});

/// Another's opinion of the narrator: "thought me the most contemptible patient".
static THOUGHT_ME: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\b(?:thought|considered|judged|reckoned|set) (me|us) (?:down (?:for|as) )?(?:the|a|an|very|quite|too|so|most|rather|no better)\b")
        .expect("constant pattern")
});

/// A certainty or a resolve carried by a participle: "being quite sure that".
static BEING_SURE: LazyLock<Regex> = LazyLock::new(|| {
    super::pattern::compile(r"(?i)\bbeing (?:quite |perfectly |very |so |too |fully |privately |secretly )?(?:sure|certain|convinced|persuaded|determined|resolved|ashamed|jealous|envious|afraid|terrified|anxious) (?:that|of|to|lest)\b")
        .expect("constant pattern")
});

/// The inner life placed in someone other than the POV character in sentence `si`: (first
/// token, last token, whose).
pub(super) fn placed_within(ctx: &Ctx<'_>, si: usize, s: &Sentence) -> Vec<(usize, usize, Referent)> {
    let mut out = Vec::new();
    let feeling_named = s.tokens.iter().any(|t| is_in(EMOTION_NOUNS, &t.lower));
    for (i, t) in s.tokens.iter().enumerate() {
        // Not "their": "as their thoughts entangled" may take in the POV character.
        if !matches!(t.lower.as_str(), "his" | "her") && !t.lower.ends_with("'s") {
            continue;
        }
        // "in his slow old heart": up to three words of description before the place.
        let mut n = i + 1;
        while n < i + 4
            && s.tokens.get(n).is_some_and(|x| {
                x.plain_gap
                    && !is_in(MINDS, &x.lower)
                    && !is_in(BODY, &x.lower)
                    && x.lower != HEAD
                    && !super::text::is_function_word(&x.lower)
                    && !super::lexicon::is_past(&x.lower)
            })
            && s.tokens.get(n + 1).is_some_and(|x| x.plain_gap)
        {
            n += 1;
        }
        if !s.tokens.get(n).is_some_and(|x| is_in(MINDS, &x.lower) || is_in(BODY, &x.lower) || x.lower == HEAD) {
            n = i + 1;
        }
        let Some(place) = s.tokens.get(n).filter(|x| !x.barrier) else {
            continue;
        };
        let word = place.lower.as_str();
        let mind = is_in(MINDS, word);
        let body = is_in(BODY, word) && feeling_named;
        if !(mind || body || word == HEAD) {
            continue;
        }
        if s.tokens.get(n + 1).is_some_and(|x| is_in(THINGS, &x.lower)) {
            continue;
        }
        let inside = i > 0 && is_in(INTO, &s.tokens[i - 1].lower) && (word != HEAD || !matches!(s.tokens[i - 1].lower.as_str(), "round" | "around"));
        // "His heart was fluttering", "Her mind, as she lies there, runs on": the place as
        // the subject of its own verb; a head only when it does what no one else sees.
        let acting = i == 0
            || s.tokens[i - 1].barrier
            || matches!(s.tokens[i - 1].lower.as_str(), "and" | "but" | "yet" | "while");
        // "Gallaher's heart was in the right place": a judgement of character.
        let praised = s.tokens[n + 1..]
            .iter()
            .take(5)
            .map(|x| x.lower.as_str())
            .collect::<Vec<_>>()
            .windows(3)
            .any(|w| w == ["the", "right", "place"] || w[..2] == ["of", "gold"]);
        // "seemed shut up in his own thoughts": read from outside.
        let outward = s.tokens[i.saturating_sub(4)..i].iter().any(|x| {
            matches!(
                x.lower.as_str(),
                "seemed" | "seems" | "looked" | "looks" | "appeared" | "appears" | "if" | "though"
            )
        });
        if praised || outward {
            continue;
        }
        let acts = acting
            && if word == HEAD {
                s.tokens.get(n + 1).is_some_and(|x| is_in(HEAD_INSIDE, &x.lower))
            } else {
                // Its own verb, past an aside ("Her mind, as she lies there, runs on").
                mind && !super::people::subject_verbs(ctx, s, n).is_empty()
            };
        if !(inside || acts) {
            continue;
        }
        // From the clause's subject when it is someone else, so that only a perception
        // before them ("He thought of how she had locked in her heart") reads it as a guess.
        if let Some(who) = possessor_at(ctx, si, s, i) {
            let first = actor_before(ctx, si, i).map_or(i, |(f, _)| f);
            out.push((first, n, who));
        }
    }
    out
}

/// The inner life told by what stands for it (a memory brought back, a purpose kept from the
/// POV character, a certainty by participle or comparison, an intention, a body felt from
/// inside, a company's mind at once): (first token, last token, whose).
pub(super) fn motives_and_memories(
    ctx: &Ctx<'_>,
    si: usize,
    s: &Sentence,
) -> Vec<(usize, usize, Referent)> {
    let narration = ctx.prose.narration(s);
    let mut out = Vec::new();
    // One pass for the common case, a sentence none of them reads.
    if !ANY.is_match(narration) && inner_adverb_at(s).is_none() {
        return out;
    }
    for pattern in [&*NOTHING_WOULD, &*PART_OF] {
        if let Some(caps) = pattern.captures(narration)
            && let Some(who) = caps.get(1)
            && let Some(k) = token_at(s, s.start + who.start())
            && let Some(owner) = owner_at(ctx, si, s, k)
        {
            let first = token_at(s, s.start + caps.get(0).map_or(0, |m| m.start())).unwrap_or(k);
            out.push((first, k, owner));
        }
    }
    // "…, and privately sets him down for the queerest of them", "inwardly swollen with
    // pride", "laughing inwardly": an inner adverb anywhere in someone else's clause.
    if let Some(k) = inner_adverb_at(s)
        && let Some((first, who)) = actor_before(ctx, si, k)
    {
        out.push((first, k, who));
    }
    // "At first he meant to repaper the room, but afterwards he said…": a plan he told.
    let told = s.tokens.iter().any(|t| {
        matches!(
            t.lower.as_str(),
            "said" | "says" | "told" | "tells" | "announced" | "declared" | "explained" | "promised"
        )
    });
    if !told
        && let Some(m) = MEANT.find(narration)
        && let Some(at) = token_at(s, s.start + m.start())
        && let Some((first, who)) = actor_before(ctx, si, at)
        // The subject right before the verb: "he meant", "Brannock, who meant".
        && at.saturating_sub(first) <= 3
    {
        let end = token_at(s, s.start + m.end().saturating_sub(1)).unwrap_or(at);
        out.push((first, end, who));
    }
    // From the word after "Every" or "Not", which a capital would make look like a name.
    if let Some(m) = GROUP_MIND.find(narration)
        && let Some(at) = token_at(s, s.start + m.start())
    {
        let end = token_at(s, s.start + m.end().saturating_sub(1)).unwrap_or(at);
        out.push(((at + 1).min(end), end, Referent::Someone));
    }
    // Owned by the clause's subject.
    for pattern in [&*AS_SURE_AS, &*NO_INTENTION, &*THOUGHT_ME, &*PURPOSE] {
        if let Some(m) = pattern.find(narration)
            && let Some(at) = token_at(s, s.start + m.start())
            && let Some((first, who)) = actor_before(ctx, si, at)
        {
            let end = token_at(s, s.start + m.end().saturating_sub(1)).unwrap_or(at);
            out.push((first, end, who));
        }
    }
    if let Some(caps) = SENSED_FEELING.captures(narration)
        && caps.get(1).is_some_and(|phrase| {
            phrase
                .as_str()
                .split_whitespace()
                .any(|w| is_in(EMOTION_NOUNS, w) || is_in(FEELINGS_TASTED, w))
        })
        && let Some(at) = token_at(s, s.start + caps.get(0).map_or(0, |m| m.start()))
        && let Some((first, who)) = actor_before(ctx, si, at)
    {
        out.push((first, at, who));
    }
    // Owned by the possessive or the pronoun in the phrase.
    for pattern in [&*ENTERED_HEAD, &*INSIDE_THEM, &*ONE_GRIEF, &*BODY_FELT, &*WORKED_ON] {
        if let Some(caps) = pattern.captures(narration)
            && let Some(w) = (1..=4).find_map(|g| caps.get(g))
            && let Some(k) = token_at(s, s.start + w.start())
            && let Some(owner) = possessor_at(ctx, si, s, k).or_else(|| owner_at(ctx, si, s, k))
        {
            let first = token_at(s, s.start + caps.get(0).map_or(0, |m| m.start())).unwrap_or(k);
            out.push((first, k, owner));
        }
    }
    if let Some(caps) = BROUGHT_BACK.captures(narration)
        && let Some(k) = token_at(s, s.start + (1..=5).find_map(|g| caps.get(g)).map_or(0, |m| m.start()))
        && let Some(who) = owner_at(ctx, si, s, k)
    {
        out.push((k, k, who));
    }
    // A first-person narrator's present portrait of someone ("he carries out his revenge
    // calmly, being persuaded that…") is the narrow rules' to read.
    let portrait = ctx.input.pov == PointOfView::First && ctx.input.tense == Tense::Present;
    for (pattern, in_portrait) in [(&*HIDDEN_PURPOSE, true), (&*BEING_SURE, false)] {
        if portrait && !in_portrait {
            continue;
        }
        let Some(m) = pattern.captures(narration) else {
            continue;
        };
        let whole = m.get(0).map_or(0..0, |w| w.range());
        // "so that she should not see": the one kept from seeing must be the POV character,
        // and the one acting someone else.
        if let Some(seer) = m.get(1)
            && !super::people::pov_words(ctx).contains(&seer.as_str().to_lowercase())
        {
            continue;
        }
        let Some(at) = token_at(s, s.start + whole.start) else {
            continue;
        };
        let end = token_at(s, s.start + whole.end.saturating_sub(1)).unwrap_or(at);
        // From the one acting, so that only a perception before them reads it as a guess.
        if let Some((first, who)) = actor_before(ctx, si, at) {
            out.push((first, end, who));
        }
    }
    out
}

/// Every pattern `motives_and_memories` reads, at once.
static ANY: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(
        [
            &*BROUGHT_BACK, &*HIDDEN_PURPOSE, &*NOTHING_WOULD, &*PART_OF, &*MEANT, &*GROUP_MIND,
            &*AS_SURE_AS, &*NO_INTENTION, &*ENTERED_HEAD, &*SENSED_FEELING, &*INSIDE_THEM,
            &*ONE_GRIEF, &*BODY_FELT, &*WORKED_ON, &*THOUGHT_ME, &*BEING_SURE, &*PURPOSE,
        ]
        .map(|r| r.as_str()),
    )
    .expect("constant patterns")
});

/// Where "privately", "inwardly" or "secretly" stands in the sentence ("silently" is heard and
/// seen, so it is not among them here).
fn inner_adverb_at(s: &Sentence) -> Option<usize> {
    s.tokens
        .iter()
        .position(|t| matches!(t.lower.as_str(), "privately" | "inwardly" | "secretly"))
}

/// The subject of the clause before token `at`, where it starts and who it is, when it is
/// someone other than the POV character.
fn actor_before(ctx: &Ctx<'_>, si: usize, at: usize) -> Option<(usize, Referent)> {
    ctx.subjects(si)
        .into_iter()
        .rev()
        .find(|x| x.last < at)
        .map(|x| (x.first, super::mind_words::owner_of_mind(ctx, si, x.first, x.referent)))
        .filter(|(_, r)| r.is_other())
}

/// The token that starts at or after byte `at` of the prose.
fn token_at(s: &Sentence, at: usize) -> Option<usize> {
    s.tokens.iter().position(|t| t.start >= at)
}
