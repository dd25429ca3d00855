//! A subscription manager (issue 40): every sender of list or bulk mail the user receives, with
//! its mail of the last 30 and 90 days, how much of it the user opened, and the ad detector's
//! verdict; leaving one by RFC 8058's one click from the server, else the `mailto:` form from
//! the user's mailbox, else the list's page opened for the user (and, with no header, the
//! removal links of the body offered, never followed); blocking a sender (a rule the user sees
//! and edits) and archiving all it sent; many at once; each attempt's result kept.
//!
//! - `headers`: a mail's list headers, its removal links, `mailto:` URIs.
//! - `model`: the sender, the attempts.
//! - `inventory`: following new mail, reading each mailbox's last 90 days once.
//! - `unsubscribe`: the one-click client (the outbound host policy), the `mailto:` mail.
//! - `actions`: leaving, blocking, archiving.
//! - `routes`: `/api/subscriptions/*`.

pub mod actions;
pub mod headers;
pub mod inventory;
pub mod model;
pub mod routes;
pub mod unsubscribe;

use std::sync::Arc;

use redb::WriteTransaction;
use serde_json::Value;

use crate::feature::{BackupSection, Feature, need};
use crate::forget::Step;
use crate::jobs::{Event, Spec};
use crate::state::AppState;
use crate::store::per_user::UserRecords;
use crate::store::user_record::UserRecord;
use model::{Attempt, Sender};

/// The subscription manager: routes, forget steps, backup section, the one-click client, and
/// the job that counts list mail (its place in the change log taken before any sync).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "subscriptions",
        account: forget_account,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "unsubscribeAttempts",
        export: backup_export,
        import: backup_import,
    }],
    jobs: |_| vec![Spec::due(inventory::JOB, inventory::run).on(Event::NewMail)],
    init: |setup| {
        let unsubscriber = unsubscribe::Unsubscriber::new(&setup.config.unsubscribe)?;
        setup.provide(Arc::new(unsubscriber))
    },
    prepare: |state| inventory::join(&state.store),
    needs: &[
        need::<unsubscribe::Unsubscriber>,
        need::<crate::outgoing::Outbox>,
    ],
    ..Feature::named("subscriptions")
};

pub(crate) static SENDERS: UserRecords =
    UserRecords::new("subscription_senders", "subscription_senders");
pub(crate) static ATTEMPTS: UserRecords =
    UserRecords::new("unsubscribe_attempts", "unsubscribe_attempts");
/// Mailboxes whose last 90 days were read (by account id).
pub(crate) static SCANNED: UserRecord = UserRecord::new("subscription_scans");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    SENDERS.create(txn)?;
    ATTEMPTS.create(txn)?;
    SCANNED.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    SENDERS.forget(txn, user_id)?;
    ATTEMPTS.forget(txn, user_id)
}

pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    let mut gone = Vec::new();
    SENDERS.retain_in(txn, |user, s: &Sender| {
        let keep = s.account != account;
        if !keep {
            gone.push((user, s.id));
        }
        keep
    })?;
    ATTEMPTS.retain_in(txn, |user, a: &Attempt| {
        !gone.contains(&(user, a.sender_id))
    })?;
    SCANNED.forget(txn, account)
}

/// The settings backup's section: the attempts to leave senders (the senders themselves are
/// counted again from the mail).
pub fn backup_export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let all: Vec<Attempt> = ATTEMPTS.list(&state.store, user_id)?;
    if all.is_empty() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(all)?))
}

/// Restores the attempts beside the user's own (each under a new id; one already here with the
/// same address, target and time is not added twice). They name no sender of this install.
pub fn backup_import(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::feature::Notes> {
    let list: Vec<Attempt> = serde_json::from_value(v)?;
    let have: Vec<Attempt> = ATTEMPTS.list(&state.store, user_id)?;
    let txn = state.store.begin_write()?;
    for mut a in list.into_iter().take(model::KEEP_ATTEMPTS) {
        if have
            .iter()
            .any(|h| h.address == a.address && h.target == a.target && h.at == a.at)
        {
            continue;
        }
        a.id = ATTEMPTS.new_id_in(&txn, user_id, usize::MAX, "")?;
        a.sender_id = 0;
        a.outbox_id = None;
        if a.state == model::AttemptState::Waiting {
            a.state = model::AttemptState::Failed;
        }
        a.address = crate::kit::cut(&a.address, 300).to_string();
        a.target = crate::kit::cut(&a.target, 2000).to_string();
        ATTEMPTS.put_in(&txn, user_id, a.id, &a)?;
    }
    txn.commit()?;
    Ok(Vec::new())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    model::Verdict,
    model::Method,
    model::AttemptState,
    model::AttemptItem,
    model::Item,
    actions::BlockTo,
    routes::ListResponse,
    routes::UnsubscribeResponse,
    routes::BlockRequest,
    routes::BlockResponse,
    routes::ArchiveResponse,
    routes::BulkRequest,
    routes::BulkResult,
    routes::BulkResponse,
);
