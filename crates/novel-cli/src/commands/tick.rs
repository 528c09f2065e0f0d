//! `novel tick` and `novel run --n N`: ticks with a live stage line, a summary per committed
//! scene, and Ctrl-C handling — first press stops after the current tick, second cancels it
//! (a cancelled tick rolls back; nothing is half-committed).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use novel_core::clock::SystemClock;
use novel_core::evaluate::Severity;
use novel_core::novel::{Access, Novel};
use novel_core::run::{self, RunControl, RunEvent};
use novel_core::store;
use novel_core::tick::{self, ErrorKind, Models, ReviewBy, TickEvent, TickOptions};

use crate::cli::TickArgs;

pub fn run(dir: &Path, n: u32, args: TickArgs, json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    super::semantic::attach(&mut novel);
    let state = novel.state()?;
    let pending: Vec<_> = store::list_failures(novel.store().conn())?
        .into_iter()
        .filter(|f| !f.resolved && f.tick == state.current_tick + 1)
        .collect();
    let next = state.current_tick + 1;
    if (args.retry || args.skip || args.keep) && pending.is_empty() {
        bail!(
            "there is no failed tick to {}: tick {next} has not failed",
            if args.skip {
                "skip"
            } else if args.keep {
                "keep"
            } else {
                "retry"
            }
        );
    }
    if args.skip {
        novel_core::edits::skip_failed_tick(&mut novel, next)?;
        if json {
            return crate::output::json(&serde_json::json!({ "skipped": next }));
        }
        crate::output::say!(
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
        let done = runtime.block_on(tick::keep_failed_draft(
            &mut novel,
            &models,
            &(),
            &tick::CancelToken::new(),
            &SystemClock,
        ))?;
        let summary = novel_core::run::TickSummary::from(&done);
        if json {
            return crate::output::json(&serde_json::json!({ "committed": [summary] }));
        }
        crate::output::say!(
            "Tick {}: \"{}\" — {} words, kept as drafted{}",
            summary.tick,
            summary.title,
            summary.words,
            kept_note(&summary)
        );
        return Ok(());
    }
    let bar = ProgressBar::new_spinner();
    let options = TickOptions {
        steering: args.note.clone(),
        retries: args.retries,
        reviewer: args.review.then(|| {
            ReviewBy(Arc::new(super::review::TerminalReviewer {
                bar: bar.clone(),
            }))
        }),
        ..TickOptions::default()
    };

    let control = RunControl::new();
    {
        let control = control.clone();
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

    bar.set_style(
        ProgressStyle::with_template("{spinner} tick {prefix}: {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    let words = AtomicU32::new(0);
    let on_event = |event: RunEvent| match event {
        RunEvent::Tick {
            index,
            total,
            event,
        } => match event {
            TickEvent::Started { tick } => {
                words.store(0, Ordering::Relaxed);
                bar.set_prefix(format!("{tick} ({index}/{total})"));
            }
            TickEvent::Stage { stage } => bar.set_message(stage.label().to_string()),
            TickEvent::ProseDelta { text } => {
                let n = text.split_whitespace().count() as u32;
                let w = words.fetch_add(n, Ordering::Relaxed) + n;
                bar.set_message(format!("writing (~{w} words)"));
            }
            _ => {}
        },
        RunEvent::Retrying {
            attempt,
            retries,
            failure,
            ..
        } if !json => bar.suspend(|| {
            crate::output::say_err!(
                "Tick {}: {} Trying a fresh draft ({attempt} of {retries}).",
                failure
                    .tick
                    .map_or_else(|| "?".to_string(), |t| t.to_string()),
                failure.message
            );
        }),
        RunEvent::TickCommitted { summary } if !json => bar.suspend(|| {
            let cost = summary.usage.cost();
            crate::output::say!(
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
                kept_note(&summary),
            );
            crate::output::say!("  models: {}", summary.usage.models());
        }),
        _ => {}
    };
    let report = runtime.block_on(run::run_ticks(
        &mut novel,
        &models,
        n,
        &options,
        &control,
        &SystemClock,
        &on_event,
    ));
    bar.finish_and_clear();
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

/// What a committed tick's line says of its checks: revised or not, and what the scene was kept
/// with, so a scene kept with problems never reads as clean.
fn kept_note(summary: &novel_core::run::TickSummary) -> String {
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
        runtime.block_on(tick::dry_run(novel, models, &options, &(), &SystemClock))?;
    if json {
        return crate::output::json(&serde_json::json!({ "plan": plan, "usage": usage }));
    }
    crate::output::say!(
        "Scene {}: {}",
        novel.state()?.current_tick + 1,
        plan.scene_intention
    );
    crate::output::say!("Why: {}", plan.rationale);
    for (i, a) in plan.actions.iter().enumerate() {
        crate::output::say!(
            "  {}. {} {}  — {}",
            i + 1,
            a.tool,
            serde_json::Value::Object(a.args.clone()),
            a.reason
        );
    }
    for o in &plan.expected_outcomes {
        crate::output::say!("  → {o}");
    }
    crate::output::say!(
        "(dry run: nothing was written; {} LLM calls, {} tokens)",
        usage.calls(),
        usage.total_tokens()
    );
    Ok(())
}
