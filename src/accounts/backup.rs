//! The mailboxes' part of a settings backup: each connected mailbox with its servers and its
//! password (the backup is sealed with the master password, so the password may travel in it).
//! Restored mailboxes are saved sealed under this server's key and start syncing at once.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Settings;
use crate::state::AppState;

#[derive(Debug, Serialize, Deserialize)]
struct Mailbox {
    email: String,
    password: String,
    imap_server: String,
    imap_port: u16,
    imap_ssl: bool,
    smtp_server: String,
    smtp_port: u16,
    smtp_ssl: bool,
    #[serde(default)]
    imap_fingerprint: Option<String>,
    #[serde(default)]
    smtp_fingerprint: Option<String>,
}

pub fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let mut out = Vec::new();
    for a in super::list_for_user(&state.store, user_id)? {
        if a.is_local() {
            continue; // imported mail has no server to reconnect to
        }
        out.push(Mailbox {
            password: a.password(&state.key)?,
            email: a.email,
            imap_server: a.imap_server,
            imap_port: a.imap_port,
            imap_ssl: a.imap_ssl,
            smtp_server: a.smtp_server,
            smtp_port: a.smtp_port,
            smtp_ssl: a.smtp_ssl,
            imap_fingerprint: a.imap_fingerprint,
            smtp_fingerprint: a.smtp_fingerprint,
        });
    }
    Ok((!out.is_empty()).then(|| serde_json::json!(out)))
}

pub fn import(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<()> {
    let boxes: Vec<Mailbox> = serde_json::from_value(v)?;
    for m in boxes.into_iter().take(20) {
        let email = super::address::normalize(&m.email)
            .ok_or_else(|| anyhow::anyhow!("a mailbox address that is not one"))?;
        let record = super::save(
            &state.store,
            &state.key,
            user_id,
            &Settings {
                email,
                password: m.password,
                imap_server: m.imap_server,
                imap_port: m.imap_port,
                imap_ssl: m.imap_ssl,
                smtp_server: m.smtp_server,
                smtp_port: m.smtp_port,
                smtp_ssl: m.smtp_ssl,
                imap_fingerprint: m.imap_fingerprint,
                smtp_fingerprint: m.smtp_fingerprint,
            },
        )?;
        state.mailboxes.start(record.id);
    }
    Ok(())
}
