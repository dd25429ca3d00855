//! The mailboxes' part of a settings backup: each connected mailbox with its servers and its
//! password (the backup is sealed with the master password, so the user's own password may
//! travel in it). A mailbox connected with the household's settings travels as a reference
//! without the password: the password is the household's, which the user never typed, and a
//! backup is a file the user takes away and opens offline.
//!
//! A restore reads a file that may be anyone's, so each mailbox goes through what the mailbox
//! login goes through: the same checks (`validated`), a try of the user's connection budget
//! (`routes::spend_try`) and the cap on mailboxes per user (in `save`). A household reference
//! is linked again to this install's household settings when they are for the same address;
//! anywhere else it is left out with a note. Restored mailboxes start syncing at once.

use serde_json::Value;

use super::Settings;
use crate::backup::Notes;
use crate::crypto::ServerKey;
use crate::messages;
use crate::state::AppState;
use crate::store::Store;

/// Where the household's mail settings come from: the `household` feature, which sits above
/// this one (it connects mailboxes), so it hands its reader in as a service (in its `init`).
pub struct Household(pub fn(&Store, &ServerKey) -> crate::error::Result<Option<Settings>>);

/// At most this many mailboxes are read from one backup.
const MAX_MAILBOXES: usize = 20;

pub fn export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let mut out = Vec::new();
    for a in super::list_for_user(&state.store, user_id)? {
        if a.is_local() {
            continue; // imported mail has no server to reconnect to
        }
        // An OAuth account travels with its refresh token, sealed in the backup like a password;
        // the household's password never does.
        let password = if a.from_household {
            String::new()
        } else {
            a.secret(&state.key)?
        };
        out.push(Settings {
            password,
            auth: a.auth,
            email: a.email,
            servers: a.servers,
            imap_fingerprint: a.imap_fingerprint,
            smtp_fingerprint: a.smtp_fingerprint,
            household: a.from_household,
        });
    }
    Ok((!out.is_empty()).then(|| serde_json::json!(out)))
}

/// The household's settings for a reference to `email`, if this install has them.
fn household_for(state: &AppState, email: &str) -> anyhow::Result<Option<Settings>> {
    let read = state.service::<Household>().0;
    Ok(read(&state.store, &state.key)?
        .map(|mut h| {
            h.household = true;
            h
        })
        .filter(|h| h.email.eq_ignore_ascii_case(email.trim())))
}

pub fn import(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<Notes> {
    let boxes: Vec<Settings> = serde_json::from_value(v)?;
    let max = state.config.mail.max_accounts_per_user;
    let mut notes = Vec::new();
    for s in boxes.into_iter().take(MAX_MAILBOXES) {
        let s = if s.household {
            match household_for(state, &s.email)? {
                Some(h) => h,
                None => {
                    notes.push(messages::restored_household_mailbox_skipped(&s.email));
                    continue;
                }
            }
        } else {
            s
        };
        let s = super::validated(s)?;
        super::routes::spend_try(state, user_id)?;
        let record = super::save(&state.store, &state.key, user_id, &s, max)?;
        state.mailboxes.start(record.id);
    }
    Ok(notes)
}
