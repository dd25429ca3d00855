//! The provider layer: what one question to a language model is ([`Ask`]), where it goes
//! ([`Endpoint`]), the two wire formats behind one trait ([`WireFormat`], implemented in
//! `anthropic.rs` and `openai.rs`), and [`Ai::complete`], which sends it with the timeout and
//! the retries of the `[ai]` config and turns every failure into a [`Failure`] the user can read.
//! Every call names the user it is for and first takes one from their day's AI budget
//! (`[limits] ai_per_day`, `auth::limits`): the one door to a provider, for the pages and the
//! background work alike.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::limits::{Kind, RateLimits};
use crate::config::AiConfig;
use crate::messages;

/// One single-turn question.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub system: String,
    pub user: String,
    pub max_tokens: u32,
    pub temperature: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "AiProvider")]
pub enum ProviderKind {
    Anthropic,
    /// Any OpenAI-compatible chat-completions server.
    #[serde(rename = "openai")]
    OpenAi,
}

impl ProviderKind {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "anthropic" => Some(Self::Anthropic),
            "openai" => Some(Self::OpenAi),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAi => "openai",
        }
    }

    pub fn default_model(self) -> &'static str {
        match self {
            Self::Anthropic => "claude-sonnet-4-5",
            Self::OpenAi => "gpt-4o-mini",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::Anthropic => "https://api.anthropic.com",
            Self::OpenAi => "https://api.openai.com/v1",
        }
    }

    /// Anthropic always needs the user's key; a local OpenAI-compatible server usually none.
    pub fn key_required(self) -> bool {
        self == Self::Anthropic
    }

    fn wire(self) -> &'static dyn WireFormat {
        match self {
            Self::Anthropic => &super::anthropic::Anthropic,
            Self::OpenAi => &super::openai::OpenAi,
        }
    }
}

/// Where a question goes, with the key to send (never logged: `Debug` hides it).
#[derive(Clone, PartialEq)]
pub struct Endpoint {
    pub kind: ProviderKind,
    pub model: String,
    pub base_url: String,
    pub key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("kind", &self.kind)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("key", &self.key.as_ref().map(|_| "<hidden>"))
            .finish()
    }
}

/// One provider's HTTP shape.
pub trait WireFormat: Send + Sync {
    fn url(&self, base_url: &str) -> String;
    /// Headers besides `content-type`, the key among them.
    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)>;
    fn body(&self, model: &str, ask: &Ask) -> Value;
    /// The answer's text, `None` when the body is not the provider's answer shape.
    fn text_of(&self, answer: &Value) -> Option<String>;
    /// The provider's own error message in an error body.
    fn error_message(&self, body: &Value) -> Option<String>;
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    KeyRefused(u16),
    RateLimited,
    Overloaded,
    ProviderError(u16),
    Refused {
        status: u16,
        detail: String,
    },
    Timeout(u64),
    Unreachable(String),
    Malformed,
    /// The user's AI budget for the day is spent (`[limits] ai_per_day`); the seconds until the
    /// next call. Nothing was sent.
    BudgetSpent(u64),
}

impl Failure {
    /// The reason in Hebrew (after the call's own failure text).
    pub fn reason(&self) -> String {
        match self {
            Self::KeyRefused(status) => messages::ai_key_refused(*status),
            Self::RateLimited => messages::AI_RATE_LIMITED.into(),
            Self::Overloaded => messages::AI_OVERLOADED.into(),
            Self::ProviderError(status) => messages::ai_provider_error(*status),
            Self::Refused { status, detail } => messages::ai_request_refused(*status, detail),
            Self::Timeout(secs) => messages::ai_timeout(*secs),
            Self::Unreachable(url) => messages::ai_unreachable(url),
            Self::Malformed => messages::AI_MALFORMED.into(),
            Self::BudgetSpent(secs) => messages::ai_budget_spent(*secs),
        }
    }

    /// Worth another try: the provider said "later".
    fn retryable(&self) -> bool {
        matches!(
            self,
            Self::RateLimited | Self::Overloaded | Self::ProviderError(_)
        )
    }
}

/// The most a provider's own error text adds to a message.
const MAX_DETAIL: usize = 200;
/// The most of an answer read into memory.
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;
/// The longest Retry-After we honour; longer means "give up now".
const MAX_RETRY_AFTER: Duration = Duration::from_secs(20);

/// The shared HTTP client, the server's `[ai]` settings and the users' budgets.
pub struct Ai {
    http: reqwest::Client,
    pub config: AiConfig,
    budgets: Arc<RateLimits>,
}

impl Ai {
    pub fn new(config: AiConfig, budgets: Arc<RateLimits>) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            // A redirect would carry the key to wherever it points: providers do not redirect.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(config.timeout_secs.min(15)))
            .user_agent(concat!("mailclient/", env!("CARGO_PKG_VERSION")))
            .tls_backend_preconfigured(crate::mail::tls::system_https()?)
            .build()?;
        Ok(Self {
            http,
            config,
            budgets,
        })
    }

    /// Sends `ask` for `user` and returns the answer's text, retrying "later" answers. Takes one
    /// call from the user's day's budget first; an empty one sends nothing
    /// ([`Failure::BudgetSpent`]).
    pub async fn complete(
        &self,
        user: u64,
        endpoint: &Endpoint,
        ask: &Ask,
    ) -> Result<String, Failure> {
        if let Err(secs) = self.budgets.take(user, Kind::AiDaily) {
            tracing::info!(user, retry_after_secs = secs, "AI budget of the day spent");
            return Err(Failure::BudgetSpent(secs));
        }
        let mut attempt = 0;
        loop {
            match self.attempt(endpoint, ask).await {
                Ok(text) => return Ok(text),
                Err((failure, retry_after)) => {
                    let wait = retry_after.unwrap_or(Duration::from_secs(1 << attempt.min(4)));
                    if !failure.retryable()
                        || attempt >= self.config.max_retries
                        || wait > MAX_RETRY_AFTER
                    {
                        return Err(failure);
                    }
                    tracing::info!(
                        provider = endpoint.kind.name(),
                        ?failure,
                        wait_ms = wait.as_millis() as u64,
                        "AI provider asked to retry"
                    );
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    async fn attempt(
        &self,
        endpoint: &Endpoint,
        ask: &Ask,
    ) -> Result<String, (Failure, Option<Duration>)> {
        let wire = endpoint.kind.wire();
        let mut request = self
            .http
            .post(wire.url(&endpoint.base_url))
            .timeout(Duration::from_secs(self.config.timeout_secs))
            .json(&wire.body(&endpoint.model, ask));
        for (name, value) in wire.headers(endpoint.key.as_deref()) {
            request = request.header(name, value);
        }
        let response = request
            .send()
            .await
            .map_err(|e| (self.transport(endpoint, &e), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let mut response = response;
        let mut bytes: Vec<u8> = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| (self.transport(endpoint, &e), None))?
        {
            // An answer is a few KB: a server streaming more is not a provider.
            if bytes.len() + chunk.len() > MAX_ANSWER_BYTES {
                return Err((Failure::Malformed, None));
            }
            bytes.extend_from_slice(&chunk);
        }
        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if (200..300).contains(&status) {
            return wire
                .text_of(&body)
                .filter(|t| !t.trim().is_empty())
                .ok_or((Failure::Malformed, None));
        }
        let failure = match status {
            401 | 403 => Failure::KeyRefused(status),
            429 => Failure::RateLimited,
            503 | 529 => Failure::Overloaded,
            500..=599 => Failure::ProviderError(status),
            _ => Failure::Refused {
                status,
                detail: wire
                    .error_message(&body)
                    .map(|m| clip(&m, MAX_DETAIL))
                    .unwrap_or_default(),
            },
        };
        tracing::warn!(
            provider = endpoint.kind.name(),
            status,
            "AI provider refused"
        );
        Err((failure, retry_after))
    }

    fn transport(&self, endpoint: &Endpoint, e: &reqwest::Error) -> Failure {
        if e.is_timeout() {
            Failure::Timeout(self.config.timeout_secs)
        } else if e.is_connect() {
            Failure::Unreachable(endpoint.base_url.clone())
        } else if e.is_decode() || e.is_body() {
            Failure::Malformed
        } else {
            tracing::warn!(provider = endpoint.kind.name(), error = %e, "AI request failed");
            Failure::Unreachable(endpoint.base_url.clone())
        }
    }
}

/// At most `max` characters, one line.
pub fn clip(s: &str, max: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    }
}

/// A base URL with no trailing slash, so paths join cleanly.
pub fn join(base_url: &str, path: &str) -> String {
    format!("{}{path}", base_url.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_say_why_in_hebrew() {
        assert!(Failure::KeyRefused(401).reason().contains("401"));
        assert!(Failure::Timeout(5).reason().contains("5 שניות"));
        assert!(
            Failure::Refused {
                status: 404,
                detail: "model not found".into()
            }
            .reason()
            .contains("model not found")
        );
        assert!(Failure::RateLimited.retryable() && Failure::Overloaded.retryable());
        assert!(!Failure::KeyRefused(401).retryable() && !Failure::Malformed.retryable());
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let e = Endpoint {
            kind: ProviderKind::Anthropic,
            model: "m".into(),
            base_url: "http://x".into(),
            key: Some("sk-secret".into()),
        };
        assert!(!format!("{e:?}").contains("sk-secret"));
    }

    #[test]
    fn clip_cuts_between_characters() {
        assert_eq!(clip("שלום  עולם\nטוב", 4), "שלום…");
        assert_eq!(clip("short", 10), "short");
        assert_eq!(join("http://h/v1/", "/chat"), "http://h/v1/chat");
    }
}
