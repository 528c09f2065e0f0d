//! `novel tick` and `novel run --n N`: ticks with a live stage line, a summary per committed
//! scene, and Ctrl-C handling — first press stops after the current tick, second cancels it
//! (a cancelled tick rolls back; nothing is half-committed).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use novel_core::checks::Severity;
use novel_core::clock::SystemClock;
use novel_core::run::{
    self, ErrorKind, Models, ReviewBy, RunControl, RunEvent, TickEvent, TickOptions,
};
use novel_core::views;
use novel_core::{Access, Novel};

use crate::cli::TickArgs;
use crate::output::say;

pub fn run(dir: &Path, n: u32, args: TickArgs, json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    super::semantic::attach(&mut novel);
    let next = novel.state()?.current_tick + 1;
    let failed = views::unresolved_failures(novel.store().conn())?
        .iter()
        .any(|f| f.tick == next);
    if let Some(wanted) = failed_tick_action(&args).filter(|_| !failed) {
        bail!("there is no failed tick to {wanted}: tick {next} has not failed");
    }
    if args.skip {
        novel_core::edits::skip_failed_tick(&mut novel, next)?;
        if json {
            return crate::output::json(&serde_json::json!({ "skipped": next }));
        }
        say!(
            "Gave up on the failed tick {next}; the story is unchanged and the next tick starts fresh."
        );
        return Ok(());
    }
    let limits = novel_llm::Limits {
        tokens: args.max_tokens,
        cost: args.max_cost,
    };
    let models = super::roles::models_for(&novel, args.profile.as_deref(), limits)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    if args.dry_run {
        return dry_run(&novel, &models, args.note.clone(), json, &runtime);
    }
    if args.keep {
        return keep(&mut novel, &models, json, &runtime);
    }
    run_ticks(&mut novel, &models, n, &args, json, &runtime)
}

/// What `--retry`, `--skip` or `--keep` asks to do with a failed tick, if any.
fn failed_tick_action(args: &TickArgs) -> Option<&'static str> {
    if args.skip {
        Some("skip")
    } else if args.keep {
        Some("keep")
    } else if args.retry {
        Some("retry")
    } else {
        None
    }
}

/// `--keep`: the failed draft of the next tick is kept over its checks.
fn keep(
    novel: &mut Novel,
    models: &Models,
    json: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let done = runtime.block_on(run::keep_failed_tick_draft(
        novel,
        models,
        &(),
        &run::CancelToken::new(),
        &SystemClock,
    ))?;
    let summary = run::TickSummary::from(&done);
    if json {
        return crate::output::json(&serde_json::json!({ "committed": [summary] }));
    }
    say!(
        "Tick {}: \"{}\" — {} words, kept as drafted{}",
        summary.tick,
        summary.title,
        summary.words,
        kept_note(&summary)
    );
    Ok(())
}

/// `n` ticks in a row with a live stage line; the summary of each as it is committed.
fn run_ticks(
    novel: &mut Novel,
    models: &Models,
    n: u32,
    args: &TickArgs,
    json: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let progress = Progress::new(json);
    let options = TickOptions {
        steering: args.note.clone(),
        retries: args.retries,
        reviewer: args.review.then(|| {
            ReviewBy(Arc::new(super::review::TerminalReviewer {
                bar: progress.bar.clone(),
            }))
        }),
        ..TickOptions::default()
    };
    let control = RunControl::new();
    stop_on_ctrl_c(runtime, control.clone());
    let on_event = |event: RunEvent| progress.show(event);
    let report = runtime.block_on(run::run_ticks(
        novel,
        models,
        n,
        &options,
        &control,
        &SystemClock,
        &on_event,
    ));
    progress.bar.finish_and_clear();
    if json {
        crate::output::json(&serde_json::json!({
            "committed": report.committed,
            "end": report.end,
            "error": report.failure.as_ref().map(|f| &f.text),
        }))?;
    }
    match report.failure {
        Some(failure) if failure.kind == ErrorKind::BudgetReached => bail!(
            "{}\nThe run paused there. Raise or remove the limit (--max-tokens / --max-cost for a run, or novel.toml's [budget]) and run again to go on.",
            failure.text
        ),
        Some(failure) => bail!("{}", failure.text),
        None => Ok(()),
    }
}

/// The first Ctrl-C stops the run after the current tick, the second cancels it.
fn stop_on_ctrl_c(runtime: &tokio::runtime::Runtime, control: RunControl) {
    runtime.spawn(async move {
        let mut presses = 0;
        while tokio::signal::ctrl_c().await.is_ok() {
            presses += 1;
            if presses == 1 {
                control.stop_after_current();
                crate::output::say_err!("\nStopping after this tick (Ctrl-C again cancels it; nothing is half-committed).");
            } else {
                control.cancel();
            }
        }
    });
}

/// The live stage line of a run and what it prints between ticks.
struct Progress {
    bar: ProgressBar,
    /// Words of the scene being written so far.
    words: AtomicU32,
    json: bool,
}

impl Progress {
    fn new(json: bool) -> Self {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} tick {prefix}: {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress {
            bar,
            words: AtomicU32::new(0),
            json,
        }
    }

    fn show(&self, event: RunEvent) {
        match event {
            RunEvent::Tick {
                index,
                total,
                event,
            } => self.stage(index, total, event),
            RunEvent::Retrying {
                attempt,
                retries,
                failure,
                ..
            } if !self.json => self.bar.suspend(|| {
                crate::output::say_err!(
                    "Tick {}: {} Trying a fresh draft ({attempt} of {retries}).",
                    failure
                        .tick
                        .map_or_else(|| "?".to_string(), |t| t.to_string()),
                    failure.message
                );
            }),
            RunEvent::TickCommitted { summary } if !self.json => {
                self.bar.suspend(|| committed(&summary));
            }
            _ => {}
        }
    }

    fn stage(&self, index: u32, total: u32, event: TickEvent) {
        match event {
            TickEvent::Started { tick } => {
                self.words.store(0, Ordering::Relaxed);
                self.bar.set_prefix(format!("{tick} ({index}/{total})"));
            }
            TickEvent::Stage { stage } => self.bar.set_message(stage.label().to_string()),
            TickEvent::ProseDelta { text } => {
                let n = text.split_whitespace().count() as u32;
                let w = self.words.fetch_add(n, Ordering::Relaxed) + n;
                self.bar.set_message(format!("writing (~{w} words)"));
            }
            _ => {}
        }
    }
}

/// The line of a committed tick and the models it used.
fn committed(summary: &run::TickSummary) {
    let cost = summary.usage.cost();
    say!(
        "Tick {}: \"{}\" — {} words, {} LLM calls, {} tokens{}{}",
        summary.tick,
        summary.title,
        summary.words,
        summary.calls,
        summary.tokens,
        if cost > 0.0 {
            format!(", cost {cost:.4}")
        } else {
            String::new()
        },
        kept_note(summary),
    );
    say!("  models: {}", summary.usage.models());
}

/// What a committed tick's line says of its checks: revised or not, and what the scene was kept
/// with, so a scene kept with problems never reads as clean.
fn kept_note(summary: &run::TickSummary) -> String {
    let (to_fix, worth_a_look) =
        summary
            .findings
            .iter()
            .fold((0, 0), |(v, w), f| match f.severity {
                Severity::Violation => (v + 1, w),
                Severity::Warning => (v, w + 1),
                _ => (v, w),
            });
    let revised = if summary.revised {
        "revised once, "
    } else {
        ""
    };
    match (to_fix, worth_a_look) {
        (0, 0) if summary.revised => " (revised once, checks clean)".into(),
        (0, 0) => String::new(),
        (0, w) => format!(
            " ({revised}kept with {w} finding{} worth a look)",
            plural(w)
        ),
        (v, w) => format!(
            " ({revised}kept with {} finding{}, {v} to fix: novel check {})",
            v + w,
            plural(v + w),
            summary.tick
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Prints the plan the next tick would follow; nothing runs or changes.
fn dry_run(
    novel: &Novel,
    models: &Models,
    note: Option<String>,
    json: bool,
    runtime: &tokio::runtime::Runtime,
) -> Result<()> {
    let options = TickOptions {
        steering: note,
        ..TickOptions::default()
    };
    let (plan, usage) =
        runtime.block_on(run::dry_run(novel, models, &options, &(), &SystemClock))?;
    if json {
        return crate::output::json(&serde_json::json!({ "plan": plan, "usage": usage }));
    }
    say!(
        "Scene {}: {}",
        novel.state()?.current_tick + 1,
        plan.scene_intention
    );
    say!("Why: {}", plan.rationale);
    for (i, a) in plan.actions.iter().enumerate() {
        say!(
            "  {}. {} {}  — {}",
            i + 1,
            a.tool,
            serde_json::Value::Object(a.args.clone()),
            a.reason
        );
    }
    for o in &plan.expected_outcomes {
        say!("  → {o}");
    }
    say!(
        "(dry run: nothing was written; {} LLM calls, {} tokens)",
        usage.calls(),
        usage.total_tokens()
    );
    Ok(())
}
