//! Settings backups sealed with a master password (spec 001 "save to server" / "load from
//! server", the master-password modal): what a user set up (their mailboxes with passwords,
//! AI provider and key, preferences, AI training, templates), one section per feature, sealed
//! so that only the master password opens it (`seal.rs`). The server keeps the last one per user;
//! it can also be downloaded and restored on this install or another.
//!
//! The sections are each feature's own (`feature::BackupSection`, declared in its `Feature`); a
//! feature that keeps per-user settings declares one, as it declares its forget step.
//!
//! Restore runs the sections in `app::FEATURES`' order (the preferences first, the AI provider
//! before what could call it, the mailboxes last) and each re-seals its secrets under this
//! server's key; an import runs the same checks and limits as the feature's routes and returns
//! notes (`feature::Notes`) for what it left out. The key derivation runs under
//! `auth::password::bounded`.

pub mod routes;
pub mod seal;

use redb::{ReadableDatabase, TableDefinition, WriteTransaction};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::auth::password;
use crate::error::{AppError, Result};
use crate::feature::{BackupSection, Feature, need};
use crate::forget::{self, Step};
use crate::messages;
use crate::state::AppState;
use crate::store::{Store, record};

pub use routes::router;

/// Settings backups: routes and forget step. The sections are every feature's own
/// ([`Sections`], built by `app` from the features' declarations).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "settings backup",
        account: forget::nothing,
        user: forget_user,
    }],
    needs: &[need::<Sections>, need::<crate::auth::limits::RateLimits>],
    ..Feature::named("backup")
};

/// user id → JSON [`Stored`]: the user's last backup.
pub const BACKUPS: TableDefinition<u64, &[u8]> = TableDefinition::new("settings_backups");

/// What the blob holds, once opened.
pub const FORMAT: &str = "mailclient-settings";
/// A backup file is refused above this (a real one is a few KB).
pub const MAX_BLOB: usize = 4 * 1024 * 1024;

/// What a section tells the user about its restore (Hebrew): a part it left out and why.
pub use crate::feature::Notes;

/// The sections of this install, every feature's in the features' order (a service built by
/// `app`).
pub struct Sections(pub Vec<&'static BackupSection>);

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stored {
    /// RFC 3339.
    pub created_at: String,
    pub sections: Vec<String>,
    #[serde(with = "b64")]
    pub blob: Vec<u8>,
}

mod b64 {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD.encode(v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        STANDARD.decode(s).map_err(serde::de::Error::custom)
    }
}

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(BACKUPS)?;
    Ok(())
}

/// Forgets a removed user's backup.
pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    txn.open_table(BACKUPS)?.remove(user_id)?;
    Ok(())
}

pub fn stored(store: &Store, user_id: u64) -> Result<Option<Stored>> {
    let txn = store.db().begin_read()?;
    Ok(match txn.open_table(BACKUPS)?.get(user_id)? {
        Some(v) => Some(record::decode(v.value())?),
        None => None,
    })
}

/// The master password's rule (spec 001 §5): at least 8 characters.
pub fn check_master(password: &str) -> Result<()> {
    if password.chars().count() < crate::auth::password::MIN_PASSWORD_CHARS {
        return Err(AppError::bad_request(messages::MASTER_PASSWORD_TOO_SHORT));
    }
    if password.len() > 1024 {
        return Err(AppError::bad_request(messages::BODY_TOO_LARGE));
    }
    Ok(())
}

/// Collects every section (on the blocking pool), seals them with the master password (in the
/// bounded pool of password hashes) and keeps the blob for the user. Returns what it kept.
pub async fn save(state: &AppState, user_id: u64, master: String) -> Result<Stored> {
    check_master(&master)?;
    let (created_at, names, plain) = state
        .blocking(move |s| {
            let mut contents = Map::new();
            for section in &s.service::<Sections>().0 {
                if let Some(v) = (section.export)(s, user_id).map_err(AppError::internal)? {
                    contents.insert(section.name.to_string(), v);
                }
            }
            let created_at = crate::kit::now_rfc3339();
            let names: Vec<String> = contents.keys().cloned().collect();
            let plain = serde_json::json!({
                "format": FORMAT,
                "version": 1,
                "createdAt": created_at,
                "sections": contents,
            });
            Ok((created_at, names, plain.to_string()))
        })
        .await?;
    let blob = password::bounded(move || seal::seal(&master, plain.as_bytes())).await;
    let stored = Stored {
        created_at,
        sections: names,
        blob,
    };
    state
        .blocking(move |s| {
            let txn = s.store.begin_write()?;
            txn.open_table(BACKUPS)?
                .insert(user_id, record::encode(&stored).as_slice())?;
            txn.commit()?;
            Ok(stored)
        })
        .await
}

/// Opens a blob with the master password (the key derived in the bounded pool of password
/// hashes, and only for parameters this build writes); nothing is changed when it does not open.
pub async fn open(master: String, blob: Vec<u8>) -> Result<Map<String, Value>> {
    check_master(&master)?;
    if blob.len() > MAX_BLOB {
        return Err(AppError::bad_request(messages::BACKUP_NOT_A_BACKUP));
    }
    let plain = password::bounded(move || seal::open(&master, &blob))
        .await
        .map_err(|e| {
            AppError::bad_request(match e {
                seal::OpenError::WrongPassword => messages::BACKUP_WRONG_PASSWORD,
                seal::OpenError::UnknownVersion => messages::BACKUP_NEWER,
                seal::OpenError::NotABackup => messages::BACKUP_NOT_A_BACKUP,
                seal::OpenError::TooCostly => messages::BACKUP_TOO_COSTLY,
            })
        })?;
    parse(&plain)
}

/// The sections of an opened blob's text (a backup of this program, or the Hebrew refusal).
pub fn parse(plain: &[u8]) -> Result<Map<String, Value>> {
    let v: Value = serde_json::from_slice(plain)
        .map_err(|_| AppError::bad_request(messages::BACKUP_NOT_A_BACKUP))?;
    if v["format"] != FORMAT {
        return Err(AppError::bad_request(messages::BACKUP_NOT_A_BACKUP));
    }
    match v.get("sections") {
        Some(Value::Object(m)) => Ok(m.clone()),
        _ => Err(AppError::bad_request(messages::BACKUP_NOT_A_BACKUP)),
    }
}

/// Puts the sections back, in this install's order; a section this install does not know is
/// skipped. Returns the names restored and the sections' notes.
pub fn restore(
    state: &AppState,
    user_id: u64,
    mut contents: Map<String, Value>,
) -> Result<(Vec<String>, Notes)> {
    let sections = state.service::<Sections>();
    let mut done = Vec::new();
    let mut notes = Vec::new();
    for s in &sections.0 {
        if let Some(v) = contents.remove(s.name) {
            let said = (s.import)(state, user_id, v).map_err(|e| {
                tracing::warn!(section = s.name, error = %format!("{e:#}"), "backup section not restored");
                // A refusal of the feature's own checks says why, in its words.
                let why = e
                    .downcast_ref::<AppError>()
                    .filter(|a| !matches!(a, AppError::Internal(_)))
                    .map(AppError::user_message);
                AppError::bad_request(match why {
                    Some(why) => format!("{}: {why}", messages::backup_section_failed(s.name)),
                    None => messages::backup_section_failed(s.name),
                })
            })?;
            done.push(s.name.to_string());
            notes.extend(said);
        }
    }
    Ok((done, notes))
}

crate::wire_types!(
    routes::BackupInfo,
    routes::BackupRequest,
    routes::BackupFileRequest,
    routes::BackupResponse,
);
