//! Who a sentence is about: the subjects of its clauses (known characters by name, names the
//! memory does not know, "he", "she", "I") and who each pronoun refers to. In deep third a
//! pronoun of the POV character's gender is the POV character unless the same sentence has just
//! made another character of that gender the subject ("Maud smiled, but inside she…"); the
//! other gender is someone else. In the first person "she" or "he" of the narrator's gender is
//! the narrator (a person slip) only when nobody else of that gender has been mentioned, no "I"
//! or dialogue stands beside it, and the narration just before spoke as "I" (or the scene never
//! does); anyone named by what they are ("our visitor") is someone else.
//! When it cannot tell, it says so ([`Referent::Unclear`]) and the checks stay silent.

use super::ctx::Ctx;
pub(super) use super::subject::{Agreement, Referent, Subject};
use super::text::Sentence;
use super::verbs::{is_ing, past_base, present_third_base};
use crate::config::PointOfView;

/// How many sentences back a pronoun's antecedent is looked for.
const LOOK_BACK: usize = 12;

/// Capitalised words that start sentences without naming anyone.
#[rustfmt::skip]
const NOT_NAMES: &[&str] = &[
    "i", "the", "a", "an", "he", "she", "it", "they", "we", "you", "everyone", "everybody",
    "someone", "somebody", "nobody", "no", "nothing", "something", "anyone", "anybody", "maybe",
    "perhaps", "then", "now", "but", "and", "so", "yet", "still", "there", "here", "this",
    "that", "these", "those", "her", "his", "my", "our", "their", "its", "when", "while", "if",
    "as", "after", "before", "god", "heaven", "fate", "people", "none", "all", "both", "each",
    "some", "one", "neither", "either", "what", "who", "why", "how", "where", "which", "even",
    "only", "just", "once", "later", "soon", "again", "yes", "oh", "well", "surely", "of",
    "in", "on", "at", "by", "for", "with", "from", "to", "into", "out", "up", "down", "for",
    "because", "though", "although", "until", "since", "instead", "meanwhile", "suddenly",
    "finally", "outside", "inside", "behind", "above", "below", "beyond", "across", "around",
    "sir", "madam", "mister", "miss", "mr", "mrs", "ms", "dr", "captain", "lord", "lady",
    "mother", "father", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    "sunday", "christ", "hell", "damn", "whatever", "whoever", "everything", "anything",
];

#[rustfmt::skip]
const FEMALE_NOUNS: &[&str] = &[
    "woman", "women", "girl", "girls", "lady", "mother", "sister", "wife", "daughter", "aunt",
    "grandmother", "widow", "widows", "fishwife", "landlady", "housekeeper", "queen",
    "princess", "mistress", "nun", "maid", "matron", "niece", "bride", "madam",
    "harbourmistress", "baker's wife", "seamstress", "waitress", "actress", "duchess",
];

#[rustfmt::skip]
const MALE_NOUNS: &[&str] = &[
    "man", "men", "boy", "boys", "father", "brother", "husband", "son", "uncle", "grandfather",
    "gentleman", "lord", "king", "prince", "monk", "priest", "ferryman", "fisherman",
    "landlord", "fellow", "lad", "nephew", "groom", "master", "boatman", "watchman", "sailor",
    "gaoler", "guard", "clerk", "curate", "bread-seller", "fishmonger", "innkeeper",
];

/// The gender a personal pronoun speaks of: "him" → "he".
pub(super) fn pronoun_gender(word: &str) -> Option<&'static str> {
    match word {
        "he" | "him" | "his" | "himself" => Some("he"),
        "she" | "her" | "hers" | "herself" => Some("she"),
        _ => None,
    }
}

/// People named by what they are, of either gender: in the first person never the narrator.
#[rustfmt::skip]
const PERSON_NOUNS: &[&str] = &[
    "visitor", "other", "stranger", "companion", "assistant", "porter", "servant", "owner",
    "officer", "doctor", "driver", "coachman", "cabman", "policeman", "constable", "inspector",
    "waiter", "child", "cook", "nurse", "patient", "client", "customer", "guest", "host",
    "butler", "footman", "manager", "agent", "messenger", "pilot", "newcomer", "intruder",
    "prisoner", "soldier", "captain", "mate", "cabin-boy", "boatswain", "coxswain", "surgeon",
    "squire", "villain", "thief", "burglar", "criminal", "detective", "lawyer", "attorney",
    "banker", "merchant", "shopkeeper", "tenant", "neighbour", "neighbor", "friend",
];

/// A noun for a person: gendered ("wife", "clerk") or not ("servant", "captain").
pub(super) fn is_person_noun(word: &str) -> bool {
    noun_gender(word).is_some() || PERSON_NOUNS.contains(&word)
}

/// A gendered mention: "woman" → "she".
fn noun_gender(word: &str) -> Option<&'static str> {
    if FEMALE_NOUNS.contains(&word) {
        Some("she")
    } else if MALE_NOUNS.contains(&word) {
        Some("he")
    } else {
        None
    }
}

/// A capitalised word that may be a name the memory does not know: not a known name, not a
/// sentence-opening word, not part of a known place's name, not an inscription in capitals.
pub(super) fn unknown_name(ctx: &Ctx<'_>, s: &Sentence, i: usize) -> bool {
    let t = &s.tokens[i];
    let word = ctx.prose.word(t);
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !first.is_uppercase() || word.chars().count() < 2 || word.chars().all(char::is_uppercase) {
        return false;
    }
    let lower = t.lower.trim_end_matches("'s");
    !NOT_NAMES.contains(&lower)
        && !ctx.place_words.iter().any(|w| w == lower)
        && noun_gender(lower).is_none()
}

/// Whether the word after token `i` reads as a verb: a known past or present form, an
/// auxiliary or a modal.
pub(super) fn verb_follows(s: &Sentence, i: usize) -> bool {
    let mut j = i + 1;
    while let Some(t) = s.tokens.get(j) {
        if !t.plain_gap {
            return false;
        }
        if super::lexicon::is_between(&t.lower) {
            j += 1;
            continue;
        }
        let w = t.lower.as_str();
        // Any "-ed" word after a name is a verb far more often than not ("Mr Browne enjoyed").
        return past_base(w).is_some()
            || (w.len() > 4 && w.ends_with("ed"))
            || present_third_base(w).is_some()
            || matches!(
                w,
                "was"
                    | "were"
                    | "had"
                    | "has"
                    | "is"
                    | "are"
                    | "would"
                    | "could"
                    | "couldn't"
                    | "can't"
                    | "didn't"
                    | "did"
                    | "must"
                    | "might"
                    | "will"
                    | "won't"
                    | "wasn't"
                    | "hadn't"
            );
    }
    false
}

/// After a known person's name, a word in "-s" that the verb list does not know is still
/// their verb far more often than not ("Sir Leicester attends the ceremony").
fn present_form_follows(s: &Sentence, last: usize) -> bool {
    s.tokens.get(last + 1).is_some_and(|t| {
        let w = t.lower.as_str();
        t.plain_gap
            && w.len() > 3
            && w.ends_with('s')
            && !w.ends_with("ss")
            && !w.ends_with("us")
            && !w.ends_with("is")
            && !w.contains('\'')
            && !super::text::is_function_word(w)
    })
}

/// Verbs of touching or looking at another person: "Maud took her hand" is someone else's.
#[rustfmt::skip]
const CONTACT: &[&str] = &[
    "took", "takes", "held", "holds", "grabbed", "grabs", "squeezed", "squeezes", "touched",
    "touches", "kissed", "kisses", "stroked", "strokes", "patted", "pats", "shook", "shakes",
    "clasped", "clasps", "gripped", "grips", "pressed", "presses", "caught", "catches", "seized",
    "seizes", "searched", "searches", "met", "meets", "studied", "studies", "watched",
    "watches", "sought", "seeks", "brushed", "brushes", "cupped", "cups", "rubbed", "rubs",
];

/// "Greta kept her hands steady": a possessive after a verb that is not one of contact
/// belongs, by default, to the clause's own subject.
fn own_possessive(s: &Sentence, k: usize) -> bool {
    let possessive = s.tokens.get(k + 1).is_some_and(|n| {
        n.plain_gap && !super::text::is_function_word(&n.lower) && !n.lower.ends_with("ly")
    });
    let after_contact = k
        .checked_sub(1)
        .is_some_and(|p| CONTACT.contains(&s.tokens[p].lower.as_str()));
    possessive && !after_contact
}

/// What the narration has mentioned before a point: known people and gendered mentions.
#[derive(Debug, Clone, Copy)]
enum Mention {
    Person(usize),
    Gender(&'static str),
    /// A capitalised name the memory does not know: of either gender.
    Unknown,
    /// Anyone at all, of a gender: "every man", "a man is", "man": "his" after it is nobody in
    /// the scene.
    Generic(&'static str),
}

/// "every man", "every decent man", "any woman", "Man is stupid": nobody in particular.
fn generic_mention(s: &Sentence, i: usize) -> bool {
    let quantifier = |k: Option<usize>| {
        k.is_some_and(|k| {
            matches!(
                s.tokens[k].lower.as_str(),
                "every" | "any" | "no" | "each" | "whatever"
            )
        })
    };
    quantifier(i.checked_sub(1))
        || quantifier(i.checked_sub(2))
        || (i == 0
            && matches!(
                s.tokens[i].lower.as_str(),
                "man" | "men" | "woman" | "women"
            ))
}

/// Every mention in sentence `s` before token `before`, in order.
fn mentions_in(ctx: &Ctx<'_>, s: &Sentence, before: usize) -> Vec<Mention> {
    let mut out = Vec::new();
    let hits = ctx.hits(s);
    let mut i = 0;
    while i < before.min(s.tokens.len()) {
        if let Some(h) = hits.iter().find(|h| h.first == i) {
            out.push(Mention::Person(h.who));
            i = h.last + 1;
            continue;
        }
        let t = &s.tokens[i];
        // "I am a sick man": the narrator, not someone else.
        let narrator_is = ctx.input.pov == PointOfView::First
            && s.tokens[i.saturating_sub(4)..i]
                .windows(2)
                .any(|w| w[0].lower == "i" && matches!(w[1].lower.as_str(), "am" | "was" | "'m"));
        if noun_gender(&t.lower).is_some() && narrator_is {
            i += 1;
            continue;
        }
        if let Some(g) = noun_gender(&t.lower) {
            out.push(if generic_mention(s, i) {
                Mention::Generic(g)
            } else {
                Mention::Gender(g)
            });
        } else if (unknown_name(ctx, s, i) && i > 0)
            || (PERSON_NOUNS.contains(&t.lower.as_str())
                && i > 0
                && matches!(
                    s.tokens[i - 1].lower.as_str(),
                    "my" | "our" | "the" | "this" | "that" | "his" | "her" | "their"
                ))
        {
            out.push(Mention::Unknown);
        }
        i += 1;
    }
    out
}

impl Ctx<'_> {
    fn gender_of(&self, who: usize) -> Option<&'static str> {
        self.genders[who]
    }

    /// Sentence `si` and the few narration sentences before it, nearest first: who "she" is
    /// does not depend on a page ago, and a long manuscript must not cost a scan back to its
    /// start per pronoun.
    fn back_from(&self, si: usize) -> impl Iterator<Item = &Sentence> {
        let here = std::iter::once(&self.prose.sentences[si]);
        let before = self.prose.sentences[..si]
            .iter()
            .rev()
            .filter(|s| !s.tokens.is_empty())
            .take(LOOK_BACK);
        here.chain(before)
    }

    /// Whether anyone but the POV character of gender `g` (or of unknown gender) was
    /// mentioned in the narration before sentence `si`, however long ago.
    fn other_seen_before(&self, si: usize, g: &str) -> bool {
        let seen = self.others_seen.get_or_init(|| {
            let mut out = Vec::with_capacity(self.prose.sentences.len());
            let (mut she, mut he) = (false, false);
            for s in &self.prose.sentences {
                out.push((she, he));
                for m in mentions_in(self, s, s.tokens.len()) {
                    let g = match m {
                        Mention::Person(w) if w != self.pov => self.gender_of(w),
                        Mention::Person(_) | Mention::Generic(_) => None,
                        Mention::Gender(x) => Some(x),
                        Mention::Unknown => {
                            she = true;
                            he = true;
                            None
                        }
                    };
                    match g {
                        Some("she") => she = true,
                        Some(_) => he = true,
                        None => {}
                    }
                }
            }
            out
        });
        let (she, he) = seen[si];
        if g == "she" { she } else { he }
    }

    /// The latest mention of someone other than the POV character of gender `g` before token
    /// `ti` of sentence `si` (a known person, or `Someone`).
    fn latest_other(&self, si: usize, ti: usize, g: &str) -> Option<Referent> {
        for (k, s) in self.back_from(si).enumerate() {
            let limit = if k == 0 { ti } else { s.tokens.len() };
            for m in mentions_in(self, s, limit).into_iter().rev() {
                match m {
                    Mention::Person(w) if w != self.pov && self.gender_of(w) == Some(g) => {
                        return Some(Referent::Person(w));
                    }
                    Mention::Gender(x) if x == g => return Some(Referent::Someone),
                    Mention::Generic(x) if x == g => return Some(Referent::Unclear),
                    Mention::Unknown => return Some(Referent::Someone),
                    _ => {}
                }
            }
        }
        None
    }

    /// Who "he" or "she" at token `ti` of sentence `si` refers to.
    pub(super) fn resolve(&self, si: usize, ti: usize, pronoun: &str) -> Referent {
        let Some(g) = pronoun_gender(pronoun) else {
            return Referent::Unclear;
        };
        match self.input.pov {
            PointOfView::First => {
                // "Dr. Watson felt easier in his mind": the narrator, named as the subject
                // just before, owns the pronoun (a person slip the person check reports).
                let s = &self.prose.sentences[si];
                let named_before = self.pov_pronoun == Some(g)
                    && self.hits(s).iter().any(|h| {
                        h.who == self.pov
                            && h.last < ti
                            && !s.tokens[h.last + 1..ti].iter().any(|t| t.barrier)
                    });
                if named_before {
                    return Referent::Pov;
                }
                let other = self.latest_other(si, ti, g);
                match (other, self.pov_pronoun == Some(g)) {
                    (Some(r), _) => r,
                    (None, true) if self.other_seen_before(si, g) => Referent::Someone,
                    (None, true) if self.someone_else_beside(si, g) => Referent::Someone,
                    (None, true) if self.other_named_after(si, g) => Referent::Someone,
                    (None, true) if self.narrator_speaking_before(si) => Referent::Pov,
                    (None, true) => Referent::Someone,
                    (None, false) => Referent::Someone,
                }
            }
            PointOfView::DeepThird => match self.pov_pronoun {
                None => Referent::Unclear,
                Some(p) if p != g => self.latest_other(si, ti, g).unwrap_or(Referent::Someone),
                // "She had decided not to tell Tamsin": not Tamsin.
                Some(_) if self.pov_named_after(si, ti) => {
                    self.latest_other(si, ti, g).unwrap_or(Referent::Someone)
                }
                Some(_) => self
                    .same_clause_subject(si, ti, g)
                    .or_else(|| self.carried_subject(si, ti, g))
                    .unwrap_or(Referent::Pov),
            },
        }
    }

    /// In the first person, whether someone else of gender `g` is named in the sentences after
    /// `si` ("But he was not destined to go far. With a cry John seizes the branch"): a "he"
    /// with another man about is that man, not the narrator slipping.
    fn other_named_after(&self, si: usize, g: &str) -> bool {
        self.prose.sentences[si..].iter().take(4).any(|s| {
            mentions_in(self, s, s.tokens.len()).into_iter().any(|m| match m {
                Mention::Person(w) => w != self.pov && self.gender_of(w) == Some(g),
                Mention::Gender(x) => x == g,
                _ => false,
            })
        })
    }

    /// In the first person, whether the narration around sentence `si` shows that "he" or
    /// "she" (gender `g`) is not the narrator though no one was named: the sentence, or one
    /// of its neighbours that uses the pronoun too, speaks of the narrator as "I" ("I do not
    /// believe he had the strength"), or dialogue is being spoken beside it (a speaker and a
    /// listener: "said I. He shrugged his shoulders"). A narrator slipping into "he" does it
    /// in narration that is about themselves alone ("I am a sick man. He believes his liver
    /// is diseased").
    fn someone_else_beside(&self, si: usize, g: &str) -> bool {
        let sentences = &self.prose.sentences;
        let narration_i = |s: &Sentence| {
            s.tokens.iter().any(|t| {
                matches!(
                    t.lower.as_str(),
                    "i" | "me" | "my" | "myself" | "we" | "us" | "our" | "ourselves"
                )
            })
        };
        let uses = |s: &Sentence| s.tokens.iter().any(|t| pronoun_gender(&t.lower) == Some(g));
        let spoken = |s: &Sentence| {
            s.tokens.is_empty() || self.prose.original[s.start..s.end].contains(['"', '“', '”'])
        };
        let near = si.saturating_sub(2)..(si + 3).min(sentences.len());
        narration_i(&sentences[si])
            || near.clone().any(|k| uses(&sentences[k]) && narration_i(&sentences[k]))
            || (si.saturating_sub(2)..=si).any(|k| spoken(&sentences[k]))
    }

    /// In the first person, whether "he" or "she" with no one else in sight can be the
    /// narrator slipping: the narration just before speaks as "I" ("I am a sick man. He
    /// believes his liver is diseased"), or the scene never says "I" at all (written wholly
    /// in the third person). Otherwise an unnamed "he" is someone the narrator watches.
    fn narrator_speaking_before(&self, si: usize) -> bool {
        let says_i = |s: &Sentence| {
            s.tokens
                .iter()
                .any(|t| matches!(t.lower.as_str(), "i" | "me" | "my" | "myself" | "i'm" | "i'd"))
        };
        let sentences = &self.prose.sentences;
        sentences[si.saturating_sub(2)..si].iter().any(says_i)
            || !sentences.iter().any(says_i)
    }

    /// "Mr. George takes the boy's hand. He is sick at heart": a pronoun opening a sentence
    /// carries on the subject that opened the sentence just before, in the same paragraph,
    /// when that subject is another character of the pronoun's gender and the POV character
    /// is not named or pointed at there (the centring of ordinary English narration).
    pub(super) fn carried_subject(&self, si: usize, ti: usize, g: &str) -> Option<Referent> {
        if si == 0 {
            return None;
        }
        let here = &self.prose.sentences[si];
        // The subject after an opening phrase counts as opening the sentence ("Ashamed of the
        // state he was in, he let Mr Browne lead him"): nobody is named in the phrase.
        let after_opening = ti > 0
            && self.prose.original[here.tokens[ti - 1].end..here.tokens[ti].start].contains(',')
            && !here.tokens[..ti].iter().any(|t| t.barrier)
            && !self.hits(here).iter().any(|h| h.first < ti)
            && pronoun_gender(&here.tokens[0].lower).is_none();
        if ti != 0 && !after_opening {
            return None;
        }
        let prev = &self.prose.sentences[si - 1];
        if prev.tokens.is_empty()
            || here.tokens.first().is_some_and(|t| t.barrier)
            || self.prose.original[prev.end..here.start].contains("\n\n")
        {
            return None;
        }
        let hits = self.hits(prev);
        // "But Corley's brow was soon smooth again. His thoughts were running another way.":
        // the sentence before may open with a conjunction, and its subject may be a part of
        // the person ("Corley's brow"), which carries them on just the same.
        let start = usize::from(
            prev.tokens
                .first()
                .is_some_and(|t| matches!(t.lower.as_str(), "but" | "and" | "yet" | "then")),
        );
        let opener = hits.iter().find(|h| h.first == start)?;
        let verb_at = if opener.possessive {
            opener.last + 1
        } else {
            opener.last
        };
        // The POV character in the sentence before as a subject ("she", or their name before
        // a verb) may be the one carried on; named only as an object or a place ("at my
        // Lady's feet"), they are not.
        let pov_there = hits
            .iter()
            .any(|h| h.who == self.pov && !h.possessive && verb_follows(prev, h.last))
            || prev.tokens.iter().any(|t| t.lower == g || t.barrier);
        let other = opener.who != self.pov
            && self.gender_of(opener.who) == Some(g)
            && verb_follows(prev, verb_at);
        (other && !pov_there).then_some(Referent::Person(opener.who))
    }

    /// The POV character is named after token `ti` in the same clause of sentence `si`.
    fn pov_named_after(&self, si: usize, ti: usize) -> bool {
        let s = &self.prose.sentences[si];
        self.hits(s).iter().any(|h| {
            h.who == self.pov
                && h.first > ti
                && !s.tokens[ti + 1..=h.first].iter().any(|t| t.barrier)
                && !self.prose.original[s.tokens[ti].end..s.tokens[h.first].start]
                    .contains([';', '.', '!', '?'])
        })
    }

    /// "Maud smiled at the clerk, but inside she was seething": a character of the POV
    /// character's gender who is the subject earlier in the same sentence, with nothing
    /// between that points back at the POV character.
    fn same_clause_subject(&self, si: usize, ti: usize, g: &str) -> Option<Referent> {
        let s = &self.prose.sentences[si];
        let hits = self.hits(s);
        let named = hits
            .iter()
            .rev()
            .find(|h| {
                h.last < ti
                    && h.who != self.pov
                    && !h.possessive
                    && self.gender_of(h.who) == Some(g)
                    && (verb_follows(s, h.last) || present_form_follows(s, h.last))
            })
            .map(|h| (h.last, Referent::Person(h.who)));
        // "The porter took up his candle again, but slowly for he was surprised": someone
        // named by their place in the world. Not "the man": close third calls its own
        // character that ("The man glanced from the lady's face…" is Farrington).
        let described = (0..ti)
            .rev()
            .find(|&k| {
                let word = s.tokens[k].lower.as_str();
                // A calling ("the chief clerk", "the porter"); not "the man" or "the girl",
                // which close third uses for its own character.
                let calling = PERSON_NOUNS.contains(&word)
                    || (noun_gender(word) == Some(g)
                        && !matches!(
                            word,
                            "man" | "woman" | "boy" | "girl" | "lad" | "lady" | "gentleman"
                                | "fellow" | "men" | "women" | "boys" | "girls"
                        ));
                calling
                    && k > 0
                    && matches!(s.tokens[k - 1].lower.as_str(), "the" | "a" | "an")
                    && super::text::opens_after(&self.prose, s, k - 1)
                    && verb_follows(s, k)
            })
            .map(|k| (k, Referent::Someone));
        // Whichever of the two stands nearer the pronoun.
        let (last, who) = [named, described].into_iter().flatten().max_by_key(|x| x.0)?;
        let object = if g == "she" { "her" } else { "him" };
        let between = last + 1..ti;
        let pov_between = hits
            .iter()
            .any(|h| h.who == self.pov && h.first > last && h.first < ti);
        let barrier = s.tokens[between.clone()].iter().any(|t| t.barrier) || s.tokens[ti].barrier;
        // "The child stirs against his shoulder and he rocks it, his thoughts far away": a
        // pronoun of the same gender between has taken the reference over.
        let points_at_pov = between.clone().any(|k| {
            (s.tokens[k].lower == object && !own_possessive(s, k)) || s.tokens[k].lower == g
        });
        (!pov_between && !barrier && !points_at_pov).then_some(who)
    }

    /// Token `i` is a gendered noun ("lady", "lad") after "the" or "a" that opens a clause and
    /// is followed by a verb.
    fn described_person(&self, s: &Sentence, i: usize) -> Option<usize> {
        // "the lady", or "the old woman": one word may stand between.
        let det = (1..=2).filter_map(|k| i.checked_sub(k)).find(|&d| {
            matches!(
                s.tokens[d].lower.as_str(),
                "the"
                    | "a"
                    | "an"
                    | "this"
                    | "that"
                    | "my"
                    | "his"
                    | "her"
                    | "our"
                    | "their"
                    | "your"
            )
        })?;
        let adjective_between = det + 1 == i
            || (s.tokens[det + 1].plain_gap
                && !super::text::is_function_word(&s.tokens[det + 1].lower)
                && noun_gender(&s.tokens[det + 1].lower).is_none());
        let word = s.tokens[i].lower.as_str();
        // In the first person the narrator is "I": anyone named by what they are is someone
        // else ("our visitor", "the other", "a servant").
        let person = noun_gender(word).is_some()
            || (self.input.pov == PointOfView::First && PERSON_NOUNS.contains(&word));
        let found = adjective_between
            && person
            && s.tokens[i].plain_gap
            && super::text::opens_after(&self.prose, s, det)
            && !generic_mention(s, i)
            && (verb_follows(s, i)
                || s.tokens
                    .get(i + 1)
                    .is_some_and(|n| n.plain_gap && n.lower.len() > 4 && n.lower.ends_with("ed"))
                // "A maid, frightened that he would die, rushed across".
                || (s.tokens.get(i + 1).is_some_and(|n| !n.plain_gap)
                    && !subject_verbs(self, s, i).is_empty()));
        found.then_some(det)
    }

    /// The subjects in sentence `si`: names (known and unknown) and personal pronouns, each
    /// with the token range and who it is. Possessives are left out.
    pub(super) fn subjects(&self, si: usize) -> Vec<Subject> {
        let all = self.subjects.get_or_init(|| {
            (0..self.prose.sentences.len())
                .map(|i| self.read_subjects(i))
                .collect()
        });
        all[si].clone()
    }

    fn read_subjects(&self, si: usize) -> Vec<Subject> {
        let s = &self.prose.sentences[si];
        let hits = self.hits(s);
        let mut out: Vec<Subject> = hits
            .iter()
            .filter(|h| !h.possessive)
            .map(|h| Subject {
                first: h.first,
                last: h.last,
                referent: if h.who == self.pov {
                    Referent::Pov
                } else {
                    Referent::Person(h.who)
                },
                agreement: Agreement::Third,
                first_person: false,
            })
            .collect();
        for (i, t) in s.tokens.iter().enumerate() {
            if hits.iter().any(|h| h.first <= i && i <= h.last) {
                continue;
            }
            let written = self.prose.word(t);
            let (referent, agreement, first_person) = match t.lower.as_str() {
                "he" | "she" => (self.resolve(si, i, &t.lower), Agreement::Third, false),
                "i" if written == "I" => (
                    if self.input.pov == PointOfView::First {
                        Referent::Pov
                    } else {
                        Referent::Unclear
                    },
                    Agreement::Plain,
                    true,
                ),
                "we" => (Referent::Unclear, Agreement::Plain, true),
                "they" => (Referent::Unclear, Agreement::Plain, false),
                // For tense only: "It is warmer", "There was a knock".
                "it" | "there" if i == 0 || super::text::opens_after(&self.prose, s, i) => {
                    (Referent::Unclear, Agreement::Third, false)
                }
                // "Corless’s surrounded by lights": a possessive is no subject.
                _ if unknown_name(self, s, i) && !t.lower.ends_with("'s") && verb_follows(s, i) => {
                    (Referent::Someone, Agreement::Third, false)
                }
                // "The lady coloured deeply", "the lad cowered": a person named by what they
                // are, opening a clause — never the narrator or the POV character's own name.
                _ if let Some(det) = self.described_person(s, i) => {
                    out.push(Subject {
                        first: det,
                        last: i,
                        referent: Referent::Someone,
                        agreement: Agreement::Third,
                        first_person: false,
                    });
                    continue;
                }
                _ => continue,
            };
            out.push(Subject {
                first: i,
                last: i,
                referent,
                agreement,
                first_person,
            });
        }
        out.sort_by_key(|x| x.first);
        out
    }
}

/// The finite verb chain after a subject ending at token `last`: skips adverbs and returns
/// the indexes of the words up to and including the main verb ("had always resented",
/// "was thinking", "couldn't stop thinking"). At most five words.
pub(super) fn verb_chain(s: &Sentence, last: usize) -> Vec<usize> {
    chain_from(s, last + 1, false)
}

/// The verb chain of a subject ending at token `last`, also past a short aside set off by
/// commas ("Brannock, behind her, cursed…", "Gabriel, leaning on his elbow, looks…").
pub(super) fn subject_verbs(ctx: &Ctx<'_>, s: &Sentence, last: usize) -> Vec<usize> {
    let direct = verb_chain(s, last);
    if !direct.is_empty() {
        return direct;
    }
    let gap = |k: usize| &ctx.prose.original[s.tokens[k - 1].end..s.tokens[k].start];
    let aside = s
        .tokens
        .get(last + 1)
        .is_some_and(|n| !n.barrier && gap(last + 1).contains(','));
    if !aside {
        return direct;
    }
    // "Miss Ivors, who had been waiting all evening for a chance, felt…": a relative clause
    // or a participle's phrase may run long; the verb is the first after a comma that opens
    // a verb chain.
    let reach = if s.tokens.get(last + 1).is_some_and(|n| {
        matches!(
            n.lower.as_str(),
            "who" | "whose" | "though" | "still" | "already" | "a" | "an" | "his" | "her" | "their"
        ) || n.lower.ends_with("ed")
            || n.lower.ends_with("ing")
    }) {
        ASIDE_REACH
    } else {
        SHORT_ASIDE
    };
    (last + 2..(last + reach).min(s.tokens.len()))
        .filter(|&k| !s.tokens[k].barrier && gap(k).contains(','))
        .map(|k| chain_from(s, k, true))
        .find(|chain| !chain.is_empty())
        .unwrap_or(direct)
}

/// How far after a subject the verb may be found past an aside: a few words ("Brannock,
/// behind her, cursed"), or more after a relative clause or a participle's phrase.
const SHORT_ASIDE: usize = 8;
const ASIDE_REACH: usize = 28;

/// The verb chain starting at token `first`; `after_comma` lets the first word follow
/// punctuation (the end of an aside).
fn chain_from(s: &Sentence, first: usize, after_comma: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut j = first;
    while let Some(t) = s.tokens.get(j) {
        let joined = t.plain_gap || (after_comma && j == first && !t.barrier);
        if !joined || out.len() >= 5 {
            break;
        }
        let w = t.lower.as_str();
        if super::lexicon::is_between(w) || matches!(w, "not" | "never") {
            j += 1;
            continue;
        }
        // "was not at all pleased", "was by now quite certain": a phrase of degree or time
        // after the auxiliary.
        let next = s.tokens.get(j + 1).filter(|n| n.plain_gap).map(|n| n.lower.as_str());
        let phrase = !out.is_empty()
            && matches!((w, next), ("at", Some("all")) | ("by", Some("now" | "then")) | ("in", Some("truth")));
        if phrase {
            j += 2;
            continue;
        }
        out.push(j);
        let auxiliary = matches!(
            w,
            "had"
                | "has"
                | "have"
                | "was"
                | "were"
                | "is"
                | "am"
                | "are"
                | "been"
                | "be"
                | "did"
                | "does"
                | "do"
                | "didn't"
                | "doesn't"
                | "don't"
                | "hadn't"
                | "wasn't"
                | "weren't"
                | "isn't"
                | "could"
                | "couldn't"
                | "can't"
                | "cannot"
                | "can"
                | "would"
                | "wouldn't"
                | "will"
                | "won't"
                | "must"
                | "might"
                | "may"
                | "should"
                | "shall"
                | "stop"
                | "help"
                | "'d"
                | "being"
        );
        if !auxiliary || is_ing(w) {
            break;
        }
        j += 1;
    }
    out
}

/// The words that name the POV character in narration, lowercase: "i", "we", "me" in the first
/// person; their pronoun and the words of their name in the third (every pronoun when their
/// record does not say, so that a doubt never makes a finding).
pub(super) fn pov_words(ctx: &Ctx<'_>) -> Vec<String> {
    let words = |list: &[&str]| list.iter().map(|w| (*w).to_string()).collect::<Vec<_>>();
    match ctx.input.pov {
        PointOfView::First => words(&["i", "me", "my", "we", "us", "our"]),
        _ => {
            let mut out = words(match ctx.pov_pronoun {
                Some("she") => &["she", "her"],
                Some("he") => &["he", "him", "his"],
                Some(_) => &["they", "them", "their"],
                None => &["she", "her", "he", "him", "his", "they", "them", "their"],
            });
            out.extend(super::text::name_words(ctx.pov_name()).iter().map(|w| w.to_lowercase()));
            out
        }
    }
}
