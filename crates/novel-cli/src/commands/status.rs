//! `novel status`: the tick, the POV character, counts, open loops, what the novel has spent
//! (tokens, and cost at the profiles' prices, against novel.toml's `[budget.novel]`), how much
//! of its prompts the servers' caches served, and unresolved failures.

use anyhow::Result;
use novel_core::Novel;
use novel_core::views::{self, NovelStatus};

use crate::output::{clip, say};

pub fn run(novel: &Novel, as_json: bool) -> Result<()> {
    let status = views::status(novel)?;
    if as_json {
        // Through a JSON value, so that the keys come sorted as they always have.
        return crate::output::json(&serde_json::to_value(&status)?);
    }
    let f = &novel.config().novel;
    say!("{}", f.title);
    if !f.genre.is_empty() {
        say!("  genre: {}", f.genre);
    }
    say!("  voice: {}, {} tense, {}", f.pov, f.tense, f.language);
    say!("  tick: {}", status.current_tick);
    match (&status.active_name, &status.active_character) {
        (Some(name), Some(id)) => say!("  point of view: {name} ({id})"),
        _ => say!("  point of view: (none)"),
    }
    say!(
        "  {} scenes, {} words; {} characters, {} locations; {} open loops",
        status.scenes,
        status.words,
        status.characters,
        status.locations,
        status.open_loops
    );
    for l in status.open_loop_list.iter().take(5) {
        say!(
            "    [{}] {} ({})",
            l.importance.as_str(),
            clip(&l.description, 70),
            l.id
        );
    }
    spending(&status);
    for failure in &status.unresolved_failures {
        say!(
            "  tick {} failed: {} (details: {})",
            failure.tick,
            clip(&failure.message, 80),
            failure.error_file
        );
    }
    Ok(())
}

/// What the novel has spent against its limit, and what the servers' caches served.
fn spending(status: &NovelStatus) {
    let (spent, limit) = (&status.spent, &status.budget.novel);
    let of = |limit: Option<String>| limit.map(|l| format!(" of {l}")).unwrap_or_default();
    say!(
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
    let (cached, prompt) = (status.cached_prompt_tokens, status.prompt_tokens);
    if cached > 0 {
        say!(
            "  prompt cache: {cached} of {prompt} prompt tokens read from the servers' caches ({:.0}%)",
            cached as f64 * 100.0 / prompt.max(1) as f64
        );
    }
}
