//! `novel import <file> <dir>`: a new novel from an existing manuscript, its scenes adopted
//! one extraction call each, with progress; run again to resume an import that stopped
//! (Ctrl-C, a failed call): it carries on from the first scene not in the story.

use std::path::Path;

use anyhow::{Context, Result};
use novel_core::clock::SystemClock;
use novel_core::import::{self, ImportProgress, Manuscript};
use novel_core::novel::{Access, Novel};
use novel_core::tick::{CancelToken, TickEvent};

use crate::cli::NewArgs;
use crate::output::{json, say, say_err};

pub fn run(file: &Path, args: NewArgs, profile: Option<&str>, as_json: bool) -> Result<()> {
    let resuming = args.dir.join("novel.toml").is_file();
    // Read first: a manuscript that cannot be imported leaves no novel behind.
    let fresh = if resuming {
        None
    } else {
        Some(import::read_manuscript(file)?)
    };
    let mut novel = match &fresh {
        None => Novel::open(&args.dir, Access::Write)?,
        Some((manuscript, _)) => create(file, manuscript, &args)?,
    };
    if import::progress(&novel)?.is_none() {
        let (manuscript, format) = match fresh {
            Some(read) => read,
            None => import::read_manuscript(file)?,
        };
        let source = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let started = import::start(&mut novel, &source, format, &manuscript, &SystemClock)?;
        if !as_json {
            say!(
                "Importing {} scenes in {} chapters from {source}.",
                started.total,
                manuscript.chapters.len()
            );
        }
    } else if !as_json {
        let p = import::progress(&novel)?.expect("checked above");
        say!(
            "Resuming the import of {}: {} of {} scenes done.",
            p.source,
            p.done,
            p.total
        );
    }
    super::semantic::attach(&mut novel);
    let models = super::roles::models_for(&novel, profile, Default::default())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let cancel = CancelToken::new();
    {
        let cancel = cancel.clone();
        runtime.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                say_err!("\nStopping; run the same command again to resume.");
                cancel.cancel();
            }
        });
    }
    let observer = |_: TickEvent| {};
    let on_scene = |done: u32, total: u32| {
        if !as_json {
            say!("Imported scene {done}/{total}");
        }
    };
    let progress: ImportProgress = runtime.block_on(import::resume(
        &mut novel,
        &models,
        &observer,
        &cancel,
        &SystemClock,
        &on_scene,
    ))?;
    if as_json {
        return json(&progress);
    }
    say!(
        "Imported {} scenes into {}. Next: novel -C {} tick",
        progress.total,
        novel.root().display(),
        novel.root().display()
    );
    Ok(())
}

/// The new novel, titled after the manuscript unless `--title` says otherwise.
fn create(file: &Path, manuscript: &Manuscript, args: &NewArgs) -> Result<Novel> {
    let mut seed = super::new::seed_of(args)?;
    if seed.foundation.title.trim().is_empty() {
        seed.foundation.title = manuscript.title.clone().unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
        });
    }
    if seed.foundation.author.trim().is_empty() {
        seed.foundation.author = manuscript.author.clone().unwrap_or_default();
    }
    super::new::check_complete(&seed)?;
    Novel::create(&args.dir, seed, &SystemClock)
        .with_context(|| format!("cannot create the novel in {}", args.dir.display()))
}
