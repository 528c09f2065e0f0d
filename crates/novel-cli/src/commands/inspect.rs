//! `novel inspect <id>`: the whole record, then its history by tick.

use anyhow::{Result, bail};
use novel_core::ids::{EntityId, EntityKind};
use novel_core::novel::Novel;
use novel_core::store;
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
    if as_json {
        return crate::output::json(&serde_json::json!({ "record": record, "history": history }));
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
    Ok(())
}
