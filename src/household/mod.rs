//! Global settings for the household (spec 001 "save for all users", §7 "Global mail settings"
//! and "AI training settings" global). A departure from the spec, on purpose: only a signed-in
//! admin writes them, and no secret in them ever reaches a browser. The mail settings (with the
//! mailbox password) are sealed under the server key, since the server must use them without
//! anyone typing a password; a user who loads them gets the mailbox connected on the server
//! side. The AI key goes to `ai::key` (sealed for the server's endpoint) and the AI-training
//! defaults to `ai::training`, which use them for every user who has none of their own.

pub mod routes;

use redb::{ReadableDatabase, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};

use crate::accounts::Settings;
use crate::crypto::ServerKey;
use crate::error::Result;
use crate::feature::Feature;
use crate::store::{Store, record};

pub use routes::router;

/// Global settings: their routes, and their reader of the mail settings for restores.
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    // A restored mailbox from the household's settings is read through this (accounts sits
    // below the household).
    init: |setup| {
        let reader = crate::accounts::backup::Household(mail_settings);
        setup.provide(std::sync::Arc::new(reader))
    },
    ..Feature::named("household")
};

/// "email" → JSON [`Stored`].
pub const GLOBAL_SETTINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("global_settings");
const EMAIL: &str = "email";
const SEAL_CONTEXT: &str = "household:email";

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stored {
    /// The sealed [`Settings`] (password included: only ever sealed at rest).
    pub sealed: String,
    pub last_updated: String,
    pub updated_by: String,
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(GLOBAL_SETTINGS)?;
    Ok(())
}

pub fn stored(store: &Store) -> Result<Option<Stored>> {
    let txn = store.db().begin_read()?;
    Ok(match txn.open_table(GLOBAL_SETTINGS)?.get(EMAIL)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// The household's mail settings, opened.
pub fn mail(store: &Store, key: &ServerKey) -> Result<Option<(Settings, Stored)>> {
    let Some(stored) = stored(store)? else {
        return Ok(None);
    };
    let plain = key
        .open(SEAL_CONTEXT, &stored.sealed)
        .map_err(crate::error::AppError::internal)?;
    let mail: Settings =
        serde_json::from_slice(&plain).map_err(crate::error::AppError::internal)?;
    Ok(Some((mail, stored)))
}

/// The household's mail settings without their bookkeeping (`accounts::backup::Household`).
pub fn mail_settings(store: &Store, key: &ServerKey) -> Result<Option<Settings>> {
    Ok(mail(store, key)?.map(|(settings, _)| settings))
}

pub fn save_mail(
    store: &Store,
    key: &ServerKey,
    mail: &Settings,
    by: &str,
    now: &str,
) -> Result<Stored> {
    let plain = serde_json::to_vec(mail).map_err(crate::error::AppError::internal)?;
    let stored = Stored {
        sealed: key.seal(SEAL_CONTEXT, &plain),
        last_updated: now.to_string(),
        updated_by: by.to_string(),
    };
    let txn = store.begin_write()?;
    txn.open_table(GLOBAL_SETTINGS)?
        .insert(EMAIL, record::encode(&stored).as_slice())?;
    txn.commit()?;
    Ok(stored)
}

crate::wire_types!(
    routes::GlobalExists,
    routes::GlobalEmailRequest,
    routes::GlobalEmailView,
    routes::GlobalEmailResponse,
    routes::GlobalSaved,
    routes::GlobalSaveResponse,
    routes::GlobalAiTrainingResponse,
    routes::GlobalAiTrainingRequest,
);
