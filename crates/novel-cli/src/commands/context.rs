//! `novel context --next`: what the next tick's planner prompt will contain — each section's
//! tokens against its budget and whether it was trimmed — and, with `--show`, the prompt.

use std::path::Path;

use anyhow::{Result, anyhow};
use novel_core::run;
use novel_core::{Access, Novel};
pub fn run(dir: &Path, show: bool, json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Read)?;
    super::semantic::attach(&mut novel);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // Budgets as the novel's models count tokens; as estimated without a provider.
    let models = super::roles::models_for(&novel, None, novel_llm::Limits::default()).ok();
    let preview = runtime
        .block_on(run::preview_next_for(&novel, None, models.as_ref()))
        .map_err(|e| anyhow!("cannot build the next prompt: {e}"))?;
    if json {
        let mut value = serde_json::to_value(&preview)?;
        if !show && let Some(map) = value.as_object_mut() {
            map.remove("system");
            map.remove("user");
        }
        return crate::output::json(&value);
    }
    crate::output::say!(
        "Next prompt: the planner's, for tick {} (semantic search {}).",
        preview.tick,
        match &preview.semantic_model {
            Some(model) => format!("on: {model}"),
            None => "off: keywords only".to_string(),
        }
    );
    crate::output::say!();
    crate::output::say!("{:<16} {:>7} {:>7}  trimmed", "section", "tokens", "budget");
    let mut total = 0;
    for s in &preview.sections {
        total += s.tokens;
        crate::output::say!(
            "{:<16} {:>7} {:>7}  {}",
            s.name,
            s.tokens,
            s.budget,
            if s.trimmed { "yes" } else { "" }
        );
    }
    crate::output::say!("{:<16} {:>7}", "sections", total);
    crate::output::say!(
        "prompt: {} tokens (system {}, user {})",
        preview.prompt_tokens,
        preview.system_tokens,
        preview.user_tokens
    );
    if show {
        crate::output::say!(
            "\n=== system ===\n{}\n=== user ===\n{}",
            preview.system,
            preview.user
        );
    }
    Ok(())
}
