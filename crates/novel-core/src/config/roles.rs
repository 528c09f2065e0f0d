//! `novel.toml`'s `[models]` and `[budget]`: which provider profile plays each role of a tick
//! (by name; the profiles themselves, with their keys, stay in the user's config directory),
//! and the spending limits of a run and of the whole novel. Both are optional: without them
//! every role uses the default profile and nothing limits spending.

use serde::{Deserialize, Serialize};

/// A provider profile name per role; `None` is the default profile (or `--profile`).
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RoleProfiles {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor: Option<String>,
    /// Rewrites a draft the checks found fault with; the writer's profile when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviser: Option<String>,
    /// The second opinion (`generation.critic`); the extractor's profile when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critic: Option<String>,
}

impl RoleProfiles {
    pub fn is_empty(&self) -> bool {
        *self == RoleProfiles::default()
    }

    /// The profile named for `role` (`planner`, `writer`, `extractor`, `reviser`, `critic`);
    /// the reviser falls back to the writer's, the critic to the extractor's.
    pub fn for_role(&self, role: &str) -> Option<&str> {
        match role {
            "planner" => self.planner.as_deref(),
            "writer" => self.writer.as_deref(),
            "extractor" => self.extractor.as_deref(),
            "reviser" => self.reviser.as_deref().or(self.writer.as_deref()),
            "critic" => self.critic.as_deref().or(self.extractor.as_deref()),
            _ => None,
        }
    }
}

/// Spending limits: tokens (prompt and answer) and cost (at the profiles' prices). A run
/// pauses before the call that would pass one; the story stays as it was.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BudgetConfig {
    /// Per run (`novel tick`, `novel run --n N`, a run in the app).
    #[serde(skip_serializing_if = "novel_llm::Limits::is_unlimited")]
    pub run: novel_llm::Limits,
    /// Over the novel's committed ticks, this run included.
    #[serde(skip_serializing_if = "novel_llm::Limits::is_unlimited")]
    pub novel: novel_llm::Limits,
}

impl BudgetConfig {
    pub fn is_unlimited(&self) -> bool {
        self.run.is_unlimited() && self.novel.is_unlimited()
    }

    /// Why a limit cannot be used, if one cannot.
    pub fn problem(&self) -> Option<super::InvalidSetting> {
        for (scope, limits) in [("run", self.run), ("novel", self.novel)] {
            if let Some(cost) = limits.cost
                && !(cost.is_finite() && cost >= 0.0)
            {
                return Some(super::InvalidSetting::new(
                    format!("budget.{scope}.cost"),
                    format!("must be a number of at least 0, not {cost}"),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_budgets_read_from_toml_and_the_reviser_follows_the_writer() {
        #[derive(Deserialize)]
        struct Doc {
            models: RoleProfiles,
            budget: BudgetConfig,
        }
        let doc: Doc = toml::from_str(
            "[models]\nplanner = \"big\"\nwriter = \"local\"\n\n[budget.run]\ntokens = 50000\n\n[budget.novel]\ncost = 2.5\n",
        )
        .unwrap();
        assert_eq!(doc.models.for_role("planner"), Some("big"));
        assert_eq!(doc.models.for_role("reviser"), Some("local"));
        assert_eq!(doc.models.for_role("extractor"), None);
        assert_eq!(doc.budget.run.tokens, Some(50000));
        assert_eq!(doc.budget.novel.cost, Some(2.5));
        assert!(doc.budget.problem().is_none());
        let bad = BudgetConfig {
            run: novel_llm::Limits {
                tokens: None,
                cost: Some(-1.0),
            },
            ..BudgetConfig::default()
        };
        assert!(
            bad.problem()
                .unwrap()
                .to_string()
                .contains("[budget.run] cost")
        );
        assert!(toml::from_str::<Doc>("[models]\nplaner = \"x\"\n[budget]\n").is_err());
    }
}
