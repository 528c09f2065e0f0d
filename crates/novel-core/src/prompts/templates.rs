//! The prompt templates: one minijinja file per role in `crates/novel-core/prompts/`, embedded
//! at compile time, each with a `system` and a `user` block and a `{# version: N #}` first line.
//! The versions are read from those lines at compile time, so a tick records exactly the
//! version of the text that produced it and an edited template cannot forget to say so.
//! Undefined variables are errors: a template that names a missing field fails its test
//! instead of sending the model an empty gap.

use std::sync::OnceLock;

use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use novel_llm::ChatRequest;
use serde::{Deserialize, Serialize};

use super::error::PromptError;
use crate::config::Role;

const PLANNER: &str = include_str!("../../prompts/planner.j2");
const WRITER: &str = include_str!("../../prompts/writer.j2");
const REVISER: &str = include_str!("../../prompts/reviser.j2");
const EXTRACTOR: &str = include_str!("../../prompts/extractor.j2");
const CRITIC: &str = include_str!("../../prompts/critic.j2");

/// Written by a template (as `{{ cache_break }}`) where the user block's stable material ends:
/// rendering takes it out and records its place as the request's stable prefix, where a
/// provider that takes cache breakpoints (Anthropic) puts one. A control character no prompt
/// text contains (the context strips them).
pub(crate) const CACHE_BREAK: &str = "\u{1e}";

/// The LLM calls of a tick, each with its own template: the engine's one [`Role`].
pub type PromptRole = Role;

/// A role's template and its version. A trait because [`Role`] belongs to the store's crate,
/// which knows nothing of prompts.
pub trait RoleTemplate {
    /// The template's text.
    fn source(self) -> &'static str;
    /// The template's version, as recorded with every tick.
    fn version(self) -> u32;
}

impl RoleTemplate for Role {
    fn source(self) -> &'static str {
        match self {
            PromptRole::Planner => PLANNER,
            PromptRole::Writer => WRITER,
            PromptRole::Reviser => REVISER,
            PromptRole::Extractor => EXTRACTOR,
            PromptRole::Critic => CRITIC,
        }
    }

    fn version(self) -> u32 {
        match self {
            PromptRole::Planner => PROMPT_VERSIONS.planner,
            PromptRole::Writer => PROMPT_VERSIONS.writer,
            PromptRole::Reviser => PROMPT_VERSIONS.reviser,
            PromptRole::Extractor => PROMPT_VERSIONS.extractor,
            PromptRole::Critic => PROMPT_VERSIONS.critic,
        }
    }
}

/// The version of each role's template, as recorded with every tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptVersions {
    pub planner: u32,
    pub writer: u32,
    pub reviser: u32,
    pub extractor: u32,
    pub critic: u32,
}

pub const PROMPT_VERSIONS: PromptVersions = PromptVersions {
    planner: header_version(PLANNER),
    writer: header_version(WRITER),
    reviser: header_version(REVISER),
    extractor: header_version(EXTRACTOR),
    critic: header_version(CRITIC),
};

/// Parses `{# version: N #}` at the very start of a template; a template without it fails
/// the build.
const fn header_version(source: &str) -> u32 {
    let bytes = source.as_bytes();
    let prefix = b"{# version: ";
    let mut i = 0;
    while i < prefix.len() {
        if i >= bytes.len() || bytes[i] != prefix[i] {
            panic!("a prompt template must start with a version comment line");
        }
        i += 1;
    }
    let mut version: u32 = 0;
    let mut digits = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        version = version * 10 + (bytes[i] - b'0') as u32;
        digits += 1;
        i += 1;
    }
    if digits == 0 {
        panic!("a prompt template's version must be a number");
    }
    version
}

fn environment() -> Result<&'static Environment<'static>, PromptError> {
    static ENV: OnceLock<Result<Environment<'static>, String>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_auto_escape_callback(|_| AutoEscape::None);
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        for role in PromptRole::ALL {
            env.add_template(role.as_str(), role.source())
                .map_err(|e| format!("{}: {e:#}", role.as_str()))?;
        }
        Ok(env)
    })
    .as_ref()
    .map_err(|message| PromptError::Template {
        role: "all",
        message: message.clone(),
    })
}

/// Renders `role`'s `system` and `user` blocks with `context` into a chat request.
pub(crate) fn render(
    role: PromptRole,
    context: minijinja::Value,
) -> Result<ChatRequest, PromptError> {
    let failed = |e: minijinja::Error| PromptError::Template {
        role: role.as_str(),
        message: format!("{e:#}"),
    };
    let template = environment()?.get_template(role.as_str()).map_err(failed)?;
    let mut captured = template.render_captured(context).map_err(failed)?;
    let (system, user) = captured
        .with_state_mut(|state| {
            Ok::<_, minijinja::Error>((state.render_block("system")?, state.render_block("user")?))
        })
        .map_err(failed)?;
    let (system, user) = (tidy(&system), tidy(&user));
    let stable_prefix = user.find(CACHE_BREAK);
    let request = ChatRequest::new(user.replace(CACHE_BREAK, "")).with_system(system);
    Ok(match stable_prefix {
        Some(at) => request.with_stable_prefix(at),
        None => request,
    })
}

/// Renders one named block of `role`'s template (beyond `system` and `user`, e.g. the
/// extractor's `follow_up`), tidied like the others.
pub(crate) fn render_block(
    role: PromptRole,
    block: &str,
    context: minijinja::Value,
) -> Result<String, PromptError> {
    let failed = |e: minijinja::Error| PromptError::Template {
        role: role.as_str(),
        message: format!("{e:#}"),
    };
    let template = environment()?.get_template(role.as_str()).map_err(failed)?;
    let mut captured = template.render_captured(context).map_err(failed)?;
    let text = captured
        .with_state_mut(|state| state.render_block(block))
        .map_err(failed)?;
    Ok(tidy(&text).replace(CACHE_BREAK, ""))
}

/// Trims each line's end and collapses runs of blank lines that optional sections leave.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.trim().lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_string()
}
