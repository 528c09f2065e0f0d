//! Plan verdicts for scenes written before the tick recorded them: on the writer's demand
//! (`novel audit --judge`), each scene whose tick kept its plan is read against that plan by
//! the extractor model — the same prompt, salvage and verdict words as a tick's — and only the
//! verdict is stored (judged by "audit"); the scene's memory is left as it is. Scenes with a
//! verdict, and scenes with no plan (imported, written by hand), are left alone.

use novel_llm::LanguageModel;

use super::error::StepError;
use super::reextract::extract_scene_against;
use crate::model::{Realized, SceneBrief};
use crate::novel::Novel;
use crate::store;

/// What a judging pass did.
#[derive(Debug, Clone, Default)]
pub struct Judged {
    /// Scenes judged now, with their verdict.
    pub judged: Vec<(u32, Realized)>,
    /// Scenes the extractor gave no usable verdict for (left "not judged").
    pub unanswered: Vec<u32>,
    /// Scenes with no plan to judge them by.
    pub without_plan: u32,
    /// Model calls made.
    pub calls: u32,
}

/// Judges every scene of `from..=to` (the whole book when `None`) that has no verdict yet.
pub async fn judge_scenes(
    novel: &Novel,
    model: &dyn LanguageModel,
    from: Option<u32>,
    to: Option<u32>,
) -> Result<Judged, StepError> {
    let conn = novel.store().conn();
    let judged_before = store::list_verdicts(conn)?;
    let mut out = Judged::default();
    for scene in store::list_scenes(conn)? {
        let in_range = from.is_none_or(|f| scene.tick >= f) && to.is_none_or(|t| scene.tick <= t);
        if !in_range || judged_before.contains_key(&scene.tick) {
            continue;
        }
        let Some(brief) = plan_brief(conn, &scene)? else {
            out.without_plan += 1;
            continue;
        };
        let read = extract_scene_against(conn, novel.config(), model, &scene, brief).await?;
        out.calls += read.usage.calls();
        match read.extraction.plan_verdict {
            Some(verdict) => {
                let tx = novel.store().begin()?;
                store::put_verdict(&tx, scene.tick, &verdict, "audit")?;
                tx.commit().map_err(store::StoreError::from)?;
                out.judged.push((scene.tick, verdict.verdict));
            }
            None => out.unanswered.push(scene.tick),
        }
    }
    Ok(out)
}

/// The plan the scene's tick kept, as the extractor reads it; `None` when there was none.
fn plan_brief(
    conn: &rusqlite::Connection,
    scene: &crate::model::Scene,
) -> Result<Option<SceneBrief>, StepError> {
    let plan = store::get_tick(conn, scene.tick)?.and_then(|t| t.plan);
    let Some(plan) = plan else {
        return Ok(None);
    };
    let text = |key: &str| plan.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let Some(intention) = text("scene_intention").filter(|i| !i.trim().is_empty()) else {
        return Ok(None);
    };
    Ok(Some(SceneBrief {
        scene_intention: intention,
        pov_character: text("pov_character").or_else(|| scene.pov_character.clone()),
        target_location: text("target_location").or_else(|| scene.location.clone()),
        expected_outcomes: plan
            .get("expected_outcomes")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|o| o.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    }))
}
