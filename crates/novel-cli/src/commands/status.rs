//! `novel status`: the tick, the POV character, counts, open loops, what the novel has spent
//! (tokens, and cost at the profiles' prices, against novel.toml's `[budget.novel]`), how much
//! of its prompts the servers' caches served, and unresolved failures.

use anyhow::Result;
use novel_core::model::LoopStatus;
use novel_core::novel::Novel;
use novel_core::store;
use serde_json::json;

pub fn run(novel: &Novel, as_json: bool) -> Result<()> {
    let conn = novel.store().conn();
    let state = novel.state()?;
    let characters = store::list_characters(conn)?;
    let locations = store::list_locations(conn)?;
    let scenes = store::list_scenes(conn)?;
    let open_loops = store::list_loops(conn, Some(LoopStatus::Open))?;
    let failures: Vec<_> = store::list_failures(conn)?
        .into_iter()
        .filter(|f| !f.resolved)
        .collect();
    let words: u32 = scenes.iter().map(|s| s.word_count).sum();
    let spent = store::spent_on_ticks(conn)?;
    let (prompt_tokens, cached_tokens) = store::prompt_cache_totals(conn)?;
    let limit = novel.config().budget.novel;
    let pov = state
        .active_character
        .as_deref()
        .and_then(|id| characters.iter().find(|c| c.id == id));

    if as_json {
        return crate::output::json(&json!({
            "title": novel.config().novel.title,
            "current_tick": state.current_tick,
            "active_character": state.active_character,
            "characters": characters.len(),
            "locations": locations.len(),
            "scenes": scenes.len(),
            "words": words,
            "open_loops": open_loops.len(),
            "spent": spent,
            "prompt_tokens": prompt_tokens,
            "cached_prompt_tokens": cached_tokens,
            "budget": novel.config().budget,
            "unresolved_failures": failures,
        }));
    }
    let f = &novel.config().novel;
    crate::output::say!("{}", f.title);
    if !f.genre.is_empty() {
        crate::output::say!("  genre: {}", f.genre);
    }
    crate::output::say!("  voice: {}, {} tense, {}", f.pov, f.tense, f.language);
    crate::output::say!("  tick: {}", state.current_tick);
    match pov {
        Some(c) => crate::output::say!("  point of view: {} ({})", c.name, c.id),
        None => crate::output::say!("  point of view: (none)"),
    }
    crate::output::say!(
        "  {} scenes, {} words; {} characters, {} locations; {} open loops",
        scenes.len(),
        words,
        characters.len(),
        locations.len(),
        open_loops.len()
    );
    for l in open_loops.iter().take(5) {
        crate::output::say!(
            "    [{}] {} ({})",
            l.importance.as_str(),
            crate::output::clip(&l.description, 70),
            l.id
        );
    }
    let of = |limit: Option<String>| limit.map(|l| format!(" of {l}")).unwrap_or_default();
    crate::output::say!(
        "  spent: {} tokens{}{}",
        spent.tokens,
        of(limit.tokens.map(|t| t.to_string())),
        if spent.cost > 0.0 || limit.cost.is_some() {
            format!(
                ", cost {:.4}{}",
                spent.cost,
                of(limit.cost.map(|c| format!("{c:.4}")))
            )
        } else {
            String::new()
        }
    );
    if cached_tokens > 0 {
        crate::output::say!(
            "  prompt cache: {cached_tokens} of {prompt_tokens} prompt tokens read from the servers' caches ({:.0}%)",
            cached_tokens as f64 * 100.0 / prompt_tokens.max(1) as f64
        );
    }
    for failure in &failures {
        crate::output::say!(
            "  tick {} failed: {} (details: {})",
            failure.tick,
            crate::output::clip(&failure.message, 80),
            failure.error_file
        );
    }
    Ok(())
}
