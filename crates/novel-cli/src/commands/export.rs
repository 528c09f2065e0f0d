//! `novel export --format md`.

use std::path::PathBuf;

use anyhow::Result;
use novel_core::export;
use novel_core::novel::Novel;

use crate::cli::ExportFormat;

pub fn run(
    novel: &Novel,
    format: ExportFormat,
    output: Option<PathBuf>,
    as_json: bool,
) -> Result<()> {
    let ExportFormat::Md = format;
    let path = export::write_manuscript(novel, output.as_deref())?;
    if as_json {
        return crate::output::json(&serde_json::json!({ "path": path }));
    }
    crate::output::say!("Wrote {}", path.display());
    Ok(())
}
