//! `novel inspect <id>`: the whole record, then its history by tick; for a character, the
//! scenes they were in, and every death shown on the page with whether they saw it, were told
//! of it, or do not know yet. A character, place or lore entry also shows its codex page's
//! history in plain sentences and the scenes that name it.

use anyhow::{Result, bail};
use novel_core::Novel;
use novel_core::ids::{EntityId, EntityKind};
use novel_core::views::{self, CodexEntry, Inspection, Knowledge, Learned};
use serde_json::Value;

use crate::output::{clip, say};

pub fn run(novel: &Novel, raw_id: &str, as_json: bool) -> Result<()> {
    let id: EntityId = raw_id.parse()?;
    let Some(found) = views::inspection(novel.store().conn(), &id)? else {
        bail!(
            "there is no {} {id} in this novel; `novel list {}s` shows what exists",
            id.kind(),
            id.kind()
        );
    };
    if as_json {
        return crate::output::json(&as_json_value(&id, &found)?);
    }
    say!("{}", serde_json::to_string_pretty(&found.record)?);
    history(&found);
    if let Some(page) = &found.codex {
        codex(page);
    }
    if let Some(knowledge) = &found.knowledge {
        knows(knowledge);
    }
    Ok(())
}

/// `novel inspect --json`: the record and its history, the codex page's sentences and
/// mentions, and a character's knowledge.
fn as_json_value(id: &EntityId, found: &Inspection) -> Result<Value> {
    let mut out = serde_json::json!({ "record": found.record, "history": found.history });
    if let Some(page) = &found.codex {
        out["in_words"] = serde_json::to_value(&page.history)?;
        out["mentions"] = serde_json::to_value(&page.mentions)?;
        out["mention_scenes"] = page.mention_scenes.into();
    }
    if id.kind() == EntityKind::Character {
        let (deaths, scenes) = match &found.knowledge {
            Some(k) => (k.deaths.as_slice(), k.scenes.as_slice()),
            None => (&[][..], &[][..]),
        };
        out["deaths_known"] = serde_json::to_value(deaths)?;
        out["scenes_witnessed"] = serde_json::to_value(scenes)?;
    }
    Ok(out)
}

fn history(found: &Inspection) {
    if found.history.is_empty() {
        return;
    }
    say!("\nHistory:");
    for h in &found.history {
        let value = match (&h.new_value, h.field == "*") {
            (Some(v), false) => format!(" → {}", clip(&v.to_string(), 60)),
            _ => String::new(),
        };
        let flag = if h.flagged { "  ⚠ FLAGGED" } else { "" };
        say!(
            "  tick {:>3}  {:<20} {}{value}  [{}]{flag}",
            h.tick,
            h.field,
            h.change,
            h.source
        );
    }
}

fn codex(page: &CodexEntry) {
    say!("\nIn plain words:");
    for line in &page.history {
        let flag = if line.flagged { "  ⚠" } else { "" };
        let yours = if line.yours { "  (yours)" } else { "" };
        say!("  {}{yours}{flag}", line.text);
    }
    let mut scenes: Vec<String> = page.mentions.iter().map(|m| m.tick.to_string()).collect();
    scenes.dedup();
    if scenes.is_empty() {
        say!(
            "\nNamed in no scene (looked for {}).",
            page.searched.join(", ")
        );
    } else {
        say!(
            "\nNamed in {} scene(s): {}",
            page.mention_scenes,
            scenes.join(", ")
        );
    }
}

fn knows(knowledge: &Knowledge) {
    if !knowledge.scenes.is_empty() {
        let ticks: Vec<String> = knowledge.scenes.iter().map(u32::to_string).collect();
        say!("\nIn the scenes of ticks: {}", ticks.join(", "));
    }
    if knowledge.deaths.is_empty() {
        return;
    }
    say!("\nDeaths on the page, as this character knows them:");
    for k in &knowledge.deaths {
        let how = match k.learned {
            Some((tick, Learned::Witnessed)) => format!("saw it (tick {tick})"),
            Some((tick, Learned::Told)) => format!("learned of it in the scene of tick {tick}"),
            None => "has not seen or heard of it".to_string(),
        };
        say!(
            "  {} ({}) died in the scene of tick {}: {how}",
            k.character_name,
            k.character_id,
            k.died
        );
    }
}
