//! The writer's guidance beyond the foundation: the outline (beats the planner takes in order)
//! and the pressure on the story (clocks that fill toward thresholds, events bound to a tick).

use serde::{Deserialize, Serialize};

/// Whether a beat still waits for its scene.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeatStatus {
    Open,
    Done,
}

/// One beat of the outline: what an upcoming scene should do.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beat {
    /// "B3".
    pub id: String,
    /// Its place in the queue (smaller first).
    pub position: u32,
    pub text: String,
    pub status: BeatStatus,
    /// The tick whose scene fulfilled it.
    pub done_tick: Option<u32>,
}

/// A level at which a clock changes the story.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threshold {
    pub at: u32,
    /// What happens when the clock reaches it.
    pub note: String,
}

/// Rising pressure: an opposing force or a doom clock that fills toward its maximum.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressureClock {
    /// "P0".
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub value: u32,
    pub max: u32,
    /// How much it rises with every scene (0: only when the writer moves it).
    #[serde(default)]
    pub per_tick: u32,
    #[serde(default)]
    pub thresholds: Vec<Threshold>,
    pub created_tick: u32,
}

impl PressureClock {
    /// The thresholds passed when the clock moves from `before` to its current value.
    pub fn crossed_since(&self, before: u32) -> Vec<&Threshold> {
        self.thresholds
            .iter()
            .filter(|t| before < t.at && t.at <= self.value)
            .collect()
    }

    /// The next threshold still ahead.
    pub fn next_threshold(&self) -> Option<&Threshold> {
        self.thresholds
            .iter()
            .filter(|t| t.at > self.value)
            .min_by_key(|t| t.at)
    }
}

#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventStatus {
    Pending,
    Done,
}

/// Something that happens at a given tick whatever the characters do.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryEvent {
    /// "E0".
    pub id: String,
    pub tick: u32,
    pub description: String,
    pub status: EventStatus,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_crossed_and_ahead() {
        let clock = PressureClock {
            id: "P0".into(),
            name: "The Watch".into(),
            description: String::new(),
            value: 6,
            max: 10,
            per_tick: 1,
            thresholds: vec![
                Threshold {
                    at: 5,
                    note: "patrols double".into(),
                },
                Threshold {
                    at: 8,
                    note: "the harbor is sealed".into(),
                },
            ],
            created_tick: 0,
        };
        assert_eq!(clock.crossed_since(4).len(), 1);
        assert!(clock.crossed_since(5).is_empty());
        assert_eq!(clock.next_threshold().unwrap().at, 8);
    }
}
