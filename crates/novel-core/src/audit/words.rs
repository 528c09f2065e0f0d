//! Text measures the audit shares: words, sentences, shingles and their overlap. Plain and
//! fast (no models): the audit must read 300 scenes in well under two seconds.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// The words of `text`, lower-cased, apostrophes kept inside words.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for ch in text.chars() {
        if ch.is_alphanumeric() || ((ch == '\'' || ch == '’') && !current.is_empty()) {
            current.extend(ch.to_lowercase());
        } else if !current.is_empty() {
            out.push(
                std::mem::take(&mut current)
                    .trim_end_matches(['\'', '’'])
                    .to_string(),
            );
        }
    }
    if !current.is_empty() {
        out.push(current.trim_end_matches(['\'', '’']).to_string());
    }
    out
}

/// The sentences of `text`: split after . ! ? (and closing quotes), and at paragraph breaks.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < bytes.len() {
        let (at, ch) = bytes[i];
        let end_here = match ch {
            '.' | '!' | '?' => {
                let mut j = i + 1;
                while j < bytes.len() && matches!(bytes[j].1, '"' | '”' | '’' | '\'' | ')') {
                    j += 1;
                }
                let next = bytes.get(j).map(|b| b.1);
                if next.is_none_or(char::is_whitespace) {
                    Some(bytes.get(j).map_or(text.len(), |b| b.0))
                } else {
                    None
                }
            }
            '\n' if bytes.get(i + 1).is_some_and(|b| b.1 == '\n') => Some(at),
            _ => None,
        };
        if let Some(end) = end_here {
            let s = text[start..end].trim();
            if s.chars().any(char::is_alphabetic) {
                out.push(s);
            }
            start = end;
        }
        i += 1;
    }
    let rest = text[start..].trim();
    if rest.chars().any(char::is_alphabetic) {
        out.push(rest);
    }
    out
}

fn hash_of(items: &[String]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    items.hash(&mut h);
    h.finish()
}

/// The sorted, distinct hashes of the `n`-word shingles of `words`.
pub fn shingles(words: &[String], n: usize) -> Vec<u64> {
    if words.len() < n {
        return Vec::new();
    }
    let mut out: Vec<u64> = words.windows(n).map(hash_of).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Jaccard overlap of two sorted, distinct hash lists (a linear merge).
pub fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// Words that carry no content, left out of comparisons of intentions and summaries.
pub const STOPWORDS: [&str; 60] = [
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "over", "under", "as", "is", "are", "was", "were", "be", "been", "it",
    "its", "he", "she", "they", "him", "her", "his", "their", "them", "i", "me", "my", "we", "our",
    "you", "your", "that", "this", "these", "those", "who", "what", "which", "not", "no", "so",
    "then", "than", "there", "up", "out", "about", "has",
];

/// The distinct content words of `text`.
pub fn content_words(text: &str) -> HashSet<String> {
    words(text)
        .into_iter()
        .filter(|w| w.len() > 2 && !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// Jaccard overlap of two word sets.
pub fn set_overlap(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let shared = a.intersection(b).count();
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// The median of `values` (0 when empty).
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len().is_multiple_of(2) {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    }
}

/// Rounded to one decimal, for numbers shown to the writer.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
