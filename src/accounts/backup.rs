//! The mailboxes' part of a settings backup: each connected mailbox with its servers and its
//! password (the backup is sealed with the master password, so the password may travel in it).
//! Restored mailboxes are saved sealed under this server's key and start syncing at once.

use serde_json::Value;

use super::Settings;
use crate::state::AppState;

/// At most this many mailboxes are restored from one backup.
const MAX_MAILBOXES: usize = 20;

pub fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let mut out = Vec::new();
    for a in super::list_for_user(&state.store, user_id)? {
        if a.is_local() {
            continue; // imported mail has no server to reconnect to
        }
        // An OAuth account travels with its refresh token, sealed in the backup like a password.
        out.push(Settings {
            password: a.secret(&state.key)?,
            auth: a.auth,
            email: a.email,
            servers: a.servers,
            imap_fingerprint: a.imap_fingerprint,
            smtp_fingerprint: a.smtp_fingerprint,
        });
    }
    Ok((!out.is_empty()).then(|| serde_json::json!(out)))
}

pub fn import(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<()> {
    let boxes: Vec<Settings> = serde_json::from_value(v)?;
    for mut s in boxes.into_iter().take(MAX_MAILBOXES) {
        s.email = super::address::normalize(&s.email)
            .ok_or_else(|| anyhow::anyhow!("a mailbox address that is not one"))?;
        let record = super::save(&state.store, &state.key, user_id, &s)?;
        state.mailboxes.start(record.id);
    }
    Ok(())
}
