//! `novel audit [--from N] [--to N] [--all]`: the book audit (`novel_core::audit`) of the
//! current branch, or a range of its scenes — each criterion's number and what it measures,
//! then the failures that name their scenes; `--json` prints the whole report
//! (docs/audit.md documents it).

use anyhow::Result;
use novel_core::Novel;
use novel_core::audit::{self, AuditReport};

use crate::output::say;

/// Failures listed per criterion unless `--all` is given.
const SHOWN: usize = 8;

pub fn run(novel: &Novel, from: Option<u32>, to: Option<u32>, all: bool, json: bool) -> Result<()> {
    let report = audit::audit(novel.store().conn(), from, to)?;
    if json {
        return crate::output::json(&report);
    }
    print(novel, &report, all);
    Ok(())
}

/// `--judge`: verdicts for the scenes written before the tick recorded them, from the
/// extractor model, before the audit reads them.
pub fn judge(
    novel: &Novel,
    from: Option<u32>,
    to: Option<u32>,
    profile: Option<&str>,
    json: bool,
) -> Result<()> {
    let models = super::roles::models_for(novel, profile, Default::default())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let judged = runtime.block_on(novel_core::run::judge_scenes(
        novel,
        &*models.extractor,
        from,
        to,
    ))?;
    if !json {
        say!(
            "Judged {} scene(s) against their plans ({} model call(s)){}{}",
            judged.judged.len(),
            judged.calls,
            if judged.unanswered.is_empty() {
                String::new()
            } else {
                format!("; no usable verdict for scene(s) {:?}", judged.unanswered)
            },
            if judged.without_plan == 0 {
                String::new()
            } else {
                format!("; {} scene(s) had no plan to judge by", judged.without_plan)
            }
        );
    }
    Ok(())
}

fn print(novel: &Novel, report: &AuditReport, all: bool) {
    say!(
        "{} — audit of scenes {}–{} on {} ({} scenes, {} words): {:.0}/100",
        novel.config().novel.title,
        report.from,
        report.to,
        report.branch,
        report.scenes,
        report.words,
        report.overall
    );
    if report.scenes == 0 {
        say!("\n(no scenes in this range)");
        return;
    }
    for c in &report.criteria {
        say!("\n{:>5.0}  {}\n       {}", c.score, c.title, c.measure);
        let shown = if all { c.failures.len() } else { SHOWN };
        for f in c.failures.iter().take(shown) {
            let scenes: Vec<String> = f
                .scenes
                .iter()
                .map(|s| match s.scene {
                    0 => "the start".to_string(),
                    n => format!("scene {n} “{}”", s.title),
                })
                .collect();
            say!("       - {}: {}", scenes.join(", "), f.why);
        }
        if c.failures.len() > shown {
            say!(
                "       … and {} more (--all lists them)",
                c.failures.len() - shown
            );
        }
    }
    for note in &report.notes {
        say!("\nNote: {note}");
    }
}
