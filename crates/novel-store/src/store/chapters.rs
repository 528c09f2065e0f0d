//! Chapters: consecutive runs of scenes, by tick. The writer's chapters are rows of `chapters`
//! (from tick 1, without gaps or overlaps); the scenes after the last row are grouped by
//! proposal, every [`PROPOSED_CHAPTER_SCENES`] scenes, titled from the gist of each group's
//! peak scene (the roll-ups' rule), until the writer renames, splits or merges them — which
//! stores them. A row's `last_tick` may lie beyond the latest scene: the chapter the story is
//! in keeps its nominal end, so the scenes still to come join it.

use rusqlite::{Connection, Transaction, params};
use serde::{Deserialize, Serialize};

use super::error::{StoreError, StoreResult};
use super::proposed_title;
use crate::model::Scene;

/// Scenes per proposed chapter (the roll-ups' chapter size).
pub const PROPOSED_CHAPTER_SCENES: u32 = super::CHAPTER_SCENES;

/// Who chose a chapter's title.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TitledBy {
    /// Proposed from the gist of its scenes.
    Proposal,
    /// Given by the writer.
    Writer,
    /// Taken from an imported manuscript's heading.
    Manuscript,
}

impl TitledBy {
    pub fn as_str(self) -> &'static str {
        match self {
            TitledBy::Proposal => "proposal",
            TitledBy::Writer => "writer",
            TitledBy::Manuscript => "manuscript",
        }
    }

    fn parse(s: &str) -> TitledBy {
        match s {
            "writer" => TitledBy::Writer,
            "manuscript" => TitledBy::Manuscript,
            _ => TitledBy::Proposal,
        }
    }
}

/// One stored chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChapterRow {
    pub first_tick: u32,
    pub last_tick: u32,
    pub title: String,
    /// The heading of the part this chapter opens, if it opens one.
    pub part_title: Option<String>,
    pub titled_by: TitledBy,
}

/// A chapter as the book has it: stored, or proposed for scenes no row covers yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChapterSpan {
    /// 1-based position in the book.
    pub number: u32,
    pub first_tick: u32,
    /// The last scene the chapter holds now (not beyond the latest scene).
    pub last_tick: u32,
    /// Where the chapter ends once the story gets there (`>= last_tick`).
    pub nominal_last_tick: u32,
    pub title: String,
    pub part_title: Option<String>,
    /// `None` while the chapter is only a proposal (not stored).
    pub titled_by: Option<TitledBy>,
}

impl ChapterSpan {
    pub fn is_proposed(&self) -> bool {
        self.titled_by.is_none()
    }

    pub fn contains(&self, tick: u32) -> bool {
        (self.first_tick..=self.last_tick).contains(&tick)
    }

    /// The row that stores this chapter as it stands (a proposal keeps its title).
    pub fn to_row(&self) -> ChapterRow {
        ChapterRow {
            first_tick: self.first_tick,
            last_tick: self.nominal_last_tick,
            title: self.title.clone(),
            part_title: self.part_title.clone(),
            titled_by: self.titled_by.unwrap_or(TitledBy::Proposal),
        }
    }
}

/// Every stored chapter, in order.
pub fn list_chapters(conn: &Connection) -> StoreResult<Vec<ChapterRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT first_tick, last_tick, title, part_title, titled_by FROM chapters
         ORDER BY first_tick",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(ChapterRow {
            first_tick: r.get(0)?,
            last_tick: r.get(1)?,
            title: r.get(2)?,
            part_title: r.get(3)?,
            titled_by: TitledBy::parse(&r.get::<_, String>(4)?),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Makes the stored chapters exactly `rows`: rows no longer wanted are deleted, the others
/// inserted or updated (so a recorded change holds only what really changed). The rows must
/// run from tick 1 without gaps or overlaps.
pub fn set_chapters(tx: &Transaction<'_>, rows: &[ChapterRow]) -> StoreResult<()> {
    check_contiguous(rows)?;
    let keep: Vec<u32> = rows.iter().map(|r| r.first_tick).collect();
    for old in list_chapters(tx)? {
        if !keep.contains(&old.first_tick) {
            tx.execute(
                "DELETE FROM chapters WHERE first_tick = ?1",
                [old.first_tick],
            )?;
        }
    }
    for row in rows {
        put_chapter(tx, row)?;
    }
    Ok(())
}

/// Inserts or replaces the chapter starting at `row.first_tick`.
pub fn put_chapter(tx: &Transaction<'_>, row: &ChapterRow) -> StoreResult<()> {
    tx.execute(
        "INSERT INTO chapters (first_tick, last_tick, title, part_title, titled_by)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (first_tick) DO UPDATE SET last_tick = excluded.last_tick,
             title = excluded.title, part_title = excluded.part_title,
             titled_by = excluded.titled_by
         WHERE last_tick IS NOT excluded.last_tick OR title IS NOT excluded.title
             OR part_title IS NOT excluded.part_title OR titled_by IS NOT excluded.titled_by",
        params![
            row.first_tick,
            row.last_tick,
            row.title,
            row.part_title,
            row.titled_by.as_str()
        ],
    )?;
    Ok(())
}

fn check_contiguous(rows: &[ChapterRow]) -> StoreResult<()> {
    let mut next = 1;
    for row in rows {
        if row.first_tick != next || row.last_tick < row.first_tick {
            return Err(StoreError::Corrupt {
                id: format!("chapter at tick {}", row.first_tick),
                message: format!(
                    "chapters must run from scene 1 without gaps or overlaps (expected one starting at scene {next}, ending at or after it)"
                ),
            });
        }
        next = row.last_tick + 1;
    }
    Ok(())
}

/// The book's chapters: the stored ones that hold at least one of `scenes` (all scenes, in
/// tick order), then proposals for the scenes after them.
pub fn book_chapters(conn: &Connection, scenes: &[Scene]) -> StoreResult<Vec<ChapterSpan>> {
    Ok(chapter_spans(&list_chapters(conn)?, scenes))
}

/// [`book_chapters`] from rows already read.
pub fn chapter_spans(rows: &[ChapterRow], scenes: &[Scene]) -> Vec<ChapterSpan> {
    let Some(latest) = scenes.last().map(|s| s.tick) else {
        return Vec::new();
    };
    let mut out: Vec<ChapterSpan> = Vec::new();
    let mut covered = 0;
    for row in rows.iter().filter(|r| r.first_tick <= latest) {
        out.push(ChapterSpan {
            number: out.len() as u32 + 1,
            first_tick: row.first_tick,
            last_tick: row.last_tick.min(latest),
            nominal_last_tick: row.last_tick,
            title: row.title.clone(),
            part_title: row.part_title.clone(),
            titled_by: Some(row.titled_by),
        });
        covered = covered.max(row.last_tick);
    }
    let mut first = covered + 1;
    while first <= latest {
        let nominal = first + PROPOSED_CHAPTER_SCENES - 1;
        let members: Vec<Scene> = scenes
            .iter()
            .filter(|s| (first..=nominal).contains(&s.tick))
            .cloned()
            .collect();
        out.push(ChapterSpan {
            number: out.len() as u32 + 1,
            first_tick: first,
            last_tick: nominal.min(latest),
            nominal_last_tick: nominal,
            title: proposed_title(&members).unwrap_or_else(|| format!("Scenes {first}–{nominal}")),
            part_title: None,
            titled_by: None,
        });
        first = nominal + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(tick: u32, tension: u8, gist: &str) -> Scene {
        Scene {
            id: format!("S{tick}"),
            tick,
            title: format!("Scene {tick}"),
            pov_character: None,
            location: None,
            prose: "Text.".into(),
            word_count: 1,
            summary: vec![gist.to_string()],
            tension: Some(tension),
            created_at: String::new(),
        }
    }

    fn row(first: u32, last: u32, title: &str) -> ChapterRow {
        ChapterRow {
            first_tick: first,
            last_tick: last,
            title: title.into(),
            part_title: None,
            titled_by: TitledBy::Writer,
        }
    }

    #[test]
    fn scenes_without_rows_are_proposed_every_ten_titled_by_their_peak() {
        let scenes: Vec<Scene> = (1..=23)
            .map(|t| {
                let tension = if t == 4 { 9 } else { 3 };
                scene(
                    t,
                    tension,
                    &format!("Tamsin finds ledger {t} under the old pier at night."),
                )
            })
            .collect();
        let spans = chapter_spans(&[], &scenes);
        let ranges: Vec<(u32, u32, u32)> = spans
            .iter()
            .map(|s| (s.first_tick, s.last_tick, s.nominal_last_tick))
            .collect();
        assert_eq!(ranges, vec![(1, 10, 10), (11, 20, 20), (21, 23, 30)]);
        assert!(spans.iter().all(ChapterSpan::is_proposed));
        // The peak (tick 4), cut to eight whole words, no ellipsis.
        assert_eq!(spans[0].title, "Tamsin finds ledger 4 under the old pier");
        // Equal tension everywhere: the earliest scene.
        assert_eq!(spans[1].title, "Tamsin finds ledger 11 under the old pier");
    }

    #[test]
    fn stored_rows_come_first_and_proposals_follow_their_nominal_end() {
        let scenes: Vec<Scene> = (1..=14).map(|t| scene(t, 5, "Gist.")).collect();
        let rows = vec![row(1, 3, "Salt"), row(4, 12, "Iron"), row(13, 20, "Beyond")];
        let spans = chapter_spans(&rows, &scenes);
        assert_eq!(spans.len(), 3, "{spans:?}");
        assert_eq!((spans[2].first_tick, spans[2].last_tick), (13, 14));
        assert_eq!(spans[2].nominal_last_tick, 20);
        // After a rewind to scene 2, the later rows hold no scene and are left out.
        let spans = chapter_spans(&rows, &scenes[..2]);
        assert_eq!(spans.len(), 1);
        assert_eq!((spans[0].first_tick, spans[0].last_tick), (1, 2));
        assert!(chapter_spans(&rows, &[]).is_empty());
    }

    #[test]
    fn rows_with_gaps_or_overlaps_are_refused() {
        assert!(check_contiguous(&[row(1, 3, "a"), row(4, 9, "b")]).is_ok());
        assert!(check_contiguous(&[row(2, 3, "a")]).is_err());
        assert!(check_contiguous(&[row(1, 3, "a"), row(3, 9, "b")]).is_err());
        assert!(check_contiguous(&[row(1, 3, "a"), row(5, 9, "b")]).is_err());
    }
}
