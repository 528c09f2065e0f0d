//! Whom a possessive or a subject refers to, and how sure that is, for the checks that hold a
//! sentence against one person's record (appearance, conditions, age). A name ("Maud's eyes",
//! "Maud ran") and the narrator's "my"/"I" in the first person are sure; "her"/"his"/"she"/"he"
//! go through the point-of-view resolver and count as sure only when nobody else who could
//! take the pronoun is mentioned in that sentence or the two before it. An unsure attribution
//! makes a note the writer sees, never a revision.

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::people::{Referent, unknown_name};
use super::text::Sentence;
use crate::config::PointOfView;

/// A person a sentence speaks of, and whether that is certain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Whose {
    pub who: usize,
    pub sure: bool,
}

impl Whose {
    /// A finding that the sentence `s` (at `span`) contradicts the record of `about`: a
    /// violation when the sentence is surely about them, else a note that says why it is not
    /// certain.
    pub(super) fn contradiction(
        self,
        ctx: &Ctx<'_>,
        s: &Sentence,
        (at, to): (usize, usize),
        about: &str,
        message: String,
        excerpt: String,
    ) -> Finding {
        let (severity, message) = if self.sure {
            (Severity::Violation, message)
        } else {
            (
                Severity::Note,
                format!(
                    "{message} (Not certain the sentence is about them: someone else is near.)"
                ),
            )
        };
        Finding::new(Check::Contradiction, severity, message, Some(excerpt))
            .at(&ctx.prose, s, at, to)
            .about(about)
    }
}

/// How many sentences before a pronoun are read for someone else it could refer to.
const NEARBY: usize = 2;

#[rustfmt::skip]
const GENDERED: &[(&str, &str)] = &[
    ("woman", "she"), ("girl", "she"), ("lady", "she"), ("mother", "she"), ("sister", "she"),
    ("wife", "she"), ("daughter", "she"), ("aunt", "she"), ("widow", "she"), ("maid", "she"),
    ("man", "he"), ("boy", "he"), ("father", "he"), ("brother", "he"), ("husband", "he"),
    ("son", "he"), ("uncle", "he"), ("gentleman", "he"), ("fellow", "he"), ("lad", "he"),
];

/// The owner of a possessive at token `i`: a known name's "'s", "my" in the first person, or
/// "her"/"his".
pub(super) fn possessor(ctx: &Ctx<'_>, si: usize, s: &Sentence, i: usize) -> Option<Whose> {
    if let Some(h) = ctx
        .hits(s)
        .into_iter()
        .find(|h| h.last == i && h.possessive)
    {
        return Some(Whose {
            who: h.who,
            sure: true,
        });
    }
    match s.tokens[i].lower.as_str() {
        "my" if ctx.input.pov == PointOfView::First => Some(Whose {
            who: ctx.pov,
            sure: true,
        }),
        p @ ("her" | "his") => pronoun(ctx, si, i, p),
        _ => None,
    }
}

/// The person a subject at token `i` names: a known name (not possessive), "I" in the first
/// person, or "she"/"he". Returns the person and the subject's last token.
pub(super) fn subject(ctx: &Ctx<'_>, si: usize, s: &Sentence, i: usize) -> Option<(Whose, usize)> {
    if let Some(h) = ctx
        .hits(s)
        .into_iter()
        .find(|h| h.first == i && !h.possessive)
    {
        return Some((
            Whose {
                who: h.who,
                sure: true,
            },
            h.last,
        ));
    }
    let t = &s.tokens[i];
    match t.lower.as_str() {
        "i" if ctx.input.pov == PointOfView::First && ctx.prose.word(t) == "I" => Some((
            Whose {
                who: ctx.pov,
                sure: true,
            },
            i,
        )),
        p @ ("she" | "he") => pronoun(ctx, si, i, p).map(|w| (w, i)),
        _ => None,
    }
}

/// "her", "his", "she", "he" at token `i`: who the resolver says, sure only when no one else
/// of that gender (or of unknown gender) is named nearby.
fn pronoun(ctx: &Ctx<'_>, si: usize, i: usize, word: &str) -> Option<Whose> {
    let who = match ctx.resolve(si, i, word) {
        Referent::Pov => ctx.pov,
        Referent::Person(w) => w,
        Referent::Someone | Referent::Unclear => return None,
    };
    let gender = if matches!(word, "she" | "her") {
        "she"
    } else {
        "he"
    };
    Some(Whose {
        who,
        sure: !someone_else_near(ctx, si, i, who, gender),
    })
}

/// Whether a person other than `who` who could be "she"/"he" is mentioned in sentence `si`
/// (before token `ti`) or the [`NEARBY`] sentences before it.
fn someone_else_near(ctx: &Ctx<'_>, si: usize, ti: usize, who: usize, gender: &str) -> bool {
    let from = si.saturating_sub(NEARBY);
    ctx.prose.sentences[from..=si]
        .iter()
        .enumerate()
        .any(|(k, s)| {
            let limit = if from + k == si { ti } else { s.tokens.len() };
            let named_other = ctx.hits(s).iter().any(|h| {
                h.first < limit && h.who != who && ctx.genders[h.who].is_none_or(|g| g == gender)
            });
            let described = s.tokens[..limit.min(s.tokens.len())]
                .iter()
                .any(|t| GENDERED.iter().any(|(n, g)| *n == t.lower && *g == gender));
            let unknown = (1..limit.min(s.tokens.len())).any(|j| unknown_name(ctx, s, j));
            named_other || described || unknown
        })
}
