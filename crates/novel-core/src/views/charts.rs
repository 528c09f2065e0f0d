//! The story's shape over time, for charts: the tension of every scene, and each character's
//! emotional state by tick as the history recorded it (at creation, then every change).

use rusqlite::Connection;
use serde::Serialize;
use serde_json::Value;

use crate::store::{self, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TensionPoint {
    pub tick: u32,
    pub title: String,
    /// 1 (calm) to 10 (climax); `None` when the scene was never rated.
    pub tension: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EmotionPoint {
    pub tick: u32,
    /// The state from this tick on; `None` when it was cleared.
    pub state: Option<String>,
}

/// One character's emotional states, oldest first, one point per tick that changed it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EmotionTrack {
    pub id: String,
    pub name: String,
    pub points: Vec<EmotionPoint>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StoryCharts {
    pub tension: Vec<TensionPoint>,
    /// Characters with at least one recorded state, in the order they were created.
    pub emotions: Vec<EmotionTrack>,
}

pub fn story_charts(conn: &Connection) -> Result<StoryCharts, StoreError> {
    let mut scenes = store::list_scenes(conn)?;
    scenes.sort_by_key(|s| s.tick);
    let tension = scenes
        .into_iter()
        .map(|s| TensionPoint {
            tick: s.tick,
            title: s.title,
            tension: s.tension,
        })
        .collect();
    let mut emotions = Vec::new();
    for c in store::list_characters(conn)? {
        let mut points: Vec<EmotionPoint> = Vec::new();
        for h in store::history_of(conn, &c.id)? {
            // Contradictions are recorded, not applied: they never were the state.
            if h.flagged {
                continue;
            }
            let state = match h.field.as_str() {
                "emotional_state" => h.new_value.as_ref(),
                "*" => h.new_value.as_ref().and_then(|v| v.get("emotional_state")),
                _ => continue,
            };
            let state = state.and_then(Value::as_str).map(str::to_string);
            if h.field == "*" && state.is_none() {
                continue;
            }
            match points.last_mut() {
                Some(last) if last.tick == h.tick => last.state = state,
                _ => points.push(EmotionPoint {
                    tick: h.tick,
                    state,
                }),
            }
        }
        if points.is_empty()
            && let Some(state) = c.emotional_state.clone()
        {
            points.push(EmotionPoint {
                tick: c.first_tick,
                state: Some(state),
            });
        }
        if !points.is_empty() {
            emotions.push(EmotionTrack {
                id: c.id,
                name: c.name,
                points,
            });
        }
    }
    Ok(StoryCharts { tension, emotions })
}
