//! What the findings ask of the tick: whether the revision pass runs, which violations keep a
//! revised scene out of the book, and the numbered brief the reviser reads.

use super::finding::{Check, Finding, Severity};

/// Whether the findings call for the revision pass.
pub fn needs_revision(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Violation)
}

/// The violations that keep a revised scene from being committed: those of checks that cannot
/// be wrong by construction — commentary addressed to the reader or the user instead of story
/// ("Here is the revised scene… I hope this helps!"), and a scene told in the wrong person
/// throughout. The other checks' findings are recorded with the scene for the writer.
pub fn blocks_commit(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| f.severity == Severity::Violation)
        .filter(|f| matches!(f.check, Check::MetaText | Check::PersonDrift))
        .collect()
}

/// The findings as a numbered list for the reviser prompt: violations first (must fix), then
/// warnings (fix if it is a small change); notes are left out. Empty when there is nothing.
pub fn revision_brief(findings: &[Finding]) -> String {
    let mut listed: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .collect();
    listed.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let mut out = String::new();
    for (n, f) in listed.iter().enumerate() {
        let urgency = if f.severity == Severity::Violation {
            "must fix"
        } else {
            "fix if it is a small change"
        };
        out.push_str(&format!(
            "{}. [{urgency}] {}: {}\n",
            n + 1,
            f.check.label(),
            f.message
        ));
    }
    out
}
