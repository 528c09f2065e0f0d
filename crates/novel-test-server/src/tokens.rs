//! The test server's stand-in for a model's tokenizer, used by the prompt cache: a chat request
//! flattened the way llama.cpp's chat template flattens it, cut into tokens by a rule that is
//! cheap, deterministic, and close to a BPE in count (about four characters a token in English).
//!
//! Flattening (ChatML, the template of many models llama.cpp serves): for each message in order,
//! `<|im_start|>` `ROLE\n` CONTENT `<|im_end|>` `\n`; then `<|im_start|>` `assistant\n`, the
//! prompt for the answer. The two markers are one token each. CONTENT is the message's string
//! content, or the `text` of its content parts in order, followed by its `tool_calls` as JSON
//! when it has any. Role and content are tokenized apart, so an answer tokenized on its own
//! (what a slot keeps after answering) matches the same text sent back as an assistant message.
//!
//! Cutting text: whitespace joins the word after it; a word is a run of letters, a run of
//! digits, or one other character (punctuation, a symbol); a word longer than four characters is
//! cut every four, the whitespace staying with the first piece; whitespace at the very end is a
//! token of its own. So `" harbour,"` is `" harb"`, `"our"`, `","`. Equal texts give equal
//! tokens, and texts that share a beginning share their tokens up to the word where they part.
//!
//! A token is the 64-bit FNV-1a hash of its text: comparing hashes is comparing the pieces,
//! short of a collision no test will meet.

use serde_json::Value;

/// One token: the hash of its piece of text.
pub type Token = u64;

/// Opens a message in ChatML.
const IM_START: &str = "<|im_start|>";
/// Closes a message in ChatML.
const IM_END: &str = "<|im_end|>";
/// The longest piece a word is cut into, in characters.
const PIECE_CHARS: usize = 4;

/// The tokens of a chat request's prompt, generation prompt included.
pub fn prompt(body: &Value) -> Vec<Token> {
    let mut tokens = Vec::new();
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for message in messages {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
        tokens.push(special(IM_START));
        push_text(&mut tokens, &format!("{role}\n"));
        push_text(&mut tokens, &content(message));
        tokens.push(special(IM_END));
        push_text(&mut tokens, "\n");
    }
    tokens.push(special(IM_START));
    push_text(&mut tokens, "assistant\n");
    tokens
}

/// The tokens of plain text, e.g. an answer.
pub fn text(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    push_text(&mut tokens, text);
    tokens
}

/// A message's text as the template renders it.
fn content(message: &Value) -> String {
    let mut text = match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    };
    if let Some(calls) = message.get("tool_calls").filter(|calls| !calls.is_null()) {
        text.push_str(&calls.to_string());
    }
    text
}

fn push_text(tokens: &mut Vec<Token>, text: &str) {
    let mut rest = text;
    while !rest.is_empty() {
        let Some((word_at, first)) = rest.char_indices().find(|(_, ch)| !ch.is_whitespace()) else {
            tokens.push(hash(rest));
            return;
        };
        let after = &rest[word_at..];
        let word_len = if first.is_alphabetic() {
            run_len(after, char::is_alphabetic)
        } else if first.is_numeric() {
            run_len(after, char::is_numeric)
        } else {
            first.len_utf8()
        };
        let word = &after[..word_len];
        let mut piece_start = 0;
        for (count, (offset, _)) in word.char_indices().enumerate() {
            if count > 0 && count % PIECE_CHARS == 0 {
                let cut = word_at + offset;
                tokens.push(hash(&rest[piece_start..cut]));
                piece_start = cut;
            }
        }
        let end = word_at + word_len;
        tokens.push(hash(&rest[piece_start..end]));
        rest = &rest[end..];
    }
}

/// Bytes of the run of characters at the start of `text` that `keep` accepts.
fn run_len(text: &str, keep: fn(char) -> bool) -> usize {
    text.find(|ch: char| !keep(ch)).unwrap_or(text.len())
}

/// A template marker: hashed apart from text, so no text ever tokenizes to it.
fn special(marker: &str) -> Token {
    // A text piece that starts with NUL is NUL alone, so this never equals a piece's hash input.
    hash(&format!("\u{0}{marker}"))
}

fn hash(piece: &str) -> Token {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    piece.bytes().fold(OFFSET_BASIS, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pieces(text: &str) -> Vec<Token> {
        super::text(text)
    }

    #[test]
    fn whitespace_joins_the_next_word_and_long_words_are_cut_every_four() {
        assert_eq!(
            pieces(" harbour,"),
            vec![hash(" harb"), hash("our"), hash(",")]
        );
        assert_eq!(
            pieces("Mira waited 12345 days.\n\n"),
            ["Mira", " wait", "ed", " 1234", "5", " days", ".", "\n\n"]
                .map(hash)
                .to_vec()
        );
        assert_eq!(pieces("ünïcode"), ["ünïc", "ode"].map(hash).to_vec());
        assert!(pieces("").is_empty());
        assert_eq!(pieces("   "), vec![hash("   ")]);
    }

    #[test]
    fn prose_runs_about_four_characters_a_token() {
        let prose = "The rain had not stopped for three days, and the harbour smelled of tar and \
                     old rope when Mira finally found the letter under the loose board.";
        let ratio = prose.chars().count() as f64 / pieces(prose).len() as f64;
        assert!((3.0..=5.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn a_shared_beginning_gives_shared_tokens_up_to_the_parting_word() {
        let a = pieces("The harbour slept, and Mira waited by the gate.");
        let b = pieces("The harbour slept, and Tamsin ran.");
        let shared = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        assert_eq!(shared, pieces("The harbour slept, and").len());
    }

    #[test]
    fn prompts_flatten_messages_in_order_with_one_token_markers() {
        let body = json!({"messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
        ]});
        let mut expected = vec![special(IM_START)];
        expected.extend(pieces("system\n"));
        expected.extend(pieces("Be brief."));
        expected.extend([special(IM_END), hash("\n"), special(IM_START)]);
        expected.extend(pieces("user\n"));
        expected.extend(pieces("Hi"));
        expected.extend([special(IM_END), hash("\n"), special(IM_START)]);
        expected.extend(pieces("assistant\n"));
        assert_eq!(prompt(&body), expected);
        assert_eq!(prompt(&json!({})).len(), 1 + pieces("assistant\n").len());
        assert_ne!(special(IM_START), hash(IM_START));
    }

    #[test]
    fn an_answer_matches_itself_sent_back_in_the_next_turn() {
        let first = json!({"messages": [{"role": "user", "content": "Write."}]});
        let answer = "The gate, at last.";
        let next = json!({"messages": [
            {"role": "user", "content": "Write."},
            {"role": "assistant", "content": answer},
            {"role": "user", "content": "More."},
        ]});
        let mut kept = prompt(&first);
        kept.extend(text(answer));
        assert!(prompt(&next).starts_with(&kept));
        let with_calls = json!({"messages": [
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1"}]}
        ]});
        assert!(
            prompt(&with_calls).len() > prompt(&json!({"messages": [{"role": "assistant"}]})).len()
        );
    }
}
