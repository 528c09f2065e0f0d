//! `novel check --corpus DIR`: the checks measured on published prose — false alarms per
//! 1,000 words by mode and severity, precision and recall per check family on the labelled
//! sentences (violations alone, and any finding) — so a change to a check shows what it costs
//! and what it buys. `--show` lists the findings and the misses one by one.

use std::path::Path;

use anyhow::Result;
use novel_core::checks::{
    CorpusReport, Family, ModeFigures, Part, Score, load_corpus, score_corpus, severity_name,
};

use crate::cli::CorpusShow;
use crate::output::say;

pub fn run(dir: &Path, show: Option<CorpusShow>, as_json: bool) -> Result<()> {
    let books = load_corpus(dir)?;
    let report = score_corpus(&books);
    if as_json {
        return crate::output::json(&report);
    }
    print_modes("Published prose (findings per 1,000 words)", &report.modes);
    print_modes("For contrast (no target)", &report.contrast);
    print_labelled(&report);
    if matches!(show, Some(CorpusShow::Alarms | CorpusShow::All)) {
        print_alarms(&report);
    }
    if matches!(show, Some(CorpusShow::Misses | CorpusShow::All)) {
        print_misses(&report);
    }
    Ok(())
}

fn print_modes(heading: &str, modes: &std::collections::BTreeMap<String, ModeFigures>) {
    if modes.is_empty() {
        return;
    }
    say!("{heading}");
    say!(
        "  {:<38} {:>6} {:>8} {:>11} {:>9} {:>7}",
        "mode",
        "chunks",
        "words",
        "violations",
        "warnings",
        "notes"
    );
    for (mode, f) in modes {
        say!(
            "  {:<38} {:>6} {:>8} {:>11.2} {:>9.2} {:>7.2}",
            mode,
            f.chunks,
            f.words,
            f.per_thousand(f.violations),
            f.per_thousand(f.warnings),
            f.per_thousand(f.notes)
        );
        for (check, n) in &f.by_check {
            say!("      {n:>4}  {check}");
        }
    }
    say!();
}

fn print_labelled(report: &CorpusReport) {
    let l = &report.labelled;
    say!("Labelled sentences ({} items)", l.items);
    for (title, table) in [("violations", &l.violations), ("any finding", &l.flagged)] {
        say!("  counting {title}");
        say!(
            "  {:<6} {:<7} {:>9} {:>10} {:>7}",
            "part",
            "family",
            "expected",
            "precision",
            "recall"
        );
        for (part, scores) in table {
            for family in Family::ALL {
                let s: Score = scores.get(&family).copied().unwrap_or_default();
                say!(
                    "  {:<6} {:<7} {:>9} {:>10.2} {:>7.2}",
                    part,
                    family.name(),
                    s.expected(),
                    s.precision(),
                    s.recall()
                );
            }
        }
    }
    say!();
}

fn print_alarms(report: &CorpusReport) {
    say!("Findings on the published prose");
    for a in &report.alarms {
        let known = if a.known {
            " [author's known break]"
        } else {
            ""
        };
        say!(
            "  {}/{}: {} ({}){known}",
            a.book,
            a.file,
            a.check.label(),
            severity_name(a.severity)
        );
        say!("    {}", a.sentence.replace('\n', " "));
    }
    say!();
}

fn print_misses(report: &CorpusReport) {
    // The held-out part stays out of tuning: its misses are counted above, never listed.
    say!("Labelled items of the tuning part the checks got wrong");
    for m in report
        .labelled
        .misses
        .iter()
        .filter(|m| m.part == Part::Tune)
    {
        let names = |set: &std::collections::BTreeSet<Family>| {
            set.iter().map(|f| f.name()).collect::<Vec<_>>().join(",")
        };
        say!(
            "  {} ({:?}): expected [{}], violations [{}], any finding [{}]",
            m.id,
            m.part,
            names(&m.expected),
            names(&m.violations),
            names(&m.flagged)
        );
        say!("    {}", m.text.replace('\n', " "));
        if !m.note.is_empty() {
            say!("    (label: {})", m.note);
        }
        for message in &m.messages {
            say!("    - {message}");
        }
    }
}
