//! `novel export --format md|epub|docx`.

use std::path::PathBuf;

use anyhow::Result;
use novel_core::Novel;
use novel_core::clock::SystemClock;
use novel_core::export::{self, ExportOptions};

use crate::cli::ExportFormat;

pub fn run(
    novel: &Novel,
    format: ExportFormat,
    output: Option<PathBuf>,
    options: &ExportOptions,
    as_json: bool,
) -> Result<()> {
    let path = export::write_export(
        novel,
        format.into(),
        output.as_deref(),
        options,
        &SystemClock,
    )?;
    if as_json {
        return crate::output::json(&serde_json::json!({ "path": path }));
    }
    crate::output::say!("Wrote {}", path.display());
    Ok(())
}
