//! `novel backup`: copy `novel.db` into the novel's `backups/` now (the newest ten are kept),
//! optionally checking the live database and the copy with `PRAGMA integrity_check`; `--list`
//! shows the backups there are. Every line goes through [`say!`]: a file name in `backups/`
//! (a novel folder may come from someone else) could hold terminal escapes.

use std::path::Path;

use anyhow::{Result, bail};
use novel_core::backups::Check;
use novel_core::backups::{self, BackupInfo};
use novel_core::clock::SystemClock;
use novel_core::layout::{BACKUPS_DIR, CONFIG_FILE};
use novel_core::{Access, Novel};

use crate::output::say;

pub fn run(dir: &Path, verify: bool, list: bool, json: bool) -> Result<()> {
    if list {
        return print_list(dir, json);
    }
    let novel = Novel::open(dir, Access::Write)?;
    if verify {
        let problems = novel.store().integrity_check()?;
        if !problems.is_empty() {
            bail!(
                "{} fails integrity_check: {}. No backup was taken; restore one with `novel restore --latest`",
                novel.store().path().display(),
                problems.join("; ")
            );
        }
    }
    let taken = backups::take(novel.store().conn(), novel.root(), None, &SystemClock)?;
    let verified = if verify {
        Some(backups::verify(&taken.path, Check::Full)?)
    } else {
        None
    };
    if json {
        return crate::output::json(&serde_json::json!({
            "backup": taken,
            "verified": verified.is_some(),
        }));
    }
    say!("Backed up tick {} to {}.", taken.tick, taken.path.display());
    if verified.is_some() {
        say!("integrity_check: ok (novel.db and the backup).");
    }
    Ok(())
}

fn print_list(dir: &Path, json: bool) -> Result<()> {
    // Only to say clearly when the folder is not a novel at all.
    if !dir.join(CONFIG_FILE).is_file() {
        bail!(
            "{} is not a novel: it has no {}",
            dir.display(),
            CONFIG_FILE
        );
    }
    let backups: Vec<BackupInfo> = backups::list(dir)?;
    if json {
        return crate::output::json(&backups);
    }
    if backups.is_empty() {
        say!("No backups yet in {}.", dir.join(BACKUPS_DIR).display());
    }
    for b in backups {
        say!(
            "tick {:>4}  {}  {}{}",
            b.tick,
            b.taken_at,
            b.path.display(),
            b.reason.map(|r| format!("  ({r})")).unwrap_or_default()
        );
    }
    Ok(())
}
