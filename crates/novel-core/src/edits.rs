//! The writer's own changes to a novel, outside a tick: editing a scene's prose, skipping a
//! failed tick, changing the generation settings, choosing each role's provider profile and
//! setting the spending limits. Each is one transaction (or one atomic
//! file write), recorded in the entity history with the source "user".

use crate::clock::{Clock, timestamp};
use crate::config::{BudgetConfig, GenerationSettings, NovelConfig, Role, RoleProfiles};
use crate::files::{scene_path, write_scene};
use crate::layout::CONFIG_FILE;
use crate::model::{Scene, count_words};
use crate::novel::{Novel, NovelError};
use crate::store::{self, ChangeKind, HistoryEntry, NewVersion, StoreError, VersionOrigin};

#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("there is no scene for tick {tick}")]
    NoSuchScene { tick: u32 },
    #[error("a scene cannot be empty; write some prose or keep the old text")]
    EmptyProse,
    #[error("tick {tick} has no failure waiting to be skipped")]
    NothingToSkip { tick: u32 },
    #[error(
        "there is no provider profile called \"{name}\" for the {role}; add it under AI providers or choose another"
    )]
    UnknownProfile { role: Role, name: String },
    #[error("these settings cannot be saved: {0}")]
    InvalidSettings(#[from] crate::config::InvalidSetting),
    #[error(transparent)]
    Novel(#[from] NovelError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("could not write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

fn writable(novel: &mut Novel) -> Result<&mut store::Store, EditError> {
    let root = novel.root().to_path_buf();
    novel
        .store_mut()
        .ok_or(EditError::Novel(NovelError::ReadOnly { path: root }))
}

/// Replaces the prose of the scene of `tick` with the writer's text; updates its word count,
/// search passages (re-indexed by the store), history and `scenes/scene_NNN.md`. The edit is a
/// recorded change of the story (undoable) and a new version of the scene.
pub fn edit_scene_prose(
    novel: &mut Novel,
    tick: u32,
    prose: &str,
    clock: &dyn Clock,
) -> Result<Scene, EditError> {
    let prose = prose.trim();
    if prose.is_empty() {
        return Err(EditError::EmptyProse);
    }
    replace_prose(
        novel,
        tick,
        prose,
        None,
        VersionOrigin::Edit,
        &timestamp(clock.now()),
    )
}

/// Makes version `version_id` the text of its scene again: a recorded change and a new
/// version (a restore), so the restore itself can be undone.
pub fn restore_version(
    novel: &mut Novel,
    version_id: i64,
    clock: &dyn Clock,
) -> Result<Scene, EditError> {
    let version = store::get_version(novel.store().conn(), version_id)?;
    replace_prose(
        novel,
        version.tick,
        &version.prose,
        Some(&version.title),
        VersionOrigin::Restore,
        &timestamp(clock.now()),
    )
}

fn replace_prose(
    novel: &mut Novel,
    tick: u32,
    prose: &str,
    title: Option<&str>,
    origin: VersionOrigin,
    now: &str,
) -> Result<Scene, EditError> {
    let root = novel.root().to_path_buf();
    let store = writable(novel)?;
    let state_tick = store::load_state(store.conn())?.current_tick;
    let label = format!("{} scene {tick}", origin.as_str());
    store.recorded(
        ChangeKind::Edit,
        state_tick,
        &label,
        now,
        |tx| {
            let mut scene = store::list_scenes(tx)?
                .into_iter()
                .find(|s| s.tick == tick)
                .ok_or(EditError::NoSuchScene { tick })?;
            let old_words = scene.word_count;
            scene.prose = prose.to_string();
            scene.word_count = count_words(prose);
            store::update_scene_prose(tx, &scene.id, &scene.prose, scene.word_count)?;
            if let Some(title) = title.filter(|t| *t != scene.title) {
                store::update_scene_title(tx, &scene.id, title)?;
                scene.title = title.to_string();
            }
            store::append_history(
                tx,
                &HistoryEntry {
                    entity_id: scene.id.clone(),
                    tick: state_tick,
                    field: "prose".into(),
                    change: format!(
                        "{} by the writer at {now} ({old_words} → {} words)",
                        if origin == VersionOrigin::Restore {
                            "restored"
                        } else {
                            "edited"
                        },
                        scene.word_count
                    ),
                    old_value: None,
                    new_value: None,
                    flagged: false,
                    source: "user".into(),
                },
            )?;
            Ok(scene)
        },
        |tx, scene, seq| {
            let branch = store::head(tx)?.branch_name;
            store::insert_version(
                tx,
                &NewVersion {
                    tick,
                    branch: &branch,
                    origin,
                    title: &scene.title,
                    prose: &scene.prose,
                    words: scene.word_count,
                    change_seq: seq,
                    created_at: now,
                },
            )?;
            // The file is rewritten before the commit so a failed write leaves both copies as
            // they were.
            write_scene(&root, tick, &scene.title, &scene.summary, &scene.prose).map_err(
                |source| EditError::Io {
                    path: scene_path(&root, tick).display().to_string(),
                    source,
                },
            )?;
            Ok(())
        },
    )
}

/// Gives up on the failed next tick: its failure is marked resolved so the next tick starts
/// fresh instead of being offered as a retry. The story itself is not touched.
pub fn skip_failed_tick(novel: &mut Novel, tick: u32) -> Result<(), EditError> {
    let store = writable(novel)?;
    let tx = store.transaction()?;
    let pending = store::list_failures(&tx)?
        .into_iter()
        .any(|f| f.tick == tick && !f.resolved);
    if !pending {
        return Err(EditError::NothingToSkip { tick });
    }
    store::resolve_failures(&tx, tick)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(())
}

/// Validates and saves new generation settings to `novel.toml`.
pub fn set_generation_settings(
    novel: &mut Novel,
    generation: GenerationSettings,
) -> Result<NovelConfig, EditError> {
    writable(novel)?;
    // The roles and the budget are kept: the generation settings are one table of novel.toml.
    let config = NovelConfig {
        generation,
        ..novel.config().clone()
    };
    save_config(novel, config)
}

/// Sets which provider profile plays each role of `novel` (novel.toml's `[models]`; `None`
/// is the default profile). Every name must be one of `profiles`, so a typo cannot wait for
/// the next scene to fail.
pub fn set_role_profiles(
    novel: &mut Novel,
    models: RoleProfiles,
    profiles: &novel_llm::ProviderConfig,
) -> Result<NovelConfig, EditError> {
    writable(novel)?;
    for role in Role::ALL {
        if let Some(name) = models.named(role)
            && profiles.profile(name).is_none()
        {
            return Err(EditError::UnknownProfile {
                role,
                name: name.to_string(),
            });
        }
    }
    let config = NovelConfig {
        models,
        ..novel.config().clone()
    };
    save_config(novel, config)
}

/// Sets `novel`'s spending limits per run and over the whole novel (novel.toml's `[budget]`).
pub fn set_budget(novel: &mut Novel, budget: BudgetConfig) -> Result<NovelConfig, EditError> {
    writable(novel)?;
    let config = NovelConfig {
        budget,
        ..novel.config().clone()
    };
    save_config(novel, config)
}

fn save_config(novel: &mut Novel, config: NovelConfig) -> Result<NovelConfig, EditError> {
    config.validate()?;
    config
        .save(&novel.root().join(CONFIG_FILE))
        .map_err(NovelError::from)?;
    novel.reload_config()?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use novel_llm::ScriptedModel;

    use super::*;
    use crate::tick::tests::{PROSE, clock, extraction, novel};
    use crate::tick::{CancelToken, Models, TickOptions, run_tick};

    async fn one_scene(novel: &mut Novel) {
        let plan = serde_json::json!({"rationale": "r", "scene_intention": "i",
            "pov_character": "C0", "target_location": "L0", "actions": []});
        let model = ScriptedModel::new()
            .reply_json(&plan)
            .reply(PROSE)
            .reply_json(&extraction());
        let models = Models::single(Arc::new(model));
        run_tick(
            novel,
            &models,
            &TickOptions::default(),
            &(),
            &CancelToken::new(),
            &clock(),
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn an_edit_updates_prose_words_search_history_and_the_scene_file() {
        let (_tmp, mut novel) = novel();
        one_scene(&mut novel).await;
        let scene =
            edit_scene_prose(&mut novel, 1, "  The lighthouse keeper sang.  ", &clock()).unwrap();
        assert_eq!(
            (scene.prose.as_str(), scene.word_count),
            ("The lighthouse keeper sang.", 4)
        );
        let conn = novel.store().conn();
        assert_eq!(store::list_scenes(conn).unwrap()[0].word_count, 4);
        let hits = store::search(conn, "lighthouse keeper", &[], 5).unwrap();
        assert_eq!(
            hits.len(),
            1,
            "the new prose is one passage, not a duplicate: {hits:?}"
        );
        assert_eq!(hits[0].entity_id, scene.id);
        // The summary stays one passage too ("He hides her." is a summary bullet).
        assert_eq!(store::search(conn, "hides", &[], 5).unwrap().len(), 1);
        let history = store::history_of(conn, &scene.id).unwrap();
        assert_eq!(history.last().unwrap().source, "user");
        let file = std::fs::read_to_string(crate::files::scene_path(novel.root(), 1)).unwrap();
        assert!(file.contains("The lighthouse keeper sang."), "{file}");
    }

    #[tokio::test]
    async fn empty_prose_and_missing_scenes_are_refused_without_change() {
        let (_tmp, mut novel) = novel();
        one_scene(&mut novel).await;
        let before = crate::tick::tests::fingerprint(&novel);
        assert!(matches!(
            edit_scene_prose(&mut novel, 1, "   ", &clock()),
            Err(EditError::EmptyProse)
        ));
        assert!(matches!(
            edit_scene_prose(&mut novel, 7, "text", &clock()),
            Err(EditError::NoSuchScene { tick: 7 })
        ));
        assert_eq!(crate::tick::tests::fingerprint(&novel), before);
    }

    #[test]
    fn skipping_needs_a_pending_failure_and_settings_are_validated() {
        let (_tmp, mut novel) = novel();
        assert!(matches!(
            skip_failed_tick(&mut novel, 1),
            Err(EditError::NothingToSkip { tick: 1 })
        ));
        let bad = GenerationSettings {
            target_words_min: 900,
            target_words_max: 100,
            ..GenerationSettings::default()
        };
        assert!(matches!(
            set_generation_settings(&mut novel, bad),
            Err(EditError::InvalidSettings(_))
        ));
        let good = GenerationSettings {
            target_words_max: 1200,
            ..GenerationSettings::default()
        };
        set_generation_settings(&mut novel, good).unwrap();
        let reopened = NovelConfig::load(&novel.root().join(CONFIG_FILE)).unwrap();
        assert_eq!(reopened.generation.target_words_max, 1200);
        assert_eq!(novel.config().generation.target_words_max, 1200);
    }

    #[test]
    fn role_profiles_are_saved_by_name_and_an_unknown_name_is_refused() {
        let (_tmp, mut novel) = novel();
        let path = novel.root().join(CONFIG_FILE);
        let mut profiles = novel_llm::ProviderConfig {
            default_profile: None,
            profiles: Vec::new(),
        };
        for name in ["big", "local"] {
            profiles.add(
                novel_llm::ProviderProfile::new(name, novel_llm::ProviderKind::Ollama, "m"),
                false,
            );
        }
        let roles = RoleProfiles {
            planner: Some("big".into()),
            writer: Some("local".into()),
            ..RoleProfiles::default()
        };
        set_role_profiles(&mut novel, roles.clone(), &profiles).unwrap();
        assert_eq!(NovelConfig::load(&path).unwrap().models, roles);
        assert_eq!(novel.config().models.for_role(Role::Reviser), Some("local"));

        let typo = RoleProfiles {
            extractor: Some("lcoal".into()),
            ..roles.clone()
        };
        let err = set_role_profiles(&mut novel, typo, &profiles).unwrap_err();
        assert!(
            matches!(&err, EditError::UnknownProfile { role: Role::Extractor, name } if name == "lcoal"),
            "{err:?}"
        );
        assert_eq!(NovelConfig::load(&path).unwrap().models, roles, "unchanged");

        set_role_profiles(&mut novel, RoleProfiles::default(), &profiles).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("[models]"),
            "back to the default profile: {text}"
        );
    }

    #[test]
    fn budgets_are_saved_and_a_negative_cost_is_refused_without_change() {
        let (_tmp, mut novel) = novel();
        let path = novel.root().join(CONFIG_FILE);
        let mut budget = BudgetConfig::default();
        budget.run.tokens = Some(40_000);
        budget.novel.cost = Some(2.5);
        set_budget(&mut novel, budget).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("[budget.run]") && text.contains("tokens = 40000"),
            "{text}"
        );
        assert_eq!(NovelConfig::load(&path).unwrap().budget, budget);
        let mut bad = budget;
        bad.run.cost = Some(-1.0);
        assert!(matches!(
            set_budget(&mut novel, bad),
            Err(EditError::InvalidSettings(_))
        ));
        assert_eq!(
            NovelConfig::load(&path).unwrap().budget,
            budget,
            "unchanged"
        );
    }

    #[test]
    fn saving_generation_settings_keeps_the_role_profiles_and_budget() {
        let (_tmp, mut novel) = novel();
        let path = novel.root().join(CONFIG_FILE);
        let mut config = novel.config().clone();
        config.models.planner = Some("big".into());
        config.budget.run.tokens = Some(50_000);
        config.save(&path).unwrap();
        novel.reload_config().unwrap();
        set_generation_settings(&mut novel, GenerationSettings::default()).unwrap();
        let reopened = NovelConfig::load(&path).unwrap();
        assert_eq!(reopened.models.planner.as_deref(), Some("big"));
        assert_eq!(reopened.budget.run.tokens, Some(50_000));
    }
}
