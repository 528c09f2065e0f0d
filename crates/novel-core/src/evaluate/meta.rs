//! Meta text: a model talking about the story instead of telling it ("This scene is a classic
//! example of…", "The scene ends with…", "In this chapter", "the protagonist", "the reader
//! senses"), or talking to its user ("I hope this captures…", "Note: this scene could…", a
//! "Scene 4: The Lighthouse" heading). Always an error: such text cannot stay in a novel.
//! Only narration is read, so a character may say "This chapter of my life is over", and a
//! told tale ("The story ends with the bell ringing, he said") is the story's own.

use std::sync::LazyLock;

use regex::Regex;

use super::ctx::Ctx;
use super::finding::{Check, Finding, Severity};

struct Rule {
    pattern: Regex,
    what: &'static str,
}

fn rule(pattern: &str, what: &'static str) -> Rule {
    Rule {
        // Constant patterns, compiled by the tests: a bad one is a programming error.
        pattern: super::pattern::compile(&format!("(?i){pattern}")).expect("constant meta-text pattern"),
        what,
    }
}

const WORK: &str =
    "(?:scene|chapter|passage|section|story|narrative|excerpt|piece|segment|tale|text|prose)";

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let about = "commentary about the story";
    let to_user = "words addressed to the user";
    vec![
        rule(
            &format!(
                r"^\W*(?:(?:overall|in summary|in conclusion|ultimately|in short|here),?\s+)?(?:this|the) {WORK}\s+(?:\w+ly\s+)?(?:is (?:a|an|set|written|told|about|meant|designed|full|rich|filled|steeped)|ends|begins|opens|closes|concludes|shows|explores|highlights|demonstrates|illustrates|captures|depicts|introduces|establishes|sets up|serves|focuses|builds|takes place|continues|follows|uses|features|portrays|conveys|reveals|emphasi[sz]es|underscores|creates|evokes|will|would|could|should|can|has|effectively|masterfully|vividly|successfully)\b"
            ),
            about,
        ),
        rule(
            &format!(
                r"\bin (?:this|the next|the previous|the following|the last|the coming|this next|the final) {WORK}\b"
            ),
            about,
        ),
        rule(
            &format!(
                r"\bthroughout (?:the|this) {WORK}\b|\b(?:the|this) {WORK}'s (?:tension|mood|pacing|climax|ending|opening|themes?)\b"
            ),
            about,
        ),
        rule(
            r"\bthe (?:reader|audience)s? (?:senses?|feels?|learns?|sees?|knows?|is|are|will|can|may|might|should|understands?|wonders?|discovers?|realizes?)\b|\b(?:keeps?|keeping|leaves?|leaving|draws?|drawing|invites?|inviting|pulls?|reminds?) the (?:reader|audience)\b|\bthe reader's\b",
            about,
        ),
        rule(
            r"\b(?:character|narrative|story|emotional) arc\b|\bplot (?:twist|point|device)\b|\binciting incident\b|\brising action\b|\bfalling action\b|\bthe climax of (?:the|this) (?:scene|chapter|passage|section|story|narrative|book|novel)\b|\bserves as (?:a|an|the) (?:climax|turning point|metaphor|symbol|reminder|catalyst|foil)\b|\bas a metaphor for\b|\bforeshadowing\b|\bcliffhanger\b|\bthe (?:protagonist|antagonist|main character|narrator|pov character)\b|\bour (?:hero|heroine|protagonist)\b|\bthemes? of\b|\b(?:highlighting|underscoring|emphasi[sz]ing|symboli[sz]ing|reinforcing) the (?:theme|idea|tension|bond|conflict)\b|\bmarks? a turning point\b|\bthe tension (?:between|in) (?:\w+ ){0,4}(?:builds|rises|mounts|is palpable)\b",
            about,
        ),
        rule(
            r"^\W*(?:author'?s note|a\.?\s?n\.?|editor'?s note|note|notes)\s*:",
            to_user,
        ),
        rule(
            r"^\s*(?:scene|chapter|part)\s+(?:\d+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b[^\n.!?]{0,60}$",
            "a heading",
        ),
        rule(
            r"\bi hope (?:this|you|that this|it)\b|\blet me know\b|\bfeel free to\b|\bwould you like (?:me|any|more)\b|\bi can (?:continue|revise|rewrite|expand|adjust|write) (?:the|this|it|more|a|another|your)\b|(?:^|[.!?]\s+|\b(?:and|so)\s+)\W*i(?:'ve| have) (?:written|created|crafted|revised|expanded|included|kept|made|tried|aimed|focused|added|adjusted|changed|toned)\b(?:\s+[\w']+){0,4}?\s+(?:scene|chapter|passage|section|story|narrative|excerpt|piece|text|prose|version|draft|revision|changes|edits|tone|pacing|dialogue|mood|tension|requested|capture|keep|make|ensure|sure|focus|emphasi[sz]e|maintain|convey)\b|(?:^\W*|\b(?:here|scene|version|draft|revision|rewrite|it|this)\b[^.!?]{0,40}?)\bas (?:requested|you (?:asked|requested|wanted|suggested))\b|\bhere(?:'s| is) (?:a|the|my|your) (?:\w+ )?(?:version|scene|continuation|draft|revision|rewrite)\b|\bi (?:can't|cannot|am unable to|won't) (?:continue|write|help|comply|create|produce)\b|\bas an ai\b|\blanguage model\b",
            to_user,
        ),
        rule(r"\(\s*\d+\s+words\s*\)|\bword count\b", to_user),
    ]
});

/// A told tale is the story's own: "The story ends with the bell, he said."
fn reported(sentence: &str) -> bool {
    static TAG: LazyLock<Regex> = LazyLock::new(|| {
        super::pattern::compile(
            r"(?i),\s*(?:he|she|they|i|[A-Z][a-z]+) (?:said|says|told|explained|added|went on)\b",
        )
        .expect("constant pattern")
    });
    TAG.is_match(sentence)
}

/// The meta rule a sentence's narration breaks, and where.
fn matched<'r>(narration: &str) -> Option<(&'r Rule, regex::Match<'_>)> {
    if reported(narration) {
        return None;
    }
    RULES
        .iter()
        .find_map(|r| r.pattern.find(narration).map(|m| (r, m)))
}

/// Whether the sentence is meta text (not story: the voice checks skip it).
pub(super) fn is_meta(prose: &super::text::Prose<'_>, s: &super::text::Sentence) -> bool {
    !s.tokens.is_empty() && matched(prose.narration(s)).is_some()
}

pub(super) fn meta_text(ctx: &Ctx<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in ctx.prose.narration_sentences() {
        let Some((rule, m)) = matched(ctx.prose.narration(s)) else {
            continue;
        };
        let (from, to) = (s.start + m.start(), s.start + m.end());
        let excerpt = ctx.prose.excerpt(s, from);
        out.push(
            Finding::new(
                Check::MetaText,
                Severity::Violation,
                format!(
                    "The prose contains {} instead of the story itself: “{excerpt}”. Delete \
                     it and tell the scene: what the POV character does, perceives and thinks, \
                     moment to moment, with nothing about the scene or to the user.",
                    rule.what
                ),
                Some(excerpt),
            )
            .at(&ctx.prose, s, from, to),
        );
    }
    out
}
