//! `novel.toml`'s `[models]` and `[budget]`: which provider profile plays each role of a tick
//! (by name; the profiles themselves, with their keys, stay in the user's config directory),
//! and the spending limits of a run and of the whole novel. Both are optional: without them
//! every role uses the default profile and nothing limits spending. Also the one name of the
//! roles themselves ([`Role`]), which models, usage, prompts and events all speak of.

use serde::{Deserialize, Serialize};

/// An LLM role of a tick: which model answers, whose usage is counted, which prompt template
/// is rendered. Serialized as its lower-case name (`"planner"`), as novel.toml, the tick
/// records and the bindings spell it. Declared in alphabetical order so that maps keyed by
/// role keep the order the stored string-keyed maps always had.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The optional second opinion on the checks' findings.
    Critic,
    Extractor,
    Planner,
    /// Rewrites a draft the checks found fault with.
    Reviser,
    Writer,
}

/// A role name that is none of [`Role`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown role `{0}` (the roles are planner, writer, reviser, extractor and critic)")]
pub struct UnknownRole(pub String);

impl Role {
    /// Every role, in the order a tick calls them.
    pub const ALL: [Role; 5] = [
        Role::Planner,
        Role::Writer,
        Role::Reviser,
        Role::Extractor,
        Role::Critic,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Planner => "planner",
            Role::Writer => "writer",
            Role::Reviser => "reviser",
            Role::Extractor => "extractor",
            Role::Critic => "critic",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Role {
    type Err = UnknownRole;

    /// The role named exactly so; any other name is an error, never a guess.
    fn from_str(name: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == name)
            .ok_or_else(|| UnknownRole(name.to_string()))
    }
}

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

    /// The profile named for `role` itself, without falling back to another role's.
    pub fn named(&self, role: Role) -> Option<&str> {
        match role {
            Role::Planner => self.planner.as_deref(),
            Role::Writer => self.writer.as_deref(),
            Role::Extractor => self.extractor.as_deref(),
            Role::Reviser => self.reviser.as_deref(),
            Role::Critic => self.critic.as_deref(),
        }
    }

    /// The profile named for `role`; the reviser falls back to the writer's, the critic to
    /// the extractor's.
    pub fn for_role(&self, role: Role) -> Option<&str> {
        match role {
            Role::Reviser => self.named(role).or(self.named(Role::Writer)),
            Role::Critic => self.named(role).or(self.named(Role::Extractor)),
            _ => self.named(role),
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
    pub fn problem(&self) -> Option<super::invalid::InvalidSetting> {
        for (scope, limits) in [("run", self.run), ("novel", self.novel)] {
            if let Some(cost) = limits.cost
                && !(cost.is_finite() && cost >= 0.0)
            {
                return Some(super::invalid::InvalidSetting::new(
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
        assert_eq!(doc.models.for_role(Role::Planner), Some("big"));
        assert_eq!(doc.models.for_role(Role::Reviser), Some("local"));
        assert_eq!(doc.models.for_role(Role::Extractor), None);
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

    #[test]
    fn roles_keep_their_names_and_an_unknown_role_is_refused() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>(), Ok(role));
            assert_eq!(serde_json::to_value(role).unwrap(), role.as_str());
        }
        let err = "writter".parse::<Role>().unwrap_err();
        assert_eq!(err, UnknownRole("writter".into()));
        assert!(err.to_string().contains("unknown role `writter`"), "{err}");
        assert!(serde_json::from_str::<Role>("\"revision\"").is_err());
        // Maps keyed by role keep the alphabetical order the stored string keys had.
        let mut sorted = Role::ALL;
        sorted.sort();
        let names: Vec<_> = sorted.iter().map(|r| r.as_str()).collect();
        let mut by_name = names.clone();
        by_name.sort();
        assert_eq!(names, by_name);
    }
}
