//! `novel regenerate`, `rewind`, `versions`, `restore-version` and `branch …`: the writer in
//! control of the story's history. Every move is exact and nothing is lost: rewound scenes
//! become a branch, replaced scenes stay as versions.

use std::path::Path;

use anyhow::{Result, bail};
use novel_core::clock::SystemClock;
use novel_core::control;
use novel_core::diff::{DiffKind, word_diff};
use novel_core::edits;
use novel_core::run::{CancelToken, TickOptions};
use novel_core::{Access, Novel};

use crate::cli::BranchCommand;
use crate::output::{json as print_json, say};

fn writable(dir: &Path) -> Result<Novel> {
    Ok(Novel::open(dir, Access::Write)?)
}

pub fn regenerate(
    dir: &Path,
    note: Option<String>,
    profile: Option<String>,
    json: bool,
) -> Result<()> {
    let mut novel = writable(dir)?;
    super::semantic::attach(&mut novel);
    let models =
        super::roles::models_for(&novel, profile.as_deref(), novel_llm::Limits::default())?;
    let options = TickOptions {
        steering: note,
        ..TickOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let done = runtime.block_on(control::regenerate(
        &mut novel,
        &models,
        &options,
        &(),
        &CancelToken::new(),
        &SystemClock,
    ))?;
    if json {
        return print_json(&serde_json::json!({
            "tick": done.tick, "title": done.scene.title, "words": done.scene.word_count,
            "revised": done.revised, "notes": done.notes,
        }));
    }
    say!(
        "Scene {} written again: \"{}\" — {} words. The old version is kept (`novel versions {}`).",
        done.tick,
        done.scene.title,
        done.scene.word_count,
        done.tick
    );
    Ok(())
}

pub fn rewind(dir: &Path, to: u32, json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    let report = control::rewind(&mut novel, to, &SystemClock)?;
    if json {
        return print_json(&report);
    }
    match &report.kept_in {
        Some(branch) => say!(
            "The story is back at scene {to}. The later scenes are kept in the branch \"{branch}\" (`novel branch switch \"{branch}\"` to return)."
        ),
        None => say!("The story is already at scene {to}."),
    }
    Ok(())
}

pub fn versions(
    novel: &Novel,
    scene: u32,
    show: Option<usize>,
    diff: Option<Vec<usize>>,
    json: bool,
) -> Result<()> {
    let all = control::versions(novel, scene)?;
    if all.versions.is_empty() {
        bail!("scene {scene} has no versions: there is no such scene yet");
    }
    let pick = |n: usize| -> Result<&_> {
        match n.checked_sub(1).and_then(|i| all.versions.get(i)) {
            Some(v) => Ok(v),
            None => bail!(
                "scene {scene} has versions 1–{}; `novel versions {scene}` lists them",
                all.versions.len()
            ),
        }
    };
    if let Some(n) = show {
        let v = pick(n)?;
        if json {
            return print_json(v);
        }
        say!("# {}\n\n{}", v.title, v.prose);
        return Ok(());
    }
    if let Some(pair) = diff {
        let (a, b) = (pick(pair[0])?, pick(pair[1])?);
        return print_diff(&a.prose, &b.prose, json);
    }
    if json {
        return print_json(&all);
    }
    for (i, v) in all.versions.iter().enumerate() {
        say!(
            "{:>3}{} {:<12} {:>5} words  {}  [{}]  {}",
            i + 1,
            if all.current == Some(v.id) { "*" } else { " " },
            v.origin.as_str(),
            v.words,
            v.created_at,
            v.branch,
            v.title
        );
    }
    say!("(* the version the scene shows now)");
    Ok(())
}

/// The word differences from one prose to another, `[-removed-]` and `{+added+}`.
fn print_diff(from: &str, to: &str, json: bool) -> Result<()> {
    let runs = word_diff(from, to);
    if json {
        return print_json(&runs);
    }
    let text: String = runs
        .iter()
        .map(|r| match r.kind {
            DiffKind::Same => r.text.clone(),
            DiffKind::Removed => format!("[-{}-]", r.text),
            DiffKind::Added => format!("{{+{}+}}", r.text),
        })
        .collect();
    say!("{text}");
    Ok(())
}

pub fn restore_version(dir: &Path, scene: u32, version: usize, json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    let all = control::versions(&novel, scene)?;
    let Some(v) = version.checked_sub(1).and_then(|i| all.versions.get(i)) else {
        bail!(
            "scene {scene} has versions 1–{}; `novel versions {scene}` lists them",
            all.versions.len()
        );
    };
    let restored = edits::restore_version(&mut novel, v.id, &SystemClock)?;
    if json {
        return print_json(
            &serde_json::json!({"tick": restored.tick, "words": restored.word_count}),
        );
    }
    say!(
        "Scene {scene} shows version {version} again ({} words). Its memory is unchanged.",
        restored.word_count
    );
    Ok(())
}

pub fn branch(dir: &Path, cmd: BranchCommand, json: bool) -> Result<()> {
    match cmd {
        BranchCommand::List => return list_branches(dir, json),
        BranchCommand::New { name, at } => {
            let mut novel = writable(dir)?;
            let name = control::fork(&mut novel, &name, at, &SystemClock)?;
            let tick = novel.state()?.current_tick;
            if json {
                return print_json(&serde_json::json!({"branch": name, "tick": tick}));
            }
            say!("On the new branch \"{name}\", at scene {tick}.");
        }
        BranchCommand::Switch { name } => {
            let mut novel = writable(dir)?;
            control::switch(&mut novel, &name)?;
            let tick = novel.state()?.current_tick;
            if json {
                return print_json(&serde_json::json!({"branch": name, "tick": tick}));
            }
            say!("On branch \"{name}\", at scene {tick}.");
        }
        BranchCommand::Rename { name, new_name } => {
            let mut novel = writable(dir)?;
            let renamed = control::rename(&mut novel, &name, &new_name)?;
            if json {
                return print_json(&serde_json::json!({"branch": renamed}));
            }
            say!("Renamed \"{name}\" to \"{renamed}\".");
        }
        BranchCommand::Delete { name } => {
            let mut novel = writable(dir)?;
            control::delete(&mut novel, &name)?;
            if json {
                return print_json(&serde_json::json!({"deleted": name}));
            }
            say!("Deleted the branch \"{name}\"; its scenes stay as versions.");
        }
        BranchCommand::Compare { scene } => return compare(dir, scene, json),
    }
    Ok(())
}

/// One line per branch, the current one starred.
fn list_branches(dir: &Path, json: bool) -> Result<()> {
    let novel = Novel::open(dir, Access::Read)?;
    let branches = control::list(&novel)?;
    if json {
        return print_json(&branches);
    }
    for b in branches {
        say!(
            "{} {}  (to scene {})",
            if b.current { "*" } else { " " },
            b.name,
            b.tick
        );
    }
    Ok(())
}

/// Scene `scene` as each branch has it.
fn compare(dir: &Path, scene: u32, json: bool) -> Result<()> {
    let novel = Novel::open(dir, Access::Read)?;
    let across = control::scene_across_branches(&novel, scene)?;
    if json {
        return print_json(&across);
    }
    for b in across {
        say!(
            "== {}{}",
            b.branch,
            if b.current { " (current)" } else { "" }
        );
        match b.scene {
            Some(v) => say!("# {}\n\n{}\n", v.title, v.prose),
            None => say!("(no scene {scene} on this branch)\n"),
        }
    }
    Ok(())
}
