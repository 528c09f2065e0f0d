//! Form checks: the scene's length against the configured target, and anything in the prose
//! that is not story — HTML tags, Markdown headings or code fences, and text the model wrote
//! to its user ("Here is the scene:", "Word count: 712", "As an AI…").

use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};
use super::text::excerpt_of;
use crate::model::count_words;

pub(super) fn length(ctx: &Ctx<'_>) -> Vec<Finding> {
    let (min, max) = ctx.input.target_words;
    let words = count_words(ctx.prose.original);
    let (min64, max64, words64) = (u64::from(min), u64::from(max), u64::from(words));
    let far_short = words64 * 10 < min64 * 6;
    let far_long = words64 * 2 > max64 * 3;
    let (severity, message) = if words < min {
        let severity = if far_short {
            Severity::Violation
        } else {
            Severity::Warning
        };
        let message = format!(
            "The scene is {words} words; the target is {min}–{max}. Expand it to at least \
             {min} words by deepening the beats already there (sensory detail, the POV \
             character's reactions, a fuller exchange), not by adding new plot events."
        );
        (severity, message)
    } else if words > max {
        let severity = if far_long {
            Severity::Violation
        } else {
            Severity::Warning
        };
        let message = format!(
            "The scene is {words} words; the target is {min}–{max}. Cut it to at most {max} \
             words by trimming repetition and description; keep every plot event and the \
             ending."
        );
        (severity, message)
    } else {
        return Vec::new();
    };
    vec![Finding::new(Check::Length, severity, message, None)]
}

struct Markup {
    pattern: Regex,
    what: &'static str,
    fix: &'static str,
}

fn markup_rule(pattern: &str, what: &'static str, fix: &'static str) -> Markup {
    Markup {
        // Constant patterns, compiled by the tests: a bad one is a programming error.
        pattern: super::pattern::compile(pattern).expect("constant markup pattern"),
        what,
        fix,
    }
}

static MARKUP: LazyLock<Vec<Markup>> = LazyLock::new(|| {
    let plain = "Remove it: the scene must be plain prose.";
    let meta = "Delete it: return only the scene's prose, with nothing addressed to the user.";
    vec![
        markup_rule(
            r"(?i)</?(?:script|img|iframe|style|html|body|div|span|p|br|hr|b|i|em|strong|h[1-6]|a|ul|ol|li|table|tr|td)\b[^<>]{0,200}>|<(?:script|img|iframe)\b",
            "an HTML tag",
            plain,
        ),
        markup_rule(
            r#"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s<>]+))?)*\s*/?>"#,
            "an HTML-like tag",
            plain,
        ),
        markup_rule(
            r"(?m)^[ \t]{0,3}#{1,6}[ \t]+\S",
            "a Markdown heading",
            "Remove headings and titles; begin directly with the prose.",
        ),
        markup_rule(r"(?m)^[ \t]*```", "a Markdown code fence", plain),
        markup_rule(
            r"(?i)\bas an ai\b|\bas a (?:large )?language model\b",
            "text about being an AI",
            meta,
        ),
        markup_rule(
            r"(?im)^\W*(?:sure|certainly|of course|okay|ok)\b[^\n]{0,40}\bhere(?: is|'s|’s)\b|\bhere(?: is|'s|’s) (?:the|your|a|my) (?:revised |rewritten |new |next |final |updated )?(?:scene|chapter|story|draft|version)\b\s*(?:[:.!]|$)",
            "a line introducing the scene",
            meta,
        ),
        markup_rule(
            r"(?im)\bword count\s*:|^\W*(?:scene )?title\s*:|[\[(]\s*end of (?:scene|chapter)\s*[\])]|\bi hope you enjoy",
            "meta text about the scene",
            meta,
        ),
    ]
});

pub(super) fn markup(ctx: &Ctx<'_>) -> Vec<Finding> {
    let prose = ctx.prose.original;
    let mut out = Vec::new();
    let mut html_found = false;
    for (n, rule) in MARKUP.iter().enumerate() {
        // The second rule catches any tag the first (known HTML) did not; one finding is enough.
        if n == 1 && html_found {
            continue;
        }
        let mut matches = rule.pattern.find_iter(prose);
        let Some(first) = matches.next() else {
            continue;
        };
        html_found |= n == 0;
        let count = 1 + matches.count();
        let line_start = prose[..first.start()].rfind('\n').map_or(0, |i| i + 1);
        let line_end = prose[first.start()..]
            .find('\n')
            .map_or(prose.len(), |i| first.start() + i);
        let excerpt = excerpt_of(&prose[line_start..line_end], first.start() - line_start);
        let times = if count > 1 {
            format!(" ({count} times)")
        } else {
            String::new()
        };
        out.push(Finding::new(
            Check::Markup,
            Severity::Violation,
            format!(
                "The prose contains {}{times}: “{excerpt}”. {}",
                rule.what, rule.fix
            ),
            Some(excerpt),
        ));
    }
    out
}
