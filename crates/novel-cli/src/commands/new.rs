//! `novel new`: seed file and flags merged into a `NovelSeed`, then the novel is created.

use anyhow::{Context, Result, bail};
use novel_core::bible::{NewCharacter, NewLocation};
use novel_core::clock::SystemClock;
use novel_core::config::{Foundation, GenerationSettings, PointOfView, Tense};
use novel_core::views;
use novel_core::{Novel, NovelSeed};

use crate::cli::NewArgs;

pub fn run(args: NewArgs, json: bool) -> Result<()> {
    let seed = seed_of(&args)?;
    check_complete(&seed)?;
    let novel = Novel::create(&args.dir, seed, &SystemClock)
        .with_context(|| format!("cannot create the novel in {}", args.dir.display()))?;
    let state = novel.state()?;
    if json {
        return crate::output::json(&serde_json::json!({
            "path": novel.root(),
            "title": novel.config().novel.title,
            "active_character": state.active_character,
        }));
    }
    let protagonist = state.active_character.as_deref().and_then(|id| {
        views::entity_detail(novel.store().conn(), id)
            .ok()
            .flatten()
    });
    crate::output::say!(
        "Created \"{}\" in {}",
        novel.config().novel.title,
        novel.root().display()
    );
    if let Some(c) = protagonist {
        crate::output::say!("  protagonist: {} ({})", c.name, c.id);
    }
    crate::output::say!(
        "Next: configure a provider, then run `novel -C {} tick`.",
        args.dir.display()
    );
    Ok(())
}

/// The seed file (if any) with the flags applied over it.
pub fn seed_of(args: &NewArgs) -> Result<NovelSeed> {
    let mut seed = match &args.seed {
        Some(path) => NovelSeed::load(path)?,
        None => NovelSeed {
            foundation: Foundation {
                title: String::new(),
                author: String::new(),
                genre: String::new(),
                premise: String::new(),
                setting: String::new(),
                tone: String::new(),
                style: String::new(),
                pov: PointOfView::default(),
                tense: Tense::default(),
                language: "English".into(),
                themes: Vec::new(),
                author_note: String::new(),
            },
            generation: GenerationSettings::default(),
            protagonist: NewCharacter::default(),
            location: NewLocation::default(),
            goal: String::new(),
            lore: Vec::new(),
        },
    };
    apply_flags(&mut seed, args)?;
    Ok(seed)
}

/// Refuses a seed without the title, protagonist, first location or goal, naming the flags.
pub fn check_complete(seed: &NovelSeed) -> Result<()> {
    let missing: Vec<&str> = [
        ("--title", seed.foundation.title.as_str()),
        ("--protagonist", seed.protagonist.name.as_str()),
        ("--location", seed.location.name.as_str()),
        ("--goal", seed.goal.as_str()),
    ]
    .into_iter()
    .filter(|(_, v)| v.trim().is_empty())
    .map(|(flag, _)| flag)
    .collect();
    if !missing.is_empty() {
        bail!(
            "a new novel needs {} (give them as flags or in a --seed file)",
            missing.join(", ")
        );
    }
    Ok(())
}

fn apply_flags(seed: &mut NovelSeed, a: &NewArgs) -> Result<()> {
    let f = &mut seed.foundation;
    let flags = &a.foundation;
    let set = |slot: &mut String, value: &Option<String>| {
        if let Some(v) = value {
            *slot = v.clone();
        }
    };
    set(&mut f.title, &flags.title);
    set(&mut f.author, &flags.author);
    set(&mut f.genre, &flags.genre);
    set(&mut f.premise, &flags.premise);
    set(&mut f.setting, &flags.setting);
    set(&mut f.tone, &flags.tone);
    set(&mut f.style, &flags.style);
    set(&mut f.language, &flags.language);
    if let Some(pov) = flags.pov {
        f.pov = pov.into();
    }
    if let Some(tense) = flags.tense {
        f.tense = tense.into();
    }
    set(&mut seed.protagonist.name, &a.protagonist);
    set(&mut seed.protagonist.role, &a.protagonist_role);
    set(
        &mut seed.protagonist.description,
        &a.protagonist_description,
    );
    set(&mut seed.location.name, &a.location);
    set(&mut seed.location.description, &a.location_description);
    set(&mut seed.goal, &a.goal);
    Ok(())
}
