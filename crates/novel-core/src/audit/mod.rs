//! The book audit: measures a whole novel (or a range of scenes of the current branch) against
//! what a good novel needs — progression (plans realized, beats, open questions, stalls),
//! people who change, records that agree, a point of view and voice that hold, prose that does
//! not repeat itself — and what it cost. Deterministic and local: no model is asked anything.
//! Each criterion is one file here and gives a number and failures that name their scenes and
//! say why; [`audit`] assembles the [`AuditReport`]. docs/audit.md documents the report, each
//! criterion and its thresholds.

mod book;
mod cost;
mod entities;
mod loops;
mod progression;
mod records;
mod repetition;
mod report;
mod stalls;
mod voice;
mod words;

#[cfg(test)]
mod tests;

pub use book::Book;
pub use report::*;
pub use voice::profile as style_profile;

use rusqlite::Connection;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("scene {from} comes after scene {to}: the range is empty")]
    EmptyRange { from: u32, to: u32 },
}

/// Audits scenes `from..=to` of the current branch (the whole book when both are `None`).
pub fn audit(
    conn: &Connection,
    from: Option<u32>,
    to: Option<u32>,
) -> Result<AuditReport, AuditError> {
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(AuditError::EmptyRange { from, to });
    }
    let book = Book::load(conn, from, to)?;
    Ok(assemble(&book))
}

/// The report of a loaded book.
pub fn assemble(book: &Book) -> AuditReport {
    let loop_rows = loops::rows(book);
    let (stalls, similarity) = stalls::criterion(book);
    let (entities, characters) = entities::criterion(book);
    let distances = voice::distances(book);
    let stock = repetition::stock_rates(book);
    let costs = cost::per_scene(book);
    let criteria = vec![
        progression::plan(book),
        progression::beats(book),
        loops::criterion(book, &loop_rows),
        stalls,
        entities,
        records::criterion(book),
        voice::pov(book),
        voice::voice(book, &distances),
        voice::tension(book),
        repetition::criterion(book, &stock),
        cost::criterion(book, &costs),
    ];
    let scene_rows = book
        .scenes
        .iter()
        .enumerate()
        .map(|(i, s)| SceneRow {
            scene: s.tick,
            title: s.title.clone(),
            words: s.word_count,
            plan: progression::outcome(book, s.tick),
            tension: s.tension,
            open_loops: loop_rows
                .iter()
                .filter(|l| l.opened <= s.tick && l.resolved.is_none_or(|r| r > s.tick))
                .count() as u32,
            voice_distance: words::round1(distances[i].0),
            stock_per_1000: words::round1(stock[i]),
            calls: costs[i].0,
            tokens: costs[i].1,
            revised: costs[i].2,
            failed_attempts: costs[i].3,
        })
        .collect::<Vec<_>>();
    let quality: Vec<f64> = criteria
        .iter()
        .filter(|c| c.key != CriterionKey::Cost)
        .map(|c| c.score)
        .collect();
    let overall = quality.iter().sum::<f64>() / quality.len().max(1) as f64;
    let mut notes = Vec::new();
    let unjudged = scene_rows
        .iter()
        .filter(|r| r.plan == PlanOutcome::NotJudged)
        .count();
    if unjudged > 0 {
        notes.push(format!(
            "{unjudged} scenes were written before their plans were judged: they are counted as not judged (judging them would need the model; the audit asks it nothing)."
        ));
    }
    if scene_rows.iter().all(|r| r.plan == PlanOutcome::NoPlan) && !scene_rows.is_empty() {
        notes.push(
            "No scene has a plan (an imported manuscript): plans and beats are not measured."
                .into(),
        );
    }
    if similarity == "by wording" {
        notes.push("Scenes were compared by their wording: the novel has no vectors for its summaries (search by meaning was off when it was written).".into());
    }
    AuditReport {
        branch: book.branch.clone(),
        from: book.from,
        to: book.to,
        scenes: book.scenes.len() as u32,
        words: book.scenes.iter().map(|s| s.word_count).sum(),
        overall: words::round1(overall),
        used_model: false,
        similarity: similarity.into(),
        criteria: criteria
            .into_iter()
            .map(|c| Criterion {
                score: words::round1(c.score),
                ..c
            })
            .collect(),
        scene_rows,
        loops: loop_rows,
        chapters: loops::chapters(book),
        characters,
        notes,
    }
}
