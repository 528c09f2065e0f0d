//! The extract step: one structured call reads the committed-to-be scene and returns its title,
//! summary, tension and every memory change it implies. The answer is salvaged rather than
//! refused (see `salvage`), and if the model gives nothing usable at all the scene is still
//! committed — with a title and summary from its own first sentences and no memory changes,
//! noted on the timeline — because a written scene must never be lost to its bookkeeping.
//! A provider that is down is another matter: that fails the tick like any other call.

use std::time::Instant;

use novel_llm::LlmError;
use serde_json::Value;

use super::checking::Checked;
use super::error::{AtStage, Failure};
use super::events::Stage;
use super::extraction::Extraction;
use super::planning::Acted;
use super::requests;
use super::salvage::{Fallbacks, salvage};
use super::state::TickRun;
use crate::config::Role;
use crate::model::Step;
use crate::schema::SchemaValidator;
use crate::store::{self, StoreError};

pub(super) async fn extract(
    run: &mut TickRun<'_>,
    acted: &Acted<'_>,
    checked: &Checked,
) -> Result<Extraction, Failure> {
    run.stage(Stage::Extracting);
    let previous = store::recent_scenes(&acted.tx, 1)
        .at(Stage::Extracting)?
        .first()
        .and_then(|s| s.tension);
    let fallbacks = Fallbacks::from_prose(&checked.prose, previous);
    let base = run.scene_base(acted).at(Stage::Extracting)?;
    let standalone =
        requests::extractor(base.clone(), &checked.prose, &acted.plan).at(Stage::Extracting)?;
    // Continuing the writer's conversation only pays where the same model keeps its cache.
    let same_model = run.models.writer.describe() == run.models.extractor.describe();
    let follow_up = match &run.writer_request {
        Some(writer) if same_model => Some(
            requests::extractor_follow_up(writer, base, &checked.prose, &acted.plan)
                .at(Stage::Extracting)?,
        ),
        _ => None,
    };
    let schema = SchemaValidator::for_type::<Extraction>();
    let check_fallbacks = fallbacks.clone();
    let validate = move |v: &Value| -> Result<(), Vec<String>> {
        let Some(salvaged) = salvage(v, &check_fallbacks) else {
            return Err(vec!["the answer must be one JSON object".into()]);
        };
        let violations = schema.violations(&salvaged.value);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations.iter().map(ToString::to_string).collect())
        }
    };
    let started = Instant::now();
    let model = &*run.models.extractor;
    let answer = match follow_up {
        Some(request) => match novel_llm::complete_structured(model, &request, &validate).await {
            // The writer's prompt, the scene and this turn may not fit a small context window
            // (refused here or by the server): the short standalone request still does.
            Err(e @ (LlmError::Config(_) | LlmError::BadRequest { .. })) => {
                run.note(format!(
                    "the extraction was asked on its own, not after the writer's prompt: {e}"
                ));
                novel_llm::complete_structured(model, &standalone, &validate).await
            }
            other => other,
        },
        None => novel_llm::complete_structured(model, &standalone, &validate).await,
    };
    run.time(Step::Extracting, started);
    let value = match answer {
        Ok(s) => {
            for c in &s.completions {
                run.record_usage(Role::Extractor, c);
            }
            if !s.repaired_locally.is_empty() {
                run.note(format!(
                    "the extraction was repaired locally: {}",
                    s.repaired_locally.join("; ")
                ));
            }
            s.value
        }
        Err(LlmError::StructuredOutput {
            errors,
            completions,
        }) => {
            for c in &completions {
                run.record_usage(Role::Extractor, c);
            }
            run.note(format!(
                "memory was not updated from this scene: the extractor's answer could not be used ({})",
                errors.join("; ")
            ));
            Value::Object(Default::default())
        }
        Err(e) => return Err(e).at(Stage::Extracting),
    };
    Ok(into_extraction(run, &value, &fallbacks))
}

/// The extraction of a scene kept without reading its memory: its own first sentences as
/// title and summary, the tension of the scene before, no memory changes.
pub(super) fn unread(acted: &Acted<'_>, checked: &Checked) -> Result<Extraction, StoreError> {
    let previous = store::recent_scenes(&acted.tx, 1)?
        .first()
        .and_then(|s| s.tension);
    Ok(Extraction::fallback(&Fallbacks::from_prose(
        &checked.prose,
        previous,
    )))
}

/// The salvaged extraction; an answer that cannot even be salvaged becomes the fallbacks alone.
fn into_extraction(run: &mut TickRun<'_>, value: &Value, fallbacks: &Fallbacks) -> Extraction {
    let salvaged = salvage(value, fallbacks).and_then(|s| {
        serde_json::from_value::<Extraction>(s.value)
            .ok()
            .map(|e| (e, s.notes))
    });
    match salvaged {
        Some((extraction, notes)) => {
            for note in notes {
                run.note(format!("extraction: {note}"));
            }
            extraction.normalized()
        }
        None => Extraction::fallback(fallbacks),
    }
}
