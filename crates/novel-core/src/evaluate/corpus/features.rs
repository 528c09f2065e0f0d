//! The training rows of the learned reading (`evaluate/learned`): each labelled item's
//! sentence under test (its last) with the families it expects; as clean examples, the
//! context sentences before it (the format has them clean) and every sentence of the
//! published chunks a check is measured on — except the author's known breaks, the deliberate
//! shifts and omniscient books, which are not clean. Rows carry the part, the id series and a
//! half (alternate chunks, alternate items), so the training script can hold parts out and
//! measure clean sentences it did not train on. Held-out items give no row but their own,
//! which the script never reads.

use serde::Serialize;

use super::book::{Book, Family, Narration, Part};
use super::score::input;
use crate::evaluate::ctx::Ctx;
use crate::evaluate::learned::{sentence_features, voice_features};
use crate::evaluate::voice::tense_readings;

#[derive(Serialize)]
pub struct FeatureRow {
    /// The item's id, or `<book>/<chunk file>` for a published sentence.
    pub id: String,
    /// `tune`, `held`, `context` (a tuning item's sentence before the one under test) or
    /// `published`.
    pub part: &'static str,
    /// The families the sentence must fire; empty for a clean one.
    pub expect: Vec<Family>,
    /// For clean sentences: 0 for even-numbered chunks or items, 1 for odd (train on one
    /// half, measure on the other).
    pub half: u8,
    pub words: usize,
    pub features: Vec<String>,
    /// The features of the voice families (tense); empty where the sentence's tense does not
    /// count (dialogue alone, a question, a tagged thought).
    pub voice: Vec<String>,
}

/// The voice features of sentence `si` given the scene's tense readings.
fn voice_of(ctx: &Ctx<'_>, readings: &[Option<Vec<String>>], si: usize) -> Vec<String> {
    readings[si]
        .as_deref()
        .map(|reading| voice_features(ctx, si, reading))
        .unwrap_or_default()
}

/// Every training row of the corpus, in book order.
pub fn feature_rows(books: &[Book]) -> Vec<FeatureRow> {
    let mut rows = Vec::new();
    for book in books {
        for (n, item) in book.items.iter().enumerate() {
            let ctx = Ctx::new(input(book, &item.text, &item.pov_character, None));
            let readings = tense_readings(&ctx);
            let last = ctx.prose.sentences.iter().rposition(|s| !s.tokens.is_empty());
            let Some(si) = last else {
                // All dialogue: nothing for the checks to read, but still one of the items.
                rows.push(FeatureRow {
                    id: item.id.clone(),
                    part: part_name(item.part),
                    expect: item.expect.iter().copied().collect(),
                    half: 0,
                    words: 0,
                    features: Vec::new(),
                    voice: Vec::new(),
                });
                continue;
            };
            if item.part == Part::Tune {
                for (ci, s) in ctx.prose.sentences[..si].iter().enumerate() {
                    if s.tokens.is_empty() {
                        continue;
                    }
                    rows.push(FeatureRow {
                        id: item.id.clone(),
                        part: "context",
                        expect: Vec::new(),
                        half: (n % 2) as u8,
                        words: s.tokens.len(),
                        features: sentence_features(&ctx, ci),
                        voice: voice_of(&ctx, readings, ci),
                    });
                }
            }
            rows.push(FeatureRow {
                id: item.id.clone(),
                part: part_name(item.part),
                expect: item.expect.iter().copied().collect(),
                half: 0,
                words: ctx.prose.sentences[si].tokens.len(),
                features: sentence_features(&ctx, si),
                voice: voice_of(&ctx, readings, si),
            });
        }
        if book.mode.narration == Narration::Omniscient {
            continue;
        }
        for (n, chunk) in book.chunks.iter().enumerate() {
            if chunk.shift.is_some() {
                continue;
            }
            let ctx = Ctx::new(input(
                book,
                &chunk.text,
                &chunk.pov_character,
                chunk.location.as_deref(),
            ));
            let readings = tense_readings(&ctx);
            for (si, s) in ctx.prose.sentences.iter().enumerate() {
                let sentence = &chunk.text[s.start..s.end];
                let known = book.known.iter().any(|k| k.covers(&chunk.file, sentence));
                if s.tokens.is_empty() || known {
                    continue;
                }
                rows.push(FeatureRow {
                    id: format!("{}/{}", book.id, chunk.file),
                    part: "published",
                    expect: Vec::new(),
                    half: (n % 2) as u8,
                    words: s.tokens.len(),
                    features: sentence_features(&ctx, si),
                    voice: voice_of(&ctx, readings, si),
                });
            }
        }
    }
    rows
}

fn part_name(part: Part) -> &'static str {
    match part {
        Part::Tune => "tune",
        Part::Held => "held",
    }
}
