//! `novel inspect <id>`: the whole record, then its history by tick; for a character, the
//! scenes they were in, and every death shown on the page with whether they saw it, were told
//! of it, or do not know yet. A character, place or lore entry also shows its codex page's
//! history in plain sentences and the scenes that name it.

use anyhow::{Result, bail};
use novel_core::evaluate::{self, Learned};
use novel_core::ids::{EntityId, EntityKind};
use novel_core::novel::Novel;
use novel_core::store;
use novel_core::views;
use serde_json::Value;

pub fn run(novel: &Novel, raw_id: &str, as_json: bool) -> Result<()> {
    let id: EntityId = raw_id.parse()?;
    let key = id.to_string();
    let conn = novel.store().conn();
    let record: Option<Value> = match id.kind() {
        EntityKind::Character => store::get_character(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
        EntityKind::Location => store::get_location(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
        EntityKind::Relationship => store::get_relationship(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
        EntityKind::Loop => store::get_loop(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
        EntityKind::Lore => store::get_lore(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
        EntityKind::Scene => store::get_scene(conn, &key)?
            .map(serde_json::to_value)
            .transpose()?,
    };
    let Some(record) = record else {
        bail!(
            "there is no {} {key} in this novel; `novel list {}s` shows what exists",
            id.kind(),
            id.kind()
        );
    };
    let history = store::history_of(conn, &key)?;
    let (knows, witnessed) = match store::get_character(conn, &key)? {
        Some(who) => (
            evaluate::deaths_known_to(conn, &store::list_characters(conn)?, &who)?,
            evaluate::scenes_witnessed(conn, &who)?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let codex = views::codex_entry(conn, &key)?;
    if as_json {
        let mut out = serde_json::json!({ "record": record, "history": history });
        if let Some(page) = &codex {
            out["in_words"] = serde_json::to_value(&page.history)?;
            out["mentions"] = serde_json::to_value(&page.mentions)?;
            out["mention_scenes"] = page.mention_scenes.into();
        }
        if id.kind() == EntityKind::Character {
            out["deaths_known"] = serde_json::to_value(&knows)?;
            out["scenes_witnessed"] = serde_json::to_value(&witnessed)?;
        }
        return crate::output::json(&out);
    }
    crate::output::say!("{}", serde_json::to_string_pretty(&record)?);
    if !history.is_empty() {
        crate::output::say!("\nHistory:");
        for h in &history {
            let value = h
                .new_value
                .as_ref()
                .map(|v| format!(" → {}", crate::output::clip(&v.to_string(), 60)));
            let flag = if h.flagged { "  ⚠ FLAGGED" } else { "" };
            crate::output::say!(
                "  tick {:>3}  {:<20} {}{}  [{}]{}",
                h.tick,
                h.field,
                h.change,
                if h.field == "*" {
                    String::new()
                } else {
                    value.unwrap_or_default()
                },
                h.source,
                flag
            );
        }
    }
    if let Some(page) = &codex {
        crate::output::say!("\nIn plain words:");
        for line in &page.history {
            let flag = if line.flagged { "  ⚠" } else { "" };
            let yours = if line.yours { "  (yours)" } else { "" };
            crate::output::say!("  {}{yours}{flag}", line.text);
        }
        let mut scenes: Vec<String> = page.mentions.iter().map(|m| m.tick.to_string()).collect();
        scenes.dedup();
        if scenes.is_empty() {
            crate::output::say!(
                "\nNamed in no scene (looked for {}).",
                page.searched.join(", ")
            );
        } else {
            crate::output::say!(
                "\nNamed in {} scene(s): {}",
                page.mention_scenes,
                scenes.join(", ")
            );
        }
    }
    if !witnessed.is_empty() {
        let ticks: Vec<String> = witnessed.iter().map(u32::to_string).collect();
        crate::output::say!("\nIn the scenes of ticks: {}", ticks.join(", "));
    }
    if !knows.is_empty() {
        crate::output::say!("\nDeaths on the page, as this character knows them:");
        for k in &knows {
            let how = match k.learned {
                Some((tick, Learned::Witnessed)) => format!("saw it (tick {tick})"),
                Some((tick, Learned::Told)) => format!("learned of it in the scene of tick {tick}"),
                None => "has not seen or heard of it".to_string(),
            };
            crate::output::say!(
                "  {} ({}) died in the scene of tick {}: {how}",
                k.character_name,
                k.character_id,
                k.died
            );
        }
    }
    Ok(())
}
