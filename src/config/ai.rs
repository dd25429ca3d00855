//! `[ai]`: the language-model provider for AI help (docs/API.md "AI help"); users may
//! override provider, model and base URL in their settings.

use serde::{Deserialize, Serialize};

use super::check::{Check, Checked, base_url_ok};

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AiConfig {
    /// `anthropic` (the Messages API, the user's key) or `openai` (any OpenAI-compatible
    /// chat-completions server: Ollama, llama.cpp, vLLM, OpenAI).
    pub provider: String,
    /// The model; empty means the provider's default (see `crate::ai::provider`).
    pub model: String,
    /// Where the provider listens; empty means its public address. For `openai` include the
    /// `/v1` part (Ollama: `http://127.0.0.1:11434/v1`).
    pub base_url: String,
    /// Seconds to wait for one answer (1 to 600).
    pub timeout_secs: u64,
    /// Retries after 429, 529 and 5xx answers (0 to 5), waiting the provider's Retry-After or
    /// 1 s doubling.
    pub max_retries: u32,
    /// Whether users who are not admins may point their own AI calls at another address (the
    /// server would send requests wherever they say; admins always may).
    pub allow_user_base_url: bool,
}

impl Default for AiConfig {
    fn default() -> Self {
        Self {
            provider: "anthropic".into(),
            model: String::new(),
            base_url: String::new(),
            timeout_secs: 60,
            max_retries: 2,
            allow_user_base_url: false,
        }
    }
}

impl AiConfig {
    /// A provider the server speaks, an address without secrets in it, bounded waits.
    pub fn check(&self, c: &Check) -> Checked {
        c.ensure(
            matches!(self.provider.as_str(), "anthropic" | "openai"),
            "provider",
            &self.provider,
            "expected anthropic or openai",
        )?;
        c.ensure(
            self.base_url.is_empty() || base_url_ok(&self.base_url),
            "base_url",
            &self.base_url,
            "expected an http:// or https:// URL without a user name, query or fragment",
        )?;
        c.within("timeout_secs", self.timeout_secs, 1..=600, " seconds")?;
        c.within("max_retries", self.max_retries, 0..=5, "")
    }
}
