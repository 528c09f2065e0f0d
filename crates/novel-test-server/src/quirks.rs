//! What a script's server is like beyond its chat replies: which real server it imitates (and
//! so which of that server's own endpoints it answers — Ollama's `/api/tags` and `/api/show`,
//! LM Studio's `/api/v0/models`, llama.cpp's `/props`, `/slots` and `/tokenize`, vLLM's
//! `max_model_len`), the context length those endpoints report, a missing `/v1/models`, and
//! request parameters the server refuses (as OpenAI's reasoning models refuse `temperature`).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The real server whose extra endpoints and model-list fields are served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Imitates {
    /// Only the OpenAI endpoints (`/v1/chat/completions`, `/v1/models`).
    #[default]
    Openai,
    /// Ollama: `GET /api/tags`, `POST /api/show`, `GET /api/version`.
    Ollama,
    /// LM Studio: `GET /api/v0/models` with `max_context_length` and `state`.
    LmStudio,
    /// llama.cpp's `llama-server`: `GET /props` (`n_ctx`, `total_slots`), `GET /slots` (with
    /// the prompt cache on), `POST /tokenize`, `GET /health`, and `meta.n_ctx_train` in the
    /// model list.
    LlamaCpp,
    /// vLLM: `max_model_len` and `owned_by: "vllm"` in the model list.
    Vllm,
    /// Jan: the plain OpenAI endpoints, `owned_by: "jan"`.
    Jan,
}

/// The server-wide quirks of a script (`"quirks"` in a script file).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Quirks {
    /// Which server's endpoints to serve.
    pub like: Imitates,
    /// The context length the imitated server reports for every model; `None` reports none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u32>,
    /// `GET /v1/models` answers 404, as on servers that list no models.
    pub no_model_list: bool,
    /// Chat requests carrying one of these parameters (not null) are refused with HTTP 400
    /// naming it, the way OpenAI refuses `temperature` for its reasoning models.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rejects_params: Vec<String>,
}

impl Quirks {
    /// The first parameter of `body` this server refuses, if any.
    pub fn refused_param<'a>(&'a self, body: &Value) -> Option<&'a str> {
        self.rejects_params
            .iter()
            .find(|name| body.get(name.as_str()).is_some_and(|v| !v.is_null()))
            .map(String::as_str)
    }
}

/// OpenAI's refusal of an unsupported parameter, word for word in shape.
pub fn unsupported_param(name: &str) -> Value {
    json!({"error": {
        "message": format!("Unsupported parameter: '{name}' is not supported with this model."),
        "type": "invalid_request_error",
        "param": name,
        "code": "unsupported_parameter",
    }})
}

/// `GET /v1/models` as the imitated server lists `ids`.
pub fn model_list(quirks: &Quirks, ids: &[String]) -> Value {
    let data: Vec<Value> = ids
        .iter()
        .map(|id| {
            let mut entry = json!({"id": id, "object": "model", "created": 0, "owned_by": "novel-test-server"});
            match quirks.like {
                Imitates::Vllm => {
                    entry["owned_by"] = json!("vllm");
                    if let Some(ctx) = quirks.context_length {
                        entry["max_model_len"] = json!(ctx);
                    }
                }
                Imitates::LlamaCpp => {
                    entry["owned_by"] = json!("llamacpp");
                    // The training context, which is not the one the server runs with.
                    if let Some(ctx) = quirks.context_length {
                        entry["meta"] = json!({"n_ctx_train": ctx.saturating_mul(4), "n_params": 7_000_000_000u64});
                    }
                }
                Imitates::Jan => entry["owned_by"] = json!("jan"),
                Imitates::Ollama => entry["owned_by"] = json!("library"),
                Imitates::Openai | Imitates::LmStudio => {}
            }
            entry
        })
        .collect();
    json!({"object": "list", "data": data})
}

/// Ollama's `GET /api/tags`.
pub fn ollama_tags(ids: &[String]) -> Value {
    let models: Vec<Value> = ids
        .iter()
        .map(|id| {
            json!({
                "name": id,
                "model": id,
                "modified_at": "2025-10-01T12:00:00Z",
                "size": 4_920_753_328u64,
                "digest": "a80c4f17acd5",
                "details": {"format": "gguf", "family": "llama", "parameter_size": "8.0B", "quantization_level": "Q4_K_M"},
            })
        })
        .collect();
    json!({"models": models})
}

/// Ollama's `POST /api/show` for `model`; `None` when the server does not have it.
pub fn ollama_show(quirks: &Quirks, ids: &[String], model: &str) -> Option<Value> {
    if !ids.iter().any(|id| id == model) {
        return None;
    }
    let mut info =
        json!({"general.architecture": "llama", "general.parameter_count": 8_030_261_248u64});
    if let Some(ctx) = quirks.context_length {
        // The model's own maximum; the Modelfile's `num_ctx` is what the server runs with.
        info["llama.context_length"] = json!(ctx.saturating_mul(4));
    }
    let parameters = quirks
        .context_length
        .map(|ctx| format!("num_ctx                        {ctx}\nstop                           \"<|eot_id|>\""))
        .unwrap_or_default();
    Some(json!({
        "modelfile": "FROM llama3.1",
        "parameters": parameters,
        "details": {"family": "llama", "parameter_size": "8.0B"},
        "model_info": info,
    }))
}

/// LM Studio's `GET /api/v0/models`: the first model loaded, the others not.
pub fn lm_studio_models(quirks: &Quirks, ids: &[String]) -> Value {
    let data: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let mut entry = json!({
                "id": id, "object": "model", "type": "llm", "publisher": "lmstudio-community",
                "arch": "llama", "compatibility_type": "gguf", "quantization": "Q4_K_M",
                "state": if i == 0 { "loaded" } else { "not-loaded" },
            });
            if let Some(ctx) = quirks.context_length {
                entry["max_context_length"] = json!(ctx.saturating_mul(4));
                if i == 0 {
                    entry["loaded_context_length"] = json!(ctx);
                }
            }
            entry
        })
        .collect();
    json!({"object": "list", "data": data})
}

/// The context llama.cpp reports when the script names none.
const LLAMA_DEFAULT_CTX: u32 = 4096;

/// llama.cpp's `GET /props`, for a server of `total_slots` slots (at least one, as
/// `llama-server` always has).
pub fn llama_props(quirks: &Quirks, ids: &[String], total_slots: usize) -> Value {
    let model = ids.first().map_or("model.gguf", String::as_str);
    json!({
        "default_generation_settings": {"n_ctx": quirks.context_length.unwrap_or(LLAMA_DEFAULT_CTX), "temperature": 0.8},
        "total_slots": total_slots.max(1),
        "model_path": format!("/models/{model}"),
        "build_info": "b6000-novel-test-server",
    })
}

/// llama.cpp's `GET /slots`: every slot idle. Each reports the whole context, as llama-server's
/// default unified KV cache lets any slot use all of it.
pub fn llama_slots(quirks: &Quirks, slots: usize) -> Value {
    let n_ctx = quirks.context_length.unwrap_or(LLAMA_DEFAULT_CTX);
    let slots: Vec<Value> = (0..slots)
        .map(|id| json!({"id": id, "n_ctx": n_ctx, "is_processing": false}))
        .collect();
    Value::Array(slots)
}

/// llama-server's 501 for `GET /slots` when the endpoint is off (`--no-slots`), as the imitation
/// answers it with the prompt cache off.
pub fn slots_not_supported() -> Value {
    json!({"error": {
        "code": 501,
        "message": "This server does not support slots endpoint. Start it with `--slots`",
        "type": "not_supported_error",
    }})
}

/// The test server's tokenizer for `POST /tokenize`: one token per whitespace-separated word,
/// numbered in order. Different enough from any BPE that a client counting with it is seen to.
pub fn tokenize(body: &Value) -> Value {
    let content = body.get("content").and_then(Value::as_str).unwrap_or("");
    let tokens: Vec<usize> = (0..content.split_whitespace().count()).collect();
    json!({"tokens": tokens})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quirks_parse_with_defaults_and_name_refused_params() {
        let quirks: Quirks = serde_json::from_value(
            json!({"like": "ollama", "context_length": 8192, "rejects_params": ["temperature"]}),
        )
        .unwrap();
        assert_eq!(quirks.like, Imitates::Ollama);
        assert!(!quirks.no_model_list);
        assert_eq!(
            quirks.refused_param(&json!({"temperature": 0.2})),
            Some("temperature")
        );
        assert_eq!(quirks.refused_param(&json!({"temperature": null})), None);
        assert!(serde_json::from_value::<Quirks>(json!({"like": "kobold"})).is_err());
    }

    #[test]
    fn each_imitation_reports_context_where_its_server_does() {
        let ids = vec!["a".to_string(), "b".to_string()];
        let vllm = Quirks {
            like: Imitates::Vllm,
            context_length: Some(32768),
            ..Quirks::default()
        };
        assert_eq!(model_list(&vllm, &ids)["data"][0]["max_model_len"], 32768);
        let studio = Quirks {
            like: Imitates::LmStudio,
            ..vllm.clone()
        };
        let listed = lm_studio_models(&studio, &ids);
        assert_eq!(listed["data"][0]["loaded_context_length"], 32768);
        assert_eq!(listed["data"][1]["state"], "not-loaded");
        let show = ollama_show(&vllm, &ids, "b").unwrap();
        assert!(show["parameters"].as_str().unwrap().contains("num_ctx"));
        assert!(ollama_show(&vllm, &ids, "zz").is_none());
        assert_eq!(
            tokenize(&json!({"content": "one two  three"}))["tokens"],
            json!([0, 1, 2])
        );
    }

    #[test]
    fn llama_cpp_counts_and_lists_its_slots() {
        let quirks = Quirks {
            like: Imitates::LlamaCpp,
            context_length: Some(8192),
            ..Quirks::default()
        };
        assert_eq!(llama_props(&quirks, &[], 0)["total_slots"], 1);
        assert_eq!(llama_props(&quirks, &[], 3)["total_slots"], 3);
        assert_eq!(
            llama_slots(&quirks, 2),
            json!([{"id": 0, "n_ctx": 8192, "is_processing": false},
                   {"id": 1, "n_ctx": 8192, "is_processing": false}])
        );
        assert_eq!(slots_not_supported()["error"]["code"], 501);
    }
}
