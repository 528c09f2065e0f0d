//! Writes a generated novel (`novel_core::synthetic`: a growing cast and map, 500–700 words a
//! scene) to a folder on disk, for measuring the desktop app on a long book
//! (`tests/bench/app_metrics.mjs`).
//!
//! ```sh
//! cargo run -p novel-core --example make_novel -- /tmp/novel-300 300
//! cargo run -p novel-core --example make_novel -- /tmp/novel-300 300 300   # and 300 graph nodes
//! ```

use std::path::PathBuf;

use novel_core::synthetic;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or("usage: make_novel <new folder> [scenes, default 300] [graph nodes]")?,
    );
    let scenes: u32 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(300);
    if dir.exists() {
        return Err(format!("{} exists already: give a new folder", dir.display()).into());
    }
    let nodes: Option<usize> = args.next().map(|s| s.parse()).transpose()?;
    let mut novel = synthetic::generate(&dir, scenes, &[])?;
    if let Some(nodes) = nodes {
        synthetic::crowd(&mut novel, nodes)?;
    }
    println!("{} scenes in {}", scenes, dir.display());
    Ok(())
}
