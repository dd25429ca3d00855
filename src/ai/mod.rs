//! AI help (issue 6; spec 000 §5, §7, §8; spec 001 AI key, AI training, Smart features): the
//! provider layer (`provider` with the `anthropic` and `openai` wire formats), the user's sealed
//! key and provider choice (`key`), the AI-training settings (`training`), the mail a call is
//! about (`source`), the questions (`prompts`), reading the answers (`answer`) and the routes of
//! the key, the settings and the three compose/reply calls (`routes`). The smart-features page
//! (`crate::smart`) asks through [`prepare`] and [`run`] too.
//!
//! A call reads the provider choice and sealed key (`key::endpoint`, falling back to the
//! household's; Anthropic without a key is `ai_key_missing`) and the AI-training settings
//! (`training::load`, overlaid with the call's own), builds its question, sends it (retries on
//! 429/529/5xx honouring Retry-After, no redirects) and reads the answer (structured answers are
//! validated JSON; anything else is `ai_failed`). To add a provider: a `WireFormat` implementation
//! and a `ProviderKind` variant. To add a feature: a prompt in `prompts.rs`, a reader in
//! `answer.rs`, a route using [`prepare`] and [`run`].

pub mod answer;
pub mod anthropic;
pub mod backup;
pub mod key;
pub mod openai;
pub mod prompts;
pub mod provider;
pub mod routes;
pub mod source;
pub mod training;

use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::Value;

pub use provider::{Ai, Ask, Endpoint, Failure};
pub use routes::router;
use training::Training;

/// AI help: routes, the key's and the training's forget steps and backup sections, and the
/// provider client.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[
        Step {
            name: "AI key and provider",
            account: forget::nothing,
            user: key::forget_user,
        },
        Step {
            name: "AI training",
            account: forget::nothing,
            user: training::forget_user,
        },
    ],
    backup: &[
        BackupSection {
            name: "aiProvider",
            export: backup::export_provider,
            import: backup::import_provider,
        },
        BackupSection {
            name: "aiTraining",
            export: backup::export_training,
            import: backup::import_training,
        },
    ],
    // Every provider call takes from the user's budgets (the per-user limits, set up by auth).
    init: |setup| {
        let limits = setup.need::<crate::auth::limits::RateLimits>()?;
        setup.provide(std::sync::Arc::new(Ai::new(
            setup.config.ai.clone(),
            limits,
        )?))
    },
    needs: &[need::<Ai>],
    ..Feature::named("ai")
};

use crate::error::{AppError, Result};
use crate::feature::{BackupSection, Feature, need};
use crate::forget::{self, Step};
use crate::state::AppState;

/// What every call may carry besides its own fields (spec 000 §7): settings and a system prompt
/// for this call only, and a key for this call only (also as header `X-Api-Key`).
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Extras {
    pub settings: Option<Value>,
    pub custom_system_prompt: Option<String>,
    pub api_key: Option<String>,
}

/// The key stays out of any debug output.
impl std::fmt::Debug for Extras {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extras")
            .field("settings", &self.settings)
            .field("custom_system_prompt", &self.custom_system_prompt)
            .field("api_key", &self.api_key.as_ref().map(|_| "<hidden>"))
            .finish()
    }
}

/// A call's provider and settings.
pub struct Prepared {
    pub endpoint: Endpoint,
    pub training: Training,
    /// The user's mailbox addresses by account, the first one first: the reply prompt names the
    /// one that received the mail.
    pub addresses: Vec<(u64, String)>,
}

impl Prepared {
    /// The address of the mailbox `account` (a stored mail's), else the user's first.
    pub fn address(&self, account: Option<u64>) -> &str {
        account
            .and_then(|a| self.addresses.iter().find(|(id, _)| *id == a))
            .or(self.addresses.first())
            .map_or("", |(_, email)| email.as_str())
    }
}

/// Reads the user's settings and where their calls go. No key for Anthropic is the spec's
/// `ai_key_missing`.
pub async fn prepare(
    state: &AppState,
    user_id: u64,
    extras: &Extras,
    headers: &HeaderMap,
) -> Result<Prepared> {
    let given = extras.api_key.clone().or_else(|| {
        headers
            .get("x-api-key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    });
    let settings = extras.settings.clone();
    let config = state.config.ai.clone();
    let server_key = state.key.clone();
    state
        .store_blocking(move |store| {
            let endpoint = key::endpoint(store, &server_key, &config, user_id, given)?;
            let training = training::load(store, user_id)?.overlaid(settings.as_ref())?;
            let addresses = crate::accounts::list_for_user(store, user_id)?
                .into_iter()
                .map(|a| (a.id, a.email))
                .collect();
            Ok(Prepared {
                endpoint,
                training,
                addresses,
            })
        })
        .await
}

/// Asks for `user_id` and reads the answer with `read`; a failure becomes
/// `<failed>: <reason>` (502), a spent day's budget the 429 of `[limits] ai_per_day`.
pub async fn run<T>(
    state: &AppState,
    user_id: u64,
    prepared: &Prepared,
    ask: &Ask,
    failed: &str,
    read: impl FnOnce(&str) -> Result<T, Failure>,
) -> Result<T> {
    let answer = state
        .service::<Ai>()
        .complete(user_id, &prepared.endpoint, ask)
        .await;
    answer.and_then(|text| read(&text)).map_err(|f| match f {
        Failure::BudgetSpent(secs) => {
            crate::auth::limits::refused(crate::auth::limits::Kind::AiDaily, secs)
        }
        f => AppError::AiFailed(format!("{failed}: {}", f.reason())),
    })
}

/// A non-blank text field, else the given message (400).
pub fn required(text: &str, message: &str) -> Result<()> {
    if text.trim().is_empty() {
        Err(AppError::bad_request(message))
    } else {
        Ok(())
    }
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    routes::KeyResponse,
    routes::KeyExists,
    provider::ProviderKind,
    routes::ProviderChoice,
    routes::AiSettings,
    training::Tone,
    training::Language,
    training::AiTemplate,
    training::Example,
    Training,
    routes::TrainingSaved,
    routes::SmartReplyResponse,
    routes::SubjectResponse,
    routes::ImproveResponse,
);
