//! The write step: the writer's prompt (centred on the plan's POV and place, with what the tools
//! returned), the prose streamed to the observer as it comes, and the answer made into prose —
//! wrappers stripped, control characters removed, and held to sane bounds. Empty prose and
//! prose far past the target are not committed: they become findings that demand the revision,
//! and if the revision cannot fix them the tick fails cleanly.

use std::time::Instant;

use novel_llm::ChatRequest;
use serde_json::Value;

use super::error::{AtStage, Failure, StepError};
use super::events::{Stage, TickEvent};
use super::planning::Acted;
use super::requests;
use super::state::TickRun;
use crate::config::{GenerationSettings, Role};
use crate::evaluate::{Check, Finding, Severity};
use crate::model::{Step, count_words};
use crate::text::{strip_controls, truncate_words};

/// Prose longer than this many times the target maximum is a runaway answer, not a scene.
pub(super) const RUNAWAY_FACTOR: u32 = 3;

/// Prose shorter than the target minimum divided by this is a scrap, not a scene (a tiny
/// model's "Sidenote: 12.6.2019" with a title): revised once, then refused like no prose.
pub(super) const SCRAP_DIVISOR: u32 = 4;

pub(super) async fn write(run: &mut TickRun<'_>, acted: &Acted<'_>) -> Result<String, Failure> {
    run.stage(Stage::Writing);
    let tool_results: Vec<(String, Value)> = acted
        .report
        .results
        .iter()
        .filter_map(|r| r.output.clone().map(|o| (r.tool.clone(), o)))
        .collect();
    let gathering = Instant::now();
    let base = requests::scene_context(&acted.tx, &run.config, &acted.plan).at(Stage::Writing)?;
    run.scene_context = Some(base.clone());
    let prompt = requests::writer(
        base,
        &acted.tx,
        &run.config,
        &run.retrieval,
        &acted.plan,
        &tool_results,
        run.options.steering.as_deref(),
    )
    .await
    .at(Stage::Writing)?;
    run.time(Step::Gather, gathering);
    run.context_used.writer = prompt.sections;
    let prose = stream_prose(run, &prompt.request, Role::Writer, Step::Writing)
        .await
        .at(Stage::Writing)?;
    run.writer_request = Some(prompt.request);
    run.partial.prose = Some(prose.clone());
    Ok(prose)
}

/// Streams one prose answer from the model of `role` (the writer or the reviser).
pub(super) async fn stream_prose(
    run: &mut TickRun<'_>,
    request: &ChatRequest,
    role: Role,
    timing: Step,
) -> Result<String, StepError> {
    let started = Instant::now();
    let observer = run.observer;
    let mut streamed = String::new();
    let answer = novel_llm::stream_completion(&**run.models.for_role(role), request, |delta| {
        streamed.push_str(delta);
        observer.on_event(TickEvent::ProseDelta {
            text: delta.to_string(),
        })
    })
    .await;
    let completion = match answer {
        Ok(completion) => completion,
        Err(e) => {
            // The writer saw this much on screen: it goes into the error file as the draft, so
            // the front ends can offer it (copy, keep) after the failure and after a restart. A
            // revision cut short leaves the whole first draft there instead.
            let partial = clean_prose(&streamed);
            if run.partial.prose.is_none() && !partial.is_empty() {
                run.partial.prose = Some(partial);
            }
            return Err(e.into());
        }
    };
    run.time(timing, started);
    run.record_usage(role, &completion);
    Ok(clean_prose(&completion.text))
}

/// Strips what models wrap prose in (code fences, a leading heading line) and every control
/// character a terminal or file viewer would act on.
pub(super) fn clean_prose(text: &str) -> String {
    let text = strip_controls(text);
    let mut t = text.trim();
    if let Some(rest) = t.strip_prefix("```") {
        t = rest.split_once('\n').map_or("", |(_, body)| body);
        t = t.trim_end().strip_suffix("```").unwrap_or(t);
    }
    let t = t.trim();
    let t = match t.split_once('\n') {
        Some((first, rest)) if first.trim_start().starts_with('#') => rest.trim(),
        _ => t,
    };
    t.to_string()
}

/// Findings about the prose's existence and size that must block a commit, and the prose to
/// carry on with: a runaway answer is cut to a scene's length before anyone reads it.
pub(super) fn bound_prose(prose: String, g: &GenerationSettings) -> (String, Vec<Finding>) {
    let words = count_words(&prose);
    if words == 0 {
        let finding = Finding::new(
            Check::Length,
            Severity::Violation,
            format!(
                "The answer held no prose at all. Write the scene: {}–{} words of story.",
                g.target_words_min, g.target_words_max
            ),
            None,
        );
        return (prose, vec![finding]);
    }
    if words.saturating_mul(SCRAP_DIVISOR) < g.target_words_min {
        let finding = Finding::new(
            Check::Length,
            Severity::Violation,
            format!(
                "The answer is only {words} words, a scrap rather than a scene. Write the scene: \
                 {}–{} words of story.",
                g.target_words_min, g.target_words_max
            ),
            None,
        );
        return (prose, vec![finding]);
    }
    let runaway = g.target_words_max.saturating_mul(RUNAWAY_FACTOR);
    if words > runaway {
        let keep = g.target_words_max.saturating_add(g.target_words_max / 4) as usize;
        let cut = truncate_words(&prose, keep);
        let finding = Finding::new(
            Check::Length,
            Severity::Violation,
            format!(
                "The answer ran to {words} words, far past the {} allowed; it was cut to its first {} words. Bring the scene to a close within {}–{} words.",
                g.target_words_max,
                count_words(&cut),
                g.target_words_min,
                g.target_words_max
            ),
            None,
        );
        return (cut, vec![finding]);
    }
    (prose, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_cleaned_of_fences_headings_and_controls() {
        assert_eq!(
            clean_prose("```markdown\n# Title\nShe ran.\n```"),
            "She ran."
        );
        assert_eq!(
            clean_prose("She ran.\u{1b}[2J Home.\u{7}"),
            "She ran. Home."
        );
    }

    #[test]
    fn empty_scrap_and_runaway_prose_are_violations() {
        let g = GenerationSettings::default();
        let (_, found) = bound_prose("  \n ".into(), &g);
        assert_eq!(found[0].severity, Severity::Violation);
        let long = "word ".repeat((g.target_words_max * 4) as usize);
        let (cut, found) = bound_prose(long, &g);
        assert!(count_words(&cut) <= g.target_words_max + g.target_words_max / 4);
        assert_eq!(found.len(), 1);
        let least = "word ".repeat((g.target_words_min / SCRAP_DIVISOR) as usize);
        let (same, found) = bound_prose(least.clone(), &g);
        assert_eq!((same, found.len()), (least, 0), "short, but a scene");
        let (_, found) = bound_prose("A scrap.".into(), &g);
        assert_eq!(found[0].severity, Severity::Violation);
        assert!(found[0].message.contains("a scrap rather than a scene"));
    }
}
