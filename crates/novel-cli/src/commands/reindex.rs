//! `novel reindex`: rebuild every derived index — passages and their keyword index, chapter and
//! arc summaries, embeddings — and say what was rebuilt and whether semantic search is on.

use std::path::Path;

use anyhow::Result;
use novel_core::{Access, Novel};

pub fn run(dir: &Path, json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    super::semantic::attach(&mut novel);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(novel.reindex())?;
    if json {
        return crate::output::json(&report);
    }
    crate::output::say!(
        "Indexed {} passages; {} chapter/arc summaries.",
        report.chunks,
        report.rollups
    );
    match (&report.model, report.dimension) {
        (Some(model), Some(dim)) => crate::output::say!(
            "Semantic search is on: {} passages embedded with {model} ({dim} dimensions).",
            report.embedded
        ),
        _ => crate::output::say!("Semantic search is off: keyword search only."),
    }
    Ok(())
}
