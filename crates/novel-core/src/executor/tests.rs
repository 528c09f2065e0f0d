//! Behaviour of the executor against a scripted runner, on tokio's paused clock so that
//! backoff, timeouts and overlap are measured in exact virtual milliseconds.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::{Instant, sleep};

use super::*;

#[derive(Clone)]
enum Step {
    Ok(u64),
    Transient(u64),
    Permanent(u64),
    Hang,
}

#[derive(Debug, Clone, PartialEq)]
enum Event {
    Start(String),
    Finish(String),
}

/// A runner that plays a script per action id (default: succeed after 10 ms) and records what
/// it was asked, when, and how many calls overlapped.
struct Script {
    steps: RefCell<HashMap<String, VecDeque<Step>>>,
    events: RefCell<Vec<(u64, Event)>>,
    inputs: RefCell<HashMap<String, ActionInputs>>,
    in_flight: Cell<usize>,
    max_in_flight: Cell<usize>,
    origin: Instant,
}

impl Script {
    fn new() -> Self {
        Self {
            steps: RefCell::default(),
            events: RefCell::default(),
            inputs: RefCell::default(),
            in_flight: Cell::new(0),
            max_in_flight: Cell::new(0),
            origin: Instant::now(),
        }
    }

    fn with(self, id: &str, steps: &[Step]) -> Self {
        self.steps
            .borrow_mut()
            .insert(id.to_owned(), steps.iter().cloned().collect());
        self
    }

    fn log(&self, event: Event) {
        let at = u64::try_from(self.origin.elapsed().as_millis()).unwrap();
        self.events.borrow_mut().push((at, event));
    }

    fn events(&self) -> Vec<Event> {
        self.events
            .borrow()
            .iter()
            .map(|(_, e)| e.clone())
            .collect()
    }

    fn position(&self, event: &Event) -> usize {
        self.events()
            .iter()
            .position(|e| e == event)
            .unwrap_or_else(|| panic!("{event:?} never happened"))
    }

    fn starts_of(&self, id: &str) -> Vec<u64> {
        self.events
            .borrow()
            .iter()
            .filter(|(_, e)| *e == Event::Start(id.to_owned()))
            .map(|(at, _)| *at)
            .collect()
    }
}

/// Decrements the in-flight count even when the executor drops (cancels) the call.
struct InFlight<'a>(&'a Cell<usize>);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

impl ActionRunner for Script {
    async fn run(&self, action: &ExecAction, inputs: &ActionInputs) -> Result<Value, ToolFailure> {
        let step = self
            .steps
            .borrow_mut()
            .get_mut(&action.id)
            .and_then(VecDeque::pop_front)
            .unwrap_or(Step::Ok(10));
        self.inputs
            .borrow_mut()
            .insert(action.id.clone(), inputs.clone());
        self.log(Event::Start(action.id.clone()));
        self.in_flight.set(self.in_flight.get() + 1);
        self.max_in_flight
            .set(self.max_in_flight.get().max(self.in_flight.get()));
        let _guard = InFlight(&self.in_flight);
        let result = match step {
            Step::Ok(ms) => {
                sleep(Duration::from_millis(ms)).await;
                Ok(json!({ "from": action.id }))
            }
            Step::Transient(ms) => {
                sleep(Duration::from_millis(ms)).await;
                Err(ToolFailure::transient("busy"))
            }
            Step::Permanent(ms) => {
                sleep(Duration::from_millis(ms)).await;
                Err(ToolFailure::permanent("bad args"))
            }
            Step::Hang => std::future::pending().await,
        };
        self.log(Event::Finish(action.id.clone()));
        result
    }
}

fn act(id: &str, tool: &str, required: bool, deps: &[&str]) -> ExecAction {
    ExecAction {
        id: id.to_owned(),
        tool: tool.to_owned(),
        args: json!({ "for": id }),
        required,
        dependencies: deps.iter().map(|d| (*d).to_owned()).collect(),
    }
}

fn config() -> ExecutorConfig {
    ExecutorConfig {
        soft_action_limit: 100,
        ..ExecutorConfig::default()
    }
}

async fn run(actions: &[ExecAction], script: &Script, cfg: &ExecutorConfig) -> ExecutionReport {
    execute(actions, script, &mut HealthBook::new(), cfg)
        .await
        .unwrap()
}

fn state(report: &ExecutionReport, id: &str) -> ActionState {
    report.result(id).unwrap().state
}

fn error(report: &ExecutionReport, id: &str) -> String {
    report.result(id).unwrap().error.clone().unwrap_or_default()
}

fn start(id: &str) -> Event {
    Event::Start(id.to_owned())
}

fn finish(id: &str) -> Event {
    Event::Finish(id.to_owned())
}

#[tokio::test(start_paused = true)]
async fn diamond_runs_in_dependency_order_and_passes_outputs() {
    let actions = [
        act("d", "t", true, &["b", "c"]),
        act("c", "t", true, &["a"]),
        act("b", "t", true, &["a"]),
        act("a", "t", true, &[]),
    ];
    let script = Script::new();
    let report = run(&actions, &script, &config()).await;

    assert!(report.success);
    let ids: Vec<_> = report.results.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["d", "c", "b", "a"], "results keep the input order");
    assert!(script.position(&finish("a")) < script.position(&start("b")));
    assert!(script.position(&finish("a")) < script.position(&start("c")));
    assert!(script.position(&finish("b")) < script.position(&start("d")));
    assert!(script.position(&finish("c")) < script.position(&start("d")));
    // Siblings run together, the earlier input first.
    assert!(script.position(&start("c")) < script.position(&start("b")));
    assert!(script.position(&start("b")) < script.position(&finish("c")));
    assert_eq!(script.starts_of("d"), [20]);

    let d_inputs = script.inputs.borrow()["d"].clone();
    assert_eq!(d_inputs["b"], Some(json!({ "from": "b" })));
    assert_eq!(d_inputs["c"], Some(json!({ "from": "c" })));
    assert_eq!(d_inputs.len(), 2);
    assert!(script.inputs.borrow()["a"].is_empty());
}

#[tokio::test(start_paused = true)]
async fn cycle_is_rejected_with_its_path_and_nothing_runs() {
    let script = Script::new();
    let actions = [
        act("x", "t", true, &[]),
        act("a", "t", true, &["b"]),
        act("b", "t", true, &["a"]),
    ];
    let err = execute(&actions, &script, &mut HealthBook::new(), &config())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        ExecutorError::Cycle {
            path: vec!["a".into(), "b".into(), "a".into()]
        }
    );

    let selfish = [act("s", "t", true, &["s"])];
    let err = execute(&selfish, &script, &mut HealthBook::new(), &config())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        ExecutorError::Cycle {
            path: vec!["s".into(), "s".into()]
        }
    );
    assert!(script.events().is_empty());
}

#[tokio::test(start_paused = true)]
async fn invalid_plans_are_rejected_before_anything_runs() {
    let script = Script::new();
    let cases = [
        (
            vec![act("a", "t", true, &[]), act("b", "t", true, &["ghost"])],
            config(),
            ExecutorError::UnknownDependency {
                action: "b".into(),
                dependency: "ghost".into(),
            },
        ),
        (
            vec![act("a", "t", true, &[]), act("a", "u", false, &[])],
            config(),
            ExecutorError::DuplicateId("a".into()),
        ),
        (
            vec![act("a", "t", true, &[]), act(" ", "t", true, &[])],
            config(),
            ExecutorError::EmptyId { index: 1 },
        ),
        (
            vec![act("a", "", true, &[])],
            config(),
            ExecutorError::EmptyTool { action: "a".into() },
        ),
        (
            vec![act("a", "t", true, &[])],
            ExecutorConfig {
                max_concurrency: 0,
                ..config()
            },
            ExecutorError::InvalidConfig("max_concurrency must be at least 1".into()),
        ),
    ];
    for (actions, cfg, expected) in cases {
        let err = execute(&actions, &script, &mut HealthBook::new(), &cfg)
            .await
            .unwrap_err();
        assert_eq!(err, expected);
    }
    assert!(script.events().is_empty());
}

#[tokio::test(start_paused = true)]
async fn independent_actions_overlap_up_to_the_concurrency_limit() {
    // (actions, limit) -> (most in flight, virtual ms for the plan) with 100 ms per action.
    for (n, limit, most, elapsed) in [(6, 4, 4, 200), (2, 4, 2, 100), (3, 1, 1, 300)] {
        let ids: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
        let actions: Vec<_> = ids.iter().map(|id| act(id, "t", true, &[])).collect();
        let script = ids
            .iter()
            .fold(Script::new(), |s, id| s.with(id, &[Step::Ok(100)]));
        let cfg = ExecutorConfig {
            max_concurrency: limit,
            ..config()
        };
        let report = run(&actions, &script, &cfg).await;
        assert!(report.success);
        assert_eq!(script.max_in_flight.get(), most, "n={n} limit={limit}");
        assert_eq!(report.duration_ms, elapsed, "n={n} limit={limit}");
    }
}

#[tokio::test(start_paused = true)]
async fn transient_failures_are_retried_with_exponential_backoff() {
    let script = Script::new().with("a", &[Step::Transient(0), Step::Transient(0), Step::Ok(0)]);
    let mut health = HealthBook::new();
    let began = Instant::now();
    let report = execute(&[act("a", "t", true, &[])], &script, &mut health, &config())
        .await
        .unwrap();

    assert!(report.success);
    let a = report.result("a").unwrap();
    assert_eq!(a.state, ActionState::Succeeded);
    assert_eq!(a.attempts, 3);
    assert_eq!(script.starts_of("a"), [0, 100, 300]);
    assert_eq!(began.elapsed(), Duration::from_millis(300));
    assert_eq!(a.duration_ms, 300);
    assert_eq!(health.state("t"), ToolHealth::Healthy);
}

#[test]
fn backoff_doubles_per_attempt() {
    let policy = RetryPolicy::default();
    let delays: Vec<_> = (1..=4).map(|a| policy.delay_after(a).as_millis()).collect();
    assert_eq!(delays, [100, 200, 400, 800]);
    assert!(!policy.exhausted(2));
    assert!(policy.exhausted(3));
}

#[tokio::test(start_paused = true)]
async fn permanent_failure_is_not_retried() {
    let script = Script::new().with("a", &[Step::Permanent(0), Step::Ok(0)]);
    let mut health = HealthBook::new();
    let report = execute(
        &[act("a", "t", false, &[])],
        &script,
        &mut health,
        &config(),
    )
    .await
    .unwrap();

    assert!(report.success, "an optional failure does not fail the plan");
    let a = report.result("a").unwrap();
    assert_eq!(a.state, ActionState::Failed);
    assert_eq!(a.attempts, 1);
    assert_eq!(a.error.as_deref(), Some("bad args"));
    assert_eq!(script.starts_of("a"), [0]);
    assert_eq!(health.state("t"), ToolHealth::Healthy);
    assert!(report.disabled_tools.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_attempt_is_retried() {
    let script = Script::new().with("a", &[Step::Hang, Step::Ok(0)]);
    let cfg = ExecutorConfig {
        tool_timeout: Duration::from_secs(1),
        ..config()
    };
    let report = run(&[act("a", "t", true, &[])], &script, &cfg).await;

    assert!(report.success);
    assert_eq!(report.result("a").unwrap().attempts, 2);
    assert_eq!(script.starts_of("a"), [0, 1100]);
    assert_eq!(script.in_flight.get(), 0, "the hung call was dropped");
}

#[tokio::test(start_paused = true)]
async fn timing_out_every_attempt_ends_timed_out() {
    let script = Script::new().with("a", &[Step::Hang, Step::Hang, Step::Hang]);
    let cfg = ExecutorConfig {
        tool_timeout: Duration::from_secs(1),
        ..config()
    };
    let report = run(&[act("a", "t", false, &[])], &script, &cfg).await;

    let a = report.result("a").unwrap();
    assert_eq!(a.state, ActionState::TimedOut);
    assert_eq!(a.attempts, 3);
    assert_eq!(a.error.as_deref(), Some("tool exceeded 1000 ms timeout"));
    assert_eq!(a.duration_ms, 1000 + 100 + 1000 + 200 + 1000);
}

#[tokio::test(start_paused = true)]
async fn required_failure_stops_the_plan_but_lets_in_flight_work_finish() {
    let actions = [
        act("slow", "t", false, &[]),
        act("bad", "u", true, &[]),
        act("after_bad", "t", true, &["bad"]),
        act("later", "t", false, &[]),
    ];
    let script = Script::new()
        .with("slow", &[Step::Ok(500)])
        .with("bad", &[Step::Permanent(100)]);
    let cfg = ExecutorConfig {
        max_concurrency: 2,
        ..config()
    };
    let report = run(&actions, &script, &cfg).await;

    assert!(!report.success);
    assert_eq!(report.failed_required.as_deref(), Some("bad"));
    assert_eq!(state(&report, "bad"), ActionState::Failed);
    assert_eq!(state(&report, "slow"), ActionState::Succeeded);
    assert_eq!(state(&report, "after_bad"), ActionState::Skipped);
    assert_eq!(error(&report, "after_bad"), "dependency failed: bad");
    assert_eq!(state(&report, "later"), ActionState::Skipped);
    assert_eq!(error(&report, "later"), "plan stopped");
    assert!(script.starts_of("after_bad").is_empty());
    assert!(script.starts_of("later").is_empty());
    assert_eq!(report.duration_ms, 500, "the executor waited for `slow`");
}

#[tokio::test(start_paused = true)]
async fn optional_failure_continues_and_the_dependent_gets_none() {
    let actions = [
        act("opt", "t", false, &[]),
        act("user", "u", true, &["opt"]),
    ];
    let script = Script::new().with("opt", &[Step::Permanent(0)]);
    let report = run(&actions, &script, &config()).await;

    assert!(report.success);
    assert_eq!(report.failed_required, None);
    assert_eq!(state(&report, "opt"), ActionState::Failed);
    assert_eq!(state(&report, "user"), ActionState::Succeeded);
    let inputs = script.inputs.borrow()["user"].clone();
    assert_eq!(inputs.get("opt"), Some(&None));
}

#[test]
fn health_book_follows_the_seed_transitions() {
    use FailureKind::{Permanent, Transient};
    let mut book = HealthBook::new();
    assert_eq!(book.state("t"), ToolHealth::Healthy);

    book.record_failure("t", Transient, false);
    assert_eq!(book.state("t"), ToolHealth::TemporaryFailure);
    book.record_success("t");
    assert_eq!(book.state("t"), ToolHealth::Healthy);

    book.record_failure("t", Permanent, true);
    book.record_failure("t", Permanent, true);
    assert_eq!(book.state("t"), ToolHealth::Healthy, "bad args alone");
    book.record_failure("t", Permanent, true);
    assert_eq!(book.state("t"), ToolHealth::Degraded);
    book.record_success("t");
    assert_eq!(book.state("t"), ToolHealth::Healthy);

    for _ in 0..3 {
        book.record_failure("t", Permanent, true);
    }
    assert_eq!(book.state("t"), ToolHealth::Degraded);
    book.record_failure("t", Transient, false);
    book.record_failure("t", Permanent, true);
    assert_eq!(book.state("t"), ToolHealth::Degraded);
    book.record_failure("t", Transient, false);
    assert_eq!(book.state("t"), ToolHealth::PermanentFailure);
    book.record_success("t");
    assert_eq!(book.state("t"), ToolHealth::PermanentFailure, "sticky");
    assert_eq!(book.disabled(), ["t"]);
}

#[tokio::test(start_paused = true)]
async fn three_failed_actions_degrade_a_tool_and_a_success_heals_it() {
    let mut health = HealthBook::new();
    let bad: Vec<_> = ["x", "y", "z"]
        .iter()
        .map(|id| act(id, "t", false, &[]))
        .collect();
    let script = ["x", "y", "z"]
        .iter()
        .fold(Script::new(), |s, id| s.with(id, &[Step::Permanent(0)]));
    execute(&bad[..2], &script, &mut health, &config())
        .await
        .unwrap();
    assert_eq!(health.state("t"), ToolHealth::Healthy);
    let report = execute(&bad[2..], &script, &mut health, &config())
        .await
        .unwrap();
    assert_eq!(health.state("t"), ToolHealth::Degraded);
    assert!(report.disabled_tools.is_empty());

    let good = [act("ok", "t", true, &[])];
    execute(&good, &script, &mut health, &config())
        .await
        .unwrap();
    assert_eq!(health.state("t"), ToolHealth::Healthy);
}

#[tokio::test(start_paused = true)]
async fn exhausted_retries_disable_the_tool_for_later_plans() {
    let mut health = HealthBook::new();
    let script = Script::new().with(
        "first",
        &[Step::Transient(0), Step::Transient(0), Step::Transient(0)],
    );
    let report = execute(
        &[act("first", "flaky", true, &[])],
        &script,
        &mut health,
        &config(),
    )
    .await
    .unwrap();
    assert!(!report.success);
    assert_eq!(report.failed_required.as_deref(), Some("first"));
    assert_eq!(report.result("first").unwrap().attempts, 3);
    assert_eq!(health.state("flaky"), ToolHealth::PermanentFailure);
    assert_eq!(report.disabled_tools, ["flaky"]);

    let second = [
        act("again", "flaky", false, &[]),
        act("other", "ok", true, &["again"]),
    ];
    let report = execute(&second, &script, &mut health, &config())
        .await
        .unwrap();
    let again = report.result("again").unwrap();
    assert_eq!(again.state, ActionState::Failed);
    assert_eq!(again.error.as_deref(), Some("tool disabled"));
    assert_eq!(again.attempts, 0);
    assert!(script.starts_of("again").is_empty());
    assert_eq!(state(&report, "other"), ActionState::Succeeded);
    assert_eq!(script.inputs.borrow()["other"].get("again"), Some(&None));
    assert_eq!(report.disabled_tools, ["flaky"]);
}

#[tokio::test(start_paused = true)]
async fn more_actions_than_the_soft_limit_add_a_warning() {
    let cfg = ExecutorConfig {
        soft_action_limit: 3,
        ..config()
    };
    let four: Vec<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|id| act(id, "t", true, &[]))
        .collect();
    let report = run(&four, &Script::new(), &cfg).await;
    assert!(report.success, "the limit is soft: everything still runs");
    assert_eq!(
        report.warnings,
        ["plan has 4 actions, more than the soft limit of 3"]
    );
    let report = run(&four[..3], &Script::new(), &cfg).await;
    assert!(report.warnings.is_empty());
}

#[tokio::test(start_paused = true)]
async fn plan_timeout_cancels_in_flight_work_and_skips_the_rest() {
    let actions = [
        act("quick", "t", true, &[]),
        act("stuck", "u", true, &[]),
        act("after", "t", true, &["stuck"]),
    ];
    let script = Script::new()
        .with("quick", &[Step::Ok(100)])
        .with("stuck", &[Step::Hang]);
    let cfg = ExecutorConfig {
        plan_timeout: Duration::from_secs(2),
        ..config()
    };
    let began = Instant::now();
    let report = run(&actions, &script, &cfg).await;

    assert_eq!(began.elapsed(), Duration::from_secs(2));
    assert!(!report.success);
    assert_eq!(report.failed_required, None);
    assert_eq!(state(&report, "quick"), ActionState::Succeeded);
    assert_eq!(state(&report, "stuck"), ActionState::TimedOut);
    assert_eq!(error(&report, "stuck"), "plan exceeded 2000 ms timeout");
    assert_eq!(report.result("stuck").unwrap().attempts, 1);
    assert_eq!(state(&report, "after"), ActionState::Skipped);
    assert_eq!(error(&report, "after"), "plan timed out");
    assert_eq!(script.in_flight.get(), 0, "the stuck call was cancelled");
    assert_eq!(report.warnings, ["plan exceeded 2000 ms timeout"]);
}

#[test]
fn health_and_reports_serialize_in_the_documented_spelling() {
    let mut book = HealthBook::new();
    book.record_failure("t", FailureKind::Transient, false);
    let value = serde_json::to_value(&book).unwrap();
    assert_eq!(value["t"]["state"], "temporaryFailure");
    let back: HealthBook = serde_json::from_value(value).unwrap();
    assert_eq!(back, book);

    let result = ActionResult {
        id: "a".into(),
        tool: "t".into(),
        args: json!({}),
        state: ActionState::TimedOut,
        output: None,
        error: None,
        attempts: 1,
        duration_ms: 5,
    };
    assert_eq!(serde_json::to_value(&result).unwrap()["state"], "timed_out");
}

#[tokio::test(start_paused = true)]
async fn an_empty_plan_succeeds() {
    let report = run(&[], &Script::new(), &config()).await;
    assert!(report.success);
    assert!(report.results.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_degraded_tool_is_given_a_longer_timeout() {
    let mut health = HealthBook::new();
    for _ in 0..3 {
        health.record_failure("slow_tool", FailureKind::Permanent, true);
    }
    assert_eq!(health.state("slow_tool"), ToolHealth::Degraded);
    assert_eq!(health.degraded(), ["slow_tool"]);
    let cfg = ExecutorConfig {
        tool_timeout: Duration::from_secs(1),
        ..config()
    };
    let actions = [act("a", "slow_tool", true, &[])];

    let script = Script::new().with("a", &[Step::Ok(1500)]);
    let report = execute(&actions, &script, &mut health, &cfg).await.unwrap();
    assert!(report.success, "1.5 s is within a degraded tool's 2 s");
    assert_eq!(report.result("a").unwrap().attempts, 1);
    assert_eq!(health.state("slow_tool"), ToolHealth::Healthy);

    let healthy = Script::new().with("a", &[Step::Ok(1500), Step::Ok(0)]);
    let report = execute(&actions, &healthy, &mut health, &cfg)
        .await
        .unwrap();
    assert_eq!(
        report.result("a").unwrap().attempts,
        2,
        "a healthy tool keeps the plain 1 s bound"
    );
}
