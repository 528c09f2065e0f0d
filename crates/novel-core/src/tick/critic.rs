//! The critic step (only when the novel asks for a second opinion): one structured call with
//! the scene and the checks' findings; its verdicts and the breaks it found are applied before
//! the tick decides whether to revise. A critic that fails or answers nonsense costs its call
//! and a note, never the scene.

use std::time::Instant;

use rusqlite::Transaction;
use serde_json::Value;

use super::planning::Acted;
use super::state::TickRun;
use crate::config::Role;
use crate::context::{self, Focus, Rollups};
use crate::evaluate::Finding;
use crate::evaluate::critic::{Critique, apply_critique, findings_brief};
use crate::model::Step;
use crate::prompts;
use crate::schema::{SchemaValidator, schema_of};

/// The findings after the critic's review (unchanged when the critic is off or fails).
pub(super) async fn second_opinion(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    prose: &str,
    findings: Vec<Finding>,
) -> Vec<Finding> {
    if !run.config.generation.critic {
        return findings;
    }
    let started = Instant::now();
    let request = match request(run, &acted.tx, acted, prose, &findings) {
        Ok(r) => r,
        Err(e) => {
            run.note(format!("the critic was skipped: {e}"));
            return findings;
        }
    };
    let validator = SchemaValidator::for_type::<Critique>();
    let validate = move |v: &Value| -> Result<(), Vec<String>> {
        let violations = validator.violations(v);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations.iter().map(ToString::to_string).collect())
        }
    };
    let answer = novel_llm::complete_structured(&*run.models.critic, &request, &validate).await;
    run.time(Step::Critic, started);
    match answer {
        Ok(s) => {
            for c in &s.completions {
                run.record_usage(Role::Critic, c);
            }
            let Ok(critique) = serde_json::from_value::<Critique>(s.value) else {
                run.note("the critic's answer could not be read; its opinion was left out");
                return findings;
            };
            let (findings, notes) = apply_critique(prose, findings, &critique);
            for note in notes {
                run.note(note);
            }
            run.emit(super::events::TickEvent::Findings {
                findings: findings.clone(),
            });
            findings
        }
        Err(novel_llm::LlmError::StructuredOutput { completions, .. }) => {
            for c in &completions {
                run.record_usage(Role::Critic, c);
            }
            run.note("the critic's answer could not be used; its opinion was left out");
            findings
        }
        Err(e) => {
            run.note(format!(
                "the critic could not be asked ({e}); its opinion was left out"
            ));
            findings
        }
    }
}

fn request(
    run: &TickRun<'_>,
    tx: &Transaction<'_>,
    acted: &Acted<'_>,
    prose: &str,
    findings: &[Finding],
) -> Result<novel_llm::ChatRequest, String> {
    let ctx = context::gather_with(
        tx,
        &run.config,
        &run.config.generation.context,
        &Focus::of_plan(&acted.plan),
        &Rollups,
    )
    .map_err(|e| e.to_string())?;
    let request = prompts::critic_request(&ctx, prose, &findings_brief(findings))
        .map_err(|e| e.to_string())?;
    Ok(request
        .with_json_schema("critique", critique_schema())
        .with_max_tokens(1200))
}

/// The critique's schema, flattened for grammar converters (see `novel_llm::flatten_schema`).
pub(super) fn critique_schema() -> serde_json::Value {
    novel_llm::flatten_schema(&schema_of::<Critique>())
}
