//! A narrator's "we" in third-person narration: "and we are away through the sleeping
//! streets", "the alleys where we had walked four years before", "we follow him no farther
//! than the stairs". Told in the third person, the story has no "we" outside dialogue and
//! thought; the authorial "we" of older novels is rare enough in deep point of view that the
//! writer should see it, but common enough in published prose that it is a note, never a
//! revision.

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::text::Sentence;

/// Words of the first person plural.
const WE: &[&str] = &["we", "us", "our", "ours", "ourselves", "we'd", "we're", "we've", "we'll"];

/// The narration sentences that say "we", as a note; `skip` leaves out sentences that are
/// thought, verse or meta text.
pub(super) fn narrator_we(ctx: &Ctx<'_>, skip: impl Fn(usize, &Sentence) -> bool) -> Vec<Finding> {
    let found: Vec<(&Sentence, usize)> = ctx
        .prose
        .sentences
        .iter()
        .enumerate()
        .filter(|(si, s)| !s.tokens.is_empty() && !skip(*si, s) && !voiced(s))
        .filter_map(|(_, s)| {
            s.tokens
                .iter()
                .position(|t| WE.contains(&t.lower.as_str()))
                .map(|i| (s, i))
        })
        .collect();
    let Some(&(s, i)) = found.first() else {
        return Vec::new();
    };
    let t = &s.tokens[i];
    let excerpt = ctx.prose.excerpt(s, t.start);
    let pov = ctx.pov_name();
    vec![
        Finding::new(
            Check::PersonDrift,
            Severity::Note,
            format!(
                "The novel is told in the third person, but the narration says “{}” as if a \
                 narrator stood among the characters: “{excerpt}”. If that is not an authorial \
                 voice you mean to keep, tell it through {pov}: name the people or use \
                 they/them.",
                ctx.prose.word(t)
            ),
            Some(excerpt),
        )
        .at(&ctx.prose, s, t.start, t.end),
    ]
}

/// "We cannot give ourselves, it said": a voice quoted without quotation marks.
fn voiced(s: &Sentence) -> bool {
    s.tokens.iter().enumerate().any(|(i, t)| {
        let tag = matches!(
            t.lower.as_str(),
            "said" | "says" | "thought" | "thinks" | "asked" | "asks" | "cried" | "whispered" | "murmured"
        );
        // The voice named beside its tag: "it said", "he thought"; not "enough to say".
        tag && i > 0
            && matches!(s.tokens[i - 1].lower.as_str(), "it" | "he" | "she" | "they" | "one" | "voice")
    })
}
