//! Ctrl-C during `novel run`, with a real SIGINT sent to the real binary while the writer's
//! answer is held back by the test server: one press lets the tick in flight commit and ends
//! the run; a second press cancels that tick and leaves the story exactly as it was. Ctrl-C
//! during `novel scene write` cancels the scene asked for: the book stays as it was.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::story::*;
use novel_test_server::{Reply, Rule, Script};

/// The clean script, with every scene's prose held back for `ms` so a tick is in flight.
fn slow_writer_script(ms: u64) -> Script {
    Script::new()
        .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
        .rule(Rule::when(PLAN).replies(replies("plans.json")))
        .rule(Rule::any().reply(Reply::delay(ms, Reply::text(story_fixture("prose.txt")))))
}

/// A running `novel run --n 5` whose standard error is read line by line as it comes.
struct Run {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Run {
    fn start(s: &Setup) -> Run {
        Run::start_with(s, &["run", "--n", "5"])
    }

    /// `novel ARGS` on the novel of `s`.
    fn start_with(s: &Setup, args: &[&str]) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_novel"))
            .env("NOVEL_AGENT_CONFIG_DIR", &s.config)
            .arg("-C")
            .arg(&s.dir)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr: ChildStderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Run {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -INT failed");
    }

    /// Waits until a line of standard error contains `needle`.
    fn wait_for_stderr(&mut self, needle: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.seen.iter().any(|l| l.contains(needle)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("no `{needle}` on stderr; saw: {:?}", self.seen),
            }
        }
    }

    /// Waits for the exit; returns the status, standard output and all of standard error.
    fn finish(mut self) -> (ExitStatus, String, String) {
        let output = self.child.wait_with_output().unwrap();
        // The reader thread drains the pipe and hangs up at its end.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        (
            output.status,
            String::from_utf8(output.stdout).unwrap(),
            self.seen.join("\n"),
        )
    }
}

/// Waits until the server has received the writer's (streamed) request of the first tick.
fn wait_for_writer_request(s: &Setup) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !s.server.requests().iter().any(|r| r.is_stream()) {
        assert!(
            Instant::now() < deadline,
            "the writer request never came; requests: {}",
            s.server.request_count()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn one_ctrl_c_lets_the_tick_in_flight_commit_then_stops_the_run() {
    let s = setup(slow_writer_script(1500));
    let mut run = Run::start(&s);
    wait_for_writer_request(&s);
    run.interrupt();
    run.wait_for_stderr("Stopping after this tick");
    let (status, stdout, stderr) = run.finish();

    assert!(status.success(), "exit {status}; stderr: {stderr}");
    assert!(stdout.contains("Tick 1: \"Low Tide\""), "{stdout}");
    assert!(!stdout.contains("Tick 2"), "{stdout}");
    assert_eq!(s.count("SELECT count(*) FROM scenes"), 1);
    assert_eq!(s.status()["current_tick"], 1);
    assert!(s.dir.join("scenes/scene_001.md").is_file());
    let writer_calls = s.server.requests().iter().filter(|r| r.is_stream()).count();
    assert_eq!(writer_calls, 1, "no second tick was started");
}

#[test]
fn a_second_ctrl_c_cancels_the_tick_and_leaves_the_story_unchanged() {
    let s = setup(slow_writer_script(30_000));
    let before = s.story_fingerprint();
    let started = Instant::now();
    let mut run = Run::start(&s);
    wait_for_writer_request(&s);
    run.interrupt();
    run.wait_for_stderr("Stopping after this tick");
    run.interrupt();
    let (status, stdout, stderr) = run.finish();

    assert!(
        started.elapsed() < Duration::from_secs(25),
        "the cancel did not cut the held-back writer call short"
    );
    assert!(!status.success(), "a cancelled run reports failure");
    assert!(
        stderr.contains("tick 1 was cancelled; the story is unchanged"),
        "{stderr}"
    );
    assert!(!stdout.contains("Tick 1"), "{stdout}");
    assert_eq!(s.count("SELECT count(*) FROM scenes"), 0);
    assert_eq!(s.story_fingerprint(), before);
    assert_eq!(s.status()["current_tick"], 0);
    assert!(!s.dir.join("scenes/scene_001.md").exists());
    assert!(
        !s.dir.join("errors/error_001.json").exists(),
        "a cancel is not a failure"
    );
}

#[test]
fn ctrl_c_while_the_agent_writes_a_scene_from_a_note_cancels_it_and_leaves_the_book_as_it_was() {
    const NOTE: &str = "Tamsin finds the tide table in the lamp room.";
    // Only the scene asked for from the note is held back; the book before it is the clean one.
    let s = setup(
        Script::new()
            .rule(
                Rule::when("the tide table in the lamp room").reply(Reply::delay(
                    20_000,
                    Reply::text(story_fixture("prose.txt")),
                )),
            )
            .rule(Rule::when(EXTRACTION).replies(replies("extractions.json")))
            .rule(Rule::when(PLAN).replies(replies("plans.json")))
            .rule(Rule::any().reply(Reply::text(story_fixture("prose.txt")))),
    );
    s.novel().args(["run", "-n", "2"]).assert().success();
    let story = s.story_fingerprint();
    let asked = s.server.request_count();

    let started = Instant::now();
    let run = Run::start_with(&s, &["scene", "write", "--after", "1", NOTE]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.server.request_count() == asked {
        assert!(Instant::now() < deadline, "the writer request never came");
        std::thread::sleep(Duration::from_millis(20));
    }
    run.interrupt();
    let (status, _stdout, stderr) = run.finish();

    assert!(
        started.elapsed() < Duration::from_secs(15),
        "the cancel did not cut the held-back writer call short"
    );
    assert!(
        status.code().is_some_and(|c| c != 0),
        "the command ends itself, reporting failure: {status}; stderr: {stderr}"
    );
    assert!(stderr.contains("was cancelled"), "{stderr}");
    assert!(stderr.contains("the book is unchanged"), "{stderr}");
    assert_eq!(s.story_fingerprint(), story);
    assert_eq!(
        s.count("SELECT count(*) FROM tick_failures"),
        0,
        "a cancel is not a failure"
    );
    let errors = std::fs::read_dir(s.dir.join("errors")).map_or(0, |d| d.count());
    assert_eq!(errors, 0, "no error file");
}
