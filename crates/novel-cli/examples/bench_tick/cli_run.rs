//! The real `novel` command, timed and watched from outside as a writer would run it: a new
//! novel (`novel new`), then `novel run --n 100` for its wall time and `novel run --n 300` with
//! the process's memory read from `/proc` while it writes (it should stay flat). Each is run
//! twice: with the local embedding model, as on a machine where it is installed (each tick then
//! embeds its new passages, and the model itself is loaded into the process), and with keyword
//! search only. What embedding costs a tick comes from the step timings every tick records in
//! novel.db, so it is the command's own figure, not a re-enactment.
//!
//! The binary measured is the `novel` next to this example (`target/release/novel` for a
//! release run); building the example does not build it, so the bench says how when it is
//! missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use novel_core::novel::{Access, Novel};
use novel_core::store;

/// The scenes at which the long run's memory is reported.
const CHECKPOINTS: [usize; 6] = [1, 10, 50, 100, 200, 300];
/// How often the running command's memory and progress are read.
const POLL: Duration = Duration::from_millis(50);

/// The `novel` binary built beside this example, or what to run to build it.
pub fn novel_binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    // target/<profile>/examples/bench_tick → target/<profile>/novel
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("the bench's own path has no parent folder")?;
    let novel = profile_dir.join("novel");
    let release = profile_dir.ends_with("release");
    let build = if release {
        "cargo build --release -p novel-cli"
    } else {
        "cargo build -p novel-cli"
    };
    if !novel.is_file() {
        return Err(format!(
            "the `novel` binary is not built at {}: run `{build}` first",
            novel.display()
        ));
    }
    Ok(novel)
}

/// Semantic search on (the machine's local model) or off (keywords only) for the child.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Embedding {
    LocalModel,
    KeywordsOnly,
}

impl Embedding {
    pub fn label(self) -> &'static str {
        match self {
            Embedding::LocalModel => "with the local embedding model",
            Embedding::KeywordsOnly => "keywords only",
        }
    }

    fn folder(self) -> &'static str {
        match self {
            Embedding::LocalModel => "model",
            Embedding::KeywordsOnly => "keywords",
        }
    }
}

/// One `novel` invocation set up against the test server.
pub struct Cli {
    pub binary: PathBuf,
    pub config_dir: PathBuf,
}

impl Cli {
    /// A config folder whose one provider profile is the test server.
    pub fn new(binary: PathBuf, dir: &Path, base_url: &str) -> Cli {
        let config_dir = dir.join("config");
        std::fs::create_dir_all(&config_dir).expect("a config folder");
        std::fs::write(
            config_dir.join("providers.toml"),
            format!(
                "default_profile = \"bench\"\n\n[[profile]]\nname = \"bench\"\nkind = \"openai-compatible\"\nbase_url = \"{base_url}\"\nmodel = \"bench-model\"\n"
            ),
        )
        .expect("providers.toml");
        Cli { binary, config_dir }
    }

    fn command(&self, embedding: Embedding) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.env("NOVEL_AGENT_CONFIG_DIR", &self.config_dir)
            .env_remove("NOVEL_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        if embedding == Embedding::KeywordsOnly {
            // A runtime library that is not there: the command searches by keywords alone.
            cmd.env(
                novel_embed::locate::RUNTIME_ENV,
                "/nonexistent/libonnxruntime.so",
            );
        }
        cmd
    }

    /// `novel new <dir> --seed <seed>`.
    pub fn new_novel(&self, dir: &Path, seed: &Path) {
        let out = self
            .command(Embedding::KeywordsOnly)
            .arg("new")
            .arg(dir)
            .arg("--seed")
            .arg(seed)
            .stderr(Stdio::piped())
            .output()
            .expect("`novel new` starts");
        assert!(
            out.status.success(),
            "`novel new` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `novel -C <dir> run --n <ticks>`, its memory read every [`POLL`] while it runs.
    pub fn run(&self, dir: &Path, ticks: u32, embedding: Embedding) -> Watched {
        let errors = dir.with_extension("stderr");
        let mut child = self
            .command(embedding)
            .arg("-C")
            .arg(dir)
            .args(["run", "--n", &ticks.to_string()])
            .stderr(std::fs::File::create(&errors).expect("a file for stderr"))
            .spawn()
            .expect("`novel run` starts");
        let started = Instant::now();
        let scenes = dir.join("scenes");
        let mut watched = Watched::default();
        let mut last = (0, 0, Duration::ZERO);
        let status = loop {
            if let Some(status) = child.try_wait().expect("the child's status") {
                break status;
            }
            if let Some((rss, hwm)) = memory_kb(child.id()) {
                watched.peak_kb = watched.peak_kb.max(hwm);
                let written = count_files(&scenes);
                last = (written, rss, started.elapsed());
                while watched.at.len() < CHECKPOINTS.len()
                    && written >= CHECKPOINTS[watched.at.len()]
                {
                    watched
                        .at
                        .push((CHECKPOINTS[watched.at.len()], rss, started.elapsed()));
                }
            }
            std::thread::sleep(POLL);
        };
        watched.wall = started.elapsed();
        assert!(
            status.success(),
            "`novel run --n {ticks}` failed: {}",
            std::fs::read_to_string(&errors).unwrap_or_default()
        );
        watched.at.retain(|(scene, _, _)| *scene <= ticks as usize);
        // The process may end between two reads: its last read stands for the end of the run.
        if watched
            .at
            .last()
            .is_none_or(|(scene, _, _)| *scene < last.0)
        {
            watched.at.push(last);
        }
        watched
    }
}

/// What was seen of one run from outside.
#[derive(Default)]
pub struct Watched {
    pub wall: Duration,
    /// (scenes written, RSS in kB, time since start) at each checkpoint reached.
    pub at: Vec<(usize, u64, Duration)>,
    /// The largest VmHWM read (the process's peak resident set, as of the last read).
    pub peak_kb: u64,
}

/// (VmRSS, VmHWM) of a live process, in kB.
fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

/// What each step cost the ticks of a finished novel, read from its tick records.
pub struct Recorded {
    /// Step → (p50, p95) in milliseconds.
    pub steps: BTreeMap<String, (f64, f64)>,
    pub passages_per_tick: f64,
    pub pending: usize,
}

pub fn recorded(dir: &Path) -> Recorded {
    let novel = Novel::open(dir, Access::Read).expect("the novel opens");
    let conn = novel.store().conn();
    let ticks = store::list_ticks(conn).expect("the tick records");
    // Timings are microseconds; a step a tick did not take has no entry and counts as zero.
    let keys: BTreeSet<&String> = ticks
        .iter()
        .filter_map(|t| t.timings.as_object())
        .flat_map(|o| o.keys())
        .collect();
    let steps = keys
        .into_iter()
        .map(|key| {
            let mut ms: Vec<f64> = ticks
                .iter()
                .map(|t| t.timings[key].as_f64().unwrap_or(0.0) / 1000.0)
                .collect();
            ms.sort_by(f64::total_cmp);
            let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
            (key.clone(), (at(0.5), at(0.95)))
        })
        .collect();
    let passages = store::count_chunks(conn).expect("the passage count");
    Recorded {
        steps,
        passages_per_tick: passages as f64 / ticks.len().max(1) as f64,
        pending: store::count_pending(conn).expect("the pending count"),
    }
}

/// Both runs for one embedding setting, printed as table rows.
/// Returns the long run's recorded step costs.
pub fn measure(cli: &Cli, tmp: &Path, seed: &Path, embedding: Embedding) -> Recorded {
    let short = tmp.join(format!("run100-{}", embedding.folder()));
    cli.new_novel(&short, seed);
    let hundred = cli.run(&short, 100, embedding);
    let long = tmp.join(format!("run300-{}", embedding.folder()));
    cli.new_novel(&long, seed);
    let watched = cli.run(&long, 300, embedding);
    let rss: Vec<String> = watched
        .at
        .iter()
        .map(|(scene, kb, _)| format!("{scene}: {:.1}", *kb as f64 / 1024.0))
        .collect();
    println!(
        "| {} | {:.1} s | {:.1} s | {} | {:.1} MB |",
        embedding.label(),
        hundred.wall.as_secs_f64(),
        watched.wall.as_secs_f64(),
        rss.join(", "),
        watched.peak_kb as f64 / 1024.0,
    );
    recorded(&long)
}
