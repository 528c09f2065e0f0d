//! Precision and recall of the deterministic checks on a labelled corpus (`tests/corpus/`, see
//! its README): every passage is checked with `evaluate::check_text` against a small fixed
//! story memory in a real SQLite store, and the checks that fired are compared with the
//! passage's labels. Prints a table per check — all passages, the tuning part, the held-out
//! part, the blind part, short and long — and asserts the targets on the whole corpus.
//!
//! `cargo test -p novel-core --test engine check_corpus:: -- --nocapture`
//! (`CORPUS_SHOW=all` also lists the blind part's misses; by default they are not listed, so
//! the blind part stays unseen while rules are written.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use novel_core::config::{NovelConfig, PointOfView, Tense};
use novel_core::evaluate::{self, Check, CheckScope, Finding};
use novel_core::model::{Character, LifeStatus, Location, Scene, StoryState};
use novel_core::store::{self, HistoryEntry, Store};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    passage: Vec<Passage>,
    #[serde(default)]
    title: Vec<Title>,
}

#[derive(Deserialize)]
struct Passage {
    id: String,
    set: String,
    pov: String,
    tense: String,
    #[serde(default)]
    narrator: Option<String>,
    #[serde(default)]
    at: Option<String>,
    expect: Vec<String>,
    text: String,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

#[derive(Deserialize)]
struct Title {
    text: String,
    good: bool,
    set: String,
}

/// The labels, in table order, with the targets asserted on the whole corpus.
const LABELS: &[(&str, f64)] = &[
    ("leak", 0.9),
    ("mind", 0.9),
    ("pov", 0.9),
    ("tense", 0.9),
    ("person", 0.9),
    ("continuity", 0.85),
    ("knowledge", 0.9),
    ("meta", 0.9),
];

/// The label a finding counts for; `None` for checks the corpus does not score (length,
/// style warnings).
fn label_of(check: Check) -> Option<&'static str> {
    Some(match check {
        Check::PovLeak => "leak",
        Check::OtherMind => "mind",
        Check::TenseDrift => "tense",
        Check::PersonDrift => "person",
        Check::DeadCharacter
        | Check::TwoPlaces
        | Check::LostItem
        | Check::Unreachable
        | Check::Contradiction => "continuity",
        Check::Markup | Check::MetaText => "meta",
        Check::OffPage => "knowledge",
        Check::Length | Check::Repetition | Check::StockPhrase | Check::Title => return None,
    })
}

/// `pov` is the union of narrator knowledge, other minds and off-page knowledge: all are POV
/// breaks.
fn with_group(labels: BTreeSet<String>) -> BTreeSet<String> {
    let mut out = labels;
    if out.contains("leak") || out.contains("mind") || out.contains("knowledge") {
        out.insert("pov".into());
    }
    out
}

fn character(id: &str, name: &str, extra: serde_json::Value) -> Character {
    let mut value = json!({ "id": id, "name": name, "first_tick": 1, "last_update_tick": 1 });
    if let (Some(obj), Some(more)) = (value.as_object_mut(), extra.as_object()) {
        obj.extend(more.clone());
    }
    serde_json::from_value(value).unwrap()
}

fn location(id: &str, name: &str, connections: &[&str]) -> Location {
    serde_json::from_value(json!({
        "id": id, "name": name, "connections": connections, "first_tick": 1, "last_update_tick": 1
    }))
    .unwrap()
}

/// The story memory every passage is read against (the corpus README describes it).
fn world(path: &Path) -> Store {
    let mut store = Store::open(path, true).unwrap();
    let characters = vec![
        character(
            "C1",
            "Tamsin Reed",
            json!({ "last_location": "L1", "facts": { "pronouns": "she/her", "mother": "dead, drowned when Tamsin was nine" },
                    "relationships": { "C5": "brother" }, "inventory": ["oilskin coat"] }),
        ),
        character(
            "C2",
            "Bram Hale",
            json!({ "last_location": "L1", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C3",
            "Maud Fenn",
            json!({ "aliases": ["the Harbourmistress"], "last_location": "L2", "facts": { "pronouns": "she/her" } }),
        ),
        character(
            "C4",
            "Orrin Vale",
            json!({ "status": "dead", "last_location": "L1", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C5",
            "Ewan Reed",
            json!({ "last_location": "L4", "facts": { "pronouns": "he/him" }, "relationships": { "C1": "sister" } }),
        ),
        character(
            "C6",
            "Jonah Pike",
            json!({ "last_location": "L3", "facts": { "pronouns": "he/him", "father": "dead, lost at sea three years ago" } }),
        ),
        character(
            "C7",
            "Lena Marsh",
            json!({ "last_location": "L3", "facts": { "pronouns": "she/her" } }),
        ),
        character(
            "C8",
            "Marcus Dole",
            json!({ "last_location": "L2", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C9",
            "Hester Quill",
            json!({ "status": "dead", "last_location": "L3", "facts": { "pronouns": "she/her" } }),
        ),
        character(
            "C10",
            "Corin Ashe",
            json!({ "last_location": "L5", "facts": { "pronouns": "he/him" } }),
        ),
        // The blind part's cast, which the rules were never tuned on.
        character(
            "C11",
            "Ivo Brandt",
            json!({ "last_location": "L9", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C12",
            "Sabine Kell",
            json!({ "last_location": "L9", "facts": { "pronouns": "she/her" }, "relationships": { "C13": "sister" } }),
        ),
        character(
            "C13",
            "Ada Kell",
            json!({ "status": "dead", "last_location": "L9", "facts": { "pronouns": "she/her" } }),
        ),
        character(
            "C14",
            "Father Oswin",
            json!({ "last_location": "L10", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C15",
            "Nils Varga",
            json!({ "last_location": "L10", "facts": { "pronouns": "he/him" } }),
        ),
        character(
            "C16",
            "Greta Holm",
            json!({ "last_location": "L9", "facts": { "pronouns": "she/her" } }),
        ),
        character(
            "C17",
            "Tobias Wren",
            json!({ "status": "dead", "last_location": "L9", "facts": { "pronouns": "he/him" } }),
        ),
        // Dies on the page at tick 6 (see `on_page_death`).
        character(
            "C18",
            "Silas Crane",
            json!({ "status": "dead", "last_location": "L2", "facts": { "pronouns": "he/him" } }),
        ),
    ];
    let locations = vec![
        location("L1", "the lighthouse", &["L2"]),
        location("L2", "the harbour", &["L1", "L3", "L4"]),
        location("L3", "the Salt Market", &["L2", "L7"]),
        location("L4", "the gaol", &["L2"]),
        location("L5", "the Isle of Skerra", &["L6"]),
        location("L6", "Skerra Chapel", &["L5"]),
        location("L7", "the Old Quarter", &["L3"]),
        location("L8", "the Hollow Inn", &[]),
        location("L9", "the mill", &["L10"]),
        location("L10", "the abbey", &["L9", "L11"]),
        location("L11", "the ford", &["L10"]),
        location("L12", "the Black Tarn", &["L13"]),
        location("L13", "the shepherd's hut", &["L12"]),
    ];
    // Lost: (owner, item, tick); the history log is where the engine reads losses from.
    let lost = [
        ("C1", "her father's silver knife", 3),
        ("C6", "grandfather's brass compass", 5),
        ("C2", "harbour key", 4),
        ("C7", "green shawl", 6),
        ("C12", "grandmother's pearl ring", 2),
        ("C15", "mother's silver locket", 7),
        ("C11", "mill key", 5),
    ];
    let tx = store.transaction().unwrap();
    store::init_state(&tx, "2026-01-01T00:00:00Z").unwrap();
    // Every place first, then the web: a connection needs both ends to exist.
    for l in &locations {
        let bare = Location {
            connections: Vec::new(),
            ..l.clone()
        };
        store::insert_location(&tx, &bare).unwrap();
    }
    for l in &locations {
        for other in &l.connections {
            store::connect_locations(&tx, &l.id, other, "").unwrap();
        }
    }
    for c in &characters {
        store::insert_character(&tx, c).unwrap();
    }
    for (owner, item, tick) in lost {
        let c = characters.iter().find(|c| c.id == owner).unwrap();
        let mut before = c.inventory.clone();
        before.push(item.to_string());
        store::append_history(
            &tx,
            &HistoryEntry {
                entity_id: owner.into(),
                tick,
                field: "inventory".into(),
                change: "updated".into(),
                old_value: Some(json!(before)),
                new_value: Some(json!(c.inventory)),
                flagged: false,
                source: "extraction".into(),
            },
        )
        .unwrap();
    }
    on_page_death(&tx);
    store::save_state(
        &tx,
        &StoryState {
            current_tick: 8,
            active_character: Some("C1".into()),
            created_at: "2026-01-01T00:00:00Z".into(),
            updated_at: "2026-01-01T00:00:00Z".into(),
        },
    )
    .unwrap();
    tx.commit().unwrap();
    assert!(characters.iter().any(|c| c.status == LifeStatus::Dead));
    store
}

/// Silas Crane drowns at the harbour in the scene of tick 6, seen by Marcus (its POV) and Maud;
/// in the scene of tick 7 Lena tells Jonah. Nobody else has seen or heard of it.
fn on_page_death(tx: &rusqlite::Transaction<'_>) {
    let scene = |tick: u32, pov: &str, at: &str, prose: &str| Scene {
        id: format!("S{tick}"),
        tick,
        title: format!("Scene {tick}"),
        pov_character: Some(pov.into()),
        location: Some(at.into()),
        prose: prose.into(),
        word_count: 0,
        summary: vec!["A scene.".into()],
        tension: Some(5),
        created_at: "2026-01-01T00:00:00Z".into(),
    };
    store::insert_scene(
        tx,
        &scene(
            6,
            "C8",
            "L2",
            "The tide was high on the harbour steps. Silas Crane slipped on the weed and went \
             under, and Marcus Dole could not reach him. Maud Fenn held the lantern while they \
             dragged him out. He did not breathe again.",
        ),
    )
    .unwrap();
    store::insert_scene(
        tx,
        &scene(
            7,
            "C6",
            "L3",
            "Lena Marsh came to the stall before the bell. “Silas Crane drowned last night,” she \
             said. Jonah Pike put down the crate he was carrying.",
        ),
    )
    .unwrap();
    store::append_history(
        tx,
        &HistoryEntry {
            entity_id: "C18".into(),
            tick: 6,
            field: "status".into(),
            change: "updated".into(),
            old_value: Some(json!("alive")),
            new_value: Some(json!("dead")),
            flagged: false,
            source: "extraction".into(),
        },
    )
    .unwrap();
}

fn config(pov: &str, tense: &str) -> NovelConfig {
    let mut config: NovelConfig = toml::from_str("[novel]\ntitle = \"Corpus\"\n").unwrap();
    config.novel.pov = match pov {
        "third" => PointOfView::DeepThird,
        "first" => PointOfView::First,
        other => panic!("pov {other:?}"),
    };
    config.novel.tense = match tense {
        "past" => Tense::Past,
        "present" => Tense::Present,
        other => panic!("tense {other:?}"),
    };
    config
}

fn load() -> (Vec<Passage>, Vec<Title>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    names.sort();
    let (mut passages, mut titles) = (Vec::new(), Vec::new());
    for path in names {
        let file: File = toml::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        passages.extend(file.passage);
        titles.extend(file.title);
    }
    (passages, titles)
}

#[derive(Default, Clone, Copy)]
struct Tally {
    tp: u32,
    fp: u32,
    fn_: u32,
}

impl Tally {
    fn add(&mut self, expected: bool, found: bool) {
        match (expected, found) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (true, false) => self.fn_ += 1,
            (false, false) => {}
        }
    }
    fn precision(self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
    fn recall(self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
}

/// 1.0 when there is nothing to be wrong about.
fn ratio(n: u32, d: u32) -> f64 {
    if d == 0 {
        1.0
    } else {
        f64::from(n) / f64::from(d)
    }
}

fn is_long(p: &Passage) -> bool {
    p.text.split_whitespace().count() >= 300
}

#[test]
fn the_checks_meet_their_precision_and_recall_targets_on_the_labelled_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let store = world(&tmp.path().join("story.sqlite"));
    let (passages, titles) = load();
    assert!(passages.len() >= 120, "{} passages", passages.len());
    let mut ids = BTreeSet::new();
    for p in &passages {
        assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
        assert!(
            matches!(p.set.as_str(), "tune" | "held" | "blind" | "blind2"),
            "{}: set",
            p.id
        );
        for l in &p.expect {
            assert!(LABELS.iter().any(|(x, _)| x == l), "{}: label {l}", p.id);
        }
    }
    let show_blind = std::env::var("CORPUS_SHOW").is_ok_and(|v| v == "all");
    let shown = |set: &str| !set.starts_with("blind") || show_blind;

    // (label, part) -> tally; parts: all, tune, held, short, long.
    let mut tallies: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    for p in &passages {
        let scope = CheckScope {
            pov_character: Some(
                p.narrator
                    .clone()
                    .unwrap_or_else(|| if p.pov == "first" { "C6" } else { "C1" }.to_string()),
            ),
            location: p.at.clone(),
        };
        let findings =
            evaluate::check_text(store.conn(), &config(&p.pov, &p.tense), &scope, &p.text)
                .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        check_offsets(p, &findings);
        let found: BTreeSet<String> = with_group(
            findings
                .iter()
                .filter_map(|f| label_of(f.check))
                .map(str::to_string)
                .collect(),
        );
        let expected = with_group(p.expect.iter().cloned().collect());
        let length = if is_long(p) { "long" } else { "short" };
        for (label, _) in LABELS {
            let (e, f) = (expected.contains(*label), found.contains(*label));
            for part in ["all", p.set.as_str(), length] {
                tallies.entry((label, part)).or_default().add(e, f);
            }
            if e != f && *label != "pov" && shown(&p.set) {
                let why: Vec<String> = findings
                    .iter()
                    .filter(|x| label_of(x.check) == Some(label))
                    .map(|x| format!("      {:?}: {}", x.check, x.message))
                    .collect();
                misses.push(format!(
                    "  {} [{}] {} {label}\n{}",
                    if e { "MISSED" } else { "FALSE " },
                    p.set,
                    p.id,
                    why.join("\n")
                ));
            }
        }
    }

    let mut title_tally: BTreeMap<&str, Tally> = BTreeMap::new();
    for t in &titles {
        let flagged = !evaluate::title_is_words(&t.text);
        for part in ["all", t.set.as_str()] {
            title_tally.entry(part).or_default().add(!t.good, flagged);
        }
        if flagged == t.good && shown(&t.set) {
            misses.push(format!("  title [{}] {:?} good={}", t.set, t.text, t.good));
        }
    }

    let count = |set: &str| passages.iter().filter(|p| p.set == set).count();
    let long = passages.iter().filter(|p| is_long(p)).count();
    println!(
        "\nCheck corpus: {} passages ({} tuning, {} held out, {} + {} blind; {} long of \
         300–900 words), {} titles\n",
        passages.len(),
        count("tune"),
        count("held"),
        count("blind"),
        count("blind2"),
        long,
        titles.len()
    );
    println!(
        "{:<11} {:>4} {:>3} {:>3} | {:>11} | {:>11} | {:>11} | {:>11} | {:>11} | {:>7} {:>6}",
        "check",
        "pos",
        "fp",
        "fn",
        "all P / R",
        "tune P / R",
        "held P / R",
        "blind P / R",
        "blind2 P/R",
        "short R",
        "long R"
    );
    let get = |label: &str, part: &str| tallies.get(&(label, part)).copied().unwrap_or_default();
    let pr = |t: Tally| format!("{:.2} / {:.2}", t.precision(), t.recall());
    let mut failed = Vec::new();
    for (label, target) in LABELS {
        let all = get(label, "all");
        println!(
            "{:<11} {:>4} {:>3} {:>3} | {:>11} | {:>11} | {:>11} | {:>11} | {:>11} | {:>7.2} {:>6.2}",
            label,
            all.tp + all.fn_,
            all.fp,
            all.fn_,
            pr(all),
            pr(get(label, "tune")),
            pr(get(label, "held")),
            pr(get(label, "blind")),
            pr(get(label, "blind2")),
            get(label, "short").recall(),
            get(label, "long").recall()
        );
        if all.precision() < *target || all.recall() < *target {
            failed.push(format!(
                "{label}: precision {:.2}, recall {:.2}, target {target}",
                all.precision(),
                all.recall()
            ));
        }
    }
    let title = |part: &str| title_tally.get(part).copied().unwrap_or_default();
    let t = title("all");
    println!(
        "{:<11} {:>4} {:>3} {:>3} | {:>11} | {:>11} | {:>11} | {:>11} | {:>11} |",
        "bad title",
        t.tp + t.fn_,
        t.fp,
        t.fn_,
        pr(t),
        pr(title("tune")),
        pr(title("held")),
        "",
        "",
    );
    if t.precision() < 0.9 || t.recall() < 0.9 {
        failed.push(format!(
            "titles: precision {:.2}, recall {:.2}",
            t.precision(),
            t.recall()
        ));
    }
    if !misses.is_empty() {
        println!(
            "\nMisses{}:",
            if show_blind {
                ""
            } else {
                " (blind part not shown)"
            }
        );
        for m in &misses {
            println!("{m}");
        }
    }
    assert!(failed.is_empty(), "below target: {failed:#?}");
}

/// Every located finding points at its own sentence in the passage, in characters.
fn check_offsets(p: &Passage, findings: &[Finding]) {
    let chars: Vec<char> = p.text.chars().collect();
    for f in findings {
        let Some(span) = f.span else { continue };
        assert!(
            span.start <= span.end && (span.end as usize) <= chars.len(),
            "{}: {f:?}",
            p.id
        );
        let words: String = chars[span.start as usize..span.end as usize]
            .iter()
            .collect();
        let sentence = f.sentence.as_deref().unwrap_or_default();
        assert!(
            sentence.contains(&words),
            "{}: {words:?} not in {sentence:?}",
            p.id
        );
    }
}

/// What a second opinion could add, and what it costs. An oracle plays the critic: it confirms
/// exactly the findings whose kind the passage is labelled with, dismisses the rest, and
/// reports each labelled point-of-view or continuity break the rules missed (quoting the
/// passage's first sentence). Real models judge worse than the oracle, so these figures are the
/// ceiling; the cost is the real prompt the critic would be sent (`prompts::critic_request`).
#[test]
fn an_oracle_critic_on_the_labelled_corpus() {
    use novel_core::context::{Focus, Rollups, gather_with};
    use novel_core::evaluate::critic::{
        Critique, Judgement, Missed, MissedKind, Review, apply_critique, findings_brief, reviewable,
    };

    let tmp = tempfile::tempdir().unwrap();
    let store = world(&tmp.path().join("story.sqlite"));
    let (passages, _) = load();
    let mut before: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut after: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut prompt_tokens = 0u64;
    for p in &passages {
        let narrator = p
            .narrator
            .clone()
            .unwrap_or_else(|| if p.pov == "first" { "C6" } else { "C1" }.to_string());
        let config = config(&p.pov, &p.tense);
        let scope = CheckScope {
            pov_character: Some(narrator.clone()),
            location: p.at.clone(),
        };
        let findings = evaluate::check_text(store.conn(), &config, &scope, &p.text).unwrap();
        let expected = with_group(p.expect.iter().cloned().collect());
        let labels = |fs: &[Finding]| -> BTreeSet<String> {
            with_group(
                fs.iter()
                    .filter(|f| {
                        f.severity == evaluate::Severity::Violation
                            || f.severity == evaluate::Severity::Warning
                    })
                    .filter_map(|f| label_of(f.check))
                    .map(str::to_string)
                    .collect(),
            )
        };
        let found = labels(&findings);
        let first_sentence = p
            .text
            .split_inclusive(['.', '!', '?'])
            .next()
            .unwrap_or(&p.text)
            .trim()
            .to_string();
        let critique = Critique {
            reviews: reviewable(&findings)
                .into_iter()
                .map(|(n, f)| Review {
                    finding: n,
                    judgement: if label_of(f.check).is_some_and(|l| expected.contains(l)) {
                        Judgement::Confirm
                    } else {
                        Judgement::Dismiss
                    },
                    reason: "oracle".into(),
                })
                .collect(),
            missed: [
                ("leak", MissedKind::NarratorKnowledge),
                ("mind", MissedKind::OtherMind),
                ("continuity", MissedKind::Continuity),
            ]
            .into_iter()
            .filter(|(l, _)| expected.contains(*l) && !found.contains(*l))
            .map(|(_, kind)| Missed {
                kind,
                sentence: first_sentence.clone(),
                problem: "oracle".into(),
            })
            .collect(),
        };
        let (reviewed, _) = apply_critique(&p.text, findings.clone(), &critique);
        let found_after = labels(&reviewed);
        for label in ["leak", "mind", "pov", "continuity"] {
            before
                .entry(label)
                .or_default()
                .add(expected.contains(label), found.contains(label));
            after
                .entry(label)
                .or_default()
                .add(expected.contains(label), found_after.contains(label));
        }
        let mut scene_config = config.clone();
        scene_config.generation = novel_core::config::GenerationSettings::default();
        let ctx = gather_with(
            store.conn(),
            &scene_config,
            &scene_config.generation.context,
            &Focus {
                pov: Some(narrator),
                location: p.at.clone(),
            },
            &Rollups,
        )
        .unwrap();
        let request =
            novel_core::prompts::critic_request(&ctx, &p.text, &findings_brief(&findings)).unwrap();
        prompt_tokens += u64::from(novel_llm::estimate_prompt_tokens(&request));
    }
    println!("\nThe critic on the corpus (an oracle: the ceiling of what a second opinion adds)");
    println!(
        "{:<11} | {:>13} | {:>13}",
        "check", "rules P / R", "+critic P / R"
    );
    for label in ["leak", "mind", "pov", "continuity"] {
        let (b, a) = (before[label], after[label]);
        println!(
            "{:<11} | {:.2} / {:.2}   | {:.2} / {:.2}",
            label,
            b.precision(),
            b.recall(),
            a.precision(),
            a.recall()
        );
        assert!(
            a.recall() >= b.recall() && a.precision() >= b.precision(),
            "{label}: the critic's verdicts must be applied"
        );
    }
    println!(
        "cost: one call per scene, {} prompt tokens on average (plus a short JSON answer)",
        prompt_tokens / passages.len() as u64
    );
}
