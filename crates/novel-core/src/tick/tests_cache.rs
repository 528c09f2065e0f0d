//! The prompts of consecutive ticks share long prefixes, so a server's prompt cache (llama.cpp's
//! slots, OpenAI's and Anthropic's prompt caching) reads them almost for free: a scripted run
//! of a furnished novel (foundation, author's note, outline, a cast) and, per role, the tokens
//! two consecutive ticks' prompts have in common from their first character.

use std::cell::RefCell;

use novel_llm::{ChatRequest, ScriptedModel, count_tokens};
use serde_json::json;

use super::tests::{PROSE, clock, tick};
use crate::bible::{self, NewRecord};
use crate::config::{Foundation, GenerationSettings};
use crate::memory::{NewCharacter, NewLocation, NewLore};
use crate::novel::{Novel, NovelSeed};

/// A novel some way into its writing: what a writer has set up before scene 1 of a real book.
fn furnished_novel() -> (tempfile::TempDir, Novel) {
    let tmp = tempfile::tempdir().unwrap();
    let seed = NovelSeed {
        foundation: Foundation {
            title: "Salt and Iron".into(),
            author: String::new(),
            genre: "fantasy noir".into(),
            premise: "A smuggler in a drowned city hunts the men who framed her brother for the \
                      harbor-master's murder, while the tide court counts down to his hanging."
                .into(),
            setting: "Rainmarket, a city of canals and tide bells, where the old quarters flood \
                      at every spring tide and the watch sells passes to the dry streets."
                .into(),
            tone: "tense, rain-soaked, with dry humour".into(),
            style: "lean, sensory, short paragraphs".into(),
            pov: Default::default(),
            tense: Default::default(),
            language: "English".into(),
            themes: vec![
                "loyalty and its price".into(),
                "what the water keeps".into(),
            ],
            author_note: String::new(),
        },
        generation: GenerationSettings::default(),
        protagonist: NewCharacter {
            name: "Tamsin Vale".into(),
            role: "smuggler".into(),
            description: "Wiry, salt-cracked hands, a coat two sizes too big.".into(),
            personality: vec!["quick-witted".into(), "defensive".into()],
            goals: vec!["clear her brother's name".into()],
            fears: vec!["capture".into(), "deep water".into()],
            inventory: vec!["rusted dagger".into()],
            want: "her brother free".into(),
            need: "to trust someone again".into(),
            ..Default::default()
        },
        location: NewLocation {
            name: "Rainmarket Docks".into(),
            description: "A maze of wet planks and dim lamps.".into(),
            ..Default::default()
        },
        goal: "Clear her brother's name before the tide court sits".into(),
        lore: Vec::new(),
    };
    let mut novel = Novel::create(&tmp.path().join("n"), seed, &clock()).unwrap();
    let c = clock();
    bible::set_author_note(
        &mut novel,
        "Keep the city's corruption in small, concrete transactions: bribes, passes, favours. \
         Tamsin never cries in front of anyone. Violence is quick, ugly and has consequences \
         that last. Dialogue is clipped; nobody explains what both speakers already know.",
        &c,
    )
    .unwrap();
    for beat in [
        "Tamsin finds the forged tide ledger that put her brother's name on the warrant.",
        "Bram's loyalty is tested when the watch offers him a dry-street pass.",
        "The harbor-master's widow admits she paid for the murder.",
        "Tamsin trades the ledger for her brother's life at the flooded chapel.",
    ] {
        bible::add_beat(&mut novel, beat, None, &c).unwrap();
    }
    for (name, role, description) in [
        (
            "Bram Holt",
            "dockhand",
            "Broad as a mooring post, pale eyes, a lisp he hides by saying little.",
        ),
        (
            "Captain Orrin Sallow",
            "captain of the harbor watch",
            "Silver buttons, a clerk's soft hands, never raises his voice.",
        ),
        (
            "Widow Aster Marle",
            "the harbor-master's widow",
            "Black lace, a cough she blames on the damp, rings on every finger.",
        ),
        (
            "Jory Vale",
            "Tamsin's younger brother, awaiting the tide court",
            "Nineteen, sunburnt, laughs when he is frightened.",
        ),
    ] {
        let record = NewRecord::Character(NewCharacter {
            name: name.into(),
            role: role.into(),
            description: description.into(),
            ..Default::default()
        });
        bible::add_record(&mut novel, record, &c).unwrap();
    }
    for (name, description) in [
        (
            "The Flooded Chapel",
            "A drowned nave where smugglers meet at low tide.",
        ),
        (
            "Tide Court",
            "Marble steps streaked green, the thirteen bells above.",
        ),
    ] {
        let record = NewRecord::Location(NewLocation {
            name: name.into(),
            description: description.into(),
            ..Default::default()
        });
        bible::add_record(&mut novel, record, &c).unwrap();
    }
    let lore = NewRecord::Lore(NewLore {
        fact: "The tide bells ring thirteen times when the tide court sits; no boat may leave \
               until they stop."
            .into(),
        category: "law".into(),
        importance: crate::model::Importance::High,
        keywords: vec!["tide bell".into(), "tide court".into()],
        aliases: Vec::new(),
        always_on: false,
    });
    bible::add_record(&mut novel, lore, &c).unwrap();
    (tmp, novel)
}

fn plan(tick: u32) -> serde_json::Value {
    let intentions = [
        "Tamsin bribes her way onto the docks after curfew and finds Bram waiting with news.",
        "Tamsin searches the harbor office for the forged ledger while Bram keeps watch.",
        "Tamsin corners the widow's clerk in the flooded chapel and makes him talk.",
    ];
    json!({
        "rationale": format!("Scene {tick} raises the stakes."),
        "scene_intention": intentions[(tick as usize - 1) % intentions.len()],
        "pov_character": "C0", "target_location": "L0",
        "actions": [{"tool": "memory.search", "args": {"query": "forged ledger"}, "reason": "what she knows"}],
        "expected_outcomes": [format!("development {tick}")]
    })
}

fn extraction(tick: u32) -> serde_json::Value {
    json!({
        "title": format!("Low Tide {tick}"),
        "summary": [format!("Tamsin learns something new in scene {tick}."), "Bram keeps watch.", "The bells ring."],
        "tension": 4 + tick,
        "character_updates": [{"id": "C0", "changes": {"emotional_state": format!("wary {tick}")}}],
        "loops_opened": [{"description": format!("Who paid the watch in scene {tick}?"), "category": "mystery", "importance": "medium"}]
    })
}

/// The text a server reads for `req`, in order.
fn flattened(req: &ChatRequest) -> String {
    let mut text = req.system.clone().unwrap_or_default();
    for m in &req.messages {
        text.push('\n');
        text.push_str(&m.content);
    }
    text
}

/// Tokens at the start of `a` and `b` that are the same.
fn shared_prefix_tokens(a: &ChatRequest, b: &ChatRequest) -> u32 {
    let (a, b) = (flattened(a), flattened(b));
    let end = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    count_tokens(&a[..end])
}

#[tokio::test]
async fn consecutive_ticks_share_long_prompt_prefixes_per_role() {
    let (_tmp, mut novel) = furnished_novel();
    let mut model = ScriptedModel::new();
    for tick in 1..=3 {
        model = model
            .reply_json(&plan(tick))
            .reply(PROSE)
            .reply_json(&extraction(tick));
    }
    let events = RefCell::new(Vec::new());
    for _ in 1..=3 {
        let done = tick(&mut novel, &model, &events).await.unwrap();
        assert_eq!(done.usage.calls(), 3, "a clean tick: plan, write, extract");
    }
    let requests = model.requests();
    assert_eq!(requests.len(), 9);
    let role = |tick: usize, call: usize| &requests[(tick - 1) * 3 + call];
    let (planner, writer, extractor) = (0, 1, 2);
    // The extractor continues the writer's conversation: the writer's prompt, then the scene.
    let extract = role(2, extractor);
    assert_eq!(extract.system, role(2, writer).system);
    assert_eq!(extract.messages[0], role(2, writer).messages[0]);
    assert_eq!(extract.messages[1].content.trim(), PROSE.trim());
    assert!(extract.messages[2].content.contains("loops_opened"));
    for (name, call, floor) in [
        ("planner", planner, 1200),
        ("writer", writer, 700),
        ("extractor", extractor, 700),
    ] {
        for tick in 1..=2 {
            let shared = shared_prefix_tokens(role(tick, call), role(tick + 1, call));
            if std::env::var_os("SHOW_PREFIX").is_some() {
                eprintln!(
                    "=== {name} {tick}: {shared}\n{}\n=== next\n{}",
                    flattened(role(tick, call)),
                    flattened(role(tick + 1, call))
                );
            }
            assert!(
                shared >= floor,
                "{name}: ticks {tick} and {} share {shared} tokens of prefix, under {floor}",
                tick + 1
            );
        }
    }
}
