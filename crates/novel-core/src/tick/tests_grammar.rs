//! Every schema the engine sends as structured output compiles with llama.cpp's own
//! JSON-Schema-to-grammar converter (vendored in `tests/grammar`, the version
//! `scripts/llama-server.sh` builds) to a grammar with no rule that only accepts `{}`: a local
//! server constraining its model by such a grammar could never produce a valid answer.

use std::path::Path;
use std::process::Command;

use super::critic::critique_schema;
use super::requests::extraction_schema;
use crate::plan::{PlanChoices, plan_schema_for};
use crate::tools::ToolRegistry;

#[test]
fn every_structured_output_schema_compiles_with_llama_cpps_converter() {
    let dir = tempfile::tempdir().unwrap();
    let choices = PlanChoices {
        tools: ToolRegistry::standard().names(),
        characters: vec!["C0".into(), "C1".into()],
        locations: vec!["L0".into()],
        beats: Vec::new(),
    };
    for (name, schema) in [
        ("plan", plan_schema_for(3, &choices)),
        ("extraction", extraction_schema()),
        ("critique", critique_schema()),
    ] {
        let text = serde_json::to_string_pretty(&schema).unwrap();
        std::fs::write(dir.path().join(format!("{name}.json")), text).unwrap();
    }
    let checker =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/grammar/check_schemas.py");
    let out = Command::new("python3")
        .arg(&checker)
        .arg(dir.path())
        .output()
        .expect("python3 runs llama.cpp's converter (scripts/setup.sh installs it)");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{report}");
    for name in ["plan", "extraction", "critique"] {
        assert!(report.contains(&format!("ok {name} ")), "{report}");
    }
}

#[test]
fn the_extraction_schema_costs_under_a_thousand_tokens_in_a_prompt() {
    // Prompt-only and JSON-object modes paste the schema into the prompt of every call.
    let spec = novel_llm::JsonSchemaSpec {
        name: "extraction".into(),
        schema: extraction_schema(),
    };
    let tokens = novel_llm::count_tokens(&novel_llm::schema_instructions(&spec));
    assert!(tokens < 1000, "{tokens} tokens");
}
