//! The crash-safety harness: the real `novel run` binary writes scenes against the local test
//! server and is killed with SIGKILL at random moments in every stage of a tick (and `novel
//! backup` in the middle of a backup). After each kill it checks that:
//!
//! - `PRAGMA integrity_check` is `ok`;
//! - there is no half tick: `story_state.current_tick`, the `ticks` rows and the `scenes` rows
//!   agree (ticks 1..=N, one scene each), and a kill that committed nothing left the story
//!   (`dump_story`) exactly as before;
//! - nothing committed is lost: every scene seen committed before still has the same prose;
//! - the files agree with the database after the next open for writing;
//! - every backup in `backups/` passes `integrity_check`;
//! - the next run continues from the last committed tick (ticks stay contiguous, and a final
//!   uninterrupted run commits N+1 and N+2).
//!
//! The server delays each answer and streams prose slowly so kills can be aimed at a stage;
//! where the kill really landed is read afterwards from what the server had received and what
//! the database and files hold. Kills are `NOVEL_KILLS` (default 20, the CI count); the full
//! run, whose figures RELIABILITY.md records, is
//! `NOVEL_KILLS=200 cargo test -p novel-cli --release --test cli crash:: -- --nocapture`.
//! `NOVEL_KILL_SEED` replays a run.

#![cfg(unix)]

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::story::*;
use novel_core::backup;
use novel_core::files::scene_file_text;
use novel_core::novel::{Access, Novel};
use novel_core::store::{self, Check};
use novel_test_server::{BlockingTestServer, RecordedRequest, Reply, Rule, Script, TestServer};
use rusqlite::{Connection, OpenFlags};

const PLAN_MS: u64 = 120;
const EXTRACT_MS: u64 = 120;
const CHUNK_MS: u64 = 2;
const REVISER: &str = "You revise one scene";
const LEAK: &str = "She didn't realize that the watch captain had already seen her.";

/// A small deterministic generator (SplitMix64): a seed replays a whole run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..=max`.
    fn upto(&mut self, max: u64) -> u64 {
        self.next() % (max + 1)
    }
}

/// Where a kill is aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Aim {
    Opening,
    Planning,
    Tools,
    Writing,
    Revising,
    Extracting,
    /// Just after the commit is seen in the database: between the commit and the file writes.
    AfterCommit,
    /// Between the extraction's answer and the commit (the time it takes is measured by the
    /// after-commit kills).
    Committing,
    Backup,
}

const AIMS: [Aim; 9] = [
    Aim::Opening,
    Aim::Planning,
    Aim::Tools,
    Aim::Writing,
    Aim::Revising,
    Aim::Extracting,
    Aim::AfterCommit,
    Aim::Committing,
    Aim::Backup,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Plan,
    Write,
    Revise,
    Extract,
}

fn kind(r: &RecordedRequest) -> Kind {
    let body = r.body.to_string();
    if body.contains(EXTRACTION) {
        Kind::Extract
    } else if body.contains(PLAN) {
        Kind::Plan
    } else if body.contains(REVISER) {
        Kind::Revise
    } else {
        Kind::Write
    }
}

/// Answers valid for any tick: a plan that reads memory and adds one fact (so the tools stage
/// writes), prose with a POV leak (so every tick is revised), a clean revision, an extraction.
/// `iteration` keeps facts and titles unique across servers.
fn script(iteration: u32) -> Script {
    let plan = serde_json::json!({
        "rationale": "Keep the pressure on.",
        "scene_intention": "Tamsin waits out the watch under the quay.",
        "pov_character": "C0", "target_location": "L0",
        "actions": [
            {"id": "recall", "tool": "memory.search", "args": {"query": "harbor watch"}, "reason": "what is known"},
            {"tool": "lore.add", "args": {"fact": format!("Tide bell rule {iteration}-{{{{n}}}}: the bells ring before the watch."), "keywords": [format!("bell {iteration}-{{{{n}}}}")]}, "reason": "world rule", "dependencies": ["recall"]}
        ],
        "expected_outcomes": ["Tamsin stays hidden"]
    });
    let extraction = serde_json::json!({
        "title": format!("Under the Quay {iteration}-{{{{n}}}}"),
        "summary": ["Tamsin hides under the quay.", "The watch passes.", "She moves on."],
        "tension": 5, "location": "L0",
        "character_updates": [{"id": "C0", "changes": {"emotional_state": format!("wary {iteration}-{{{{n}}}}")}}]
    });
    let prose = story_fixture("prose.txt");
    Script::new()
        .rule(Rule::when(EXTRACTION).reply(Reply::delay(
            EXTRACT_MS,
            Reply::text(extraction.to_string()),
        )))
        .rule(Rule::when(PLAN).reply(Reply::delay(PLAN_MS, Reply::text(plan.to_string()))))
        .rule(
            Rule::when(REVISER).reply(
                Reply::text(format!("{prose}\n\nMarker {iteration}-{{{{n}}}}."))
                    .chunk_delay_ms(CHUNK_MS),
            ),
        )
        .rule(Rule::any().reply(Reply::text(format!("{prose}\n\n{LEAK}")).chunk_delay_ms(CHUNK_MS)))
}

/// How long one streamed answer takes (the server sends about 20 characters a chunk).
fn stream_ms() -> u64 {
    (story_fixture("prose.txt").len() as u64 / 20 + 4) * CHUNK_MS
}

/// Records when each request reached the server, polling every millisecond.
struct Arrivals {
    times: Arc<Mutex<Vec<Instant>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Arrivals {
    fn watch(server: &Arc<BlockingTestServer>) -> Arrivals {
        let times = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (times, stop, server) = (times.clone(), stop.clone(), server.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let n = server.request_count();
                    let mut t = times.lock().unwrap();
                    while t.len() < n {
                        t.push(Instant::now());
                    }
                    drop(t);
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        };
        Arrivals {
            times,
            stop,
            thread: Some(thread),
        }
    }

    fn count(&self) -> usize {
        self.times.lock().unwrap().len()
    }

    fn at(&self, i: usize) -> Instant {
        self.times.lock().unwrap()[i]
    }
}

impl Drop for Arrivals {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the harness knows of the story between kills.
#[derive(Default)]
struct Known {
    tick: u32,
    dump: String,
    /// Prose of every scene seen committed, by tick.
    prose: BTreeMap<u32, String>,
}

#[derive(Default)]
struct Tally {
    kills: u32,
    by_stage: BTreeMap<&'static str, u32>,
    by_aim: BTreeMap<String, u32>,
    files_behind: u32,
    committed_in_flight: u32,
    backups_checked: u32,
}

fn spawn(dir: &Path, config: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_novel"))
        .env("NOVEL_AGENT_CONFIG_DIR", config)
        .env("NOVEL_LOG", "error")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until request `i` (counting from `from`) of kind `want` has arrived; its arrival.
fn wait_for(
    server: &BlockingTestServer,
    arrivals: &Arrivals,
    child: &mut Child,
    want: Kind,
) -> Instant {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = 0;
    loop {
        let n = arrivals.count();
        if n > seen {
            let requests = server.requests();
            if let Some(i) = (seen..n.min(requests.len())).find(|&i| kind(&requests[i]) == want) {
                return arrivals.at(i);
            }
            seen = n.min(requests.len());
        }
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            panic!("`novel` exited ({status}) before a {want:?} request: {err}");
        }
        assert!(Instant::now() < deadline, "no {want:?} request in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Waits until the database shows a tick after `tick` committed; when it was seen.
fn wait_for_commit(db: &Path, tick: u32, child: &mut Child) -> Instant {
    let conn = read_only(db);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let now: u32 = conn
            .query_row("SELECT current_tick FROM story_state", [], |r| r.get(0))
            .unwrap();
        if now > tick {
            return Instant::now();
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "`novel` exited before committing"
        );
        assert!(Instant::now() < deadline, "no commit in 60 s");
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

fn read_only(db: &Path) -> Connection {
    Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

fn column(conn: &Connection, sql: &str) -> Vec<u32> {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Where a kill landed, from the requests of the tick in flight (none yet: still opening or
/// gathering) and when each arrived.
fn stage_of(
    requests: &[RecordedRequest],
    arrivals: &[Instant],
    killed_at: Instant,
) -> &'static str {
    let Some((last, arrived)) = requests.iter().zip(arrivals).next_back() else {
        return "opening / gathering";
    };
    let since = killed_at.saturating_duration_since(*arrived).as_millis() as u64;
    match kind(last) {
        Kind::Plan if since < PLAN_MS => "planning",
        Kind::Plan => "tools",
        Kind::Write if since < stream_ms() => "writing",
        Kind::Revise if since < stream_ms() => "revising",
        Kind::Write | Kind::Revise => "checking",
        Kind::Extract if since < EXTRACT_MS => "extracting",
        Kind::Extract => "committing",
    }
}

/// The checks after every kill; returns whether files lagged behind the database before the
/// next open, and how many ticks the killed process committed.
fn check(dir: &Path, known: &mut Known) -> (bool, u32) {
    let db = dir.join("novel.db");
    let conn = read_only(&db);
    let integrity: Vec<String> = {
        let mut stmt = conn.prepare("PRAGMA integrity_check").unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(integrity, vec!["ok".to_string()], "integrity_check");

    let tick: u32 = conn
        .query_row("SELECT current_tick FROM story_state", [], |r| r.get(0))
        .unwrap();
    let expected: Vec<u32> = (1..=tick).collect();
    assert_eq!(
        column(&conn, "SELECT tick FROM ticks ORDER BY tick"),
        expected,
        "ticks rows"
    );
    assert_eq!(
        column(&conn, "SELECT tick FROM scenes ORDER BY tick"),
        expected,
        "scene rows"
    );
    assert!(
        tick >= known.tick,
        "committed tick {} was lost (now {tick})",
        known.tick
    );
    let dump = store::dump_story(&conn).unwrap();
    if tick == known.tick {
        assert!(
            known.dump.is_empty() || dump == known.dump,
            "a kill that committed nothing changed the story"
        );
    }
    let scenes = store::list_scenes(&conn).unwrap();
    for scene in &scenes {
        match known.prose.get(&scene.tick) {
            Some(prose) => assert_eq!(&scene.prose, prose, "scene {} changed", scene.tick),
            None => {
                known.prose.insert(scene.tick, scene.prose.clone());
            }
        }
    }
    assert_eq!(known.prose.len(), scenes.len(), "a committed scene is gone");
    let newly = tick - known.tick;
    known.tick = tick;
    known.dump = dump;

    // Files before the next open: are any behind the database?
    let behind = scenes.iter().any(|s| {
        std::fs::read_to_string(dir.join(format!("scenes/scene_{:03}.md", s.tick))).ok()
            != Some(scene_file_text(&s.title, &s.summary, &s.prose))
    }) || (1..=tick).any(|t| !dir.join(format!("plans/plan_{t:03}.json")).is_file());
    drop(conn);

    // The next open for writing brings them in line.
    drop(Novel::open(dir, Access::Write).unwrap());
    for s in &scenes {
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("scenes/scene_{:03}.md", s.tick))).unwrap(),
            scene_file_text(&s.title, &s.summary, &s.prose),
            "scene file {}",
            s.tick
        );
        let plan: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("plans/plan_{:03}.json", s.tick))).unwrap(),
        )
        .unwrap();
        assert_eq!(plan["tick"], s.tick);
    }
    for sub in ["scenes", "plans"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let tick_of = name
                .trim_start_matches("scene_")
                .trim_start_matches("plan_")
                .split('.')
                .next()
                .and_then(|n| n.parse::<u32>().ok());
            assert!(!name.contains(".tmp-"), "{sub}/{name} left behind");
            if let Some(t) = tick_of {
                assert!(
                    t <= tick,
                    "{sub}/{name} is presented though tick {t} is not committed"
                );
            }
        }
    }
    (behind, newly)
}

/// Every backup listed passes integrity_check.
fn check_backups(dir: &Path) -> u32 {
    let backups = backup::list(dir).unwrap();
    for b in &backups {
        backup::verify(&b.path, Check::Full)
            .unwrap_or_else(|e| panic!("{} is listed but broken: {e}", b.path.display()));
    }
    backups.len() as u32
}

#[test]
fn sigkill_in_every_stage_of_a_tick_loses_and_corrupts_nothing() {
    let kills: u32 = std::env::var("NOVEL_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let seed: u64 = std::env::var("NOVEL_KILL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_CAFE);
    let mut rng = Rng(seed);
    let started = Instant::now();
    let (tmp, dir) = common::new_novel();
    let mut known = Known::default();
    let mut tally = Tally::default();
    let mut opening_ms = 150u64;
    // From the extraction request to the commit; refined by every after-commit kill.
    let mut commit_ms = EXTRACT_MS + 100;
    check(&dir, &mut known);

    for k in 0..kills {
        let aim = AIMS[(k as usize) % AIMS.len()];
        let server = Arc::new(TestServer::start_blocking(script(k)).unwrap());
        let config = provider_config(tmp.path(), &server.base_url());
        let arrivals = Arrivals::watch(&server);
        let spawned = Instant::now();
        let args: &[&str] = if aim == Aim::Backup {
            &["backup"]
        } else {
            &["run", "--n", "1000"]
        };
        let mut child = spawn(&dir, &config, args);
        let kill_at = match aim {
            Aim::Opening | Aim::Backup => spawned + Duration::from_millis(rng.upto(opening_ms)),
            Aim::Planning => {
                wait_for(&server, &arrivals, &mut child, Kind::Plan)
                    + Duration::from_millis(rng.upto(PLAN_MS))
            }
            Aim::Tools => {
                wait_for(&server, &arrivals, &mut child, Kind::Plan)
                    + Duration::from_millis(PLAN_MS + rng.upto(15))
            }
            Aim::Writing => {
                wait_for(&server, &arrivals, &mut child, Kind::Write)
                    + Duration::from_millis(rng.upto(stream_ms()))
            }
            Aim::Revising => {
                wait_for(&server, &arrivals, &mut child, Kind::Revise)
                    + Duration::from_millis(rng.upto(stream_ms()))
            }
            Aim::Extracting => {
                wait_for(&server, &arrivals, &mut child, Kind::Extract)
                    + Duration::from_millis(rng.upto(EXTRACT_MS))
            }
            Aim::AfterCommit => {
                let asked = wait_for(&server, &arrivals, &mut child, Kind::Extract);
                let seen = wait_for_commit(&dir.join("novel.db"), known.tick, &mut child);
                commit_ms = (commit_ms + seen.duration_since(asked).as_millis() as u64) / 2;
                seen + Duration::from_micros(rng.upto(3000))
            }
            Aim::Committing => {
                wait_for(&server, &arrivals, &mut child, Kind::Extract)
                    + Duration::from_millis(
                        EXTRACT_MS + rng.upto(commit_ms.saturating_sub(EXTRACT_MS)),
                    )
            }
        };
        sleep_until(kill_at);
        let killed_at = Instant::now();
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let requests = server.requests();
        let times: Vec<Instant> = arrivals.times.lock().unwrap().clone();
        drop(arrivals);
        if let Some(first) = times.first() {
            // Aim the next opening kills at the time this build takes to get going.
            opening_ms = (opening_ms + first.duration_since(spawned).as_millis() as u64) / 2;
        }
        let (behind, newly) = check(&dir, &mut known);
        tally.backups_checked += check_backups(&dir);
        // Each committed tick asked for one extraction; what came after the last of those is
        // the tick in flight.
        let extracts: Vec<usize> = (0..requests.len())
            .filter(|&i| kind(&requests[i]) == Kind::Extract)
            .collect();
        let start = match newly {
            0 => 0,
            n => extracts.get(n as usize - 1).map_or(0, |i| i + 1),
        };
        let landed = match aim {
            Aim::Backup => "backup",
            _ if start < requests.len() || newly == 0 => stage_of(
                &requests[start.min(requests.len())..],
                &times[start.min(times.len())..],
                killed_at,
            ),
            _ if behind => "after commit, files not yet written",
            _ => "after commit, files written",
        };
        tally.kills += 1;
        *tally.by_stage.entry(landed).or_default() += 1;
        *tally.by_aim.entry(format!("{aim:?}")).or_default() += 1;
        tally.files_behind += u32::from(behind);
        tally.committed_in_flight += newly;
    }

    // The next uninterrupted run continues from the last committed tick.
    let server = TestServer::start_blocking(script(kills)).unwrap();
    let config = provider_config(tmp.path(), &server.base_url());
    let out = Command::new(env!("CARGO_BIN_EXE_novel"))
        .env("NOVEL_AGENT_CONFIG_DIR", &config)
        .arg("-C")
        .arg(&dir)
        .args(["run", "--n", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = known.tick;
    assert!(stdout.contains(&format!("Tick {}:", last + 1)), "{stdout}");
    assert!(stdout.contains(&format!("Tick {}:", last + 2)), "{stdout}");
    check(&dir, &mut known);
    assert_eq!(known.tick, last + 2);

    let elapsed = started.elapsed();
    eprintln!("\n== crash harness: seed {seed:#x}");
    eprintln!("kills: {} in {:.1} s", tally.kills, elapsed.as_secs_f64());
    eprintln!("extraction request to commit: ~{commit_ms} ms");
    eprintln!("aimed at: {:?}", tally.by_aim);
    eprintln!("landed in:");
    for (stage, n) in &tally.by_stage {
        eprintln!("  {stage:<36} {n}");
    }
    eprintln!(
        "integrity failures: 0; half ticks: 0; lost committed ticks: 0 (all checked after each kill)"
    );
    eprintln!(
        "ticks committed: {} ({} during kill runs); kills that left files behind the database (repaired on open): {}; backup verifications (every listed backup after every kill): {}",
        known.tick, tally.committed_in_flight, tally.files_behind, tally.backups_checked
    );
    assert_eq!(tally.kills, kills);
    if kills >= AIMS.len() as u32 {
        for aim in AIMS {
            assert!(tally.by_aim.contains_key(&format!("{aim:?}")), "{aim:?}");
        }
    }
}
