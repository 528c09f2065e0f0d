//! Token accounting of a tick whose plans were rejected: every call the planner made — the
//! rejected plan, its failed repair and the replan — is in the tick's usage, with the exact
//! token counts the server reported.

use crate::common;

use common::story::*;
use common::*;
use novel_test_server::{Reply, Rule, Script};
use serde_json::Value;

#[test]
fn a_plan_rejected_even_after_its_repair_still_counts_its_tokens() {
    let good: Value =
        serde_json::from_str::<Vec<Value>>(&story_fixture("plans.json")).unwrap()[0].clone();
    let mut bad = good.clone();
    bad["actions"][0]["tool"] = Value::from("weather.forecast");
    let plans = vec![
        Reply::text(bad.to_string()).usage(101, 11),
        Reply::text(bad.to_string()).usage(202, 22),
        Reply::text(good.to_string()).usage(303, 33),
    ];
    let script = Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(plans))
        .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt"))));
    let s = setup(script);

    let out: Value = serde_json::from_str(&stdout_of(s.novel().args(["--json", "tick"]))).unwrap();
    let tick = &out["committed"][0];
    assert_eq!(
        s.server.request_count(),
        5,
        "three planner calls, writer, extractor"
    );
    assert_eq!(tick["calls"], 5, "{tick}");

    let planner = &tick["usage"]["roles"]["planner"];
    assert_eq!(planner["calls"], 3, "{planner}");
    assert_eq!(planner["prompt_tokens"], 101 + 202 + 303, "{planner}");
    assert_eq!(planner["completion_tokens"], 11 + 22 + 33, "{planner}");
    assert_eq!(planner["estimated"], false, "{planner}");

    // The same numbers are what the tick record keeps.
    let stored: String = s
        .db()
        .query_row("SELECT usage FROM ticks WHERE tick = 1", [], |r| r.get(0))
        .unwrap();
    let stored: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(stored["roles"]["planner"], *planner);
}
