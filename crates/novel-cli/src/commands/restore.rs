//! `novel restore`: put a backup of `novel.db` back in place (a named file, or the newest good
//! one in `backups/`). The backup is checked with `integrity_check` first, the database it
//! replaces is kept as `novel.db.before-restore-<time>`, and `scenes/` and `plans/` are brought
//! in line with the restored story (files of later ticks are moved to `.orphaned/`). Names
//! are printed through [`say!`], which removes terminal escapes a file name could hold.

use std::path::{Path, PathBuf};

use anyhow::Result;
use novel_core::backups;
use novel_core::backups::RestoreFrom;
use novel_core::clock::SystemClock;

use crate::output::say;

pub fn run(dir: &Path, file: Option<PathBuf>, json: bool) -> Result<()> {
    let from = file.map_or(RestoreFrom::Latest, RestoreFrom::File);
    let (_novel, report) = backups::restore(dir, from, &SystemClock)?;
    if json {
        return crate::output::json(&report);
    }
    say!(
        "Restored tick {} from {}.",
        report.tick,
        report.restored_from.display()
    );
    if let Some(previous) = &report.previous {
        say!(
            "The database it replaced is kept as {}.",
            previous.display()
        );
    }
    for line in report.files.lines() {
        say!("Files: {line}.");
    }
    Ok(())
}
