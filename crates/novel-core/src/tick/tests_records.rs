//! Engine test of the checks that read a person's record: a scene that contradicts an
//! injury the story memory keeps active gets the finding, naming the record, and spends the
//! tick's one revision; the scene that heals it does not.

use std::cell::RefCell;

use novel_llm::ScriptedModel;
use serde_json::json;

use super::tests::{PROSE, extraction, novel, tick};
use crate::evaluate::{Check, Severity};

fn plan(intention: &str) -> serde_json::Value {
    json!({
        "rationale": "The story moves on.", "scene_intention": intention,
        "pov_character": "C0", "target_location": "L0", "actions": [],
        "expected_outcomes": ["she moves on"]
    })
}

#[tokio::test]
async fn a_scene_that_runs_on_a_recorded_broken_leg_is_revised_and_the_healing_scene_is_not() {
    let (_tmp, mut novel) = novel();
    let events = RefCell::new(Vec::new());
    let mut hurt = extraction();
    hurt["conditions"] = json!([{"character": "C0", "condition": "broken left leg",
        "kind": "injury", "change": "began", "note": "a fall from the loft"}]);
    let model = ScriptedModel::new()
        .reply_json(&plan("Tamsin hides in the loft."))
        .reply(PROSE)
        .reply_json(&hurt);
    tick(&mut novel, &model, &events).await.unwrap();

    // The next scene has her run: the check finds it, quotes it and names her record.
    let running = format!("{PROSE}\n\nTamsin ran for the ladder.");
    let mut quiet = extraction();
    quiet["loops_opened"] = json!([]);
    let model = ScriptedModel::new()
        .reply_json(&plan("Tamsin leaves the docks."))
        .reply(running)
        .reply(PROSE)
        .reply_json(&quiet);
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 4, "one revision");
    assert!(done.revised);
    let reviser = novel_llm::render_prompt(&model.requests()[2]);
    assert!(
        reviser.contains("broken left leg") && reviser.contains("Tamsin ran for the ladder"),
        "the reviser is shown the finding: {reviser}"
    );

    // The scene that heals it may have her run: the healing is on the page.
    let mut healed = quiet.clone();
    healed["conditions"] = json!([{"character": "C0", "condition": "leg",
        "change": "ended", "note": "the splint comes off"}]);
    let model = ScriptedModel::new()
        .reply_json(&plan("Tamsin walks again."))
        .reply(format!(
            "{PROSE}\n\nBy spring the leg had healed. Tamsin ran for the ladder."
        ))
        .reply_json(&healed);
    let done = tick(&mut novel, &model, &events).await.unwrap();
    assert_eq!(model.calls(), 3, "no revision");
    assert!(
        !done
            .findings
            .iter()
            .any(|f| f.check == Check::Contradiction && f.severity == Severity::Violation),
        "{:?}",
        done.findings
    );
}
