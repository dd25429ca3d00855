//! `/api/invites/{id}` (the card of mail `id`), `/reply` (accept, tentative, decline: an iTIP
//! REPLY through the outbox), `/ics` (the event as a file) and `/task` ("add to my tasks").
//! Every route reads the user's own mail only (`emails::get`): another user's id is a 404.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::card::{self, Inputs, Invitation, InvitationResponse, ReplyRequest, State as Shown};
use super::event::{Answer, Event, Person};
use super::{parts, reply, store};
use crate::auth::CurrentUser;
use crate::error::{ApiJson, AppError, Result};
use crate::kit::now;
use crate::mailstore::MessageMeta;
use crate::messages;
use crate::outgoing::outbox::{self, Item, Kind};
use crate::outgoing::{self, Outbox, deliver, mime};
use crate::state::{AppState, MailChange};
use crate::store::Store;

/// A comment's length at most (characters).
pub(super) const MAX_COMMENT: usize = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/invites/{id}", get(show))
        .route("/api/invites/{id}/reply", post(answer))
        .route("/api/invites/{id}/ics", get(download))
        .route("/api/invites/{id}/task", post(to_task))
}

fn not_found() -> AppError {
    AppError::NotFound(messages::INVITE_NOT_FOUND.into())
}

/// The user's addresses: their mailboxes'.
pub fn addresses(store: &Store, user: u64) -> Result<Vec<String>> {
    Ok(crate::accounts::list_for_user(store, user)?
        .into_iter()
        .map(|a| a.email)
        .collect())
}

/// One of the user's mails and its event (None when it carries none).
struct Loaded {
    meta: MessageMeta,
    event: Option<(Event, String)>,
    tz: chrono_tz::Tz,
}

fn load(store: &Store, user: u64, key: &str) -> Result<Loaded> {
    let id: u64 = key
        .parse()
        .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))?;
    let (meta, raw) = crate::emails::get(store, user, id)?;
    let tz = crate::settings::load(store, user)?.tz();
    let event = parts::listed(&meta.summary.attachments)
        .then(|| parts::first_event(&raw, tz))
        .flatten();
    Ok(Loaded { meta, event, tz })
}

/// The card of a loaded invitation, after taking it into the user's records.
fn card_of(store: &Store, user: u64, e: &Event, tz: chrono_tz::Tz) -> Result<Invitation> {
    let now = now();
    let txn = store.begin_write()?;
    store::register(&txn, user, e, now)?;
    txn.commit()?;
    let records = store::all(store, user)?;
    let record = records.iter().find(|r| r.uid == e.uid);
    Ok(card::build(Inputs {
        event: e,
        record,
        records: &records,
        me: &addresses(store, user)?,
        tz,
        now,
    }))
}

/// `GET /api/invites/{id}`.
async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<InvitationResponse>> {
    let invitation = state
        .store_blocking(move |store| {
            let l = load(store, user.id, &id)?;
            l.event
                .map(|(e, _)| card_of(store, user.id, &e, l.tz))
                .transpose()
        })
        .await?;
    Ok(Json(InvitationResponse { invitation }))
}

/// `POST /api/invites/{id}/reply`: the answer goes to the organiser through the outbox (so a
/// mailbox outage delays it, never loses it), and the card shows it at once.
async fn answer(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ReplyRequest>,
) -> Result<Json<InvitationResponse>> {
    if !matches!(
        req.answer,
        Answer::Accepted | Answer::Tentative | Answer::Declined
    ) {
        return Err(AppError::bad_request(messages::INVITE_ANSWER_INVALID));
    }
    let comment = req.comment.unwrap_or_default();
    let comment = comment.trim();
    if comment.chars().count() > MAX_COMMENT {
        return Err(AppError::bad_request(messages::INVITE_COMMENT_TOO_LONG));
    }
    let comment = super::event::clean(comment, MAX_COMMENT * 4);
    let (account, invitation) = state
        .store_blocking(move |store| {
            let l = load(store, user.id, &id)?;
            let (e, _) = l.event.ok_or_else(not_found)?;
            let shown = card_of(store, user.id, &e, l.tz)?;
            let organizer = e
                .organizer
                .clone()
                .filter(|o| mime::valid_address(&o.email));
            let Some(organizer) = organizer.filter(|_| shown.can_answer) else {
                return Err(AppError::bad_request(match shown.state {
                    Shown::Cancelled => messages::INVITE_CANCELLED,
                    Shown::Superseded => messages::INVITE_SUPERSEDED,
                    Shown::Active => messages::INVITE_CANNOT_ANSWER,
                }));
            };
            let account = outgoing::sending_account(store, user.id, None, Some(l.meta.id))?;
            let from = outgoing::sender(store, user.id, &account);
            let mine = addresses(store, user.id)?;
            let me = e
                .attendee_of(&mine)
                .map(|a| Person {
                    name: a.name.clone(),
                    email: a.email.clone(),
                })
                .unwrap_or_else(|| Person {
                    name: from.name.clone(),
                    email: account.email.clone(),
                });
            let now = now();
            let mail = reply::ReplyMail {
                event: &e,
                organizer: &organizer,
                from,
                me,
                answer: req.answer,
                comment: &comment,
                invitation_message_id: l.meta.summary.message_id.as_deref(),
                original_id: l.meta.id,
                now,
            }
            .composed();
            outbox::add(store, Item::new(user.id, account.id, Kind::Send, mail, now))?;
            store::answered(store, user.id, &e, req.answer, &comment, now)?;
            Ok((account, card_of(store, user.id, &e, l.tz)?))
        })
        .await?;
    state.service::<Outbox>().wake.notify_one();
    deliver::notify(&state, user.id, account.id, MailChange::Outbox);
    Ok(Json(InvitationResponse {
        invitation: Some(invitation),
    }))
}

/// `GET /api/invites/{id}/ics`: the event as a calendar file to import (without the
/// invitation's METHOD, so a calendar adds it rather than answering it).
async fn download(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Response> {
    let text = state
        .store_blocking(move |store| {
            let l = load(store, user.id, &id)?;
            let (_, text) = l.event.ok_or_else(not_found)?;
            super::ics_file(&text).ok_or_else(not_found)
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/calendar; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"invite.ics\"",
            ),
        ],
        text,
    )
        .into_response())
}

/// `POST /api/invites/{id}/task`: a task due when the event starts, linked to the mail.
async fn to_task(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<crate::tasks::Task>> {
    let task = state
        .store_blocking(move |store| {
            let l = load(store, user.id, &id)?;
            let (e, _) = l.event.ok_or_else(not_found)?;
            let (when, _) = e
                .when
                .as_ref()
                .map(|w| super::words::when(w, l.tz))
                .unwrap_or_default();
            let mut description = when;
            if !e.location.is_empty() {
                description.push_str(&format!("\n{}", e.location));
            }
            if let Some(o) = &e.organizer {
                description.push_str(&format!("\n{} <{}>", o.name, o.email));
            }
            let due = match &e.when {
                Some(super::event::When::Timed { start, .. }) => crate::kit::iso(*start),
                Some(super::event::When::Days { first, .. }) => first.to_string(),
                None => String::new(),
            };
            let title = if e.title.is_empty() {
                messages::INVITE_UNTITLED.to_string()
            } else {
                e.title.clone()
            };
            crate::tasks::add(
                store,
                user.id,
                crate::tasks::TaskInput {
                    title: crate::kit::cut(&title, 300).to_string(),
                    description: crate::kit::cut(description.trim(), 4000).to_string(),
                    due_date: due,
                    email_id: Some(l.meta.id.to_string()),
                    ..Default::default()
                },
            )
        })
        .await?;
    crate::tasks::reminders::rethink(&state);
    Ok(Json(crate::tasks::Task::of(task, now())))
}
