//! `novel scene add|move|split|merge|rename|delete`, `novel chapter delete|move` and
//! `novel undo`: the writer shaping the book by hand — and `novel scene write`, the agent
//! writing a scene at a place from the writer's note. Each change renumbers the scenes after
//! it, is one recorded change (undone by `novel undo`), and says which scenes to re-read so the
//! memory follows.

use std::path::Path;

use anyhow::{Context, Result};
use novel_core::clock::SystemClock;
use novel_core::shape::{self, Place, Shaped};
use novel_core::{Access, Novel};

use crate::cli::{PlaceArgs, SceneCommand};
use crate::output::{json, say};

/// Where `args` puts a scene, in the book as it is now.
fn place(novel: &Novel, args: &PlaceArgs) -> Result<Place> {
    Ok(match (args.after, args.before, args.end_of_chapter) {
        (Some(n), _, _) => shape::after(novel, n)?,
        (_, Some(n), _) => Place::Before(n),
        (_, _, Some(c)) => Place::EndOfChapter(c),
        _ => anyhow::bail!("say where: --after SCENE, --before SCENE or --end-of-chapter N"),
    })
}

pub fn run(dir: &Path, cmd: SceneCommand, as_json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    let clock = SystemClock;
    let shaped = match cmd {
        SceneCommand::Add { title, file, at } => {
            let prose = std::fs::read_to_string(&file)
                .with_context(|| format!("could not read {}", file.display()))?;
            let place = place(&novel, &at)?;
            shape::add_scene(&mut novel, place, &title, &prose, &clock)?
        }
        SceneCommand::Move { scene, to } => {
            let place = place(&novel, &to)?;
            shape::move_scene(&mut novel, scene, place, &clock)?
        }
        SceneCommand::Split {
            scene,
            after_paragraph,
            title,
        } => shape::split_scene(&mut novel, scene, after_paragraph, title.as_deref(), &clock)?,
        SceneCommand::Merge { scene } => shape::merge_scenes(&mut novel, scene, &clock)?,
        SceneCommand::Rename { scene, title } => {
            shape::rename_scene(&mut novel, scene, &title, &clock)?
        }
        SceneCommand::Delete { scene } => shape::delete_scene(&mut novel, scene, &clock)?,
        SceneCommand::Write {
            note,
            title,
            at,
            profile,
        } => {
            let place = place(&novel, &at)?;
            write_here(
                &mut novel,
                place,
                &note,
                title.as_deref(),
                profile.as_deref(),
            )?
        }
    };
    report(&shaped, as_json)
}

/// The agent writes the scene at `place` from `note`, with a spinner while it does. Ctrl-C
/// cancels it, as a second press does a tick of `novel run`: the engine commits nothing until
/// the scene is whole, so the book stays as it was.
fn write_here(
    novel: &mut Novel,
    place: Place,
    note: &str,
    title: Option<&str>,
    profile: Option<&str>,
) -> Result<Shaped> {
    super::semantic::attach(novel);
    let models = super::roles::models_for(novel, profile, novel_llm::Limits::default())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let cancel = novel_core::run::CancelToken::new();
    {
        let cancel = cancel.clone();
        runtime.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                crate::output::say_err!("\nCancelling the scene; the book stays as it was.");
                cancel.cancel();
            }
        });
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message("the agent is writing the scene from your note");
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let written = runtime.block_on(shape::write_scene(
        novel,
        &models,
        place,
        note,
        title,
        &(),
        &cancel,
        &SystemClock,
    ));
    bar.finish_and_clear();
    Ok(written?)
}

pub fn delete_chapter(dir: &Path, number: u32, as_json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    report(
        &shape::delete_chapter(&mut novel, number, &SystemClock)?,
        as_json,
    )
}

pub fn move_chapter(dir: &Path, number: u32, before: Option<u32>, as_json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    report(
        &shape::move_chapter(&mut novel, number, before, &SystemClock)?,
        as_json,
    )
}

pub fn undo(dir: &Path, as_json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    let undone = shape::undo(&mut novel)?;
    if as_json {
        return json(&undone);
    }
    say!(
        "Undone: {}. The book has {} scenes.",
        undone.label,
        undone.scenes
    );
    Ok(())
}

fn report(shaped: &Shaped, as_json: bool) -> Result<()> {
    if as_json {
        return json(shaped);
    }
    let mut line = format!(
        "Done: {}. The book has {} scenes",
        shaped.label, shaped.scenes
    );
    line.push_str(". `novel undo` takes it back.");
    say!("{line}");
    for tick in &shaped.reread {
        say!("`novel reread {tick}` brings the memory in line with scene {tick}.");
    }
    Ok(())
}
