//! The user's provider key and provider choice. The key is sealed with the server key, bound to
//! the user, the provider and the origin (scheme, host, port) it was stored for: it opens only for
//! that endpoint, so a later change of provider or address (by the user, by anyone holding their
//! session, or by the admin's config) never carries it to another host. It is never returned by
//! the API and never logged. The choice (provider, model, base URL) overrides the `[ai]` config
//! per user; [`endpoint`] puts the two together for a call.

use redb::{ReadableDatabase, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::provider::{Endpoint, ProviderKind};
use crate::auth::users::{Role, UserRecord};
use crate::config::AiConfig;
use crate::crypto::ServerKey;
use crate::error::{AppError, Result};
use crate::messages;
use crate::store::{Store, record};

/// user id → the sealed key.
pub const AI_KEYS: TableDefinition<u64, &str> = TableDefinition::new("ai_keys");
/// user id → JSON [`Choice`].
pub const AI_CHOICE: TableDefinition<u64, &[u8]> = TableDefinition::new("ai_choice");
/// "household" → the household's key (global settings), sealed like a user's: bound to the
/// provider and origin in effect when the admin saved it.
pub const AI_GLOBAL_KEY: TableDefinition<&str, &str> = TableDefinition::new("ai_global_key");
const HOUSEHOLD: &str = "household";

const MAX_KEY: usize = 500;
const MAX_FIELD: usize = 300;

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(AI_KEYS)?;
    txn.open_table(AI_CHOICE)?;
    Ok(())
}

/// Schema 10: the household's key.
pub fn create_global_table(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(AI_GLOBAL_KEY)?;
    Ok(())
}

fn household_context(kind: ProviderKind, base_url: &str) -> String {
    format!("ai-key:household:{}:{}", kind.name(), origin(base_url))
}

/// Seals the household's key for the server's own endpoint (the `[ai]` config): it serves
/// every user without a key of their own whose endpoint is that one.
pub fn store_household_key(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    key: &str,
) -> Result<()> {
    let key = key.trim();
    if key.len() > MAX_KEY || key.chars().any(char::is_control) {
        return Err(AppError::bad_request(messages::AI_KEY_TOO_LONG));
    }
    let (kind, _, base_url) = effective(config, &Choice::default());
    let sealed = server_key.seal(&household_context(kind, &base_url), key.as_bytes());
    let txn = store.begin_write()?;
    txn.open_table(AI_GLOBAL_KEY)?
        .insert(HOUSEHOLD, sealed.as_str())?;
    txn.commit()?;
    Ok(())
}

/// Whether the household has a key stored.
pub fn household_key_set(store: &Store) -> Result<bool> {
    let txn = store.db().begin_read()?;
    Ok(txn.open_table(AI_GLOBAL_KEY)?.get(HOUSEHOLD)?.is_some())
}

/// The household's key, if it opens for this endpoint.
fn household_key(
    store: &Store,
    server_key: &ServerKey,
    kind: ProviderKind,
    base_url: &str,
) -> Result<Option<String>> {
    let txn = store.db().begin_read()?;
    let Some(sealed) = txn.open_table(AI_GLOBAL_KEY)?.get(HOUSEHOLD)? else {
        return Ok(None);
    };
    Ok(server_key
        .open(&household_context(kind, base_url), sealed.value())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok()))
}

/// The user's own key for their endpoint in effect (not the household's).
pub fn own_key(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    user_id: u64,
) -> Result<Option<String>> {
    let (kind, _, base_url) = effective(config, &in_effect(store, config, user_id)?);
    stored_key(store, server_key, user_id, kind, &base_url)
}

/// The seal's context: the key opens only for the user and the endpoint it was stored for.
fn context(user_id: u64, kind: ProviderKind, base_url: &str) -> String {
    format!("ai-key:{user_id}:{}:{}", kind.name(), origin(base_url))
}

/// `scheme://host:port` of a URL, lower-cased (the path may change, the host may not).
pub fn origin(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    )
}

/// Seals `key` for the user's endpoint in effect now.
pub fn store_key(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    user_id: u64,
    key: &str,
) -> Result<()> {
    let key = key.trim();
    if key.is_empty() {
        return Err(AppError::bad_request(messages::AI_KEY_BLANK));
    }
    if key.len() > MAX_KEY || key.chars().any(char::is_control) {
        return Err(AppError::bad_request(messages::AI_KEY_TOO_LONG));
    }
    let (kind, _, base_url) = effective(config, &in_effect(store, config, user_id)?);
    let sealed = server_key.seal(&context(user_id, kind, &base_url), key.as_bytes());
    let txn = store.begin_write()?;
    txn.open_table(AI_KEYS)?.insert(user_id, sealed.as_str())?;
    txn.commit()?;
    Ok(())
}

pub fn delete_key(store: &Store, user_id: u64) -> Result<()> {
    let txn = store.begin_write()?;
    txn.open_table(AI_KEYS)?.remove(user_id)?;
    txn.commit()?;
    Ok(())
}

/// Forgets everything AI of a user being removed (inside the removal's transaction).
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(AI_KEYS)?.remove(user_id)?;
    txn.open_table(AI_CHOICE)?.remove(user_id)?;
    Ok(())
}

/// Whether a key is stored that the user's endpoint in effect can use.
pub fn key_exists(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    user_id: u64,
) -> Result<bool> {
    Ok(key_status(store, server_key, config, user_id)?.0)
}

/// Whether the user has a key of their own for their endpoint in effect, and, if not, whether
/// the household's opens for it (then their AI calls use it).
pub fn key_status(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    user_id: u64,
) -> Result<(bool, bool)> {
    let (kind, _, base_url) = effective(config, &in_effect(store, config, user_id)?);
    if stored_key(store, server_key, user_id, kind, &base_url)?.is_some() {
        return Ok((true, false));
    }
    Ok((
        false,
        household_key(store, server_key, kind, &base_url)?.is_some(),
    ))
}

/// The stored key, opened for this endpoint. A key stored for another provider or host does not
/// open (and counts as none); so does one sealed by another server key (a store restored
/// without its key file): the user is asked for the key again rather than shown a 500.
fn stored_key(
    store: &Store,
    server_key: &ServerKey,
    user_id: u64,
    kind: ProviderKind,
    base_url: &str,
) -> Result<Option<String>> {
    let txn = store.db().begin_read()?;
    let Some(sealed) = txn.open_table(AI_KEYS)?.get(user_id)? else {
        return Ok(None);
    };
    Ok(server_key
        .open(&context(user_id, kind, base_url), sealed.value())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok()))
}

/// The user's overrides; empty fields fall back to the server's `[ai]` section.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Choice {
    pub provider: String,
    pub model: String,
    pub base_url: String,
}

impl Choice {
    pub fn checked(self) -> Result<Self> {
        let provider = self.provider.trim().to_string();
        if !provider.is_empty() && ProviderKind::parse(&provider).is_none() {
            return Err(AppError::bad_request(messages::AI_PROVIDER_UNKNOWN));
        }
        let model = self.model.trim().to_string();
        if model.len() > MAX_FIELD || model.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(AppError::bad_request(messages::AI_MODEL_INVALID));
        }
        let base_url = self.base_url.trim().to_string();
        let url_ok = base_url.is_empty() || (base_url_ok(&base_url) && base_url.len() <= MAX_FIELD);
        if !url_ok {
            return Err(AppError::bad_request(messages::AI_BASE_URL_INVALID));
        }
        Ok(Self {
            provider,
            model,
            base_url,
        })
    }
}

pub use crate::config::base_url_ok;

pub fn choice(store: &Store, user_id: u64) -> Result<Choice> {
    let txn = store.db().begin_read()?;
    Ok(match txn.open_table(AI_CHOICE)?.get(user_id)? {
        Some(v) => record::decode(v.value())?,
        None => Choice::default(),
    })
}

/// Whether `user` may point their AI calls at an address of their own: the server would POST
/// wherever it says, so by default only admins may (`[ai] allow_user_base_url`).
pub fn may_set_base_url(config: &AiConfig, user: &UserRecord) -> bool {
    user.role == Role::Admin || config.allow_user_base_url
}

/// The user's choice as it may be used now: their own base URL only while they may set one.
/// Checked where the URL is used, not only where it is saved: a URL saved while an admin (or
/// while the config allowed it) stops at the demotion, and one brought by a restored backup
/// never takes effect for a user who may not set it.
pub fn in_effect(store: &Store, config: &AiConfig, user_id: u64) -> Result<Choice> {
    let mut c = choice(store, user_id)?;
    if !c.base_url.is_empty() {
        let allowed =
            crate::auth::users::get(store, user_id)?.is_some_and(|u| may_set_base_url(config, &u));
        if !allowed {
            c.base_url.clear();
        }
    }
    Ok(c)
}

/// Saves `user`'s choice through the checks of `PUT /api/settings/ai` (a restored backup's
/// too): a user who may not set the base URL keeps the one they have (403 on another).
pub fn set_choice(
    store: &Store,
    config: &AiConfig,
    user: &UserRecord,
    wanted: Choice,
) -> Result<Choice> {
    let mine = choice(store, user.id)?;
    if !may_set_base_url(config, user) && wanted.base_url.trim() != mine.base_url {
        return Err(AppError::Forbidden(messages::AI_BASE_URL_ADMIN_ONLY.into()));
    }
    save_choice(store, user.id, wanted)
}

fn save_choice(store: &Store, user_id: u64, choice: Choice) -> Result<Choice> {
    let choice = choice.checked()?;
    let txn = store.begin_write()?;
    txn.open_table(AI_CHOICE)?
        .insert(user_id, record::encode(&choice).as_slice())?;
    txn.commit()?;
    Ok(choice)
}

/// Provider, model and base URL in effect: the user's choice, else the config's, else the
/// provider's defaults. The config's model and URL only apply to the config's provider.
pub fn effective(config: &AiConfig, choice: &Choice) -> (ProviderKind, String, String) {
    let server_kind = ProviderKind::parse(&config.provider).unwrap_or(ProviderKind::Anthropic);
    let kind = ProviderKind::parse(&choice.provider).unwrap_or(server_kind);
    let pick = |mine: &str, server: &str, fallback: &str| {
        if !mine.is_empty() {
            mine.to_string()
        } else if kind == server_kind && !server.is_empty() {
            server.to_string()
        } else {
            fallback.to_string()
        }
    };
    (
        kind,
        pick(&choice.model, &config.model, kind.default_model()),
        pick(&choice.base_url, &config.base_url, kind.default_base_url()),
    )
}

/// Where this user's calls go when the request brings no key (a job's call, a restore's check).
pub fn user_endpoint(state: &crate::state::AppState, user_id: u64) -> Result<Endpoint> {
    endpoint(&state.store, &state.key, &state.config.ai, user_id, None)
}

/// Where this user's calls go. `given` is a key sent with the request (used for it only).
/// Anthropic without any key is the spec's "no key" error.
pub fn endpoint(
    store: &Store,
    server_key: &ServerKey,
    config: &AiConfig,
    user_id: u64,
    given: Option<String>,
) -> Result<Endpoint> {
    let (kind, model, base_url) = effective(config, &in_effect(store, config, user_id)?);
    let key = match given
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
    {
        Some(k) => Some(k),
        None => match stored_key(store, server_key, user_id, kind, &base_url)? {
            Some(k) => Some(k),
            // A user without a key of their own uses the household's, for its endpoint only.
            None => household_key(store, server_key, kind, &base_url)?,
        },
    };
    if key.is_none() && kind.key_required() {
        return Err(AppError::AiKeyMissing);
    }
    Ok(Endpoint {
        kind,
        model,
        base_url,
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_choice_wins_and_config_values_stay_with_their_provider() {
        let config = AiConfig {
            provider: "anthropic".into(),
            model: "claude-x".into(),
            base_url: "http://127.0.0.1:9/".into(),
            ..AiConfig::default()
        };
        let (k, m, u) = effective(&config, &Choice::default());
        assert_eq!(
            (k, m.as_str(), u.as_str()),
            (ProviderKind::Anthropic, "claude-x", "http://127.0.0.1:9/")
        );
        let local = Choice {
            provider: "openai".into(),
            ..Choice::default()
        };
        let (k, m, u) = effective(&config, &local);
        assert_eq!(k, ProviderKind::OpenAi);
        assert_eq!(
            (m.as_str(), u.as_str()),
            ("gpt-4o-mini", "https://api.openai.com/v1")
        );
    }

    #[test]
    fn choices_are_checked() {
        let bad = |c: Choice| c.checked().unwrap_err().user_message();
        assert_eq!(
            bad(Choice {
                provider: "gemini".into(),
                ..Choice::default()
            }),
            messages::AI_PROVIDER_UNKNOWN
        );
        assert_eq!(
            bad(Choice {
                base_url: "ftp://x".into(),
                ..Choice::default()
            }),
            messages::AI_BASE_URL_INVALID
        );
        assert_eq!(
            bad(Choice {
                model: "a b".into(),
                ..Choice::default()
            }),
            messages::AI_MODEL_INVALID
        );
    }
}
