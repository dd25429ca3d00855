//! Follow-ups, "awaiting reply" (issue 40): a sent mail that asks something is tracked (the AI
//! decides when the user has a provider; without one, a question mark or a request phrase in
//! Hebrew or English; or the user marks it). When nobody answered within its days (per mail,
//! the preference `followUpDays` by default) it is in the "awaiting reply" list and the Inbox
//! Zero panel, and a reminder comes once; an answer in the thread clears it. One click writes a
//! polite nudge draft in the mail's language.
//!
//! - `model`: the record and its list item.
//! - `detect`: the rules without AI.
//! - `track`: the due-time job (sent mail, answers, decisions, reminders).
//! - `nudge`: the AI's questions, the nudge draft.
//! - `routes`: `/api/followups/*`.

pub mod detect;
pub mod model;
pub mod nudge;
pub mod routes;
pub mod track;

use redb::WriteTransaction;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::accounts::by_mailbox::{Mailboxes, Restore};
use crate::feature::{BackupSection, Feature, need};
use crate::forget::Step;
use crate::jobs::{Event, Spec};
use crate::state::AppState;
use crate::store::per_user::UserRecords;
use model::{FollowUp, State};

/// Follow-ups: routes, forget steps, backup section, and the due-time job (its places in the
/// change log taken before any sync; woken by new mail).
pub static FEATURE: Feature = Feature {
    routes: Some(routes::router),
    wire_types,
    forget: &[Step {
        name: "follow-ups",
        account: forget_account,
        user: forget_user,
    }],
    backup: &[BackupSection {
        name: "followUps",
        export: backup_export,
        import: backup_import,
    }],
    jobs: |_| vec![Spec::due(track::JOB, track::run).on(Event::NewMail)],
    prepare: |state| track::join(&state.store),
    needs: &[need::<crate::notices::Notices>, need::<crate::ai::Ai>],
    ..Feature::named("followups")
};

pub(crate) static FOLLOWUPS: UserRecords = UserRecords::new("follow_ups", "follow_ups");

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    FOLLOWUPS.create(txn)
}

pub fn forget_user(txn: &WriteTransaction, user_id: u64) -> anyhow::Result<()> {
    FOLLOWUPS.forget(txn, user_id)
}

pub fn forget_account(txn: &WriteTransaction, account: u64) -> anyhow::Result<()> {
    FOLLOWUPS.retain_in(txn, |_, f: &FollowUp| f.account != account)
}

/// The stored id of a follow-up's sent mail now: found by its Message-ID among its thread's
/// mail (a restored follow-up, a mail the mailbox renumbered), else the id it was tracked with.
pub fn mail_id(read: &crate::mailstore::MailRead, f: &FollowUp) -> anyhow::Result<u64> {
    if f.message_id.is_none() {
        return Ok(f.email_id);
    }
    if read
        .meta(f.email_id)?
        .is_some_and(|m| m.summary.message_id == f.message_id && !m.hidden)
    {
        return Ok(f.email_id);
    }
    let hash = crate::mailstore::thread_hash(&f.thread_id);
    for (_, id, _) in read.members(f.account, hash)? {
        if read
            .meta(id)?
            .is_some_and(|m| m.summary.message_id == f.message_id && !m.hidden)
        {
            return Ok(id);
        }
    }
    Ok(f.email_id)
}

/// A waiting follow-up in a backup: its mailbox by address, its mail by Message-ID.
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    mailbox: String,
    message_id: String,
    thread_id: String,
    subject: String,
    to: Vec<String>,
    sent_at: i64,
    due: i64,
    days: u32,
    source: detect::Source,
}

/// The settings backup's section: the follow-ups still waiting.
pub fn backup_export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let all: Vec<FollowUp> = FOLLOWUPS.list(&state.store, user_id)?;
    let mailboxes = Mailboxes::of(&state.store, user_id)?;
    let saved: Vec<Saved> = all
        .into_iter()
        .filter(|f| f.state == State::Waiting)
        .filter_map(|f| {
            Some(Saved {
                mailbox: mailboxes.address(f.account)?,
                message_id: f.message_id?,
                thread_id: f.thread_id,
                subject: f.subject,
                to: f.to,
                sent_at: f.sent_at,
                due: f.due,
                days: f.days,
                source: f.source,
            })
        })
        .collect();
    if saved.is_empty() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(saved)?))
}

/// Restores the waiting follow-ups of mailboxes the user has here (one already tracked for the
/// same mail is kept as it is). The sent mail is found again by its Message-ID when listed.
pub fn backup_import(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::feature::Notes> {
    let saved: Vec<Saved> = serde_json::from_value(v)?;
    Restore {
        table: &FOLLOWUPS,
        max: model::MAX_OPEN,
        full: crate::messages::FOLLOWUPS_FULL,
        mailbox: |s: &Saved| &s.mailbox,
        held: |h: &FollowUp, account, s: &Saved| {
            h.account == account && h.message_id.as_deref() == Some(&s.message_id)
        },
        make: |id, account, s: Saved| FollowUp {
            id,
            account,
            email_id: 0,
            message_id: Some(crate::kit::cut(&s.message_id, 500).to_string()),
            thread_id: s.thread_id,
            subject: crate::kit::cut(&s.subject, 500).to_string(),
            to: s.to.into_iter().take(20).collect(),
            sent_at: s.sent_at,
            due: s.due,
            days: s.days,
            source: s.source,
            state: State::Waiting,
            reminded: false,
            ended_at: None,
        },
    }
    .run(&state.store, user_id, saved)?;
    Ok(Vec::new())
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    detect::Source,
    model::State,
    model::Item,
    routes::ListResponse,
    routes::FollowUpRequest,
    routes::FollowUpResponse,
    routes::NudgeResponse,
);
