//! `novel check <file>`: every check on a prose file — a writer's own draft or a scene file the
//! engine wrote — against this novel's point of view, tense and story memory. Findings are
//! printed with line and column (text) or character offsets into the file (JSON). A scene file
//! (`# Title`, the prose, then `---` and the summary) has its prose checked and its title too.

use std::path::Path;

use anyhow::{Context, Result};
use novel_core::Novel;
use novel_core::checks::{self, CheckScope, Finding, Severity, Span};
use serde::Serialize;

#[derive(Serialize)]
struct Report<'a> {
    file: &'a Path,
    /// Whether a finding would make the engine revise the scene.
    needs_revision: bool,
    findings: &'a [Finding],
}

pub fn run(
    novel: &Novel,
    file: &Path,
    pov_character: Option<String>,
    location: Option<String>,
    as_json: bool,
) -> Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| {
        format!(
            "cannot read {} (give the path of a UTF-8 text file)",
            file.display()
        )
    })?;
    let scope = CheckScope {
        pov_character,
        location,
    };
    let (title, prose_at, prose) = scene_parts(&text);
    let mut findings = checks::check_text(novel.store().conn(), novel.config(), &scope, prose)?;
    let shift = u32::try_from(text[..prose_at].chars().count()).unwrap_or(u32::MAX);
    for f in &mut findings {
        if let Some(span) = &mut f.span {
            span.start = span.start.saturating_add(shift);
            span.end = span.end.saturating_add(shift);
        }
    }
    if let Some(f) = title.and_then(checks::check_title) {
        findings.insert(0, f);
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let needs_revision = checks::needs_revision(&findings);
    if as_json {
        return crate::output::json(&Report {
            file,
            needs_revision,
            findings: &findings,
        });
    }
    print_text(file, &text, &findings);
    Ok(())
}

/// The title, and where the prose starts and what it is, when `text` is a scene file as the
/// engine writes it; otherwise no title and the whole text.
fn scene_parts(text: &str) -> (Option<&str>, usize, &str) {
    let Some(rest) = text.strip_prefix("# ") else {
        return (None, 0, text);
    };
    let Some(line_end) = rest.find('\n') else {
        return (None, 0, text);
    };
    let title = rest[..line_end].trim();
    let body_at = 2 + line_end + 1;
    let body = &text[body_at..];
    let prose_end = body.rfind("\n\n---\n").unwrap_or(body.len());
    let lead = body.len() - body.trim_start().len();
    let prose = body[lead..prose_end].trim_end();
    (Some(title), body_at + lead, prose)
}

fn print_text(file: &Path, text: &str, findings: &[Finding]) {
    let shown = file.display().to_string();
    if findings.is_empty() {
        crate::output::say!("{}: the checks found nothing to fix.", safe(&shown));
        return;
    }
    let must = findings
        .iter()
        .filter(|f| f.severity == Severity::Violation)
        .count();
    crate::output::say!(
        "{}: {} finding{} ({must} to fix before the scene is kept)\n",
        safe(&shown),
        findings.len(),
        if findings.len() == 1 { "" } else { "s" }
    );
    for f in findings {
        let severity = match f.severity {
            Severity::Violation => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let place = f
            .span
            .map(|s| {
                let (line, column) = line_column(text, s);
                format!("{}:{line}:{column}: ", safe(&shown))
            })
            .unwrap_or_default();
        crate::output::say!("{place}{severity} [{}]", f.check.label());
        crate::output::say!("  {}", safe(&f.message));
        if let Some(record) = &f.record {
            crate::output::say!("  (record {})", safe(record));
        }
        crate::output::say!();
    }
}

/// 1-based line and column (in characters) of a span's start.
fn line_column(text: &str, span: Span) -> (usize, usize) {
    let before: String = text.chars().take(span.start as usize).collect();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Prose is untrusted text: control characters (terminal escapes) are not printed.
fn safe(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                '�'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_file_is_split_into_title_and_prose() {
        let text = "# The Lamp\n\nTamsin waited.\n\nBram came.\n\n---\n\n- Tamsin waits\n";
        let (title, at, prose) = scene_parts(text);
        assert_eq!(title, Some("The Lamp"));
        assert_eq!(prose, "Tamsin waited.\n\nBram came.");
        assert_eq!(&text[at..at + prose.len()], prose);
        let plain = "Tamsin waited.";
        assert_eq!(scene_parts(plain), (None, 0, plain));
    }

    #[test]
    fn positions_count_characters_and_escapes_are_not_printed() {
        let text = "“Go.”\nShe went.";
        assert_eq!(line_column(text, Span { start: 6, end: 9 }), (2, 1));
        assert_eq!(line_column(text, Span { start: 2, end: 3 }), (1, 3));
        assert_eq!(safe("a\u{1b}[31mb"), "a�[31mb");
    }
}
