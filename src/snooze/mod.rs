//! Snooze (issue 40): a thread leaves the inbox until a time the user chose (presets in their
//! time zone and the Israeli week), and comes back at the top, unread, with a notice; a reply
//! in the thread brings it back at once.
//!
//! The mailbox keeps it: the mail moves to a `Snoozed` folder (created when missing; Fastmail's
//! model, and Gmail's Snoozed label) carrying `$Snoozed` and the time as a keyword, so other
//! clients see it out of the inbox and a reinstall takes it up again. The store keeps a record
//! per snoozed thread for the list and the scheduler.
//!
//! - `model`: the record, the keywords.
//! - `times`: the presets and chosen times.
//! - `mailbox`: what snoozing, waking and a new time do to the mail (queued moves and keywords).
//! - `wake`: the due-time job (wake-ups, replies, snoozes found in the mailbox).
//! - `routes`: `/api/snooze/*`.

pub mod mailbox;
pub mod model;
pub mod routes;
pub mod times;
pub mod wake;

#[cfg(test)]
mod tests;

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::feature::{BackupSection, Feature, need};
use crate::forget::Step;
use crate::jobs::Spec;
use crate::state::AppState;
use crate::store::per_user::UserRecords;
use model::Snooze;

/// Snooze: routes, forget steps, backup section, and the due-time job (its places in the change
/// log taken before any sync; woken by new mail).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "snoozes",
        account: forget_account,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "snoozes",
        export: backup_export,
        import: backup_import,
    }],
    jobs: |_| vec![Spec::due(wake::JOB, wake::run)],
    prepare: |state| wake::join(&state.store),
    start: |state| {
        crate::emails::arrivals::wake_on_new_mail(state, wake::JOB);
        Ok(())
    },
    needs: &[need::<crate::notices::Notices>],
    ..Feature::named("snooze")
};

pub(crate) static SNOOZES: UserRecords = UserRecords::new("snoozes", "snoozes");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    SNOOZES.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    SNOOZES.forget(txn, user_id)
}

pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    SNOOZES.retain_in(txn, |_, s: &Snooze| s.account != account)
}

/// A sleeping snooze in a backup: its mailbox by address (account ids are this install's).
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    mailbox: String,
    thread_id: String,
    until: i64,
    created: i64,
    subject: String,
    from: String,
    message_ids: Vec<String>,
}

/// The settings backup's section: the sleeping snoozes. (The mailbox keeps them too: a restore
/// on a new install finds them in the Snoozed folder when the mailbox syncs.)
pub fn backup_export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let all: Vec<Snooze> = SNOOZES.list(&state.store, user_id)?;
    let accounts = crate::accounts::list_for_user(&state.store, user_id)?;
    let saved: Vec<Saved> = all
        .into_iter()
        .filter(Snooze::active)
        .filter_map(|s| {
            let mailbox = accounts.iter().find(|a| a.id == s.account)?.email.clone();
            Some(Saved {
                mailbox,
                thread_id: s.thread_id,
                until: s.until,
                created: s.created,
                subject: s.subject,
                from: s.from,
                message_ids: s.message_ids,
            })
        })
        .collect();
    if saved.is_empty() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(saved)?))
}

/// Restores the sleeping snoozes of mailboxes the user has here (a thread already sleeping is
/// left as it is).
pub fn backup_import(state: &AppState, user_id: u64, v: Value) -> anyhow::Result<()> {
    let saved: Vec<Saved> = serde_json::from_value(v)?;
    let accounts = crate::accounts::list_for_user(&state.store, user_id)?;
    let txn = state.store.db().begin_write()?;
    let have: Vec<Snooze> = SNOOZES.list_in(&txn, user_id)?;
    for s in saved.into_iter().take(model::MAX_ACTIVE) {
        let Some(account) = accounts
            .iter()
            .find(|a| a.email.eq_ignore_ascii_case(&s.mailbox))
        else {
            continue;
        };
        if have
            .iter()
            .any(|h| h.active() && h.account == account.id && h.thread_id == s.thread_id)
        {
            continue;
        }
        let id = SNOOZES.new_id_in(
            &txn,
            user_id,
            model::MAX_ACTIVE,
            crate::messages::SNOOZES_FULL,
        )?;
        let rec = Snooze {
            id,
            account: account.id,
            thread_id: s.thread_id,
            until: s.until,
            created: s.created,
            subject: crate::kit::cut(&s.subject, 500).to_string(),
            from: crate::kit::cut(&s.from, 200).to_string(),
            message_ids: s.message_ids.into_iter().take(200).collect(),
            woke: None,
        };
        SNOOZES.put_in(&txn, user_id, id, &rec)?;
    }
    txn.commit()?;
    state.jobs().trigger(state, wake::JOB);
    Ok(())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::WokeBy,
    model::Item,
    times::Presets,
    routes::ListResponse,
    routes::SnoozeRequest,
    routes::SnoozeResponse,
);
