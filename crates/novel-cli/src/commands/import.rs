//! `novel import <file> <dir>`: a new novel from an existing manuscript, its scenes adopted
//! one extraction call each, with progress; run again to resume an import that stopped
//! (Ctrl-C, a failed call): it carries on from the first scene not in the story.
//! `--preview` prints the split the structure finder found and the seeds the text suggests,
//! and makes nothing; the import uses that split (or the one `--shape` gives) and takes the
//! suggested premise, protagonist and place for any not given as flags.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use novel_core::clock::SystemClock;
use novel_core::import::{self, ImportPreview, ImportProgress, ImportShape, Manuscript};
use novel_core::run::{CancelToken, TickEvent};
use novel_core::{Access, Novel};

use crate::cli::NewArgs;
use crate::output::{json, say, say_err};

/// How the manuscript's split is chosen.
pub struct Shaping {
    pub preview: bool,
    pub shape: Option<PathBuf>,
}

pub fn run(
    file: &Path,
    args: NewArgs,
    profile: Option<&str>,
    shaping: &Shaping,
    as_json: bool,
) -> Result<()> {
    if shaping.preview {
        return preview(file, as_json);
    }
    let resuming = args.dir.join("novel.toml").is_file();
    // Read and shape first: a manuscript that cannot be imported leaves no novel behind.
    let fresh = if resuming {
        None
    } else {
        Some(shaped(file, shaping.shape.as_deref())?)
    };
    let mut novel = match &fresh {
        None => Novel::open(&args.dir, Access::Write)?,
        Some((manuscript, _, preview)) => create(file, manuscript, preview, &args)?,
    };
    if import::progress(&novel)?.is_none() {
        let (manuscript, format, _) = match fresh {
            Some(read) => read,
            None => shaped(file, shaping.shape.as_deref())?,
        };
        let source = source_of(file);
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
    let progress = adopt_scenes(&mut novel, profile, as_json)?;
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

/// `--preview`: the split found and the seeds suggested; nothing is made.
fn preview(file: &Path, as_json: bool) -> Result<()> {
    let (manuscript, _) = import::read_manuscript(file)?;
    let preview = import::preview(&manuscript, &source_of(file));
    if as_json {
        return json(&serde_json::json!({
            "preview": preview,
            "shape": ImportShape::as_found(&preview),
        }));
    }
    print_outline(&preview);
    Ok(())
}

/// The scenes not yet in the story adopted one by one, with a line each; Ctrl-C stops the
/// import (the same command resumes it).
fn adopt_scenes(novel: &mut Novel, profile: Option<&str>, as_json: bool) -> Result<ImportProgress> {
    let models = super::roles::models_for(novel, profile, Default::default())?;
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
    Ok(runtime.block_on(import::resume(
        novel,
        &models,
        &observer,
        &cancel,
        &SystemClock,
        &on_scene,
    ))?)
}

fn source_of(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// The manuscript in `file` split as found, or as the `--shape` file says, with its preview.
fn shaped(file: &Path, shape: Option<&Path>) -> Result<(Manuscript, &'static str, ImportPreview)> {
    let (manuscript, format) = import::read_manuscript(file)?;
    let preview = import::preview(&manuscript, &source_of(file));
    let shape = match shape {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_str(&text).with_context(|| {
                format!(
                    "{} is not a split as --preview --json prints it",
                    path.display()
                )
            })?
        }
        None => ImportShape::as_found(&preview),
    };
    Ok((import::apply_shape(&manuscript, &shape)?, format, preview))
}

/// The split as the writer reads it: parts, chapters with their scenes' sizes and first words,
/// and the suggested seeds.
fn print_outline(p: &ImportPreview) {
    say!(
        "{}{}: {} words in {} paragraphs.",
        p.title.as_deref().unwrap_or(&p.source),
        p.author
            .as_deref()
            .map(|a| format!(" by {a}"))
            .unwrap_or_default(),
        p.words,
        p.paragraphs
    );
    let mut n = 0;
    for c in &p.chapters {
        if let Some(part) = &c.part {
            say!("\n{part}");
        }
        let title = if c.title.is_empty() {
            "(no heading)"
        } else {
            &c.title
        };
        if c.front_matter {
            say!("  Left out: {title} ({} words)", c.words);
            continue;
        }
        n += 1;
        say!(
            "  {n}. {title} — {} words, {} scenes",
            c.words,
            c.scenes.len()
        );
        for s in &c.scenes {
            say!("       {} words: {}", s.words, s.first_words);
        }
    }
    say!("\nSuggested from the text (flags override them):");
    say!("  premise:     {}", p.proposals.premise);
    say!("  protagonist: {}", p.proposals.protagonist);
    say!("  place:       {}", p.proposals.place);
}

/// The new novel, titled after the manuscript unless `--title` says otherwise; the premise,
/// protagonist and place the text suggests fill those not given.
fn create(
    file: &Path,
    manuscript: &Manuscript,
    preview: &ImportPreview,
    args: &NewArgs,
) -> Result<Novel> {
    let mut seed = super::new::seed_of(args)?;
    let proposed = &preview.proposals;
    for (slot, value) in [
        (&mut seed.foundation.premise, &proposed.premise),
        (&mut seed.protagonist.name, &proposed.protagonist),
        (&mut seed.location.name, &proposed.place),
    ] {
        if slot.trim().is_empty() {
            *slot = value.clone();
        }
    }
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
