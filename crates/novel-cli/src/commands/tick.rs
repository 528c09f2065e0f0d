//! `novel tick` and `novel run --n N`: ticks with a live stage line, a summary per committed
//! scene, and Ctrl-C handling — first press stops after the current tick, second cancels it
//! (a cancelled tick rolls back; nothing is half-committed).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use novel_core::clock::SystemClock;
use novel_core::novel::{Access, Novel};
use novel_core::store;
use novel_core::tick::{self, CancelToken, Models, TickEvent, TickOptions};

use crate::cli::TickArgs;

pub fn run(dir: &Path, n: u32, args: TickArgs, json: bool) -> Result<()> {
    let mut novel = Novel::open(dir, Access::Write)?;
    super::semantic::attach(&mut novel);
    let state = novel.state()?;
    let pending: Vec<_> = store::list_failures(novel.store().conn())?
        .into_iter()
        .filter(|f| !f.resolved && f.tick == state.current_tick + 1)
        .collect();
    if args.retry && pending.is_empty() {
        bail!(
            "there is no failed tick to retry: tick {} has not failed",
            state.current_tick + 1
        );
    }
    let models = Models::single(super::providers::connect(args.profile.as_deref())?);
    let options = TickOptions {
        steering: args.note.clone(),
        ..TickOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;

    let stop_after = Arc::new(AtomicBool::new(false));
    let cancel = CancelToken::new();
    let presses = Arc::new(AtomicU32::new(0));
    {
        let (stop_after, cancel, presses) = (stop_after.clone(), cancel.clone(), presses.clone());
        runtime.spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if presses.fetch_add(1, Ordering::SeqCst) == 0 {
                    stop_after.store(true, Ordering::SeqCst);
                    eprintln!("\nStopping after this tick (Ctrl-C again cancels it; nothing is half-committed).");
                } else {
                    cancel.cancel();
                }
            }
        });
    }

    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} tick {prefix}: {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    let mut results = Vec::new();
    for i in 0..n {
        if stop_after.load(Ordering::SeqCst) {
            break;
        }
        let words = AtomicU32::new(0);
        let observer = |event: TickEvent| match event {
            TickEvent::Started { tick } => bar.set_prefix(format!("{tick} ({}/{n})", i + 1)),
            TickEvent::Stage { stage } => bar.set_message(stage.label().to_string()),
            TickEvent::ProseDelta { text } => {
                let w = words.fetch_add(text.split_whitespace().count() as u32, Ordering::Relaxed);
                bar.set_message(format!("writing (~{w} words)"));
            }
            _ => {}
        };
        let outcome = runtime.block_on(tick::run_tick(
            &mut novel,
            &models,
            &options,
            &observer,
            &cancel,
            &SystemClock,
        ));
        match outcome {
            Ok(done) => {
                let line = format!(
                    "Tick {}: \"{}\" — {} words, {} LLM calls, {} tokens{}",
                    done.tick,
                    done.scene.title,
                    done.scene.word_count,
                    done.usage.calls(),
                    done.usage.total_tokens(),
                    if done.revised { " (revised once)" } else { "" }
                );
                bar.suspend(|| {
                    if !json {
                        println!("{line}")
                    }
                });
                results.push(serde_json::json!({
                    "tick": done.tick, "title": done.scene.title, "words": done.scene.word_count,
                    "calls": done.usage.calls(), "usage": done.usage, "revised": done.revised,
                    "findings": done.findings, "files": done.files,
                }));
            }
            Err(e) => {
                bar.finish_and_clear();
                if json {
                    crate::output::json(
                        &serde_json::json!({ "committed": results, "error": e.to_string() }),
                    )?;
                }
                return Err(e.into());
            }
        }
    }
    bar.finish_and_clear();
    if json {
        return crate::output::json(&serde_json::json!({ "committed": results }));
    }
    Ok(())
}
