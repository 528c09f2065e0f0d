//! Local repair of almost-JSON, tried before a repair request costs another call. Small local
//! models often put raw newlines or tabs inside strings, leave a comma before a closing bracket,
//! or stop mid-object when they run out of tokens. Those mistakes have exactly one sensible
//! fix, so they are fixed here: raw control characters inside strings are escaped, trailing
//! commas are dropped, and a truncated string, object or array is closed. Anything that needs a
//! guess (a mismatched bracket, a key without a value, a number that may have been cut short)
//! is left alone, and a repair only counts when the result parses as a JSON object.

use std::fmt;

use serde_json::Value;

use crate::json::text::{fenced_blocks, strip_think};

/// How many `{` positions are tried as the start of the object: enough to step over a stray
/// brace in prose, few enough that a hostile answer full of braces stays linear.
const MAX_STARTS: usize = 8;

/// One kind of mistake that was fixed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonFix {
    /// Raw control characters (newlines, tabs, ...) inside strings were escaped.
    EscapedControlCharacters(usize),
    /// Commas directly before a closing bracket were removed.
    RemovedTrailingCommas(usize),
    /// The answer ended inside a string, which was closed.
    ClosedString,
    /// The answer ended with this many objects or arrays still open; they were closed.
    ClosedBrackets(usize),
}

impl fmt::Display for JsonFix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match self {
            JsonFix::EscapedControlCharacters(n) => write!(
                f,
                "escaped {n} raw control character{} (newline, tab) inside strings",
                plural(*n)
            ),
            JsonFix::RemovedTrailingCommas(n) => {
                write!(f, "removed {n} trailing comma{}", plural(*n))
            }
            JsonFix::ClosedString => f.write_str("closed a string cut off at the end"),
            JsonFix::ClosedBrackets(n) => {
                write!(f, "closed {n} bracket{} left open at the end", plural(*n))
            }
        }
    }
}

/// A JSON object recovered from an answer that did not parse as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalRepair {
    /// The repaired object.
    pub value: Value,
    /// The repaired JSON text (only the object, without surrounding prose).
    pub text: String,
    /// What was fixed; never empty.
    pub fixes: Vec<JsonFix>,
}

/// Repairs the first JSON object in `text` that has only unambiguous mistakes. `None` when
/// there is nothing to repair (including when the object is already valid) or when no repair
/// yields an object.
pub fn repair_json_object(text: &str) -> Option<LocalRepair> {
    let text = strip_think(text);
    let fenced = fenced_blocks(text).filter(|block| block.starts_with('{'));
    let embedded = text
        .match_indices('{')
        .take(MAX_STARTS)
        .map(|(start, _)| &text[start..]);
    for block in fenced.clone() {
        // A fence marker may sit inside one of the object's strings and cut the block short:
        // read on past the fence first, and when that object is valid there is nothing to do.
        let start = block.as_ptr() as usize - text.as_ptr() as usize;
        if let Candidate::Valid = repair_from(&text[start..]) {
            return None;
        }
    }
    for candidate in fenced.chain(embedded) {
        match repair_from(candidate) {
            Candidate::Repaired(repair) => return Some(repair),
            // A valid object comes first: there is nothing to repair, and a later brace may
            // well be inside one of its strings.
            Candidate::Valid => return None,
            Candidate::Unusable => {}
        }
    }
    None
}

/// What the text at one starting brace turned out to be.
enum Candidate {
    Repaired(LocalRepair),
    Valid,
    Unusable,
}

/// Repairs the object that starts at the beginning of `candidate`.
fn repair_from(candidate: &str) -> Candidate {
    let Some((text, counts)) = rewrite(candidate) else {
        return Candidate::Unusable;
    };
    let fixes = counts.fixes();
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(_)) if fixes.is_empty() => Candidate::Valid,
        Ok(value @ Value::Object(_)) => Candidate::Repaired(LocalRepair { value, text, fixes }),
        _ => Candidate::Unusable,
    }
}

#[derive(Debug, Default)]
struct Counts {
    control: usize,
    commas: usize,
    closed_string: bool,
    closed_brackets: usize,
}

impl Counts {
    fn fixes(&self) -> Vec<JsonFix> {
        let mut fixes = Vec::new();
        if self.control > 0 {
            fixes.push(JsonFix::EscapedControlCharacters(self.control));
        }
        if self.commas > 0 {
            fixes.push(JsonFix::RemovedTrailingCommas(self.commas));
        }
        if self.closed_string {
            fixes.push(JsonFix::ClosedString);
        }
        if self.closed_brackets > 0 {
            fixes.push(JsonFix::ClosedBrackets(self.closed_brackets));
        }
        fixes
    }
}

/// Copies the object at the start of `src` with the unambiguous fixes applied, stopping where
/// the outermost bracket closes. `None` when a closing bracket does not match its opener.
fn rewrite(src: &str) -> Option<(String, Counts)> {
    let mut out = String::with_capacity(src.len() + 16);
    let mut open: Vec<char> = Vec::new();
    let mut counts = Counts::default();
    let mut in_string = false;
    let mut escaped = false;
    for ch in src.chars() {
        if in_string {
            match ch {
                _ if escaped => {
                    escaped = false;
                    out.push(ch);
                }
                '\\' => {
                    escaped = true;
                    out.push(ch);
                }
                '"' => {
                    in_string = false;
                    out.push(ch);
                }
                c if u32::from(c) < 0x20 => {
                    counts.control += 1;
                    push_escaped(&mut out, c);
                }
                c => out.push(c),
            }
            continue;
        }
        match ch {
            '"' => {
                in_string = true;
                out.push(ch);
            }
            '{' => {
                open.push('}');
                out.push(ch);
            }
            '[' => {
                open.push(']');
                out.push(ch);
            }
            '}' | ']' => {
                if open.last() != Some(&ch) {
                    return None;
                }
                if drop_trailing_comma(&mut out) {
                    counts.commas += 1;
                }
                open.pop();
                out.push(ch);
                if open.is_empty() {
                    return Some((out, counts));
                }
            }
            c => out.push(c),
        }
    }
    if open.is_empty() {
        return None;
    }
    // The answer stopped inside the object: close what is open, if that cannot change meaning.
    if in_string {
        if escaped {
            // A lone backslash at the very end escapes nothing yet.
            out.pop();
        }
        out.push('"');
        counts.closed_string = true;
    } else if ends_in_open_number(&out) {
        // `12` may have been `120`: a number running into the end is a guess.
        return None;
    }
    if drop_trailing_comma(&mut out) {
        counts.commas += 1;
    }
    counts.closed_brackets = open.len();
    while let Some(close) = open.pop() {
        out.push(close);
    }
    Some((out, counts))
}

/// Whether `out` ends with a number (or anything but a complete literal) touching the end.
fn ends_in_open_number(out: &str) -> bool {
    let token_start = out
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '.')))
        .map_or(0, |(at, c)| at + c.len_utf8());
    let token = &out[token_start..];
    !token.is_empty() && !matches!(token, "true" | "false" | "null")
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        other => out.push_str(&format!("\\u{:04x}", u32::from(other))),
    }
}

/// Removes a comma that is the last thing before the bracket about to be closed.
fn drop_trailing_comma(out: &mut String) -> bool {
    let trimmed = out.trim_end();
    if trimmed.ends_with(',') {
        let at = trimmed.len() - 1;
        out.remove(at);
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn repaired(text: &str) -> (Value, Vec<JsonFix>) {
        let repair = repair_json_object(text).unwrap_or_else(|| panic!("no repair for {text:?}"));
        (repair.value, repair.fixes)
    }

    #[test]
    fn raw_newlines_and_tabs_inside_strings_are_escaped() {
        let text = "{\"rationale\": \"She waits.\nThen\tshe runs.\", \"n\": 1}";
        let (value, fixes) = repaired(text);
        assert_eq!(
            value,
            json!({"rationale": "She waits.\nThen\tshe runs.", "n": 1})
        );
        assert_eq!(fixes, [JsonFix::EscapedControlCharacters(2)]);
    }

    #[test]
    fn trailing_commas_are_removed_in_objects_and_arrays() {
        let (value, fixes) = repaired("{\"a\": [1, 2, ], \"b\": {\"c\": true,\n},}");
        assert_eq!(value, json!({"a": [1, 2], "b": {"c": true}}));
        assert_eq!(fixes, [JsonFix::RemovedTrailingCommas(3)]);
    }

    #[test]
    fn a_truncated_answer_is_closed_when_nothing_must_be_guessed() {
        let (value, fixes) = repaired("{\"title\": \"Night\", \"beats\": [\"arrive\", \"wai");
        assert_eq!(value, json!({"title": "Night", "beats": ["arrive", "wai"]}));
        assert_eq!(fixes, [JsonFix::ClosedString, JsonFix::ClosedBrackets(2)]);
        let (value, _) = repaired("{\"done\": true");
        assert_eq!(value, json!({"done": true}));
        let (value, fixes) = repaired("{\"a\": {\"b\": [true, null],");
        assert_eq!(value, json!({"a": {"b": [true, null]}}));
        assert_eq!(
            fixes,
            [
                JsonFix::RemovedTrailingCommas(1),
                JsonFix::ClosedBrackets(2)
            ]
        );
    }

    #[test]
    fn guesses_are_refused() {
        for text in [
            "{\"a\": 12",     // the number may continue
            "{\"a\": 1, \"b", // a key without a value
            "{\"a\": ",       // no value at all
            "{\"a\": [1, 2}", // mismatched bracket
            "{\"a\": tru",    // a cut literal
            "{\"a\": 1e",     // a cut exponent
            "no json at all",
            "{\"already\": \"valid\"}", // nothing to repair
        ] {
            assert_eq!(repair_json_object(text), None, "{text:?}");
        }
    }

    #[test]
    fn prose_fences_and_think_blocks_around_the_object_are_skipped() {
        let text = "<think>{\"no\": 1}</think>Here:\n```json\n{\"a\": \"x\ny\",}\n```\nDone {";
        let (value, fixes) = repaired(text);
        assert_eq!(value, json!({"a": "x\ny"}));
        assert_eq!(
            fixes,
            [
                JsonFix::EscapedControlCharacters(1),
                JsonFix::RemovedTrailingCommas(1)
            ]
        );
        let (value, _) = repaired("Sure {thinking} then {\"a\": [1,]} bye");
        assert_eq!(value, json!({"a": [1]}));
    }

    #[test]
    fn a_repaired_text_needs_no_further_repair() {
        let repair = repair_json_object("{\"a\": \"line\nbreak\", \"b\": [1,").unwrap();
        assert_eq!(repair_json_object(&repair.text), None);
        assert_eq!(
            crate::json::text::extract_json_object(&repair.text).unwrap(),
            repair.value
        );
    }

    #[test]
    fn a_cut_next_to_a_multibyte_character_does_not_panic() {
        // Found by the property tests: the end-of-number check sliced inside 'é'.
        assert_eq!(repair_json_object("{\"k\": [-3.5e2é"), None);
        let (value, _) = repaired("{\"k\": \"café");
        assert_eq!(value, json!({"k": "café"}));
    }

    #[test]
    fn a_brace_inside_a_valid_objects_string_is_not_a_second_object() {
        // Found by the fuzzer: the `{` inside the key looked like a truncated object.
        assert_eq!(repair_json_object("{\"A.{\":\":\"}"), None);
        let repair = repair_json_object("{\"A.{\":\"x\ny\"}").unwrap();
        assert_eq!(repair.value, json!({"A.{": "x\ny"}));
    }

    #[test]
    fn a_fence_marker_inside_a_string_of_a_fenced_object_is_not_its_end() {
        let text = "```json\n{\"quote\":[\"```\"]}\n```";
        assert_eq!(repair_json_object(text), None);
    }

    #[test]
    fn fixes_read_as_sentences() {
        assert_eq!(
            JsonFix::EscapedControlCharacters(1).to_string(),
            "escaped 1 raw control character (newline, tab) inside strings"
        );
        assert_eq!(
            JsonFix::ClosedBrackets(2).to_string(),
            "closed 2 brackets left open at the end"
        );
    }
}
