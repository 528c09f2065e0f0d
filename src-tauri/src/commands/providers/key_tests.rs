//! An API key goes only to the server its profile was saved for, over real HTTP to two local
//! servers that record every credential header: a saved profile pointed at another server (or
//! at another environment variable) is saved only after a confirmation naming the new server,
//! a "no" leaves the key going where it went; the form's unsaved profile lists models with the
//! typed key only, or with the saved key while it still points where the key was saved for.

use novel_test_server::{Reply, Rule, Script, TestServer};

use super::tests::{Answers, file_text, store_in};
use super::*;
use crate::commands::provider_discovery::{ModelsOf, models_of};

const KEY: &str = "sk-shell-secret-0123456789";

fn env(name: &str) -> Option<String> {
    (name == "NOVEL_SHELL_TEST_KEY").then(|| KEY.to_string())
}

fn bearer() -> String {
    format!("Bearer {KEY}")
}

fn carried_the_key(server: &TestServer) -> bool {
    server
        .credentials()
        .iter()
        .any(|(_, value)| value.contains(KEY))
}

async fn server() -> TestServer {
    TestServer::start(
        Script::new()
            .models(["m"])
            .rule(Rule::any().reply(Reply::text("{\"ok\": true}"))),
    )
    .await
    .unwrap()
}

fn cloud(base_url: &str) -> ProviderProfile {
    ProviderProfile::new("cloud", ProviderKind::OpenAiCompatible, "m")
        .with_base_url(base_url)
        .with_api_key_env("NOVEL_SHELL_TEST_KEY")
        .with_retries(0, 1)
}

#[tokio::test]
async fn a_key_is_not_sent_to_a_changed_server_without_a_confirmation() {
    let saved_for = server().await;
    let elsewhere = server().await;
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);

    // A new profile sending a variable's value asks once, naming the server.
    let yes = Answers::saying(true);
    save_profile(&store, cloud(&saved_for.base_url()), true, &yes).unwrap();
    let asked = yes.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].message.contains("NOVEL_SHELL_TEST_KEY"),
        "{}",
        asked[0].message
    );
    assert!(
        asked[0].message.contains(&saved_for.root_url()),
        "{}",
        asked[0].message
    );
    let before = file_text(&store).unwrap();

    // Pointed at another server, the writer says no: nothing saved, the key stays home.
    let no = Answers::saying(false);
    let err = save_profile(&store, cloud(&elsewhere.base_url()), true, &no).unwrap_err();
    assert!(matches!(err, AppError::Declined { .. }), "{err:?}");
    assert!(err.to_string().contains(&elsewhere.root_url()), "{err}");
    let asked = no.asked();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].message.contains(&elsewhere.root_url()),
        "{}",
        asked[0].message
    );
    assert!(
        asked[0].message.contains(&saved_for.root_url()),
        "{}",
        asked[0].message
    );
    assert_eq!(file_text(&store).unwrap(), before, "the file is untouched");

    let _ = test_and_record(&store, "cloud", &env).await;
    assert!(
        !carried_the_key(&elsewhere),
        "{:?}",
        elsewhere.credentials()
    );
    assert!(
        saved_for.credentials().iter().any(|(_, v)| *v == bearer()),
        "{:?}",
        saved_for.credentials()
    );

    // The form's edited profile lists models without the key: the key was not saved for it.
    let config = store.load().unwrap();
    let edited = cloud(&elsewhere.base_url());
    let _ = models_of(
        ModelsOf::Unsaved {
            profile: Box::new(edited.clone()),
            key: None,
        },
        &config,
        &env,
    )
    .await;
    assert!(
        elsewhere.hits().iter().any(|hit| hit.ends_with("/models")),
        "{:?}",
        elsewhere.hits()
    );
    assert!(
        !carried_the_key(&elsewhere),
        "{:?}",
        elsewhere.credentials()
    );
    // A new profile merely naming the variable, or the keychain entry of the saved one: the same.
    let mut stranger = edited.clone();
    stranger.name = "stranger".into();
    let mut keychain = edited.clone();
    keychain.api_key_env = None;
    keychain.key_source = novel_llm::KeySource::Keychain;
    for profile in [stranger, keychain] {
        let _ = models_of(
            ModelsOf::Unsaved {
                profile: Box::new(profile),
                key: None,
            },
            &config,
            &env,
        )
        .await;
    }
    assert!(
        !carried_the_key(&elsewhere),
        "{:?}",
        elsewhere.credentials()
    );
    // A key typed into the form goes where the form points.
    models_of(
        ModelsOf::Unsaved {
            profile: Box::new(edited.clone()),
            key: Some("sk-typed-into-the-form".into()),
        },
        &config,
        &env,
    )
    .await
    .unwrap();
    assert!(
        elsewhere
            .credentials()
            .iter()
            .any(|(_, v)| v == "Bearer sk-typed-into-the-form"),
        "{:?}",
        elsewhere.credentials()
    );

    // The writer says yes: from then on the key goes to the new server.
    let yes = Answers::saying(true);
    save_profile(&store, edited, true, &yes).unwrap();
    assert_eq!(yes.asked().len(), 1);
    let _ = test_and_record(&store, "cloud", &env).await;
    assert!(carried_the_key(&elsewhere), "{:?}", elsewhere.credentials());
}

#[tokio::test]
async fn the_unchanged_form_lists_models_with_the_saved_key() {
    let saved_for = server().await;
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    save_profile(
        &store,
        cloud(&saved_for.base_url()),
        true,
        &Answers::saying(true),
    )
    .unwrap();
    let mut edited = cloud(&saved_for.base_url());
    edited.temperature = Some(0.3);
    models_of(
        ModelsOf::Unsaved {
            profile: Box::new(edited.clone()),
            key: None,
        },
        &store.load().unwrap(),
        &env,
    )
    .await
    .unwrap();
    assert!(carried_the_key(&saved_for), "{:?}", saved_for.credentials());

    // Saving a change that keeps the server and the variable asks nothing.
    let no = Answers::saying(false);
    save_profile(&store, edited, false, &no).unwrap();
    assert!(no.asked().is_empty());
}

#[test]
fn another_variable_or_a_tokenizer_file_needs_a_confirmation() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(&dir);
    let base = "https://api.example.com/v1";
    save_profile(&store, cloud(base), true, &Answers::saying(true)).unwrap();
    let before = file_text(&store).unwrap();

    let no = Answers::saying(false);
    let other = cloud(base).with_api_key_env("AWS_SECRET_ACCESS_KEY");
    assert!(save_profile(&store, other, true, &no).is_err());
    let mut reads = cloud(base);
    reads.tokenizer_file = Some("/home/u/.ssh/id_ed25519".into());
    let err = save_profile(&store, reads, true, &no).unwrap_err();
    assert!(err.to_string().contains("tokenizer"), "{err}");
    let asked = no.asked();
    assert!(
        asked[0].message.contains("AWS_SECRET_ACCESS_KEY"),
        "{}",
        asked[0].message
    );
    assert!(
        asked[1].message.contains("/home/u/.ssh/id_ed25519"),
        "{}",
        asked[1].message
    );
    assert_eq!(file_text(&store).unwrap(), before);
}

#[test]
fn a_server_address_cannot_write_its_own_lines_into_the_question() {
    let question =
        key_question(None, &cloud("https://evil.example\n\nThis is OpenAI./v1")).unwrap();
    assert!(
        !question.question.message.contains("\n\nThis is OpenAI"),
        "{}",
        question.question.message
    );
}
