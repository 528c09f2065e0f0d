//! Find local servers and the model dropdown against the local test server over real HTTP:
//! an Ollama found on its port with its models and context lengths (a closed port skipped), a
//! suggested profile that replaces no saved one and knows when the address is already saved,
//! the models of a saved profile and of the form's unsaved one, a server without
//! `/v1/models` answering an empty list that says to type the name, and a server that is not
//! running answering an error that names its address.

use novel_llm::{LocalServer, ProviderKind};
use novel_test_server::{Imitates, Script, TestServer};

use super::*;
use crate::error::AppError;

fn config_with(profiles: Vec<ProviderProfile>) -> ProviderConfig {
    let mut config = ProviderConfig::empty();
    for profile in profiles {
        config.add(profile, false);
    }
    config
}

fn no_env(_: &str) -> Option<String> {
    None
}

/// A port on this machine with nothing listening.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

fn target(port: u16) -> ProbeTarget {
    ProbeTarget {
        usual: LocalServer::OpenaiCompatible,
        port,
    }
}

fn ollama_script() -> Script {
    Script::new()
        .models(["llama3.1:8b", "qwen2.5:14b"])
        .like(Imitates::Ollama)
        .context_length(8192)
}

#[tokio::test]
async fn a_found_ollama_comes_with_its_models_and_a_profile_ready_to_save() {
    let ollama = TestServer::start(ollama_script()).await.unwrap();
    let port = ollama.addr().port();
    let targets = [target(closed_port()), target(port)];

    let found = found_on(&targets, &config_with(Vec::new())).await;
    assert_eq!(found.len(), 1, "the closed port is skipped: {found:?}");
    let server = &found[0];
    assert_eq!(server.server.server, LocalServer::Ollama);
    assert_eq!(server.server.label, "Ollama");
    assert_eq!(
        server.server.base_url,
        format!("http://127.0.0.1:{port}/v1")
    );
    let models: Vec<(&str, Option<u32>)> = server
        .server
        .models
        .iter()
        .map(|m| (m.id.as_str(), m.context_length))
        .collect();
    assert_eq!(
        models,
        [("llama3.1:8b", Some(8192)), ("qwen2.5:14b", Some(8192))]
    );
    let suggested = &server.suggested;
    assert_eq!(suggested.name, "ollama");
    assert_eq!(suggested.kind, ProviderKind::Ollama);
    assert_eq!(suggested.model, "llama3.1:8b");
    assert_eq!(suggested.context_length, Some(8192));
    assert_eq!(
        suggested.base_url.as_deref(),
        Some(server.server.base_url.as_str())
    );
    assert!(
        suggested.problems().is_empty(),
        "{:?}",
        suggested.problems()
    );
    assert_eq!(server.saved_as, None);
}

#[tokio::test]
async fn a_suggestion_never_takes_a_saved_name_and_a_saved_address_is_named() {
    let ollama = TestServer::start(ollama_script()).await.unwrap();
    let port = ollama.addr().port();
    // "ollama" is taken by a hosted profile elsewhere, "ollama-2" too.
    let elsewhere = ProviderProfile::new("ollama", ProviderKind::Ollama, "m")
        .with_base_url("http://192.168.1.9:11434/v1");
    let also = ProviderProfile::new("ollama-2", ProviderKind::OpenAiCompatible, "m");
    let found = found_on(
        &[target(port)],
        &config_with(vec![elsewhere.clone(), also.clone()]),
    )
    .await;
    assert_eq!(found[0].suggested.name, "ollama-3");
    assert_eq!(
        found[0].saved_as, None,
        "no saved profile uses this address"
    );

    // A profile already at this address (written with a trailing slash) is named.
    let here = ProviderProfile::new("writer", ProviderKind::Ollama, "qwen2.5:14b")
        .with_base_url(format!("http://127.0.0.1:{port}/v1/"));
    let found = found_on(&[target(port)], &config_with(vec![elsewhere, here])).await;
    assert_eq!(found[0].saved_as.as_deref(), Some("writer"));
    assert_eq!(found[0].suggested.name, "ollama-2");
}

#[tokio::test]
async fn nothing_running_is_an_empty_list() {
    let found = found_on(&[target(closed_port())], &config_with(Vec::new())).await;
    assert!(found.is_empty(), "{found:?}");
}

#[tokio::test]
async fn the_models_of_a_saved_profile_and_of_the_unsaved_form_come_with_context_lengths() {
    let ollama = TestServer::start(ollama_script()).await.unwrap();
    let saved = ProviderProfile::new("local", ProviderKind::Ollama, "qwen2.5:14b")
        .with_base_url(ollama.base_url());
    let config = config_with(vec![saved]);

    let list = models_of(
        ModelsOf::Saved {
            name: "local".into(),
        },
        &config,
        &no_env,
    )
    .await
    .unwrap();
    let ids: Vec<&str> = list.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["llama3.1:8b", "qwen2.5:14b"]);
    assert!(list.models.iter().all(|m| m.context_length == Some(8192)));
    assert_eq!(list.note, None);
    assert!(
        ollama.hits().contains(&"GET /api/tags".to_string()),
        "{:?}",
        ollama.hits()
    );

    // The form before saving: only the kind and address are known, the model is empty.
    let draft =
        ProviderProfile::new("new", ProviderKind::Ollama, "").with_base_url(ollama.base_url());
    let list = models_of(
        ModelsOf::Unsaved {
            profile: Box::new(draft),
            key: None,
        },
        &config,
        &no_env,
    )
    .await
    .unwrap();
    assert_eq!(list.models.len(), 2);

    let err = models_of(
        ModelsOf::Saved {
            name: "gone".into(),
        },
        &config,
        &no_env,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, AppError::Provider { .. }), "{err:?}");
    assert!(err.to_string().contains("gone"), "{err}");
}

#[tokio::test]
async fn a_server_without_a_model_list_says_to_type_the_name() {
    let bare = TestServer::start(Script::new().models(["m"]).without_model_list())
        .await
        .unwrap();
    let draft = ProviderProfile::new("bare", ProviderKind::OpenAiCompatible, "")
        .with_base_url(bare.base_url());
    let list = models_of(
        ModelsOf::Unsaved {
            profile: Box::new(draft),
            key: None,
        },
        &ProviderConfig::empty(),
        &no_env,
    )
    .await
    .unwrap();
    assert!(list.models.is_empty());
    assert!(
        list.note
            .as_deref()
            .is_some_and(|n| n.contains("type the model's name")),
        "{list:?}"
    );
}

#[tokio::test]
async fn a_server_that_is_not_running_is_an_error_naming_its_address() {
    let address = format!("http://127.0.0.1:{}/v1", closed_port());
    let draft =
        ProviderProfile::new("x", ProviderKind::OpenAiCompatible, "").with_base_url(&address);
    let err = models_of(
        ModelsOf::Unsaved {
            profile: Box::new(draft),
            key: None,
        },
        &ProviderConfig::empty(),
        &no_env,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, AppError::Provider { .. }), "{err:?}");
    assert!(err.to_string().contains(&address), "{err}");
}
