//! The optional second opinion: an LLM critic (one structured call, off by default, its own
//! model role) reads the scene with the deterministic findings and answers two things — which
//! findings are real (a dismissed one stays on the record as a note but no longer forces the
//! revision) and which point-of-view or continuity breaks the rules missed, each quoted
//! exactly. The critic is a model and its answer is untrusted: a "missed" break whose quote is
//! not in the scene word for word is dropped, and it may only report kinds of break the rules
//! know.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::finding::{Check, Finding, Severity};
use super::span::Span;

/// What the critic says about one finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// The finding is right: the prose breaks the rule.
    Confirm,
    /// The finding is wrong here (inference from visible cues, free indirect thought, …).
    Dismiss,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Review {
    /// The finding's number in the list it was shown (1-based).
    pub finding: u32,
    pub judgement: Judgement,
    /// Why, in a sentence.
    #[serde(default)]
    pub reason: String,
}

/// The kinds of break the critic may report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissedKind {
    /// The narration knows what the POV character cannot (hindsight, foreshadowing, unseen).
    NarratorKnowledge,
    /// Another character's thoughts or feelings stated as fact.
    OtherMind,
    /// A dead character acting, a lost item used, someone in two places.
    Continuity,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Missed {
    pub kind: MissedKind,
    /// The offending sentence, copied exactly from the scene.
    pub sentence: String,
    /// What is wrong and how to fix it.
    pub problem: String,
}

/// The critic's answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Critique {
    #[serde(default)]
    pub reviews: Vec<Review>,
    #[serde(default)]
    pub missed: Vec<Missed>,
}

/// The findings the critic is shown, numbered from 1: the story-level ones (form and style are
/// the rules' alone).
pub fn reviewable(findings: &[Finding]) -> Vec<(u32, &Finding)> {
    findings
        .iter()
        .filter(|f| {
            matches!(
                f.check,
                Check::PovLeak
                    | Check::OtherMind
                    | Check::DeadCharacter
                    | Check::TwoPlaces
                    | Check::LostItem
                    | Check::Contradiction
                    | Check::Unreachable
            )
        })
        .enumerate()
        .map(|(i, f)| (i as u32 + 1, f))
        .collect()
}

/// The findings as the critic is shown them.
pub fn findings_brief(findings: &[Finding]) -> String {
    reviewable(findings)
        .iter()
        .map(|(n, f)| format!("{n}. [{}] {}", f.check.label(), f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `findings` with the critique applied, and a note for each change it made.
pub fn apply_critique(
    prose: &str,
    mut findings: Vec<Finding>,
    critique: &Critique,
) -> (Vec<Finding>, Vec<String>) {
    let mut notes = Vec::new();
    let numbered: Vec<(u32, Finding)> = reviewable(&findings)
        .into_iter()
        .map(|(n, f)| (n, f.clone()))
        .collect();
    for review in &critique.reviews {
        let Some((_, shown)) = numbered.iter().find(|(n, _)| *n == review.finding) else {
            continue;
        };
        if review.judgement != Judgement::Dismiss {
            continue;
        }
        if let Some(f) = findings.iter_mut().find(|f| *f == shown) {
            f.severity = Severity::Note;
            f.message = format!(
                "{} (the critic disagreed: {})",
                f.message,
                crate::text::clean_line(&review.reason)
            );
            notes.push(format!(
                "the critic dismissed a {} finding",
                f.check.label()
            ));
        }
    }
    for missed in &critique.missed {
        let quote = crate::text::clean_line(&missed.sentence);
        let Some(start) = prose.find(quote.as_str()).filter(|_| quote.len() >= 8) else {
            notes.push("the critic quoted a sentence that is not in the scene; ignored".into());
            continue;
        };
        let check = match missed.kind {
            MissedKind::NarratorKnowledge => Check::PovLeak,
            MissedKind::OtherMind => Check::OtherMind,
            MissedKind::Continuity => Check::Contradiction,
        };
        let chars_before = prose[..start].chars().count() as u32;
        let mut finding = Finding::new(
            check,
            Severity::Violation,
            format!(
                "{} (found by the critic): “{}”",
                crate::text::clean_line(&missed.problem),
                crate::text::clip(&quote, 120)
            ),
            Some(crate::text::clip(&quote, 120)),
        );
        finding.span = Some(Span {
            start: chars_before,
            end: chars_before + quote.chars().count() as u32,
        });
        finding.sentence = Some(quote.clone());
        if !findings
            .iter()
            .any(|f| f.sentence.as_deref() == Some(quote.as_str()) && f.check == check)
        {
            notes.push(format!("the critic found a missed {}", check.label()));
            findings.push(finding);
        }
    }
    (findings, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(check: Check, message: &str) -> Finding {
        Finding::new(check, Severity::Violation, message.into(), None)
    }

    #[test]
    fn dismissals_become_notes_and_quoted_misses_become_violations() {
        let prose = "Bram frowned at the tide. He wondered if she knew. The rain kept on.";
        let findings = vec![
            finding(Check::Length, "too short"),
            finding(Check::OtherMind, "Bram's thoughts"),
        ];
        assert_eq!(
            findings_brief(&findings),
            "1. [another character's mind] Bram's thoughts"
        );
        let critique = Critique {
            reviews: vec![Review {
                finding: 1,
                judgement: Judgement::Dismiss,
                reason: "free indirect thought of the POV character".into(),
            }],
            missed: vec![
                Missed {
                    kind: MissedKind::NarratorKnowledge,
                    sentence: "The rain kept on.".into(),
                    problem: "hindsight".into(),
                },
                Missed {
                    kind: MissedKind::OtherMind,
                    sentence: "Bram was secretly terrified.".into(),
                    problem: "not in the scene".into(),
                },
            ],
        };
        let (out, notes) = apply_critique(prose, findings, &critique);
        assert_eq!(
            out[0].severity,
            Severity::Violation,
            "form is not the critic's"
        );
        assert_eq!(out[1].severity, Severity::Note);
        assert!(out[1].message.contains("critic disagreed"));
        assert_eq!(out.len(), 3, "the invented quote is dropped: {out:?}");
        assert_eq!(out[2].check, Check::PovLeak);
        assert_eq!(out[2].span, Some(Span { start: 51, end: 68 }));
        assert_eq!(notes.len(), 3, "{notes:?}");
    }
}
