//! Meeting invitations (iCalendar RFC 5545, iTIP RFC 5546, iMIP RFC 6047): a mail that carries
//! a `text/calendar` part (inline or attached; REQUEST, CANCEL, REPLY, COUNTER) gets a card
//! above its body; the user accepts, answers "maybe" or declines (with a note), and a real
//! iTIP REPLY goes to the organiser through the user's SMTP (the outbox), so Google Calendar,
//! Outlook and Thunderbird update their event. A cancellation marks the event cancelled, a
//! higher SEQUENCE replaces the earlier version, and accepted invitations that overlap are
//! shown as conflicts. "Add to my tasks" and an `.ics` download.
//!
//! - `parts`: the calendar parts of a mail; `event`: one calendar object read with calcard,
//!   bounded (size, components, attendees, occurrences); `words`: times and recurrences in
//!   Hebrew; `store`: the user's records by UID; `card`: the card (wire types); `reply`: the
//!   REPLY and its mail; `follow`: the job that takes new inbox mail in; `routes`:
//!   `/api/invites/*`.

pub mod card;
pub mod event;
mod follow;
pub mod parts;
pub mod reply;
pub mod routes;
pub mod store;
pub mod words;

use calcard::icalendar::{ICalendar, ICalendarProperty};
use redb::WriteTransaction;
use serde_json::Value;

use crate::feature::{BackupSection, Feature, need};
use crate::forget::{self, Step};
use crate::jobs::{Event, Spec};
use crate::state::AppState;

pub use routes::router;

/// Invitations: routes, the records' forget step and backup section (the user's answers), and
/// the job that takes new inbox mail in (its place in the change log taken before any sync).
pub static FEATURE: Feature = Feature {
    routes: Some(router),
    wire_types,
    forget: &[Step {
        name: "invitations",
        account: forget::nothing,
        user: store::forget_user,
    }],
    backup: &[BackupSection {
        name: "invitations",
        export: backup_export,
        import: backup_import,
    }],
    jobs: |_| vec![Spec::due(follow::JOB, follow::run).on(Event::NewMail)],
    prepare: |state| follow::join(&state.store),
    needs: &[need::<crate::outgoing::Outbox>],
    ..Feature::named("invites")
};

pub fn create_tables(txn: &WriteTransaction) -> Result<(), redb::Error> {
    store::create_tables(txn)
}

/// The settings backup's section: the user's answers (the events themselves come back with
/// the mail).
pub fn backup_export(state: &AppState, user_id: u64) -> anyhow::Result<Option<Value>> {
    let answered: Vec<store::Record> = store::all(&state.store, user_id)?
        .into_iter()
        .filter(|r| r.answer.is_some())
        .map(|r| store::Record {
            occurrences: Vec::new(),
            replies: Vec::new(),
            ..r
        })
        .collect();
    if answered.is_empty() {
        return Ok(None);
    }
    Ok(Some(serde_json::to_value(answered)?))
}

/// Restores the backed-up answers beside the user's own (an answer the user gave here wins).
pub fn backup_import(
    state: &AppState,
    user_id: u64,
    v: Value,
) -> anyhow::Result<crate::backup::Notes> {
    let list: Vec<store::Record> = serde_json::from_value(v)?;
    for r in list.into_iter().take(store::MAX_RECORDS) {
        if let Some(r) = restorable(r) {
            store::restore_answer(&state.store, user_id, r)?;
        }
    }
    Ok(Vec::new())
}

/// What of a backed-up record may come in. A backup file may be anyone's: only an answer the
/// user could give on the card, its texts bounded as the card's and the reply route's are; the
/// occurrences and the attendees' answers come back with the mail.
pub fn restorable(r: store::Record) -> Option<store::Record> {
    let answered = matches!(
        r.answer,
        Some(event::Answer::Accepted | event::Answer::Tentative | event::Answer::Declined)
    );
    if r.uid.trim().is_empty() || !answered {
        return None;
    }
    Some(store::Record {
        title: event::clean(&r.title, event::MAX_TEXT),
        comment: event::clean(&r.comment, routes::MAX_COMMENT * 4),
        occurrences: Vec::new(),
        replies: Vec::new(),
        ..r
    })
}

/// A calendar text as a file to import: read and written again by calcard (what the user
/// downloads is well-formed, whatever arrived), without the METHOD of a scheduling message.
pub fn ics_file(text: &str) -> Option<String> {
    if text.len() > event::MAX_ICS_BYTES {
        return None;
    }
    let mut cal = ICalendar::parse(text).ok()?;
    if let Some(top) = cal.components.first_mut() {
        top.entries.retain(|e| e.name != ICalendarProperty::Method);
    }
    Some(
        cal.to_string()
            .lines()
            .map(|l| format!("{l}\r\n"))
            .collect(),
    )
}

// This feature's part of the wire contract (see `crate::wire`).
crate::wire_types!(
    event::Method,
    event::Answer,
    event::Person,
    event::Attendee,
    card::State,
    card::Conflict,
    card::Invitation,
    card::InvitationResponse,
    card::ReplyRequest,
);
