//! Tool tests: each tool through the registry, argument errors naming tool and field, and the
//! guarantee that a failing call leaves the database exactly as it was.

use rusqlite::Transaction;
use serde_json::{Value, json};

use super::*;
use crate::memory::{self, NewCharacter, NewLocation};
use crate::store::{self, Store};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("novel.db"), true).unwrap();
    (dir, store)
}

fn seed(tx: &Transaction<'_>) {
    let l = memory::create_location(
        tx,
        NewLocation {
            name: "Rainmarket Docks".into(),
            ..Default::default()
        },
        0,
        "seed",
    )
    .unwrap();
    memory::create_character(
        tx,
        NewCharacter {
            name: "Tamsin Vale".into(),
            role: "smuggler".into(),
            location: Some(l.id),
            ..Default::default()
        },
        0,
        "seed",
    )
    .unwrap();
}

fn fingerprint(tx: &Transaction<'_>) -> String {
    store::dump_story(tx).unwrap()
}

const CTX: ToolContext<'static> = ToolContext {
    tick: 1,
    retrieval: None,
};

#[test]
fn every_tool_has_a_schema_and_a_description() {
    let registry = ToolRegistry::standard();
    assert_eq!(
        registry.names(),
        vec![
            "character.generate",
            "character.update",
            "location.generate",
            "location.update",
            "loop.update",
            "lore.add",
            "memory.search",
            "relationship.create",
            "relationship.query",
            "relationship.update"
        ]
    );
    for tool in registry.tools() {
        assert_eq!(tool.args_schema()["type"], "object", "{}", tool.name());
        assert!(!tool.description().is_empty());
    }
}

#[test]
fn tools_create_update_relate_and_find() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    seed(&tx);
    let r = ToolRegistry::standard();
    let bram = r
        .call(
            &tx,
            &CTX,
            "character.generate",
            &json!({"name": "Bram", "role": "dockhand", "location": "L0"}),
        )
        .unwrap();
    assert_eq!(bram["id"], "C1");
    let gate = r
        .call(
            &tx,
            &CTX,
            "location.generate",
            &json!({"name": "Salt Gate", "connections": ["L0"], "tension_level": 4}),
        )
        .unwrap();
    assert_eq!(gate["id"], "L1");
    r.call(&tx, &CTX, "relationship.create", &json!({"character_a": "C0", "character_b": "C1", "kind": "ally", "perspective_a": "useful"})).unwrap();
    let upd = r
        .call(&tx, &CTX, "relationship.update", &json!({"character_a": "C1", "character_b": "C0", "status": "strained", "perspective_a": "she lied", "event": "Tamsin lied about the cargo"}))
        .unwrap();
    assert!(!upd["applied"].as_array().unwrap().is_empty());
    let rel = store::find_relationship(&tx, "C0", "C1").unwrap().unwrap();
    assert_eq!(rel.status, "strained");
    // C1's view was given as perspective_a of (C1, C0): stored on C1's side, which is b.
    assert_eq!(rel.perspective_b, "she lied");
    assert_eq!(rel.perspective_a, "useful");
    assert!(
        store::history_of(&tx, &rel.id)
            .unwrap()
            .iter()
            .any(|h| h.field == "event")
    );
    let q = r
        .call(
            &tx,
            &CTX,
            "relationship.query",
            &json!({"character_id": "C0", "status_filter": "strain"}),
        )
        .unwrap();
    assert_eq!(q["relationships"][0]["other_name"], "Bram");
    r.call(
        &tx,
        &CTX,
        "lore.add",
        &json!({"fact": "The tide bells ring thrice before a storm.", "keywords": ["tide bells"]}),
    )
    .unwrap();
    r.call(
        &tx,
        &CTX,
        "character.update",
        &json!({"id": "C0", "append": {"inventory": ["brass key"]}}),
    )
    .unwrap();
    r.call(
        &tx,
        &CTX,
        "location.update",
        &json!({"id": "L0", "changes": {"threats": ["harbor watch"]}}),
    )
    .unwrap();

    let hits = r
        .call(&tx, &CTX, "memory.search", &json!({"query": "bells storm"}))
        .unwrap();
    assert_eq!(hits["hits"][0]["entity_id"], "W0");
    let hits = r
        .call(
            &tx,
            &CTX,
            "memory.search",
            &json!({"query": "brass key", "entity_types": ["character"]}),
        )
        .unwrap();
    assert_eq!(hits["hits"][0]["entity_id"], "C0");
    let hits = r
        .call(
            &tx,
            &CTX,
            "memory.search",
            &json!({"query": "harbor watch", "entity_types": ["lore"]}),
        )
        .unwrap();
    assert!(hits["hits"].as_array().unwrap().is_empty());
}

#[test]
fn unknown_tools_and_bad_arguments_name_the_tool_and_field() {
    let r = ToolRegistry::standard();
    let err = r
        .check("character.delete", &json!({}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("character.delete") && err.contains("character.update"),
        "{err}"
    );
    let err = r
        .check("memory.search", &json!({"query": 3}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("memory.search") && err.contains("`query`"),
        "{err}"
    );
    let err = r
        .check("memory.search", &json!({"query": "x", "limit": 99}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("`limit`"), "{err}");
    let err = r
        .check("character.generate", &json!({"name": "X", "hair": "red"}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("character.generate") && err.contains("hair"),
        "{err}"
    );
    let err = r
        .check("relationship.create", &json!({"character_a": "C0"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("character_b"), "{err}");
}

#[test]
fn a_failing_tool_call_changes_nothing_in_the_database() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    seed(&tx);
    let r = ToolRegistry::standard();
    let before = fingerprint(&tx);
    let failing: [(&str, Value); 5] = [
        ("character.generate", json!({"name": "Tamsin Vale"})),
        (
            "character.update",
            json!({"id": "C0", "changes": {"emotional_state": "calm", "last_location": "L42"}}),
        ),
        (
            "location.generate",
            json!({"name": "Gate", "connections": ["L0", "L7"]}),
        ),
        (
            "relationship.create",
            json!({"character_a": "C0", "character_b": "C9", "kind": "ally"}),
        ),
        (
            "relationship.update",
            json!({"character_a": "C0", "character_b": "C0", "status": "x"}),
        ),
    ];
    for (tool, args) in failing {
        assert!(
            r.call(&tx, &CTX, tool, &args).is_err(),
            "{tool} should fail"
        );
        assert_eq!(fingerprint(&tx), before, "{tool} left changes behind");
    }
}

/// A tool that writes, then fails: only the savepoint can undo its write.
struct WritesThenFails;

impl TypedTool for WritesThenFails {
    const NAME: &'static str = "test.writes_then_fails";
    const DESCRIPTION: &'static str = "test";
    type Args = serde_json::Map<String, Value>;
    type Output = ();

    fn run(
        &self,
        tx: &Transaction<'_>,
        ctx: &ToolContext,
        _args: Self::Args,
    ) -> Result<(), ToolError> {
        memory::create_character(
            tx,
            NewCharacter {
                name: "Ghost".into(),
                ..Default::default()
            },
            ctx.tick,
            Self::NAME,
        )
        .map_err(ToolError::memory(Self::NAME))?;
        Err(ToolError::memory(Self::NAME)(memory::MemoryError::Invalid(
            "failed after writing".into(),
        )))
    }
}

#[test]
fn a_tool_that_fails_after_writing_is_rolled_back() {
    let (_d, mut s) = store();
    let tx = s.transaction().unwrap();
    seed(&tx);
    let mut r = ToolRegistry::standard();
    r.register(WritesThenFails);
    let before = fingerprint(&tx);
    let err = r
        .call(&tx, &CTX, WritesThenFails::NAME, &json!({}))
        .unwrap_err();
    assert!(err.to_string().contains("failed after writing"));
    assert_eq!(fingerprint(&tx), before);
    assert!(
        store::find_character_by_name(&tx, "Ghost")
            .unwrap()
            .is_none()
    );
}

/// Plans written in the argument names other planners use: `brief` instead of a name,
/// `traits`, `atmosphere` and `features`, `relationship_type`, a free-text `tension` change.
#[test]
fn plans_in_other_planners_words_validate_and_run() {
    let (_dir, mut store) = store();
    let tx = store.transaction().unwrap();
    seed(&tx);
    let r = ToolRegistry::standard();
    let ctx = ToolContext::at(1);
    let plans = [
        json!({"rationale": "Tamsin needs to escape the harbor but needs help.",
        "scene_intention": "Tamsin persuades a dockhand to help her hide.",
        "actions": [
            {"tool": "memory.search", "args": {"query": "dockworkers"}},
            {"tool": "character.generate", "args": {"brief": "brutish but loyal dockhand ally"}},
            {"tool": "location.update", "args": {"id": "L0", "changes": {"tension": "guards patrolling"}}}
        ]}),
        json!({"rationale": "r", "scene_intention": "i", "pov_character": "C0", "target_location": "L0",
        "actions": [
            {"tool": "memory.search", "args": {"query": "mentor relationship history", "entity_types": ["character"], "limit": 3}},
            {"tool": "relationship.query", "args": {"character_id": "C0", "status_filter": "strained"}}
        ]}),
        json!({"rationale": "r", "scene_intention": "i", "actions": [
            {"tool": "character.generate", "args": {"name": "Marcus", "role": "mentor", "traits": ["patient"], "goals": ["protect the archive"]}},
            {"tool": "location.generate", "args": {"name": "The Archive", "description": "stacks", "atmosphere": "dust and lamp oil", "features": ["iron stairs"]}},
            {"tool": "relationship.create", "args": {"character_a": "C0", "character_b": "$a0.id", "relationship_type": "mentor", "perspective_a": "trusts him", "perspective_b": "worries"}}
        ]}),
    ];
    for plan in &plans {
        let valid =
            crate::plan::validate_plan(plan, &r, 3).unwrap_or_else(|e| panic!("{e}\n{plan}"));
        let mut outputs = std::collections::BTreeMap::new();
        for action in valid.exec_actions() {
            let inputs: crate::executor::ActionInputs = action
                .dependencies
                .iter()
                .map(|d| (d.clone(), outputs.get(d).cloned()))
                .collect();
            let args = crate::executor::resolve_references(&action.args, &inputs).unwrap();
            let out = r
                .call(&tx, &ctx, &action.tool, &args)
                .unwrap_or_else(|e| panic!("{}: {e}", action.tool));
            outputs.insert(action.id.clone(), out);
        }
    }
    let dockhand = store::list_characters(&tx)
        .unwrap()
        .into_iter()
        .find(|c| c.description.contains("dockhand"))
        .unwrap();
    assert_eq!(dockhand.name, "the brutish but loyal dockhand");
    let docks = store::get_location(&tx, "L0").unwrap().unwrap();
    assert_eq!(docks.facts["tension"], "guards patrolling");
    let marcus = store::list_characters(&tx)
        .unwrap()
        .into_iter()
        .find(|c| c.name == "Marcus")
        .unwrap();
    assert_eq!(marcus.personality, vec!["patient".to_string()]);
    let archive = store::list_locations(&tx)
        .unwrap()
        .into_iter()
        .find(|l| l.name == "The Archive")
        .unwrap();
    assert_eq!(archive.sensory, vec!["dust and lamp oil", "iron stairs"]);
    let rel = store::find_relationship(&tx, "C0", &marcus.id)
        .unwrap()
        .unwrap();
    assert_eq!(rel.kind, "mentor");
}

#[test]
fn loop_update_abandons_a_thread_with_its_reason_and_refuses_a_bad_id() {
    let (_d, mut store) = store();
    let tx = store.transaction().unwrap();
    let thread = crate::memory::open_loop(
        &tx,
        crate::memory::NewLoop {
            description: "The stolen ledger page".into(),
            category: "mystery".into(),
            importance: crate::model::Importance::High,
        },
        1,
        "t",
    )
    .unwrap();
    let registry = ToolRegistry::standard();
    let out = registry
        .call(
            &tx,
            &CTX,
            "loop.update",
            &json!({"id": thread.id, "action": "abandon", "note": "the story moved past it"}),
        )
        .unwrap();
    assert_eq!(out["status"], "abandoned");
    assert_eq!(
        out["notes"][0]["note"], "Abandoned: the story moved past it",
        "the aliases id and note are taken"
    );
    let err = registry
        .check(
            "loop.update",
            &json!({"loop_id": "the ledger thread", "action": "park", "reason": "later"}),
        )
        .unwrap_err();
    assert!(err.to_string().contains("not a loop id"), "{err}");
}
