//! Scoring the checks on a corpus of real prose: every chunk of every book checked as a scene
//! of a novel whose settings and cast match the book (what a user who imported it would
//! have), counting what fired per 1,000 words by mode and severity — on published prose every
//! finding outside the author's known breaks is a false alarm — and every labelled sentence
//! checked the same way, giving precision and recall per check family, for violations alone
//! (what spends the revision) and for any finding.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::book::{Book, Chunk, Family, Item, Mode, Narration, Part};
use crate::evaluate::{Check, EvalInput, Finding, Severity, evaluate, repetition};
use crate::model::count_words;

/// How much text before a chunk its repeated phrases are looked for in: what the last three
/// scenes of a novel hold (three scenes of 500–900 words), not three whole chapters.
const RECENT_WORDS: usize = 2_400;
/// The scene length the corpus novels are set to: chunks are cut between these.
const TARGET_WORDS: (u32, u32) = (300, 4000);

/// The family a check is scored under; `None` for checks the labelled set does not score.
pub fn family_of(check: Check) -> Option<Family> {
    match check {
        Check::PovLeak => Some(Family::Leak),
        Check::OtherMind => Some(Family::Mind),
        Check::TenseDrift => Some(Family::Tense),
        Check::PersonDrift => Some(Family::Person),
        _ => None,
    }
}

/// What the checks found on the published prose of one mode.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModeFigures {
    pub books: BTreeSet<String>,
    pub chunks: usize,
    pub words: usize,
    /// Findings by severity, outside the author's known breaks.
    pub violations: usize,
    pub warnings: usize,
    pub notes: usize,
    /// Findings on the author's own known breaks (true findings, not counted above).
    pub on_known_breaks: usize,
    /// Findings outside known breaks, by check and severity.
    pub by_check: BTreeMap<String, usize>,
}

impl ModeFigures {
    pub fn per_thousand(&self, count: usize) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            count as f64 * 1000.0 / self.words as f64
        }
    }
}

/// One finding on published prose, for reading the false alarms one by one.
#[derive(Debug, Clone, Serialize)]
pub struct Alarm {
    pub book: String,
    pub file: String,
    pub check: Check,
    pub severity: Severity,
    pub sentence: String,
    pub message: String,
    /// The author's own known break this finding is on, if any.
    pub known: bool,
}

/// Precision and recall counts of one family.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Score {
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
}

impl Score {
    pub fn precision(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_positives,
        )
    }

    pub fn recall(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_negatives,
        )
    }

    /// How many items carry the family.
    pub fn expected(&self) -> usize {
        self.true_positives + self.false_negatives
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// One labelled item the checks got wrong.
#[derive(Debug, Clone, Serialize)]
pub struct Miss {
    pub id: String,
    pub part: Part,
    pub expected: BTreeSet<Family>,
    /// The families that fired as violations, and as any finding.
    pub violations: BTreeSet<Family>,
    pub flagged: BTreeSet<Family>,
    pub text: String,
    /// The label's reason, from the corpus.
    pub note: String,
    pub messages: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct LabelledFigures {
    pub items: usize,
    /// By part ("tune", "held", "all"), by family: counting violations only.
    pub violations: BTreeMap<String, BTreeMap<Family, Score>>,
    /// The same counting any finding (notes and warnings too).
    pub flagged: BTreeMap<String, BTreeMap<Family, Score>>,
    pub misses: Vec<Miss>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct CorpusReport {
    /// Books told in a mode a novel can be set to, by mode (the targets apply here).
    pub modes: BTreeMap<String, ModeFigures>,
    /// Chunks that are the author's deliberate shift of point of view, and omniscient books:
    /// shown for contrast, held to no target.
    pub contrast: BTreeMap<String, ModeFigures>,
    pub alarms: Vec<Alarm>,
    pub labelled: LabelledFigures,
}

/// Checks every chunk and every labelled item of the corpus.
pub fn score_corpus(books: &[Book]) -> CorpusReport {
    let mut report = CorpusReport::default();
    for book in books {
        score_prose(book, &mut report);
        for item in &book.items {
            score_item(book, item, &mut report.labelled);
        }
    }
    report.labelled.items = books.iter().map(|b| b.items.len()).sum();
    report
}

fn check(
    book: &Book,
    text: &str,
    pov: &str,
    location: Option<&str>,
    recent: &[String],
) -> Vec<Finding> {
    let mut findings = evaluate(&input(book, text, pov, location));
    findings.extend(repetition(text, recent));
    findings
}

/// The checks' input for `text` in `book`, as a user's novel with that cast would give it.
pub(super) fn input<'a>(
    book: &'a Book,
    text: &'a str,
    pov: &str,
    location: Option<&'a str>,
) -> EvalInput<'a> {
    let pov_character = book
        .characters
        .iter()
        .find(|c| c.id == pov)
        .expect("the corpus loader checks every POV character is in the cast");
    let place = location.or(pov_character.last_location.as_deref());
    let scene_location = place.and_then(|id| book.locations.iter().find(|l| l.id == id));
    EvalInput {
        prose: text,
        pov: book.mode.narration.point_of_view(),
        tense: book.mode.tense,
        pov_character,
        characters: &book.characters,
        scene_location,
        locations: &book.locations,
        lost_items: &[],
        off_page: &[],
        target_words: TARGET_WORDS,
    }
}

fn row_name(mode: Mode, chunk: &Chunk) -> (bool, String) {
    if chunk.shift.is_some() {
        (false, "deliberate shifts of point of view".to_string())
    } else if mode.narration == Narration::Omniscient {
        (false, mode.to_string())
    } else {
        (true, mode.to_string())
    }
}

fn score_prose(book: &Book, report: &mut CorpusReport) {
    for (n, chunk) in book.chunks.iter().enumerate() {
        // Whole paragraphs, latest first, until the budget is spent.
        let mut paragraphs: Vec<&str> = Vec::new();
        let mut words = 0;
        for p in book.chunks[..n]
            .iter()
            .rev()
            .flat_map(|c| c.text.lines().rev())
        {
            if words >= RECENT_WORDS {
                break;
            }
            words += p.split_whitespace().count();
            paragraphs.push(p);
        }
        paragraphs.reverse();
        let recent = vec![paragraphs.join("\n")];
        let findings = check(
            book,
            &chunk.text,
            &chunk.pov_character,
            chunk.location.as_deref(),
            &recent,
        );
        let (asserted, row) = row_name(book.mode, chunk);
        let table = if asserted {
            &mut report.modes
        } else {
            &mut report.contrast
        };
        let figures = table.entry(row).or_default();
        figures.books.insert(book.id.clone());
        figures.chunks += 1;
        figures.words += count_words(&chunk.text) as usize;
        for f in findings {
            let sentence = f.sentence.clone().unwrap_or_default();
            let known = !sentence.is_empty()
                && book.known.iter().any(|k| {
                    k.covers(&chunk.file, &sentence) && family_of(f.check) == Some(k.check)
                });
            if known {
                figures.on_known_breaks += 1;
            } else {
                match f.severity {
                    Severity::Violation => figures.violations += 1,
                    Severity::Warning => figures.warnings += 1,
                    Severity::Note => figures.notes += 1,
                }
                let key = format!("{} ({})", f.check.label(), severity_name(f.severity));
                *figures.by_check.entry(key).or_default() += 1;
            }
            report.alarms.push(Alarm {
                book: book.id.clone(),
                file: chunk.file.clone(),
                check: f.check,
                severity: f.severity,
                sentence,
                message: f.message,
                known,
            });
        }
    }
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Violation => "violation",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn score_item(book: &Book, item: &Item, out: &mut LabelledFigures) {
    let findings = check(book, &item.text, &item.pov_character, None, &[]);
    let families = |least: Severity| -> BTreeSet<Family> {
        findings
            .iter()
            .filter(|f| f.severity >= least)
            .filter_map(|f| family_of(f.check))
            .collect()
    };
    let violations = families(Severity::Violation);
    let flagged = families(Severity::Note);
    let part = match item.part {
        Part::Tune => "tune",
        Part::Held => "held",
    };
    for (table, fired) in [
        (&mut out.violations, &violations),
        (&mut out.flagged, &flagged),
    ] {
        for key in [part, "all"] {
            let scores = table.entry(key.to_string()).or_default();
            for family in Family::ALL {
                let score = scores.entry(family).or_default();
                match (item.expect.contains(&family), fired.contains(&family)) {
                    (true, true) => score.true_positives += 1,
                    (false, true) => score.false_positives += 1,
                    (true, false) => score.false_negatives += 1,
                    (false, false) => {}
                }
            }
        }
    }
    if violations != item.expect || flagged != item.expect {
        out.misses.push(Miss {
            id: item.id.clone(),
            part: item.part,
            expected: item.expect.clone(),
            violations,
            flagged,
            text: item.text.clone(),
            note: item.note.clone(),
            messages: findings
                .iter()
                .filter(|f| family_of(f.check).is_some())
                .map(|f| {
                    format!(
                        "{} ({}): {}",
                        f.check.label(),
                        severity_name(f.severity),
                        f.message
                    )
                })
                .collect(),
        });
    }
}
