//! Per-novel context budgets from `novel.toml` reach the prompts a tick sends: a smaller
//! `[generation.context]` budget trims that section of the planner's prompt, and an unknown
//! section name is refused with a message naming it.

use crate::common;

use common::story::*;
use common::*;

const FULL_PREMISE: &str =
    "Premise: A smuggler in a drowned city hunts the men who framed her brother.";

fn append_to_novel_toml(s: &Setup, text: &str) {
    let path = s.dir.join("novel.toml");
    let toml = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{toml}\n{text}")).unwrap();
}

/// The user prompt of the first planner request the server saw.
fn first_planner_prompt(s: &Setup) -> String {
    let request = s
        .server
        .requests()
        .into_iter()
        .find(|r| r.body.to_string().contains(PLAN))
        .unwrap();
    let messages = request.body["messages"].as_array().unwrap();
    messages.iter().rev().find(|m| m["role"] == "user").unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_smaller_foundation_budget_trims_the_planner_prompt() {
    let roomy = setup(clean_script());
    roomy.novel().arg("tick").assert().success();
    let roomy_prompt = first_planner_prompt(&roomy);
    assert!(roomy_prompt.contains(FULL_PREMISE), "{roomy_prompt}");

    let tight = setup(clean_script());
    append_to_novel_toml(&tight, "[generation.context]\nfoundation = 16\n");
    tight.novel().arg("tick").assert().success();
    let tight_prompt = first_planner_prompt(&tight);
    assert!(!tight_prompt.contains(FULL_PREMISE), "{tight_prompt}");
    assert!(tight_prompt.contains("…(trimmed)"), "{tight_prompt}");
    assert!(
        tight_prompt.len() < roomy_prompt.len(),
        "the budget shrinks the prompt"
    );
}

#[test]
fn an_unknown_context_section_is_a_clear_error() {
    let s = setup(clean_script());
    append_to_novel_toml(&s, "[generation.context]\ncharacters = 100\n");
    let err = stderr_of_failure(s.novel().arg("tick"));
    assert!(
        err.contains("novel.toml") && err.contains("unknown field `characters`"),
        "{err}"
    );
    assert!(
        err.contains("`character`"),
        "the known names are listed: {err}"
    );
    assert_eq!(s.server.request_count(), 0, "nothing was sent");
}
