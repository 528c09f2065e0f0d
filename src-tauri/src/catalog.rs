//! What the UI shows that Rust owns, exported as constants in the generated bindings so the
//! words live in one place: the tick's stages with their labels in order, the provider kinds
//! with their labels and defaults, a hint per failure kind, and the heading of each check.

use std::collections::BTreeMap;

use novel_core::checks::Check;
use novel_core::run::{ErrorKind, Stage};
use novel_llm::{KindInfo, ProviderKind};
use serde::Serialize;

use crate::error::capitalised;

/// A stage of a tick as the stage indicator shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StageInfo {
    pub stage: Stage,
    /// Capitalised for a heading: "Gathering context".
    pub label: String,
}

/// Every stage of a tick, in order.
pub fn tick_stages() -> Vec<StageInfo> {
    Stage::ALL
        .into_iter()
        .map(|stage| StageInfo {
            stage,
            label: capitalised(stage.label()),
        })
        .collect()
}

/// Every provider kind, in the order the provider form lists them.
pub fn provider_kinds() -> Vec<KindInfo> {
    ProviderKind::ALL
        .into_iter()
        .map(ProviderKind::info)
        .collect()
}

/// The hint of every failure kind, by the kind's name (`null` where there is nothing to add).
pub fn failure_hints() -> BTreeMap<&'static str, Option<&'static str>> {
    ErrorKind::ALL
        .into_iter()
        .map(|kind| (kind.as_str(), kind.hint()))
        .collect()
}

/// The heading of every check's findings, by the check's name (`pov_leak`: "Point of view").
pub fn check_headings() -> BTreeMap<Check, &'static str> {
    Check::ALL
        .into_iter()
        .map(|check| (check, check.heading()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_has_a_heading_in_a_writers_words() {
        let headings = check_headings();
        assert_eq!(headings.len(), Check::ALL.len());
        let json = serde_json::to_value(&headings).unwrap();
        assert_eq!(json["pov_leak"], "Point of view");
        // The revision brief (and the CLI) keep the craft term.
        assert_eq!(Check::PovLeak.label(), "POV leak");
    }

    #[test]
    fn stages_come_in_tick_order_with_heading_labels() {
        let stages = tick_stages();
        let names: Vec<String> = stages
            .iter()
            .map(|s| {
                serde_json::to_value(s.stage)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(
            names,
            [
                "gathering",
                "planning",
                "tools",
                "writing",
                "checking",
                "revising",
                "extracting",
                "committing"
            ]
        );
        assert_eq!(stages[0].label, "Gathering context");
        assert_eq!(stages[6].label, "Updating memory");
    }

    #[test]
    fn every_failure_kind_has_an_entry() {
        let hints = failure_hints();
        assert_eq!(hints.len(), ErrorKind::ALL.len());
        assert!(hints["llm.auth"].unwrap().contains("key"));
        assert_eq!(hints["cancelled"], None);
    }
}
