//! A small, fixed novel for context and prompt tests — two characters, two connected places,
//! one relationship, two open loops, one lore fact, `n` scenes — written straight through the
//! store functions so the tests depend on nothing but the data model.

use std::collections::BTreeMap;

use crate::config::{Foundation, GenerationSettings, NovelConfig, PointOfView, Tense};
use crate::layout::DB_FILE;
use crate::model::{
    Beat, BeatStatus, Character, CharacterArc, EventStatus, Importance, LifeStatus, Location,
    LoopNote, LoopStatus, LoreFact, OpenLoop, PressureClock, Relationship, Scene, StoryEvent,
    StoryState, Threshold,
};
use crate::store::{self, Store};

pub(crate) const NOW: &str = "2025-01-01T00:00:00Z";

pub(crate) struct Fixture {
    pub(crate) store: Store,
    pub(crate) config: NovelConfig,
    _dir: tempfile::TempDir,
}

pub(crate) fn config() -> NovelConfig {
    NovelConfig {
        models: Default::default(),
        budget: Default::default(),
        novel: Foundation {
            title: "The Salt Archive".into(),
            author: String::new(),
            genre: "gaslamp mystery".into(),
            premise: "An archivist in a drowned port city learns that the tide ledgers she keeps \
                      have been rewritten to hide who is selling the city's dead."
                .into(),
            setting: "Brinehold, a port of canals and salt-stained stone, under gas lamps.".into(),
            tone: "tense, melancholic, with dry humour".into(),
            style: "close, sensory, short paragraphs".into(),
            pov: PointOfView::DeepThird,
            tense: Tense::Past,
            language: "English".into(),
            themes: vec!["complicity".into(), "what the sea keeps".into()],
            author_note: "Keep the sea's menace implied, never shown outright. No one says \"ledger\" aloud in public."
                .into(),
        },
        generation: GenerationSettings::default(),
    }
}

fn character(id: &str, name: &str) -> Character {
    Character {
        id: id.into(),
        name: name.into(),
        aliases: Vec::new(),
        role: String::new(),
        description: String::new(),
        personality: Vec::new(),
        goals: Vec::new(),
        fears: Vec::new(),
        inventory: Vec::new(),
        relationships: BTreeMap::new(),
        last_location: Some("L0".into()),
        emotional_state: None,
        status: LifeStatus::Alive,
        arc: CharacterArc::default(),
        facts: BTreeMap::new(),
        conditions: Vec::new(),
        first_tick: 0,
        last_update_tick: 0,
    }
}

fn location(id: &str, name: &str, description: &str, connections: &[&str]) -> Location {
    Location {
        id: id.into(),
        name: name.into(),
        aliases: Vec::new(),
        description: description.into(),
        sensory: Vec::new(),
        threats: Vec::new(),
        inhabitants: Vec::new(),
        tension_level: 2,
        connections: connections.iter().map(|c| c.to_string()).collect(),
        facts: BTreeMap::new(),
        first_tick: 0,
        last_update_tick: 0,
    }
}

const PLACES: [&str; 6] = [
    "the ledger room",
    "the flooded stair",
    "the fish market",
    "the customs house",
    "the bell tower",
    "the lamplighters' yard",
];
const DEEDS: [&str; 6] = [
    "finds a ledger page cut out with a razor",
    "follows a lamplighter who pays in old coin",
    "bargains with a ferryman for a name",
    "hides from a patrol behind salt barrels",
    "reads a dead man's handwriting in a new entry",
    "quarrels with Marcus about who can be trusted",
];

/// Paragraphs of four sentences, reused so each scene's prose is long enough to have a tail.
const PROSE: [[&str; 4]; 5] = [
    [
        "Elena's breath fogged in {place}.",
        "The gas lamps hissed above her like patient cats.",
        "Somewhere below, the tide worked at the stones.",
        "She kept her hand on the brass key in her pocket.",
    ],
    [
        "Marcus did not look up from his papers.",
        "His pen scratched on, steady, unhurried, the way it always had.",
        "She waited until the silence became a question.",
        "\"You kept a copy,\" she said at last.",
    ],
    [
        "The page smelled of salt and something sweeter, like lamp oil.",
        "Its edge was too clean for a tear.",
        "A razor, then, and a steady hand.",
        "Her own hands were not steady at all.",
    ],
    [
        "Footsteps crossed the floor overhead and stopped.",
        "She counted to ten, then to twenty.",
        "Water dripped from the gauge in slow, deliberate drops.",
        "When the steps moved on, she let out the breath she had held.",
    ],
    [
        "\"Go home, Elena,\" Marcus said.",
        "His voice was kind, and that was the worst of it.",
        "She folded the page into her coat and did not answer.",
        "Outside, the bells of the customs house began to ring.",
    ],
];

/// A scene summary that differs from tick to tick, as a real novel's would.
fn scene(tick: u32) -> Scene {
    let i = tick as usize;
    let place = PLACES[i % PLACES.len()];
    let deed = DEEDS[(i * 5 + 1) % DEEDS.len()];
    let prose: String = (0..10)
        .map(|p| {
            let [a, b, c, d] = PROSE[(p + i) % PROSE.len()];
            format!("{a} {b} {c} {d}")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
        .replace("{place}", place);
    Scene {
        id: format!("S{tick}"),
        tick,
        title: format!("Salt and Ink {tick}"),
        pov_character: Some("C0".into()),
        location: Some(if tick.is_multiple_of(3) { "L1" } else { "L0" }.into()),
        word_count: crate::model::count_words(&prose),
        prose,
        summary: vec![
            format!("In {place}, Elena {deed} (tick {tick})."),
            format!("Marcus warns her that the harbour board watches {place}."),
            "The page's missing names point to the drowned families of the east quay.".into(),
        ],
        tension: Some((3 + tick % 6) as u8),
        created_at: NOW.into(),
    }
}

/// The fixed novel with scenes 1..=`scenes` committed.
pub(crate) fn novel(scenes: u32) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join(DB_FILE), true).unwrap();
    let tx = store.transaction().unwrap();
    // As `Novel::create` does: on branch `main`, before any recorded change.
    store::init_head(&tx).unwrap();
    store::init_state(&tx, NOW).unwrap();

    // A connection needs both ends stored: the steps go in first, linked once the archive exists.
    let steps = location(
        "L1",
        "Harbour Steps",
        "Slick stone steps where the ferrymen wait.",
        &["L0"],
    );
    store::insert_location(
        &tx,
        &Location {
            connections: Vec::new(),
            ..steps.clone()
        },
    )
    .unwrap();
    store::insert_location(
        &tx,
        &Location {
            sensory: vec![
                "brine and lamp oil".into(),
                "the drip of the tide gauge".into(),
            ],
            threats: vec!["harbour-board clerks".into()],
            ..location(
                "L0",
                "The Salt Archive",
                "Vaulted stacks of tide ledgers, half below the waterline.",
                &["L1"],
            )
        },
    )
    .unwrap();
    store::save_location(&tx, &steps).unwrap();
    store::connect_locations(&tx, "L0", "L1", "a flooded stair").unwrap();

    store::insert_character(
        &tx,
        &Character {
            role: "archivist".into(),
            description: "Thirty, ink-stained fingers, her late father's oilskin coat.".into(),
            personality: vec!["meticulous".into(), "stubborn".into()],
            goals: vec!["find who cut the page from the tide ledger".into()],
            fears: vec!["deep water".into()],
            inventory: vec!["brass ledger key".into(), "a cut ledger page".into()],
            emotional_state: Some("wary, exhausted".into()),
            arc: CharacterArc {
                want: "the truth about the ledgers".into(),
                need: "to trust someone again".into(),
                phase: "refusal".into(),
            },
            facts: BTreeMap::from([("father".into(), "drowned ten years ago".into())]),
            last_update_tick: scenes,
            ..character("C0", "Elena Marsh")
        },
    )
    .unwrap();
    store::insert_character(
        &tx,
        &Character {
            role: "head archivist, her mentor".into(),
            description: "Silver-bearded, courteous, always a step ahead.".into(),
            emotional_state: Some("guarded".into()),
            ..character("C1", "Marcus Vey")
        },
    )
    .unwrap();
    store::insert_relationship(
        &tx,
        &Relationship {
            id: "R0".into(),
            character_a: "C0".into(),
            character_b: "C1".into(),
            kind: "mentor".into(),
            status: "strained".into(),
            intensity: 7,
            perspective_a: "He taught me everything, so why is he lying now?".into(),
            perspective_b: "She is too close to the truth to be safe.".into(),
            first_tick: 0,
            last_update_tick: 0,
        },
    )
    .unwrap();
    store::insert_loop(
        &tx,
        &OpenLoop {
            id: "O0".into(),
            description: "Who cut the page from the tide ledger?".into(),
            category: "mystery".into(),
            importance: Importance::High,
            status: LoopStatus::Open,
            opened_tick: 1,
            resolved_tick: None,
            notes: vec![LoopNote {
                tick: 2,
                note: "the cut was made with a lamplighter's razor".into(),
            }],
        },
    )
    .unwrap();
    store::insert_loop(
        &tx,
        &OpenLoop {
            id: "O1".into(),
            description: "Will Marcus choose Elena over the harbour board?".into(),
            category: "relationship".into(),
            importance: Importance::Medium,
            status: LoopStatus::Open,
            opened_tick: 2,
            resolved_tick: None,
            notes: Vec::new(),
        },
    )
    .unwrap();
    store::insert_lore(
        &tx,
        &LoreFact {
            id: "W0".into(),
            fact: "Tide ledgers are sealed by law; altering one is a hanging offence.".into(),
            category: "law".into(),
            importance: Importance::High,
            keywords: vec!["tide ledger".into(), "ledger".into()],
            aliases: Vec::new(),
            always_on: false,
            source_tick: None,
            created_tick: 0,
        },
    )
    .unwrap();
    for (i, text) in [
        "Elena confronts Marcus about the altered ledger and he lies to her face.",
        "The ferryman offers Elena a name in exchange for her silence.",
        "Elena breaks into the harbourmaster's office at night.",
    ]
    .into_iter()
    .enumerate()
    {
        store::put_beat(
            &tx,
            &Beat {
                id: format!("B{i}"),
                position: i as u32,
                text: text.into(),
                status: BeatStatus::Open,
                done_tick: None,
            },
        )
        .unwrap();
    }
    store::put_clock(
        &tx,
        &PressureClock {
            id: "P0".into(),
            name: "The Tide Court's inquiry".into(),
            description: "the court closes in on whoever altered the ledgers".into(),
            value: 4,
            max: 10,
            per_tick: 1,
            thresholds: vec![Threshold {
                at: 7,
                note: "the archive is sealed and searched".into(),
            }],
            created_tick: 0,
        },
    )
    .unwrap();
    store::put_event(
        &tx,
        &StoryEvent {
            id: "E0".into(),
            tick: scenes + 3,
            description: "The spring tide floods the lower archive.".into(),
            status: EventStatus::Pending,
        },
    )
    .unwrap();
    for tick in 1..=scenes {
        store::insert_scene(&tx, &scene(tick)).unwrap();
    }
    store::rebuild_search_index(&tx).unwrap();
    store::save_state(
        &tx,
        &StoryState {
            current_tick: scenes,
            active_character: Some("C0".into()),
            created_at: NOW.into(),
            updated_at: NOW.into(),
        },
    )
    .unwrap();
    tx.commit().unwrap();
    Fixture {
        store,
        config: config(),
        _dir: dir,
    }
}
