//! Review before commit: when the writer asks for it, the tick pauses twice — once with the
//! plan before any tool runs (accept, edit or reject it), once after extraction with everything
//! it is about to commit: the plan and what its tools did, the prose with the checks' findings,
//! and every memory change as its own item. The writer accepts (perhaps with edited prose and
//! some changes unticked) or rejects; a rejected tick changes nothing. Front ends supply the
//! [`Reviewer`]: the CLI asks on the terminal, the desktop app shows a review panel.

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::extraction::Extraction;
use crate::evaluate::Finding;
use crate::plan::Plan;

/// What kind of memory change an item is.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeCategory {
    NewCharacter,
    CharacterUpdate,
    NewLocation,
    LocationUpdate,
    Relationship,
    LoopOpened,
    LoopAdvanced,
    LoopResolved,
    Lore,
}

/// One memory change the scene's extraction proposes.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProposedChange {
    /// Its number in the proposal; unticking names it.
    pub index: u32,
    pub category: ChangeCategory,
    /// What it is about: a name or an id.
    pub subject: String,
    /// The change in words.
    pub summary: String,
    /// Each field it sets, before → after, in words (filled against the memory by
    /// `proposed_changes_in_words`; empty for something new).
    pub lines: Vec<super::words::ChangeLine>,
}

/// One tool call of the plan and how it went.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolOutcome {
    pub tool: String,
    pub ok: bool,
    /// Its result or its error, shortened.
    pub detail: String,
}

/// Everything the tick is about to commit.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub tick: u32,
    pub plan: Plan,
    pub tools: Vec<ToolOutcome>,
    pub title: String,
    pub summary: Vec<String>,
    pub tension: u8,
    pub prose: String,
    pub findings: Vec<Finding>,
    pub changes: Vec<ProposedChange>,
    /// What the engine repaired or dropped on the way.
    pub notes: Vec<String>,
}

/// The writer's answer to a [`Proposal`].
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Verdict {
    /// Commit, with the writer's prose if they edited it, without the changes they unticked.
    Accept {
        #[serde(default)]
        prose: Option<String>,
        #[serde(default)]
        unticked: Vec<u32>,
    },
    /// Commit nothing.
    Reject,
}

/// The writer's answer to a plan, before any tool runs.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum PlanVerdict {
    Accept,
    /// Run this plan instead (it is validated like the planner's).
    Edit {
        plan: Plan,
    },
    Reject,
}

/// Someone who reviews ticks before they commit.
pub trait Reviewer: Send + Sync {
    /// The plan, before its tools run. Accepted unless a reviewer says otherwise.
    fn review_plan<'a>(&'a self, _tick: u32, _plan: &'a Plan) -> BoxFuture<'a, PlanVerdict> {
        Box::pin(async { PlanVerdict::Accept })
    }

    /// Everything the tick is about to commit.
    fn review<'a>(&'a self, proposal: &'a Proposal) -> BoxFuture<'a, Verdict>;
}

impl Extraction {
    /// Every memory change this extraction proposes, numbered in a fixed order.
    pub fn proposed_changes(&self) -> Vec<ProposedChange> {
        let mut out = Vec::new();
        let mut push = |category, subject: &str, summary: String| {
            out.push(ProposedChange {
                index: out.len() as u32,
                category,
                subject: subject.to_string(),
                summary,
                lines: Vec::new(),
            });
        };
        for c in &self.new_characters {
            push(
                ChangeCategory::NewCharacter,
                &c.name,
                describe(&[&c.role, &c.description]),
            );
        }
        for c in &self.character_updates {
            push(ChangeCategory::CharacterUpdate, &c.id, c.describe());
        }
        for l in &self.new_locations {
            push(
                ChangeCategory::NewLocation,
                &l.name,
                describe(&[&l.description]),
            );
        }
        for l in &self.location_updates {
            push(ChangeCategory::LocationUpdate, &l.id, l.describe());
        }
        for r in &self.relationship_changes {
            let summary = [r.kind.as_deref(), r.status.as_deref(), r.event.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("; ");
            push(
                ChangeCategory::Relationship,
                &format!("{} – {}", r.character_a, r.character_b),
                summary,
            );
        }
        for l in &self.loops_opened {
            push(
                ChangeCategory::LoopOpened,
                &l.category,
                l.description.clone(),
            );
        }
        for l in &self.loops_advanced {
            push(ChangeCategory::LoopAdvanced, &l.id, l.note.clone());
        }
        for l in &self.loops_resolved {
            push(ChangeCategory::LoopResolved, &l.id, l.note.clone());
        }
        for f in &self.lore {
            push(ChangeCategory::Lore, &f.category, f.fact.clone());
        }
        out
    }

    /// This extraction without the changes numbered in `unticked` (see
    /// [`Self::proposed_changes`]).
    pub fn without(mut self, unticked: &[u32]) -> Extraction {
        let mut next = 0u32;
        let mut keep = || {
            let kept = !unticked.contains(&next);
            next += 1;
            kept
        };
        self.new_characters.retain(|_| keep());
        self.character_updates.retain(|_| keep());
        self.new_locations.retain(|_| keep());
        self.location_updates.retain(|_| keep());
        self.relationship_changes.retain(|_| keep());
        self.loops_opened.retain(|_| keep());
        self.loops_advanced.retain(|_| keep());
        self.loops_resolved.retain(|_| keep());
        self.lore.retain(|_| keep());
        self
    }
}

fn describe(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" — ")
}

impl super::extraction::RecordChange {
    fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .changes
            .iter()
            .map(|(k, v)| format!("{k}: {}", crate::text::clip(&plain(v), 80)))
            .collect();
        parts.extend(
            self.append
                .iter()
                .map(|(k, v)| format!("{k} + {}", crate::text::clip(&plain(v), 80))),
        );
        parts.join("; ")
    }
}

fn plain(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "(removed)".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unticking_removes_exactly_the_numbered_changes() {
        let e: Extraction = serde_json::from_value(json!({
            "title": "t", "summary": ["s"], "tension": 3,
            "new_characters": [{"name": "Bram", "role": "dockhand"}],
            "character_updates": [{"id": "C0", "changes": {"emotional_state": "wary"}}],
            "loops_opened": [{"description": "Who wrote her name?"}, {"description": "Where is the key?"}]
        }))
        .unwrap();
        let changes = e.proposed_changes();
        let summary: Vec<(u32, ChangeCategory, &str)> = changes
            .iter()
            .map(|c| (c.index, c.category, c.summary.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (0, ChangeCategory::NewCharacter, "dockhand"),
                (1, ChangeCategory::CharacterUpdate, "emotional_state: wary"),
                (2, ChangeCategory::LoopOpened, "Who wrote her name?"),
                (3, ChangeCategory::LoopOpened, "Where is the key?"),
            ]
        );
        let kept = e.without(&[0, 2]);
        assert!(kept.new_characters.is_empty());
        assert_eq!(kept.character_updates.len(), 1);
        assert_eq!(kept.loops_opened.len(), 1);
        assert_eq!(kept.loops_opened[0].description, "Where is the key?");
    }
}
