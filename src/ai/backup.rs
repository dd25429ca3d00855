//! The AI parts of a settings backup: the provider choice with the key (opened for the endpoint
//! it was stored for, sealed again under this server's key on restore), and the AI-training
//! settings (only when the user saved their own).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::key::{self, Choice};
use super::training;
use crate::messages;
use crate::state::AppState;

#[derive(Debug, Serialize, Deserialize)]
struct Provider {
    choice: Choice,
    #[serde(default)]
    key: Option<String>,
}

pub fn export_provider(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let choice = key::choice(&state.store, user_id)?;
    let key = key::own_key(&state.store, &state.key, &state.config.ai, user_id)?;
    if choice == Choice::default() && key.is_none() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(Provider { choice, key })?))
}

pub fn import_provider(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::backup::Notes> {
    let p: Provider = serde_json::from_value(v)?;
    let config = &state.config.ai;
    let user = crate::auth::users::get(&state.store, user_id)?
        .ok_or_else(|| anyhow::anyhow!("no user {user_id}"))?;
    // Through the route's checks: a user who may not set the base URL keeps theirs, and hears
    // that the backup's was left out.
    let mut notes = Vec::new();
    let mut wanted = p.choice;
    if !key::may_set_base_url(config, &user) {
        let mine = key::choice(&state.store, user_id)?.base_url;
        if wanted.base_url.trim() != mine {
            notes.push(messages::RESTORED_AI_BASE_URL_SKIPPED.to_string());
            wanted.base_url = mine;
        }
    }
    key::set_choice(&state.store, config, &user, wanted)?;
    if let Some(k) = p.key {
        key::store_key(&state.store, &state.key, &state.config.ai, user_id, &k)?;
    }
    Ok(notes)
}

pub fn export_training(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    Ok(training::own(&state.store, user_id)?
        .map(serde_json::to_value)
        .transpose()?)
}

pub fn import_training(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::backup::Notes> {
    let now = crate::kit::now_rfc3339();
    training::save(&state.store, user_id, &v, &now)?;
    state
        .jobs()
        .happened(state, crate::jobs::Event::TrainingSaved);
    Ok(Vec::new())
}
