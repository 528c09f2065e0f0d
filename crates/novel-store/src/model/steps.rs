//! The steps of a tick, in the two grains the engine speaks of them: [`Stage`], the phases a
//! front end shows while a scene is written (and names in an error file), and [`Step`], the
//! finer units a tick record times. One vocabulary: every timed step belongs to one stage
//! ([`Step::stage`]). Both serialize as the names stored since the first records, so old tick
//! records and error files read as they always did.

use serde::{Deserialize, Serialize};

/// A phase of a tick, as its progress events and error files name it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Gathering,
    Planning,
    Tools,
    Writing,
    Checking,
    Revising,
    Extracting,
    Committing,
}

impl Stage {
    /// Every stage, in the order a tick goes through them (`Revising` only after a violation).
    pub const ALL: [Stage; 8] = [
        Stage::Gathering,
        Stage::Planning,
        Stage::Tools,
        Stage::Writing,
        Stage::Checking,
        Stage::Revising,
        Stage::Extracting,
        Stage::Committing,
    ];

    /// What the stage is called when shown to the writer, in lower case ("while planning").
    pub fn label(self) -> &'static str {
        match self {
            Stage::Gathering => "gathering context",
            Stage::Planning => "planning",
            Stage::Tools => "running tools",
            Stage::Writing => "writing",
            Stage::Checking => "checking",
            Stage::Revising => "revising",
            Stage::Extracting => "updating memory",
            Stage::Committing => "committing",
        }
    }

    /// The stage whose [`Stage::label`] is `label`, as an error file names it.
    pub fn from_label(label: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.label() == label)
    }
}

/// Error files name the stage by its label ("updating memory"), as they always have.
pub mod stage_label {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use super::Stage;

    pub fn serialize<S: Serializer>(stage: &Stage, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(stage.label())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Stage, D::Error> {
        let label = String::deserialize(d)?;
        Stage::from_label(&label)
            .ok_or_else(|| D::Error::custom(format!("unknown stage `{label}`")))
    }
}

/// A timed unit of a tick: the engine's own work (gather, validate, tools, checks, apply,
/// embed, commit, files) and the waits on a model (planning, writing, revising, critic,
/// extracting). Declared in alphabetical order so a map keyed by step keeps the key order the
/// stored string-keyed timings always had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Apply,
    Checks,
    Commit,
    Critic,
    Embed,
    Extracting,
    Files,
    Gather,
    Planning,
    Revising,
    Tools,
    /// Checking the plan; its time is inside [`Step::Planning`]'s.
    Validate,
    Writing,
}

impl Step {
    pub const ALL: [Step; 13] = [
        Step::Apply,
        Step::Checks,
        Step::Commit,
        Step::Critic,
        Step::Embed,
        Step::Extracting,
        Step::Files,
        Step::Gather,
        Step::Planning,
        Step::Revising,
        Step::Tools,
        Step::Validate,
        Step::Writing,
    ];

    /// The name the tick records store (the serde name too).
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Apply => "apply",
            Step::Checks => "checks",
            Step::Commit => "commit",
            Step::Critic => "critic",
            Step::Embed => "embed",
            Step::Extracting => "extracting",
            Step::Files => "files",
            Step::Gather => "gather",
            Step::Planning => "planning",
            Step::Revising => "revising",
            Step::Tools => "tools",
            Step::Validate => "validate",
            Step::Writing => "writing",
        }
    }

    /// The stage this step's time is spent in.
    pub fn stage(self) -> Stage {
        match self {
            Step::Gather => Stage::Gathering,
            Step::Planning | Step::Validate => Stage::Planning,
            Step::Tools => Stage::Tools,
            Step::Writing => Stage::Writing,
            Step::Checks | Step::Critic => Stage::Checking,
            Step::Revising => Stage::Revising,
            Step::Extracting => Stage::Extracting,
            Step::Apply | Step::Embed | Step::Commit | Step::Files => Stage::Committing,
        }
    }
}

/// Microseconds per step of one tick.
pub type Timings = std::collections::BTreeMap<Step, u64>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_their_stored_names_and_belong_to_a_stage() {
        for step in Step::ALL {
            assert_eq!(serde_json::to_value(step).unwrap(), step.as_str());
            assert!(Stage::ALL.contains(&step.stage()));
        }
        let mut names: Vec<_> = Step::ALL.iter().map(|s| s.as_str()).collect();
        names.sort();
        let in_order: Vec<_> = Step::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, in_order, "declared in the stored maps' key order");
    }

    #[test]
    fn an_old_stored_timings_record_with_string_keys_still_reads() {
        let stored = r#"{"apply":40,"checks":900,"commit":700,"embed":30,"extracting":2100000,
            "files":80,"gather":2000,"planning":1200000,"tools":300,"validate":500,
            "writing":3400000}"#;
        let timings: Timings = serde_json::from_str(stored).unwrap();
        assert_eq!(timings[&Step::Gather], 2000);
        assert_eq!(timings[&Step::Writing], 3_400_000);
        // Written back, the same keys in the same order.
        let again: serde_json::Value = serde_json::to_value(&timings).unwrap();
        let stored: serde_json::Value = serde_json::from_str(stored).unwrap();
        assert_eq!(again, stored);
        assert_eq!(
            serde_json::to_string(&timings).unwrap(),
            serde_json::to_string(&stored).unwrap()
        );
    }

    #[test]
    fn error_files_name_the_stage_by_its_label() {
        #[derive(Serialize, Deserialize)]
        struct File {
            #[serde(with = "stage_label")]
            stage: Stage,
        }
        for stage in Stage::ALL {
            let json = serde_json::to_value(File { stage }).unwrap();
            assert_eq!(json["stage"], stage.label());
            assert_eq!(serde_json::from_value::<File>(json).unwrap().stage, stage);
        }
        let old: File = serde_json::from_str(r#"{"stage":"updating memory"}"#).unwrap();
        assert_eq!(old.stage, Stage::Extracting);
        assert!(serde_json::from_str::<File>(r#"{"stage":"dreaming"}"#).is_err());
    }
}
