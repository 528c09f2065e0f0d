//! The overall story summary: one line per scene (or per span of scenes, once hierarchical
//! roll-ups exist) and the rule that keeps it bounded — the opening of the story and its most
//! recent stretch survive, the middle is elided with a line saying how much was left out.
//! Where the lines come from is a seam: the builder asks a [`SummarySource`], so a source of
//! rolled-up chapter summaries can replace [`FirstBullets`] without touching the builder.

use novel_llm::count_tokens;
use rusqlite::Connection;

use super::budget::Section;
use crate::store::{self, StoreError};

/// One line of the overall summary, covering the scenes of ticks `first_tick..=last_tick`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryLine {
    pub first_tick: u32,
    pub last_tick: u32,
    pub text: String,
}

impl SummaryLine {
    fn scenes(&self) -> u32 {
        self.last_tick.saturating_sub(self.first_tick) + 1
    }
}

/// Where the overall summary's lines come from.
pub trait SummarySource {
    /// Lines covering every committed scene, oldest first. The builder leaves out the lines of
    /// scenes it shows in detail and elides the middle when they exceed the budget.
    fn summary_lines(&self, conn: &Connection) -> Result<Vec<SummaryLine>, StoreError>;
}

/// The seed's summary: the first bullet of each scene, as "Tick N: …".
#[derive(Debug, Clone, Copy, Default)]
pub struct FirstBullets;

impl SummarySource for FirstBullets {
    fn summary_lines(&self, conn: &Connection) -> Result<Vec<SummaryLine>, StoreError> {
        FirstBullets::after(conn, 0)
    }
}

impl FirstBullets {
    /// The lines of the scenes after tick `after` (those no roll-up covers).
    pub(crate) fn after(conn: &Connection, after: u32) -> Result<Vec<SummaryLine>, StoreError> {
        Ok(store::scene_gists_after(conn, after)?
            .into_iter()
            .map(|(tick, gist)| SummaryLine {
                first_tick: tick,
                last_tick: tick,
                text: format!("Tick {tick}: {}", gist.trim()),
            })
            .collect())
    }
}

/// How many opening lines survive elision: the set-up the rest of the story answers to.
const HEAD_LINES: usize = 3;

/// All lines when they fit `budget`; otherwise the first few, an elision line, and as many of
/// the most recent as fit.
pub(crate) fn bounded_summary(lines: &[SummaryLine], budget: u32) -> Section {
    let all = join(lines.iter());
    if count_tokens(&all) <= budget {
        return Section::new(all, false);
    }
    let costs: Vec<u32> = lines.iter().map(|l| count_tokens(&l.text) + 1).collect();
    // The elision line's count varies by a token at most with its number; reserve for 4 digits.
    let marker_cost = count_tokens(&elision(9999)) + 1;
    let room = budget.saturating_sub(marker_cost);

    let mut head = 0;
    let mut used = 0;
    // The opening may take up to two thirds: with roll-ups it is the arcs, the whole early story.
    while head < HEAD_LINES.min(lines.len()) && used + costs[head] <= room * 2 / 3 {
        used += costs[head];
        head += 1;
    }
    let mut tail_start = lines.len();
    while tail_start > head && used + costs[tail_start - 1] <= room {
        tail_start -= 1;
        used += costs[tail_start];
    }
    loop {
        let text = render(lines, head, tail_start);
        if count_tokens(&text) <= budget || (head == 0 && tail_start == lines.len()) {
            return Section::new(text, true);
        }
        // Per-line counts were an estimate; give up the oldest recent line, then the head.
        if tail_start < lines.len() {
            tail_start += 1;
        } else {
            head -= 1;
        }
    }
}

fn render(lines: &[SummaryLine], head: usize, tail_start: usize) -> String {
    let omitted: u32 = lines[head..tail_start]
        .iter()
        .map(SummaryLine::scenes)
        .sum();
    let mut out: Vec<String> = lines[..head].iter().map(|l| l.text.clone()).collect();
    out.push(elision(omitted));
    out.extend(lines[tail_start..].iter().map(|l| l.text.clone()));
    out.join("\n")
}

fn elision(omitted: u32) -> String {
    format!("… ({omitted} earlier scenes omitted)")
}

fn join<'a>(lines: impl Iterator<Item = &'a SummaryLine>) -> String {
    lines
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
