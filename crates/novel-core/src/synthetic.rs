//! A generated novel for tests and benchmarks of memory at scale: a city of canals, a cast and
//! a map that grow, loops that open and close, lore, and 500–700 words of varied, deterministic
//! filler prose per scene — written through the same memory functions a tick uses, so every
//! passage, roll-up and history row is what a real novel of that length would hold. Facts can
//! be planted in chosen scenes' prose to test that search finds them among hundreds of scenes.

use std::path::Path;

use crate::clock::FixedClock;
use crate::config::{Foundation, GenerationSettings, NovelConfig, PointOfView, Tense};
use crate::ids::EntityKind;
use crate::memory::{
    self, EntityUpdate, MemoryError, NewCharacter, NewLocation, NewLoop, NewLore, NewRelationship,
};
use crate::model::{Character, Importance, LoopStatus, Scene, count_words};
use crate::novel::{Novel, NovelError, NovelSeed};
use crate::store::roll_up_after;
use crate::store::{self, StoreError};

/// A sentence placed as its own paragraph in the prose of the scene of `tick`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planted {
    pub tick: u32,
    pub text: String,
}

impl Planted {
    pub fn new(tick: u32, text: impl Into<String>) -> Planted {
        Planted {
            tick,
            text: text.into(),
        }
    }
}

const NOW: &str = "2025-01-01T00:00:00Z";

const CAST: [(&str, &str, &str); 24] = [
    (
        "Bram Holt",
        "dock foreman",
        "Broad, slow-spoken, owes money to half the quay",
    ),
    (
        "Ilse Marrow",
        "river pilot",
        "Wiry and sunburnt, reads currents like print",
    ),
    (
        "Corwin Ashby",
        "customs clerk",
        "Ink-stained cuffs and a nervous laugh",
    ),
    (
        "Nella Strand",
        "netmaker",
        "Quick hands, quicker temper, three children",
    ),
    (
        "Piet Danner",
        "barge owner",
        "Gold tooth, loud coat, louder debts",
    ),
    (
        "Oriel Faye",
        "street singer",
        "Sings for coins at the bridges, hears everything",
    ),
    (
        "Garrick Stowe",
        "watch sergeant",
        "Tired eyes and a rule for every occasion",
    ),
    (
        "Yara Quill",
        "letter writer",
        "Writes love letters for sailors who cannot",
    ),
    ("Dunstan Reeve", "moneylender", "Soft voice, hard ledger"),
    ("Mabry Kell", "cooper", "Smells of oak shavings and tar"),
    (
        "Sorrel Vane",
        "tavern keeper",
        "Remembers every face and forgets on purpose",
    ),
    (
        "Teodor Lusk",
        "printer",
        "Prints pamphlets by night and sermons by day",
    ),
    (
        "Wenna Pike",
        "ferrywoman",
        "Rows the night crossings for double fare",
    ),
    (
        "Aldous Crane",
        "magistrate's secretary",
        "Precise, pale, never without gloves",
    ),
    (
        "Fenn Harrow",
        "rope maker",
        "Missing two fingers, whistles while he works",
    ),
    (
        "Lise Tolland",
        "baker",
        "Up before the bells, flour to the elbows",
    ),
    ("Rook Emberly", "fence", "Buys anything, asks nothing"),
    (
        "Hessa Wain",
        "midwife",
        "Knows which houses have new mouths to feed",
    ),
    (
        "Jory Bask",
        "errand boy",
        "Twelve years old and faster than rumours",
    ),
    (
        "Calla Meeve",
        "chandler",
        "Sells candles and lamp wicks by weight",
    ),
    ("Osric Thane", "bargeman", "Huge, gentle, afraid of dogs"),
    (
        "Perrin Lowe",
        "clerk of the tolls",
        "Counts coins in his sleep",
    ),
    ("Delia Rusk", "laundress", "Hands cracked raw, eyes sharp"),
    ("Matthias Orme", "harbour priest", "Blesses boats for a fee"),
];

const PLACES: [(&str, &str); 16] = [
    (
        "Saltgate Market",
        "Stalls under patched awnings, eels in barrels",
    ),
    (
        "the Tallow Bridge",
        "A humped stone bridge slick with candle grease",
    ),
    (
        "Copperline Canal",
        "Green water under iron railings, barges nose to tail",
    ),
    (
        "the Weighhouse",
        "Scales the size of carts and clerks shouting weights",
    ),
    (
        "Gull Stair",
        "Steep steps down to the water, white with droppings",
    ),
    (
        "the Ropewalk",
        "A shed a quarter-mile long where hemp is twisted",
    ),
    (
        "Fogbell Quay",
        "Moorings for the river barges, a bell that tolls in fog",
    ),
    (
        "the Tannery Yards",
        "Stinking vats and hides stretched on frames",
    ),
    ("Mortar Lane", "Narrow, crooked, full of builders' carts"),
    (
        "the Lantern Arcade",
        "A covered walk of shops lit all night",
    ),
    (
        "the Drowned Chapel",
        "A chapel half sunk in the silt, still used for weddings",
    ),
    (
        "Brinewater Steps",
        "Where the washerwomen beat linen on the stones",
    ),
    (
        "the Customs House",
        "Columns, ledgers, and a queue that never ends",
    ),
    ("Kettle Row", "Tinsmiths' workshops, all hammering"),
    (
        "the Night Ferry Landing",
        "A lantern on a pole and a bench nobody sits on",
    ),
    ("Pennywharf", "Cheap lodgings above cheaper taverns"),
];

const FILLER: [&str; 36] = [
    "{a} pushed through the crowd at {p}, counting coins with one thumb.",
    "Rain ran off the awnings of {p} and pooled between the cobbles.",
    "{a} haggled with a fishwife over the price of eels and lost.",
    "The barges slid past, low in the water, loaded with barrels of salt.",
    "{a} knotted a rope around the mooring post and tested it twice.",
    "Smoke from the tannery hung low over the canal.",
    "{a} and {b} argued about a debt neither of them could pay.",
    "A clerk shouted numbers from the steps of the Weighhouse.",
    "{a} bought a paper cone of roasted chestnuts and ate them walking.",
    "The water was low, and the canal smelled of mud and tar.",
    "{a} read a torn poster promising a reward for a missing barge.",
    "Gulls fought over fish heads on the planks of {p}.",
    "{a} tightened a scarf against the wind and kept walking.",
    "Somewhere a fiddler played the same four bars over and over.",
    "{a} counted the barrels twice and got two different numbers.",
    "{b} laughed at something {a} said, too loudly, and looked away.",
    "Lamps were lit one by one along the embankment.",
    "{a} wrote a short note and sealed it with candle wax.",
    "Carts rattled over the Tallow Bridge, throwing up brown water.",
    "{a} asked a ferryman about the crossing and got a shrug for an answer.",
    "A dog trotted past with a stolen sausage and nobody chased it.",
    "{a} sat on an upturned crate at {p} and watched the boats.",
    "The smell of fresh bread drifted from a bakery on Kettle Row.",
    "{b} waved from across the water, but {a} pretended not to see.",
    "Washing hung between the houses, stiff with cold.",
    "{a} paid the toll in copper and was given a chit in return.",
    "Two sailors sang a rude song outside a tavern on Pennywharf.",
    "{a} stepped around a puddle that was deeper than it looked.",
    "A child sold matches from a tray, calling the price in a thin voice.",
    "{a} thought about supper and about the rent, in that order.",
    "The wind changed and brought the reek of the Tannery Yards.",
    "{a} leaned on the railing of Copperline Canal and let the minutes pass.",
    "Hammering from the workshops made conversation impossible.",
    "{b} offered {a} a swig from a flask, and {a} declined.",
    "The afternoon turned grey, then greyer, then wet.",
    "{a} folded the week's accounts into a coat pocket and sighed.",
];

const DEEDS: [&str; 12] = [
    "bargains with {b} for passage on a barge",
    "follows {b} through {p} to learn who pays the tolls",
    "argues with {b} about an unpaid debt",
    "helps {b} unload salt at {p} in exchange for gossip",
    "waits at {p} for a message that never comes",
    "questions {b} about a missing shipment",
    "loses a purse at {p} and gets it back from {b}",
    "overhears {b} making a deal at {p}",
    "shelters from a storm at {p} with {b}",
    "pays {b} for a forged pass to the Customs House",
    "is followed through {p} by a man in a grey hat",
    "trades favours with {b} at {p}",
];

const LOOPS: [&str; 8] = [
    "Who is paying {b} to watch the quay?",
    "What was in the shipment that vanished from {p}?",
    "Will {b} keep quiet about the forged pass?",
    "Why did the Customs House close its books early?",
    "Who owns the barge with the painted eye?",
    "Can Tamsin repay {b} before the month ends?",
    "What does {b} know about the night of the arrest?",
    "Who tore the notices down at {p}?",
];

/// Deterministic pseudo-random numbers (xorshift64*), one stream per scene.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The generated novel's foundation.
pub fn config() -> NovelConfig {
    NovelConfig {
        models: Default::default(),
        budget: Default::default(),
        novel: Foundation {
            title: "Salt and Iron".into(),
            author: "Mara Quill".into(),
            genre: "fantasy noir".into(),
            premise: "A smuggler in a drowned city hunts the men who framed her brother.".into(),
            setting: "Rainmarket, a city of canals and tide bells".into(),
            tone: "tense, rain-soaked".into(),
            style: "lean, sensory, short paragraphs".into(),
            pov: PointOfView::DeepThird,
            tense: Tense::Past,
            language: "English".into(),
            themes: Vec::new(),
            author_note: String::new(),
        },
        generation: GenerationSettings::default(),
    }
}

fn seed() -> NovelSeed {
    let config = config();
    NovelSeed {
        foundation: config.novel,
        generation: config.generation,
        protagonist: NewCharacter {
            name: "Tamsin Vale".into(),
            role: "smuggler".into(),
            description: "Wiry, salt-cracked hands, a coat two sizes too big.".into(),
            goals: vec!["clear her brother's name".into()],
            fears: vec!["capture".into()],
            inventory: vec!["rusted dagger".into()],
            want: "her brother free".into(),
            need: "to trust someone again".into(),
            ..NewCharacter::default()
        },
        location: NewLocation {
            name: "Rainmarket Docks".into(),
            description: "A maze of wet planks and dim lamps.".into(),
            sensory: vec!["salt air".into(), "rope creak".into()],
            ..NewLocation::default()
        },
        goal: "Clear her brother's name before the harbor court sits".into(),
        lore: vec![NewLore {
            fact: "The tide bells ring thirteen times when the harbour court is in session.".into(),
            category: "custom".into(),
            importance: Importance::High,
            keywords: vec!["tide bell".into(), "harbour court".into()],
            aliases: vec!["the thirteen bells".into()],
            always_on: false,
        }],
    }
}

/// Creates a generated novel in `dir` with scenes `1..=scenes` committed.
pub fn generate(dir: &Path, scenes: u32, planted: &[Planted]) -> Result<Novel, NovelError> {
    let clock = FixedClock(
        chrono::DateTime::parse_from_rfc3339(NOW)
            .map(|t| t.with_timezone(&chrono::Utc))
            .unwrap_or_default(),
    );
    let mut novel = Novel::create(dir, seed(), &clock)?;
    extend(&mut novel, scenes, planted)?;
    Ok(novel)
}

/// Minor characters and places added until the story graph has `nodes` nodes (characters plus
/// places), each person placed somewhere and tied to one earlier person, each place connected
/// to an earlier place — the crowd of a long saga, for measuring the graph at scale. Recorded
/// as of the novel's current tick; a graph already that large is left as it is. Names stay
/// distinct for the first 320 added (20 given names × 16 family names).
pub fn crowd(novel: &mut Novel, nodes: usize) -> Result<(), NovelError> {
    let root = novel.root().to_path_buf();
    let store = novel
        .store_mut()
        .ok_or(NovelError::ReadOnly { path: root })?;
    let tx = store.transaction()?;
    let tick = store::load_state(&tx)?.current_tick;
    let mut rng = Rng::new(nodes as u64 ^ 0x5eed);
    let mut added = 0usize;
    loop {
        let characters = store::list_characters(&tx)?;
        let locations = store::list_locations(&tx)?;
        if characters.len() + locations.len() >= nodes {
            break;
        }
        // One place for every three people, as a city's cast outnumbers its landmarks.
        if added % 4 == 3 || locations.is_empty() {
            let near = locations
                .get(rng.below(locations.len().max(1)))
                .map(|l| l.id.clone());
            memory::create_location(
                &tx,
                NewLocation {
                    name: format!(
                        "the {} {}",
                        CROWD_PLACE_WORDS[added % CROWD_PLACE_WORDS.len()],
                        added / CROWD_PLACE_WORDS.len() + 1
                    ),
                    description: "A corner of the city few visitors find.".into(),
                    connections: near.into_iter().collect(),
                    ..NewLocation::default()
                },
                tick,
                "synthetic",
            )?;
        } else {
            let c = memory::create_character(
                &tx,
                NewCharacter {
                    name: format!(
                        "{} {}",
                        CROWD_GIVEN[added % CROWD_GIVEN.len()],
                        CROWD_FAMILY[(added / CROWD_GIVEN.len()) % CROWD_FAMILY.len()]
                    ),
                    role: "townsfolk".into(),
                    description: "One of the faces of the waterfront.".into(),
                    location: Some(locations[rng.below(locations.len())].id.clone()),
                    ..NewCharacter::default()
                },
                tick,
                "synthetic",
            )?;
            let other = &characters[rng.below(characters.len())];
            memory::create_relationship(
                &tx,
                NewRelationship {
                    character_a: other.id.clone(),
                    character_b: c.id,
                    kind: ["ally", "rival", "kin", "neighbour"][rng.below(4)].into(),
                    intensity: Some(1 + rng.below(9) as u8),
                    ..NewRelationship::default()
                },
                tick,
                "synthetic",
            )?;
        }
        added += 1;
    }
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

const CROWD_GIVEN: [&str; 20] = [
    "Ada", "Bram", "Cora", "Dunstan", "Edda", "Fen", "Greer", "Hollis", "Ivo", "Jory", "Kester",
    "Lark", "Morwen", "Nye", "Orla", "Piers", "Quill", "Rook", "Sabine", "Tobin",
];
const CROWD_FAMILY: [&str; 16] = [
    "Ashby",
    "Brine",
    "Cobb",
    "Dace",
    "Eller",
    "Fairweather",
    "Gull",
    "Harrow",
    "Inchcape",
    "Jessop",
    "Keel",
    "Lowe",
    "Marrow",
    "Netley",
    "Oakes",
    "Pike",
];
const CROWD_PLACE_WORDS: [&str; 8] = [
    "chandlery",
    "rope walk",
    "oyster stall",
    "bell yard",
    "tannery",
    "ferry stair",
    "salt store",
    "net shed",
];

/// Commits generated scenes after the novel's last one, through tick `through`.
pub fn extend(novel: &mut Novel, through: u32, planted: &[Planted]) -> Result<(), NovelError> {
    let root = novel.root().to_path_buf();
    let store = novel
        .store_mut()
        .ok_or(NovelError::ReadOnly { path: root })?;
    let first = store::load_state(store.conn())?.current_tick + 1;
    // Batches keep each transaction (and its memory) modest on long novels. Each scene is a
    // recorded change with its version, as a tick would leave it, so history can be moved.
    for batch in (first..=through).collect::<Vec<_>>().chunks(50) {
        let tx = store.transaction()?;
        for &tick in batch {
            let mut recorder = store::Recorder::start(&tx)?;
            let scene = write_scene(&tx, tick, planted)?;
            let changeset = recorder.changeset()?;
            drop(recorder);
            let label = format!("scene {tick}: {}", scene.title);
            let seq =
                store::append_change(&tx, store::ChangeKind::Tick, tick, &label, &changeset, NOW)?;
            store::insert_version(
                &tx,
                &store::NewVersion {
                    tick,
                    branch: "main",
                    origin: store::VersionOrigin::Revision,
                    title: &scene.title,
                    prose: &scene.prose,
                    words: scene.word_count,
                    change_seq: seq,
                    created_at: NOW,
                },
            )?;
        }
        tx.commit().map_err(StoreError::from)?;
    }
    Ok(())
}

fn fill(template: &str, a: &str, b: &str, p: &str) -> String {
    template
        .replace("{a}", a)
        .replace("{b}", b)
        .replace("{p}", p)
}

/// What one tick would have written for scene `tick`.
fn write_scene(
    tx: &rusqlite::Transaction<'_>,
    tick: u32,
    planted: &[Planted],
) -> Result<Scene, MemoryError> {
    let mut rng = Rng::new(u64::from(tick));
    grow_world(tx, tick, &mut rng)?;
    let characters = store::list_characters(tx)?;
    let locations = store::list_locations(tx)?;
    let pov = characters
        .iter()
        .find(|c| c.name == "Tamsin Vale")
        .cloned()
        .unwrap_or_default();
    let others: Vec<&Character> = characters.iter().filter(|c| c.id != pov.id).collect();
    let other = |rng: &mut Rng| -> String {
        others
            .get(rng.below(others.len()))
            .map_or("a stranger".to_string(), |c| c.name.clone())
    };
    let place = &locations[rng.below(locations.len())];
    let companion = other(&mut rng);

    let paragraphs = 8 + rng.below(3);
    let mut prose: Vec<String> = Vec::new();
    for _ in 0..paragraphs {
        let sentences = 4 + rng.below(3);
        let paragraph: Vec<String> = (0..sentences)
            .map(|_| {
                let a = if rng.below(3) == 0 {
                    "Tamsin".to_string()
                } else {
                    other(&mut rng)
                };
                let b = other(&mut rng);
                let p = &locations[rng.below(locations.len())].name;
                fill(FILLER[rng.below(FILLER.len())], &a, &b, p)
            })
            .collect();
        prose.push(paragraph.join(" "));
    }
    for (i, fact) in planted.iter().filter(|p| p.tick == tick).enumerate() {
        prose.insert((3 + i).min(prose.len()), fact.text.clone());
    }
    let prose = prose.join("\n\n");

    let deed = fill(DEEDS[rng.below(DEEDS.len())], "", &companion, &place.name);
    let summary = vec![
        format!("Tamsin {deed}."),
        fill(
            "{b} hints that the watch is asking questions about {p}.",
            "",
            &other(&mut rng),
            &place.name,
        ),
        format!(
            "Tamsin leaves {} with less money than she came with.",
            place.name
        ),
    ];
    let scene = Scene {
        id: store::mint_id(tx, EntityKind::Scene)?.to_string(),
        tick,
        title: format!(
            "{} {}",
            ["Rain", "Salt", "Tolls", "Ropes", "Bells", "Ledgers"][rng.below(6)],
            tick
        ),
        pov_character: Some(pov.id.clone()),
        location: Some(place.id.clone()),
        word_count: count_words(&prose),
        prose,
        summary,
        tension: Some((2 + (tick * 7) % 8) as u8),
        created_at: NOW.into(),
    };
    let mut changes = serde_json::Map::new();
    changes.insert("last_location".into(), place.id.clone().into());
    changes.insert(
        "emotional_state".into(),
        ["wary", "tired", "hopeful", "angry", "cold"][rng.below(5)].into(),
    );
    memory::update_record::<Character>(
        tx,
        &pov.id,
        &EntityUpdate {
            changes,
            append: Default::default(),
        },
        tick,
        "synthetic",
    )?;
    store::insert_scene(tx, &scene)?;
    store::index_scene(tx, &scene)?;
    roll_up_after(tx, tick)?;
    let mut state = store::load_state(tx)?;
    state.current_tick = tick;
    store::save_state(tx, &state)?;
    Ok(scene)
}

/// New characters, places, loops and lore at a steady pace, as a story's world grows.
fn grow_world(tx: &rusqlite::Transaction<'_>, tick: u32, rng: &mut Rng) -> Result<(), MemoryError> {
    let locations = store::list_locations(tx)?;
    if tick % 10 == 2
        && let Some((name, description)) = PLACES.get((tick / 10) as usize)
    {
        let near = &locations[rng.below(locations.len())];
        memory::create_location(
            tx,
            NewLocation {
                name: name.to_string(),
                description: description.to_string(),
                connections: vec![near.id.clone()],
                ..NewLocation::default()
            },
            tick,
            "synthetic",
        )?;
    }
    let locations = store::list_locations(tx)?;
    if tick % 6 == 1
        && let Some((name, role, description)) = CAST.get((tick / 6) as usize)
    {
        let c = memory::create_character(
            tx,
            NewCharacter {
                name: name.to_string(),
                role: role.to_string(),
                description: description.to_string(),
                location: Some(locations[rng.below(locations.len())].id.clone()),
                ..NewCharacter::default()
            },
            tick,
            "synthetic",
        )?;
        if let Some(pov) = store::find_character_by_name(tx, "Tamsin Vale")? {
            memory::create_relationship(
                tx,
                NewRelationship {
                    character_a: pov.id,
                    character_b: c.id,
                    kind: ["ally", "rival", "creditor", "informant"][rng.below(4)].into(),
                    intensity: Some(1 + rng.below(9) as u8),
                    ..NewRelationship::default()
                },
                tick,
                "synthetic",
            )?;
        }
    }
    let characters = store::list_characters(tx)?;
    let someone = &characters[rng.below(characters.len())].name;
    let somewhere = &locations[rng.below(locations.len())].name;
    if tick.is_multiple_of(4) {
        memory::open_loop(
            tx,
            NewLoop {
                description: fill(LOOPS[rng.below(LOOPS.len())], "", someone, somewhere),
                category: "mystery".into(),
                importance: [Importance::Low, Importance::Medium, Importance::High][rng.below(3)],
            },
            tick,
            "synthetic",
        )?;
    }
    if tick.is_multiple_of(7) {
        // The oldest open loop that is not the story's goal gets resolved.
        let open = store::list_loops(tx, Some(LoopStatus::Open))?;
        if let Some(l) = open
            .iter()
            .filter(|l| l.category != "goal")
            .min_by_key(|l| l.opened_tick)
        {
            memory::change_loop(
                tx,
                &l.id,
                LoopStatus::Resolved,
                "answered",
                tick,
                "synthetic",
            )?;
        }
    }
    if tick % 15 == 3 {
        memory::add_lore(
            tx,
            NewLore {
                fact: format!(
                    "{somewhere} floods at every spring tide; the locals keep their goods on high shelves."
                ),
                category: "geography".into(),
                importance: Importance::Medium,
                keywords: vec![somewhere.trim_start_matches("the ").to_string()],
                aliases: Vec::new(),
                always_on: false,
            },
            tick,
            Some(tick),
            "synthetic",
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_novel_grows_its_world_and_keeps_planted_facts_where_they_were_put() {
        let tmp = tempfile::tempdir().unwrap();
        let planted = [Planted::new(
            5,
            "Old Hask buried the signal key under the third step.",
        )];
        let novel = generate(&tmp.path().join("n"), 24, &planted).unwrap();
        let conn = novel.store().conn();
        assert_eq!(store::load_state(conn).unwrap().current_tick, 24);
        let scenes = store::list_scenes(conn).unwrap();
        assert_eq!(scenes.len(), 24);
        assert!(scenes[4].prose.contains("Old Hask"));
        assert_eq!(
            scenes.iter().filter(|s| s.prose.contains("Hask")).count(),
            1
        );
        assert!(
            scenes.iter().all(|s| (400..=900).contains(&s.word_count)),
            "{:?}",
            scenes.iter().map(|s| s.word_count).collect::<Vec<_>>()
        );
        assert!(store::list_characters(conn).unwrap().len() >= 4);
        assert!(store::list_locations(conn).unwrap().len() >= 3);
        assert_eq!(store::list_rollups(conn).unwrap().len(), 2);
        // The same ticks give the same novel.
        let again = generate(&tmp.path().join("m"), 24, &planted).unwrap();
        assert_eq!(
            store::list_scenes(again.store().conn()).unwrap()[17].prose,
            scenes[17].prose
        );
    }

    #[test]
    fn a_crowd_grows_the_graph_to_the_size_asked_with_every_node_tied_in() {
        let tmp = tempfile::tempdir().unwrap();
        let mut novel = generate(&tmp.path().join("n"), 12, &[]).unwrap();
        crowd(&mut novel, 120).unwrap();
        let conn = novel.store().conn();
        let characters = store::list_characters(conn).unwrap();
        let locations = store::list_locations(conn).unwrap();
        assert_eq!(characters.len() + locations.len(), 120);
        assert!(locations.len() >= 20, "{} places", locations.len());
        let names: std::collections::HashSet<_> = characters.iter().map(|c| &c.name).collect();
        assert_eq!(names.len(), characters.len(), "names repeat");
        let related = store::list_relationships(conn, None).unwrap();
        for c in characters.iter().filter(|c| c.role == "townsfolk") {
            assert!(
                related.iter().any(|r| r.character_b == c.id),
                "{} is tied to no one",
                c.name
            );
        }
        for l in locations
            .iter()
            .filter(|l| l.description.starts_with("A corner"))
        {
            assert!(
                !l.connections.is_empty(),
                "{} is connected to nothing",
                l.name
            );
        }
        // Asking for fewer nodes than there are changes nothing.
        crowd(&mut novel, 10).unwrap();
        assert_eq!(
            store::list_characters(novel.store().conn()).unwrap().len(),
            characters.len()
        );
    }
}
