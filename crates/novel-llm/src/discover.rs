//! Finding the model servers running on this machine: the usual ports of Ollama (11434),
//! LM Studio (1234), llama.cpp (8080), Jan (1337) and vLLM (8000) on 127.0.0.1 — loopback
//! only, never the network — probed concurrently with short timeouts. A port that answers is
//! identified by what it answers (Ollama's `/api/tags`, LM Studio's `/api/v0/models`,
//! llama.cpp's `/props`, vLLM's `owned_by`), not by its number, and reported with its models.
//! The list of ports is a parameter, so tests probe servers on ephemeral ports.

use std::net::Ipv4Addr;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::fetch::Fetcher;
use crate::model_list::{
    ModelEntry, ollama_contexts, parse_llama_props, parse_lm_studio_models, parse_ollama_tags,
    parse_openai_models,
};
use crate::profile::provider::{ProviderKind, ProviderProfile};

/// A kind of local model server.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalServer {
    Ollama,
    LmStudio,
    LlamaCpp,
    Jan,
    Vllm,
    /// Something that speaks `/v1/models` and nothing more specific.
    OpenaiCompatible,
}

impl LocalServer {
    /// What it is called in a user interface.
    pub fn label(self) -> &'static str {
        match self {
            LocalServer::Ollama => "Ollama",
            LocalServer::LmStudio => "LM Studio",
            LocalServer::LlamaCpp => "llama.cpp",
            LocalServer::Jan => "Jan",
            LocalServer::Vllm => "vLLM",
            LocalServer::OpenaiCompatible => "OpenAI-compatible server",
        }
    }

    /// A profile name for it.
    pub fn slug(self) -> &'static str {
        match self {
            LocalServer::Ollama => "ollama",
            LocalServer::LmStudio => "lm-studio",
            LocalServer::LlamaCpp => "llama-cpp",
            LocalServer::Jan => "jan",
            LocalServer::Vllm => "vllm",
            LocalServer::OpenaiCompatible => "local",
        }
    }

    /// The profile kind that talks to it.
    pub fn profile_kind(self) -> ProviderKind {
        match self {
            LocalServer::Ollama => ProviderKind::Ollama,
            _ => ProviderKind::OpenAiCompatible,
        }
    }
}

/// A port to probe, and the server usually found there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeTarget {
    pub usual: LocalServer,
    pub port: u16,
}

/// The ports local model servers listen on by default.
pub const USUAL_PORTS: [ProbeTarget; 5] = [
    ProbeTarget {
        usual: LocalServer::Ollama,
        port: 11434,
    },
    ProbeTarget {
        usual: LocalServer::LmStudio,
        port: 1234,
    },
    ProbeTarget {
        usual: LocalServer::LlamaCpp,
        port: 8080,
    },
    ProbeTarget {
        usual: LocalServer::Jan,
        port: 1337,
    },
    ProbeTarget {
        usual: LocalServer::Vllm,
        port: 8000,
    },
];

/// How long a probe may take: a local server answers in milliseconds.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);
const PROBE_CONNECT: Duration = Duration::from_millis(400);

/// A model server found on this machine.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DetectedServer {
    pub server: LocalServer,
    pub label: String,
    pub port: u16,
    /// The base URL a profile uses, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub models: Vec<ModelEntry>,
}

impl DetectedServer {
    /// A profile for this server and `model` (the first loaded or listed one when `None`),
    /// with the context length the server reported for it.
    pub fn profile(&self, model: Option<&str>) -> ProviderProfile {
        let chosen = match model {
            Some(name) => self.models.iter().find(|m| m.id == name),
            None => self
                .models
                .iter()
                .find(|m| m.loaded == Some(true))
                .or(self.models.first()),
        };
        let name = model.or(chosen.map(|m| m.id.as_str())).unwrap_or_default();
        let mut profile =
            ProviderProfile::new(self.server.slug(), self.server.profile_kind(), name)
                .with_base_url(&self.base_url);
        profile.context_length = chosen.and_then(|m| m.context_length);
        profile
    }
}

/// Probes `targets` on 127.0.0.1, all at once, and returns the servers that answered, in the
/// order of `targets`. Takes at most about two probe timeouts however many ports are closed.
pub async fn detect(targets: &[ProbeTarget], timeout: Duration) -> Vec<DetectedServer> {
    let Ok(fetcher) = Fetcher::new(PROBE_CONNECT.min(timeout), timeout) else {
        return Vec::new();
    };
    let probes = targets.iter().map(|target| identify(&fetcher, *target));
    futures::future::join_all(probes)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// What answers on one port, if it is a model server.
async fn identify(fetcher: &Fetcher, target: ProbeTarget) -> Option<DetectedServer> {
    // Built from the loopback address itself: nothing here can be pointed elsewhere.
    let root = format!("http://{}:{}", Ipv4Addr::LOCALHOST, target.port);
    let urls =
        ["/api/tags", "/api/v0/models", "/props", "/v1/models"].map(|p| format!("{root}{p}"));
    let (tags, studio, props, listed) = futures::join!(
        fetcher.get(&urls[0], &[]),
        fetcher.get(&urls[1], &[]),
        fetcher.get(&urls[2], &[]),
        fetcher.get(&urls[3], &[]),
    );
    let listed = listed.ok();
    let tags = tags.ok().filter(|t| t.get("models").is_some());
    let studio = studio.ok().filter(|s| s.get("data").is_some());
    let (server, models) = if let Some(tags) = &tags {
        let names = parse_ollama_tags(tags);
        (
            LocalServer::Ollama,
            ollama_contexts(fetcher, &root, names).await,
        )
    } else if let Some(studio) = &studio {
        (LocalServer::LmStudio, parse_lm_studio_models(studio))
    } else if let Some(n_ctx) = props.ok().as_ref().and_then(parse_llama_props) {
        let mut models = listed.as_ref().map(parse_openai_models).unwrap_or_default();
        for model in &mut models {
            model.context_length.get_or_insert(n_ctx);
        }
        (LocalServer::LlamaCpp, models)
    } else if let Some(listed) = listed.as_ref().filter(|l| l.get("data").is_some()) {
        (
            openai_server(listed, target.usual),
            parse_openai_models(listed),
        )
    } else {
        return None;
    };
    Some(DetectedServer {
        label: server.label().to_string(),
        server,
        port: target.port,
        base_url: format!("{root}/v1"),
        models,
    })
}

/// Which server answers `/v1/models` and nothing more specific: vLLM says so, Jan is known by
/// its port, anything else is a plain OpenAI-compatible server.
fn openai_server(listed: &Value, usual: LocalServer) -> LocalServer {
    let entries = listed.get("data").and_then(Value::as_array);
    let says = |word: &str| {
        entries.into_iter().flatten().any(|e| {
            e.get("owned_by").and_then(Value::as_str) == Some(word)
                || (word == "vllm" && e.get("max_model_len").is_some())
        })
    };
    if says("vllm") {
        LocalServer::Vllm
    } else if says("jan") || usual == LocalServer::Jan {
        LocalServer::Jan
    } else {
        LocalServer::OpenaiCompatible
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_list::ModelEntry;
    use serde_json::json;

    #[test]
    fn plain_model_lists_are_told_apart_by_what_they_say() {
        let vllm = json!({"data": [{"id": "m", "owned_by": "vllm", "max_model_len": 8192}]});
        assert_eq!(
            openai_server(&vllm, LocalServer::LlamaCpp),
            LocalServer::Vllm
        );
        let plain = json!({"data": [{"id": "m", "owned_by": "someone"}]});
        assert_eq!(openai_server(&plain, LocalServer::Jan), LocalServer::Jan);
        assert_eq!(
            openai_server(&plain, LocalServer::Ollama),
            LocalServer::OpenaiCompatible
        );
    }

    #[test]
    fn a_detected_server_suggests_a_profile_for_its_loaded_model() {
        let found = DetectedServer {
            server: LocalServer::LmStudio,
            label: "LM Studio".into(),
            port: 1234,
            base_url: "http://127.0.0.1:1234/v1".into(),
            models: vec![
                ModelEntry {
                    id: "a".into(),
                    context_length: Some(4096),
                    loaded: Some(false),
                },
                ModelEntry {
                    id: "b".into(),
                    context_length: Some(8192),
                    loaded: Some(true),
                },
            ],
        };
        let profile = found.profile(None);
        assert_eq!(
            (profile.name.as_str(), profile.model.as_str()),
            ("lm-studio", "b")
        );
        assert_eq!(profile.kind, ProviderKind::OpenAiCompatible);
        assert_eq!(profile.context_length, Some(8192));
        assert_eq!(
            profile.effective_base_url().as_deref(),
            Some("http://127.0.0.1:1234/v1")
        );
        assert_eq!(found.profile(Some("a")).context_length, Some(4096));
        assert_eq!(found.profile(Some("typed")).model, "typed");
        profile.validate().unwrap();
    }
}
