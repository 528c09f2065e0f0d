//! Token budgets per context section and the one trimming rule they all share: a section over
//! its budget loses whole items (least important end first) and shows a visible marker, and a
//! single item too big on its own is cut between words, never inside one. Counting uses the
//! real tokenizer of `novel_llm`, so a budget means what the provider will bill.

use novel_llm::count_tokens;
use serde::{Deserialize, Serialize};

pub use crate::config::{ContextBudgets, SectionKind};

/// More characters a token than any English text averages (about four): a text longer than
/// this many characters per token of budget is over budget without being counted.
const CHARS_PER_TOKEN_MAX: usize = 10;

/// What a reader of the prompt sees where something was cut for space.
pub const TRIM_MARKER: &str = "…(trimmed)";

/// One rendered section and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section {
    pub text: String,
    pub tokens: u32,
    pub trimmed: bool,
}

impl Section {
    pub(crate) fn new(text: String, trimmed: bool) -> Section {
        let tokens = count_tokens(&text);
        Section::counted(text, tokens, trimmed)
    }

    /// A section whose tokens were already counted (counting is the costly part of fitting).
    fn counted(text: String, tokens: u32, trimmed: bool) -> Section {
        Section {
            text,
            tokens,
            trimmed,
        }
    }
}

/// A section's size against its budget, for the context preview.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionReport {
    pub name: String,
    pub tokens: u32,
    pub budget: u32,
    pub trimmed: bool,
}

/// Which end of a list of items matters most, i.e. which end survives trimming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Items come most important first; drop from the end.
    Head,
    /// Items come oldest first and the newest matter most; drop from the start.
    Tail,
}

/// Joins `items` with newlines, dropping items from the less important end until the text
/// and its marker fit `budget`. When not even one item fits, the most important one is cut
/// between words.
pub(crate) fn fit_items(items: Vec<String>, budget: u32, keep: Keep) -> Section {
    fit_counting(items, budget, keep).0
}

/// [`fit_items`], also saying how many items survived whole (counted from the kept end).
pub(crate) fn fit_counting(items: Vec<String>, budget: u32, keep: Keep) -> (Section, usize) {
    let items: Vec<String> = items.into_iter().filter(|i| !i.trim().is_empty()).collect();
    let full = items.join("\n");
    // Counting is the costly part, and a list far longer than its budget (every character and
    // place of a long novel) need not be counted whole to know it does not fit: no English
    // text runs to more than CHARS_PER_TOKEN_MAX characters a token.
    if full.len() <= budget as usize * CHARS_PER_TOKEN_MAX {
        let tokens = count_tokens(&full);
        if tokens <= budget {
            return (Section::counted(full, tokens, false), items.len());
        }
    }
    let marker_cost = count_tokens(TRIM_MARKER) + 1;
    let room = budget.saturating_sub(marker_cost);
    let order: Vec<usize> = match keep {
        Keep::Head => (0..items.len()).collect(),
        Keep::Tail => (0..items.len()).rev().collect(),
    };
    // Per-item counts (plus the newline) only estimate the joined count, so the estimate picks
    // a starting point and the exact count of the joined text has the last word. Items past
    // the budget are never counted.
    let mut kept = 0;
    let mut used = 0;
    for &i in &order {
        let cost = count_tokens(&items[i]) + 1;
        if used + cost > room {
            break;
        }
        used += cost;
        kept += 1;
    }
    if kept == items.len() {
        // Everything fits after all (text of unusually long tokens): nothing is trimmed.
        let tokens = count_tokens(&full);
        if tokens <= budget {
            return (Section::counted(full, tokens, false), items.len());
        }
    }
    loop {
        if kept == 0 {
            let Some(&first) = order.first() else {
                return (Section::new(String::new(), true), 0);
            };
            let cut = cut_words(&items[first], room.saturating_sub(1));
            let text = if cut.is_empty() {
                TRIM_MARKER.to_string()
            } else {
                format!("{cut} {TRIM_MARKER}")
            };
            return (Section::new(text, true), 0);
        }
        let text = assemble(&items, &order[..kept], keep);
        let tokens = count_tokens(&text);
        if tokens <= budget {
            return (Section::counted(text, tokens, true), kept);
        }
        kept -= 1;
    }
}

/// The items the budget keeps (chosen in the order given: the focus and the recently active
/// first), listed in id order, characters before places. Recency changes every tick and ids do
/// not, so listed by id a section stays the same from tick to tick until someone new appears
/// at its end, which keeps the prompt's prefix cacheable.
pub(crate) fn fit_in_id_order(items: Vec<(&str, String)>, budget: u32) -> Section {
    let total = items.len();
    let (ids, lines): (Vec<&str>, Vec<String>) = items.into_iter().unzip();
    let (chosen, kept) = fit_counting(lines.clone(), budget, Keep::Head);
    if kept == 0 {
        // Not even one fits whole: the first pass cut the most important one.
        return chosen;
    }
    let mut kept_items: Vec<(&str, String)> = ids.into_iter().zip(lines).take(kept).collect();
    kept_items.sort_by_key(|(id, _)| id_order(id));
    let mut lines: Vec<String> = kept_items.into_iter().map(|(_, line)| line).collect();
    if kept == total {
        return fit_items(lines, budget, Keep::Head);
    }
    lines.push(TRIM_MARKER.to_string());
    let listed = Section::new(lines.join("\n"), true);
    // The same lines in another order cost the same but for a token at a seam; should that
    // tip it over, the first pass's order stands.
    if listed.tokens <= budget {
        listed
    } else {
        chosen
    }
}

/// Ids sort by kind (characters before places), then by number (C2 before C10), then as
/// text for anything unexpected.
fn id_order(id: &str) -> (bool, u64, String) {
    let digits: String = id.chars().skip_while(|c| !c.is_ascii_digit()).collect();
    (
        !id.starts_with('C'),
        digits.parse().unwrap_or(u64::MAX),
        id.to_string(),
    )
}

fn assemble(items: &[String], chosen: &[usize], keep: Keep) -> String {
    let mut chosen = chosen.to_vec();
    chosen.sort_unstable();
    let body = chosen
        .iter()
        .map(|&i| items[i].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    match keep {
        Keep::Head => format!("{body}\n{TRIM_MARKER}"),
        Keep::Tail => format!("{TRIM_MARKER}\n{body}"),
    }
}

/// The longest run of whole words from the start of `text` that fits `budget` tokens.
pub(crate) fn cut_words(text: &str, budget: u32) -> String {
    prefix_fitting(text, budget).trim_end().to_string()
}

/// The longest run of whole words from the end of `text` that fits `budget` tokens.
pub(crate) fn cut_words_from_start(text: &str, budget: u32) -> String {
    let starts = word_starts(text);
    // Binary search over where the kept suffix starts: later starts keep fewer tokens.
    let (mut lo, mut hi) = (0usize, starts.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if count_tokens(&text[starts[mid]..]) <= budget {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    starts
        .get(lo)
        .map(|&s| text[s..].to_string())
        .unwrap_or_default()
}

fn prefix_fitting(text: &str, budget: u32) -> &str {
    let ends = word_ends(text);
    let (mut lo, mut hi) = (0usize, ends.len());
    // Largest k such that the first k words fit.
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if count_tokens(&text[..ends[mid - 1]]) <= budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == 0 { "" } else { &text[..ends[lo - 1]] }
}

/// Byte offsets just after each word.
fn word_ends(text: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if in_word {
                ends.push(i);
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    if in_word {
        ends.push(text.len());
    }
    ends
}

/// Byte offsets where each word starts.
pub(crate) fn word_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut prev_space = true;
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if prev_space && !space {
            starts.push(i);
        }
        prev_space = space;
    }
    starts
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::config::NovelConfig;
    use crate::context::fixture::novel;
    use crate::context::gather;
    use crate::prompts::planner_request;
    use crate::tools::ToolRegistry;

    /// `novel.toml` as the fixture novel has it, plus `extra` appended.
    fn novel_toml_with(config: &NovelConfig, extra: &str) -> NovelConfig {
        let text = format!("{}\n{extra}", toml::to_string_pretty(config).unwrap());
        NovelConfig::parse(&text, Path::new("novel.toml")).unwrap()
    }

    #[test]
    fn a_smaller_budget_in_novel_toml_shrinks_that_section_of_the_prompt() {
        let f = novel(8);
        let tight = novel_toml_with(&f.config, "[generation.context]\nrecent = 80\n");
        let registry = ToolRegistry::standard();

        let roomy = gather(f.store.conn(), &f.config, &f.config.generation.context).unwrap();
        let small = gather(f.store.conn(), &tight, &tight.generation.context).unwrap();
        let recent = |ctx: &crate::context::StoryContext| {
            ctx.sections()
                .into_iter()
                .find(|s| s.name == "recent")
                .unwrap()
        };
        let (roomy_recent, small_recent) = (recent(&roomy), recent(&small));
        assert!(
            roomy_recent.tokens > 80,
            "the fixture must overflow 80 tokens"
        );
        assert!(!roomy_recent.trimmed);
        assert_eq!(small_recent.budget, 80);
        assert!(small_recent.tokens <= 80 && small_recent.trimmed);
        assert!(small.text(SectionKind::Recent).contains(TRIM_MARKER));
        // Only the configured section changed.
        assert_eq!(
            small.text(SectionKind::Foundation),
            roomy.text(SectionKind::Foundation)
        );

        let prompt = |ctx| {
            let request = planner_request(ctx, &registry, None).unwrap();
            request.messages[0].content.clone()
        };
        let (roomy_prompt, small_prompt) = (prompt(&roomy), prompt(&small));
        assert!(small_prompt.contains(small.text(SectionKind::Recent)));
        assert!(
            novel_llm::count_tokens(&small_prompt) + 40 < novel_llm::count_tokens(&roomy_prompt),
            "the rendered planner prompt shrinks with the budget"
        );
    }

    #[test]
    fn every_section_is_validated_by_name() {
        assert!(ContextBudgets::default().validate().is_ok());
        for kind in SectionKind::ALL {
            let mut budgets = ContextBudgets::default();
            match kind {
                SectionKind::Foundation => budgets.foundation = 0,
                SectionKind::Summary => budgets.summary = 0,
                SectionKind::Recent => budgets.recent = 0,
                SectionKind::PreviousTail => budgets.previous_tail = 0,
                SectionKind::Loops => budgets.loops = 0,
                SectionKind::Character => budgets.character = 0,
                SectionKind::Relationships => budgets.relationships = 0,
                SectionKind::Location => budgets.location = 0,
                SectionKind::Lore => budgets.lore = 0,
                SectionKind::ToolResults => budgets.tool_results = 0,
                SectionKind::Steering => budgets.steering = 0,
                SectionKind::Entities => budgets.entities = 0,
                SectionKind::Recalled => budgets.recalled = 0,
                SectionKind::Mentioned => budgets.mentioned = 0,
                SectionKind::AuthorNote => budgets.author_note = 0,
                SectionKind::Outline => budgets.outline = 0,
                SectionKind::Pressure => budgets.pressure = 0,
                SectionKind::Cast => budgets.cast = 0,
            }
            let err = budgets.validate().unwrap_err();
            assert_eq!(err.key, format!("generation.context.{}", kind.as_str()));
            let shown = err.to_string();
            assert!(
                shown.starts_with(&format!("[generation.context] {} (0)", kind.as_str())),
                "{shown}"
            );
        }
    }
}
