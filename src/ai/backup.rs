//! The AI parts of a settings backup: the provider choice with the key (opened for the endpoint
//! it was stored for, sealed again under this server's key on restore), and the AI-training
//! settings (only when the user saved their own).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::key::{self, Choice};
use super::training;
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

pub fn import_provider(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<()> {
    let p: Provider = serde_json::from_value(v)?;
    key::save_choice(&state.store, user_id, p.choice)?;
    if let Some(k) = p.key {
        key::store_key(&state.store, &state.key, &state.config.ai, user_id, &k)?;
    }
    Ok(())
}

pub fn export_training(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    Ok(training::own(&state.store, user_id)?
        .map(serde_json::to_value)
        .transpose()?)
}

pub fn import_training(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<()> {
    let now = crate::kit::now_rfc3339();
    training::save(&state.store, user_id, &v, &now)?;
    Ok(())
}
