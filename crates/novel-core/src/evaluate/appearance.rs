//! Narration that contradicts a person's recorded looks: the colour of their eyes or hair
//! ("eyes": "grey" in their facts, or "a grey-eyed woman" in their description, and the scene
//! says "her blue eyes", "Maud's hair was black"), a scar on the other side of the face or body
//! ("a scar over his left eye" recorded, "the scar above his right eye" written), a beard on a
//! man recorded clean-shaven or the other way round. Only the same feature of the same person
//! counts: the owner is a possessive or a subject the checks can name ([`super::whose`]); a
//! pronoun that could be someone else makes a note, never a revision. Colours are compared by
//! family, so "hazel" agrees with green and brown and "dark" with brown and black; a sentence
//! with another colour that fits the record ("black hair streaked with grey"), a change of
//! look (dye, a wig, a disguise the record keeps), a trick of light or a likeness ("looked",
//! "in the lamplight") states nothing about the record and is left alone.

use super::ctx::Ctx;
use super::finding::Finding;
use super::lexicon::is_in;
use super::text::{Sentence, normalise};
use super::whose::{Whose, possessor, subject};
use crate::model::Character;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    Eyes,
    Hair,
}

impl Feature {
    fn noun(self) -> &'static str {
        match self {
            Feature::Eyes => "eyes",
            Feature::Hair => "hair",
        }
    }

    /// The feature a word names: "eyes", "hair", and the second half of "grey-eyed".
    fn of(word: &str) -> Option<Feature> {
        match word {
            "eyes" | "eye" | "eyed" => Some(Feature::Eyes),
            "hair" | "haired" => Some(Feature::Hair),
            _ => None,
        }
    }
}

// Colour families, as bits: a word may belong to several ("hazel" is green and brown).
const BLUE: u16 = 1;
const GREEN: u16 = 2;
const BROWN: u16 = 4;
const GREY: u16 = 8;
const BLACK: u16 = 16;
const VIOLET: u16 = 32;
const RED: u16 = 64;
const BLOND: u16 = 128;

/// The colour families a word gives a feature; 0 when it is no colour of that feature.
fn families(feature: Feature, word: &str) -> u16 {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    if word.contains('-') {
        return word.split('-').fold(0, |acc, w| acc | families(feature, w));
    }
    match (feature, word) {
        (_, "grey" | "gray" | "silver" | "silvery") => GREY,
        (_, "black" | "jet") => BLACK,
        (_, "brown") => BROWN,
        // "Dark eyes" is as often a look as a colour; dark hair is a colour.
        (Feature::Hair, "dark") => BROWN | BLACK,
        (Feature::Eyes, "blue" | "azure" | "cornflower") => BLUE,
        (Feature::Eyes, "green" | "emerald" | "jade") => GREEN,
        (Feature::Eyes, "hazel") => GREEN | BROWN,
        (Feature::Eyes, "amber") => BROWN,
        (Feature::Eyes, "steel" | "steely" | "slate") => GREY | BLUE,
        (Feature::Eyes, "violet") => VIOLET,
        (Feature::Hair, "red" | "ginger" | "copper" | "coppery" | "russet" | "carrot") => RED,
        (Feature::Hair, "fiery" | "flaming") => RED,
        (Feature::Hair, "auburn" | "chestnut") => RED | BROWN,
        (Feature::Hair, "brunette") => BROWN,
        (Feature::Hair, "mousy" | "mousey") => BROWN | BLOND,
        (Feature::Hair, "sandy") => BLOND | RED,
        (Feature::Hair, "blond" | "blonde" | "fair" | "golden" | "flaxen" | "yellow") => BLOND,
        (Feature::Hair, "white" | "snowy" | "hoary") => GREY,
        (Feature::Hair, "raven") => BLACK,
        _ => 0,
    }
}

/// Words that make a sentence say nothing of the record's colour: the look changed (dye, a
/// wig), the light or a likeness colours it, or it is a memory, wish or denial.
#[rustfmt::skip]
const NOT_THE_RECORD: &[&str] = &[
    "dyed", "dye", "dyes", "wig", "wigs", "hood", "hooded", "powder", "powdered", "wet", "rain",
    "soaked", "sodden", "soot", "sooty", "blood", "bloody", "mud", "dust", "dusty", "ash",
    "ink", "paint", "painted", "lamplight", "firelight", "moonlight", "candlelight",
    "sunlight", "shadow", "shadows", "darkness", "gloom", "seemed", "seem", "seems", "looked",
    "appeared", "like", "once", "used", "remembered", "dreamed", "dreamt", "imagined", "if",
    "would", "not", "never", "no", "portrait", "painting", "picture", "photograph",
    "reflection", "mirror", "disguise", "disguised", "greying", "graying", "grizzled",
    "streaked", "flecked", "salt-and-pepper", "bleached", "faded", "whitened", "turned",
    "lenses", "spectacles", "glasses", "mask", "masked", "child", "baby", "young", "younger",
];

/// Words that make a sentence state nothing of any look: a memory, wish, denial, image or
/// mirror (which swaps the sides).
#[rustfmt::skip]
const NOT_STATED: &[&str] = &[
    "once", "used", "remembered", "dreamed", "dreamt", "imagined", "if", "would", "not",
    "never", "no", "portrait", "painting", "picture", "photograph", "reflection", "mirror",
    "disguise", "disguised",
];

/// Body parts a scar or mark may be on.
#[rustfmt::skip]
const PARTS: &[&str] = &[
    "cheek", "hand", "arm", "forearm", "eye", "brow", "eyebrow", "temple", "jaw", "leg",
    "shoulder", "wrist", "neck", "ear", "knee", "thigh", "foot", "palm", "side", "hip",
];

const MARKS: &[&str] = &[
    "scar",
    "scarred",
    "scars",
    "birthmark",
    "tattoo",
    "tattooed",
];

/// What a person's record says they look like.
#[derive(Debug, Default)]
struct Looks {
    /// (feature, colour families, the recorded words, where it is recorded).
    colours: Vec<(Feature, u16, String, String)>,
    /// (body part, "left"/"right", the recorded words, where).
    marks: Vec<(String, String, String, String)>,
    /// Whether they have a beard (true) or are clean-shaven (false), with the words and where.
    beard: Option<(bool, String, String)>,
}

fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(|w| normalise(w.trim_matches('-')))
        .collect()
}

/// Colours of eyes and hair named in a piece of a record: "grey eyes", "a grey-eyed woman",
/// "long red hair" (a colour up to three words before the noun).
fn colours_in(text: &str) -> Vec<(Feature, u16, String)> {
    let mut out = Vec::new();
    for clause in text.split([',', ';', '.', '(', ')']) {
        let words = words_of(clause);
        for (k, w) in words.iter().enumerate() {
            if let Some((head, tail)) = w.rsplit_once('-')
                && let Some(f) = Feature::of(tail).filter(|_| tail.ends_with("ed"))
            {
                let fam = families(f, head);
                if fam != 0 {
                    out.push((f, fam, w.clone()));
                }
                continue;
            }
            let Some(f) = Feature::of(w) else { continue };
            let from = k.saturating_sub(3);
            let fam = words[from..k].iter().fold(0, |acc, x| acc | families(f, x));
            if fam != 0 {
                out.push((f, fam, words[from..=k].join(" ")));
            }
        }
    }
    out
}

/// Scars and marks with a side: "a scar on his left cheek" → ("cheek", "left").
fn marks_in(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for clause in text.split([',', ';', '.', '(', ')']) {
        let words = words_of(clause);
        if !words.iter().any(|w| MARKS.contains(&w.as_str())) {
            continue;
        }
        for k in 0..words.len().saturating_sub(1) {
            let side = words[k].as_str();
            let part = part_of(&words[k + 1]);
            if matches!(side, "left" | "right")
                && let Some(part) = part
            {
                out.push((
                    part.to_string(),
                    side.to_string(),
                    clause.trim().to_string(),
                ));
            }
        }
    }
    out
}

fn part_of(word: &str) -> Option<&'static str> {
    let w = word.strip_suffix('s').unwrap_or(word);
    PARTS.iter().find(|p| **p == word || **p == w).copied()
}

fn beard_in(text: &str) -> Option<bool> {
    let lower = text.to_lowercase();
    let shaven = ["clean-shaven", "clean shaven", "beardless", "no beard"]
        .iter()
        .any(|p| lower.contains(p));
    let beard = words_of(&lower)
        .iter()
        .any(|w| matches!(w.as_str(), "beard" | "bearded"));
    match (beard && !lower.contains("no beard"), shaven) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

impl Looks {
    fn of(c: &Character) -> Looks {
        let mut looks = Looks::default();
        let mut pieces: Vec<(String, String)> =
            vec![(c.description.clone(), "the description".into())];
        for (key, value) in &c.facts {
            let k = key.to_lowercase();
            let feature = if k.contains("eye") {
                Some(Feature::Eyes)
            } else if k.contains("hair") {
                Some(Feature::Hair)
            } else {
                None
            };
            let place = format!("the fact “{key}”");
            if let Some(f) = feature {
                let fam = words_of(value)
                    .iter()
                    .fold(0, |acc, w| acc | families(f, w));
                if fam != 0 {
                    looks
                        .colours
                        .push((f, fam, value.trim().to_string(), place));
                }
                continue;
            }
            if k.contains("beard") {
                let has = !matches!(
                    value.trim().to_lowercase().as_str(),
                    "no" | "none" | "false" | "clean-shaven" | "clean shaven"
                );
                looks.beard = Some((has, value.trim().to_string(), place));
                continue;
            }
            pieces.push((value.clone(), place));
        }
        for (text, place) in &pieces {
            for (f, fam, words) in colours_in(text) {
                if !looks.colours.iter().any(|(g, ..)| *g == f) {
                    looks.colours.push((f, fam, words, place.clone()));
                }
            }
            for (part, side, words) in marks_in(text) {
                looks.marks.push((part, side, words, place.clone()));
            }
            if looks.beard.is_none()
                && let Some(b) = beard_in(text)
            {
                looks.beard = Some((b, text.trim().to_string(), place.clone()));
            }
        }
        looks
    }

    fn is_empty(&self) -> bool {
        self.colours.is_empty() && self.marks.is_empty() && self.beard.is_none()
    }
}

/// A disguise the record keeps active changes how the person looks: their looks are not held
/// against the page while it lasts.
fn disguised(c: &Character) -> bool {
    c.active_conditions().any(|k| {
        let text = format!("{} {}", k.kind, k.name).to_lowercase();
        ["disguise", "dyed", "wig", "dressed as", "masked"]
            .iter()
            .any(|w| text.contains(w))
    })
}

pub(super) fn contradictions(ctx: &Ctx<'_>) -> Vec<Finding> {
    let looks: Vec<Looks> = ctx
        .people
        .iter()
        .map(|c| {
            if disguised(c) {
                Looks::default()
            } else {
                Looks::of(c)
            }
        })
        .collect();
    if looks.iter().all(Looks::is_empty) {
        return Vec::new();
    }
    let shaving = ctx.prose.sentences.iter().any(|s| {
        s.tokens.iter().any(|t| {
            matches!(
                t.lower.as_str(),
                "shave" | "shaved" | "shaves" | "shaving" | "razor" | "stubble" | "grew" | "grown"
            )
        })
    });
    let mut out = Vec::new();
    for (si, s) in ctx.prose.sentences.iter().enumerate() {
        if s.tokens.is_empty() || s.tokens.iter().any(|t| is_in(NOT_STATED, &t.lower)) {
            continue;
        }
        let colour_said = !s.tokens.iter().any(|t| is_in(NOT_THE_RECORD, &t.lower));
        let found = colour_said
            .then(|| colour(ctx, si, s, &looks))
            .flatten()
            .or_else(|| mark(ctx, si, s, &looks))
            .or_else(|| (!shaving).then(|| beard(ctx, si, s, &looks)).flatten());
        out.extend(found);
    }
    out
}

/// Whether the text between tokens `a` and `b` of a sentence is only spaces and commas.
fn close(ctx: &Ctx<'_>, s: &Sentence, a: usize, b: usize) -> bool {
    ctx.prose.original[s.tokens[a].end..s.tokens[b].start]
        .chars()
        .all(|c| c.is_whitespace() || c == ',')
}

/// "her blue eyes", "Maud's long red hair", "his eyes were blue", "the red-haired Maud".
fn colour(ctx: &Ctx<'_>, si: usize, s: &Sentence, looks: &[Looks]) -> Option<Finding> {
    for k in 0..s.tokens.len() {
        let word = s.tokens[k].lower.as_str();
        let (feature, compound) = match word.rsplit_once('-') {
            Some((head, tail)) if tail.ends_with("ed") => match Feature::of(tail) {
                Some(f) => (f, families(f, head)),
                None => continue,
            },
            _ => match Feature::of(word) {
                // "a black eye" is a bruise: only "eyes" gives their colour.
                Some(f) if !matches!(word, "eyed" | "haired" | "eye") => (f, 0),
                _ => continue,
            },
        };
        let (owner, stated, from) = if compound != 0 {
            // "the red-haired Maud": a compound just before a name.
            let Some(h) = ctx
                .hits(s)
                .into_iter()
                .find(|h| h.first == k + 1 && !h.possessive && s.tokens[k + 1].plain_gap)
            else {
                continue;
            };
            (
                Whose {
                    who: h.who,
                    sure: true,
                },
                compound,
                k,
            )
        } else {
            let Some((owner, at, before)) = owner_before(ctx, si, s, k, feature) else {
                continue;
            };
            let stated = if before != 0 {
                before
            } else {
                predicate(s, k, feature)
            };
            (owner, stated, at)
        };
        if stated == 0 {
            continue;
        }
        let Some((_, recorded, words, place)) = looks[owner.who]
            .colours
            .iter()
            .find(|(f, ..)| *f == feature)
        else {
            continue;
        };
        // Any colour in the sentence that fits the record: "black hair going to grey".
        let fits = s
            .tokens
            .iter()
            .any(|t| families(feature, &t.lower) & recorded != 0);
        if stated & recorded != 0 || fits {
            continue;
        }
        let name = ctx.name(owner.who);
        let noun = feature.noun();
        let (at, to) = (s.tokens[from].start, s.tokens[k].end);
        let excerpt = ctx.prose.excerpt(s, at);
        return Some(finding(
            ctx,
            s,
            (at, to),
            owner,
            format!(
                "The story memory records {name}'s {noun} as “{words}” ({place}, record {id}), \
                 but the narration gives {name} other {noun} here: “{excerpt}”. Keep to the \
                 record, or show the change on the page (dye, a wig, a disguise) if the story \
                 means it.",
                id = ctx.people[owner.who].id,
            ),
            excerpt,
        ));
    }
    None
}

/// The possessive that owns the feature noun at token `k`, up to four words before it across
/// adjectives and commas ("her long, red hair"): the owner, its token, and the colour families
/// of the words between.
fn owner_before(
    ctx: &Ctx<'_>,
    si: usize,
    s: &Sentence,
    k: usize,
    feature: Feature,
) -> Option<(Whose, usize, u16)> {
    let mut fam = 0;
    for j in (k.saturating_sub(5)..k).rev() {
        if !close(ctx, s, j, j + 1) {
            return None;
        }
        if let Some(owner) = possessor(ctx, si, s, j) {
            return Some((owner, j, fam));
        }
        let w = s.tokens[j].lower.as_str();
        if super::text::is_function_word(w) || w.ends_with("'s") {
            return None;
        }
        fam |= families(feature, w);
    }
    None
}

/// "…eyes were blue", "…hair is a dark red": the colour stated after the noun.
fn predicate(s: &Sentence, k: usize, feature: Feature) -> u16 {
    let Some(be) = s.tokens.get(k + 1).filter(|t| t.plain_gap) else {
        return 0;
    };
    if !matches!(be.lower.as_str(), "was" | "were" | "is" | "are") {
        return 0;
    }
    let mut fam = 0;
    for t in s.tokens.iter().skip(k + 2).take(3) {
        if !t.plain_gap {
            break;
        }
        let f = families(feature, &t.lower);
        if f == 0
            && !matches!(
                t.lower.as_str(),
                "a" | "very" | "quite" | "so" | "deep" | "pale" | "bright"
            )
        {
            break;
        }
        fam |= f;
    }
    fam
}

/// "the scar on his right cheek" when the record puts it on the left.
fn mark(ctx: &Ctx<'_>, si: usize, s: &Sentence, looks: &[Looks]) -> Option<Finding> {
    if !s.tokens.iter().any(|t| MARKS.contains(&t.lower.as_str())) {
        return None;
    }
    for k in 1..s.tokens.len().saturating_sub(1) {
        let side = s.tokens[k].lower.as_str();
        if !matches!(side, "left" | "right") || !s.tokens[k + 1].plain_gap {
            continue;
        }
        let Some(part) = part_of(&s.tokens[k + 1].lower) else {
            continue;
        };
        let Some(owner) = possessor(ctx, si, s, k - 1).filter(|_| s.tokens[k].plain_gap) else {
            continue;
        };
        let recorded = &looks[owner.who].marks;
        let same_part: Vec<_> = recorded.iter().filter(|(p, ..)| p == part).collect();
        if same_part.is_empty() || same_part.iter().any(|(_, sd, ..)| sd == side) {
            continue;
        }
        let (_, recorded_side, words, place) = same_part[0];
        let name = ctx.name(owner.who);
        let (at, to) = (s.tokens[k - 1].start, s.tokens[k + 1].end);
        let excerpt = ctx.prose.excerpt(s, at);
        return Some(finding(
            ctx,
            s,
            (at, to),
            owner,
            format!(
                "The story memory records {name}'s mark on the {recorded_side} {part} \
                 (“{words}”, {place}, record {id}), but the narration puts it on the {side}: \
                 “{excerpt}”. Put it on the {recorded_side}, as recorded.",
                id = ctx.people[owner.who].id,
            ),
            excerpt,
        ));
    }
    None
}

/// "his beard" for a man recorded clean-shaven, "his clean-shaven jaw" (or "Bram was
/// clean-shaven") for one recorded bearded.
fn beard(ctx: &Ctx<'_>, si: usize, s: &Sentence, looks: &[Looks]) -> Option<Finding> {
    for k in 0..s.tokens.len() {
        let w = s.tokens[k].lower.as_str();
        let says_beard = match w {
            "beard" | "bearded" => true,
            "clean-shaven" | "beardless" => false,
            _ => continue,
        };
        let owner = if k > 0 && close(ctx, s, k - 1, k) {
            possessor(ctx, si, s, k - 1)
        } else {
            None
        }
        .or_else(|| {
            // "Bram was clean-shaven", "he was bearded".
            let be = k.checked_sub(1)?;
            let who = be.checked_sub(1)?;
            (matches!(s.tokens[be].lower.as_str(), "was" | "is") && s.tokens[k].plain_gap)
                .then(|| subject(ctx, si, s, who).filter(|(_, last)| *last == who))
                .flatten()
                .map(|(o, _)| o)
        });
        // "his clean-shaven jaw": the possessive is before the adjective.
        let owner = owner.or_else(|| {
            (!says_beard && k > 0)
                .then(|| possessor(ctx, si, s, k - 1))
                .flatten()
        });
        let Some(owner) = owner else { continue };
        let Some((recorded, words, place)) = &looks[owner.who].beard else {
            continue;
        };
        if *recorded == says_beard {
            continue;
        }
        let name = ctx.name(owner.who);
        let is = if *recorded { "bearded" } else { "clean-shaven" };
        let at = s.tokens[k.saturating_sub(1)].start;
        let excerpt = ctx.prose.excerpt(s, at);
        return Some(finding(
            ctx,
            s,
            (at, s.tokens[k].end),
            owner,
            format!(
                "The story memory records {name} as {is} (“{words}”, {place}, record {id}), but \
                 the narration says otherwise: “{excerpt}”. Keep to the record, or show the \
                 change on the page.",
                id = ctx.people[owner.who].id,
            ),
            excerpt,
        ));
    }
    None
}

fn finding(
    ctx: &Ctx<'_>,
    s: &Sentence,
    (at, to): (usize, usize),
    owner: Whose,
    message: String,
    excerpt: String,
) -> Finding {
    owner.contradiction(
        ctx,
        s,
        (at, to),
        &ctx.people[owner.who].id,
        message,
        excerpt,
    )
}
