//! `novel replace OLD NEW [--alias] [--dry-run]`: a name replaced across the book as one
//! recorded change.

use std::path::Path;

use anyhow::Result;
use novel_core::clock::SystemClock;
use novel_core::rename::{self, ReplaceReport};
use novel_core::{Access, Novel};

use crate::output::{json, say};

pub fn run(
    dir: &Path,
    old: &str,
    new: &str,
    alias: bool,
    dry_run: bool,
    as_json: bool,
) -> Result<()> {
    let report = if dry_run {
        rename::preview(&Novel::open(dir, Access::Read)?, old, new)?
    } else {
        rename::replace_in_book(
            &mut Novel::open(dir, Access::Write)?,
            old,
            new,
            alias,
            &SystemClock,
        )?
    };
    if as_json {
        return json(&report);
    }
    say!("{}", line(&report, dry_run));
    Ok(())
}

fn line(r: &ReplaceReport, dry_run: bool) -> String {
    let verb = if dry_run { "Would replace" } else { "Replaced" };
    let mut out = format!(
        "{verb} \"{}\" with \"{}\" {} time(s) in {} scene(s)",
        r.old,
        r.new,
        r.occurrences,
        r.scenes.len()
    );
    if let Some(id) = &r.renamed_record {
        out.push_str(&format!("; {id} renamed, the old name kept as an alias"));
    }
    out.push('.');
    out
}
