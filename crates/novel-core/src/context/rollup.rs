//! The story so far from hierarchical summaries: arc lines, then chapter lines after the last
//! arc, then scene lines after the last chapter. The lines themselves are derived data built by
//! the store (`store::roll_up_after`, `store::rebuild_rollups`).

use rusqlite::Connection;

use super::summary::{FirstBullets, SummaryLine, SummarySource};
use crate::store::{self, StoreError};

/// The story so far from roll-ups: arc lines, then chapter lines after the last arc, then
/// scene lines after the last chapter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rollups;

impl SummarySource for Rollups {
    fn summary_lines(&self, conn: &Connection) -> Result<Vec<SummaryLine>, StoreError> {
        let rollups = store::list_rollups(conn)?;
        let mut lines = Vec::new();
        let mut covered = 0;
        for level in [2u8, 1] {
            for r in rollups.iter().filter(|r| r.level == level) {
                if r.first_tick <= covered {
                    continue;
                }
                lines.push(SummaryLine {
                    first_tick: r.first_tick,
                    last_tick: r.last_tick,
                    text: r.text.clone(),
                });
                covered = r.last_tick;
            }
        }
        lines.extend(FirstBullets::after(conn, covered)?);
        Ok(lines)
    }
}
