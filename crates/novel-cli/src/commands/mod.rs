//! One module per subcommand; `run` dispatches.

mod audit;
mod backup;
mod bible;
mod chapter;
mod check;
mod check_corpus;
mod context;
mod export;
mod history;
mod import;
mod inspect;
mod list;
mod new;
mod provider_discovery;
mod provider_settings;
mod providers;
mod reindex;
mod replace;
mod restore;
mod review;
mod roles;
mod scene;
mod search;
mod semantic;
mod status;
mod summarize;
mod tick;

use std::path::{Path, PathBuf};

use anyhow::Result;
use novel_core::{Access, Novel};

use crate::cli::{ChapterCommand, Cli, Command};

pub fn run(cli: Cli) -> Result<()> {
    let dir = cli.novel.clone().unwrap_or_else(|| PathBuf::from("."));
    let json = cli.json;
    match cli.command {
        Command::New(args) => new::run(*args, json),
        Command::Status => status::run(&open(&dir, Access::Read)?, json),
        Command::List { what } => list::run(&open(&dir, Access::Read)?, what, json),
        Command::Inspect { id } => inspect::run(&open(&dir, Access::Read)?, &id, json),
        Command::Tick(args) => tick::run(&dir, 1, args, json),
        Command::Run { n, tick } => tick::run(&dir, n, tick, json),
        cmd @ Command::Audit { .. } => audit(&dir, cmd, json),
        Command::Summarize { by_scene } => {
            summarize::run(&open(&dir, Access::Read)?, by_scene, json)
        }
        Command::Providers(cmd) => providers::run(*cmd, json),
        Command::Reindex => reindex::run(&dir, json),
        Command::Context { next: _, show } => context::run(&dir, show, json),
        Command::Regenerate { note, profile } => history::regenerate(&dir, note, profile, json),
        Command::Rewind { to } => history::rewind(&dir, to, json),
        Command::Versions { scene, show, diff } => {
            history::versions(&open(&dir, Access::Read)?, scene, show, diff, json)
        }
        Command::RestoreVersion { scene, version } => {
            history::restore_version(&dir, scene, version, json)
        }
        Command::Branch(cmd) => history::branch(&dir, cmd, json),
        cmd @ Command::Check { .. } => check(&dir, cmd, json),
        Command::Backup { verify, list } => backup::run(&dir, verify, list, json),
        Command::Restore { file, latest: _ } => restore::run(&dir, file, json),
        cmd => book(&dir, cmd, json),
    }
}

/// The commands that change or search the book: the story bible, its shape, imports,
/// replacing a name, search and export.
fn book(dir: &Path, cmd: Command, json: bool) -> Result<()> {
    let dir = dir.to_path_buf();
    match cmd {
        Command::Edit { id, set, append } => bible::edit(&dir, &id, &set, &append, json),
        Command::Add { kind, set } => bible::add(&dir, kind, &set, json),
        Command::EditScene { scene, file } => bible::edit_scene(&dir, scene, &file, json),
        Command::Reread {
            scene,
            accept,
            untick,
            profile,
        } => bible::reread(&dir, scene, accept, &untick, profile, json),
        Command::Loop { action, id, note } => bible::act_on_loop(&dir, action, &id, &note, json),
        Command::ForgetLore { id } => bible::forget_lore(&dir, &id, json),
        Command::Connect { a, b, way, remove } => bible::connect(&dir, &a, &b, &way, remove, json),
        Command::Foundation(args) => bible::foundation(&dir, *args, json),
        Command::Note(cmd) => bible::note(&dir, cmd, json),
        Command::Outline(cmd) => bible::outline(&dir, cmd, json),
        Command::Pressure(cmd) => bible::pressure(&dir, cmd, json),
        Command::Chapter(cmd) => chapter(&dir, cmd, json),
        Command::Scene(cmd) => scene::run(&dir, cmd, json),
        Command::Undo => scene::undo(&dir, json),
        Command::Import {
            file,
            novel,
            profile,
            preview,
            shape,
        } => {
            let shaping = import::Shaping { preview, shape };
            import::run(&file, *novel, profile.as_deref(), &shaping, json)
        }
        Command::Replace {
            old,
            new,
            alias,
            dry_run,
        } => replace::run(&dir, &old, &new, alias, dry_run, json),
        Command::Search {
            query,
            words,
            meaning,
            limit,
        } => search::run(&dir, &query, words, meaning, limit, json),
        Command::Export {
            format,
            output,
            author,
            font,
        } => {
            let options = novel_core::export::ExportOptions {
                author,
                font: font.into(),
            };
            export::run(&open(&dir, Access::Read)?, format, output, &options, json)
        }
        other => unreachable!("`run` handles {other:?}"),
    }
}

/// `novel chapter`: deleting and moving one reshape the book (as `novel scene` does).
fn chapter(dir: &Path, cmd: ChapterCommand, json: bool) -> Result<()> {
    match cmd {
        ChapterCommand::Delete { number } => scene::delete_chapter(dir, number, json),
        ChapterCommand::Move { number, before } => scene::move_chapter(dir, number, before, json),
        cmd => chapter::run(dir, cmd, json),
    }
}

/// `novel audit`, with the critic's reading of the scenes first when `--judge` asks for it.
fn audit(dir: &Path, cmd: Command, json: bool) -> Result<()> {
    let Command::Audit {
        from,
        to,
        all,
        judge,
        profile,
    } = cmd
    else {
        unreachable!("called for `audit` only")
    };
    if judge {
        audit::judge(
            &open(dir, Access::Write)?,
            from,
            to,
            profile.as_deref(),
            json,
        )?;
    }
    audit::run(&open(dir, Access::Read)?, from, to, all, json)
}

/// `novel check`: a file against the novel's memory, or a corpus of labelled books.
fn check(dir: &Path, cmd: Command, json: bool) -> Result<()> {
    let Command::Check {
        file,
        pov_character,
        location,
        corpus,
        show,
    } = cmd
    else {
        unreachable!("called for `check` only")
    };
    match (corpus, file) {
        (Some(corpus), _) => check_corpus::run(&corpus, show, json),
        (None, Some(file)) => check::run(
            &open(dir, Access::Read)?,
            &file,
            pov_character,
            location,
            json,
        ),
        (None, None) => anyhow::bail!("give a file to check, or --corpus DIR"),
    }
}

fn open(dir: &std::path::Path, access: Access) -> Result<Novel> {
    Ok(Novel::open(dir, access)?)
}
