//! `novel edit`, `add`, `loop`, `forget-lore`, `connect`, `foundation`, `note`, `outline` and
//! `pressure`:
//! the writer's own changes to the story bible. Each is validated like the agent's changes,
//! recorded in the history as the writer's, and undone by a rewind.

use std::path::Path;

use anyhow::{Context, Result, bail};
use novel_core::bible::{self, EditProposal, FoundationEdit, LoopAction, NewClock, NewRecord};
use novel_core::bible::{EntityUpdate, LoopEdit, LoreEdit};
use novel_core::clock::SystemClock;
use novel_core::ids::{EntityId, EntityKind};
use novel_core::model::{BeatStatus, EventStatus, PressureClock, StoryEvent, Threshold};
use novel_core::views;
use novel_core::{Access, Novel};
use serde_json::{Map, Value};

use crate::cli::{
    AddKind, FoundationArgs, LoopActionArg, NoteCommand, OutlineCommand, PressureCommand,
};
use crate::output::{json as print_json, say};

fn writable(dir: &Path) -> Result<Novel> {
    Ok(Novel::open(dir, Access::Write)?)
}

/// `field=value` pairs as a JSON object; dotted fields nest, values parse as JSON when they can.
fn fields(pairs: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for pair in pairs {
        let Some((key, raw)) = pair.split_once('=') else {
            bail!("`{pair}`: write field=value, e.g. emotional_state=wary");
        };
        let value =
            serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.into()));
        let mut path: Vec<&str> = key.trim().split('.').collect();
        let last = path
            .pop()
            .filter(|k| !k.is_empty())
            .with_context(|| format!("`{pair}` names no field"))?;
        let mut slot = &mut out;
        for part in path {
            let entry = slot
                .entry(part.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                bail!("`{pair}`: {part} is set twice, once as a value");
            }
            slot = entry.as_object_mut().expect("checked above");
        }
        slot.insert(last.to_string(), value);
    }
    Ok(out)
}

/// `--append field=value` pairs as the lists to append: one value is one item, a JSON list
/// its items, and a field given twice gathers both (`--append inventory=map`,
/// `--append inventory='"map"'` and `--append inventory='["map"]'` all add "map").
fn appended(pairs: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for pair in pairs {
        for (key, value) in fields(std::slice::from_ref(pair))? {
            let items = match value {
                Value::Array(items) => items,
                Value::Object(_) => bail!("`{pair}`: append to a list field, not a nested one"),
                one => vec![one],
            };
            let slot = out.entry(key).or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = slot {
                list.extend(items);
            }
        }
    }
    Ok(out)
}

fn parse<T: serde::de::DeserializeOwned>(what: &str, map: Map<String, Value>) -> Result<T> {
    serde_json::from_value(Value::Object(map))
        .with_context(|| format!("these fields do not make a {what}"))
}

pub fn edit(dir: &Path, id: &str, set: &[String], append: &[String], json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    let parsed: EntityId = id.parse()?;
    let changes = fields(set)?;
    let key = parsed.to_string();
    let shown = match parsed.kind() {
        EntityKind::Loop => {
            let edit: LoopEdit = parse("loop change", changes)?;
            serde_json::to_value(bible::edit_loop(&mut novel, &key, &edit, &SystemClock)?)?
        }
        EntityKind::Lore => {
            let edit: LoreEdit = parse("lore change", changes)?;
            serde_json::to_value(bible::edit_lore(&mut novel, &key, &edit, &SystemClock)?)?
        }
        _ => {
            let update = EntityUpdate {
                changes,
                append: appended(append)?,
            };
            serde_json::to_value(bible::edit_record(&mut novel, &key, &update, &SystemClock)?)?
        }
    };
    if json {
        return print_json(&shown);
    }
    say!("Changed {key}. `novel inspect {key}` shows it with its history.");
    Ok(())
}

pub fn add(dir: &Path, kind: AddKind, set: &[String], json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    let map = fields(set)?;
    let record = match kind {
        AddKind::Character => NewRecord::Character(parse("character", map)?),
        AddKind::Location => NewRecord::Location(parse("location", map)?),
        AddKind::Relationship => NewRecord::Relationship(parse("relationship", map)?),
        AddKind::Loop => NewRecord::Loop(parse("loop", map)?),
        AddKind::Lore => NewRecord::Lore(parse("lore entry", map)?),
    };
    let id = bible::add_record(&mut novel, record, &SystemClock)?;
    if json {
        return print_json(&serde_json::json!({ "id": id }));
    }
    say!("Added {id}.");
    Ok(())
}

pub fn act_on_loop(
    dir: &Path,
    action: LoopActionArg,
    id: &str,
    note: &str,
    json: bool,
) -> Result<()> {
    let mut novel = writable(dir)?;
    let action = match action {
        LoopActionArg::Resolve => LoopAction::Resolve,
        LoopActionArg::Abandon => LoopAction::Abandon,
        LoopActionArg::Reopen => LoopAction::Reopen,
    };
    let l = bible::act_on_loop(&mut novel, id, action, note, &SystemClock)?;
    if json {
        return print_json(&l);
    }
    say!("Loop {} is {} now.", l.id, l.status.as_str());
    Ok(())
}

pub fn forget_lore(dir: &Path, id: &str, json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    bible::delete_lore(&mut novel, id, &SystemClock)?;
    if json {
        return print_json(&serde_json::json!({ "deleted": id }));
    }
    say!("Deleted {id} (a rewind brings it back).");
    Ok(())
}

pub fn connect(dir: &Path, a: &str, b: &str, way: &str, remove: bool, json: bool) -> Result<()> {
    let mut novel = writable(dir)?;
    if remove {
        bible::disconnect_places(&mut novel, a, b, &SystemClock)?;
    } else {
        bible::connect_places(&mut novel, a, b, way, &SystemClock)?;
    }
    if json {
        return print_json(&serde_json::json!({ "a": a, "b": b, "connected": !remove }));
    }
    if remove {
        say!("{a} and {b} are no longer connected (a rewind brings the way back).");
    } else {
        say!("{a} and {b} are connected.");
    }
    Ok(())
}

pub fn foundation(dir: &Path, a: FoundationArgs, json: bool) -> Result<()> {
    let edit = FoundationEdit {
        title: a.fields.title,
        author: a.fields.author,
        genre: a.fields.genre,
        premise: a.fields.premise,
        setting: a.fields.setting,
        tone: a.fields.tone,
        style: a.fields.style,
        pov: a.fields.pov.map(Into::into),
        tense: a.fields.tense.map(Into::into),
        language: a.fields.language,
        themes: a
            .themes
            .map(|t| t.split(',').map(|s| s.trim().to_string()).collect()),
        goal: a.goal,
    };
    let f = if edit == FoundationEdit::default() {
        Novel::open(dir, Access::Read)?.config().novel.clone()
    } else {
        bible::edit_foundation(&mut writable(dir)?, &edit, &SystemClock)?
    };
    if json {
        return print_json(&f);
    }
    say!("{}", toml::to_string_pretty(&f)?);
    Ok(())
}

pub fn note(dir: &Path, cmd: NoteCommand, json: bool) -> Result<()> {
    let note = match cmd {
        NoteCommand::Show => Novel::open(dir, Access::Read)?
            .config()
            .novel
            .author_note
            .clone(),
        NoteCommand::Set { text } => {
            bible::set_author_note(&mut writable(dir)?, &text, &SystemClock)?.author_note
        }
        NoteCommand::Clear => {
            bible::set_author_note(&mut writable(dir)?, "", &SystemClock)?.author_note
        }
    };
    if json {
        return print_json(&serde_json::json!({ "author_note": note }));
    }
    if note.is_empty() {
        say!("No author's note. Set one with `novel note set \"…\"`.");
    } else {
        say!("Author's note (in every planner and writer prompt):\n{note}");
    }
    Ok(())
}

pub fn outline(dir: &Path, cmd: OutlineCommand, json: bool) -> Result<()> {
    let clock = SystemClock;
    if !matches!(cmd, OutlineCommand::List) {
        let mut novel = writable(dir)?;
        match cmd {
            OutlineCommand::Add { text, at } => {
                bible::add_beat(&mut novel, &text, at.map(|n| n.saturating_sub(1)), &clock)?;
            }
            OutlineCommand::Edit { id, text } => {
                bible::edit_beat(&mut novel, &id, &text, &clock)?;
            }
            OutlineCommand::Move { id, to } => {
                bible::move_beat(&mut novel, &id, to.saturating_sub(1), &clock)?;
            }
            OutlineCommand::Remove { id } => bible::remove_beat(&mut novel, &id, &clock)?,
            OutlineCommand::Done { id, undo } => {
                bible::mark_beat(&mut novel, &id, !undo, &clock)?;
            }
            OutlineCommand::List => unreachable!("handled below"),
        }
    }
    let novel = Novel::open(dir, Access::Read)?;
    let beats = views::outline(novel.store().conn())?;
    if json {
        return print_json(&beats);
    }
    if beats.is_empty() {
        say!("The outline is empty. Add a beat with `novel outline add \"…\"`.");
    }
    for (i, b) in beats.iter().enumerate() {
        let state = match (b.status, b.done_tick) {
            (BeatStatus::Done, Some(t)) => format!("done in scene {t}"),
            (BeatStatus::Done, None) => "done".into(),
            (BeatStatus::Open, _) => "open".into(),
        };
        say!("{:>3}. {:<4} [{state}] {}", i + 1, b.id, b.text);
    }
    Ok(())
}

fn threshold(raw: &str) -> Result<Threshold> {
    let (at, note) = raw
        .split_once(':')
        .with_context(|| format!("`{raw}`: write AT:NOTE, e.g. 8:the harbor is sealed"))?;
    Ok(Threshold {
        at: at
            .trim()
            .parse()
            .with_context(|| format!("`{at}` is not a number"))?,
        note: note.trim().to_string(),
    })
}

pub fn pressure(dir: &Path, cmd: PressureCommand, json: bool) -> Result<()> {
    if !matches!(cmd, PressureCommand::List) {
        change_pressure(&mut writable(dir)?, cmd)?;
    }
    let novel = Novel::open(dir, Access::Read)?;
    let views::Pressure { clocks, events } = views::pressure(novel.store().conn())?;
    if json {
        return print_json(&serde_json::json!({ "clocks": clocks, "events": events }));
    }
    print_pressure(&clocks, &events);
    Ok(())
}

/// One change to the clocks or events.
fn change_pressure(novel: &mut Novel, cmd: PressureCommand) -> Result<()> {
    let clock = SystemClock;
    match cmd {
        PressureCommand::AddClock {
            name,
            description,
            max,
            value,
            per_tick,
            thresholds,
        } => {
            let thresholds = thresholds
                .iter()
                .map(|t| threshold(t))
                .collect::<Result<_>>()?;
            bible::add_clock(
                novel,
                NewClock {
                    name,
                    description,
                    value,
                    max,
                    per_tick,
                    thresholds,
                },
                &clock,
            )?;
        }
        PressureCommand::SetClock { id, value } => {
            let current = views::pressure(novel.store().conn())?
                .clocks
                .into_iter()
                .find(|c| c.id == id)
                .with_context(|| {
                    format!("there is no clock {id}; `novel pressure list` shows them")
                })?;
            bible::edit_clock(
                novel,
                &id,
                NewClock {
                    name: current.name,
                    description: current.description,
                    value,
                    max: current.max,
                    per_tick: current.per_tick,
                    thresholds: current.thresholds,
                },
                &clock,
            )?;
        }
        PressureCommand::RemoveClock { id } => bible::remove_clock(novel, &id, &clock)?,
        PressureCommand::AddEvent { at, description } => {
            bible::add_event(novel, at, &description, &clock)?;
        }
        PressureCommand::RemoveEvent { id } => bible::remove_event(novel, &id, &clock)?,
        PressureCommand::List => unreachable!("nothing to change"),
    }
    Ok(())
}

fn print_pressure(clocks: &[PressureClock], events: &[StoryEvent]) {
    for c in clocks {
        let next = c
            .next_threshold()
            .map(|t| format!(", at {}: {}", t.at, t.note))
            .unwrap_or_default();
        say!(
            "{} {}: {}/{} (+{} a scene{next})",
            c.id,
            c.name,
            c.value,
            c.max,
            c.per_tick
        );
    }
    for e in events {
        let status = if e.status == EventStatus::Done {
            "happened"
        } else {
            "pending"
        };
        say!("{} scene {}: {} [{status}]", e.id, e.tick, e.description);
    }
    if clocks.is_empty() && events.is_empty() {
        say!("No clocks or events. Add one with `novel pressure add-clock` or `add-event`.");
    }
}

pub fn edit_scene(dir: &Path, scene: u32, file: &Path, json: bool) -> Result<()> {
    let prose =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut novel = writable(dir)?;
    let edited = novel_core::edits::edit_scene_prose(&mut novel, scene, &prose, &SystemClock)?;
    if json {
        return print_json(&serde_json::json!({ "tick": scene, "words": edited.word_count }));
    }
    say!(
        "Scene {scene} now has {} words (the old text is kept as a version). `novel reread {scene}` brings the memory in line.",
        edited.word_count
    );
    Ok(())
}

pub fn reread(
    dir: &Path,
    scene: u32,
    accept: bool,
    untick: &[u32],
    profile: Option<String>,
    json: bool,
) -> Result<()> {
    use std::io::IsTerminal;
    let mut novel = writable(dir)?;
    let models = super::roles::models_for(&novel, profile.as_deref(), Default::default())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let proposal = runtime.block_on(bible::propose_after_edit(&novel, &models, scene))?;
    let ask = !accept && untick.is_empty() && std::io::stdin().is_terminal() && !json;
    if !json {
        print_proposal(scene, &proposal);
    }
    let mut unticked: Vec<u32> = untick.to_vec();
    if ask {
        match asked_to_apply()? {
            Some(more) => unticked.extend(more),
            None => {
                say!("Nothing applied.");
                return Ok(());
            }
        }
    } else if !accept && untick.is_empty() {
        if json {
            return print_json(&proposal);
        }
        say!("Nothing applied: run again with --accept (or --untick N…) to apply.");
        return Ok(());
    }
    let done = bible::accept_edit_proposal(&mut novel, &proposal, &unticked, &SystemClock)?;
    if json {
        return print_json(&done);
    }
    say!(
        "Applied: {} created, {} changed, {} skipped.",
        done.applied.created.len(),
        done.applied.updated.len(),
        done.applied.skipped.len()
    );
    for later in &done.later {
        say!(
            "Flagged: scene {} (\"{}\") now contradicts the memory.",
            later.tick,
            later.title
        );
    }
    Ok(())
}

/// What a re-reading proposes: the scene's title, summary and memory changes, and the later
/// scenes they would contradict.
fn print_proposal(scene: u32, proposal: &EditProposal) {
    say!(
        "Scene {scene}: \"{}\" (tension {})",
        proposal.title,
        proposal.tension
    );
    for b in &proposal.summary {
        say!("  - {b}");
    }
    for c in &proposal.changes {
        say!(
            "  [{}] {:?} {}: {}",
            c.index,
            c.category,
            c.subject,
            c.summary
        );
    }
    for later in &proposal.later {
        for f in &later.findings {
            say!("  scene {} would contradict it: {}", later.tick, f.message);
        }
    }
}

/// The writer's answer at the terminal: `Some` changes to leave out (none for "accept"),
/// `None` for "reject".
fn asked_to_apply() -> Result<Option<Vec<u32>>> {
    use std::io::BufRead;
    say!("Apply: [a]ccept, [u]ntick N…, [r]eject? (r)");
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let mut words = line.split_whitespace();
    Ok(match words.next() {
        Some("a") => Some(Vec::new()),
        Some("u") => Some(words.filter_map(|w| w.parse::<u32>().ok()).collect()),
        _ => None,
    })
}
