//! What to say of a structured answer that the token limit cut off. A JSON object cut in the
//! middle fails validation with "`scene_intention` is a required property", which blames the
//! model for a field it never reached; the cause is the cut, often a model looping inside a
//! free-text field ("100 times, you're still planning it. 100 times…"). The report names the
//! field the answer was in, how long it ran, and the phrase it kept repeating.

use std::collections::HashMap;

use crate::types::{Completion, FinishReason};

/// How much of the answer's end is searched for a repeated phrase.
const TAIL_CHARS: usize = 800;
/// A phrase this many times in the tail is a loop, not style.
const LOOP_TIMES: usize = 3;

/// The report for `answer` when the token limit cut it; `None` when it ended on its own.
pub(crate) fn cut_report(answer: &Completion) -> Option<String> {
    if answer.finish_reason != FinishReason::Length {
        return None;
    }
    let mut report = format!(
        "the answer was cut off at the token limit after {} tokens",
        answer.usage.completion_tokens
    );
    if let Some(field) = open_field(&answer.text) {
        report.push_str(&format!(", inside `{field}`"));
    }
    match repeated_phrase(&answer.text) {
        Some(phrase) => report.push_str(&format!(
            ": the model repeated itself (\"{phrase}\" again and again); keep every text field to a sentence or two"
        )),
        None => report.push_str(": keep every text field to a sentence or two"),
    }
    Some(report)
}

/// The key of the last `"key":` in `text`: the field the answer was writing when it stopped.
fn open_field(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut found = None;
    let mut i = 0;
    while let Some(at) = text[i..].find("\":") {
        let end = i + at;
        // Walk back to the opening quote of the key, past escaped quotes.
        let start = text[..end]
            .rfind('"')
            .filter(|&s| s == 0 || bytes[s - 1] != b'\\');
        if let Some(start) = start {
            let key = &text[start + 1..end];
            if !key.is_empty() && key.len() <= 60 && !key.contains(['{', '}', '\n']) {
                found = Some(key.to_string());
            }
        }
        i = end + 2;
    }
    found
}

/// A phrase of three to eight words that the end of `text` repeats at least [`LOOP_TIMES`]
/// times, the longest such.
fn repeated_phrase(text: &str) -> Option<String> {
    let start = text
        .char_indices()
        .rev()
        .nth(TAIL_CHARS)
        .map_or(0, |(i, _)| i);
    let words: Vec<String> = text[start..]
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    for n in (3..=8).rev() {
        let mut counts: HashMap<&[String], usize> = HashMap::new();
        for gram in words.windows(n) {
            *counts.entry(gram).or_default() += 1;
        }
        if let Some((gram, _)) = counts
            .into_iter()
            .filter(|(_, c)| *c >= LOOP_TIMES)
            .max_by_key(|(g, c)| (*c, g.join(" ")))
        {
            return Some(gram.join(" "));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Usage;

    fn answer(text: &str, finish: FinishReason) -> Completion {
        Completion {
            text: text.into(),
            usage: Usage::reported(2000, 1500),
            finish_reason: finish,
            model: "m".into(),
            latency_ms: 1,
        }
    }

    #[test]
    fn a_looping_answer_is_reported_as_cut_in_its_field() {
        let looping = format!(
            "{{\"rationale\": \"We plan. {}",
            "100 times, you're still planning it. ".repeat(40)
        );
        let report = cut_report(&answer(&looping, FinishReason::Length)).unwrap();
        assert!(report.contains("after 1500 tokens"), "{report}");
        assert!(report.contains("inside `rationale`"), "{report}");
        assert!(report.contains("repeated itself"), "{report}");
        assert!(report.contains("still planning it"), "{report}");
    }

    #[test]
    fn a_long_answer_without_a_loop_is_still_a_cut_and_a_finished_one_is_not() {
        let long =
            "{\"rationale\": \"a\", \"scene_intention\": \"Tamsin crosses the market at dusk and";
        let report = cut_report(&answer(long, FinishReason::Length)).unwrap();
        assert!(report.contains("inside `scene_intention`"), "{report}");
        assert!(!report.contains("repeated"), "{report}");
        assert_eq!(cut_report(&answer(long, FinishReason::Stop)), None);
    }
}
