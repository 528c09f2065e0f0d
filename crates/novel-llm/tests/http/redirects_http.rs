//! A key never follows a redirect, over real HTTP: a server answering 302 to another local
//! server (a stand-in for another host) gets the request and its key, the second server gets
//! nothing — for the OpenAI (`authorization`), Anthropic (`x-api-key`) and Gemini
//! (`x-goog-api-key`) providers and for model listing; and a key is refused before any request
//! over plain http to another machine.

use crate::support::{self, Canned, MiniServer, TEST_KEY};

use novel_llm::{ChatRequest, ProviderKind, ProviderProfile, connect_with_env, list_models};
use novel_test_server::{Reply, Rule, Script, TestServer};

async fn second_server() -> TestServer {
    TestServer::start(
        Script::new()
            .models(["m"])
            .rule(Rule::any().reply(Reply::text("hi"))),
    )
    .await
    .unwrap()
}

fn no_keychain() -> Result<novel_llm::Keychain, novel_llm::LlmError> {
    panic!("the keychain is not opened for an environment key")
}

#[tokio::test]
async fn an_openai_request_redirected_to_another_server_never_takes_the_key_there() {
    let other = second_server().await;
    let to = format!("{}/chat/completions", other.base_url());
    let redirecting =
        TestServer::start(Script::new().rule(Rule::any().reply(Reply::status(302).location(&to))))
            .await
            .unwrap();
    let profile = support::profile(ProviderKind::OpenAiCompatible, &redirecting.base_url())
        .with_retries(0, 1);
    let model = connect_with_env(&profile, &support::test_env).unwrap();
    let err = model
        .complete(&ChatRequest::new("x"))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("redirecting to")
            && err.contains(&other.base_url())
            && err.contains("base_url"),
        "{err}"
    );
    assert!(model.stream(&ChatRequest::new("x")).await.is_err());
    assert!(
        redirecting
            .credentials()
            .iter()
            .any(|(_, v)| v.contains(TEST_KEY)),
        "the first server got the key: {:?}",
        redirecting.credentials()
    );
    assert!(other.hits().is_empty(), "followed: {:?}", other.hits());
    assert!(other.credentials().is_empty());
}

#[tokio::test]
async fn anthropic_and_gemini_keys_never_follow_a_redirect() {
    for kind in [ProviderKind::Anthropic, ProviderKind::Gemini] {
        let other = second_server().await;
        let redirecting = MiniServer::start(vec![
            Canned::redirect(format!(
                "{}/chat/completions",
                other.base_url()
            ));
            4
        ])
        .await;
        let profile = support::profile(kind, &redirecting.base_url).with_retries(0, 1);
        let model = connect_with_env(&profile, &support::test_env).unwrap();
        assert!(
            model.complete(&ChatRequest::new("x")).await.is_err(),
            "{kind:?}"
        );
        let header = match kind {
            ProviderKind::Anthropic => "x-api-key",
            _ => "x-goog-api-key",
        };
        let received = redirecting.received();
        assert_eq!(
            received[0].header(header).as_deref(),
            Some(TEST_KEY),
            "{kind:?}: {}",
            received[0].head
        );
        assert!(
            other.hits().is_empty(),
            "{kind:?} followed: {:?}",
            other.hits()
        );
        assert!(other.credentials().is_empty());
    }
}

#[tokio::test]
async fn a_model_list_redirected_elsewhere_is_not_followed() {
    let other = second_server().await;
    let redirecting =
        MiniServer::start(vec![
            Canned::redirect(format!("{}/models", other.base_url()));
            6
        ])
        .await;
    let profile = support::profile(
        ProviderKind::OpenAiCompatible,
        &format!("{}/v1", redirecting.base_url),
    );
    let _ = list_models(&profile, &support::test_env, &no_keychain).await;
    assert!(!redirecting.received().is_empty());
    assert!(other.hits().is_empty(), "followed: {:?}", other.hits());
}

#[tokio::test]
async fn a_key_is_refused_over_plain_http_to_another_machine() {
    for kind in [
        ProviderKind::OpenAiCompatible,
        ProviderKind::Anthropic,
        ProviderKind::Gemini,
    ] {
        // Never reached: the refusal comes before any request (.invalid never resolves).
        let profile = support::profile(kind, "http://models.example.invalid/v1");
        let err = connect_with_env(&profile, &support::test_env)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("plain http") && err.contains("https://"),
            "{err}"
        );
        assert!(!err.contains(TEST_KEY), "{err}");
    }
    // Without a key, plain http anywhere is the writer's choice (a server on the local network).
    let keyless = ProviderProfile::new("lan", ProviderKind::Ollama, "llama3.1")
        .with_base_url("http://192.168.1.20:11434/v1");
    assert!(connect_with_env(&keyless, &|_| None).is_ok());
}
