//! One extraction outside a tick: after the writer edits a committed scene, the extractor
//! reads the scene as it now is and says what it implies for the memory — the same prompt,
//! salvage and validation as a tick's, so a botched answer is repaired or reduced, never a
//! failure that loses the edit.

use novel_llm::{LanguageModel, LlmError};
use serde_json::Value;

use super::error::StepError;
use super::extraction::Extraction;
use super::requests;
use super::salvage::{Fallbacks, salvage};
use crate::config::{NovelConfig, Role};
use crate::model::{Scene, SceneBrief, TickUsage};
use crate::schema::SchemaValidator;
use crate::store;

/// What the extractor made of a scene, the calls it cost, and what was repaired.
#[derive(Debug, Clone)]
pub struct SceneExtraction {
    pub extraction: Extraction,
    pub usage: TickUsage,
    pub notes: Vec<String>,
}

/// Extracts `scene` (as stored) against the memory `conn` holds now.
pub async fn extract_scene(
    conn: &rusqlite::Connection,
    config: &NovelConfig,
    model: &dyn LanguageModel,
    scene: &Scene,
) -> Result<SceneExtraction, StepError> {
    let brief = SceneBrief {
        scene_intention: scene.title.clone(),
        pov_character: scene.pov_character.clone(),
        target_location: scene.location.clone(),
        expected_outcomes: scene.summary.clone(),
    };
    extract_scene_against(conn, config, model, scene, brief).await
}

/// [`extract_scene`] with the brief the scene is read against: its plan, when judging whether
/// the scene did what was planned.
pub async fn extract_scene_against(
    conn: &rusqlite::Connection,
    config: &NovelConfig,
    model: &dyn LanguageModel,
    scene: &Scene,
    brief: SceneBrief,
) -> Result<SceneExtraction, StepError> {
    let previous = store::list_scenes(conn)?
        .into_iter()
        .rfind(|s| s.tick < scene.tick)
        .and_then(|s| s.tension);
    let fallbacks = Fallbacks::from_prose(&scene.prose, previous);
    let request = requests::extractor_for(conn, config, &scene.prose, brief)?;
    let schema = SchemaValidator::for_type::<Extraction>();
    let check_fallbacks = fallbacks.clone();
    let validate = move |v: &Value| -> Result<(), Vec<String>> {
        let Some(s) = salvage(v, &check_fallbacks) else {
            return Err(vec!["the answer must be one JSON object".into()]);
        };
        let violations = schema.violations(&s.value);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations.iter().map(ToString::to_string).collect())
        }
    };
    let mut usage = TickUsage::default();
    let mut notes = Vec::new();
    let value = match novel_llm::complete_structured(model, &request, &validate).await {
        Ok(s) => {
            for c in &s.completions {
                usage.record(Role::Extractor, c, model.prices());
            }
            s.value
        }
        Err(LlmError::StructuredOutput { completions, .. }) => {
            for c in &completions {
                usage.record(Role::Extractor, c, model.prices());
            }
            notes.push("the extractor's answer could not be used; nothing is proposed".into());
            Value::Object(Default::default())
        }
        Err(e) => return Err(e.into()),
    };
    let extraction = match salvage(&value, &fallbacks) {
        Some(s) => {
            notes.extend(s.notes.into_iter().map(|n| format!("extraction: {n}")));
            serde_json::from_value::<Extraction>(s.value)
                .map(Extraction::normalized)
                .unwrap_or_else(|_| Extraction::fallback(&fallbacks))
        }
        None => Extraction::fallback(&fallbacks),
    };
    Ok(SceneExtraction {
        extraction,
        usage,
        notes,
    })
}
